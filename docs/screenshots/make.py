"""Screenshots of `agentkit chat` and `agentkit web`, made from the real programs so that they stay true.

Each run starts the installed `agentkit` command with the offline model in a scratch workspace, talks to it as a
person would, and photographs what a person sees:

- chat.png: `agentkit chat` in a tmux pane (80x24), a question answered with a tool and a shell command waiting
  for a yes; the pane's text is drawn on a dark page by headless Chromium (the terminal's colours are left out);
- web.png: `agentkit web` in headless Chromium, driven over the DevTools protocol: the same two requests, the second
  waiting at its Approve and Deny buttons.

The PNGs are written beside this file and put into chapter 08's "one picture" cell as attachments, so the chapter,
its Chinese edition and the course site show them with no path to resolve. Needs tmux and Chromium
(Debian: apt-get install tmux chromium; CHROMIUM=/path/to/chrome to use another):

    .venv/bin/python docs/screenshots/make.py
"""

from __future__ import annotations

import asyncio
import base64
import html
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CHAPTER = ROOT / "notebooks" / "08_agent_loop.ipynb"
PICTURE_CELL = "4ebf887b"
"""Chapter 08's "The whole course in one picture" cell, which shows the screenshots."""
QUESTION = "What time is it in Tokyo?"
COMMAND = 'Run the command "ls notes" in the shell.'
AGENTKIT = str(Path(sys.executable).with_name("agentkit"))


def chromium() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        raise SystemExit("no Chromium found: apt-get install chromium, or set CHROMIUM=/path/to/chrome")
    return found


def offline_env() -> dict[str, str]:
    """The offline model, whatever .env says; English words; a wide terminal."""
    return {**os.environ, "MODEL_API_KEY": "", "MODEL": "", "LANG": "en_US.UTF-8", "TERM": "xterm-256color"}


