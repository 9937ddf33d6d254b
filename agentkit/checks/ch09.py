"""Checks for chapter 09's exercises: cases for your own tool, and a better description. Each takes `globals()`.

They check your code (a sound tool, sound cases, a description that changed and nothing else), never what a
model answers: the score itself is yours to read in the notebook.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agentkit.checks import CheckFailed, answer, expect, run_check
from agentkit.evaluation import Case, load_functions, score
from agentkit.evaluation.dataset import case_problems
from agentkit.hardening.arguments import Draft202012Validator, SchemaError


def _check_tool(tool: Any, label: str) -> str:
    expect(isinstance(tool, dict) and tool.get("type") == "function" and isinstance(tool.get("function"), dict),
           f'{label} is not a tool object: write {{"type": "function", "function": {{"name": ..., "description": ..., '
           '"parameters": {...}}}}.')
    function = tool["function"]
    expect(function.get("name") and function.get("description"), f"{label} needs a name and a description.")
    parameters = function.get("parameters")
    expect(isinstance(parameters, dict) and parameters.get("type") == "object" and parameters.get("properties"),
           f'{label}\'s parameters must be a JSON Schema {{"type": "object", "properties": {{...}}}} '
           "with at least one parameter.")
    try:
        Draft202012Validator.check_schema(parameters)
    except SchemaError as error:
        raise CheckFailed(f"{label}'s parameters are not valid JSON Schema: {error.message}") from None
    return function["name"]


def _perfect_calls(case: Case) -> list[tuple[str, str]]:
    """What a perfect model would call: each argument's first acceptable value, optional ones left out."""
    return [(call.name, json.dumps({name: values[0] for name, values in call.arguments.items() if values[0] is not None}))
            for call in case.expected]


def _check_cases(cases: list[Case], name: str, functions: dict[str, Any]) -> None:
    """Each case offers the tool `name`, is sound against `functions`, and a perfect answer to it scores right."""
    for case in cases:
        expect(name in case.tools, f"case {case.id!r} does not offer {name}: put it in tools.")
        problems = case_problems(case, functions)
        expect(not problems, f"case {case.id!r}: {problems[0] if problems else ''}.")
        expect(score(case, _perfect_calls(case), functions).right,
               f"case {case.id!r}: a perfect answer (each argument's first acceptable value) is scored wrong; "
               "check its expected calls.")


async def check_exercise_9_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 9.1: `my_tool` (a tool object) and `my_cases` (at least 3 sound `Case`s that offer it)."""

    async def test() -> None:
        tool, cases = answer(namespace, "my_tool"), answer(namespace, "my_cases")
        name = _check_tool(tool, "my_tool")
        expect(isinstance(cases, list) and all(isinstance(c, Case) for c in cases),
               "my_cases must be a list of Case(...) objects.")
        expect(len(cases) >= 3, f"my_cases has {len(cases)} cases; write at least 3.")
        expect(len({c.id for c in cases}) == len(cases), "two cases share an id; give each its own.")
        _check_cases(cases, name, {**load_functions(), name: tool})
        calling = [c for c in cases if any(call.name == name for call in c.expected)]
        expect(len(calling) >= 2, f"{len(calling)} cases expect a call to {name}; write at least 2, asked in different ways.")
        expect(any(c.category == "no_tool" for c in cases),
               "no case checks abstention: add a no_tool case, a question your tool does not fit (expected=()).")

    return await run_check("Exercise 9.1: cases for your own tool", test)


async def check_exercise_9_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 9.2: `better_tool` is `my_tool` with better descriptions, and the same contract; `harder_cases`, at
    least one sound case expecting a call to it, the kind a vague description gets wrong."""

    async def test() -> None:
        old, new = answer(namespace, "my_tool"), answer(namespace, "better_tool")
        name = _check_tool(new, "better_tool")
        expect(name == old["function"]["name"], f"better_tool is called {name!r}; keep the name "
                                                 f"{old['function']['name']!r} so the cases still apply.")

        def contract(tool: dict[str, Any]) -> Any:
            parameters = tool["function"]["parameters"]
            return ({p: {k: v for k, v in spec.items() if k != "description"} for p, spec in parameters["properties"].items()},
                    sorted(parameters.get("required", [])))

        expect(contract(new) == contract(old), "better_tool changes the parameters (names, types, enums or required); "
                                               "change only the descriptions, so the same cases measure both.")

        def descriptions(tool: dict[str, Any]) -> list[Any]:
            properties = tool["function"]["parameters"]["properties"]
            return [tool["function"]["description"], *(properties[p].get("description") for p in sorted(properties))]

        expect(descriptions(new) != descriptions(old), "better_tool has the same descriptions as my_tool; "
                                                       "rewrite the tool's or a parameter's description.")
        harder = answer(namespace, "harder_cases")
        expect(isinstance(harder, list) and all(isinstance(c, Case) for c in harder) and harder,
               "harder_cases must be a list of at least 1 Case(...): a request my_tool's descriptions get wrong.")
        taken = {c.id for c in namespace.get("my_cases") or [] if isinstance(c, Case)} & {c.id for c in harder}
        expect(not taken, f"{', '.join(sorted(taken))}: my_cases uses that id already; give each case its own.")
        _check_cases(harder, name, {**load_functions(), name: new})
        expect(all(any(call.name == name for call in c.expected) for c in harder),
               f"every case in harder_cases should expect a call to {name}: that is what the description changes.")

    return await run_check("Exercise 9.2: a better description", test)
