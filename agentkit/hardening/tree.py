"""The workspace tree: a walk that never follows a symlink, and glob's pattern matching (chapter 05).

The attack: a folder swapped for a symlink to outside while glob walks the tree; a tree too deep for the
process's descriptors; a symlink that leads outside, listed as if it were inside; a huge folder such as
node_modules searched for nothing. The tests that prove it: tests/test_workspace.py,
tests/test_workspace_attacks.py, tests/test_security.py.

The walk opens every folder relative to the open folder that holds it, with `O_NOFOLLOW`, and lists it
through its own descriptor. Walking by path instead (`os.scandir(root / "a" / "b")`) lets the kernel follow
`a` if someone has just swapped it for a symlink to outside; a descriptor cannot be swapped.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from contextlib import closing
from fnmatch import fnmatchcase
from pathlib import Path

from agentkit.hardening.path_text import listed_path, unusable

SKIPPED_FOLDERS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "node_modules", ".mypy_cache", ".pytest_cache", ".tox"}
)
"""Folders `glob` never enters: caches and dependencies, huge and almost never what the model is looking for."""
TEMPORARY_SUFFIX = ".agentkit.write-tmp"
"""How `write_file`'s temporary files end: never listed, and removed when left over by a process that is gone."""
MAX_WALK_DEPTH = 64
"""Deepest folder the walk enters: it holds one descriptor per level, and a process may have only so many open."""
FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
"""How every folder is opened: as a folder, never through a symlink, not inherited by child processes."""


def walk(root: Path, enter: Callable[[tuple[str, ...]], bool]) -> Iterator[tuple[tuple[str, ...], bool, bool, int]]:
    """`(parts, is_folder, is_symlink, folder_fd)` for each entry below `root`: depth first, sorted.

    Every folder is opened relative to its parent's descriptor with `O_NOFOLLOW` and listed through its
    own descriptor, so a folder swapped for a symlink mid-walk is not entered, and a folder once open
    stays the one that was checked, whatever later happens to its path. Folders are entered when
    `enter(parts)` says so and they are less than `MAX_WALK_DEPTH` deep, never those in `SKIPPED_FOLDERS`
    (which are not yielded either).
    """
    stack: list[tuple[tuple[str, ...], int, Iterator[tuple[str, bool, bool]]]] = []
    try:
        if opened := _open_folder(root, None):
            stack.append(((), *opened))
        while stack:
            parts, fd, entries = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                os.close(fd)
                continue
            name, is_folder, is_link = entry
            if is_folder and name in SKIPPED_FOLDERS:
                continue
            here = (*parts, name)
            yield here, is_folder, is_link, fd
            if is_folder and len(here) < MAX_WALK_DEPTH and enter(here) and (opened := _open_folder(name, fd)):
                stack.append((here, *opened))
    finally:  # also when the caller stops early
        for _, fd, _ in stack:
            os.close(fd)


def matching(root: Path, segments: tuple[str, ...], too_deep: list[str] | None = None,
             left_out: list[tuple[str, str]] | None = None) -> Iterator[tuple[tuple[str, ...], bool, bool]]:
    """`(parts, is_folder, is_symlink)` of each path below `root` that matches the pattern's `segments`, sorted.

    Never yielded: `write_file`'s temporaries, and a path no file tool would take (`path_text.unusable`: a
    name that is not UTF-8, a path longer than Linux allows), which is added to `left_out` with the reason,
    its insides unsearched, so that `glob` never lists what `read_file` then refuses. Folders at
    `MAX_WALK_DEPTH` whose insides could match are not entered: they are added to `too_deep`.
    """
    left_out = [] if left_out is None else left_out
    with closing(walk(root, lambda parts: may_match_below(parts, segments) and not unusable("/".join(parts)))) as entries:
        for parts, is_folder, is_link, _ in entries:
            if parts[-1].endswith(TEMPORARY_SUFFIX):
                continue  # a write still going on, or one that died: not a file of the workspace
            below = is_folder and may_match_below(parts, segments)
            if (below or matches(parts, segments)) and (why := unusable("/".join(parts))):
                left_out.append(("/".join(parts) + "/" * is_folder, why))
                continue
            if too_deep is not None and below and len(parts) == MAX_WALK_DEPTH:
                too_deep.append("/".join(parts) + "/")
            if matches(parts, segments):
                yield parts, is_folder, is_link


def unsearched(too_deep: list[str], left_out: list[tuple[str, str]]) -> str:
    """The notes glob adds about what `matching` did not search (too deep) or left out (no file tool can open it)."""
    notes = (f"\n[not searched: folders more than {MAX_WALK_DEPTH} deep, such as {listed_path(too_deep[0])}; "
             "read_file and write_file still reach a deeper file by its path]") if too_deep else ""
    if left_out:  # listed, they would only be refused when read: the model is told why they are missing instead
        paths = f"{len(left_out):,} path{'s' * (len(left_out) != 1)}"
        notes += (f"\n[left out: {paths} that no file tool can open, such as {left_out[0][1]}; the user, or a shell "
                  "command, can rename it]")
    return notes


def _open_folder(name: str | Path, parent_fd: int | None) -> tuple[int, Iterator[tuple[str, bool, bool]]] | None:
    """Open a folder without following a symlink and list it: `(fd, sorted entries)`, or None if it cannot be.

    Entries are `(name, is_folder, is_symlink)`, in the order that keeps whole paths sorted.
    """
    try:
        fd = os.open(name, FOLDER_FLAGS, dir_fd=parent_fd)
    except OSError as error:  # swapped for a symlink (ELOOP, ENOTDIR), removed, or not readable: nothing to list
        if error.errno in (errno.EMFILE, errno.ENFILE):
            raise  # out of descriptors: skipping would make an incomplete listing look complete
        return None
    try:
        with os.scandir(fd) as listing:
            entries = [(entry.name, entry.is_dir(follow_symlinks=False), entry.is_symlink()) for entry in listing]
    except OSError:
        os.close(fd)
        return None
    # Sorting "a/" (a folder) against "a.txt" by name + "/" makes a depth-first walk yield paths in sorted order.
    return fd, iter(sorted(entries, key=lambda entry: entry[0] + "/" * entry[1]))


def matches(parts: tuple[str, ...], segments: tuple[str, ...]) -> bool:
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


def may_match_below(parts: tuple[str, ...], segments: tuple[str, ...]) -> bool:
    """Can a path inside this folder still match? Lets the walk skip folders the pattern cannot reach."""
    for part, segment in zip(parts, segments, strict=False):
        if segment == "**":
            return True
        if not fnmatchcase(part, segment):
            return False
    return len(segments) > len(parts)
