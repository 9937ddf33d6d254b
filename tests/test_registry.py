"""The registry: explicit, checked when built, and the single maker of `tools=` entries and tool messages."""

import dataclasses

import pytest

from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import ToolResult, tool_message
from agentkit.tools.registry import DuplicateToolError, build_registry, openai_tools

OBJECT = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


async def echo(arguments: dict) -> str:
    return arguments["text"]


def make(name: str, parameters: dict = OBJECT) -> ToolDefinition:
    return ToolDefinition(name=name, description=f"The {name} tool.", parameters=parameters, handler=echo)


def test_registry_is_a_dict_of_exactly_the_listed_tools_in_order():
    a, b = make("b_tool"), make("a_tool")
    registry = build_registry([a, b])
    assert type(registry) is dict
    assert list(registry) == ["b_tool", "a_tool"]
    assert registry["a_tool"] is b
    assert build_registry([]) == {}


def test_duplicate_names_are_refused_naming_the_duplicate():
    with pytest.raises(DuplicateToolError) as caught:
        build_registry([make("echo"), make("other"), make("echo")])
    assert str(caught.value) == (
        "Duplicate tool name 'echo': each tool needs its own name, or the model could not say which one it means."
    )
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("name", ["", "has space", "dot.ted", "x" * 65, "naïve", "semi;colon"])
def test_invalid_names_are_refused(name):
    with pytest.raises(ValueError, match=r"^Invalid tool name .*: use 1 to 64 letters, digits, '_' or '-'"):
        build_registry([make(name)])


def test_longest_valid_name_is_accepted():
    assert list(build_registry([make("x" * 64), make("a-b_C9")])) == ["x" * 64, "a-b_C9"]


def test_a_plain_function_is_refused_with_a_hint():
    with pytest.raises(TypeError, match=r"got function 'echo'; decorate a function with @tool, or build"):
        build_registry([echo])
    with pytest.raises(TypeError, match=r"takes ToolDefinition objects, got dict; decorate"):
        build_registry([make("ok").to_openai()])


def test_parameters_must_be_a_valid_object_schema():
    with pytest.raises(ValueError, match=r"^Tool 'bad': parameters is not a valid JSON Schema: "):
        build_registry([make("bad", {"type": "object", "required": "text"})])
    with pytest.raises(ValueError, match=r"^Tool 'bad': parameters must describe an object"):
        build_registry([make("bad", {"type": "string"})])


def test_openai_tools_sends_everything_but_the_handler():
    registry = build_registry([make("echo")])
    assert openai_tools(registry) == [
        {"type": "function", "function": {"name": "echo", "description": "The echo tool.", "parameters": OBJECT}}
    ]


def test_tool_message_answers_one_call():
    assert tool_message("call_1", ToolResult("12:00")) == {"role": "tool", "tool_call_id": "call_1", "content": "12:00"}
    failed = ToolResult("Error: nope", is_error=True, error=ValueError("x"))
    assert tool_message("call_2", failed) == {"role": "tool", "tool_call_id": "call_2", "content": "Error: nope"}


def test_tool_result_is_a_small_frozen_value():
    result = ToolResult("ok")
    assert (result.is_error, result.error) == (False, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.content = "changed"
