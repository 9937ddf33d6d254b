"""Strict schemas (generation, refusals, the dispatcher) and structured outputs through the real SDK, offline and over HTTP."""

import asyncio
import json
from typing import Any, Literal

import openai
import pytest
from pydantic import BaseModel, ValidationError
from typing_extensions import TypedDict

from agentkit.calls import ToolCall
from agentkit.offline import EmittedCall, OfflineServer, ScriptedModel, offline_client
from agentkit.tools import ToolDefinition, ToolDefinitionError, build_registry, execute_tool, tool
from agentkit.tools.strict import strict_problem


class Point(BaseModel):
    x: int
    label: str = "here"


class Span(TypedDict):
    start: int
    end: int


@tool(strict=True)
def every_type(text: str, count: int, ratio: float, flag: bool, unit: Literal["C", "F"], tags: list[str],
               point: Point, span: Span, maybe: int | None = None, scale: float = 1.5, mode: Literal["a", "b"] = "a",
               points: list[Point] = []) -> str:  # noqa: B006 - a default the model never mutates
    """Echo what it got.

    Args:
        text: A string.
        count: An integer.
        ratio: A number.
        flag: A boolean.
        unit: An enum.
        tags: A list.
        point: A nested model.
        span: A TypedDict.
        maybe: An optional integer.
        scale: A number with a default.
        mode: An enum with a default.
        points: A list of models with a default.
    """
    return json.dumps({"maybe": maybe, "scale": scale, "mode": mode, "point": point.model_dump(),
                       "points": [p.model_dump() for p in points]})


def test_every_supported_type_gets_a_strict_schema():
    schema = every_type.parameters
    assert every_type.to_openai()["function"]["strict"] is True
    assert strict_problem(schema) is None
    assert schema["required"] == list(schema["properties"]) and schema["additionalProperties"] is False
    properties = schema["properties"]
    assert properties["maybe"]["type"] == ["integer", "null"]
    assert properties["scale"] == {"type": ["number", "null"],
                                   "description": "A number with a default. Null for the default, 1.5."}
    assert properties["mode"]["enum"] == ["a", "b", None]
    assert properties["points"]["type"] == ["array", "null"]
    for definition in schema["$defs"].values():
        assert definition["additionalProperties"] is False and definition["required"] == list(definition["properties"])
    assert schema["$defs"]["Point"]["properties"]["label"]["type"] == ["string", "null"]


def test_the_dispatcher_checks_a_strict_call_the_way_the_api_does_and_null_means_the_default():
    registry = build_registry([every_type])
    full = {"text": "t", "count": 1, "ratio": 0.5, "flag": True, "unit": "C", "tags": [], "point": {"x": 1, "label": None},
            "span": {"start": 0, "end": 1}, "maybe": None, "scale": None, "mode": None, "points": [{"x": 2, "label": None}]}
    result = asyncio.run(execute_tool(registry, ToolCall.parse("", "every_type", json.dumps(full))))
    assert json.loads(result.content) == {"maybe": None, "scale": 1.5, "mode": "a", "point": {"x": 1, "label": "here"},
                                          "points": [{"x": 2, "label": "here"}]}
    left_out = {k: v for k, v in full.items() if k != "scale"}
    result = asyncio.run(execute_tool(registry, ToolCall.parse("", "every_type", json.dumps(left_out))))
    assert result.is_error and "missing required argument: 'scale'" in result.content
    extra = asyncio.run(execute_tool(registry,
        ToolCall.parse("", "every_type", json.dumps({**full, "point": {"x": 1, "label": None, "y": 2}}))))
    assert extra.is_error and "unexpected argument: 'point.y'" in extra.content


def _define(annotation: Any) -> ToolDefinition:
    def f(value) -> str:
        """Take a value.

        Args:
            value: The value.
        """
        return ""

    f.__annotations__ = {"value": annotation, "return": str}
    return tool(f, strict=True)


@pytest.mark.parametrize(("annotation", "said"), [
    (dict[str, int], "argument 'value' is an object of free keys (a dict)"),
    (dict, "argument 'value' is an object of free keys (a dict)"),
    (Any, "argument 'value' has no type (Any)"),
    (tuple[int, int], "argument 'value' is a tuple"),
    (list[dict[str, str]], "argument 'value' is an object of free keys (a dict)"),
])
def test_what_has_no_strict_form_is_refused_when_the_tool_is_defined(annotation, said):
    with pytest.raises(ToolDefinitionError) as refused:
        _define(annotation)
    assert f"Tool 'f' cannot have a strict schema: {said}" in str(refused.value)
    assert "Or leave strict off" in str(refused.value)


@pytest.mark.parametrize("annotation", [dict[str, int], Any, tuple[int, int]])
def test_the_same_functions_are_fine_without_strict(annotation):
    def f(value) -> str:
        """Take a value.

        Args:
            value: The value.
        """
        return ""

    f.__annotations__ = {"value": annotation, "return": str}
    assert tool(f).strict is False


def test_the_registry_refuses_a_strict_definition_whose_schema_is_not_strict():
    loose = ToolDefinition("loose", "A tool.", {"type": "object", "properties": {"a": {"type": "string"}},
                                               "additionalProperties": False}, handler=None,
                           strict=True)
    with pytest.raises(ValueError, match=r"Tool 'loose' is strict, but its parameters are not a strict schema: "
                                         r"In context=\(\), 'required' is required .* Missing 'a'"):
        build_registry([loose])


