"""Chapter 05's checks pass the right answers and say what is wrong with wrong ones."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from agentkit.checks.ch05 import broken_guard, check_exercise_5_1, check_exercise_5_2, check_exercise_5_3
from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.workspace import Workspace


def test_broken_guard_has_the_prefix_hole(tmp_path: Path) -> None:
    root = str(tmp_path / "workspace")
    assert broken_guard(root, "notes.txt") == os.path.join(root, "notes.txt")
    assert broken_guard(root, "../workspace-private/x") == str(tmp_path / "workspace-private" / "x")


def test_5_1_right_answer(capsys) -> None:  # type: ignore[no-untyped-def]
    assert asyncio.run(check_exercise_5_1({"escape": "../workspace-private/secret.txt"}))
    assert capsys.readouterr().out == "[pass] Exercise 5.1: an escape through a broken guard\n"


def test_5_1_wrong_answers(capsys) -> None:  # type: ignore[no-untyped-def]
    assert not asyncio.run(check_exercise_5_1({"escape": "../secret.txt"}))
    assert capsys.readouterr().out.startswith("[fail] Exercise 5.1: an escape through a broken guard: "
                                              "broken_guard refuses '../secret.txt'.")
    assert not asyncio.run(check_exercise_5_1({"escape": "notes/todo.txt"}))
    assert "but it leads to workspace/notes/todo.txt, not to workspace-private/secret.txt" in capsys.readouterr().out
    assert not asyncio.run(check_exercise_5_1({"escape": "/etc/passwd"}))
    assert "give a path relative to the workspace" in capsys.readouterr().out
    assert not asyncio.run(check_exercise_5_1({}))
    assert capsys.readouterr().out.startswith("[todo] Exercise 5.1")


def fixed_guard(root: Path, path: str) -> Path:
    resolved = (root / path).resolve()
    if not resolved.is_relative_to(root):
        raise ValueError(f"{path!r} is outside the workspace")
    return resolved


def symlink_blind_guard(root: Path, path: str) -> Path:
    full = Path(os.path.normpath(root / path))  # no more prefix hole, but symlinks are not followed
    if not full.is_relative_to(root):
        raise ValueError(f"{path!r} is outside the workspace")
    return full


def test_5_2_right_answer(capsys) -> None:  # type: ignore[no-untyped-def]
    assert asyncio.run(check_exercise_5_2({"safe_guard": fixed_guard}))
    assert capsys.readouterr().out == "[pass] Exercise 5.2: a guard without the holes\n"


def test_5_2_wrong_answers(capsys) -> None:  # type: ignore[no-untyped-def]
    assert not asyncio.run(check_exercise_5_2({"safe_guard": symlink_blind_guard}))
    assert ("safe_guard accepts 'link/secret.txt' (a symlink inside the workspace that points outside)"
            in capsys.readouterr().out)
    assert not asyncio.run(check_exercise_5_2({"safe_guard": lambda root, path: Path(broken_guard(str(root), path))}))
    assert "safe_guard accepts '../workspace-private/secret.txt'" in capsys.readouterr().out


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


def test_5_3_right_answer(capsys) -> None:  # type: ignore[no-untyped-def]
    assert asyncio.run(check_exercise_5_3({"list_dir_tool": list_dir_tool}))
    assert capsys.readouterr().out == "[pass] Exercise 5.3: a list_dir tool inside the workspace\n"


def test_5_3_wrong_answers(capsys) -> None:  # type: ignore[no-untyped-def]
    assert not asyncio.run(check_exercise_5_3({"list_dir_tool": unguarded_list_dir_tool}))
    assert "list_dir('..') gave 'workspace-private/\\nworkspace/'; it leads outside" in capsys.readouterr().out
    assert not asyncio.run(check_exercise_5_3({"list_dir_tool": lambda workspace: "list_dir"}))
    assert "returned a str; return a ToolDefinition" in capsys.readouterr().out
