"""`execute_tool`: every way model output can be wrong, answered with the exact text the model will read."""

import asyncio
import json
import logging
from typing import Annotated, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from agentkit.calls import ToolCall
from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.dispatcher import ToolResult, execute_tool, tool_message
from agentkit.tools.registry import build_registry
from agentkit.tools.schema import tool


@tool
def get_time(timezone: str, format: Literal["iso", "human"] = "iso", precision: int | None = None) -> str:
    """Current time in a time zone.

    Args:
        timezone: IANA time zone name.
        format: How to write the time.
        precision: Digits after the seconds.
    """
    return f"time in {timezone} as {format}"


@tool
def read_note(path: str) -> str:
    """Read a note.

    Args:
        path: Note to read.
    """
    raise ToolError(f"no note at '{path}'; existing notes: a.txt, b.txt")


@tool
def divide(a: float, b: float) -> float:
    """Divide a by b.

    Args:
        a: Dividend.
        b: Divisor.
    """
    return a / b  # the bug on purpose: b == 0 is not handled


REGISTRY = build_registry([get_time, read_note, divide])


def call(name: str, raw_arguments: str, registry=REGISTRY) -> ToolResult:
    return asyncio.run(execute_tool(registry, ToolCall.parse("", name, raw_arguments)))


def test_a_good_call_returns_the_handler_text():
    assert call("get_time", '{"timezone": "Asia/Tokyo"}') == ToolResult("time in Asia/Tokyo as iso")


@pytest.mark.parametrize("raw", ["", "   ", "{}"])
def test_no_arguments_counts_as_an_empty_object(raw):
    assert call("get_time", raw).content == (
        "Error: arguments for 'get_time' do not match its parameters (1 problem):\n"
        "- missing required argument: 'timezone'"
    )


def test_unknown_tool_lists_the_available_ones_sorted():
    result = call("get_weather", "{}")
    assert result == ToolResult("Error: Unknown tool 'get_weather'; available tools: divide, get_time, read_note",
                                is_error=True)
    assert call("x", "{}", registry={}).content == "Error: Unknown tool 'x'; available tools: (none)"


def test_arguments_that_are_not_json():
    result = call("get_time", "{timezone: Asia/Tokyo}")
    assert result.is_error
    assert result.content == (
        "Error: arguments for 'get_time' are not valid JSON (Expecting property name enclosed in double quotes"
        ": line 1 column 2). Send them again as one JSON object with double-quoted keys; expected keys: "
        "timezone (required), format, precision."
    )


def test_json_that_is_not_an_object():
    assert call("get_time", '["Asia/Tokyo"]').content == (
        "Error: arguments for 'get_time' must be a JSON object like {\"key\": value}, got array [\"Asia/Tokyo\"]; "
        "expected keys: timezone (required), format, precision."
    )
    assert call("get_time", '"Asia/Tokyo"').content.startswith(
        "Error: arguments for 'get_time' must be a JSON object like {\"key\": value}, got string \"Asia/Tokyo\";"
    )


def test_every_schema_problem_in_one_message():
    result = call("get_time", '{"tz": "Asia/Tokyo", "format": "unix", "precision": "3"}')
    assert result.is_error and result.error is None
    assert result.content == (
        "Error: arguments for 'get_time' do not match its parameters (4 problems):\n"
        "- missing required argument: 'timezone'\n"
        "- unexpected argument: 'tz'; valid arguments: timezone, format, precision\n"
        "- argument 'format' is \"unix\"; should be one of: \"iso\", \"human\"\n"
        "- argument 'precision' should be of type integer or null, got string \"3\""
    )


def test_wrong_type_and_several_missing_keys():
    assert call("divide", '{}').content == (
        "Error: arguments for 'divide' do not match its parameters (1 problem):\n"
        "- missing required arguments: 'a', 'b'"
    )
    assert call("divide", '{"a": true, "b": null}').content == (
        "Error: arguments for 'divide' do not match its parameters (2 problems):\n"
        "- argument 'a' should be of type number, got boolean true\n"
        "- argument 'b' should be of type number, got null"
    )
    assert call("divide", "null").content == (
        "Error: arguments for 'divide' must be a JSON object like {\"key\": value}, got null; "
        "expected keys: a (required), b (required)."
    )


@tool
def page(limit: Annotated[int, Field(ge=1)] | None = None, unit: Literal["lines", "bytes"] | None = None) -> str:
    """Show a page.

    Args:
        limit: Lines to show at most.
        unit: What limit counts.
    """
    return "page"


