"""The agent's own process is made not dumpable (Linux `prctl(PR_SET_DUMPABLE, 0)`), so its commands cannot read it.

The attack: a shell command the model runs is this user's process, and by default a process of the same user may read
another's `/proc/<pid>/environ`, `/proc/<pid>/mem` (where `ptrace` is allowed) and a core dump: wherever the
agent keeps the model's key, a command could copy it out with `cat /proc/$PPID/environ` or a debugger.
A process that is not dumpable has its `/proc/<pid>/` files owned by root and refuses `ptrace` to the
same user, and writes no core dump. Its children are unaffected: `execve` makes a new program dumpable again.

What it does not stop: root (and any process with CAP_SYS_PTRACE) still reads everything, and on systems
other than Linux nothing is changed (`make_undumpable` returns False). `agentkit chat`, `web` and `mcp` call
it at start-up; `docs/security.md` says what remains. Proved by tests/test_undumpable.py.
"""

from __future__ import annotations

import ctypes
import sys

PR_SET_DUMPABLE = 4
"""The `prctl` option (linux/prctl.h): 0 makes the calling process not dumpable."""


def make_undumpable() -> bool:
    """Make this process not dumpable, where the platform has `PR_SET_DUMPABLE`; True if it now is not."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0
    except (OSError, AttributeError):  # no C library to load, or one without prctl
        return False
