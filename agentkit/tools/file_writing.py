"""Changing the workspace (chapter 05): `write_file` and `edit_file`, each an atomic replace of the whole file.

A temporary file is written beside the target and renamed over it (`atomic_write`): never half a file.
"""

from __future__ import annotations

from agentkit.errors import ToolError
from agentkit.hardening.atomic import atomic_write, encoded, file_lock, read_whole
from agentkit.hardening.echo import quoted
from agentkit.limits import DEFAULT_LIMITS, Limits, counted
from agentkit.tools.file_reading import resolve_file
from agentkit.tools.workspace import Workspace


def write_file(workspace: Workspace, path: str, content: str, *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Create or replace a file with `content`, atomically, creating its folders inside the workspace."""
    data = encoded(content, limits)  # at most Limits.max_file_bytes
    target = resolve_file(workspace, path)
    with file_lock(target):
        replaced = atomic_write(workspace.root, target, data)
    what = "replaced its old content" if replaced else "new file"
    return f"Wrote {len(data):,} bytes to {workspace.relative(target)} ({what})"


def edit_file(workspace: Workspace, path: str, old_text: str, new_text: str, occurrence: int | None = None,
              replace_all: bool = False, *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Replace `old_text` by `new_text` exactly; refuse when it is absent or ambiguous unless told which one."""
    target = resolve_file(workspace, path)
    shown = workspace.relative(target)
    if not old_text:
        raise ToolError("old_text is empty; copy the exact text to replace from the file")
    if occurrence is not None and replace_all:
        raise ToolError("give occurrence or replace_all=true, not both")
    with file_lock(target):
        text, read = read_whole(workspace.root, target, limits)
        starts, lines = _occurrences(text, old_text)
        if not starts:
            raise ToolError(f"old_text was not found in {quoted(shown)} (0 occurrences); read the file and copy the "
                            "text exactly, with its spaces and line breaks")
        if occurrence is not None and not 1 <= occurrence <= len(starts):
            raise ToolError(f"occurrence={occurrence}, but old_text appears {counted(len(starts), 'time')} in "
                            f"{quoted(shown)} ({_lines(lines)}); occurrence should be 1 to {len(starts)}")
        if len(starts) > 1 and occurrence is None and not replace_all:
            raise ToolError(f"old_text appears {len(starts)} times in {quoted(shown)} ({_lines(lines)}); include more "
                            f"of the surrounding text to make it unique, or pass occurrence=N (1 to {len(starts)}) "
                            "or replace_all=true")
        if replace_all:  # one pass: splicing each occurrence in turn would copy the whole text once per occurrence
            text, changed = text.replace(old_text, new_text), lines
        else:
            index = (occurrence or 1) - 1
            text = text[:starts[index]] + new_text + text[starts[index] + len(old_text):]
            changed = [lines[index]]
        # `read`: if another program wrote to the file since it was read, the write is refused
        atomic_write(workspace.root, target, encoded(text, limits, "the edited file would be"), read)
    return f"Replaced {counted(len(changed), 'occurrence')} in {shown} ({_lines(changed)})"


def _occurrences(text: str, old_text: str) -> tuple[list[int], list[int]]:
    """Start and line of every non-overlapping occurrence (those `str.replace` changes), in one pass over `text`."""
    starts, lines, start, line = [], [], text.find(old_text), 1
    while start != -1:
        line += text.count("\n", starts[-1] if starts else 0, start)
        starts.append(start)
        lines.append(line)
        start = text.find(old_text, start + len(old_text))
    return starts, lines


def _lines(numbers: list[int]) -> str:
    """`line 3`, `lines 2, 5`: each line once, however many occurrences it holds."""
    distinct = list(dict.fromkeys(numbers))
    return f"line{'s' * (len(distinct) != 1)} {', '.join(map(str, distinct))}"
