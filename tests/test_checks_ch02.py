import copy
import json

import pytest

from agentkit.checks import ch02

TEMPERATURE_TOOL = {
    "type": "function",
    "function": {
        "name": "celsius_to_fahrenheit",
        "description": "Convert a temperature from degrees Celsius to degrees Fahrenheit.",
        "parameters": {
            "type": "object",
            "properties": {"celsius": {"type": "number", "description": "Temperature in degrees Celsius."}},
            "required": ["celsius"],
            "additionalProperties": False,
        },
    },
}


async def answer_tool_calls(message, handlers):
    return [
        {"role": "tool", "tool_call_id": call.id,
         "content": await handlers[call.function.name](json.loads(call.function.arguments))}
        for call in message.tool_calls
    ]


def last_line(capsys) -> str:
    return capsys.readouterr().out.strip().splitlines()[-1]


def changed(**function_fields):
    tool = copy.deepcopy(TEMPERATURE_TOOL)
    tool["function"].update(function_fields)
    return tool


@pytest.mark.anyio
async def test_2_1_passes_with_a_right_schema(capsys):
    assert await ch02.check_exercise_2_1({"temperature_tool": TEMPERATURE_TOOL}) is True
    assert last_line(capsys) == "[pass] Exercise 2.1: a schema the model can call"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool", "hint"),
    [
        (TEMPERATURE_TOOL["function"], 'the tool is a dict {"type": "function", "function": {...}}.'),
        (changed(name="to_fahrenheit"), "function.name is 'to_fahrenheit'; it should be 'celsius_to_fahrenheit'."),
        (changed(description=""), "write a description"),
        (changed(parameters={"type": "object", "properties": {"celsius": {"type": "float"}}}),
         "parameters is not a valid JSON Schema"),
        (changed(parameters={"type": "object", "properties": {"celsius": {"type": "string"}}, "required": ["celsius"]}),
         'properties.celsius should be {"type": "number", ...}.'),
        (changed(parameters={"type": "object", "properties": {"celsius": {"type": "number"}}}),
         'list "celsius" in "required"'),
    ],
)
async def test_2_1_fails_with_a_hint(capsys, tool, hint):
    assert await ch02.check_exercise_2_1({"temperature_tool": tool}) is False
    line = last_line(capsys)
    assert line.startswith("[fail] Exercise 2.1") and hint in line


@pytest.mark.anyio
async def test_2_2_passes_when_every_call_is_answered_by_id(capsys):
    assert await ch02.check_exercise_2_2({"answer_tool_calls": answer_tool_calls}) is True
    assert last_line(capsys) == "[pass] Exercise 2.2: answer every tool call"


@pytest.mark.anyio
async def test_2_2_fails_when_only_the_first_call_is_answered(capsys):
    async def first_only(message, handlers):
        return (await answer_tool_calls(message, handlers))[:1]

    assert await ch02.check_exercise_2_2({"answer_tool_calls": first_only}) is False
    assert "the model made 3 calls, so return a list of 3 messages" in last_line(capsys)


@pytest.mark.anyio
async def test_2_2_fails_when_the_ids_are_swapped(capsys):
    async def swapped(message, handlers):
        replies = await answer_tool_calls(message, handlers)
        replies[0]["tool_call_id"], replies[1]["tool_call_id"] = replies[1]["tool_call_id"], replies[0]["tool_call_id"]
        return replies

    assert await ch02.check_exercise_2_2({"answer_tool_calls": swapped}) is False
    assert "'content': '12:00 in Asia/Tokyo'}, got {'role': 'tool', 'tool_call_id'" in last_line(capsys)


@pytest.mark.anyio
async def test_2_2_accepts_any_order_since_ids_pair_them(capsys):
    async def reversed_order(message, handlers):
        return (await answer_tool_calls(message, handlers))[::-1]

    assert await ch02.check_exercise_2_2({"answer_tool_calls": reversed_order}) is True


