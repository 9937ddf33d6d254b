"""A shell command confined to its own process group and process cap, and every process it started killed at its end.

The attack: a command that outlives its call: a background job (`cmd &`), a timeout that kills only bash, a
process that leaves the group (`setsid`, `set -m`, a double fork) and goes on running, a fork bomb, a command
that floods its pipes or is cancelled; a command line bash cannot be given (a NUL byte, too long: `check_command`).
The tests that prove it: tests/test_shell.py, tests/test_shell_attacks.py, tests/test_shell_escapes.py,
tests/test_shell_inputs.py, tests/test_process_cap.py, tests/test_security.py.

`spawn_confined` starts bash in a new session (its own process group), capped in processes (`process_cap.py`),
and yields a `Confined` whose pipes are read as they come; `Confined.kill_everything` kills the group and every
process that left it. Killing the group is not enough: `setsid`, `set -m`, `os.setpgid` or a double fork take a
process out of the group, and it goes on running. On Linux three facts let us find such a process anyway:

- this process becomes a *child subreaper* (`prctl(PR_SET_CHILD_SUBREAPER)`), so an orphan is re-parented to
  us instead of to init, and stays among our descendants, where we can look for it;
- every command gets a unique `AGENTKIT_RUN=<token>` in its environment, which its processes inherit through
  `setsid`, new groups and double forks alike (`/proc/<pid>/environ`);
- a process keeps the command's session id unless it calls `setsid`, and we also remember every descendant
  of the command we saw while it ran.

A process is the command's when one of these says so; other children of this process (another command
running at the same time, a notebook's own subprocesses) are never touched. Without `/proc` nothing can be
looked for, and the result says so.
"""

from __future__ import annotations

import ctypes
import functools
import os
import selectors
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

from agentkit.errors import ToolError
from agentkit.hardening.output import HeadTail
from agentkit.hardening.process_cap import capped_command
from agentkit.hardening.process_table import (
    ProcessInfo,
    all_processes,
    can_look_for_processes,
    command_line,
    environ_has_prefix,
    has_marker,
    read_process,
)

RUN_MARKER = "AGENTKIT_RUN"
"""The environment variable that tags every process of one command with that command's token."""

_PR_SET_CHILD_SUBREAPER = 36
_CHUNK = 64 * 1024
_DRAIN_AFTER_KILL = 2.0
"""Seconds to wait for the pipes to close once everything is killed; a process we could not stop may hold them."""


@contextmanager
def spawn_confined(command: str, cwd: str | os.PathLike[str], env: Mapping[str, str], stdout: HeadTail,
                   stderr: HeadTail, max_processes: int | None = None) -> Iterator[Confined]:
    """Run `command` with bash in `cwd`: a new session, at most `max_processes` processes, output into the `HeadTail`s.

    Leaving the `with` kills everything the command started (if `kill_everything` was not called already) and
    only then collects bash, so that its pid (the group's id) cannot be reused before the kill.
    """
    bash = shutil.which("bash")
    if bash is None:
        raise RuntimeError("the bash tool needs `bash` on PATH")
    # As a subreaper, orphans stay our descendants; without it, those that keep their tag are still found.
    checked = become_subreaper() and can_look_for_processes()
    tag = CommandProcesses(leader=0)  # the token must be in the environment before bash starts
    try:
        process = subprocess.Popen(
            capped_command(bash, command, max_processes), cwd=cwd, env={**env, **tag.environment},
            start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
    except OSError as error:  # a command may delete the workspace, or make it a file: the next one cannot start
        if error.filename is None or os.fspath(error.filename) != os.fspath(cwd):
            raise
        raise ToolError(f"no command can run in the workspace folder {os.fspath(cwd)}: {error.strerror} (a command "
                        "may have removed it or changed it); tell the user, who can create it again") from None
    tag.leader = process.pid
    with process, selectors.DefaultSelector() as pipes:
        pipes.register(process.stdout, selectors.EVENT_READ, stdout)  # type: ignore[arg-type]
        pipes.register(process.stderr, selectors.EVENT_READ, stderr)  # type: ignore[arg-type]
        confined = Confined(process, tag, pipes, checked)
        try:
            yield confined
        finally:
            if confined.leftovers is None:
                confined.kill_everything()
            process.wait()


def check_command(command: str, max_bytes: int) -> None:
    """Refuse, as the model's error, a command line that bash could not be given."""
    if "\0" in command:
        raise ToolError(f"the command contains a NUL byte (character {command.index(chr(0))}); NUL bytes cannot "
                        "be passed to bash: remove it, or write it with printf '\\0' inside the command")
    size = len(command.encode("utf-8"))  # lone surrogates never get here: @tool refuses them in `command`
    if size > max_bytes:
        raise ToolError(f"the command is {size:,} bytes long; the limit (max_command_bytes) is {max_bytes:,} bytes. "
                        "Write long content to a file with the file tools and run that file instead")


@dataclass
class Confined:
    """A running command: `running()` while bash lives, `read_some()` of its output, `kill_everything()` at the end."""

    process: subprocess.Popen[bytes]
    tag: CommandProcesses
    pipes: selectors.BaseSelector
    checked: bool
    """Can processes that left the group be looked for (`/proc`, and we are their subreaper)?"""
    leftovers: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], bool] | None = None
    """(killed, still running, unknown, checked) once `kill_everything` ran: the last fields of a `CommandResult`."""
    _next_look: float = 0.0

    def running(self) -> bool:
        """Has bash not ended yet? Asked without reaping it; now and then, notes the command's processes, so that
        one whose parent has since exited is still known. (Closed pipes do not mean that bash has exited.)"""
        if can_look_for_processes() and time.monotonic() >= self._next_look:
            self.tag.find()
            self._next_look = time.monotonic() + 0.2
        if not hasattr(os, "waitid"):  # not every Unix has it; the group id stays reserved while the group has members
            return self.process.poll() is None
        return os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None

    def read_some(self, wait: float = 0.05) -> None:
        """Read one chunk from each pipe that has output, waiting at most `wait` seconds for some."""
        if not self.pipes.get_map():
            time.sleep(wait)
            return
        for key, _ in self.pipes.select(timeout=wait):
            if chunk := os.read(key.fd, _CHUNK):
                key.data.add(chunk)
            else:
                self.pipes.unregister(key.fileobj)

    def kill_everything(self) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], bool]:
        """Kill the group and every process that left it, read what is left in the pipes; return `leftovers`."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):  # the group is already gone
            pass
        killed, still_running = self.tag.stop() if can_look_for_processes() else ([], [])
        unknown = self.tag.unknown_orphans() if self.checked else []
        deadline = time.monotonic() + _DRAIN_AFTER_KILL
        while self.pipes.get_map() and time.monotonic() < deadline:
            self.read_some()
        self.leftovers = (tuple(killed), tuple(still_running), tuple(unknown), self.checked)
        return self.leftovers


@functools.cache
def become_subreaper() -> bool:
    """Make this process adopt its orphaned descendants (Linux); done once, when the first command runs."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


