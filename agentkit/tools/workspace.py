"""The workspace guard: every path a model proposes is resolved and kept inside one root folder.

Two steps, because one is not enough:

1. `Workspace.resolve(path)` checks the text (empty, NUL byte, too long), joins it to the root, follows
   every symlink with `Path.resolve()` and refuses the result unless it `is_relative_to` the root.
   That stops `../x`, `/etc/passwd`, symlinks and chains of symlinks pointing out, and dangling links.
2. `Workspace.open(...)` / `Workspace.open_parent(...)` then open that resolved path again, one folder
   at a time from the root, with `O_NOFOLLOW` and a folder file descriptor (`dir_fd`) for each step.
   The resolved path holds no symlink, so meeting one now means that someone swapped a folder or the
   file for a symlink between the check and the use (a TOCTOU race): the open fails instead of
   following it outside.

What remains is said in chapter 05: hard links, the root itself being replaced, and the shell tool,
which this guard does not cover at all.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from fnmatch import fnmatchcase
from pathlib import Path

from agentkit.tools.contract import ToolError

MAX_PATH_BYTES = 4096
"""Linux's PATH_MAX: a longer path cannot be opened anyway, so it is refused with a clear message first."""
MAX_NAME_BYTES = 255
"""Linux's NAME_MAX: the longest single file or folder name."""

SKIPPED_FOLDERS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "node_modules", ".mypy_cache", ".pytest_cache", ".tox"}
)
"""Folders `glob` never enters: caches and dependencies, huge and almost never what the model is looking for."""

_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class WorkspaceError(ToolError):
    """A path the model proposed is outside the workspace or is not a usable path."""


