"""File tools for the model: `read_file`, `write_file`, `edit_file` and `glob`, all inside one `Workspace`.

Each tool is a plain function (easy to test and to read) plus a `ToolDefinition` made by `file_tools`.
Every path goes through `Workspace.resolve` and every open through the workspace's guarded `open`.
"""

from __future__ import annotations

import io
import os
import secrets
import stat
from collections.abc import Callable
from contextlib import suppress
from itertools import islice
from typing import Any, BinaryIO, TextIO

from agentkit.limits import DEFAULT_LIMITS, Limits
from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.threads import run_blocking
from agentkit.tools.tree import SKIPPED_FOLDERS, TEMPORARY_SUFFIX
from agentkit.tools.workspace import Workspace

_WRITE_CHUNK = 1 << 20


def read_file(workspace: Workspace, path: str, offset: int = 1, limit: int | None = None,
              *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Lines `offset` .. `offset + limit - 1` of a UTF-8 text file, numbered; reads no more of the file than that."""
    target = workspace.resolve(path)
    shown = workspace.relative(target)
    with open(_open_regular_file(workspace, target), "rb") as raw:
        passed = _seek_to_line(raw, offset)
        if offset > 1 and not raw.peek(1):  # the file ends before line `offset`
            raise ToolError(f"{shown!r} has {passed} lines; offset={offset} is past its end")
        # Text mode decodes in small chunks and `readline(n)` stops after n characters, so memory stays
        # bounded however large the file or however long one of its lines.
        text = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", newline="\n")
        try:
            return _numbered_lines(text, shown, offset, limit, limits.max_read_chars)
        except UnicodeDecodeError:
            raise ToolError(
                f"{shown!r} is not UTF-8 text (it may be a binary file); read_file only reads text"
            ) from None


def _seek_to_line(file: BinaryIO, line: int) -> int:
    """Move to the start of line `line` (from 1) by counting newline bytes block by block; return lines passed.

    Fewer than `line - 1` means the file ended first. Counting bytes is exact: in UTF-8 the newline byte
    never occurs inside another character.
    """
    passed, last = 0, b"\n"
    while passed < line - 1:
        block = file.read(1 << 16)
        if not block:
            return passed + (last != b"\n")  # a last line without a newline still counts
        if passed + block.count(b"\n") >= line - 1:
            end = -1
            for _ in range(line - 1 - passed):
                end = block.index(b"\n", end + 1)
            file.seek(end + 1 - len(block), os.SEEK_CUR)
            return line - 1
        passed, last = passed + block.count(b"\n"), block[-1:]
    return passed


def _numbered_lines(file: TextIO, shown: str, offset: int, limit: int | None, max_chars: int) -> str:
    lines: list[str] = []
    room = max_chars
    while limit is None or len(lines) < limit:
        line = file.readline(room + 1)
        if not line:
            break
        _refuse_binary(line, shown)
        line = line.removesuffix("\n").removesuffix("\r")
        if len(line) > room:  # this line alone goes over what one call may return
            lines.append(line[:room])
            last = offset + len(lines) - 1
            return _render(shown, offset, last, lines) + (
                f"\n[line {last} is cut: read_file returns at most {max_chars:,} characters a call; "
                f"continue with offset={last + 1}]"
            )
        lines.append(line)
        room -= len(line) + 1
    if not lines:
        return f"{shown} is empty (0 lines)"
    last = offset + len(lines) - 1
    more = file.read(1)  # one character tells whether the file goes on, without reading the rest
    note = f"[more lines follow: continue with offset={last + 1}]" if more else "[end of file]"
    return _render(shown, offset, last, lines) + "\n" + note


def _render(shown: str, first: int, last: int, lines: list[str]) -> str:
    numbered = "\n".join(f"{number:>6}\t{text}" for number, text in enumerate(lines, start=first))
    span = f"line {first}" if first == last else f"lines {first}-{last}"
    return f"{shown}, {span}:\n{numbered}"


def _refuse_binary(text: str, shown: str) -> None:
    if "\0" in text:
        raise ToolError(f"{shown!r} holds NUL bytes: it is a binary file, not text")


def _open_regular_file(workspace: Workspace, target: os.PathLike[str]) -> int:
    shown = workspace.relative(target)
    try:
        # O_NONBLOCK: opening a FIFO the shell made would otherwise wait forever for a writer.
        fd = workspace.open(target, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise ToolError(f"{shown!r} does not exist; use glob to see which files there are") from None
    kind = os.fstat(fd).st_mode
    if not stat.S_ISREG(kind):
        os.close(fd)
        what = "a folder" if stat.S_ISDIR(kind) else "not a regular file"
        raise ToolError(f"{shown!r} is {what}; use glob (for example '{shown}/*') to list what a folder holds")
    return fd


def write_file(workspace: Workspace, path: str, content: str, *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Create or replace a file with `content`, atomically, creating its folders inside the workspace."""
    data = _encode(content, limits)
    target = workspace.resolve(path)
    replaced = _write_atomically(workspace, target, data)
    what = "replaced its old content" if replaced else "new file"
    return f"Wrote {len(data):,} bytes to {workspace.relative(target)} ({what})"


def _encode(content: str, limits: Limits) -> bytes:
    try:
        data = content.encode("utf-8")
    except UnicodeEncodeError:
        raise ToolError("content is not valid Unicode text (it holds a lone surrogate)") from None
    if len(data) > limits.max_file_bytes:
        raise ToolError(f"content is {len(data):,} bytes; a file may be at most {limits.max_file_bytes:,} bytes")
    return data


def _write_atomically(workspace: Workspace, target: os.PathLike[str], data: bytes) -> bool:
    """Write to a temporary file beside the target, then rename it over the target in one step.

    A reader, or a crash at any moment, sees either the whole old file or the whole new one. Returns
    whether a file was replaced.
    """
    shown = workspace.relative(target)
    with workspace.open_parent(target, make_folders=True) as (folder, name):
        try:
            old = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        if old is not None and not stat.S_ISREG(old.st_mode):
            raise ToolError(f"{shown!r} is {'a folder' if stat.S_ISDIR(old.st_mode) else 'not a regular file'}; "
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
    target = workspace.resolve(path)
    shown = workspace.relative(target)
    if not old_text:
        raise ToolError("old_text is empty; copy the exact text to replace from the file")
    if occurrence is not None and replace_all:
        raise ToolError("give occurrence or replace_all=true, not both")
    text = _read_whole(workspace, target, limits)
    starts = _occurrences(text, old_text)
    lines = _line_numbers(text, starts)
    where = _lines(lines)
    if not starts:
        raise ToolError(f"old_text was not found in {shown!r} (0 occurrences); read the file and copy the text "
                        "exactly, with its spaces and line breaks")
    if occurrence is not None and not 1 <= occurrence <= len(starts):
        raise ToolError(f"occurrence={occurrence}, but old_text appears {_count(len(starts), 'time')} in {shown!r} "
                        f"({where}); occurrence should be 1 to {len(starts)}")
    if len(starts) > 1 and occurrence is None and not replace_all:
        raise ToolError(f"old_text appears {len(starts)} times in {shown!r} ({where}); include more of the "
                        f"surrounding text to make it unique, or pass occurrence=N (1 to {len(starts)}) "
                        "or replace_all=true")
    if replace_all:  # one pass: splicing each occurrence in turn would copy the whole text once per occurrence
        text, changed = text.replace(old_text, new_text), lines
    else:
        index = (occurrence or 1) - 1
        text = text[:starts[index]] + new_text + text[starts[index] + len(old_text):]
        changed = [lines[index]]
    _write_atomically(workspace, target, _encode(text, limits))
    return f"Replaced {_count(len(changed), 'occurrence')} in {shown} ({_lines(changed)})"


def _refuse_hard_link(found: os.stat_result, shown: str, tool: str) -> None:
    """Refuse to change a file with more than one name: the other could be outside the workspace.

    A hard link is the file itself under a second name, with no symlink for the guard to see, so a path
    check cannot tell where the other names are. Reading stays allowed (a limit chapter 05 states).
    """
    if found.st_nlink > 1:
        raise ToolError(
            f"{shown!r} has {found.st_nlink} hard links (names for the same file), and another name may be outside "
            f"the workspace, so {tool} does not change it; write the new content to a new path instead, "
            f"for example '{shown}.new'"
        )


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'s' * (n != 1)}"


def _lines(numbers: list[int]) -> str:
    return f"line{'s' * (len(numbers) != 1)} {', '.join(map(str, numbers))}"


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


def _read_whole(workspace: Workspace, target: os.PathLike[str], limits: Limits) -> str:
    shown = workspace.relative(target)
    with open(_open_regular_file(workspace, target), "rb") as file:
        _refuse_hard_link(os.fstat(file.fileno()), shown, "edit_file")  # the very file read, not its name again
        data = file.read(limits.max_file_bytes + 1)
    if len(data) > limits.max_file_bytes:
        raise ToolError(f"{shown!r} is larger than {limits.max_file_bytes:,} bytes; edit_file does not rewrite "
                        "files that large")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError(f"{shown!r} is not UTF-8 text (it may be a binary file); edit_file only edits text") from None
    _refuse_binary(text, shown)
    return text


def glob(workspace: Workspace, pattern: str, max_results: int | None = None,
         *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Sorted workspace paths matching `pattern`; stops after `max_results` and says that it stopped."""
    cap = limits.max_glob_results if max_results is None else max_results
    found = list(islice(workspace.glob(pattern), cap + 1))  # one more than shown tells whether there are more
    if not found:
        return f"No paths match {pattern!r} (glob never searches {', '.join(sorted(SKIPPED_FOLDERS))})"
    if len(found) > cap:
        return (f"First {cap} paths matching {pattern!r}, sorted. Stopped there: more paths match; "
                "narrow the pattern to see the others.\n" + "\n".join(found[:cap]))
    return f"{_count(len(found), 'path')} matching {pattern!r}, sorted:\n" + "\n".join(found)


def file_tools(workspace: Workspace, limits: Limits = DEFAULT_LIMITS) -> list[ToolDefinition]:
    """`read_file`, `write_file`, `edit_file` and `glob` as tools bound to one workspace and one set of limits."""
    path = {"type": "string", "description": "Path of the file, relative to the workspace root, e.g. 'notes/todo.txt'."}
    return [
        _tool(read_file, workspace, limits, (
            "Read a UTF-8 text file in the workspace and return its lines, each with its line number "
            f"(the numbers are not part of the file). Returns at most {limits.max_read_chars:,} characters a call: "
            "use offset and limit to read a part of a large file."
        ), {
            "path": path,
            "offset": {"type": "integer", "minimum": 1, "description": "First line to read, counting from 1."},
            "limit": {"type": "integer", "minimum": 1, "description": "How many lines to read at most."},
        }, ["path"]),
        _tool(write_file, workspace, limits, (
            "Write text content to a file in the workspace, creating the file and its folders, or replacing "
            "the whole file. The write is atomic: the file is never left half written."
        ), {"path": path, "content": {"type": "string", "description": "The complete new content of the file."}},
            ["path", "content"], needs_confirmation=True),
        _tool(edit_file, workspace, limits, (
            "Edit a text file in the workspace: replace old_text with new_text, exactly. old_text must appear "
            "once; if it appears several times, add surrounding text to make it unique, or give occurrence "
            "or replace_all."
        ), {
            "path": path,
            "old_text": {"type": "string", "minLength": 1,
                         "description": "The exact text to replace, copied from the file."},
            "new_text": {"type": "string", "description": "The text to put in its place."},
            "occurrence": {"type": "integer", "minimum": 1,
                           "description": "Which occurrence to replace, counting from 1."},
            "replace_all": {"type": "boolean", "description": "Replace every occurrence."},
        }, ["path", "old_text", "new_text"], needs_confirmation=True),
        _tool(glob, workspace, limits, (
            "Find files and folders in the workspace whose paths match a glob pattern, such as '*.txt' or "
            "'src/**/*.py' (** matches any folders). Lists paths relative to the workspace root, sorted."
        ), {
            "pattern": {"type": "string", "description": "Glob pattern relative to the workspace root."},
            "max_results": {"type": "integer", "minimum": 1, "maximum": limits.max_glob_results,
                            "description": f"Stop after this many paths (at most {limits.max_glob_results})."},
        }, ["pattern"]),
    ]


def _tool(function: Callable[..., str], workspace: Workspace, limits: Limits, description: str,
          properties: dict[str, Any], required: list[str], needs_confirmation: bool = False) -> ToolDefinition:
    async def handler(arguments: dict[str, Any]) -> str:
        # File system calls block; a thread keeps the event loop free for other tool calls meanwhile.
        return await run_blocking(function, workspace, **arguments, limits=limits)

    parameters = {"type": "object", "properties": properties, "required": required, "additionalProperties": False}
    return ToolDefinition(function.__name__, description, parameters, handler, needs_confirmation)