@pytest.mark.anyio
async def test_2_2_fails_without_the_tool_call_id(capsys):
    async def no_ids(message, handlers):
        return [{key: value for key, value in reply.items() if key != "tool_call_id"}
                for reply in await answer_tool_calls(message, handlers)]

    assert await ch02.check_exercise_2_2({"answer_tool_calls": no_ids}) is False
    assert "got no message with its id" in last_line(capsys)


@pytest.mark.anyio
async def test_2_2_says_todo_for_the_stub(capsys):
    async def stub(message, handlers):
        raise NotImplementedError

    assert await ch02.check_exercise_2_2({"answer_tool_calls": stub}) is False
    assert last_line(capsys).startswith("[todo] Exercise 2.2")


@pytest.mark.anyio
async def test_checks_say_todo_when_the_answer_is_not_defined_yet(capsys):
    assert await ch02.check_exercise_2_1({}) is False
    assert last_line(capsys).startswith("[todo] Exercise 2.1")
    assert await ch02.check_exercise_2_2({"temperature_tool": TEMPERATURE_TOOL}) is False
    assert last_line(capsys).startswith("[todo] Exercise 2.2")


@pytest.mark.anyio
@pytest.mark.parametrize("habit", ["one_call", "clarify", "arithmetic"])
async def test_checks_judge_the_learners_code_not_the_models_habits(capsys, monkeypatch, habit):
    # One call per reply, a question back, the sum done without the tool: a right answer passes under each.
    from agentkit.offline import ScriptedModel, offline_client, variant

    model = ScriptedModel(["30 °C is 86 °F."] * 3) if habit == "arithmetic" else variant(habit)
    monkeypatch.setattr(ch02, "offline_client", lambda given=None, **options: offline_client(given or model, **options))
    assert await ch02.check_exercise_2_1({"temperature_tool": TEMPERATURE_TOOL}) is True, capsys.readouterr().out
    assert await ch02.check_exercise_2_2({"answer_tool_calls": answer_tool_calls}) is True, capsys.readouterr().out


# Exercise 2.3: calls left in the text

def calls_in_text(text, tools):
    offered = {tool["function"]["name"] for tool in tools}
    calls = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            return []
        if not isinstance(item, dict) or item.get("name") not in offered or not isinstance(item.get("arguments"), dict):
            return []
        calls.append((item["name"], item["arguments"]))
    return calls


@pytest.mark.anyio
async def test_2_3_passes_the_reference_solution(capsys):
    assert await ch02.check_exercise_2_3({"calls_in_text": calls_in_text})
    assert "[pass]" in last_line(capsys)


def any_json_line(text, tools):  # recovers a call from any line that parses, offered or not, prose or not
    found = []
    for line in text.splitlines():
        try:
            item = json.loads(line)
            found.append((item["name"], item["arguments"]))
        except (ValueError, KeyError, TypeError):
            pass
    return found


def raises_on_broken_json(text, tools):  # right, except that text which is not JSON raises
    items = [json.loads(line) for line in text.splitlines() if line.strip()]
    offered = {tool["function"]["name"] for tool in tools}
    if all(isinstance(i, dict) and i.get("name") in offered and isinstance(i.get("arguments"), dict) for i in items):
        return [(item["name"], item["arguments"]) for item in items]
    return []


@pytest.mark.anyio
@pytest.mark.parametrize(("wrong", "hint"), [
    (any_json_line, "bash was not offered: no call"),
    (raises_on_broken_json, "raised"),
    (lambda text, tools: [], "one call on one line"),
])
async def test_2_3_names_the_mistake(capsys, wrong, hint):
    assert not await ch02.check_exercise_2_3({"calls_in_text": wrong})
    line = last_line(capsys)
    assert "[fail]" in line and hint in line


@pytest.mark.anyio
async def test_2_3_not_done_yet(capsys):
    assert not await ch02.check_exercise_2_3({})
    assert "[todo]" in last_line(capsys)