@pytest.mark.parametrize(("arguments", "problem"), [
    ({"limit": 0}, "argument 'limit': 0 is less than the minimum of 1"),
    ({"unit": "words"}, "argument 'unit' is \"words\"; should be one of: \"lines\", \"bytes\""),
    ({"limit": "3"}, "argument 'limit' should be of type integer or null, got string \"3\""),
])
def test_an_optional_value_of_the_right_type_is_told_what_is_wrong_with_it_not_its_type(arguments, problem):
    # `int | None` is a choice of types: a 0 is an integer, so the message is about the minimum, not the type.
    result = asyncio.run(execute_tool(build_registry([page]), ToolCall.parse("", "page", json.dumps(arguments))))
    assert result.content == f"Error: arguments for 'page' do not match its parameters (1 problem):\n- {problem}"


def test_a_huge_bad_value_is_not_repeated_in_full():
    result = call("get_time", json.dumps({"timezone": ["x" * 10_000]}))
    assert len(result.content) < 300
    assert result.content.endswith('got array ["' + "x" * 58 + "… (10004 characters)")  # 60 characters of the value


def test_tool_error_is_the_models_to_fix():
    result = call("read_note", '{"path": "c.txt"}')
    assert result.content == "Error: no note at 'c.txt'; existing notes: a.txt, b.txt"
    assert result.is_error and isinstance(result.error, ToolError)


def test_a_bug_is_logged_with_its_traceback_and_reported_as_the_tools_fault(caplog):
    with caplog.at_level(logging.ERROR, logger="agentkit.tools"):
        result = call("divide", '{"a": 1, "b": 0}')
    assert result.content == (
        "Error: tool 'divide' failed with an internal error (ZeroDivisionError). This is a bug in the tool, "
        "not a mistake in your call; calling it again will not help. Tell the user the tool is broken."
    )
    assert result.is_error and isinstance(result.error, ZeroDivisionError)
    [record] = caplog.records
    assert record.name == "agentkit.tools"
    # The values the function was called with: its model made floats of the model's integers.
    assert record.getMessage() == """Bug in tool 'divide', called with arguments {"a": 1.0, "b": 0.0}"""
    assert record.exc_info[0] is ZeroDivisionError  # the traceback goes to the developer


def test_a_handler_that_does_not_return_a_string_is_a_bug(caplog):
    async def returns_int(arguments: dict) -> str:
        return 42

    registry = build_registry([ToolDefinition("n", "d", {"type": "object"}, returns_int)])
    with caplog.at_level(logging.ERROR, logger="agentkit.tools"):
        result = call("n", "{}", registry)
    assert result.content.startswith("Error: tool 'n' failed with an internal error (TypeError). This is a bug")
    assert str(result.error) == "handler returned int, but a handler must return str"


def test_cancellation_is_not_swallowed():
    async def cancelled(arguments: dict) -> str:
        raise asyncio.CancelledError

    registry = build_registry([ToolDefinition("c", "d", {"type": "object"}, cancelled)])
    with pytest.raises(asyncio.CancelledError):
        call("c", "{}", registry)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=10,
)
argument_objects = st.fixed_dictionaries(
    {}, optional={"timezone": json_values, "format": json_values, "precision": json_values,
                  "a": json_values, "b": json_values, "path": json_values},
).map(json.dumps)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(name=st.sampled_from(["get_time", "read_note", "divide"]) | st.text(max_size=20) | json_values,
       raw=st.text(max_size=200) | json_values.map(json.dumps) | argument_objects | argument_objects.map(json.loads)
       | json_values | st.binary(max_size=20))
def test_no_model_output_raises_out_of_the_dispatcher(name, raw):
    logging.getLogger("agentkit.tools").disabled = True  # the divide bug is expected here; keep the output quiet
    try:
        result = call(name, raw)
    finally:
        logging.getLogger("agentkit.tools").disabled = False
    assert isinstance(result, ToolResult) and isinstance(result.content, str)
    assert result.is_error == result.content.startswith("Error: ")


@pytest.mark.parametrize("raw", ["[" * 100_000, '{"timezone": ' + "[" * 900 + "]" * 900 + "}", "\ud800", "NaN"])
def test_pathological_inputs(raw):
    result = call("get_time", raw)
    assert result.is_error and result.content.startswith("Error: arguments for 'get_time' ")


# Arguments as callers other than the Chat Completions API pass them

