"""Checks for chapter 13's exercises, on the project `agentkit new` made: your tools, test and cases. Each takes `globals()`.

Together they are the chapter's definition of done. They read the project's files (`project`, the folder, and
`NAME`, its module), load your tools the way `agentkit chat --tools NAME:tools` does, run your tests with pytest,
and check your cases against your tools' schemas; they never ask a model anything (whether a model gets your
cases right is `agentkit eval`'s to say). An exercise is "todo" while the project has only what `agentkit new` wrote.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentkit.calls import ToolCall
from agentkit.checks import CheckFailed, answer, expect, run_check
from agentkit.classroom.new_project import EXAMPLE_TOOL, TEMPLATES
from agentkit.evaluation import Case, load_cases, score
from agentkit.evaluation.dataset import case_problems
from agentkit.tools import ToolDefinition, ToolError, Workspace, build_registry, execute_tool, openai_tools

WRONG_VALUE = {"string": 12345, "integer": "twelve", "number": "twelve", "boolean": "maybe", "array": 7, "object": 7}
"""A value of the wrong JSON type for each type a parameter may declare: the dispatcher must refuse it."""


def _project(namespace: Mapping[str, Any]) -> tuple[Path, str]:
    """The project folder and its module's name, as the notebook's `agentkit new` cell set them."""
    folder, name = Path(answer(namespace, "project")), answer(namespace, "NAME")
    expect((folder / f"{name}.py").is_file(), f"{folder / (name + '.py')} does not exist: run the cell with "
                                              "`agentkit new` again.")
    return folder, name


def _tools(folder: Path, name: str) -> dict[str, ToolDefinition]:
    """The project's registry as `--tools NAME:tools` makes it: its module read afresh, `tools(workspace)` called in
    a workspace of the check's own, and the result checked as a registry."""
    found = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    module = importlib.util.module_from_spec(found)
    with tempfile.TemporaryDirectory(prefix="check-13-") as workspace:
        try:  # a mistake in your module is what this check reports, with the error's own words
            found.loader.exec_module(module)
            make = getattr(module, "tools", None)
            expect(callable(make), f"{name}.py has no function tools(workspace): keep the one `agentkit new` wrote, "
                                   "and list your tools in it.")
            made = make(Workspace(workspace))
        except AssertionError:
            raise
        except Exception as error:
            raise CheckFailed(f"making your tools, {name}.py raised {type(error).__name__}: {error}") from None
    try:
        return build_registry(made.values() if isinstance(made, Mapping) else made)
    except (TypeError, ValueError) as error:
        raise CheckFailed(f"tools(workspace) must return build_registry([...]) of your tools: {error}") from None


def _yours(registry: Mapping[str, ToolDefinition]) -> list[ToolDefinition]:
    """The tools beside the template's example; none yet means the exercise is not started."""
    mine = [tool for name, tool in registry.items() if name != EXAMPLE_TOOL]
    if not mine:
        raise NotImplementedError("your tools")
    return mine


def _wrong_call(tool: ToolDefinition) -> dict[str, Any] | None:
    """Arguments any schema refuses: a required one left out, or a value of the wrong type (None: the schema takes anything)."""
    properties, required = tool.parameters.get("properties") or {}, tool.parameters.get("required") or []
    if required:
        return {}
    for name, spec in properties.items():
        if isinstance(spec.get("type"), str) and spec["type"] in WRONG_VALUE:
            return {name: WRONG_VALUE[spec["type"]]}
    return None


