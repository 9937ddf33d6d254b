"""A reviewer's list of hostile commands: each one ends within its bounds and says what happened."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from agentkit.calls import ToolCall
from agentkit.hardening.output import CommandResult, HeadTail
from agentkit.limits import Limits
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry
from agentkit.tools.shell import run_command, shell_tool
from agentkit.tools.workspace import Workspace

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")


def dispatch(root: Path, command: str, **limits: float):
    registry = build_registry([shell_tool(Workspace(root), Limits(**limits))])
    return asyncio.run(execute_tool(registry, ToolCall.parse("", "bash", json.dumps({"command": command}))))


def running(pids: list[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive


@pytest.mark.parametrize("flood", ["yes", "yes >&2", "yes | head -c 600000; yes >&2", "setsid -f yes; sleep 300"])
def test_a_flood_is_stopped_at_the_output_limit_not_the_timeout(tmp_path: Path, flood: str) -> None:
    # The timeout is far away: only the output limit can have stopped it, and the status says which one did.
    result = dispatch(tmp_path, flood, shell_timeout=600, max_command_output_bytes=1_000_000, max_output_chars=1000)
    assert not result.is_error and len(result.content) <= 1000
    assert result.content.startswith("exit code: stopped after printing more than 1,000,000 bytes "
                                     "(Limits.max_command_output_bytes, which only the user can raise); "), result.content
    assert "tail out.log" in result.content, "it says how to keep long output"


def test_a_flood_keeps_memory_bounded(tmp_path: Path) -> None:
    result = run_command("yes", tmp_path, timeout=600, keep=100, max_bytes=5_000_000)
    assert result.output_limit == 5_000_000 and result.exit_code is None
    assert result.stdout.total > 5_000_000 and len(result.stdout.head) == len(result.stdout.tail) == 100


def test_output_under_the_limit_is_not_stopped(tmp_path: Path) -> None:
    result = dispatch(tmp_path, "yes | head -c 900000; sleep 0.3; echo done", max_command_output_bytes=1_000_000)
    assert result.content.startswith("exit code: 0\n") and result.content.endswith("done\nstderr: (empty)")


@pytest.mark.parametrize("remove", ['rm -rf "$PWD"', 'cd .. && rm -rf "$OLDPWD" && touch "$OLDPWD"'])
def test_a_deleted_workspace_is_an_error_result_not_a_crash(tmp_path: Path, remove: str) -> None:
    root = tmp_path / "work"
    root.mkdir()
    registry = build_registry([shell_tool(Workspace(root))])
    removed = asyncio.run(execute_tool(registry, ToolCall.parse("", "bash", json.dumps({"command": f"{remove}; pwd"}))))
    assert removed.content.startswith("exit code: 0"), "the running command goes on"
    result = asyncio.run(execute_tool(registry, ToolCall.parse("", "bash", '{"command": "echo hi"}')))
    assert result.is_error and result.content.startswith(f"Error: no command can run in the workspace folder {root}: ")
    assert "tell the user" in result.content


def test_the_command_has_no_terminal_to_read_a_password_from(tmp_path: Path) -> None:
    # A new session without a controlling terminal: /dev/tty cannot be opened, so sudo or ssh cannot prompt.
    result = run_command("cat /dev/tty; echo $?; cat; echo got-eof", tmp_path, timeout=20, keep=1000)
    assert bytes(result.stdout.head) == b"1\ngot-eof\n" and result.exit_code == 0


@pytest.mark.parametrize("command", ["exec sleep 300", "trap '' TERM HUP INT; sleep 300", "exec >&- 2>&-; sleep 300",
                                     "while :; do :; done"])
def test_a_command_that_never_ends_is_stopped_at_the_timeout(tmp_path: Path, command: str) -> None:
    assert run_command(command, tmp_path, timeout=0.5, keep=100).for_model(1000).startswith(
        "exit code: timed out after 0.5 s; the command and every process it started were killed")


def test_disowned_and_nohup_jobs_are_stopped_with_the_command(tmp_path: Path) -> None:
    command = "sleep 300 & disown; echo $!; nohup sleep 300 >/dev/null 2>&1 & disown -a; echo $!"
    result = run_command(command, tmp_path, timeout=20, keep=1000)
    pids = [int(word) for word in bytes(result.stdout.head).split()]
    assert result.exit_code == 0 and len(pids) == 2 and running(pids) == []


def test_many_nested_processes_are_all_stopped(tmp_path: Path) -> None:
    # A bounded stand-in for a fork bomb: 3 levels of 4 children, some in sessions of their own. Nothing here
    # limits how many processes a command starts (see docs/shell_internals.md); the kill reaches all of them.
    (tmp_path / "leaf.sh").write_text("echo $$ >> pids; exec sleep 300\n")
    (tmp_path / "middle.sh").write_text("for i in 1 2 3 4; do sh leaf.sh & done; wait\n")
    command = ("for i in 1 2 3 4; do setsid bash middle.sh & done\n"
               'until [ "$(cat pids 2>/dev/null | wc -l)" -ge 16 ]; do sleep 0.01; done')
    result = run_command(command, tmp_path, timeout=20, keep=1000)
    pids = [int(line) for line in (tmp_path / "pids").read_text().split()]
    assert result.exit_code == 0 and len(pids) == 16
    assert running(pids) == [] and len(result.killed) >= 16 and result.still_running == result.unknown == ()
    note = result.notes()[0]
    assert note.startswith(f"note: {len(result.killed)} process(es) started by the command had left its process group")
    assert note.endswith(f"; and {len(result.killed) - 5:,} more"), "a long list is counted, not spelled out"


def test_a_thousand_leftover_processes_do_not_overflow_the_result() -> None:
    left = tuple(f"{pid} sleep 300.{pid}" for pid in range(10_000, 11_000))
    result = CommandResult(None, HeadTail(10), HeadTail(10), 1.0, killed=left, still_running=left, unknown=left)
    text = result.for_model(1000)
    assert len(text) <= 1000 and text.count("; and 995 more") == 3


def test_the_parent_environment_is_readable_only_as_it_started(tmp_path: Path, monkeypatch) -> None:
    # What the design cannot hide: the agent's own /proc/<pid>/environ holds what it was started with (so the
    # chat restarts itself clean, see test_chat_environment.py). What it set later, like a key, is not there.
    monkeypatch.setenv("MODEL_API_KEY", "sk-set-after-start-123")
    result = run_command("tr '\\0' '\\n' < /proc/$PPID/environ", tmp_path, timeout=20, keep=1_000_000)
    assert result.exit_code == 0 and b"sk-set-after-start-123" not in bytes(result.stdout.head + result.stdout.tail)
    assert os.getpid() == int(run_command("echo $PPID", tmp_path, timeout=20, keep=100).stdout.head)


@pytest.mark.parametrize("command", ["head -c 3000000 /dev/urandom | tr -d x; printf '\\0'", "printf 'PK\\3\\4\\0\\0'",
                                     "gzip -c /etc/hostname; echo error >&2"])
def test_binary_output_is_described_not_dumped(tmp_path: Path, command: str) -> None:
    result = run_command(f"{{ {command}; }} > out.bin; cat out.bin", tmp_path, timeout=20, keep=4000)
    size = (tmp_path / "out.bin").stat().st_size
    text = result.for_model(8000)
    assert f"stdout: {size:,} bytes of binary data (they contain NUL bytes), not shown; to look at them, pipe them " \
           "into `xxd | head`" in text
    assert "\ufffd" not in text and "\0" not in text


def test_a_binary_stream_does_not_hide_the_text_one(tmp_path: Path) -> None:
    result = run_command("printf 'ok\\n' >&2; printf '\\0\\1\\2'", tmp_path, timeout=20, keep=4000)
    assert result.for_model(8000) == ("exit code: 0\nstdout: 3 bytes of binary data (they contain NUL bytes), not "
                                      "shown; to look at them, pipe them into `xxd | head`\nstderr:\nok")
    assert len(result.for_model(200)) <= 200
