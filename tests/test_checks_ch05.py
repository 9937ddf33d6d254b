"""Chapter 05's checks pass the right answers and say what is wrong with wrong ones."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from agentkit.checks.ch05 import (
    INSIDE_CASES,
    broken_guard,
    check_exercise_5_1,
    check_exercise_5_2,
    plant_links,
    scratch_layout,
)
from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.workspace import Workspace, WorkspaceError


def test_broken_guard_has_the_prefix_hole(tmp_path: Path) -> None:
    root = str(tmp_path / "workspace")
    assert broken_guard(root, "notes.txt") == os.path.join(root, "notes.txt")
    assert broken_guard(root, "../workspace-private/x") == str(tmp_path / "workspace-private" / "x")


def inside(root: Path, path: str) -> bool:
    return Path(os.path.realpath(os.path.join(root, path))).is_relative_to(root)


def prefix_inside(root: Path, path: str) -> bool:  # broken_guard's test: characters, not components
    return os.path.realpath(os.path.join(root, path)).startswith(str(root))


def symlink_blind_inside(root: Path, path: str) -> bool:  # no more prefix hole, but symlinks are not followed
    return Path(os.path.normpath(os.path.join(root, path))).is_relative_to(root)


def refuses_every_dotdot(root: Path, path: str) -> bool:  # too strict: '..' can stay inside
    return ".." not in path and inside(root, path)


def raising_inside(root: Path, path: str) -> bool:  # refuses by raising, as a guard would, instead of answering
    if not inside(root, path):
        raise ValueError(f"{path!r} is outside the workspace")
    return True


def test_5_1_right_answer(capsys) -> None:  # type: ignore[no-untyped-def]
    assert asyncio.run(check_exercise_5_1({"inside": inside}))
    assert capsys.readouterr().out == "[pass] Exercise 5.1: inside(root, path), a guard's decision that holds\n"


def test_5_1_pathlib_answer(capsys) -> None:  # type: ignore[no-untyped-def]
    assert asyncio.run(check_exercise_5_1({"inside": lambda root, path: (root / path).resolve().is_relative_to(root)}))
    assert capsys.readouterr().out.startswith("[pass]")


@pytest.mark.parametrize(("wrong", "hint"), [
    (prefix_inside, "inside(root, '../workspace-private/secret.txt') returned True; expected False: a sibling folder "
                    "whose name starts like the root's."),
    (symlink_blind_inside, "inside(root, 'link/secret.txt') returned True; expected False: a symlinked folder inside "
                           "that points outside."),
    (refuses_every_dotdot, "inside(root, 'notes/../a.txt') returned False; expected True: '..' that stays inside."),
    (raising_inside, "inside(root, '../workspace-private/secret.txt') raised ValueError: '../workspace-private/secret.txt'"
                     " is outside the workspace; return False for it"),
    (lambda root, path: "yes", "inside(root, 'notes/todo.txt') returned 'yes'; return a bool"),
])
def test_5_1_wrong_answers_name_the_case(capsys, wrong, hint) -> None:  # type: ignore[no-untyped-def]
    assert not asyncio.run(check_exercise_5_1({"inside": wrong}))
    printed = capsys.readouterr().out
    assert printed.startswith("[fail] Exercise 5.1") and hint in printed
    assert printed.count("inside(root, '") == 1  # one case named, the others stay hidden


def test_5_1_not_written(capsys) -> None:  # type: ignore[no-untyped-def]
    assert not asyncio.run(check_exercise_5_1({}))
    assert capsys.readouterr().out.startswith("[todo] Exercise 5.1")


def test_the_hidden_cases_follow_the_promoted_guard() -> None:
    with scratch_layout() as root:
        plant_links(root)
        workspace = Workspace(root)
        for template, expected, what in INSIDE_CASES:
            try:
                workspace.resolve(template.format(root=root))
                allowed = True
            except WorkspaceError:
                allowed = False
            assert allowed == expected, what


def list_dir_tool(workspace: Workspace) -> ToolDefinition:
    def list_dir(path: str) -> str:
        folder = workspace.resolve(path)
        if not folder.is_dir():
            raise ToolError(f"{path!r} is not a folder")
        return "\n".join(sorted(entry.name + "/" * entry.is_dir() for entry in folder.iterdir())) or "(empty folder)"

    async def handler(arguments: dict) -> str:  # type: ignore[type-arg]
        return await asyncio.to_thread(list_dir, arguments["path"])

    parameters = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"],
                  "additionalProperties": False}
    return ToolDefinition("list_dir", "List a folder of the workspace.", parameters, handler)


def unguarded_list_dir_tool(workspace: Workspace) -> ToolDefinition:
    async def handler(arguments: dict) -> str:  # type: ignore[type-arg]
        folder = workspace.root / arguments["path"]
        return "\n".join(sorted(entry.name + "/" * entry.is_dir() for entry in folder.iterdir())) or "(empty folder)"

    return ToolDefinition("list_dir", "List a folder.", {"type": "object", "properties": {"path": {"type": "string"}},
                                                           "additionalProperties": False}, handler)


def test_5_2_right_answer(capsys) -> None:  # type: ignore[no-untyped-def]
    assert asyncio.run(check_exercise_5_2({"list_dir_tool": list_dir_tool}))
    assert capsys.readouterr().out == "[pass] Exercise 5.2: a list_dir tool inside the workspace\n"


def test_5_2_wrong_answers(capsys) -> None:  # type: ignore[no-untyped-def]
    assert not asyncio.run(check_exercise_5_2({"list_dir_tool": unguarded_list_dir_tool}))
    assert "list_dir('..') gave 'workspace-private/\\nworkspace/'; it leads outside" in capsys.readouterr().out
    assert not asyncio.run(check_exercise_5_2({"list_dir_tool": lambda workspace: "list_dir"}))
    assert "returned a str; return a ToolDefinition" in capsys.readouterr().out