@pytest.mark.parametrize(("arguments", "content"), [
    ({"timezone": "Asia/Tokyo"}, "time in Asia/Tokyo as iso"),
    ({"timezone": "Asia/Tokyo", "format": "human"}, "time in Asia/Tokyo as human"),
    ({}, "Error: arguments for 'get_time' do not match its parameters (1 problem):\n"
         "- missing required argument: 'timezone'"),
    ({"timezone": 3}, "Error: arguments for 'get_time' do not match its parameters (1 problem):\n"
                      "- argument 'timezone' should be of type string, got integer 3"),
    ({"timezone": "UTC", (1, 2): "tuple key"},
     "Error: arguments for 'get_time' are a dict that is not JSON data (keys must be str, int, float, bool or None, "
     "not tuple); expected keys: timezone (required), format, precision."),
    ({"timezone": {1, 2}}, "Error: arguments for 'get_time' are a dict that is not JSON data (Object of type set is "
                           "not JSON serializable); expected keys: timezone (required), format, precision."),
], ids=["good", "good with option", "empty", "wrong type", "tuple key", "set value"])
def test_a_dict_is_checked_like_parsed_json(arguments, content):
    assert call("get_time", arguments).content == content


@pytest.mark.parametrize(("arguments", "got"), [
    (5, "int 5"),
    (None, "None"),
    (["Asia/Tokyo"], "list ['Asia/Tokyo']"),
    (b'{"timezone": "UTC"}', """bytes b'{"timezone": "UTC"}'"""),
    (2.5, "float 2.5"),
    (("UTC",), "tuple ('UTC',)"),
], ids=["int", "None", "list", "bytes", "float", "tuple"])
def test_arguments_neither_text_nor_dict_are_refused_naming_the_type(arguments, got):
    result = call("get_time", arguments)
    assert result.is_error and result.content == (
        "Error: arguments for 'get_time' must be a JSON object, as text (str) or already parsed (dict), "
        f"got {got}; expected keys: timezone (required), format, precision."
    )


def test_a_dict_is_not_changed_by_the_call():
    arguments = {"timezone": "UTC"}
    assert call("get_time", arguments).content == "time in UTC as iso"
    assert arguments == {"timezone": "UTC"}


# What the model wrote, echoed in an error: capped, with its real length

LONG = "x" * 10_000
CAPPED = "x" * 60 + "… (10000 characters)"


@pytest.mark.parametrize(("name", "raw", "expected"), [
    (LONG, "{}", f"Error: Unknown tool '{CAPPED}'; available tools: divide, get_time, read_note"),
    (None, "{}", "Error: Unknown tool name null (a tool name is a string); available tools: divide, get_time, read_note"),
    (["get_time"], "{}", "Error: Unknown tool name array [\"get_time\"] (a tool name is a string); "
                         "available tools: divide, get_time, read_note"),
    ("get_time", json.dumps({LONG: 1, "timezone": "UTC"}),
     f"Error: arguments for 'get_time' do not match its parameters (1 problem):\n"
     f"- unexpected argument: '{CAPPED}'; valid arguments: timezone, format, precision"),
    ("get_time", json.dumps({"timezone": "UTC", "format": LONG}),
     "Error: arguments for 'get_time' do not match its parameters (1 problem):\n"
     f"- argument 'format' is \"{'x' * 59}… (10002 characters); should be one of: \"iso\", \"human\""),
    ("get_time", json.dumps({"timezone": "UTC", **{f"k{i:02}": 0 for i in range(25)}}),
     "Error: arguments for 'get_time' do not match its parameters (1 problem):\n"
     "- unexpected arguments: 'k00', 'k01', 'k02', 'k03', 'k04', 'k05', 'k06', 'k07', 'k08', 'k09' and 15 more; "
     "valid arguments: timezone, format, precision"),
    ("get_time", 12345, "Error: arguments for 'get_time' must be a JSON object, as text (str) or already parsed (dict), "
                        "got int 12345; expected keys: timezone (required), format, precision."),
    ("get_time", [LONG], "Error: arguments for 'get_time' must be a JSON object, as text (str) or already parsed "
                         f"(dict), got list ['{'x' * 58}… (10004 characters); expected keys: timezone (required), "
                         "format, precision."),
], ids=["long name", "None name", "list name", "long key", "long enum value", "many keys", "int", "long list"])
def test_model_text_in_an_error_is_capped_with_its_length(name, raw, expected):
    result = call(name, raw)
    assert result.is_error and result.content == expected


# The JSON decoder's own position words are not doubled with ours

@pytest.mark.parametrize(("raw", "reason"), [
    ('{"timezone": "Asia', "Unterminated string starting at: line 1 column 14"),
    ('{"timezone": "Asia/Tokyo"} x', "Extra data: line 1 column 28"),
    ('{"timezone":\n "\\q"}', "Invalid \\escape: line 2 column 3"),
    ("{'timezone': 'UTC'}", "Expecting property name enclosed in double quotes: line 1 column 2"),
], ids=["unterminated", "extra data", "bad escape", "single quotes"])
def test_json_errors_say_where_once(raw, reason):
    content = call("get_time", raw).content
    assert f"are not valid JSON ({reason})." in content
    assert "at at" not in content


