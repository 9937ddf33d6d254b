"""Checks for chapter 05's exercises: a guard's decision that holds, and a tool that respects the workspace.

Each takes the notebook's `globals()`. Each builds its own scratch layout in a temporary folder:

    workspace/                  the root, with notes/todo.txt, a.txt, b.txt, an empty folder and a link out
    workspace-private/secret.txt    outside, beside the root

The cases live here, not in the notebook: an answer has to hold for paths its author never saw.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from agentkit.calls import ToolCall
from agentkit.checks import answer, expect, phrase, run_check
from agentkit.errors import ToolError
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry
from agentkit.tools.workspace import Workspace, WorkspaceError


def broken_guard(root: str, path: str) -> str:
    """A path guard with two holes in it (exercise 5.1): it looks right, and it is not."""
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


def plant_links(root: Path) -> None:
    """The links an attacker (or a cloned repository) leaves in the workspace, and one that is harmless."""
    (root / "chain1").symlink_to("chain2")
    (root / "chain2").symlink_to("../workspace-private/secret.txt")
    (root / "dangling").symlink_to("../workspace-private/new.txt")
    (root / "shortcut").symlink_to("notes")


INSIDE_CASES: list[tuple[str, bool, str]] = [
    ("notes/todo.txt", True, phrase("a plain file inside")),
    ("new/folder/file.txt", True, phrase("a file that does not exist yet (write_file creates it)")),
    ("notes/../a.txt", True, phrase("'..' that stays inside")),
    ("../workspace/a.txt", True, phrase("a path that climbs out and comes back in")),
    (".", True, phrase("the root itself")),
    ("shortcut/todo.txt", True, phrase("a symlink inside that points inside")),
    ("{root}/b.txt", True, phrase("an absolute path to a file inside")),
    ("../workspace-private/secret.txt", False, phrase("a sibling folder whose name starts like the root's")),
    ("notes/../../workspace-private/secret.txt", False, phrase("'..' hidden in the middle")),
    ("/etc/passwd", False, phrase("an absolute path outside")),
    ("link/secret.txt", False, phrase("a symlinked folder inside that points outside")),
    ("chain1", False, phrase("a chain of two symlinks that ends outside")),
    ("dangling", False, phrase("a symlink to a file outside that does not exist yet (a write would create it)")),
    ("..", False, phrase("the folder that holds the root")),
]
"""(path, inside?, what it tests): the hidden cases of exercise 5.1, run in a layout with `plant_links`."""


def first_wrong_case(inside: Callable[[Path, str], object], root: Path) -> str | None:
    """The hint for the first case `inside` gets wrong, or None when it gets every one right."""
    for template, expected, what in INSIDE_CASES:
        path = template.format(root=root)
        shown = template.replace("{root}", "<root>")
        try:
            got = inside(root, path)
        except Exception as error:  # a guard that raises for a hostile path is the mistake we are looking for
            return phrase(f"inside(root, {shown!r}) raised {type(error).__name__}: {error}; return {expected} for it "
                          f"({what}): a bool for every path, never an exception.")
        if not isinstance(got, bool):
            return phrase(f"inside(root, {shown!r}) returned {got!r}; return a bool (True or False).")
        if got != expected:
            how = phrase("follow every symlink (os.path.realpath) and compare whole path components "
                         "(os.path.commonpath or Path.is_relative_to), not characters")
            return phrase(f"inside(root, {shown!r}) returned {got}; expected {expected}: {what}. To get it right, {how}.")
    return None


async def check_exercise_5_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 5.1: `inside(root, path) -> bool`, the guard's decision, tried on paths and links it never saw."""

    async def test() -> None:
        inside = answer(namespace, "inside")
        expect(callable(inside), "`inside` should be a function: def inside(root: Path, path: str) -> bool.")
        with scratch_layout() as root:
            plant_links(root)
            hint = first_wrong_case(inside, root)
        expect(hint is None, hint)

    return await run_check("Exercise 5.1: inside(root, path), a guard's decision that holds", test)


LISTINGS = {".": "a.txt\nb.txt\nempty/\nlink/\nnotes/", "notes": "todo.txt", "empty": "(empty folder)"}


async def check_exercise_5_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 5.2: `list_dir_tool(workspace)`, a `list_dir` tool that lists a folder inside the workspace only."""

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
                result = await execute_tool(registry, ToolCall.parse("", "list_dir", json.dumps({"path": path})))
                expect(result.content == expected, f"list_dir({path!r}) gave {result.content!r}; expected "
                                                   f"{expected!r} (sorted names, one a line, folders with '/').")
            for path in ("..", "link", "../workspace-private", "/etc"):
                result = await execute_tool(registry, ToolCall.parse("", "list_dir", json.dumps({"path": path})))
                expect(result.is_error and isinstance(result.error, WorkspaceError),
                       f"list_dir({path!r}) gave {result.content[:80]!r}; it leads outside the workspace: pass the "
                       "path through workspace.resolve(path), which raises WorkspaceError.")
            result = await execute_tool(registry, ToolCall.parse("", "list_dir", '{"path": "a.txt"}'))
            expect(result.is_error and isinstance(result.error, ToolError),
                   f"list_dir('a.txt') gave {result.content[:80]!r}; a file is not a folder: "
                   "raise ToolError saying so.")

    return await run_check("Exercise 5.2: a list_dir tool inside the workspace", test)
