"""The provider's rules that the request types cannot say, in one place, each refused in the provider's words.

`contract.py` checks a request's shape against the SDK's types; what is left is what holds *between* fields or
across messages: every tool call answered before the next turn, a field only with the one it needs (`tool_choice`
with tools), a named tool_choice one of the tools, and the schemas `strict` can enforce. (Bounds on one field, such
as a name's pattern or a number's range, are constraints `contract.py` puts on the types.)
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from agentkit.offline.lexicon import words
from agentkit.offline.request import ApiError
from agentkit.tools.strict import strict_problem

RULES = words("answers")["contract"]
NOT_PERMITTED_IN_STRICT = RULES["not_permitted_in_strict"]
"""JSON Schema keywords a strict schema cannot use (the model's output cannot be constrained to them as written)."""


def chat_rules(request: dict[str, Any]) -> None:
    """The rules of `POST /v1/chat/completions` beyond its types."""
    _messages(request["messages"])
    functions = _tools(request.get("tools"), "tools", lambda tool: tool.get("function"), ".function")
    for field, needed in RULES["needs"].items():  # a field that goes only with another
        if request.get(field) is not None and not request.get(needed):
            _refuse(f"only_with_{needed}", field, field=field)
    _chosen(request.get("tool_choice"), functions)
    if (response_format := request.get("response_format") or {}).get("type") == "json_schema":
        _format(response_format["json_schema"], "response_format.json_schema")
    _json_named(response_format, request["messages"], "messages", "response_format")


def responses_rules(request: dict[str, Any]) -> None:
    """The rules of `POST /v1/responses` beyond its types. A function tool is strict unless it says `"strict": false`."""
    items = request["input"] if isinstance(request.get("input"), list) else []
    calls, answered = {}, set()
    for i, item in enumerate(items):
        if item.get("type") == "function_call":
            calls[item["call_id"]] = i
        elif item.get("type") == "function_call_output":
            if item["call_id"] not in calls:
                _refuse("no_call", "input", call_id=item["call_id"])
            answered.add(item["call_id"])
    for call_id in calls.keys() - answered:
        _refuse("no_output", "input", call_id=call_id)
    functions = _tools(request.get("tools"), "tools", lambda tool: tool if tool.get("type") == "function" else None,
                       "", strict_by_default=True)
    _chosen(request.get("tool_choice"), functions)
    if (text_format := (request.get("text") or {}).get("format") or {}).get("type") == "json_schema":
        _format(text_format, "text.format")
    _json_named(text_format, [request.get("instructions"), request.get("input")], "input", "text.format")


def _messages(messages: list[dict[str, Any]]) -> None:
    """An assistant message with text or calls; every tool message answers a call of the assistant message before it,
    and every call is answered before the conversation goes on. (The API writes the last two rules' params as
    `messages.[i].role`, with a dot, unlike the others.)"""
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
        if message["role"] == "assistant" and (message.get("tool_calls"), message.get("content"),
                                               message.get("function_call")) == (None, None, None):
            _refuse("null_content", f"messages[{i}].content")
        opened = [call["id"] for call in message.get("tool_calls") or []]
        pending = list(opened)


def _tools(tools: list[dict[str, Any]] | None, where: str, function_of: Any, inner: str,
           strict_by_default: bool = False) -> set[str]:
    """The names of the offered functions, each strict schema checked."""
    names = set()
    for i, tool in enumerate(tools or []):
        if (function := function_of(tool)) is None:
            _refuse("not_a_function", f"{where}[{i}].type", type=json.dumps(tool.get("type")))
        names.add(function["name"])
        parameters, strict = function.get("parameters"), function.get("strict")
        # A schema that is not an object is refused even when not strict; the same check says so.
        if strict or strict is None and strict_by_default or (parameters or {}).get("type", "object") != "object":
            _strict(parameters or {"type": "object", "properties": {}, "additionalProperties": False, "required": []},
                    f"function '{function['name']}'", f"{where}[{i}]{inner}.parameters", "invalid_function_parameters")
    return names


def _chosen(choice: Any, offered: set[str]) -> None:
    """A function named in `tool_choice` (its name one level deeper in Chat Completions) is one offered."""
    if not isinstance(choice, dict) or choice.get("type") != "function":
        return
    if (name := (choice.get("function") or choice)["name"]) not in offered:
        _refuse("unknown_choice", "tool_choice", name=name)


def _format(spec: dict[str, Any], where: str) -> None:
    """A json_schema response format: a schema, and one `strict` can enforce if strict."""
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
    if problem := strict_problem(schema) or _not_permitted(schema, ()):
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


def _refuse(refusal: str, param: str, code: str | None = None, **values: Any) -> NoReturn:
    """A 400 in the provider's words: the sentence `refusal` of answers.toml's [refusals], {placeholders} filled."""
    raise ApiError(400, RULES["refusals"][refusal].format(where=param, **values), param, code)