@dataclass
class CommandProcesses:
    """The processes of one command: its session, its token, and every descendant seen so far."""

    leader: int
    """The command's bash: its pid is the session and group id of the command (`start_new_session`)."""
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    """The value of `AGENTKIT_RUN` in this command's environment."""
    seen: set[tuple[int, int]] = field(default_factory=set)
    """(pid, start time) of every process found to be the command's so far."""
    children_before: set[tuple[int, int]] = field(default_factory=lambda: _children_of(os.getpid()))
    """(pid, start time) of this process's children before the command started."""

    @property
    def environment(self) -> dict[str, str]:
        return {RUN_MARKER: self.token}

    def find(self) -> dict[int, ProcessInfo]:
        """The command's live processes other than its bash (ended ones are left for `stop` to collect)."""
        table = all_processes()
        marker = f"{RUN_MARKER}={self.token}".encode()
        ours = {pid for pid, info in table.items()
                if info.session == self.leader or (pid, info.started) in self.seen or has_marker(pid, marker)}
        ours.add(self.leader)
        # Whatever descends from one of them is the command's too, marker or not.
        children: dict[int, list[int]] = {}
        for info in table.values():
            children.setdefault(info.parent, []).append(info.pid)
        stack = list(ours)
        while stack:
            for child in children.get(stack.pop(), ()):
                if child not in ours:
                    ours.add(child)
                    stack.append(child)
        self.seen |= {(pid, table[pid].started) for pid in ours if pid in table}
        return {pid: table[pid] for pid in ours if pid in table and pid != self.leader and not table[pid].zombie}

    def stop(self, grace: float = 2.0) -> tuple[list[str], list[str]]:
        """SIGKILL every process of the command that left its group; then (killed, still running), as `pid command`.

        The group itself is killed by the caller; a process is listed only when a kill was sent to it, and as
        killed only once it is really gone.
        """
        targets: dict[int, str] = {}
        deadline = time.monotonic() + grace
        while True:
            for pid, info in self.find().items():  # group members too: SIGKILL again is harmless
                if info.group != self.leader:
                    targets.setdefault(pid, command_line(pid))
                _kill(pid)
            self._collect_zombies()
            alive = [pid for pid in targets if _running(pid)]
            if not alive and not self.find() or time.monotonic() >= deadline:
                break
            time.sleep(0.02)
        killed = [f"{pid} {line}" for pid, line in targets.items() if pid not in alive]
        return killed, [f"{pid} {targets[pid]}" for pid in alive]

    def unknown_orphans(self) -> list[str]:
        """`pid command` of each process adopted by us since the command started that carries no command's tag.

        A process that left the session, wiped its environment, and whose parent had exited before we looked
        cannot be told apart from an orphan of another command running at the same time: it is reported, not killed.
        """
        me, tag = os.getpid(), f"{RUN_MARKER}=".encode()
        return [f"{pid} {command_line(pid)}" for pid, started in sorted(_children_of(me) - self.children_before)
                if pid != self.leader and (pid, started) not in self.seen and not environ_has_prefix(pid, tag)
                and _running(pid)]

    def _collect_zombies(self) -> None:
        """Reap the command's ended processes that were re-parented to us; else they would stay as zombies."""
        me = os.getpid()
        for info in all_processes().values():
            if info.parent == me and info.zombie and info.pid != self.leader and (info.pid, info.started) in self.seen:
                try:
                    os.waitpid(info.pid, os.WNOHANG)
                except ChildProcessError:
                    pass


def _children_of(parent: int) -> set[tuple[int, int]]:
    if not can_look_for_processes():
        return set()
    return {(info.pid, info.started) for info in all_processes().values() if info.parent == parent}


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _running(pid: int) -> bool:
    info = read_process(pid)
    return info is not None and not info.zombie