async def check_exercise_13_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 13.1: two tools of your own in the project, described, that refuse a wrong call."""

    async def test() -> None:
        folder, name = _project(namespace)
        registry = _tools(folder, name)
        mine = _yours(registry)
        expect(len(mine) >= 2, f"the project has 1 tool of yours ({mine[0].name}); write two, and list both in "
                               "build_registry.")
        for tool in mine:
            expect(len(tool.description.split()) >= 4, f"{tool.name}'s description is {tool.description!r}: say in a "
                                                        "sentence what it does, in the words people use.")
            for parameter, spec in (tool.parameters.get("properties") or {}).items():
                expect(spec.get("description"), f"{tool.name}: parameter {parameter!r} has no description (an Args: "
                                                "line): the model reads it to fill the value.")
            wrong = _wrong_call(tool)
            if wrong is not None:
                refused = await execute_tool(registry, ToolCall.parse("", tool.name, json.dumps(wrong)))
                expect(refused.is_error and isinstance(refused.error, ToolError | None),
                       f"{tool.name} called with wrong arguments {json.dumps(wrong)} gave {refused.content[:120]!r}, "
                       "not an Error: result: give every parameter a type hint.")

    return await run_check("Exercise 13.1: two tools of your own", test)


def _test_names(path: Path) -> set[str]:
    """The test functions a test file (or its template, whose {{name}} is no Python yet) defines."""
    tree = ast.parse(path.read_text(encoding="utf-8").replace("{{name}}", "agent"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test")}


def run_tests(folder: Path) -> subprocess.CompletedProcess[str]:
    """`python -m pytest` in the project folder, as a learner runs it, with only the project's own settings."""
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "--color=no"], cwd=folder, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})


async def check_exercise_13_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 13.2: a test of yours, about one of your tools, and every test of the project passing."""

    async def test() -> None:
        folder, name = _project(namespace)
        given = _test_names(TEMPLATES / "test_agent.py.tmpl")
        files = sorted(folder.glob("test_*.py"))
        added = {test: path for path in files for test in _test_names(path) - given}
        if not added:
            raise NotImplementedError("your test")
        mine = {tool.name for tool in _yours(_tools(folder, name))}
        about = [test for test, path in added.items() if any(tool in path.read_text(encoding="utf-8") for tool in mine)]
        expect(about, f"your tests ({', '.join(sorted(added))}) name none of your tools ({', '.join(sorted(mine))}): "
                      "script a call to one with call(...).")
        ran = run_tests(folder)
        last = (ran.stdout or ran.stderr).strip().splitlines()[-1:] or ["no output"]
        expect(ran.returncode == 0, f"python -m pytest in {folder.name}/ does not pass: {last[0]}")

    return await run_check("Exercise 13.2: a test of yours", test)


def _perfect_calls(case: Case) -> list[tuple[str, str]]:
    """What a perfect model would call: each argument's first acceptable value, optional ones left out."""
    return [(call.name, json.dumps({name: values[0] for name, values in call.arguments.items() if values[0] is not None}))
            for call in case.expected]


async def check_exercise_13_3(namespace: Mapping[str, Any]) -> bool:
    """Exercise 13.3: at least five cases of yours in cases.jsonl, sound for your tools' schemas."""

    async def test() -> None:
        folder, name = _project(namespace)
        try:
            cases = load_cases(folder / "cases.jsonl")
        except (OSError, ValueError) as error:
            raise AssertionError(str(error)) from None
        given = {case.id for case in load_cases(TEMPLATES / "cases.jsonl")}
        added = [case for case in cases if case.id not in given]
        if not added:
            raise NotImplementedError("your cases")
        expect(len(added) >= 5, f"cases.jsonl has {len(added)} case(s) of yours; write at least 5.")
        ids = [case.id for case in cases]
        expect(len(set(ids)) == len(ids), "two cases share an id; give each its own.")
        registry = _tools(folder, name)
        functions = {tool["function"]["name"]: tool for tool in openai_tools(registry)}
        for case in cases:
            offered = case if case.tools else Case(**{**vars(case), "tools": tuple(functions)})
            problems = case_problems(offered, functions)
            expect(not problems, f"case {case.id!r}: {problems[0] if problems else ''}.")
            expect(score(offered, _perfect_calls(offered), functions).right,
                   f"case {case.id!r}: a perfect answer (each argument's first acceptable value) is scored wrong; "
                   "check its expected calls.")
        expected = {call.name for case in added for call in case.expected}
        missing = sorted(tool.name for tool in _yours(registry) if tool.name not in expected)
        expect(not missing, f"no case of yours expects a call to {', '.join(missing)}: add one that asks for it.")
        expect(any(case.category == "no_tool" for case in added),
               'no case of yours checks abstention: add a "no_tool" case, a request none of the tools fits.')

    return await run_check("Exercise 13.3: five evaluation cases", test)
