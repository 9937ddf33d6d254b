"""Changing the workspace (chapter 05): `write_file` and `edit_file`, each an atomic replace of the whole file.

Plain functions that take the workspace first; `filesystem.file_tools` makes them tools. The new content
goes to a temporary file beside the target, which is then renamed over it, so a reader never sees half a file.
"""

from __future__ import annotations

import os
import secrets
import stat
import threading
from contextlib import suppress
from pathlib import Path

from agentkit.hardening.tree import TEMPORARY_SUFFIX
from agentkit.limits import DEFAULT_LIMITS, Limits, quoted
from agentkit.tools.contract import ToolError
from agentkit.tools.file_reading import counted, open_regular_file, refuse_binary, resolve_file
from agentkit.tools.workspace import Workspace

_WRITE_CHUNK = 1 << 20
_RAISE_IT = "(Limits.max_file_bytes; only the user can raise it)"
# Two tasks editing one file at once would each read the old text, and the second write would undo the first
# edit. Each file's writers take turns on one of these locks, chosen by the file's path.
_FILE_LOCKS = tuple(threading.Lock() for _ in range(64))


def _lock_for(target: Path) -> threading.Lock:
    return _FILE_LOCKS[hash(str(target)) % len(_FILE_LOCKS)]


def write_file(workspace: Workspace, path: str, content: str, *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Create or replace a file with `content`, atomically, creating its folders inside the workspace."""
    data = _encode(content, limits)
    target = resolve_file(workspace, path)
    with _lock_for(target):
        replaced = _write_atomically(workspace, target, data)
    what = "replaced its old content" if replaced else "new file"
    return f"Wrote {len(data):,} bytes to {workspace.relative(target)} ({what})"


def _encode(content: str, limits: Limits, what: str = "content is") -> bytes:
    try:
        data = content.encode("utf-8")
    except UnicodeEncodeError:
        raise ToolError("content is not valid Unicode text (it holds a lone surrogate)") from None
    if len(data) > limits.max_file_bytes:
        raise ToolError(f"{what} {len(data):,} bytes; a file may be at most {limits.max_file_bytes:,} bytes {_RAISE_IT}")
    return data


def _write_atomically(workspace: Workspace, target: os.PathLike[str], data: bytes,
                      read: os.stat_result | None = None) -> bool:
    """Write to a temporary file beside the target, then rename it over the target in one step.

    A reader, or a crash at any moment, sees either the whole old file or the whole new one. Returns
    whether a file was replaced. `read` is the file as `edit_file` found it: if it has changed since, refuse.
    """
    shown = workspace.relative(target)
    with workspace.open_parent(target, make_folders=True) as (folder, name):
        try:
            old = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        if read is not None and (old is None or _version(old) != _version(read)):
            raise ToolError(f"{quoted(shown)} changed after edit_file read it (another program wrote to it), so nothing "
                            "was changed; call edit_file again")
        if old is not None and not stat.S_ISREG(old.st_mode):
            raise ToolError(f"{quoted(shown)} is {'a folder' if stat.S_ISDIR(old.st_mode) else 'not a regular file'}; "
                            "write_file only writes files")
        if old is not None:
            # The rename below replaces the name, never writing through a link, so a link made after this look
            # changes nothing outside; refusing says plainly that the file's other names would keep the old text.
            _refuse_hard_link(old, shown, "write_file")
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
                    written += os.write(fd, view[written:written + _WRITE_CHUNK])
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


def edit_file(workspace: Workspace, path: str, old_text: str, new_text: str, occurrence: int | None = None,
              replace_all: bool = False, *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Replace `old_text` by `new_text` exactly; refuse when it is absent or ambiguous unless told which one."""
    target = resolve_file(workspace, path)
    if not old_text:
        raise ToolError("old_text is empty; copy the exact text to replace from the file")
    if occurrence is not None and replace_all:
        raise ToolError("give occurrence or replace_all=true, not both")
    with _lock_for(target):
        return _edit(workspace, target, old_text, new_text, occurrence, replace_all, limits)


def _edit(workspace: Workspace, target: Path, old_text: str, new_text: str, occurrence: int | None,
          replace_all: bool, limits: Limits) -> str:
    shown = workspace.relative(target)
    text, read = _read_whole(workspace, target, limits)
    starts = _occurrences(text, old_text)
    lines = _line_numbers(text, starts)
    where = _lines(lines)
    if not starts:
        raise ToolError(f"old_text was not found in {quoted(shown)} (0 occurrences); read the file and copy the text "
                        "exactly, with its spaces and line breaks")
    if occurrence is not None and not 1 <= occurrence <= len(starts):
        raise ToolError(f"occurrence={occurrence}, but old_text appears {counted(len(starts), 'time')} in {quoted(shown)} "
                        f"({where}); occurrence should be 1 to {len(starts)}")
    if len(starts) > 1 and occurrence is None and not replace_all:
        raise ToolError(f"old_text appears {len(starts)} times in {quoted(shown)} ({where}); include more of the "
                        f"surrounding text to make it unique, or pass occurrence=N (1 to {len(starts)}) "
                        "or replace_all=true")
    if replace_all:  # one pass: splicing each occurrence in turn would copy the whole text once per occurrence
        text, changed = text.replace(old_text, new_text), lines
    else:
        index = (occurrence or 1) - 1
        text = text[:starts[index]] + new_text + text[starts[index] + len(old_text):]
        changed = [lines[index]]
    _write_atomically(workspace, target, _encode(text, limits, "the edited file would be"), read)
    return f"Replaced {counted(len(changed), 'occurrence')} in {shown} ({_lines(changed)})"


def _refuse_hard_link(found: os.stat_result, shown: str, tool: str) -> None:
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


def _lines(numbers: list[int]) -> str:
    """`line 3`, `lines 2, 5`: each line once, however many occurrences it holds."""
    distinct = list(dict.fromkeys(numbers))
    return f"line{'s' * (len(distinct) != 1)} {', '.join(map(str, distinct))}"


def _occurrences(text: str, old_text: str) -> list[int]:
    """Start of every non-overlapping occurrence, the same ones `str.replace` would change."""
    starts, start = [], text.find(old_text)
    while start != -1:
        starts.append(start)
        start = text.find(old_text, start + len(old_text))
    return starts


def _line_numbers(text: str, starts: list[int]) -> list[int]:
    """The line of each position in `starts` (ascending), counting the newlines between one and the next once."""
    numbers, line, previous = [], 1, 0
    for start in starts:
        line += text.count("\n", previous, start)
        numbers.append(line)
        previous = start
    return numbers


def _version(found: os.stat_result) -> tuple[int, ...]:
    """What changes when a file is replaced or written to: its identity, size and change times."""
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns


def _read_whole(workspace: Workspace, target: os.PathLike[str], limits: Limits) -> tuple[str, os.stat_result]:
    """The whole text of the file, and the file as it was when read (its `os.fstat`)."""
    shown = workspace.relative(target)
    with open(open_regular_file(workspace, target), "rb") as file:
        read = os.fstat(file.fileno())
        _refuse_hard_link(read, shown, "edit_file")  # the very file read, not its name again
        data = file.read(limits.max_file_bytes + 1)
    if len(data) > limits.max_file_bytes:
        raise ToolError(f"{quoted(shown)} is larger than {limits.max_file_bytes:,} bytes {_RAISE_IT}; edit_file does not "
                        "rewrite files that large")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError(f"{quoted(shown)} is not UTF-8 text (it may be a binary file); edit_file only edits text") from None
    refuse_binary(text, shown)
    return text, read
