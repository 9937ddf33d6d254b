"""Processes that leave the command's process group: killed when the command ends, times out or is cancelled."""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import signal
import sys
import time
from contextlib import suppress
from pathlib import Path

import pytest

from agentkit.hardening.output import CommandResult
from agentkit.tools.shell import run_command, shell_tool
from agentkit.tools.workspace import Workspace

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")

_numbers = itertools.count(1)


def marker() -> str:
    """A `sleep` argument no other process on this machine has: 300.<our pid><a counter> seconds."""
    return f"300.{os.getpid()}{next(_numbers):04d}"


def processes_with(mark: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as file:
                words = file.read().split(b"\0")
            with open(f"/proc/{name}/stat", "rb") as file:
                zombie = file.read().rsplit(b")", 1)[1].split()[0] == b"Z"
        except (OSError, IndexError):
            continue
        if mark.encode() in words and not zombie:
            found.append(int(name))
    return found


async def until(condition, within: float = 60) -> None:
    """Wait until `condition()` holds (the test fails after `within` seconds instead of hanging)."""
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "the command never got there"
        await asyncio.sleep(0.01)


@pytest.fixture
def cleanup():
    """Kill whatever a failing test left behind, so one failure does not leave sleepers for an hour."""
    marks: list[str] = []
    yield marks
    for mark in marks:
        for pid in processes_with(mark):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


PYTHON = sys.executable
ESCAPES = {  # each leaves bash's process group, so killing the group does not reach it
    "setsid -f": "setsid -f sleep {m}",
    "set -m then &": "set -m; sleep {m} & true",
    "os.setsid":
        f"{PYTHON} -c 'import os, sys; os.fork() or (os.setsid(), os.execvp(\"sleep\", [\"sleep\", sys.argv[1]]))' {{m}}",
    "os.setpgid": f"{PYTHON} -c 'import os, sys; os.setpgid(0, 0); os.execvp(\"sleep\", [\"sleep\", sys.argv[1]])' {{m}} &",
    "double fork and setsid": "( (setsid sleep {m} &) & )",
    "to /dev/null": "setsid sleep {m} > /dev/null 2>&1 < /dev/null &",
    "nohup and setsid": "nohup setsid sleep {m} > /dev/null 2>&1 &",
}
UNTRACEABLE = {  # a new session, no tag left, and a parent gone before we looked: found, but whose is unknown
    "setsid, wiped environment": "setsid -f env -i sleep {m}",
    "exec -c in a new session": "( setsid bash -c 'exec -c sleep {m}' & )",
}


def started(command: str, mark: str) -> str:
    """`command`, then wait until its escapee runs, so that the command cannot end before the escape.

    `-x` matches a whole command line, so only the exec'd `sleep` counts: it comes after every setsid/setpgid,
    and bash's own command line (which holds this very text) can never match.
    """
    return command.format(m=mark) + f"\nuntil pgrep -fx 'sleep {mark}' >/dev/null; do sleep 0.01; done"


@pytest.mark.parametrize("how", ESCAPES)
def test_an_escaped_process_is_killed_when_the_command_ends(how: str, tmp_path: Path, cleanup: list[str]) -> None:
    mark = marker()
    cleanup.append(mark)
    result = run_command(started(ESCAPES[how], mark), tmp_path, timeout=20, keep=1000)
    assert result.exit_code == 0, result.for_model(2000)
    assert processes_with(mark) == []
    assert result.still_running == result.unknown == ()
    assert any(line.endswith(f"sleep {mark}") for line in result.killed), result.killed
    # Caught before or after its exec, the process shows as `sleep …` or as `setsid sleep …`: either is it.
    assert re.search(rf"they were killed: .*\d+ [^;]*sleep {re.escape(mark)}", result.for_model(8000))


def test_a_double_fork_inside_the_group_is_killed_with_it(tmp_path: Path, cleanup: list[str]) -> None:
    mark = marker()
    cleanup.append(mark)
    result = run_command(started("( (sleep {m} &) & )", mark), tmp_path, timeout=20, keep=1000)
    assert (result.exit_code, processes_with(mark)) == (0, [])


def timed_out_after_the_escape(escape: str, tmp_path: Path, cleanup: list[str]) -> tuple[CommandResult, str]:
    """`escape`, then `sleep 300`, killed at its timeout once its escapee runs (the file `escaped` says so). A busy
    machine may reach the timeout before the escape: then again, with a longer one, so the test never races."""
    for timeout in (1.5, 6.0, 24.0):
        mark = marker()
        cleanup.append(mark)
        (tmp_path / "escaped").unlink(missing_ok=True)
        result = run_command(started(escape, mark) + "\ntouch escaped\nsleep 300", tmp_path, timeout=timeout, keep=1000)
        if (tmp_path / "escaped").exists():
            return result, mark
    raise AssertionError(f"the escapee of {escape!r} never ran")


TIMED_OUT = r"exit code: timed out after [\d.]+ s; "


@pytest.mark.parametrize("how", ["setsid -f", "double fork and setsid", "os.setpgid"])
def test_an_escaped_process_is_killed_at_the_timeout(how: str, tmp_path: Path, cleanup: list[str]) -> None:
    result, mark = timed_out_after_the_escape(ESCAPES[how], tmp_path, cleanup)
    assert result.exit_code is None
    assert processes_with(mark) == []
    text = result.for_model(8000)
    assert re.match(TIMED_OUT + "the command and every process it started were killed", text), text
    assert f"sleep {mark}" in text


@pytest.mark.parametrize("how", UNTRACEABLE)
def test_an_untraceable_orphan_is_reported_not_claimed(how: str, tmp_path: Path, cleanup: list[str]) -> None:
    result, mark = timed_out_after_the_escape(UNTRACEABLE[how], tmp_path, cleanup)
    text = result.for_model(8000)
    if any(mark in line for line in result.killed):
        # Looked at while its parent still led back to the command: then it is the command's, killed, and said so.
        assert processes_with(mark) == []
        assert re.match(TIMED_OUT + "the command and every process it started were killed", text), text
    else:  # its parent was gone before any look: found, but not claimed, and not killed
        assert re.match(TIMED_OUT + "its process group was killed", text), text
        assert re.search(rf"were not stopped: .*\d+ sleep {re.escape(mark)}", text)


def test_concurrent_commands_do_not_kill_each_other(tmp_path: Path, cleanup: list[str]) -> None:
    # The first command ends at once, leaving an escapee; the second, still running, must keep its own.
    first, second = marker(), marker()
    cleanup += [first, second]
    tool = shell_tool(Workspace(tmp_path))

    async def scenario() -> tuple[str, str]:
        # The long command's escapee runs before the short command starts, and the long one looks for it only once
        # the short one has ended (the file `done`): conditions, not times, so a busy machine changes nothing.
        long = asyncio.create_task(tool.handler({
            "command": f"setsid -f sleep {second}; until [ -f done ]; do sleep 0.01; done; "
                       f"pgrep -fx 'sleep {second}' >/dev/null && echo alive", "timeout": 20}))
        await until(lambda: processes_with(second))
        short = await tool.handler({"command": started(f"setsid -f sleep {first}", first), "timeout": 20})
        (tmp_path / "done").touch()
        return short, await long

    short, long = asyncio.run(scenario())
    assert f"sleep {first}" in short and f"sleep {second}" not in short
    assert "stdout:\nalive" in long and f"sleep {second}" in long
    assert processes_with(first) == processes_with(second) == []


def test_cancelling_the_call_kills_the_command_and_its_escapees(tmp_path: Path, cleanup: list[str]) -> None:
    inside, outside = marker(), marker()
    cleanup += [inside, outside]
    tool = shell_tool(Workspace(tmp_path))

    async def scenario() -> float:
        task = asyncio.create_task(tool.handler({"command": f"setsid -f sleep {outside}; sleep {inside}"}))
        await until(lambda: processes_with(inside) and processes_with(outside))
        task.cancel()
        started = time.monotonic()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - started

    took = asyncio.run(scenario())
    assert processes_with(inside) == processes_with(outside) == []  # gone when the cancellation returns
    assert took < 5  # promptly: the kill, not the 30 s timeout
