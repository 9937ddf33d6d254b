"""The `bash` tool: one shell command in the workspace root, bounded in time, in output and in what it can see.

- Off the event loop: the command is a child process, watched from a worker thread, so other tool calls
  (and a notebook) keep running while it works.
- Bounded in time: the command runs in a new process group (`start_new_session`); at the timeout, and
  when the command ends, the whole group is killed, so nothing it started is left running.
- Bounded in output: both pipes are read in chunks into a `HeadTail`, which keeps the first and the last
  bytes and only counts the middle, so a command printing a gigabyte costs kilobytes.
- Bounded in what it sees: the environment is copied without secrets (`scrubbed_environment`).

This is not a sandbox: the command can read and write anything this user can. See chapter 06.
"""

from __future__ import annotations

import asyncio
import os
import selectors
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agentkit.limits import DEFAULT_LIMITS, Limits
from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.workspace import Workspace

SECRET_MARKERS = ("KEY", "TOKEN", "SECRET", "PASSWORD")
"""An environment variable whose name contains one of these (in any case) never reaches the shell."""

_CHUNK = 64 * 1024
_DRAIN_AFTER_KILL = 2.0
"""Seconds to wait for the pipes to close once the group is killed; a process that left the group may hold them."""


def scrubbed_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """A copy of `environ` (default: this process's) without the variables whose names look like secrets."""
    environ = os.environ if environ is None else environ
    kept = {name: value for name, value in environ.items() if not any(m in name.upper() for m in SECRET_MARKERS)}
    # Nobody can answer a prompt: pagers print straight through, git fails instead of asking for a password.
    return kept | {"PAGER": "cat", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0"}


@dataclass
class HeadTail:
    """The first and last `keep` bytes of a stream, and how many bytes it had; memory stays O(keep)."""

    keep: int
    """Bytes kept at each end."""
    head: bytearray = field(default_factory=bytearray)
    """The first bytes, up to `keep`."""
    tail: bytearray = field(default_factory=bytearray)
    """The last bytes seen after the head was full, up to `keep`."""
    total: int = 0
    """Every byte the stream produced, kept or not."""

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.keep - len(self.head)
        self.head += chunk[:room]
        self.tail += chunk[max(room, 0):]
        if len(self.tail) > self.keep:
            del self.tail[: -self.keep]

    def render(self, budget: int) -> str:
        """The stream as text of at most `budget` bytes' worth, saying how many bytes were cut from the middle."""
        kept = self.head + self.tail
        if self.total == len(kept) <= budget:
            return kept.decode(errors="replace")
        # Once anything is cut, the tail holds `keep` bytes, so the last `budget - first` bytes are all in it.
        first = budget // 2
        head, tail = kept[:first], kept[len(kept) - (budget - first):]
        cut = self.total - len(head) - len(tail)
        middle = f"\n[... {cut:,} bytes cut from the middle ...]\n"
        return head.decode(errors="replace") + middle + tail.decode(errors="replace")


@dataclass(frozen=True)
class CommandResult:
    """What one shell command did."""

    exit_code: int | None
    """The exit status; negative when a signal killed it (-9 is SIGKILL); None when it timed out."""
    stdout: HeadTail
    """What it printed on standard output (head and tail)."""
    stderr: HeadTail
    """What it printed on standard error (head and tail)."""
    timeout: float
    """The time limit it ran under, in seconds."""
    escaped: bool = False
    """True when a process that left the group (`setsid`) still held the output open: it may still be running."""

    def for_model(self, max_chars: int) -> str:
        """Exit code, stdout and stderr as labelled sections, together at most about `max_chars` characters."""
        if self.exit_code is None:
            status = f"timed out after {self.timeout:.1f} s; the command and every process it started were killed"
        elif self.exit_code < 0:
            status = f"{self.exit_code} (killed by signal {signal.Signals(-self.exit_code).name})"
        else:
            status = str(self.exit_code)
        # stderr gets at most half the budget, and stdout whatever stderr leaves.
        err_budget = min(self.stderr.total, max_chars // 2)
        sections = [f"exit code: {status}"]
        streams = (("stdout", self.stdout, max_chars - err_budget), ("stderr", self.stderr, err_budget))
        for label, stream, budget in streams:
            text = stream.render(budget).rstrip("\n")
            sections.append(f"{label}:\n{text}" if text else f"{label}: (empty)")
        if self.escaped:
            sections.append("note: a process started by the command left its process group and kept the output "
                            "open; it was not stopped and may still be running")
        return "\n".join(sections)


def run_command(command: str, cwd: str | os.PathLike[str], timeout: float, keep: int) -> CommandResult:
    """Run `command` with bash in `cwd`, reading its output as it comes; blocks, so call it in a thread.

    The whole process group is killed at `timeout` seconds, and also as soon as bash itself exits,
    so background jobs (`cmd &`) cannot outlive the call or keep the pipes open.
    """
    bash = shutil.which("bash")
    if bash is None:
        raise RuntimeError("the bash tool needs `bash` on PATH")
    process = subprocess.Popen(
        [bash, "-c", command], cwd=cwd, env=scrubbed_environment(), start_new_session=True,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    stdout, stderr = HeadTail(keep), HeadTail(keep)
    with process, selectors.DefaultSelector() as pipes:
        pipes.register(process.stdout, selectors.EVENT_READ, stdout)  # type: ignore[arg-type]
        pipes.register(process.stderr, selectors.EVENT_READ, stderr)  # type: ignore[arg-type]
        # 1. Until bash exits or time is up, read the output as it comes. (Closed pipes do not mean that
        #    bash has exited: a program may close its output and go on running.)
        deadline, timed_out = time.monotonic() + timeout, False
        while not _has_exited(process):
            if time.monotonic() >= deadline:
                timed_out = True
                break
            _read_some(pipes)
        # 2. Stop everything it started, then read what is left in the pipes.
        _kill_group(process.pid)
        deadline = time.monotonic() + _DRAIN_AFTER_KILL
        while pipes.get_map() and time.monotonic() < deadline:
            _read_some(pipes)
        process.wait()
        # A process that left the group (`setsid`) can still hold a pipe open: then we stop reading.
        escaped = bool(pipes.get_map())
    return CommandResult(None if timed_out else process.returncode, stdout, stderr, timeout, escaped)


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


def shell_tool(workspace: Workspace, limits: Limits = DEFAULT_LIMITS) -> ToolDefinition:
    """The `bash` tool, running commands in `workspace.root` within `limits`."""

    async def bash(arguments: dict[str, Any]) -> str:
        timeout = arguments.get("timeout", limits.shell_timeout)
        if not 0 < timeout <= limits.shell_timeout:
            raise ToolError(f"timeout should be more than 0 and at most {limits.shell_timeout} seconds, got {timeout}")
        result = await asyncio.to_thread(
            run_command, arguments["command"], workspace.root, timeout, keep=limits.max_output_chars // 2
        )
        return result.for_model(limits.max_output_chars)

    parameters = {
        "type": "object",
        "properties": {
            "command": {"type": "string", "minLength": 1, "description": "The bash command line to run."},
            "timeout": {"type": "number", "exclusiveMinimum": 0, "maximum": limits.shell_timeout,
                        "description": f"Seconds before the command is killed (default and at most "
                                       f"{limits.shell_timeout})."},
        },
        "required": ["command"],
        "additionalProperties": False,
    }
    description = (
        "Run a bash command in the workspace folder and return its exit code, stdout and stderr. "
        f"It is killed after the timeout; long output keeps its beginning and end. No input can be typed: "
        "use non-interactive commands. Background processes are stopped when the command ends."
    )
    return ToolDefinition("bash", description, parameters, bash, needs_confirmation=True)
