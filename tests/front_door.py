"""Running the installed `agentkit` script as a newcomer does: in a subprocess, offline, with a home of its own.

Shared by tests/test_front_door*.py. `exercises("serve")` marks a test as the one that shows a documented
command doing a real job; `tests/test_front_door.py` fails when a command the docs tell a reader to type has
no such test.
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).with_name("agentkit")
"""The console script `pip install -e .` made: what a reader types, not `main()` called from Python."""
WAIT = 60
"""Seconds a command may take to start on a loaded machine before the test fails instead of hanging."""

STARTED: list[subprocess.Popen] = []
"""Every command a test started: whatever still runs when its test ends is killed (`no_process_left`)."""

EXERCISED: dict[str, list[str]] = {}
"""Documented command (`serve`, `classroom grade`, `python -m agentkit.offline`) -> the tests that run it."""


def exercises(*commands: str) -> Callable:
    """Record that the decorated test runs each of `commands` through the installed script, doing a real job."""
    def mark(test: Callable) -> Callable:
        for command in commands:
            EXERCISED.setdefault(command, []).append(test.__name__)
        return test
    return mark


LOCALE = ("LC_ALL", "LC_MESSAGES", "LANGUAGE")
"""Dropped from this machine's environment: the commands speak English to the tests unless a test asks (LANG)."""


def environment(home: Path, **variables: str) -> dict[str, str]:
    """This environment, offline whatever this machine's .env says, with `home` as the user's home, in English
    whatever this machine's locale (`agentkit chat` would follow a LANG=zh_CN.UTF-8), unless `variables` say."""
    kept = {name: value for name, value in os.environ.items() if name not in LOCALE}
    return {**kept, "LANG": "C.UTF-8", "MODEL_API_KEY": "", "BASE_URL": "", "MODEL": "", "PYTHONUNBUFFERED": "1",
            "HOME": str(home), **variables}


class Running:
    """A command started through the script, its output read on threads so that a test can wait for a line."""

    def __init__(self, *arguments: str, cwd: Path, program: list[str] | None = None, ctrl_c: bool = True,
                 **variables: str) -> None:
        """The command starts with Ctrl-C as in a terminal however this test run was started (one started with `&`
        from a script passes an ignored Ctrl-C on); `ctrl_c=False`: ignored, as a script's `agentkit web &`."""
        handler = signal.SIG_DFL if ctrl_c else signal.SIG_IGN
        self.process = subprocess.Popen([*(program or [str(SCRIPT)]), *arguments], cwd=cwd, text=True,
                                        env=environment(cwd, **variables), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        preexec_fn=lambda: signal.signal(signal.SIGINT, handler))
        STARTED.append(self.process)
        self.lines: queue.Queue[str] = queue.Queue()
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        self.readers = [threading.Thread(target=self._read, args=(stream, kept), daemon=True)
                        for stream, kept in ((self.process.stdout, self.stdout), (self.process.stderr, self.stderr))]
        for reader in self.readers:
            reader.start()

    def _read(self, stream, kept: list[str]) -> None:
        for line in stream:
            kept.append(line)
            self.lines.put(line)

    def line_with(self, text: str) -> str:
        """The first line (of stdout or stderr) holding `text`; fails if none comes in `WAIT` seconds."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.process.poll() is not None and self.lines.empty():
                    break
                continue
            if text in line:
                return line
        raise AssertionError(f"no line with {text!r}; stdout: {''.join(self.stdout)!r}, "
                             f"stderr: {''.join(self.stderr)!r}")

    def end(self, number: int | None = None, timeout: float = 20) -> tuple[int, str]:
        """Send signal `number` (none: just wait), and return the exit status and everything on stderr."""
        if number is not None:
            self.process.send_signal(number)
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"still running {timeout} s after signal {number}") from None
        for reader in self.readers:  # each ends at its stream's end: every last line is read, however busy the machine
            reader.join(WAIT)
        return status, "".join(self.stderr)


@pytest.fixture(autouse=True)
def no_process_left():
    """Import it into a test module: a test that fails halfway leaves no command running."""
    yield
    while STARTED:
        process = STARTED.pop()
        if process.poll() is None:
            process.kill()
            process.wait()


def run(*arguments: str, cwd: Path, timeout: float = 120, **variables: str) -> subprocess.CompletedProcess:
    """The script run to its end, stdin closed."""
    return subprocess.run([str(SCRIPT), *arguments], cwd=cwd, env=environment(cwd, **variables), text=True,
                          capture_output=True, stdin=subprocess.DEVNULL, timeout=timeout)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def processes_with(marker: str) -> list[int]:
    """Pids of processes whose command line holds `marker` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                if marker.encode() in file.read():
                    found.append(int(entry))
        except (OSError, ValueError):
            pass
    return found


def wait_until(condition: Callable[[], bool], within: float = 10) -> bool:
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True
