"""File tools for the model: `read_file`, `write_file`, `edit_file` and `glob`, all inside one `Workspace`.

`file_tools` binds the plain functions of `file_reading.py` and `file_writing.py` to one workspace and its limits:
each tool is a closure whose signature holds only what the model sends, so `@tool` makes its schema from it.
"""

# No `from __future__ import annotations`: the hints below name `limits`, a local of `file_tools`, so they
# are evaluated here, where it is in scope, instead of later by name, where it is not.

from typing import Annotated

from pydantic import Field

from agentkit.hardening.atomic import refusals_reported
from agentkit.limits import DEFAULT_LIMITS, Limits
from agentkit.tools import file_reading, file_writing
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.schema import tool
from agentkit.tools.workspace import Workspace

Positive = Annotated[int, Field(ge=1)]  # A count or a line number: 1 or more


def file_tools(workspace: Workspace, limits: Limits = DEFAULT_LIMITS) -> list[ToolDefinition]:
    """`read_file`, `write_file`, `edit_file` and `glob` as tools bound to one workspace and one set of limits."""

    @tool
    def read_file(path: str, offset: Positive = 1, limit: Positive | None = None) -> str:
        """Read a UTF-8 text file in the workspace and return its lines, each with its line number.
        The numbers are not part of the file.
        One call returns a limited number of characters: use offset and limit to read a part of a large file.

        Args:
            path: Path of the file, relative to the workspace root, e.g. 'notes/todo.txt'.
            offset: First line to read, counting from 1.
            limit: How many lines to read at most.
        """
        with refusals_reported(path, "read"):
            return file_reading.read_file(workspace, path, offset, limit, limits=limits)

    @tool(needs_confirmation=True)
    def write_file(path: str, content: str) -> str:
        """Write text content to a file in the workspace, creating the file and its folders, or replacing the whole file.
        The write is atomic: the file is never left half written.

        Args:
            path: Path of the file, relative to the workspace root, e.g. 'notes/todo.txt'.
            content: The complete new content of the file.
        """
        with refusals_reported(path, "written"):
            return file_writing.write_file(workspace, path, content, limits=limits)

    @tool(needs_confirmation=True)
    def edit_file(path: str, old_text: Annotated[str, Field(min_length=1)], new_text: str,
                  occurrence: Positive | None = None, replace_all: bool = False) -> str:
        """Edit a text file in the workspace: replace old_text with new_text, exactly.
        old_text must appear once; if it appears several times, add surrounding text to make it unique,
        or give occurrence or replace_all.

        Args:
            path: Path of the file, relative to the workspace root, e.g. 'notes/todo.txt'.
            old_text: The exact text to replace, copied from the file.
            new_text: The text to put in its place.
            occurrence: Which occurrence to replace, counting from 1.
            replace_all: Replace every occurrence.
        """
        with refusals_reported(path, "edited"):
            return file_writing.edit_file(workspace, path, old_text, new_text, occurrence, replace_all,
                                          limits=limits)

    @tool
    def glob(pattern: str,
             max_results: Annotated[int, Field(ge=1, le=limits.max_glob_results)] = limits.max_glob_results) -> str:
        """Find files and folders in the workspace whose paths match a glob pattern, such as '*.txt' or 'src/**/*.py'.
        ** matches any folders. Lists paths relative to the workspace root, sorted.

        Args:
            pattern: Glob pattern relative to the workspace root.
            max_results: Stop after this many paths.
        """
        with refusals_reported(pattern, "searched"):
            return file_reading.glob(workspace, pattern, max_results, limits=limits)

    return [read_file, write_file, edit_file, glob]