class Workspace:
    """One root folder that the file tools may touch; nothing outside it is read or written."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        # Resolved once, now: a later `os.chdir` or a symlink swapped above the root changes nothing.
        self.root = Path(root).resolve(strict=True)
        if not self.root.is_dir():
            raise NotADirectoryError(f"workspace root {self.root} is not a folder")

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r})"

    def resolve(self, path: str) -> Path:
        """The real, absolute path that `path` names inside the workspace, or `WorkspaceError` saying why not."""
        _check_text(path)
        try:
            resolved = (self.root / path).resolve()
        except RuntimeError:  # Python 3.11 reports a symlink loop this way
            raise WorkspaceError(f"{path!r} is a symlink loop; give a path to a real file or folder") from None
        except OSError as error:
            raise WorkspaceError(f"{path!r} cannot be resolved: {error.strerror}") from None
        if not resolved.is_relative_to(self.root):
            through = " through a symlink" if Path(os.path.normpath(self.root / path)).is_relative_to(self.root) else ""
            raise WorkspaceError(
                f"{path!r} leads outside the workspace{through}; paths must stay inside the workspace root, "
                "for example 'notes.txt' or 'src/app.py'"
            )
        return resolved

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
        fd = os.open(self.root, _FOLDER_FLAGS)
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

    def glob(self, pattern: str) -> Iterator[str]:
        """Paths matching `pattern`, relative to the root and in sorted order, found lazily (stop any time).

        `**` stands for any number of folders, `*` and `?` for part of one name. Folders are shown with a
        trailing `/`. Symlinks are never entered, and those that lead outside are left out.
        """
        segments = _pattern_segments(pattern)
        stack = [((), _sorted_entries(self.root))]
        while stack:
            parts, entries = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                continue
            name, is_folder, is_link = entry
            if is_folder and name in SKIPPED_FOLDERS:
                continue
            here = (*parts, name)
            if _matches(here, segments) and (not is_link or self._leads_inside(here)):
                yield "/".join(here) + "/" * is_folder
            if is_folder and _may_match_below(here, segments):
                stack.append((here, _sorted_entries(self.root.joinpath(*here))))

    def _leads_inside(self, parts: tuple[str, ...]) -> bool:
        try:
            return self.root.joinpath(*parts).resolve().is_relative_to(self.root)
        except (OSError, RuntimeError):
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
                child = os.open(folder, _FOLDER_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not make_folders:
                    raise
                os.mkdir(folder, dir_fd=fd)
                child = os.open(folder, _FOLDER_FLAGS, dir_fd=fd)
        except OSError as error:
            raise self._swapped(path, error, _is_symlink(folder, fd)) from None  # `open_parent` still closes `fd`
        os.close(fd)
        return child

    def _swapped(self, path: Path, error: OSError, symlink: bool) -> OSError:
        """Turn the errors of a guarded open into messages; other errors (not found, ...) pass through."""
        shown = self.relative(path)
        if symlink and error.errno in (errno.ELOOP, errno.ENOTDIR):
            return WorkspaceError(
                f"{shown!r} changed while it was being opened (a symlink appeared on the way); refused"
            )
        if error.errno == errno.ENOTDIR:
            return WorkspaceError(f"{shown!r} goes through something that is not a folder")
        return error


def _is_symlink(name: str, folder_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _check_text(path: object) -> None:
    """Refuse path strings that no file system would take, before they reach one."""
    if not isinstance(path, str):
        raise WorkspaceError(f"the path should be a string, not {type(path).__name__}")
    if not path.strip():
        raise WorkspaceError("the path is empty; give a path relative to the workspace root, such as 'notes.txt'")
    if "\0" in path:
        raise WorkspaceError(f"{path!r} contains a NUL byte, which no file name can hold")
    try:
        size = len(path.encode("utf-8"))
    except UnicodeEncodeError:
        raise WorkspaceError(f"{path!r} is not valid Unicode text (it holds a lone surrogate)") from None
    if size > MAX_PATH_BYTES:
        raise WorkspaceError(f"the path is {size:,} bytes long; a path may be at most {MAX_PATH_BYTES:,} bytes")
    longest = max(path.split("/"), key=lambda name: len(name.encode("utf-8")))
    if len(longest.encode("utf-8")) > MAX_NAME_BYTES:
        raise WorkspaceError(f"a name in the path is longer than {MAX_NAME_BYTES} bytes: {longest[:40]!r}...")


def _pattern_segments(pattern: str) -> tuple[str, ...]:
    """A glob pattern split at `/`, refused if it is absolute or climbs with `..`."""
    _check_text(pattern)
    if pattern.startswith("/"):
        raise WorkspaceError(f"the pattern {pattern!r} is absolute; glob patterns are relative to the workspace root, "
                             "for example '**/*.py'")
    segments: list[str] = []
    for segment in pattern.split("/"):
        if segment == "..":
            raise WorkspaceError(
                f"the pattern {pattern!r} climbs out with '..'; glob only searches inside the workspace"
            )
        if segment not in ("", ".") and not (segment == "**" and segments[-1:] == ["**"]):
            segments.append(segment)
    if not segments:
        raise WorkspaceError(f"the pattern {pattern!r} names nothing; try '*' or '**/*.txt'")
    return tuple(segments)


def _sorted_entries(folder: Path) -> Iterator[tuple[str, bool, bool]]:
    """`(name, is_folder, is_symlink)` of a folder's entries, in the order that keeps whole paths sorted."""
    try:
        fd = os.open(folder, _FOLDER_FLAGS)  # O_NOFOLLOW: a folder swapped for a symlink is not listed
    except OSError:
        return iter(())
    try:
        with os.scandir(fd) as listing:
            entries = [(entry.name, entry.is_dir(follow_symlinks=False), entry.is_symlink()) for entry in listing]
    finally:
        os.close(fd)
    # Sorting "a/" (a folder) against "a.txt" by name + "/" makes a depth-first walk yield paths in sorted order.
    return iter(sorted(entries, key=lambda entry: entry[0] + "/" * entry[1]))


def _matches(parts: tuple[str, ...], segments: tuple[str, ...]) -> bool:
    """Does a path match the pattern? The classic greedy wildcard match, with folders as letters and `**` as `*`."""
    p = s = 0
    star, resume = -1, 0
    while p < len(parts):
        if s < len(segments) and segments[s] == "**":
            star, resume, s = s, p, s + 1
        elif s < len(segments) and fnmatchcase(parts[p], segments[s]):
            p, s = p + 1, s + 1
        elif star >= 0:  # let the last `**` swallow one more folder and try again from there
            resume += 1
            p, s = resume, star + 1
        else:
            return False
    return all(segment == "**" for segment in segments[s:])


def _may_match_below(parts: tuple[str, ...], segments: tuple[str, ...]) -> bool:
    """Can a path inside this folder still match? Lets the walk skip folders the pattern cannot reach."""
    for part, segment in zip(parts, segments):
        if segment == "**":
            return True
        if not fnmatchcase(part, segment):
            return False
    return len(segments) > len(parts)
