"""The workspace guard: every path a model proposes is resolved and kept inside one root folder.

Two steps, because one is not enough:

1. `Workspace.resolve(path)` checks the text (empty, NUL byte, too long: `path_text.py`), then walks the
   path one name at a time from the root, reading every symlink on the way (at most 40, as the kernel
   does: more is a loop), and refuses the result unless it `is_relative_to` the root. That stops `../x`,
   `/etc/passwd`, symlinks and chains of symlinks pointing out, dangling links and loops: no part of the
   path is taken lexically.
2. `Workspace.open(...)` / `Workspace.open_parent(...)` then open that resolved path again, one folder
   at a time from the root, with `O_NOFOLLOW` and a folder file descriptor (`dir_fd`) for each step.
   The resolved path holds no symlink, so meeting one now means that someone swapped a folder or the
   file for a symlink between the check and the use (a TOCTOU race): the open fails instead of
   following it outside.

`Workspace.glob` walks the same way (`agentkit.hardening.tree.walk`), folder descriptor by folder descriptor,
so a folder swapped for a symlink mid-walk is not entered. What remains is said in chapter 05: hard links,
the root itself being replaced, and the shell tool, which this guard does not cover at all.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from agentkit.hardening.path_text import WorkspaceError, check_path_text, pattern_segments
from agentkit.hardening.tree import FOLDER_FLAGS, matching, remove_stale_temporaries
from agentkit.limits import quoted

MAX_SYMLINK_HOPS = 40
"""Linux's own limit on symlinks followed for one path: more than that is a loop (or a chain as bad as one)."""


class Workspace:
    """One root folder that the file tools may touch; nothing outside it is read or written."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        # Resolved once, now: a later `os.chdir` or a symlink swapped above the root changes nothing.
        self.root = Path(root).resolve(strict=True)
        if not self.root.is_dir():
            raise NotADirectoryError(f"workspace root {self.root} is not a folder")
        remove_stale_temporaries(self.root)  # left by a write that was killed

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r})"

    def resolve(self, path: str) -> Path:
        """The real, absolute path that `path` names inside the workspace, or `WorkspaceError` saying why not."""
        check_path_text(path)
        resolved = self._follow(path)
        if not resolved.is_relative_to(self.root):
            through = " through a symlink" if Path(os.path.normpath(self.root / path)).is_relative_to(self.root) else ""
            raise WorkspaceError(
                f"{quoted(path)} leads outside the workspace{through}; paths must stay inside the workspace root, "
                "for example 'notes.txt' or 'src/app.py'"
            )
        return resolved

    def _follow(self, path: str) -> Path:
        """Where `path` really leads: walked one name at a time, every symlink read and followed, as the kernel does.

        `a/..` is the folder that holds wherever `a` really leads, never just "." (`Path.resolve` takes that
        shortcut on a loop). Names that do not exist yet are kept as they are: there is nothing to follow.
        """
        here = Path("/") if path.startswith("/") else self.root
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

    def relative(self, path: Path) -> str:
        """How to show a resolved path to the model: relative to the root, with `/`, `.` for the root."""
        return path.relative_to(self.root).as_posix()

    @contextmanager
    def open_parent(self, path: Path, *, make_folders: bool = False) -> Iterator[tuple[int, str]]:
        """Yield `(folder_fd, name)` for a path from `resolve`: the open parent folder and the last name.

        Each folder on the way is opened relative to the previous one with `O_NOFOLLOW`, so a symlink
        swapped in after `resolve` makes this fail rather than lead outside. With `make_folders`,
        missing folders are created the same way.
        """
        *folders, name = self._parts(path)
        fd = os.open(self.root, FOLDER_FLAGS)
        try:
            for folder in folders:
                fd = self._step_into(fd, folder, path, make_folders)
            yield fd, name
        finally:
            os.close(fd)

    def open(self, path: Path, flags: int, mode: int = 0o644) -> int:
        """`os.open` a path from `resolve` without following any symlink on the way; the caller closes the fd."""
        with self.open_parent(path) as (folder_fd, name):
            try:
                return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=folder_fd)
            except OSError as error:
                raise self._swapped(path, error, _is_symlink(name, folder_fd)) from None

    def glob(self, pattern: str, too_deep: list[str] | None = None,
             left_out: list[tuple[str, str]] | None = None) -> Iterator[str]:
        """Paths matching `pattern`, relative to the root and in sorted order, found lazily (stop any time).

        `**` stands for any number of folders, `*` and `?` for part of one name. Folders are shown with a
        trailing `/`. Symlinks are never entered, and those that lead outside are left out. What is not
        searched (too deep) or not listed (no file tool could open it) is added to `too_deep`, `left_out`.
        """
        with closing(matching(self.root, pattern_segments(pattern), too_deep, left_out)) as found:
            for parts, is_folder, is_link in found:
                if not is_link or self._leads_inside(parts):
                    yield "/".join(parts) + "/" * is_folder

    def _leads_inside(self, parts: tuple[str, ...]) -> bool:
        try:
            return self.resolve("/".join(parts)).is_relative_to(self.root)
        except WorkspaceError:
            return False

    def _parts(self, path: Path) -> tuple[str, ...]:
        parts = path.relative_to(self.root).parts
        if not parts:
            raise WorkspaceError("'.' is the workspace root, a folder; give the path of a file inside it")
        return parts

    def _step_into(self, fd: int, folder: str, path: Path, make_folders: bool) -> int:
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
            raise self._swapped(path, error, _is_symlink(folder, fd)) from None  # `open_parent` still closes `fd`
        os.close(fd)
        return child

    def _swapped(self, path: Path, error: OSError, symlink: bool) -> OSError:
        """Turn the errors of a guarded open into messages; other errors (not found, ...) pass through."""
        shown = self.relative(path)
        # Each open here is of one name with O_NOFOLLOW: ELOOP means that name was a symlink at that moment,
        # even if a look after the fact finds it swapped back already.
        if error.errno == errno.ELOOP or (symlink and error.errno == errno.ENOTDIR):
            return WorkspaceError(
                f"{quoted(shown)} changed while it was being opened (a symlink appeared on the way); refused"
            )
        if error.errno == errno.ENOTDIR:
            return WorkspaceError(f"{quoted(shown)} goes through something that is not a folder")
        return error


def _is_symlink(name: str, folder_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False