# ---- the offline model: strict tools, response_format, parse(), parallel_tool_calls -------------------------


class Contact(BaseModel):
    name: str
    email: str
    city: str | None
    priority: Literal["low", "normal", "urgent"]


ADA = 'Please call back "Ada Lovelace" (ada@example.com) from London, it is urgent.'


def _parse(client, content: str):
    return client.chat.completions.parse(model="offline", messages=[{"role": "user", "content": content}],
                                         response_format=Contact)


def test_parse_fills_a_pydantic_model_through_the_real_sdk_in_process():
    message = asyncio.run(_parse(offline_client(), ADA)).choices[0].message
    assert message.parsed == Contact(name="Ada Lovelace", email="ada@example.com", city="London", priority="urgent")
    assert message.refusal is None


def test_parse_over_http_and_a_refusal_instead_of_made_up_values():
    with OfflineServer() as server:
        client = openai.OpenAI(api_key="x", base_url=server.base_url, max_retries=0)
        message = client.chat.completions.parse(model="offline", messages=[{"role": "user", "content": ADA}],
                                                response_format=Contact).choices[0].message
        assert message.parsed.email == "ada@example.com"
        refused = client.chat.completions.parse(model="offline", response_format=Contact,
                                                messages=[{"role": "user", "content": "What is the capital of France?"}])
    assert refused.choices[0].message.parsed is None
    assert refused.choices[0].message.refusal == "I cannot fill in Contact: the message does not say what email and priority are."


def test_a_schema_that_is_not_strict_may_leave_a_value_out_and_validation_says_so():
    client = offline_client(sync=True)
    schema = Contact.model_json_schema()
    reply = client.chat.completions.create(model="offline", messages=[{"role": "user", "content": "Hello there"}],
                                           response_format={"type": "json_schema",
                                                            "json_schema": {"name": "Contact", "schema": schema}})
    with pytest.raises(ValidationError, match="email"):
        Contact.model_validate_json(reply.choices[0].message.content)


def test_a_strict_schema_the_api_cannot_enforce_is_a_400():
    client = offline_client(sync=True)
    loose = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    with pytest.raises(openai.BadRequestError, match=r"Invalid schema for function 'f': In context=\(\), "
                                                     r"'additionalProperties' is required"):
        client.chat.completions.create(model="offline", messages=[{"role": "user", "content": "hi"}], tools=[
            {"type": "function", "function": {"name": "f", "parameters": loose, "strict": True}}])
    with pytest.raises(openai.BadRequestError, match="must contain the word 'json'"):
        client.chat.completions.create(model="offline", messages=[{"role": "user", "content": "hi"}],
                                       response_format={"type": "json_object"})


def test_strict_tools_get_every_key_with_null_for_what_the_question_does_not_say():
    client = offline_client(sync=True)
    reply = client.chat.completions.create(
        model="offline", messages=[{"role": "user", "content": "Is 'Ada Lovelace' someone you can find?"}],
        tools=[openai.pydantic_function_tool(Contact, name="find_contact", description="Find a contact by name")],
        tool_choice={"type": "function", "function": {"name": "find_contact"}})
    arguments = json.loads(reply.choices[0].message.tool_calls[0].function.arguments)
    assert arguments["name"] == "Ada Lovelace" and arguments["city"] is None


def test_parallel_tool_calls_false_gives_one_call_per_reply():
    client = offline_client(ScriptedModel([[EmittedCall("f"), EmittedCall("g")]] * 2), sync=True)
    tools = [{"type": "function", "function": {"name": n, "parameters": {"type": "object", "properties": {}}}}
             for n in "fg"]
    both = client.chat.completions.create(model="offline", messages=[{"role": "user", "content": "x"}], tools=tools)
    one = client.chat.completions.create(model="offline", messages=[{"role": "user", "content": "x"}], tools=tools,
                                         parallel_tool_calls=False)
    assert len(both.choices[0].message.tool_calls) == 2 and len(one.choices[0].message.tool_calls) == 1


class Meeting(BaseModel):
    title: str
    attendees: list[str]
    day: str | None
    room: str | None


@pytest.mark.parametrize(("message", "expected"), [
    # a list after "with" is the list's: its names are not the title
    ("Plan a design sync with Priya and Tom on Friday",
     Meeting(title="design sync", attendees=["Priya", "Tom"], day="Friday", room=None)),
    # a field's own word before a code ("room B2") gives that field; what the message does not say stays null
    ("Lunch with Sam in room B2", Meeting(title="Lunch", attendees=["Sam"], day=None, room="B2")),
    # a list the message names nothing for is empty, not a reason to refuse
    ("Retro on Monday", Meeting(title="Retro", attendees=[], day="Monday", room=None)),
])
def test_parse_fills_lists_and_leaves_unsaid_optionals_null(message, expected):
    reply = asyncio.run(offline_client().chat.completions.parse(
        model="offline", messages=[{"role": "user", "content": message}], response_format=Meeting))
    assert (reply.choices[0].message.parsed, reply.choices[0].message.refusal) == (expected, None)