def test_a_tool_message_never_carries_text_json_cannot_encode():
    # A file name with non-UTF-8 bytes reaches Python as lone surrogates (surrogateescape).
    message = tool_message("call_1", ToolResult("names: caf\udce9.txt, ok.txt"))
    assert message["content"] == "names: caf\ufffd.txt, ok.txt"
    json.dumps(message, ensure_ascii=False).encode()  # would raise UnicodeEncodeError with the surrogate


def test_every_failure_is_made_by_one_constructor():
    assert ToolResult.failure("no such tool") == ToolResult("Error: no such tool", is_error=True)
    bug = ZeroDivisionError()
    assert ToolResult.failure("broken", bug).error is bug


# One validator per tool (issue 35): a tool written by hand is checked by jsonschema, a @tool by its pydantic model

class Stop(BaseModel):
    city: str
    nights: int


got: list = []


@tool
def plan(stops: list[Stop], budget: int, note: Annotated[str, Field(max_length=20)] = "") -> str:
    """Plan a trip.

    Args:
        stops: Where, and for how long.
        budget: In euros.
        note: Anything else.
    """
    got.append((stops, budget))
    return f"{len(stops)} stops"


async def echo_arguments(arguments: dict) -> str:
    got.append(arguments)
    return json.dumps(arguments)


BY_HAND = ToolDefinition("by_hand", "A tool written by hand.", {
    "type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"], "additionalProperties": False,
}, echo_arguments)
ONE_EACH = build_registry([plan, BY_HAND])


def test_a_tool_call_is_validated_once_by_its_own_model_and_never_by_jsonschema(monkeypatch):
    from agentkit.hardening.arguments import ArgumentsValidator

    checks, validate = [], plan.validator.model.model_validate_json
    monkeypatch.setattr(plan.validator.model, "model_validate_json", lambda *a, **kw: checks.append(a) or validate(*a, **kw))
    monkeypatch.setattr(ArgumentsValidator, "problems", lambda *args: pytest.fail("jsonschema checked a @tool's call"))
    got.clear()
    result = call("plan", '{"stops": [{"city": "Lyon", "nights": 2.0}], "budget": 300.0}', registry=ONE_EACH)
    assert result.content == "1 stops" and len(checks) == 1
    # ... and its model made the values: a nested object its model, 5.0-style whole numbers integers
    assert got == [([Stop(city="Lyon", nights=2)], 300)] and type(got[0][1]) is int


def test_a_tool_keeps_what_its_json_schema_refuses_refused_in_the_same_words():
    # The model is strict where JSON Schema is: a number in a string is not a number (a lax pydantic would take it).
    assert call("plan", '{"stops": [], "budget": "300"}', registry=ONE_EACH).content == (
        "Error: arguments for 'plan' do not match its parameters (1 problem):\n"
        "- argument 'budget' should be of type integer, got string \"300\"")
    assert call("plan", '{"stops": [{"city": "Lyon", "nights": 2, "x": 1}], "budget": 1.5}', registry=ONE_EACH).content == (
        "Error: arguments for 'plan' do not match its parameters (2 problems):\n"
        "- argument 'budget' should be of type integer, got number 1.5\n"
        "- unexpected argument: 'stops[0].x'; valid keys in argument 'stops[0]': city, nights")


def test_what_only_the_model_refuses_is_told_in_its_words():
    lone = "holds a lone surrogate (half of a character, such as \\ud800), which is not text; send real characters"
    content = call("plan", '{"stops": [{"city": "Ly\\udcffon", "nights": 1}], "budget": 1}', registry=ONE_EACH).content
    assert content == f"Error: arguments for 'plan' do not match its parameters (1 problem):\n- stops.0.city: {lone}"


def test_a_tool_written_by_hand_is_checked_by_jsonschema_and_gets_the_json_values(monkeypatch):
    got.clear()
    assert call("by_hand", '{"count": 5.0}', registry=ONE_EACH).content == '{"count": 5.0}'  # JSON Schema: an integer
    assert got == [{"count": 5.0}]
    assert call("by_hand", '{"count": "5"}', registry=ONE_EACH).content == (
        "Error: arguments for 'by_hand' do not match its parameters (1 problem):\n"
        "- argument 'count' should be of type integer, got string \"5\"")
