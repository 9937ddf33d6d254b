"""Output kept small: what a command prints, and what a file holds, reach the model and memory only in bounded parts.

The attack: output too large for memory or for the model's context: a command printing a gigabyte or without end
(`yes`), a sparse 8 GB file (a hole of NUL bytes that takes no disk), one line without end, a binary file read as
text. The tests that prove it: tests/test_shell_attacks.py, tests/test_shell.py, tests/test_filesystem.py,
tests/test_workspace_attacks.py.

`HeadTail` keeps the first and the last bytes of a stream and only counts the middle, so a command that prints a
gigabyte costs kilobytes; `CommandResult` puts exit code, both streams and notes about leftover processes into one
text that fits a budget of characters (chapter 06). `seek_to_line` and `numbered_lines` read a file a block and a
line at a time, up to `Limits.max_read_chars` (chapter 05).
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass, field
from typing import BinaryIO, TextIO

from agentkit.errors import ToolError
from agentkit.hardening.echo import quoted


@dataclass
class HeadTail:
    """The first and last `keep` bytes of a stream, and how many bytes it had; memory stays O(keep)."""

    keep: int
    """Bytes kept at each end."""
    head: bytearray = field(default_factory=bytearray)
    """The first bytes, up to `keep`."""
    tail: bytearray = field(default_factory=bytearray)
    """The last bytes seen after the head was full, up to `keep`."""
    total: int = 0
    """Every byte the stream produced, kept or not."""

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.keep - len(self.head)
        self.head += chunk[:room]
        self.tail += chunk[max(room, 0):]
        if len(self.tail) > self.keep:
            del self.tail[: -self.keep]

    def render(self, budget: int) -> str:
        """The stream as text of at most `budget` bytes' worth, saying how many bytes were cut from the middle."""
        kept = self.head + self.tail
        if self.total == len(kept) <= budget:
            return kept.decode(errors="replace")
        # Once anything is cut, the tail holds `keep` bytes, so the last `budget - first` bytes are all in it.
        first = budget // 2
        head, tail = kept[:first], kept[len(kept) - (budget - first):]
        middle = self.cut_line(self.total - len(head) - len(tail))
        return head.decode(errors="replace") + middle + tail.decode(errors="replace")

    @property
    def binary(self) -> bool:
        """Does it look like binary data rather than text? As git decides: a NUL byte among the first bytes."""
        return b"\0" in self.head

    @staticmethod
    def cut_line(cut: int) -> str:
        return f"\n[... {cut:,} bytes cut from the middle ...]\n"


LISTED_PROCESSES = 5
"""Processes a note names one by one; the rest are counted, so that a thousand of them cannot fill the result."""


def _listed(processes: tuple[str, ...]) -> str:
    more = len(processes) - LISTED_PROCESSES
    return "; ".join(processes[:LISTED_PROCESSES]) + (f"; and {more:,} more" if more > 0 else "")


@dataclass(frozen=True)
class CommandResult:
    """What one shell command did."""

    exit_code: int | None
    """The exit status; negative when a signal killed it (-9 is SIGKILL); None when we stopped it (time, output)."""
    stdout: HeadTail
    """What it printed on standard output (head and tail)."""
    stderr: HeadTail
    """What it printed on standard error (head and tail)."""
    timeout: float
    """The time limit it ran under, in seconds."""
    killed: tuple[str, ...] = ()
    """`pid command` of each process that had left the group, outlived the command, and was killed."""
    still_running: tuple[str, ...] = ()
    """`pid command` of each such process that was sent a kill and is still there."""
    unknown: tuple[str, ...] = ()
    """`pid command` of each untagged orphan adopted while it ran: maybe the command's, left running."""
    checked: bool = True
    """False where processes that left the group cannot be looked for (no `/proc`)."""
    output_limit: int | None = None
    """The bound in bytes (`Limits.max_command_output_bytes`) when the command printed more and was stopped for it."""

    def notes(self) -> list[str]:
        """What happened to the processes the command left behind, as lines for the model."""
        notes = []
        if self.killed:
            notes.append(f"note: {len(self.killed)} process(es) started by the command had left its process group "
                         f"and outlived it; they were killed: {_listed(self.killed)}")
        if self.still_running:
            notes.append(f"note: process(es) started by the command could not be stopped and may still be running: "
                         f"{_listed(self.still_running)}")
        if self.unknown:
            notes.append(f"note: process(es) that may have been started by the command (they left its session and "
                         f"environment) are still running and were not stopped: {_listed(self.unknown)}")
        if not self.checked:
            notes.append("note: processes that left the command's process group cannot all be looked for on this "
                         "system; some may still be running")
        return notes

    def for_model(self, max_chars: int) -> str:
        """Exit code, stdout, stderr and notes as labelled sections, together at most `max_chars` characters."""
        if self.exit_code is None:
            everything = self.checked and not self.still_running and not self.unknown
            killed = "the command and every process it started were killed" if everything else "its process group was killed"
            status = f"timed out after {self.timeout:.1f} s; {killed}"
            if self.output_limit is not None:
                status = (f"stopped after printing more than {self.output_limit:,} bytes "
                          f"(Limits.max_command_output_bytes, which only the user can raise); {killed}. To keep "
                          "long output, send it to a file and read the parts you need: cmd > out.log 2>&1; tail out.log")
        elif self.exit_code < 0:
            status = f"{self.exit_code} (killed by signal {signal.Signals(-self.exit_code).name})"
        else:
            status = str(self.exit_code)
        notes = self.notes()
        # Binary bytes decoded as text are noise that fills the budget: the model is told what they are instead.
        binary = {label: f"{label}: {stream.total:,} bytes of binary data (they contain NUL bytes), not shown; to "
                         "look at them, pipe them into `xxd | head`"
                  for label, stream in (("stdout", self.stdout), ("stderr", self.stderr)) if stream.binary}
        # The labels and notes come out of the budget first, then each cut stream's "[... cut ...]" line.
        frame = len(f"exit code: {status}\nstdout: (empty)\nstderr: (empty)") + sum(len(n) + 1 for n in notes)
        room = max(max_chars - frame - sum(map(len, binary.values())), 0)
        # stderr gets at most half, stdout whatever stderr leaves
        err_budget = 0 if "stderr" in binary else min(self.stderr.total, room // 2)
        sections = [f"exit code: {status}"]
        for label, stream, budget in (("stdout", self.stdout, room - err_budget), ("stderr", self.stderr, err_budget)):
            if label in binary:
                sections.append(binary[label])
                continue
            if stream.total > budget:
                budget = max(budget - len(stream.cut_line(stream.total)), 0)
            text = stream.render(budget).rstrip("\n")
            sections.append(f"{label}:\n{text}" if text else f"{label}: (empty)")
        return "\n".join(sections + notes)


def seek_to_line(file: BinaryIO, line: int, shown: str) -> int:
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


def numbered_lines(file: TextIO, shown: str, offset: int, limit: int | None, max_chars: int) -> str:
    """At most `limit` lines of `file` from where it is (line `offset`), numbered, together at most `max_chars`.

    `readline(n)` stops after n characters, so memory stays bounded however long one line is; a line that does
    not fit is cut, and the text says where to continue.
    """
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
