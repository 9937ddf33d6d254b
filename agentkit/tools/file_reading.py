"""Reading the workspace (chapter 05): `read_file`, numbered lines of a text file, and `glob`, paths by pattern.

Plain functions that take the workspace first; `filesystem.file_tools` makes them tools.
"""

from __future__ import annotations

import io
from itertools import islice
from pathlib import Path

from agentkit.errors import ToolError
from agentkit.hardening.echo import quoted
from agentkit.hardening.output import numbered_lines, seek_to_line
from agentkit.hardening.path_text import listed_path
from agentkit.hardening.paths import check_file_path, open_regular_file, refuse_temporary_name
from agentkit.hardening.tree import SKIPPED_FOLDERS, unsearched
from agentkit.limits import DEFAULT_LIMITS, Limits, counted
from agentkit.tools.workspace import Workspace


def read_file(workspace: Workspace, path: str, offset: int = 1, limit: int | None = None,
              *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Lines `offset` .. `offset + limit - 1` of a UTF-8 text file, numbered; reads no more of the file than that."""
    target = resolve_file(workspace, path)
    shown = workspace.relative(target)
    with open(open_regular_file(workspace.root, target), "rb") as raw:
        passed = seek_to_line(raw, offset, shown)  # block by block: a sparse 8 GB file is not read to its end
        if offset > 1 and not raw.peek(1):
            raise ToolError(f"{quoted(shown)} has {passed} lines; offset={offset} is past its end")
        text = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", newline="\n")
        try:
            return numbered_lines(text, shown, offset, limit, limits.max_read_chars)
        except UnicodeDecodeError:
            raise ToolError(f"{quoted(shown)} is not UTF-8 text (it may be a binary file); read_file only reads text") from None


def resolve_file(workspace: Workspace, path: str) -> Path:
    """`workspace.resolve` for a tool that reads or writes one file: not a folder, nor a temporary's name."""
    check_file_path(path)
    return refuse_temporary_name(workspace.root, workspace.resolve(path))


def glob(workspace: Workspace, pattern: str, max_results: int | None = None,
         *, limits: Limits = DEFAULT_LIMITS) -> str:
    """Sorted workspace paths matching `pattern`; stops after `max_results` and says that it stopped."""
    cap = limits.max_glob_results if max_results is None else max_results
    too_deep: list[str] = []
    left_out: list[tuple[str, str]] = []
    found = list(islice(workspace.glob(pattern, too_deep, left_out), cap + 1))  # one more tells there are more
    notes = unsearched(too_deep, left_out)
    if not found:
        return f"No paths match {quoted(pattern)} (glob never searches {', '.join(sorted(SKIPPED_FOLDERS))})" + notes
    listed = [listed_path(path) for path in found[:cap]]
    order = "sorted" + (" (a path with unusual characters is shown as a JSON string)" * (listed != found[:cap]))
    if len(found) > cap:
        return (f"First {cap} paths matching {quoted(pattern)}, {order}. Stopped there: more paths match; "
                "narrow the pattern to see the others.\n" + "\n".join(listed) + notes)
    return f"{counted(len(found), 'path')} matching {quoted(pattern)}, {order}:\n" + "\n".join(listed) + notes
