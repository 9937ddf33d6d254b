"""Finding and stopping every process a shell command started, including those that left its process group.

Killing the command's process group is not enough: `setsid`, `set -m`, `os.setpgid` or a double fork take a
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
import signal
import sys
import time
import uuid
from dataclasses import dataclass, field

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
