"""The bash tool: the format the model reads, the environment it sees, and the output cap."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from agentkit.calls import ToolCall
from agentkit.hardening.output import HeadTail
from agentkit.limits import Limits
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry
from agentkit.tools.shell import run_command, scrubbed_environment, shell_tool
from agentkit.tools.workspace import Workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


def bash(workspace: Workspace, command: str, timeout: float | None = None, **limits: float) -> str:
    arguments: dict[str, object] = {"command": command}
    if timeout is not None:
        arguments["timeout"] = timeout
    return asyncio.run(shell_tool(workspace, Limits(**limits)).handler(arguments))  # type: ignore[arg-type]


def test_exit_code_stdout_and_stderr_are_labelled(workspace: Workspace) -> None:
    assert bash(workspace, "echo out; echo err >&2; exit 3") == "exit code: 3\nstdout:\nout\nstderr:\nerr"
    assert bash(workspace, "true") == "exit code: 0\nstdout: (empty)\nstderr: (empty)"


def test_a_signal_is_named(workspace: Workspace) -> None:
    assert bash(workspace, "kill -TERM $$") == (
        "exit code: -15 (killed by signal SIGTERM)\nstdout: (empty)\nstderr: (empty)"
    )


def test_runs_in_the_workspace_root(workspace: Workspace) -> None:
    (workspace.root / "here.txt").write_text("")
    assert bash(workspace, "pwd; ls") == f"exit code: 0\nstdout:\n{workspace.root}\nhere.txt\nstderr: (empty)"


def test_stdin_is_closed_so_nothing_waits_for_typing(workspace: Workspace) -> None:
    assert bash(workspace, "read line; echo \"got [$line] $?\"", timeout=5) == (
        "exit code: 0\nstdout:\ngot [] 1\nstderr: (empty)"
    )


def test_timeout_is_reported(workspace: Workspace) -> None:
    assert bash(workspace, "echo started; sleep 30", timeout=1.0) == (
        "exit code: timed out after 1.0 s; the command and every process it started were killed\n"
        "stdout:\nstarted\nstderr: (empty)"
    )


@pytest.mark.parametrize(("timeout", "problem"), [
    (5, "5 is greater than the maximum of 2.0"), (0, "0 is less than or equal to the minimum of 0"),
])
def test_timeout_is_bounded_by_the_limit(workspace: Workspace, timeout: float, problem: str) -> None:
    tool = shell_tool(workspace, Limits(shell_timeout=2.0))
    timeout_schema = tool.parameters["properties"]["timeout"]  # the model is shown the bound and the default
    assert (timeout_schema["maximum"], timeout_schema["default"], timeout_schema["exclusiveMinimum"]) == (2.0, 2.0, 0)
    arguments = json.dumps({"command": "true", "timeout": timeout})
    assert asyncio.run(execute_tool(build_registry([tool]), ToolCall.parse("", "bash", arguments))).content == (
        f"Error: arguments for 'bash' do not match its parameters (1 problem):\n- argument 'timeout': {problem}")


def test_long_output_keeps_head_and_tail(workspace: Workspace) -> None:
    text = bash(workspace, "seq 1 10000", max_output_chars=100)
    assert text == (
        "exit code: 0\nstdout:\n1\n2\n3\n\n[... 48,882 bytes cut from the middle ...]\n10000\nstderr: (empty)"
    )


def test_stderr_gets_at_most_half_the_budget(workspace: Workspace) -> None:
    text = bash(workspace, "seq 1 1000 >&2; seq 1 1000", max_output_chars=200)
    assert text == (
        "exit code: 0\nstdout:\n1\n2\n3\n4\n5\n6\n7\n8\n9\n[... 3,858 bytes cut from the middle ...]\n\n997\n998\n999\n1000\n"
        "stderr:\n1\n2\n3\n4\n5\n6\n7\n8\n9\n[... 3,858 bytes cut from the middle ...]\n\n997\n998\n999\n1000"
    )


@pytest.mark.parametrize("max_output_chars", [1_000, 8_000])
def test_labels_and_notes_fit_in_the_budget(workspace: Workspace, max_output_chars: int) -> None:
    # Both streams cut, a note added: the end of stderr must still be there, within the budget.
    # The command waits until the background process has really left its group (`left` exists): with a bare
    # `setsid sleep 300 &`, a loaded machine could finish the two `seq`s before the child had even run
    # setsid; the group's kill then took it, no note was written, and the test failed now and then.
    text = bash(workspace, "setsid sh -c ': > left; exec sleep 300' & until [ -e left ]; do sleep 0.01; done; "
                "seq 1 100000 >&2; seq 1 100000; echo last-line >&2", max_output_chars=max_output_chars)
    assert len(text) <= max_output_chars
    assert "last-line\nnote: 1 process(es) started by the command" in text


def test_only_allowlisted_variables_are_passed() -> None:
    environ = {"PATH": "/bin", "MODEL_API_KEY": "sk-1", "DATABASE_URL": "postgres://u:p@h/db", "GH_PAT": "g",
               "HOME": "/home/me", "LC_TIME": "C", "LANGUAGE": "fr", "VIRTUAL_ENV": "/venv", "PAGER": "less"}
    assert scrubbed_environment(environ) == {
        "PATH": "/bin", "HOME": "/home/me", "LC_TIME": "C", "PAGER": "cat", "GIT_PAGER": "cat",
        "GIT_TERMINAL_PROMPT": "0",
    }
    assert scrubbed_environment(environ, pass_env=["VIRTUAL_ENV"])["VIRTUAL_ENV"] == "/venv"


def test_head_tail_keeps_both_ends_in_bounded_memory() -> None:
    capture = HeadTail(keep=4)
    for chunk in (b"abc", b"defg", b"hij", b"", b"klmnop"):
        capture.add(chunk)
    assert (bytes(capture.head), bytes(capture.tail), capture.total) == (b"abcd", b"mnop", 16)
    assert capture.render(8) == "abcd\n[... 8 bytes cut from the middle ...]\nmnop"
    assert capture.render(4) == "ab\n[... 12 bytes cut from the middle ...]\nop"


def test_head_tail_shows_short_output_whole() -> None:
    capture = HeadTail(keep=4)
    capture.add(b"abcdef")
    assert capture.render(6) == "abcdef"
    assert capture.render(4) == "ab\n[... 2 bytes cut from the middle ...]\nef"
    assert HeadTail(keep=4).render(0) == ""


def test_invalid_utf8_output_is_replaced_not_fatal(workspace: Workspace) -> None:
    assert bash(workspace, "printf 'caf\\xe9'") == "exit code: 0\nstdout:\ncaf\ufffd\nstderr: (empty)"


def test_the_event_loop_keeps_running_while_a_command_waits(workspace: Workspace) -> None:
    async def scenario() -> str:
        tool = shell_tool(workspace)
        # The command waits for a file that only a coroutine on the same event loop creates.
        command = asyncio.create_task(tool.handler({"command": "until [ -f flag ]; do sleep 0.01; done; echo saw it",
                                                    "timeout": 20}))
        await asyncio.sleep(0.05)
        (workspace.root / "flag").write_text("")
        return await command

    assert asyncio.run(scenario()) == "exit code: 0\nstdout:\nsaw it\nstderr: (empty)"


def test_definition_and_dispatch(workspace: Workspace) -> None:
    tool = shell_tool(workspace, Limits(shell_timeout=10.0))
    assert (tool.name, tool.needs_confirmation) == ("bash", True)
    assert tool.parameters["additionalProperties"] is False
    assert tool.parameters["properties"]["timeout"]["maximum"] == 10.0
    registry = build_registry([tool])
    ok = asyncio.run(execute_tool(registry, ToolCall.parse("", "bash", json.dumps({"command": "echo hi"}))))
    assert (ok.is_error, ok.content) == (False, "exit code: 0\nstdout:\nhi\nstderr: (empty)")
    too_long = asyncio.run(execute_tool(registry, ToolCall.parse("", "bash", json.dumps({"command": "true", "timeout": 99}))))
    assert too_long.is_error and "timeout" in too_long.content


def test_run_command_directly(workspace: Workspace) -> None:
    result = run_command("echo a; echo b >&2; exit 4", workspace.root, timeout=5, keep=100)
    assert (result.exit_code, bytes(result.stdout.head), bytes(result.stderr.head)) == (4, b"a\n", b"b\n")
    assert (result.killed, result.still_running, result.checked) == ((), (), True)
