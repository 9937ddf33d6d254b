"""Checks for chapter 12's exercises: a tool in the Responses API's shape, and a `tool_use` block read back.

Each takes `globals()`; neither needs a framework installed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agentkit.checks import CheckFailed, answer, expect, run_check
from agentkit.frameworks import anthropic_messages
from agentkit.offline.contract import check_responses
from agentkit.offline.request import ApiError
from agentkit.offline.responses import to_chat_request
from agentkit.tools import Workspace, clock_tool, file_tools


async def check_exercise_12_1(namespace: Mapping[str, Any]) -> bool:
    """`to_responses_tool(definition)`: the `tools=` entry of the Responses API, one level flatter than Chat's, and
    strict unless it says `"strict": false`."""

    async def test() -> None:
        to_responses_tool = answer(namespace, "to_responses_tool")
        for definition in [clock_tool(), *file_tools(Workspace("."))]:
            mine = to_responses_tool(definition)
            expect(isinstance(mine, dict) and mine.get("type") == "function",
                   'the Responses API tool is a dict with "type": "function" at its top level.')
            expect("function" not in mine, 'there is no nested "function" object in the Responses API: name, '
                                           "description and parameters sit beside type.")
            request = {"model": "m", "input": "hi", "tools": [mine]}
            try:
                check_responses(request)
            except ApiError as refused:  # what the Responses API answers, e.g. a tool strict by default
                hint = ' (a tool without "strict" is strict here: say "strict": false when it is not)'
                raise CheckFailed(f"for {definition.name}, the API refuses your tool with HTTP 400: {refused.message}"
                                  + (hint if "strict" not in mine else "")) from None
            chat = to_chat_request(request)["tools"][0]
            expect(chat == definition.to_openai(), f"for {definition.name}, the server reads your tool as {chat}, "
                                                   f"not as the Chat Completions tool {definition.to_openai()}.")

    return await run_check("Exercise 12.1: a tool for the Responses API", test)


async def check_exercise_12_2(namespace: Mapping[str, Any]) -> bool:
    """`from_tool_use(block)`: an Anthropic `tool_use` block as the Chat Completions tool call it came from."""

    async def test() -> None:
        from_tool_use = answer(namespace, "from_tool_use")
        calls = [{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.txt"}'}},
                 {"id": "toolu_2", "type": "function",
                  "function": {"name": "get_current_time", "arguments": '{"timezone": "Asia/Tokyo"}'}}]
        _, [assistant] = anthropic_messages([{"role": "assistant", "content": None, "tool_calls": calls}])
        for block, call in zip(assistant["content"], calls, strict=True):
            mine = from_tool_use(block)
            expect(isinstance(mine, dict) and mine.get("type") == "function" and isinstance(mine.get("function"), dict),
                   'return {"id": ..., "type": "function", "function": {"name": ..., "arguments": ...}}.')
            expect(mine.get("id") == call["id"], "the call's id is the block's id: the tool_result answers it by that id.")
            arguments = mine["function"].get("arguments")
            expect(isinstance(arguments, str), "arguments is JSON text in Chat Completions (json.dumps the block's "
                                               f"input), got {type(arguments).__name__}.")
            expect(json.loads(arguments) == block["input"] and mine["function"].get("name") == call["function"]["name"],
                   f"{mine} does not carry the block's name and input.")

    return await run_check("Exercise 12.2: a tool_use block read back", test)
