"""The agent's process is not dumpable (Linux PR_SET_DUMPABLE 0): a command of the same user cannot read it.

Each case runs in a subprocess of its own: the flag, once cleared, stays cleared for the rest of a process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

import agentkit.hardening.undumpable

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_DUMPABLE is Linux's")

DUMPABLE = "__import__('ctypes').CDLL(None).prctl(3, 0, 0, 0, 0)"
"""PR_GET_DUMPABLE (3): 1 for a dumpable process, 0 for one that is not."""


def python(code: str, *, cwd: Path | None = None) -> str:
    finished = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                              timeout=120, cwd=cwd, stdin=subprocess.DEVNULL)
    assert finished.returncode == 0, finished.stderr
    return finished.stdout


def test_the_process_is_not_dumpable_and_the_programs_it_runs_are() -> None:
    printed = python(f"""
        import subprocess, sys
        from agentkit.hardening.undumpable import make_undumpable
        before = {DUMPABLE}
        print(before, make_undumpable(), {DUMPABLE})
        child = subprocess.run([sys.executable, "-c", "print({DUMPABLE})"], capture_output=True, text=True)
        print(child.stdout.strip())  # execve makes a new program dumpable again: a shell command is unaffected
    """)
    assert printed.split() == ["1", "True", "0", "1"]


@pytest.mark.parametrize("command", ["chat", "web", "mcp"])
def test_every_front_end_run_as_a_program_makes_itself_undumpable_before_reading_a_secret(command: str,
                                                                                             tmp_path: Path) -> None:
    # Stopped where the front end would read the model's settings (chat, web) or start serving (mcp).
    printed = python(f"""
        import asyncio, sys
        import agentkit.config
        from agentkit.frontends import cli

        def stop(*args, **kwargs):
            print("dumpable:", {DUMPABLE})
            raise SystemExit(0)

        agentkit.config.load_settings = asyncio.run = stop
        sys.argv = ["agentkit", "{command}", "--workspace", "ws"]
        cli.main()
    """, cwd=tmp_path)
    assert printed.splitlines()[-1] == "dumpable: 0"


def test_called_from_python_main_leaves_the_callers_process_as_it_was(tmp_path: Path) -> None:
    printed = python(f"""
        import asyncio
        from agentkit.frontends import cli

        def stop(*args, **kwargs):
            print("dumpable:", {DUMPABLE})
            raise SystemExit(0)

        asyncio.run = stop
        cli.main(["mcp", "--workspace", "ws"])  # a test or a notebook: not the agent's own process
    """, cwd=tmp_path)
    assert printed.splitlines()[-1] == "dumpable: 1"


def test_another_process_of_the_same_user_cannot_read_its_environment() -> None:
    # As root every /proc file is readable: the two processes run as nobody, where the kernel's check applies.
    python3 = "/usr/bin/python3" if os.getuid() == 0 else sys.executable
    if not os.access(python3, os.X_OK):
        pytest.skip("no system Python to run as nobody")
    with tempfile.TemporaryDirectory() as folder:  # in /tmp, which nobody may enter, unlike pytest's own folders
        Path(folder).chmod(0o755)
        shutil.copy(agentkit.hardening.undumpable.__file__, Path(folder) / "undumpable.py")
        _two_processes_as_nobody(python3, Path(folder))


def _two_processes_as_nobody(python3: str, tmp_path: Path) -> None:
    probe = textwrap.dedent("""
        import subprocess, sys
        for protect in ("make_undumpable()", "None"):
            agent = subprocess.Popen([sys.executable, "-c", "from undumpable import make_undumpable; "
                                      f"{protect}; print('up', flush=True); input()"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env={"MODEL_API_KEY": "sk-secret"})
            agent.stdout.readline()
            try:
                print("read" if b"sk-secret" in open(f"/proc/{agent.pid}/environ", "rb").read() else "not there")
            except PermissionError:
                print("refused")
            agent.communicate("")
    """)
    as_nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.getuid() == 0 else {}
    try:
        finished = subprocess.run([python3, "-c", probe], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                                  env={}, **as_nobody)
    except PermissionError:
        pytest.skip("this process may not run a command as nobody")
    assert finished.stdout.split() == ["refused", "read"], finished.stderr