def scratch_workspace() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="agentkit-screenshot-"))
    (folder / "notes").mkdir()
    (folder / "notes" / "todo.txt").write_text("book the venue\nsend the invitations\n")
    return folder


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 60) -> None:
    """Wait until `condition()` holds (never for a fixed time), or fail saying what did not happen."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.1)


def chat_screenshot(target: Path) -> None:
    workspace = scratch_workspace()
    session = f"agentkit-shot-{os.getpid()}"
    tmux = ["tmux", "-L", session]

    def pane() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p", "-J", "-t", session], capture_output=True, text=True).stdout

    subprocess.run([*tmux, "new-session", "-d", "-s", session, "-x", "96", "-y", "26",
                    f"{AGENTKIT} chat --workspace {workspace}"], check=True, env=offline_env())
    try:
        wait_for(lambda: "/exit" in pane(), "the chat's greeting")
        subprocess.run([*tmux, "send-keys", "-t", session, QUESTION, "Enter"], check=True)
        wait_for(lambda: "agent>" in pane().split(QUESTION, 1)[-1], "the answer about Tokyo")
        subprocess.run([*tmux, "send-keys", "-t", session, COMMAND, "Enter"], check=True)
        wait_for(lambda: "[y/N]" in pane(), "the confirmation question")
        text = pane().rstrip()
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        shutil.rmtree(workspace, ignore_errors=True)
    text = text.replace(str(workspace), "./workspace")
    page = ("<!doctype html><meta charset=utf-8><body style='margin:0;background:#1e1e1e'>"
            "<pre style='margin:0;padding:14px 18px;color:#e6e6e6;font:15px/1.35 \"DejaVu Sans Mono\",monospace;"
            f"white-space:pre-wrap'>{html.escape(text)}</pre>")
    rows = sum(max(1, math.ceil(len(line) / 95)) for line in text.splitlines())  # as the page wraps them
    height = 28 + math.ceil(rows * 15 * 1.35)
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as file:
        file.write(page)
    try:
        subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--screenshot={target}", f"--window-size=900,{height}", f"file://{file.name}"],
                       check=True, capture_output=True, timeout=120)
    finally:
        os.unlink(file.name)


async def _drive_page(port: int, url: str, target: Path) -> None:
    import websockets

    request = urllib.request.Request(f"http://127.0.0.1:{port}/json/new?{url}", method="PUT")  # a new tab
    with urllib.request.urlopen(request) as reply:  # noqa: S310
        tab = json.load(reply)
    async with websockets.connect(tab["webSocketDebuggerUrl"], max_size=None) as socket:
        counter = 0

        async def send(method: str, **params) -> dict:
            nonlocal counter
            counter += 1
            await socket.send(json.dumps({"id": counter, "method": method, "params": params}))
            while True:
                message = json.loads(await socket.recv())
                if message.get("id") == counter:
                    return message.get("result", {})

        async def evaluate(expression: str):
            return (await send("Runtime.evaluate", expression=expression, returnByValue=True))["result"].get("value")

        async def until(expression: str, what: str) -> None:
            deadline = time.monotonic() + 60
            while not await evaluate(expression):
                if time.monotonic() > deadline:
                    raise SystemExit(f"timed out waiting for {what}")
                await asyncio.sleep(0.1)

        await send("Emulation.setDeviceMetricsOverride", width=900, height=560, deviceScaleFactor=1, mobile=False)
        await until("document.readyState === 'complete' && !!document.querySelector('#message')", "the page")
        for text, done in ((QUESTION, "document.querySelector('#log').innerText.includes('Tokyo (')", ),
                           (COMMAND, "!!document.querySelector('#log button')")):
            await evaluate(f"document.querySelector('#message').value = {json.dumps(text)};"
                           "document.querySelector('#composer').requestSubmit()")
            await until(done, f"the reply to {text!r}")
        shot = await send("Page.captureScreenshot", format="png")
        target.write_bytes(base64.b64decode(shot["data"]))


def web_screenshot(target: Path) -> None:
    workspace = scratch_workspace()
    server = subprocess.Popen([AGENTKIT, "web", "--port", "0", "--workspace", str(workspace), "--lang", "en"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=offline_env())
    browser = None
    try:
        line = ""
        while "http://" not in line:
            line = server.stdout.readline()
            if not line and server.poll() is not None:
                raise SystemExit("agentkit web stopped before printing its address")
        url = re.search(r"http://\S+", line)[0]
        profile = tempfile.mkdtemp(prefix="agentkit-chromium-")
        browser = subprocess.Popen([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                    "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(profile) / "DevToolsActivePort"
        wait_for(port_file.exists, "Chromium's DevTools port")
        wait_for(lambda: len(port_file.read_text().splitlines()) >= 1, "Chromium's DevTools port")
        asyncio.run(_drive_page(int(port_file.read_text().splitlines()[0]), url, target))
    finally:
        server.terminate()
        server.wait(timeout=30)
        if browser is not None:
            browser.terminate()
            browser.wait(timeout=30)
        shutil.rmtree(workspace, ignore_errors=True)


def attach(pictures: dict[str, Path]) -> None:
    """Put the PNGs into chapter 08's picture cell as attachments (the cell's text refers to attachment:NAME)."""
    chapter = json.loads(CHAPTER.read_text(encoding="utf-8"))
    [cell] = [cell for cell in chapter["cells"] if cell["id"] == PICTURE_CELL]
    cell["attachments"] = {name: {"image/png": base64.b64encode(path.read_bytes()).decode("ascii")}
                           for name, path in pictures.items()}
    CHAPTER.write_text(json.dumps(chapter, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


def main() -> None:
    pictures = {"chat.png": HERE / "chat.png", "web.png": HERE / "web.png"}
    chat_screenshot(pictures["chat.png"])
    web_screenshot(pictures["web.png"])
    attach(pictures)
    for name, path in pictures.items():
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes, attached to {CHAPTER.name} as {name}")


if __name__ == "__main__":
    main()
