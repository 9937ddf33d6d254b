"""Checks for chapter 04's exercises: what the dispatcher enforces. Each takes the notebook's `globals()`; await it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agentkit.calls import ToolCall
from agentkit.checks import answer, expect, phrase, run_check
from agentkit.errors import ToolError
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry

BAD_VOLUME_CALLS = {
    '{"level": 11, "mode": "speaker"}': phrase("a level above 10"),
    '{"level": -1, "mode": "speaker"}': phrase("a level below 0"),
    '{"level": 3.5, "mode": "speaker"}': phrase("a level that is not an integer"),
    '{"level": "7", "mode": "speaker"}': phrase("a level sent as a string"),
    '{"level": 7, "mode": "tv"}': phrase('a mode other than "speaker" or "headphones"'),
    '{"level": 7}': phrase("a missing mode"),
    '{"level": 7, "mode": "speaker", "loud": true}': phrase("an unexpected key"),
}


async def check_exercise_4_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 4.1: `volume_tool`, whose schema alone makes the dispatcher refuse every bad call."""

    async def test() -> None:
        volume_tool = answer(namespace, "volume_tool")
        expect(isinstance(volume_tool, ToolDefinition),
               f"`volume_tool` is a {type(volume_tool).__name__}; make it a ToolDefinition (or use @tool).")
        expect(volume_tool.name == "set_volume", f"the tool is named {volume_tool.name!r}; name it set_volume.")
        registry = build_registry([volume_tool])
        good = await execute_tool(registry, ToolCall.parse("", "set_volume", '{"level": 7, "mode": "headphones"}'))
        expect(good.content == "volume 7 on headphones",
               f"a good call returned {good.content!r}; the handler should return 'volume 7 on headphones'.")
        for raw, what in BAD_VOLUME_CALLS.items():
            result = await execute_tool(registry, ToolCall.parse("", "set_volume", raw))
            expect(result.is_error and result.error is None,
                   f"{what} ({raw}) got through to the handler, which returned {result.content!r}; "
                   "the schema should refuse it before the handler runs.")

    return await run_check("Exercise 4.1: a schema the dispatcher enforces", test)


async def check_exercise_4_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 4.2: `fixed_initials`, the `initials` tool without its bug, reporting a name with no words through ToolError."""

    async def test() -> None:
        initials = answer(namespace, "fixed_initials")
        expect(isinstance(initials, ToolDefinition),
               f"`fixed_initials` is a {type(initials).__name__}; define it with @tool.")
        registry = {initials.name: initials}
        for name, expected in [("Ada  Lovelace", "A.L."), (" grace\thopper ", "G.H."), ("Alan Mathison Turing", "A.M.T.")]:
            result = await execute_tool(registry, ToolCall.parse("", initials.name, json.dumps({"name": name})))
            expect(result.error is None or isinstance(result.error, ToolError),
                   f"for {name!r} the tool still crashes ({type(result.error).__name__}): split on any whitespace.")
            expect(result.content == expected, f"for {name!r} the tool returned {result.content!r}; expected {expected!r}.")
        empty = await execute_tool(registry, ToolCall.parse("", initials.name, '{"name": "   "}'))
        expect(empty.is_error, f"a name with no words returned {empty.content!r} as a success; raise ToolError.")
        expect(isinstance(empty.error, ToolError),
               f"a name with no words raised {type(empty.error).__name__}, which the dispatcher reports as a bug in "
               "the tool; check for it first and raise ToolError with a message the model can act on.")

    return await run_check("Exercise 4.2: a bug fixed, a mistake reported", test)
