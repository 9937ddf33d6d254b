"""The provider's rules that the request types cannot say, in one place, each refused in the provider's words.

`contract.py` checks a request's shape against the SDK's types; what is left is what holds *between* fields or
across messages: every tool call answered before the next turn, names the API accepts, no empty arrays, at most
128 tools, numbers in range, `tool_choice` only with tools, and the schemas `strict` can enforce.
"""

from __future__ import annotations

import json
import re
from typing import Any, NoReturn

from agentkit.offline.lexicon import words
from agentkit.offline.request import ApiError
from agentkit.tools.strict import strict_problem

RULES = words("answers")["contract"]
MAX_TOOLS, MAX_NAME, NAME_PATTERN, NOT_PERMITTED_IN_STRICT = (RULES[key] for key in (
    "max_tools", "max_name", "name_pattern", "not_permitted_in_strict"))
"""At most 128 tools; a function's name 1 to 64 characters matching the API's pattern; JSON Schema keywords a strict
schema cannot use (the model's output cannot be constrained to them as they are written)."""
CHAT_RANGES, RESPONSES_RANGES = ({field: (*bounds, None)[:2] for field, bounds in RULES[table].items()}
                                 for table in ("chat_ranges", "responses_ranges"))
"""field -> (lowest, highest) allowed value, None for no bound; a float bound for a number, an int for an integer."""


def chat_rules(request: dict[str, Any]) -> None:
    """The rules of `POST /v1/chat/completions` beyond its types."""
    _messages(request["messages"])
    functions = _tools(request.get("tools"), "tools", lambda tool: tool.get("function"), ".function")
    for field in ("tool_choice", "parallel_tool_calls"):
        if request.get(field) is not None and not request.get("tools"):
            _refuse("only_with_tools", field, field=field)
    _chosen(request.get("tool_choice"), functions, "tool_choice.function.name")
    _ranges(request, CHAT_RANGES)
    _logprobs(request)
    if len(stop := request.get("stop") or []) > 4 and isinstance(stop, list):
        _array_too_long("stop", 4, len(stop))
    if request.get("stream_options") is not None and not request.get("stream"):
        _refuse("only_with_stream", "stream_options")
    response_format = request.get("response_format") or {}
    if response_format.get("type") == "json_schema":
        _format(response_format["json_schema"], "response_format.json_schema")
    _json_named(response_format, request["messages"], "messages", "response_format")


def responses_rules(request: dict[str, Any]) -> None:
    """The rules of `POST /v1/responses` beyond its types. A function tool is strict unless it says `"strict": false`."""
    items = request["input"] if isinstance(request.get("input"), list) else []
    if isinstance(request.get("input"), list):
        _not_empty(items, "input")
    calls, answered = {}, set()
    for i, item in enumerate(items):
        if item.get("type") == "function_call":
            _name(item["name"], f"input[{i}].name")
            calls[item["call_id"]] = i
        elif item.get("type") == "function_call_output":
            if item["call_id"] not in calls:
                _refuse("no_call", "input", call_id=item["call_id"])
            answered.add(item["call_id"])
    for call_id in calls.keys() - answered:
        _refuse("no_output", "input", call_id=call_id)
    functions = _tools(request.get("tools"), "tools", lambda tool: tool if tool.get("type") == "function" else None,
                       "", strict_by_default=True)
    _chosen(request.get("tool_choice"), functions, "tool_choice.name")
    _ranges(request, RESPONSES_RANGES)
    text_format = (request.get("text") or {}).get("format") or {}
    if text_format.get("type") == "json_schema":
        _format(text_format, "text.format")
    _json_named(text_format, [request.get("instructions"), request.get("input")], "input", "text.format")


def _messages(messages: list[dict[str, Any]]) -> None:
    """Some messages; an assistant message with text or calls, never `tool_calls: []`; every tool message answers a
    call of the assistant message before it, and every call is answered before the conversation goes on. (The API
    writes the last two rules' params as `messages.[i].role`, with a dot, unlike the others.)"""
    _not_empty(messages, "messages")
    opened: list[str] = []  # the calls of the last assistant message
    pending: list[str] = []  # those not answered yet
    for i, message in enumerate([*messages, {"role": "end of messages"}]):
        if message["role"] == "tool":
            if not opened:
                _refuse("tool_first", f"messages.[{i}].role")
            if message["tool_call_id"] not in pending:
                _refuse("unknown_call_id", f"messages.[{i}].tool_call_id", id=message["tool_call_id"])
            pending.remove(message["tool_call_id"])
            continue
        if pending:
            _refuse("unanswered", f"messages.[{i}].role", ids=", ".join(pending))
        if message["role"] == "assistant" and message.get("tool_calls") is not None:
            _not_empty(message["tool_calls"], f"messages[{i}].tool_calls")
        elif message["role"] == "assistant" and message.get("content") is None and not message.get("function_call"):
            _refuse("null_content", f"messages[{i}].content")
        for j, call in enumerate(message.get("tool_calls") or []):
            if call["type"] == "function":
                _name(call["function"]["name"], f"messages[{i}].tool_calls[{j}].function.name")
        opened = [call["id"] for call in message.get("tool_calls") or []]
        pending = list(opened)


