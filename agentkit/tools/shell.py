"""The `bash` tool: one shell command in the workspace root, bounded in time, in output and in what it can see.

- Off the event loop: the command is a child process, watched from a worker thread, so other tool calls
  (and a notebook) keep running while it works; cancelling the call kills the command.
- Bounded in time: the command runs in a new process group (`start_new_session`); at the timeout, and
  when the command ends, the whole group is killed, and so is every process that left the group
  (`processes.py` finds them), so nothing it started is left running, or the result says what is.
- Bounded in output: both pipes are read in chunks into a `HeadTail` (`command_output.py`), which keeps the
  first and the last bytes and only counts the middle, so a command printing a gigabyte costs kilobytes; one
  that prints more than `Limits.max_command_output_bytes` (an endless `yes`) is stopped then, not at the timeout.
- Bounded in what it sees: only an allowlist of environment variables is passed (`scrubbed_environment`).
- Bounded in processes: a fork bomb meets `RLIMIT_NPROC` (`process_cap.py`), except as root.

This is not a sandbox: the command can read and write anything this user can. See chapter 06.
"""

# No `from __future__ import annotations`: the bound on `timeout` names `limits`, a local of `shell_tool`.

import asyncio
import os
import threading
import time
from collections.abc import Iterable, Mapping
from typing import Annotated

from pydantic import Field

from agentkit.hardening.output import CommandResult, HeadTail
from agentkit.hardening.processes import check_command, spawn_confined
from agentkit.limits import DEFAULT_LIMITS, Limits
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.schema import tool
from agentkit.tools.threads import run_blocking
from agentkit.tools.workspace import Workspace

PASSED_ENVIRONMENT = ("PATH", "HOME", "LANG", "TERM", "TZ", "USER", "SHELL", "TMPDIR")
"""The only variables (with every `LC_*`) the shell gets from ours: a secret can have any name, so none is guessed."""



def scrubbed_environment(environ: Mapping[str, str] | None = None, pass_env: Iterable[str] = ()) -> dict[str, str]:
    """The variables of `environ` (default: this process's) named in `PASSED_ENVIRONMENT`, `LC_*` or `pass_env`."""
    environ = os.environ if environ is None else environ
    wanted = {*PASSED_ENVIRONMENT, *pass_env}
    kept = {name: value for name, value in environ.items() if name in wanted or name.startswith("LC_")}
    # Nobody can answer a prompt: pagers print straight through, git fails instead of asking for a password.
    return kept | {"PAGER": "cat", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0"}


def run_command(command: str, cwd: str | os.PathLike[str], timeout: float, keep: int, *,
                pass_env: Iterable[str] = (), stop: threading.Event | None = None,
                max_bytes: int | None = None, max_processes: int | None = None) -> CommandResult:
    """Run `command` with bash in `cwd`, reading its output as it comes; blocks, so call it in a thread.

    Everything the command started is killed at `timeout` seconds, once it has printed more than `max_bytes`
    (None: no bound), when `stop` is set, and also as soon as bash itself exits, so background jobs (`cmd &`),
    even those that left the group, cannot outlive the call. It may start `max_processes` processes at most.
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
