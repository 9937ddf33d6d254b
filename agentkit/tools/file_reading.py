"""Reading the workspace (chapter 05): `read_file`, numbered lines of a text file, and `glob`, paths by pattern.

Plain functions that take the workspace first; `filesystem.file_tools` makes them tools. Every path goes
through `Workspace.resolve` and every open through the workspace's guarded `open`.
"""

from __future__ import annotations

import errno
import io
import json
import os
import stat
from itertools import islice
from pathlib import Path
from typing import BinaryIO, TextIO

from agentkit.hardening.path_text import WorkspaceError
from agentkit.hardening.tree import MAX_WALK_DEPTH, SKIPPED_FOLDERS, TEMPORARY_SUFFIX
from agentkit.limits import DEFAULT_LIMITS, Limits, quoted
from agentkit.tools.contract import ToolError
from agentkit.tools.workspace import Workspace


def read_file(workspace: Workspace, path: str, offset: int = 1, limit: int | None = None,
              *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Lines `offset` .. `offset + limit - 1` of a UTF-8 text file, numbered; reads no more of the file than that."""
    target = resolve_file(workspace, path)
    shown = workspace.relative(target)
    with open(open_regular_file(workspace, target), "rb") as raw:
        passed = _seek_to_line(raw, offset, shown)
        if offset > 1 and not raw.peek(1):  # the file ends before line `offset`
            raise ToolError(f"{quoted(shown)} has {passed} lines; offset={offset} is past its end")
        # Text mode decodes in small chunks and `readline(n)` stops after n characters, so memory stays
        # bounded however large the file or however long one of its lines.
        text = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", newline="\n")
        try:
            return _numbered_lines(text, shown, offset, limit, limits.max_read_chars)
        except UnicodeDecodeError:
            raise ToolError(
                f"{quoted(shown)} is not UTF-8 text (it may be a binary file); read_file only reads text"
            ) from None


def _seek_to_line(file: BinaryIO, line: int, shown: str) -> int:
    """Move to the start of line `line` (from 1) by counting newline bytes block by block; return lines passed.

    Fewer than `line - 1` means the file ended first. Counting bytes is exact: in UTF-8 the newline byte
    never occurs inside another character. A NUL byte stops the count: the file is binary, and a sparse
    file's hole (a terabyte of NULs that takes no disk) would otherwise be read to its end.
    """
    passed, last = 0, b"\n"
    while passed < line - 1:
        block = file.read(1 << 16)
        if not block:
            return passed + (last != b"\n")  # a last line without a newline still counts
        if b"\0" in block:
            refuse_binary("\0", shown)
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
        refuse_binary(line, shown)
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


def refuse_binary(text: str, shown: str) -> None:
    if "\0" in text:
        raise ToolError(f"{quoted(shown)} holds NUL bytes: it is a binary file, not text")


def resolve_file(workspace: Workspace, path: str) -> Path:
    """`workspace.resolve` for a tool that reads or writes one file: a path written as a folder is refused, and
    so are the names of `write_file`'s temporaries (hidden from glob, and removed as leftovers)."""
    tail = "/" if path.endswith("/") else "/." if path.endswith("/.") or path == "." else ""
    if tail:
        raise WorkspaceError(f"{quoted(path)} ends with {tail!r}, which names a folder; give the path of a file, "
                             "such as 'notes/todo.txt'")
    target = workspace.resolve(path)
    if target.name.endswith(TEMPORARY_SUFFIX):
        instead = workspace.relative(target).removesuffix(TEMPORARY_SUFFIX) + ".txt"
        raise WorkspaceError(f"names ending in {TEMPORARY_SUFFIX!r} are kept for write_file's temporary files; "
                             f"choose another name, such as {quoted(instead)}")
    return target


def open_regular_file(workspace: Workspace, target: os.PathLike[str]) -> int:
    shown = workspace.relative(target)
    try:
        # O_NONBLOCK: opening a FIFO the shell made would otherwise wait forever for a writer.
        fd = workspace.open(target, os.O_RDONLY | os.O_NONBLOCK)
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


def glob(workspace: Workspace, pattern: str, max_results: int | None = None,
         *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Sorted workspace paths matching `pattern`; stops after `max_results` and says that it stopped."""
    cap = limits.max_glob_results if max_results is None else max_results
    too_deep: list[str] = []
    left_out: list[tuple[str, str]] = []
    # One more than shown tells whether there are more.
    found = list(islice(workspace.glob(pattern, too_deep, left_out), cap + 1))
    deeper = (f"\n[not searched: folders more than {MAX_WALK_DEPTH} deep, such as {_listed(too_deep[0])}; "
              "read_file and write_file still reach a deeper file by its path]") if too_deep else ""
    if left_out:  # listed, they would only be refused when read: the model is told why they are missing instead
        deeper += (f"\n[left out: {counted(len(left_out), 'path')} that no file tool can open, such as "
                   f"{left_out[0][1]}; the user, or a shell command, can rename it]")
    if not found:
        return f"No paths match {quoted(pattern)} (glob never searches {', '.join(sorted(SKIPPED_FOLDERS))})" + deeper
    listed = [_listed(path) for path in found[:cap]]
    order = "sorted" + (" (a path with unusual characters is shown as a JSON string)" * (listed != found[:cap]))
    if len(found) > cap:
        return (f"First {cap} paths matching {quoted(pattern)}, {order}. Stopped there: more paths match; "
                "narrow the pattern to see the others.\n" + "\n".join(listed) + deeper)
    return f"{counted(len(found), 'path')} matching {quoted(pattern)}, {order}:\n" + "\n".join(listed) + deeper


def _listed(path: str) -> str:
    """A path as one line of a listing. A name may hold a line break (faking a second path), or characters that
    do not show (zero-width, right-to-left); such a path is shown as a JSON string, ready to send back as is."""
    return json.dumps(path) if not path.isprintable() or path.startswith('"') else path


def counted(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'s' * (n != 1)}"
