"""The `bash` tool: one shell command in the workspace root, bounded in time, in output and in what it can see.

It runs off the event loop; everything it started is killed at its end (`spawn_confined`); its output keeps the
head and the tail (`HeadTail`); it sees an allowlist of variables (`scrubbed_environment`). The defences are in
agentkit/hardening/ (docs/security.md). This is not a sandbox: the command can do anything this user can (chapter 06).
"""

# No `from __future__ import annotations`: the bound on `timeout` names `limits`, a local of `shell_tool`.

import asyncio
import os
import threading
import time
from collections.abc import Iterable
from typing import Annotated

from pydantic import Field

from agentkit.hardening.environment import scrubbed_environment
from agentkit.hardening.output import CommandResult, HeadTail
from agentkit.hardening.processes import check_command, spawn_confined
from agentkit.hardening.threads import run_blocking
from agentkit.limits import DEFAULT_LIMITS, Limits
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.schema import tool
from agentkit.tools.workspace import Workspace


def run_command(command: str, cwd: str | os.PathLike[str], timeout: float, keep: int, *,
                pass_env: Iterable[str] = (), stop: threading.Event | None = None,
                max_bytes: int | None = None, max_processes: int | None = None) -> CommandResult:
    """Run `command` with bash in `cwd`, reading its output as it comes; blocks, so call it in a thread.

    Everything it started is killed at `timeout` seconds, past `max_bytes` of output, when `stop` is set, and as
    soon as bash exits, so background jobs (`cmd &`) cannot outlive the call. At most `max_processes` processes.
    """
    stdout, stderr = HeadTail(keep), HeadTail(keep)  # the first and last `keep` bytes; the middle only counted
    deadline, timed_out, flooded = time.monotonic() + timeout, False, False
    env = scrubbed_environment(pass_env=pass_env)
    with spawn_confined(command, cwd, env, stdout, stderr, max_processes) as child:  # its own group, capped
        while child.running() and not (stop is not None and stop.is_set()):
            timed_out = time.monotonic() >= deadline
            flooded = max_bytes is not None and stdout.total + stderr.total > max_bytes
            if timed_out or flooded:
                break
            child.read_some()
        leftovers = child.kill_everything()  # the group, and every process that left it
    exit_code = None if timed_out or flooded else child.process.returncode
    return CommandResult(exit_code, stdout, stderr, timeout, *leftovers, max_bytes if flooded else None)


def shell_tool(workspace: Workspace, limits: Limits = DEFAULT_LIMITS, pass_env: Iterable[str] = ()) -> ToolDefinition:
    """The `bash` tool, running commands in `workspace.root` within `limits`; `pass_env` names variables to pass on."""
    pass_env = tuple(pass_env)

    @tool(needs_confirmation=True)
    async def bash(command: Annotated[str, Field(min_length=1)],
                   timeout: Annotated[float, Field(gt=0, le=limits.shell_timeout)] = limits.shell_timeout) -> str:
        """Run a bash command in the workspace folder and return its exit code, stdout and stderr.
        It is killed after the timeout; long output keeps its beginning and end.
        No input can be typed: use non-interactive commands. Background processes are stopped when the command ends.

        Args:
            command: The bash command line to run.
            timeout: Seconds before the command is killed.
        """
        check_command(command, limits.max_command_bytes)
        stop = threading.Event()
        work = asyncio.ensure_future(run_blocking(
            run_command, command, workspace.root, timeout, keep=limits.max_output_chars // 2, pass_env=pass_env,
            stop=stop, max_bytes=limits.max_command_output_bytes, max_processes=limits.max_command_processes,
        ))
        try:
            result = await asyncio.shield(work)  # a thread cannot be cancelled: on cancel, it is told to stop
        except asyncio.CancelledError:
            stop.set()
            await asyncio.wait({work})  # the command and what it started are dead before we say so
            raise
        return result.for_model(limits.max_output_chars)

    return bash
