"""File tools for the model: `read_file`, `write_file`, `edit_file` and `glob`, all inside one `Workspace`.

Each tool is a plain function (easy to test and to read: `file_reading.py`, `file_writing.py`) plus a
`ToolDefinition` made here by `file_tools`, bound to one workspace and one set of limits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentkit.limits import DEFAULT_LIMITS, Limits
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.file_reading import glob, read_file
from agentkit.tools.file_writing import edit_file, write_file
from agentkit.tools.threads import run_blocking
from agentkit.tools.workspace import Workspace


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
