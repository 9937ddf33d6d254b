"""The shell tool's cap on processes (RLIMIT_NPROC): set in every command, and a fork bomb stops at it.

RLIMIT_NPROC binds every user but root: run as root (a container, CI), the fork test runs the same capped
command line as the user `nobody`, so that the kernel really refuses the forks.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from agentkit.hardening import process_cap
from agentkit.hardening.process_cap import capped_command, user_tasks
from agentkit.limits import Limits
from agentkit.tools.shell import shell_tool
from agentkit.tools.workspace import Workspace

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts processes in /proc")

FORKS = """
import os, sys, time
started = 0
for _ in range(200):
    try:
        pid = os.fork()
    except OSError:  # EAGAIN: the cap
        break
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    started += 1
print(started, flush=True)
"""
"""Forks up to 200 children that sleep: how many the cap lets it start."""


def test_every_command_runs_under_the_cap_soft_and_hard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process_cap, "user_tasks", lambda uid: 100)  # this user's processes now, whatever they are
    tool = shell_tool(Workspace(tmp_path), Limits(max_command_processes=7))
    shown = asyncio.run(tool.handler({"command": "grep 'Max processes' /proc/self/limits; ulimit -u 1000"}))
    code, label, limits = shown.splitlines()[:3]
    assert (code, label, limits.split()) == ("exit code: 1", "stdout:", ["Max", "processes", "107", "107", "processes"])
    assert "cannot modify limit" in shown  # the command cannot raise it again


def test_the_cap_counts_this_users_processes_and_threads() -> None:
    me = os.getuid()
    assert user_tasks(me) >= len(os.listdir("/proc/self/task"))  # this process's threads are among them
    assert process_cap.process_cap(10) in range(user_tasks(me) - 50, user_tasks(me) + 60)  # others come and go


def _nobody_python() -> str | None:
    """A Python that the user nobody may run (this test's own may sit in root's home)."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3", sys.executable):
        if os.access(candidate, os.X_OK) and all(os.stat(p).st_mode & 0o001 for p in Path(candidate).resolve().parents):
            return candidate
    return None


def test_a_fork_bomb_stops_at_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bash = shutil.which("bash")
    assert bash is not None
    if os.getuid() != 0:  # the limit binds this user: the shell tool itself
        tool = shell_tool(Workspace(tmp_path), Limits(max_command_processes=20))
        shown = asyncio.run(tool.handler({"command": f"{sys.executable} -c '{FORKS}'"}))
        started = int(shown.splitlines()[2])
        assert started < 60, shown  # 20 more than this user ran, give or take what others started meanwhile
        return
    python = _nobody_python()
    if python is None:
        pytest.skip("no Python the user nobody may run")
    monkeypatch.setattr(os, "getuid", lambda: 65534)  # the cap is counted for the user the command will run as
    argv = capped_command(bash, f"{python} -c '{FORKS}'", 20)
    tmp_path.chmod(0o777)
    try:
        bomb = subprocess.Popen(argv, user=65534, group=65534, extra_groups=[], cwd=tmp_path, start_new_session=True,
                                stdout=subprocess.PIPE, text=True, env={"PATH": "/usr/bin:/bin"})
    except PermissionError:
        pytest.skip("this process may not run a command as nobody")
    try:
        started = int(bomb.stdout.readline())
    finally:
        os.killpg(bomb.pid, signal.SIGKILL)
        bomb.wait()
    others = int(argv[4]) - 20  # nobody's processes when the cap was set: usually none
    assert 20 - others - 5 <= started < 20, (started, argv[4])  # bash and python themselves count too
