"""A real JupyterHub on 127.0.0.1, in a folder of its own, to try a class's setup before the class (and to test it).

It runs the hub as a class would, only smaller: its proxy is configurable-http-proxy from npm (as The Littlest
JupyterHub and Zero to JupyterHub run it), every user's server is a process of its own started by the hub
(SimpleLocalProcessSpawner: each user a home folder under this folder, all under the account that runs the hub,
which a real hub replaces by one system account a user), and anyone may log in with the class password
(DummyAuthenticator: a stand-in for the class's real login). Leaving the `with` block stops the hub, which stops
the proxy and every server; then whatever the hub started and left running is ended, so nothing outlives it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

PROXY = "configurable-http-proxy"
PROXY_INSTALL = "npm install -g configurable-http-proxy"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def missing_parts() -> str | None:
    """Why a local hub cannot start here (the hub extra, or the proxy from npm), or None when it can."""
    if shutil.which("jupyterhub", path=_path()) is None:
        return "jupyterhub is not installed: pip install -e '.[hub]'"
    if shutil.which(PROXY, path=_path()) is None:
        return f"the hub's proxy is not installed: {PROXY_INSTALL} (needs Node.js and npm)"
    return None


def _path() -> str:
    # The hub, its servers and nbgrader's own scripts are this Python's: its bin folder first on PATH.
    return f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


class LocalHub:
    """`with LocalHub(folder, users) as hub:` a running hub at `hub.url`; `hub.environment` is what it was given."""

    def __init__(self, folder: Path, users: list[str], admins: list[str] = (), password: str = "class",
                 environment: dict[str, str] | None = None, configs: list[Path] = (), timeout: float = 60) -> None:
        self.folder, self.users, self.admins, self.password = Path(folder), list(users), list(admins), password
        self.environment = dict(environment or {})
        self.configs = [Path(config).resolve() for config in configs]  # a class's own settings, loaded after these
        self.timeout, self.port = timeout, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.log = self.folder / "jupyterhub.log"

    def config(self) -> str:
        """The hub's jupyterhub_config.py: everything on 127.0.0.1, every file in the folder."""
        settings = {
            "JupyterHub.ip": "127.0.0.1", "JupyterHub.port": self.port,
            "JupyterHub.hub_ip": "127.0.0.1", "JupyterHub.hub_port": free_port(),
            "ConfigurableHTTPProxy.api_url": f"http://127.0.0.1:{free_port()}",
            "ConfigurableHTTPProxy.pid_file": str(self.folder / "proxy.pid"),
            "JupyterHub.db_url": f"sqlite:///{self.folder / 'jupyterhub.sqlite'}",
            "JupyterHub.cookie_secret_file": str(self.folder / "cookie_secret"),
            "JupyterHub.pid_file": str(self.folder / "jupyterhub.pid"),
            "JupyterHub.authenticator_class": "dummy",
            "DummyAuthenticator.password": self.password,
            "Authenticator.allowed_users": set(self.users), "Authenticator.admin_users": set(self.admins),
            "JupyterHub.spawner_class": "simple",
            "SimpleLocalProcessSpawner.home_dir_template": str(self.folder / "home" / "{username}"),
            "Spawner.cmd": [str(Path(sys.executable).parent / "jupyterhub-singleuser")],
            # The servers run as the hub's account; as root, Jupyter wants to be told that this is meant.
            "Spawner.args": ["--allow-root"] if os.geteuid() == 0 else [],
            "Spawner.start_timeout": 120, "Spawner.http_timeout": 120,
            # A server gets only Spawner.env_keep (PATH, LANG, ...) and these from the hub's environment: a class
            # key the hub holds (MODEL_API_KEY) never reaches a student's server or kernel.
            "Spawner.environment": {"PATH": _path()},
        }
        return ("c = get_config()  # noqa\n" + "".join(f"c.{name} = {value!r}\n" for name, value in settings.items())
                + "".join(f"load_subconfig({str(config)!r})  # noqa\n" for config in self.configs))

    def __enter__(self) -> LocalHub:
        if (missing := missing_parts()) is not None:
            raise RuntimeError(missing)
        (self.folder / "home").mkdir(parents=True, exist_ok=True)
        (self.folder / "jupyterhub_config.py").write_text(self.config())
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([shutil.which("jupyterhub", path=_path()), "-f", "jupyterhub_config.py"],
                                            cwd=self.folder, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                            env=os.environ | self.environment | {"PATH": _path()})
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyterhub stopped at start:\n{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/hub/api", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        self.__exit__()
        raise TimeoutError(f"jupyterhub was not answering after {self.timeout:.0f} s:\n{self.log.read_text()[-3000:]}")

    def processes(self) -> list[int]:
        """The process ids of the hub and of everything it started (proxy, servers, kernels), still running."""
        if self.process is None or self.process.poll() is not None:
            return []
        import psutil  # comes with the Jupyter kernel

        try:
            return [self.process.pid, *(child.pid for child in psutil.Process(self.process.pid).children(recursive=True))]
        except psutil.NoSuchProcess:
            return []

    def __exit__(self, *_: object) -> None:
        """Stop the hub as an operator would (SIGTERM: it stops its servers and its proxy), then end any leftover."""
        started = self.processes()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.leftovers = []
        for pid in started[1:]:  # a server or kernel the hub did not stop: ended, and noted for the tests
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                continue
            self.leftovers.append(pid)
            os.kill(pid, signal.SIGKILL)
