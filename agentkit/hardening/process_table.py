"""The process table, read from `/proc` (Linux): which processes exist, what each runs, and what it inherited.

The attack: a process that leaves a command's process group (`setsid`, a double fork) to outlive it; the table
is how `processes.py` still finds it, by session, by parent, or by the tag in its environment. The tests that
prove it: tests/test_shell_escapes.py. Without `/proc` nothing can be looked for, and
`can_look_for_processes` says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

_PROC = "/proc"


def can_look_for_processes() -> bool:
    """Is there a `/proc` to find a command's processes in?"""
    return os.path.isfile(f"{_PROC}/self/stat")


@dataclass(frozen=True)
class ProcessInfo:
    """One line of `/proc/<pid>/stat`, the fields we use."""

    pid: int
    """Its process id."""
    parent: int
    """Its parent's process id."""
    group: int
    """Its process group id."""
    session: int
    """Its session id."""
    started: int
    """When it started, in clock ticks since boot: tells a reused pid apart from the process we saw."""
    zombie: bool
    """It has ended and waits for its parent to collect its exit status."""


def read_process(pid: int) -> ProcessInfo | None:
    """The process `pid`, or None when it is gone."""
    try:
        with open(f"{_PROC}/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may contain anything: split after its last ")".
    fields = stat[stat.rfind(b")") + 2:].split()
    return ProcessInfo(pid, int(fields[1]), int(fields[2]), int(fields[3]), int(fields[19]), fields[0] == b"Z")


def all_processes() -> dict[int, ProcessInfo]:
    """Every process this user can see, by pid."""
    table = {}
    for name in os.listdir(_PROC):
        if name.isdigit() and (info := read_process(int(name))) is not None:
            table[info.pid] = info
    return table


def command_line(pid: int, limit: int = 80) -> str:
    """What `pid` runs, as `ps` shows it, cut to `limit` characters."""
    try:
        with open(f"{_PROC}/{pid}/cmdline", "rb") as file:
            words = file.read().rstrip(b"\0").replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        words = ""
    return (words or "?")[:limit]


def has_marker(pid: int, marker: bytes) -> bool:
    try:
        with open(f"{_PROC}/{pid}/environ", "rb") as file:
            return marker in file.read().split(b"\0")
    except OSError:  # another user's process, or gone
        return False


def environ_has_prefix(pid: int, prefix: bytes) -> bool:
    try:
        with open(f"{_PROC}/{pid}/environ", "rb") as file:
            return any(variable.startswith(prefix) for variable in file.read().split(b"\0"))
    except OSError:
        return True  # not ours to judge
