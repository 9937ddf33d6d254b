"""Checks for chapter 13's exercises: a tool of your own for the agent, and evaluation cases for it. Each takes `globals()`.

Any working answer passes: the checks run your tool through the dispatcher and your cases through the scorer's
rules, and never ask a model anything (whether a model gets your cases right is yours to read in the notebook).
Your tool is made afresh, by your `my_tool(workspace)`, in a workspace of the check's own where the agent's
`tools(workspace)` has made its database, so a check does not depend on what the notebook's cells left behind.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentkit.calls import ToolCall
from agentkit.checks import answer, expect, run_check
from agentkit.evaluation import Case, score
from agentkit.evaluation.dataset import case_problems
from agentkit.tools import ToolDefinition, ToolError, Workspace, build_registry, execute_tool, openai_tools

WRONG_VALUE = {"string": 12345, "integer": "twelve", "number": "twelve", "boolean": "maybe", "array": 7, "object": 7}
"""A value of the wrong JSON type for each type a parameter may declare: the dispatcher must refuse it."""


def _agent_tools(namespace: Mapping[str, Any]) -> dict[str, ToolDefinition]:
    """The agent's registry as the notebook built it (`registry`), or none if it is not there."""
    registry = namespace.get("registry")
    return dict(registry) if isinstance(registry, Mapping) else {}


SAMPLE = [{"amount": 12.5, "category": "food", "item": "lunch", "day": "2026-03-02"},
          {"amount": 30, "category": "transport", "item": "train ticket", "day": "2026-03-03"}]
"""Expenses the check records, through the agent's own add_expense, before it calls your tool."""


async def _tool(namespace: Mapping[str, Any], folder: Path) -> ToolDefinition:
    """Your tool, made by `my_tool(workspace)` in `folder`, after the agent's tools made (and filled) its database there."""
    make = answer(namespace, "my_tool")
    expect(callable(make) and not isinstance(make, ToolDefinition),
           "my_tool must be a function that takes the workspace and returns your tool, as tools(workspace) does in "
           "expenses_agent.py: define the @tool function inside it and return it.")
    workspace = Workspace(folder)
    agent_tools = getattr(namespace.get("agent"), "tools", None)
    if callable(agent_tools):  # the agent's database, with two expenses in it, as the notebook's would have
        registry = agent_tools(workspace)
        for arguments in SAMPLE if "add_expense" in registry else []:
            await execute_tool(registry, ToolCall.parse("", "add_expense", json.dumps(arguments)))
    tool = make(workspace)
    expect(isinstance(tool, ToolDefinition), f"my_tool(workspace) returned a {type(tool).__name__}, not a tool: "
                                             "decorate a typed, documented function with @tool and return it.")
    return tool


def _wrong_call(tool: ToolDefinition, arguments: dict[str, Any]) -> dict[str, Any] | None:
    """`arguments` made wrong in a way any schema refuses: a required argument left out, or a value of the wrong type."""
    required = tool.parameters.get("required") or []
    if required:
        return {name: value for name, value in arguments.items() if name != required[0]}
    for name, spec in (tool.parameters.get("properties") or {}).items():
        if isinstance(spec.get("type"), str) and spec["type"] in WRONG_VALUE:
            return {**arguments, name: WRONG_VALUE[spec["type"]]}
    return None


async def check_exercise_13_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 13.1: `my_tool(workspace)`, which makes a working new tool, and `my_tool_arguments`, a call that works."""

    async def test() -> None:
        with tempfile.TemporaryDirectory(prefix="check-13-1-") as folder:
            await check_tool(await _tool(namespace, Path(folder)), answer(namespace, "my_tool_arguments"))

    async def check_tool(tool: ToolDefinition, arguments: Any) -> None:
        expect(tool.name not in _agent_tools(namespace),
               f"my_tool is named {tool.name!r}, like one of the agent's tools; give it a name of its own.")
        try:
            registry = build_registry([tool])
        except (TypeError, ValueError) as error:
            raise AssertionError(f"my_tool cannot go in a registry: {error}") from None
        expect(len(tool.description.split()) >= 4,
               f"my_tool's description is {tool.description!r}: say in a sentence what it does and when to use it.")
        for name, spec in (tool.parameters.get("properties") or {}).items():
            expect(spec.get("description"), f"parameter {name!r} has no description: the model reads it to fill the value.")
        expect(isinstance(arguments, dict), "my_tool_arguments must be a dict of arguments, e.g. {\"category\": \"food\"}.")
        result = await execute_tool(registry, ToolCall.parse("", tool.name, json.dumps(arguments)))
        if result.error is not None and not isinstance(result.error, ToolError):
            raise AssertionError(f"calling {tool.name} with {json.dumps(arguments)} hit a bug in the tool: "
                                 f"{type(result.error).__name__}: {result.error}")
        expect(not result.is_error, f"calling {tool.name} with {json.dumps(arguments)} gave {result.content!r}: "
                                    "my_tool_arguments should be a call that works.")
        expect(result.content.strip(), f"{tool.name} returned an empty text: say what it found or did, for the model.")
        wrong = _wrong_call(tool, arguments)
        if wrong is not None:
            refused = await execute_tool(registry, ToolCall.parse("", tool.name, json.dumps(wrong)))
            expect(refused.is_error and isinstance(refused.error, ToolError | None),
                   f"calling {tool.name} with wrong arguments {json.dumps(wrong)} did not give an Error: result "
                   f"(got {refused.content[:120]!r}); give every parameter a type hint.")

    return await run_check("Exercise 13.1: a tool of your own", test)


def _perfect_calls(case: Case) -> list[tuple[str, str]]:
    """What a perfect model would call: each argument's first acceptable value, optional ones left out."""
    return [(call.name, json.dumps({name: values[0] for name, values in call.arguments.items() if values[0] is not None}))
            for call in case.expected]


async def check_exercise_13_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 13.2: `my_cases`, at least 3 sound cases for the agent's tools and `my_tool`."""

    async def test() -> None:
        with tempfile.TemporaryDirectory(prefix="check-13-2-") as folder:
            tool = await _tool(namespace, Path(folder))
        cases = answer(namespace, "my_cases")
        expect(isinstance(cases, list) and all(isinstance(c, Case) for c in cases),
               "my_cases must be a list of Case(...) objects.")
        expect(len(cases) >= 3, f"my_cases has {len(cases)} cases; write at least 3.")
        ids = [c.id for c in cases]
        expect(len(set(ids)) == len(ids), "two of your cases share an id; give each its own.")
        taken = {c.id for c in namespace.get("cases") or [] if isinstance(c, Case)} & set(ids)
        expect(not taken, f"{', '.join(sorted(taken))}: the notebook's cases use that id already; pick your own.")
        functions = {t["function"]["name"]: t for t in openai_tools({**_agent_tools(namespace), tool.name: tool})}
        for case in cases:
            problems = case_problems(case, functions)
            expect(not problems, f"case {case.id!r}: {problems[0] if problems else ''}.")
            expect(score(case, _perfect_calls(case), functions).right,
                   f"case {case.id!r}: a perfect answer (each argument's first acceptable value) is scored wrong; "
                   "check its expected calls.")
        expect(any(call.name == tool.name for c in cases for call in c.expected),
               f"no case expects a call to {tool.name}: add one that asks for what your tool does.")
        expect(any(c.category == "no_tool" for c in cases),
               "no case checks abstention: add a no_tool case, a request no offered tool fits (expected=()).")

    return await run_check("Exercise 13.2: evaluation cases for your tool", test)
