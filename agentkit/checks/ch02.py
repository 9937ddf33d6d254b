"""Checks for chapter 02's exercises: native tool calling with the openai SDK. Each takes the notebook's `globals()`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator, SchemaError

from agentkit.checks import answer, expect, run_check_async
from agentkit.checks.ch01 import TEMPERATURE_QUESTION
from agentkit.offline import offline_client
from agentkit.tools.clock import clock_tool

TWO_CITIES_QUESTION = "What time is it in Tokyo and in Paris?"


async def check_exercise_2_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 2.1: `temperature_tool`, a `tools=` entry for celsius_to_fahrenheit that the (offline) model calls."""

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
        # The offline model, whatever .env says: the check must give the same verdict on every machine.
        response = await offline_client().chat.completions.create(
            model="offline", messages=[{"role": "user", "content": TEMPERATURE_QUESTION}],
            tools=[clock_tool().to_openai(), temperature_tool])
        calls = response.choices[0].message.tool_calls or []
        names = [call.function.name for call in calls]
        expect(names == ["celsius_to_fahrenheit"],
               f"asked {TEMPERATURE_QUESTION!r}, the model called {names or 'no tool'}.")
        arguments = json.loads(calls[0].function.arguments)
        expect(arguments == {"celsius": 30}, f'the model sent {arguments}; expected {{"celsius": 30}}.')

    return await run_check_async("Exercise 2.1: a schema the model can call", test)


async def check_exercise_2_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 2.2: `answer_tool_calls`, one `role="tool"` message per call, paired by `tool_call_id`."""

    async def fake_clock(arguments: dict) -> str:
        return f"12:00 in {arguments.get('timezone', 'UTC')}"

    async def test() -> None:
        answer_tool_calls = answer(namespace, "answer_tool_calls")
        client = offline_client()
        question = [{"role": "user", "content": TWO_CITIES_QUESTION}]
        tools = [clock_tool().to_openai()]
        message = (await client.chat.completions.create(model="offline", messages=question, tools=tools)).choices[0].message
        replies = await answer_tool_calls(message, {"get_current_time": fake_clock})
        expect(isinstance(replies, list) and len(replies) == 2,
               f"the model made 2 calls, so return a list of 2 messages (got {replies!r}).")
        by_id = {reply.get("tool_call_id"): reply for reply in replies if isinstance(reply, dict)}
        for call in message.tool_calls:
            # The API pairs results with calls by id, not by position: any order is fine.
            expected = {"role": "tool", "tool_call_id": call.id,
                        "content": await fake_clock(json.loads(call.function.arguments))}
            reply = by_id.get(call.id, {})
            got = {key: reply.get(key) for key in expected}
            expect(got == expected, f"call {call.id} should be answered by {expected}, got {reply or 'no message with its id'}.")

    return await run_check_async("Exercise 2.2: answer every tool call", test)
