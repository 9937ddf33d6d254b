"""Confine a submission's kernel: it may write only inside its throwaway folder (Linux Landlock, no privileges).

Run as `python -m agentkit.classroom.sandbox FOLDER -- COMMAND...`: it restricts itself, then becomes COMMAND
(the kernel), which keeps the restriction, as does every process it starts. Reading is not restricted (the
kernel reads the Python installation); writing, creating, removing, renaming and truncating files are, everywhere
but under FOLDER and the few devices a program writes to (/dev/null, /dev/tty).

Landlock is in Linux since 5.13; where it is missing (macOS, Windows, old kernels, some containers) `available()`
says so and the grader warns that a submission could write wherever the teacher can.
"""

from __future__ import annotations

import ctypes
import os
import sys

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
"""Landlock's system call numbers (the same on every architecture Linux added them to at once)."""
_GET_VERSION, _RULE_PATH_BENEATH, _NO_NEW_PRIVS = 1, 1, 38

WRITE_FILE, REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR, MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = (
    1 << 1, 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12)
REFER, TRUNCATE = 1 << 13, 1 << 14
"""Rights that only newer Landlock versions know (2: renaming across folders; 3: truncating)."""
WRITABLE_DEVICES = ("/dev/null", "/dev/tty")


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _syscall(number: int, *arguments: object) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    result = libc.syscall(number, *arguments)
    if result < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return result


def version() -> int:
    """This kernel's Landlock version (0: none, or not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        return _syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_GET_VERSION))
    except OSError:
        return 0


def available() -> bool:
    """True when a kernel can be confined here."""
    return version() >= 1


def confine_writes_to(folder: str) -> None:
    """From now on, this process and its children can change files only under `folder` (and write to WRITABLE_DEVICES)."""
    level = version()
    if level < 1:
        raise OSError("Landlock is not available on this system (it needs Linux 5.13 or later)")
    rights = WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG | MAKE_SOCK | MAKE_FIFO \
        | MAKE_BLOCK | MAKE_SYM | (REFER if level >= 2 else 0) | (TRUNCATE if level >= 3 else 0)
    handled = ctypes.c_uint64(rights)
    ruleset = _syscall(_CREATE_RULESET, ctypes.byref(handled), ctypes.c_size_t(8), ctypes.c_uint32(0))
    try:
        _allow(ruleset, folder, rights)
        for device in WRITABLE_DEVICES:
            if os.path.exists(device):
                _allow(ruleset, device, WRITE_FILE | (TRUNCATE if level >= 3 else 0))
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:  # Landlock requires it of an unprivileged process
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        _syscall(_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0))
    finally:
        os.close(ruleset)


def _allow(ruleset: int, path: str, rights: int) -> None:
    descriptor = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        rule = _PathBeneath(rights, descriptor)
        _syscall(_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_uint32(_RULE_PATH_BENEATH), ctypes.byref(rule),
                 ctypes.c_uint32(0))
    finally:
        os.close(descriptor)


def main(argv: list[str]) -> None:
    if len(argv) < 3 or argv[1] != "--":
        sys.exit("usage: python -m agentkit.classroom.sandbox FOLDER -- COMMAND [ARGUMENT...]")
    folder, command = argv[0], argv[2:]
    if available():
        confine_writes_to(folder)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
