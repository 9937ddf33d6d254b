"""A cap on how many processes a shell command may start (`RLIMIT_NPROC`), so that a fork bomb stops at a bound.

The attack: a fork bomb, which leaves the machine no process to give, not even to the kill. The tests that
prove it: tests/test_process_cap.py.

`:(){ :|:& };:` doubles its processes until the machine has none left to give, and the timeout comes too late:
by then nothing can fork, not even the kill. The kernel's `RLIMIT_NPROC` makes `fork` fail instead, once the
command's *user* has that many processes (threads count too). It counts every process of the user, not only
the command's, so the cap is what this user runs now plus `Limits.max_command_processes`. The command's bash
sets it on itself (`ulimit -u`, soft and hard: the command cannot raise it again) and then becomes the
command, so it holds from the first fork.

Where it does not hold (docs/security.md): root, and any process with CAP_SYS_RESOURCE or CAP_SYS_ADMIN, is
never refused a fork by it; without `/proc` (not Linux) the user's processes cannot be counted and no cap is
set; and other programs of the same user starting processes meanwhile use up the command's room.
"""

from __future__ import annotations

import os

try:
    import resource
except ImportError:  # Windows: no rlimits at all
    resource = None  # type: ignore[assignment]

from agentkit.hardening.process_table import can_look_for_processes

_CAPPED = 'ulimit -u "$1" && exec "$0" -c "$2"'
"""The command's bash caps itself, then becomes the command (same pid: still the leader of its session)."""


def capped_command(bash: str, command: str, room: int | None) -> list[str]:
    """The argv that runs `command` with bash, able to start at most `room` more processes (None: no cap)."""
    cap = None if room is None else process_cap(room)
    if cap is None:
        return [bash, "-c", command]
    return [bash, "-c", _CAPPED, bash, str(cap), command]


def process_cap(room: int) -> int | None:
    """The `RLIMIT_NPROC` to set: this user's processes now plus `room`, within the hard limit; None if none applies."""
    if resource is None or not hasattr(resource, "RLIMIT_NPROC") or not can_look_for_processes():
        return None
    hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    cap = user_tasks(os.getuid()) + room
    return cap if hard == resource.RLIM_INFINITY else min(cap, hard)


def user_tasks(uid: int) -> int:
    """Processes and threads whose real user is `uid`, as `RLIMIT_NPROC` counts them (Linux `/proc`)."""
    count = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:  # the status file, not the folder's owner: a process that is not dumpable has its folder owned by root
            with open(f"/proc/{name}/status", "rb") as file:
                fields = dict(line.split(b":", 1) for line in file.read().splitlines() if b":" in line)
            if int(fields[b"Uid"].split()[0]) == uid:
                count += int(fields[b"Threads"])
        except (OSError, KeyError, ValueError):  # gone meanwhile, or unreadable: not counted
            continue
    return count