def _tools(tools: list[dict[str, Any]] | None, where: str, function_of: Any, inner: str,
           strict_by_default: bool = False) -> set[str]:
    """The names of the offered functions, each name and each strict schema checked; at most 128 tools."""
    if tools is None:
        return set()
    if not strict_by_default:  # the Responses API takes `tools: []` as no tools
        _not_empty(tools, where)
    if len(tools) > MAX_TOOLS:
        _array_too_long(where, MAX_TOOLS, len(tools))
    names = set()
    for i, tool in enumerate(tools):
        function = function_of(tool)
        if function is None:
            _refuse("not_a_function", f"{where}[{i}].type", type=json.dumps(tool.get("type")))
        _name(function["name"], f"{where}[{i}]{inner}.name")
        names.add(function["name"])
        parameters, strict = function.get("parameters"), function.get("strict")
        # A schema that is not an object is refused even when not strict; the same check says so.
        if strict or strict is None and strict_by_default or (parameters or {}).get("type", "object") != "object":
            _strict(parameters or {"type": "object", "properties": {}, "additionalProperties": False, "required": []},
                    f"function '{function['name']}'", f"{where}[{i}]{inner}.parameters", "invalid_function_parameters")
    return names


def _chosen(choice: Any, offered: set[str], where: str) -> None:
    """A function named in `tool_choice` (`where`: its name, one level deeper in Chat Completions) is one offered."""
    if not isinstance(choice, dict) or choice.get("type") != "function":
        return
    _name(name := (choice.get("function") or choice)["name"], where)
    if name not in offered:
        _refuse("unknown_choice", "tool_choice", name=name)


def _format(spec: dict[str, Any], where: str) -> None:
    """A json_schema response format: a name the API accepts, a schema, and one `strict` can enforce if strict."""
    _name(spec["name"], f"{where}.name")
    if spec.get("schema") is None:  # the model needs a shape to fill
        _refuse("missing", f"{where}.schema", "missing_required_parameter")
    if spec.get("strict"):
        _strict(spec["schema"], f"response_format '{spec['name']}'", f"{where}.schema", "invalid_json_schema")


def _json_named(response_format: dict[str, Any], conversation: Any, where: str, field: str) -> None:
    """JSON mode without a schema needs the word "json" in the conversation: else a model may write whitespace
    until it runs out of tokens."""
    if response_format.get("type") == "json_object" and "json" not in json.dumps(conversation).lower():
        _refuse("json_unsaid", where, field=field)


def _strict(schema: dict[str, Any], owner: str, param: str, code: str) -> None:
    """A schema the API can enforce as the model writes: an object at the top, closed, every property required,
    only the keywords it supports."""
    if schema.get("type") != "object":
        _refuse("not_an_object", param, code, owner=owner, type=schema.get("type"))
    problem = strict_problem(schema) or _not_permitted(schema, ())
    if problem:
        _refuse("invalid_schema", param, code, owner=owner, problem=problem)


def _not_permitted(schema: Any, context: tuple[str, ...]) -> str | None:
    if isinstance(schema, list):
        return next((found for i, part in enumerate(schema) if (found := _not_permitted(part, (*context, str(i))))), None)
    if not isinstance(schema, dict):
        return None
    for keyword, value in schema.items():
        if keyword in NOT_PERMITTED_IN_STRICT and context[-1:] != ("properties",):
            return f"In context={context}, '{keyword}' is not permitted."
        if isinstance(value, (dict, list)) and keyword not in ("enum", "const", "default", "required", "examples"):
            if found := _not_permitted(value, (*context, keyword)):
                return found
    return None


def _name(name: str, where: str) -> None:
    """A function's name: 1 to 64 letters, digits, `_` or `-`."""
    if name == "":
        _invalid(where, "empty string", "a string with minimum length 1", "an empty string", "empty_string")
    if len(name) > MAX_NAME:
        _invalid(where, "string too long", f"a string with maximum length {MAX_NAME}",
                 f"a string with length {len(name)}", "string_above_max_length")
    if not re.fullmatch(NAME_PATTERN, name):
        _refuse("name_pattern", where, "invalid_value", pattern=NAME_PATTERN)


def _not_empty(array: list[Any], where: str) -> None:
    if not array:
        _invalid(where, "empty array", "an array with minimum length 1", "an empty array", "empty_array")


def _array_too_long(where: str, most: int, length: int) -> None:
    _invalid(where, "array too long", f"an array with maximum length {most}", f"an array with length {length}",
             "array_above_max_length")


def _invalid(where: str, problem: str, expected: str, got: str, code: str) -> None:
    """The API's wording for a value out of its bounds: `Invalid 'tools': empty array. Expected ..., but got ...`."""
    _refuse("out_of_bounds", where, code, problem=problem, expected=expected, got=got)


def _ranges(request: dict[str, Any], ranges: dict[str, tuple[float | None, float | None]]) -> None:
    for field, (lowest, highest) in ranges.items():
        if (value := request.get(field)) is None:
            continue
        kind, got = "decimal" if isinstance(lowest, float) else "integer", json.dumps(value)
        if lowest is not None and value < lowest:
            _invalid(field, f"{kind} below minimum value", f"a value >= {lowest:g}", got, f"{kind}_below_min_value")
        if highest is not None and value > highest:
            _invalid(field, f"{kind} above maximum value", f"a value <= {highest:g}", got, f"{kind}_above_max_value")


def _logprobs(request: dict[str, Any]) -> None:
    # The wording is ours (the API's own was not found); the rule is the API reference's: top_logprobs needs logprobs.
    if request.get("top_logprobs") is not None and not request.get("logprobs"):
        _refuse("only_with_logprobs", "top_logprobs")


def _refuse(refusal: str, param: str, code: str | None = None, **values: Any) -> NoReturn:
    """A 400 in the provider's words: the sentence `refusal` of answers.toml's [refusals], {placeholders} filled."""
    raise ApiError(400, RULES["refusals"][refusal].format(where=param, **values), param, code)
