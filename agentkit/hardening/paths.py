"""Where a path really leads, and opening it without following a symlink swapped in after the check (chapter 05).

The attack: a path the model proposes leads outside the workspace through `..`, an absolute path, a symlink, a
chain or a loop of them (`loop/../out/secret.txt`), or through a symlink swapped in between the check and the
open (a TOCTOU race); or it names a FIFO, a socket or a device, whose open waits forever or reads without end.
The tests that prove it: tests/test_workspace.py, tests/test_workspace_attacks.py, tests/test_security.py.

- `follow_links(root, path)` walks the path one name at a time, reading every symlink (at most 40 in a row,
  as the kernel does: more is a loop); no part of it is taken as text. `Workspace.resolve` then checks that
  the result `is_relative_to` the root.
- `safe_open` / `open_parent` open that resolved path again, one folder at a time from the root, with
  `O_NOFOLLOW` and a folder descriptor (`dir_fd`) for each step. The resolved path holds no symlink, so
  meeting one now means that someone swapped it in: the open fails instead of following it outside.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agentkit.errors import ToolError, WorkspaceError
from agentkit.hardening.echo import quoted
from agentkit.hardening.tree import FOLDER_FLAGS, TEMPORARY_SUFFIX

MAX_SYMLINK_HOPS = 40
"""Linux's own limit on symlinks followed for one path: more than that is a loop (or a chain as bad as one)."""


def follow_links(root: Path, path: str) -> Path:
    """Where `path` (relative to `root`, or absolute) really leads: walked one name at a time, every symlink followed.

    `a/..` is the folder that holds wherever `a` really leads, never just "." (`Path.resolve` takes that
    shortcut on a loop). Names that do not exist yet are kept as they are: there is nothing to follow.
    """
    here = Path("/") if path.startswith("/") else root
    names = path.split("/")[::-1]  # a stack: the next name is last, a link's target is pushed in its place
    hops = 0
    while names:
        name = names.pop()
        if name in ("", "."):
            continue
        if name == "..":
            here = here.parent
            continue
        try:
            target = os.readlink(here / name)
        except OSError as error:
            if error.errno not in (errno.EINVAL, errno.ENOENT, errno.ENOTDIR):  # not a link; not there (yet)
                raise WorkspaceError(f"{quoted(path)} cannot be resolved ({error.strerror}); give a path to a real file "
                                     "or folder, such as 'notes.txt'") from None
            here = here / name
            continue
        hops += 1
        if hops > MAX_SYMLINK_HOPS:
            raise WorkspaceError(f"{quoted(path)} goes through a symlink loop (more than {MAX_SYMLINK_HOPS} symlinks "
                                 "in a row); give a path to a real file or folder, such as 'notes.txt'")
        names.extend(target.split("/")[::-1])
        if target.startswith("/"):
            here = Path("/")
    return here


def check_file_path(path: str) -> None:
    """Refuse a path written as a folder (`x/`, `x/.`, `.`): the file tools read and write files."""
    tail = "/" if path.endswith("/") else "/." if path.endswith("/.") or path == "." else ""
    if tail:
        raise WorkspaceError(f"{quoted(path)} ends with {tail!r}, which names a folder; give the path of a file, "
                             "such as 'notes/todo.txt'")


def refuse_temporary_name(root: Path, target: Path) -> Path:
    """`target`, unless it has the name of a `write_file` temporary (hidden from glob, and removed as a leftover)."""
    shown = target.relative_to(root).as_posix()
    if shown.endswith(TEMPORARY_SUFFIX):
        instead = shown.removesuffix(TEMPORARY_SUFFIX) + ".txt"
        raise WorkspaceError(f"names ending in {TEMPORARY_SUFFIX!r} are kept for write_file's temporary files; "
                             f"choose another name, such as {quoted(instead)}")
    return target


@contextmanager
def open_parent(root: Path, path: Path, *, make_folders: bool = False) -> Iterator[tuple[int, str]]:
    """Yield `(folder_fd, name)` for a resolved `path` inside `root`: the open parent folder and the last name.

    Each folder on the way is opened relative to the previous one with `O_NOFOLLOW`, so a symlink
    swapped in after the check makes this fail rather than lead outside. With `make_folders`,
    missing folders are created the same way.
    """
    parts = path.relative_to(root).parts
    if not parts:
        raise WorkspaceError("'.' is the workspace root, a folder; give the path of a file inside it")
    *folders, name = parts
    fd = os.open(root, FOLDER_FLAGS)
    try:
        for folder in folders:
            fd = _step_into(root, fd, folder, path, make_folders)
        yield fd, name
    finally:
        os.close(fd)


def safe_open(root: Path, path: Path, flags: int, mode: int = 0o644) -> int:
    """`os.open` a resolved path inside `root` without following any symlink on the way; the caller closes the fd."""
    with open_parent(root, path) as (folder_fd, name):
        try:
            return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=folder_fd)
        except OSError as error:
            raise _swapped(root, path, error, _is_symlink(name, folder_fd)) from None


def open_regular_file(root: Path, path: Path) -> int:
    """`safe_open` for reading, refusing anything but a regular file: a folder, a FIFO, a socket, a device."""
    shown = path.relative_to(root).as_posix()
    try:
        # O_NONBLOCK: opening a FIFO the shell made would otherwise wait forever for a writer.
        fd = safe_open(root, path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise ToolError(f"{quoted(shown)} does not exist; use glob to see which files there are") from None
    except OSError as error:
        if error.errno not in (errno.ENXIO, errno.ENODEV):  # what opening a socket, or a device with no driver, says
            raise
        raise ToolError(f"{quoted(shown)} is not a regular file; read_file and edit_file only read files") from None
    kind = os.fstat(fd).st_mode
    if not stat.S_ISREG(kind):
        os.close(fd)
        what = "a folder" if stat.S_ISDIR(kind) else "not a regular file"
        raise ToolError(f"{quoted(shown)} is {what}; use glob (for example {quoted(shown + '/*')}) to list what a folder holds")
    return fd


def _step_into(root: Path, fd: int, folder: str, path: Path, make_folders: bool) -> int:
    """Open `folder` inside the open folder `fd`, close `fd`, and return the new folder's fd."""
    try:
        try:
            child = os.open(folder, FOLDER_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            if not make_folders:
                raise
            os.mkdir(folder, dir_fd=fd)
            child = os.open(folder, FOLDER_FLAGS, dir_fd=fd)
    except OSError as error:
        raise _swapped(root, path, error, _is_symlink(folder, fd)) from None  # `open_parent` still closes `fd`
    os.close(fd)
    return child


def _swapped(root: Path, path: Path, error: OSError, symlink: bool) -> OSError:
    """Turn the errors of a guarded open into messages; other errors (not found, ...) pass through."""
    shown = path.relative_to(root).as_posix()
    # Each open here is of one name with O_NOFOLLOW: ELOOP means that name was a symlink at that moment,
    # even if a look after the fact finds it swapped back already.
    if error.errno == errno.ELOOP or (symlink and error.errno == errno.ENOTDIR):
        return WorkspaceError(f"{quoted(shown)} changed while it was being opened (a symlink appeared on the way); refused")
    if error.errno == errno.ENOTDIR:
        return WorkspaceError(f"{quoted(shown)} goes through something that is not a folder")
    return error


def _is_symlink(name: str, folder_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False
