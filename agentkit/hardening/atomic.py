"""Writing a file whole or not at all, only through its one name, one writer at a time; and the temporaries' cleanup.

The attack: a write that dies halfway (a crash, a full disk, a kill) and leaves half a file; a file with a
second, hard-linked name outside the workspace, written through; two edits of one file at once, the second
undoing the first; a file changed by another program between edit_file's read and its write; content too big
for the disk, or a disk that is full or read-only (`refusals_reported`); temporaries left behind by a killed
write. The tests that prove it: tests/test_filesystem.py, tests/test_workspace_attacks.py, tests/test_workspace.py,
tests/test_security.py.

`atomic_write` writes a temporary file beside the target and renames it over the target in one step, so a
reader, or a crash at any moment, sees either the whole old file or the whole new one.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from functools import cache
from pathlib import Path

from agentkit.errors import ToolError
from agentkit.hardening.echo import quoted
from agentkit.hardening.output import refuse_binary
from agentkit.hardening.paths import open_parent, open_regular_file
from agentkit.hardening.tree import TEMPORARY_SUFFIX, walk
from agentkit.limits import Limits

WRITE_CHUNK = 1 << 20
RAISE_IT = "(Limits.max_file_bytes; only the user can raise it)"
# Two tasks editing one file at once would each read the old text, and the second write would undo the first
# edit. Each file's writers take turns on one of these locks, chosen by the file's path.
_FILE_LOCKS = tuple(threading.Lock() for _ in range(64))


def file_lock(target: Path) -> threading.Lock:
    """The lock that the writers of `target` take turns on."""
    return _FILE_LOCKS[hash(str(target)) % len(_FILE_LOCKS)]


def encoded(content: str, limits: Limits, what: str = "content is") -> bytes:
    try:
        data = content.encode("utf-8")
    except UnicodeEncodeError:
        raise ToolError("content is not valid Unicode text (it holds a lone surrogate)") from None
    if len(data) > limits.max_file_bytes:
        raise ToolError(f"{what} {len(data):,} bytes; a file may be at most {limits.max_file_bytes:,} bytes {RAISE_IT}")
    return data


def atomic_write(root: Path, target: Path, data: bytes, read: os.stat_result | None = None) -> bool:
    """Write to a temporary file beside the target, then rename it over the target in one step.

    A reader, or a crash at any moment, sees either the whole old file or the whole new one. Returns
    whether a file was replaced. `read` is the file as `edit_file` found it: if it has changed since, refuse.
    """
    shown = target.relative_to(root).as_posix()
    with open_parent(root, target, make_folders=True) as (folder, name):
        try:
            old = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        if read is not None and (old is None or version(old) != version(read)):
            raise ToolError(f"{quoted(shown)} changed after edit_file read it (another program wrote to it), so nothing "
                            "was changed; call edit_file again")
        if old is not None and not stat.S_ISREG(old.st_mode):
            raise ToolError(f"{quoted(shown)} is {'a folder' if stat.S_ISDIR(old.st_mode) else 'not a regular file'}; "
                            "write_file only writes files")
        if old is not None:
            # The rename below replaces the name, never writing through a link, so a link made after this look
            # changes nothing outside; refusing says plainly that the file's other names would keep the old text.
            refuse_hard_link(old, shown, "write_file")
        temporary = f".{secrets.token_hex(6)}{TEMPORARY_SUFFIX}"
        mode = stat.S_IMODE(old.st_mode) if old else 0o644
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode,
                     dir_fd=folder)
        try:
            try:
                if old is not None:
                    os.fchmod(fd, mode)  # keep the old file's permissions exactly, whatever the umask
                view, written = memoryview(data), 0
                while written < len(data):
                    written += os.write(fd, view[written:written + WRITE_CHUNK])
                os.fsync(fd)  # the data is on disk before the rename makes it the file
            finally:
                os.close(fd)
            os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with suppress(OSError):
                os.unlink(temporary, dir_fd=folder)
            raise
        os.fsync(folder)  # and the rename itself survives a power cut
    return old is not None


def refuse_hard_link(found: os.stat_result, shown: str, tool: str) -> None:
    """Refuse to change a file with more than one name: the other could be outside the workspace.

    A hard link is the file itself under a second name, with no symlink for the guard to see, so a path
    check cannot tell where the other names are. Reading stays allowed (a limit chapter 05 states).
    """
    if found.st_nlink > 1:
        raise ToolError(
            f"{quoted(shown)} has {found.st_nlink} hard links (names for the same file), and another name may be outside "
            f"the workspace, so {tool} does not change it; write the new content to a new path instead, "
            f"for example '{shown}.new'"
        )


def version(found: os.stat_result) -> tuple[int, ...]:
    """What changes when a file is replaced or written to: its identity, size and change times."""
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns


def read_whole(root: Path, target: Path, limits: Limits) -> tuple[str, os.stat_result]:
    """The whole text of the file, and the file as it was when read (its `os.fstat`)."""
    shown = target.relative_to(root).as_posix()
    with open(open_regular_file(root, target), "rb") as file:
        read = os.fstat(file.fileno())
        refuse_hard_link(read, shown, "edit_file")  # the very file read, not its name again
        data = file.read(limits.max_file_bytes + 1)
    if len(data) > limits.max_file_bytes:
        raise ToolError(f"{quoted(shown)} is larger than {limits.max_file_bytes:,} bytes {RAISE_IT}; edit_file does not "
                        "rewrite files that large")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError(f"{quoted(shown)} is not UTF-8 text (it may be a binary file); edit_file only edits text") from None
    refuse_binary(text, shown)
    return text, read


REFUSALS = frozenset({errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG, errno.EIO,
                      errno.EMFILE, errno.ENFILE, errno.EBUSY, errno.ETXTBSY, errno.ENAMETOOLONG, errno.ENOENT})
"""What the file system itself may refuse (permissions, a full disk, a file removed mid-call...): the model
reads it as an `Error:` and can tell the user. Any other `OSError` (a bad descriptor, say) is our bug, and raises."""


@contextmanager
def refusals_reported(what: str, action: str) -> Iterator[None]:
    """Turn what the file system refuses into a `ToolError` the model reads; our own bugs still raise."""
    try:
        yield
    except OSError as error:
        if error.errno not in REFUSALS:
            raise
        raise ToolError(f"{quoted(what)} could not be {action}: the file system refused ({error.strerror}, "
                        f"{errno.errorcode[error.errno]}); this is not about your arguments: tell the user if it "
                        "goes on") from error


def remove_stale_temporaries(root: Path) -> None:
    """Delete `write_file` temporaries below `root` older than this process: left by a write that was killed."""
    started = process_start()
    with closing(walk(root, lambda parts: True)) as entries:
        for parts, _, _, folder_fd in entries:
            if not parts[-1].endswith(TEMPORARY_SUFFIX):
                continue
            with suppress(OSError):  # gone already, or not ours to remove: leave it
                found = os.stat(parts[-1], dir_fd=folder_fd, follow_symlinks=False)
                if stat.S_ISREG(found.st_mode) and found.st_mtime < started:
                    os.unlink(parts[-1], dir_fd=folder_fd)


@cache
def process_start() -> float:
    """When this process started, as a Unix time, rounded down: every temporary it writes is younger."""
    try:
        # Field 22 of /proc/self/stat is the start in clock ticks after boot; /proc/stat's `btime` is the boot.
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        boot = next(int(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return time.time()  # elsewhere: the first workspace this process opens, before any write of its own
