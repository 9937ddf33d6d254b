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
import selectors
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterable, Mapping
from typing import Annotated

from pydantic import Field

from agentkit.hardening.command_output import CommandResult, HeadTail
from agentkit.hardening.process_cap import capped_command
from agentkit.hardening.process_table import can_look_for_processes
from agentkit.hardening.processes import CommandProcesses, become_subreaper
from agentkit.limits import DEFAULT_LIMITS, Limits
from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.schema import tool
from agentkit.tools.threads import run_blocking
from agentkit.tools.workspace import Workspace

PASSED_ENVIRONMENT = ("PATH", "HOME", "LANG", "TERM", "TZ", "USER", "SHELL", "TMPDIR")
"""The only variables (with every `LC_*`) the shell gets from ours: a secret can have any name, so none is guessed."""

_CHUNK = 64 * 1024
_DRAIN_AFTER_KILL = 2.0
"""Seconds to wait for the pipes to close once everything is killed; a process we could not stop may hold them."""


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
    bash = shutil.which("bash")
    if bash is None:
        raise RuntimeError("the bash tool needs `bash` on PATH")
    # As a subreaper, orphans stay our descendants; without it, those that keep their tag are still found.
    checked = become_subreaper() and can_look_for_processes()
    looking = can_look_for_processes()
    tag = CommandProcesses(leader=0)  # the token must be in the environment before bash starts
    try:
        process = subprocess.Popen(
            capped_command(bash, command, max_processes), cwd=cwd,
            env=scrubbed_environment(pass_env=pass_env) | tag.environment,
            start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
    except OSError as error:  # a command may delete the workspace, or make it a file: the next one cannot start
        if error.filename is None or os.fspath(error.filename) != os.fspath(cwd):
            raise
        raise ToolError(f"no command can run in the workspace folder {os.fspath(cwd)}: {error.strerror} (a command "
                        "may have removed it or changed it); tell the user, who can create it again") from None
    tag.leader = process.pid
    stdout, stderr = HeadTail(keep), HeadTail(keep)
    killed: list[str] = []
    still_running: list[str] = []
    with process, selectors.DefaultSelector() as pipes:
        pipes.register(process.stdout, selectors.EVENT_READ, stdout)  # type: ignore[arg-type]
        pipes.register(process.stderr, selectors.EVENT_READ, stderr)  # type: ignore[arg-type]
        # 1. Until bash exits, time is up or we are told to stop, read the output as it comes. (Closed pipes
        #    do not mean that bash has exited: a program may close its output and go on running.) Now and
        #    then, note the command's processes, so that one whose parent has since exited is still known.
        deadline, timed_out, flooded, next_look = time.monotonic() + timeout, False, False, 0.0
        while not _has_exited(process) and not (stop is not None and stop.is_set()):
            timed_out = time.monotonic() >= deadline
            flooded = max_bytes is not None and stdout.total + stderr.total > max_bytes
            if timed_out or flooded:
                break
            if looking and time.monotonic() >= next_look:
                tag.find()
                next_look = time.monotonic() + 0.2
            _read_some(pipes)
        # 2. Stop everything it started, inside the group and out, then read what is left in the pipes.
        _kill_group(process.pid)
        if looking:
            killed, still_running = tag.stop()
        unknown = tag.unknown_orphans() if checked else []
        deadline = time.monotonic() + _DRAIN_AFTER_KILL
        while pipes.get_map() and time.monotonic() < deadline:
            _read_some(pipes)
        process.wait()  # only now: until bash is collected, its pid (the group and session id) cannot be reused
    exit_code = None if timed_out or flooded else process.returncode
    return CommandResult(exit_code, stdout, stderr, timeout, tuple(killed), tuple(still_running), tuple(unknown),
                         checked, max_bytes if flooded else None)


def _read_some(pipes: selectors.BaseSelector, wait: float = 0.05) -> None:
    """Read one chunk from each pipe that has output, waiting at most `wait` seconds for some."""
    if not pipes.get_map():
        time.sleep(wait)
        return
    for key, _ in pipes.select(timeout=wait):
        if chunk := os.read(key.fd, _CHUNK):
            key.data.add(chunk)
        else:
            pipes.unregister(key.fileobj)


def _has_exited(process: subprocess.Popen[bytes]) -> bool:
    """Has bash ended? Asked without reaping it, so that its id (the group's id) cannot be reused before the kill."""
    if not hasattr(os, "waitid"):  # not every Unix has it; the group id stays reserved while the group has members
        return process.poll() is not None
    return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def _kill_group(group: int) -> None:
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # the group is already gone
        pass


def check_command(command: str, max_bytes: int) -> None:
    """Refuse, as the model's error, a command line that bash could not be given."""
    if "\0" in command:
        raise ToolError(f"the command contains a NUL byte (character {command.index(chr(0))}); NUL bytes cannot "
                        "be passed to bash: remove it, or write it with printf '\\0' inside the command")
    size = len(command.encode("utf-8"))  # lone surrogates never get here: @tool refuses them in `command`
    if size > max_bytes:
        raise ToolError(f"the command is {size:,} bytes long; the limit (max_command_bytes) is {max_bytes:,} bytes. "
                        "Write long content to a file with the file tools and run that file instead")


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
