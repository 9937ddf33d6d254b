"""A class on JupyterHub, driven from outside as its people would: log in, start a server, run a notebook in a kernel.

Everything goes through the hub's public doors: its login page and REST API, then, behind its proxy, each user's
own Jupyter server (the contents API to put files in the user's home, the kernels API and a kernel's websocket to
run code). Nothing here reaches into the hub's processes, so what works here works for a class.
The tests (tests/test_hub.py) and benchmarks/hub_capacity.py use it; a teacher can use it to try a hub before class.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import nbformat


@dataclass
class Ran:
    """What one code cell did in the kernel: what it printed (stdout and stderr), and the error it raised, if any."""

    printed: str = ""
    error: str | None = None


@dataclass
class Student:
    """A person logged in to the hub: their name and an API token of their own (never an admin's)."""

    hub: str
    name: str
    token: str
    headers: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.headers = {"Authorization": f"token {self.token}"}

    @property
    def server(self) -> str:
        """The user's Jupyter server, behind the hub's proxy."""
        return f"{self.hub}/user/{self.name}"


async def log_in(hub: str, name: str, password: str = "") -> Student:
    """Log in through the hub's login form (as a browser does), then ask the REST API for a token of one's own."""
    hub = hub.rstrip("/")
    async with httpx.AsyncClient(timeout=30) as http:
        page = await http.get(f"{hub}/hub/login")
        page.raise_for_status()
        xsrf = http.cookies.get("_xsrf", "")  # the hub refuses a form or an API call by cookie without it
        form = await http.post(f"{hub}/hub/login", data={"username": name, "password": password, "_xsrf": xsrf})
        if form.status_code not in (200, 302) or not any(cookie.startswith("jupyterhub-") for cookie in http.cookies):
            raise PermissionError(f"the hub refused {name!r}'s login (HTTP {form.status_code})")
        xsrf = http.cookies.get("_xsrf", "")  # a new one, bound to the session the login opened
        made = await http.post(f"{hub}/hub/api/users/{name}/tokens", headers={"X-XSRFToken": xsrf},
                               json={"note": "agentkit.classroom.hub", "expires_in": 3600})
        made.raise_for_status()
    return Student(hub, name, made.json()["token"])


async def start_server(student: Student, timeout: float = 120) -> None:
    """Ask the hub to start the student's server and wait until the hub says it is ready."""
    async with httpx.AsyncClient(timeout=30, headers=student.headers) as http:
        asked = await http.post(f"{student.hub}/hub/api/users/{student.name}/server")
        if asked.status_code not in (201, 202, 400):  # 400: already running
            raise RuntimeError(f"the hub would not start {student.name}'s server: HTTP {asked.status_code} {asked.text}")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            user = (await http.get(f"{student.hub}/hub/api/users/{student.name}")).json()
            if user.get("servers", {}).get("", {}).get("ready"):
                return
            await asyncio.sleep(0.25)
    raise TimeoutError(f"{student.name}'s server was not ready after {timeout:.0f} s")


async def stop_server(student: Student, timeout: float = 60) -> None:
    """Ask the hub to stop the student's server, and wait until it has."""
    async with httpx.AsyncClient(timeout=timeout, headers=student.headers) as http:
        await http.delete(f"{student.hub}/hub/api/users/{student.name}/server")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not (await http.get(f"{student.hub}/hub/api/users/{student.name}")).json().get("servers"):
                return
            await asyncio.sleep(0.25)


async def upload(student: Student, local: Path, remote: str) -> None:
    """Put a file (or a folder, recursively) into the student's home through their server's contents API."""
    async with httpx.AsyncClient(timeout=60, headers=student.headers) as http:
        for path in [local, *sorted(local.rglob("*"))] if local.is_dir() else [local]:
            name = f"{remote}/{path.relative_to(local)}" if local.is_dir() and path != local else remote
            if path.is_dir():
                model = {"type": "directory"}
            elif path.suffix == ".ipynb":
                model = {"type": "notebook", "format": "json", "content": json.loads(path.read_text(encoding="utf-8"))}
            else:
                model = {"type": "file", "format": "text", "content": path.read_text(encoding="utf-8")}
            for folder in reversed(Path(name).parents[:-1]):  # the contents API makes no parent folder itself
                await http.put(f"{student.server}/api/contents/{folder}", json={"type": "directory"})
            (await http.put(f"{student.server}/api/contents/{name}", json=model)).raise_for_status()


class Kernel:
    """A kernel on the student's own server, reached over its websocket with the Jupyter messaging protocol."""

    def __init__(self, student: Student, cwd: str = "") -> None:
        self.student, self.cwd, self.id, self.socket = student, cwd, "", None
        self.session = uuid.uuid4().hex

    async def __aenter__(self) -> Kernel:
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect  # tornado comes with every Jupyter server

        async with httpx.AsyncClient(timeout=60, headers=self.student.headers) as http:
            made = await http.post(f"{self.student.server}/api/kernels", json={"name": "python3", "path": self.cwd})
            made.raise_for_status()
        self.id = made.json()["id"]
        url = f"{self.student.server}/api/kernels/{self.id}/channels".replace("http", "ws", 1)
        # tornado's own 20 s is too short for a class of kernels starting at once on a busy server: 60 s, as above
        request = HTTPRequest(url, headers=self.student.headers, connect_timeout=60, request_timeout=60)
        self.socket = await websocket_connect(request, max_message_size=64 << 20)
        return self

    async def __aexit__(self, *_: object) -> None:
        if self.socket is not None:
            self.socket.close()
        async with httpx.AsyncClient(timeout=60, headers=self.student.headers) as http:
            await http.delete(f"{self.student.server}/api/kernels/{self.id}")

    async def run(self, code: str, timeout: float = 120) -> Ran:
        """Run one cell; return when the kernel has replied and gone idle (every output of the cell has arrived)."""
        msg_id = uuid.uuid4().hex
        await self.socket.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": self.session, "username": self.student.name,
                       "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        ran, replied, idle = Ran(), False, False
        while not (replied and idle):
            raw = await asyncio.wait_for(self.socket.read_message(), timeout)
            if raw is None:
                raise ConnectionError(f"{self.student.name}'s kernel closed its websocket")
            message = json.loads(raw)
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = message["msg_type"], message["content"]
            if kind == "stream":
                ran.printed += content["text"]
            elif kind == "error":
                ran.error = f"{content['ename']}: {content['evalue']}"
            elif kind == "execute_reply":
                replied = True
                if content.get("status") == "error" and ran.error is None:
                    ran.error = f"{content.get('ename')}: {content.get('evalue')}"
            elif kind == "status" and content["execution_state"] == "idle":
                idle = True
        return ran


async def run_notebook(student: Student, notebook: Path, cwd: str = "", timeout: float = 120) -> list[Ran]:
    """Run every code cell of a local notebook, top to bottom, in a new kernel on the student's server in `cwd`."""
    cells = [cell.source for cell in nbformat.read(notebook, as_version=4).cells if cell.cell_type == "code"]
    async with Kernel(student, cwd) as kernel:
        return [await kernel.run(code, timeout) for code in cells]
