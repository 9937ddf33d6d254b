"""Checks for chapter 02's exercises: native tool calling with the openai SDK. Each takes the notebook's `globals()`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agentkit.checks import answer, expect, phrase, run_check
from agentkit.hardening.arguments import Draft202012Validator, SchemaError
from agentkit.offline import ScriptedModel, call, offline_client
from agentkit.tools.clock import clock_tool

TWO_CITIES_QUESTION = "What time is it in Tokyo and in Paris?"


async def check_exercise_2_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 2.1: `temperature_tool`, a `tools=` entry for celsius_to_fahrenheit whose schema fits its arguments."""

    async def test() -> None:
        temperature_tool = answer(namespace, "temperature_tool")
        expect(isinstance(temperature_tool, dict) and temperature_tool.get("type") == "function",
               'the tool is a dict {"type": "function", "function": {...}}.')
        function = temperature_tool.get("function") or {}
        expect(function.get("name") == "celsius_to_fahrenheit",
               f"function.name is {function.get('name')!r}; it should be 'celsius_to_fahrenheit'.")
        expect(isinstance(function.get("description"), str) and function["description"].strip(),
               "write a description: it is how the model decides when to call the tool.")
        parameters = function.get("parameters") or {}
        try:
            Draft202012Validator.check_schema(parameters)
        except SchemaError as error:
            expect(False, f"parameters is not a valid JSON Schema: {error.message}")
        expect(parameters.get("type") == "object", 'parameters should be {"type": "object", "properties": {...}}.')
        celsius = (parameters.get("properties") or {}).get("celsius") or {}
        expect(celsius.get("type") in ("number", "integer"), 'properties.celsius should be {"type": "number", ...}.')
        expect("celsius" in parameters.get("required", []), 'list "celsius" in "required": the tool needs it.')
        # The schema is checked on the arguments a model would send, not on what one model chooses to do.
        validator = Draft202012Validator(parameters)
        for good in ({"celsius": 30}, {"celsius": -40.5}):
            expect(validator.is_valid(good), f"the arguments {good} do not fit your parameters schema; they should.")
        for bad in ({}, {"celsius": "thirty"}):
            expect(not validator.is_valid(bad), f"the arguments {bad} fit your parameters schema; they should not "
                                                "(celsius is a required number).")
    return await run_check("Exercise 2.1: a schema the model can call", test)


async def check_exercise_2_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 2.2: `answer_tool_calls`, one `role="tool"` message per call, paired by `tool_call_id`."""

    async def fake_clock(arguments: dict) -> str:
        return f"12:00 in {arguments.get('timezone', 'UTC')}"

    async def test() -> None:
        answer_tool_calls = answer(namespace, "answer_tool_calls")
        # A scripted reply with three calls: the check tests the student's code on calls it knows.
        zones = ("Asia/Tokyo", "Europe/Paris", "America/Lima")
        client = offline_client(ScriptedModel([[call("get_current_time", timezone=zone) for zone in zones]]))
        question = [{"role": "user", "content": TWO_CITIES_QUESTION}]
        message = (await client.chat.completions.create(model="offline", messages=question,
                                                        tools=[clock_tool().to_openai()])).choices[0].message
        replies = await answer_tool_calls(message, {"get_current_time": fake_clock})
        expect(isinstance(replies, list) and len(replies) == len(zones),
               f"the model made {len(zones)} calls, so return a list of {len(zones)} messages (got {replies!r}).")
        by_id = {reply.get("tool_call_id"): reply for reply in replies if isinstance(reply, dict)}
        for made in message.tool_calls:
            # The API pairs results with calls by id, not by position: any order is fine.
            expected = {"role": "tool", "tool_call_id": made.id,
                        "content": await fake_clock(json.loads(made.function.arguments))}
            reply = by_id.get(made.id, {})
            got = {key: reply.get(key) for key in expected}
            expect(got == expected,
                   f"call {made.id} should be answered by {expected}, got {reply or phrase('no message with its id')}.")

    return await run_check("Exercise 2.2: answer every tool call", test)


CLOCK_AND_ADD = [clock_tool().to_openai(), {"type": "function", "function": {
    "name": "add", "description": "Add two numbers.",
    "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}}}]
TOKYO = '{"name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}}'
TEXT_CASES = [  # (what a local server left in `content`, the calls to read back, why)
    (TOKYO, [("get_current_time", {"timezone": "Asia/Tokyo"})], phrase("one call on one line")),
    (TOKYO + '\n\n{"name": "add", "arguments": {"a": 1, "b": 2}}',
     [("get_current_time", {"timezone": "Asia/Tokyo"}), ("add", {"a": 1, "b": 2})], phrase("two calls, a blank line between")),
    ('{"name": "bash", "arguments": {"command": "rm -rf ~"}}', [], phrase("bash was not offered: no call")),
    (TOKYO + '\n{"name": "bash", "arguments": {"command": "ls"}}', [],
     phrase("one line names a tool not offered: no call at all")),
    (f"A tool call is written like this:\n{TOKYO}", [], phrase("prose about JSON is an answer, not a call")),
    ("It is 10:42 in Tokyo.", [], phrase("a plain answer")),
    ('{"name": "get_current_time", "arguments": {', [], phrase("JSON that does not parse (and must not raise)")),
    ('["get_current_time"]', [], phrase("JSON that is not an object")),
    ('{"name": "get_current_time", "arguments": "Asia/Tokyo"}', [], phrase("arguments that are not an object")),
    ("", [], phrase("no text")),
]


async def check_exercise_2_3(namespace: Mapping[str, Any]) -> bool:
    """Exercise 2.3: `calls_in_text`, the calls a local server left in the text, offered tools only, all or nothing."""

    async def test() -> None:
        calls_in_text = answer(namespace, "calls_in_text")
        for text, expected, why in TEXT_CASES:
            try:
                got = calls_in_text(text, CLOCK_AND_ADD)
            except Exception as error:
                expect(False, f"calls_in_text({text!r}) raised {type(error).__name__}: {error}; return [] for text "
                              f"that is not only calls ({why}).")
            got = [tuple(call) for call in got] if isinstance(got, list) else got
            expect(got == expected, f"calls_in_text({text!r}) returned {got!r}; it should return {expected!r} ({why}).")

    return await run_check("Exercise 2.3: calls left in the text", test)
