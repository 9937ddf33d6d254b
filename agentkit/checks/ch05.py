"""Checks for chapter 05's exercises: escaping a guard, fixing it, and a tool that respects the workspace.

Each takes the notebook's `globals()`. Each builds its own scratch layout in a temporary folder:

    workspace/                  the root, with notes/todo.txt, a.txt, b.txt, an empty folder and a link out
    workspace-private/secret.txt    outside, beside the root
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from agentkit.checks import CheckFailed, answer, expect, run_check
from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry
from agentkit.tools.workspace import Workspace, WorkspaceError


def broken_guard(root: str, path: str) -> str:
    """A path guard with a hole in it (exercise 5.1): it looks right, and it is not."""
    full = os.path.normpath(os.path.join(root, path))
    if not full.startswith(root):
        raise ValueError(f"{path!r} is outside the workspace")
    return full


@contextmanager
def scratch_layout() -> Iterator[Path]:
    """A fresh `workspace/` (the root, returned resolved) beside `workspace-private/secret.txt`."""
    with tempfile.TemporaryDirectory(prefix="check-ch05-") as base:
        root = Path(base).resolve() / "workspace"
        (root / "notes").mkdir(parents=True)
        (root / "notes" / "todo.txt").write_text("buy milk\n")
        (root / "a.txt").write_text("a\n")
        (root / "b.txt").write_text("b\n")
        (root / "empty").mkdir()
        (root / "link").symlink_to("../workspace-private")
        (root.parent / "workspace-private").mkdir()
        (root.parent / "workspace-private" / "secret.txt").write_text("TOP SECRET\n")
        yield root


async def check_exercise_5_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 5.1: `escape`, a path that `broken_guard` accepts and that reaches the secret."""

    async def test() -> None:
        escape = answer(namespace, "escape")
        expect(isinstance(escape, str), f"`escape` is a {type(escape).__name__}; make it a string (a path).")
        expect(not os.path.isabs(escape), "give a path relative to the workspace: the check runs in its own "
                                          "scratch folder, where an absolute path from your machine does not exist.")
        with scratch_layout() as root:
            try:
                reached = broken_guard(str(root), escape)
            except ValueError:
                raise CheckFailed(f"broken_guard refuses {escape!r}. Look at what `startswith` compares: "
                                     "two strings, character by character, not two folders.") from None
            secret = root.parent / "workspace-private" / "secret.txt"
            expect(os.path.realpath(reached) == str(secret),
                   f"broken_guard accepts {escape!r}, but it leads to {Path(reached).relative_to(root.parent)}, "
                   "not to workspace-private/secret.txt.")

    return await run_check("Exercise 5.1: an escape through a broken guard", test)


SAFE = {"notes/todo.txt": "notes/todo.txt", "new/file.txt": "new/file.txt", "notes/../a.txt": "a.txt"}
UNSAFE = {
    "../workspace-private/secret.txt": "the sibling folder whose name starts like the root's",
    "link/secret.txt": "a symlink inside the workspace that points outside",
    "notes/../../workspace-private/secret.txt": "'..' hidden in the middle",
    "/etc/passwd": "an absolute path",
}


async def check_exercise_5_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 5.2: `safe_guard(root, path) -> Path`, broken_guard with both holes closed."""

    async def test() -> None:
        safe_guard = answer(namespace, "safe_guard")
        expect(callable(safe_guard), "`safe_guard` should be a function: def safe_guard(root: Path, path: str).")
        with scratch_layout() as root:
            for path, inside in SAFE.items():
                try:
                    got = safe_guard(root, path)
                except ValueError as error:
                    hint = f"safe_guard refuses {path!r} ({error}), which is inside the workspace."
                    raise CheckFailed(hint) from None
                expect(Path(got) == root / inside, f"safe_guard(root, {path!r}) returned {got!r}; expected the "
                                                   f"resolved path root / {inside!r}.")
            for path, what in UNSAFE.items():
                try:
                    got = safe_guard(root, path)
                except ValueError:
                    continue
                raise CheckFailed(f"safe_guard accepts {path!r} ({what}) and returns {got!r}; resolve the "
                                     "path (following symlinks) and check it with is_relative_to(root).")

    return await run_check("Exercise 5.2: a guard without the holes", test)


LISTINGS = {".": "a.txt\nb.txt\nempty/\nlink/\nnotes/", "notes": "todo.txt", "empty": "(empty folder)"}


async def check_exercise_5_3(namespace: Mapping[str, Any]) -> bool:
    """Exercise 5.3: `list_dir_tool(workspace)`, a `list_dir` tool that lists a folder inside the workspace only."""

    async def test() -> None:
        list_dir_tool = answer(namespace, "list_dir_tool")
        with scratch_layout() as root:
            definition = list_dir_tool(Workspace(root))
            expect(isinstance(definition, ToolDefinition),
                   f"list_dir_tool(workspace) returned a {type(definition).__name__}; return a ToolDefinition.")
            expect(definition.name == "list_dir", f"the tool is named {definition.name!r}; name it list_dir.")
            expect(definition.parameters.get("additionalProperties") is False,
                   'its parameters should say "additionalProperties": False, so that no unknown argument gets in.')
            registry = build_registry([definition])
            for path, expected in LISTINGS.items():
                result = await execute_tool(registry, "list_dir", json.dumps({"path": path}))
                expect(result.content == expected, f"list_dir({path!r}) gave {result.content!r}; expected "
                                                   f"{expected!r} (sorted names, one a line, folders with '/').")
            for path in ("..", "link", "../workspace-private", "/etc"):
                result = await execute_tool(registry, "list_dir", json.dumps({"path": path}))
                expect(result.is_error and isinstance(result.error, WorkspaceError),
                       f"list_dir({path!r}) gave {result.content[:80]!r}; it leads outside the workspace: pass the "
                       "path through workspace.resolve(path), which raises WorkspaceError.")
            result = await execute_tool(registry, "list_dir", '{"path": "a.txt"}')
            expect(result.is_error and isinstance(result.error, ToolError),
                   f"list_dir('a.txt') gave {result.content[:80]!r}; a file is not a folder: "
                   "raise ToolError saying so.")

    return await run_check("Exercise 5.3: a list_dir tool inside the workspace", test)
