"""What a Chat Completions request must look like, checked as the real API does: each problem a 400 naming its param.

A malformed request is the client's mistake, so it gets the API's own error shape, never a 500 or a crash:
the model behind the server only ever sees requests that passed these checks.
"""

from __future__ import annotations

import json
from typing import Any, Literal, get_args

from agentkit.hardening.echo import echo
from agentkit.tools.registry import TOOL_NAME

MessageRole = Literal["system", "developer", "user", "assistant", "tool"]
"""The message roles the API accepts."""
ROLES: tuple[MessageRole, ...] = get_args(MessageRole)

ToolChoiceMode = Literal["auto", "none", "required"]
"""`tool_choice` as a word: the model decides, calls no tool, or must call one."""
TOOL_CHOICE_MODES: tuple[ToolChoiceMode, ...] = get_args(ToolChoiceMode)
ToolChoice = ToolChoiceMode | dict[str, Any]
"""A mode, or one tool named: {"type": "function", "function": {"name": ...}}."""

_KINDS = {str: "a string", bool: "a boolean", int: "an integer", float: "a number", dict: "an object", list: "an array"}


class ApiError(Exception):
    """An HTTP error in the API's own format; the openai SDK turns it into BadRequestError and friends."""

    def __init__(self, status: int, message: str, param: str | None = None, code: str | None = None,
                 allow: str | None = None):
        super().__init__(message)
        self.status, self.message, self.param, self.code = status, message, param, code
        self.allow = allow  # the methods a 405 names in its `allow` header

    def body(self) -> bytes:
        kind = "invalid_request_error" if self.status < 500 else "server_error"
        error = {"message": self.message, "type": kind, "param": self.param, "code": self.code}
        return json.dumps({"error": error}).encode()


def parse_request(body: bytes) -> dict[str, Any]:
    """The request as a dict, or the ApiError (400) the real API would send for it."""
    try:
        request = json.loads(body)
    except (ValueError, RecursionError) as error:  # ValueError covers bytes that are not UTF-8 too
        raise ApiError(400, f"We could not parse the JSON body of your request: {echo(str(error), 200)}") from None
    if not isinstance(request, dict):
        raise ApiError(400, f"The request body must be a JSON object, but got {_kind(request)} instead.")
    if request.get("model") is None:
        raise ApiError(400, "you must provide a model parameter", "model")
    _expect(request, "model", str, "model")
    messages = request.get("messages")
    if not isinstance(messages, list) or not messages:
        raise ApiError(400, f"'messages' must be a non-empty array of message objects, got {_kind(messages)}.",
                       "messages")
    for i, message in enumerate(messages):
        _check_message(message, f"messages.[{i}]")
    _check_tool_pairing(messages)
    _check_tool_choice(request.get("tool_choice"), _tool_names(request))
    for key, kind in [("stream", bool), ("stream_options", dict), ("max_tokens", int), ("max_completion_tokens", int)]:
        _expect(request, key, kind, key)
    for key in ("max_tokens", "max_completion_tokens"):
        if request.get(key) is not None and request[key] < 1:
            raise ApiError(400, f"Invalid '{key}': integer below minimum value. Expected a value >= 1, but got "
                                f"{request[key]} instead.", key)
    stop = request.get("stop")
    words = [stop] if isinstance(stop, str) else stop
    if stop is not None and not (isinstance(words, list) and all(isinstance(word, str) for word in words)):
        raise ApiError(400, f"Invalid type for 'stop': expected a string or an array of strings, but got {_kind(stop)} "
                            "instead.", "stop")
    return request


def _check_message(message: Any, where: str) -> None:
    if not isinstance(message, dict):
        raise _wrong_type(where, "an object", message)
    role = message.get("role")
    if role not in ROLES:
        raise ApiError(400, f"Invalid value for '{where}.role': {echo(json.dumps(role))}; should be one of: "
                            f"{', '.join(ROLES)}.", f"{where}.role")
    content = message.get("content")
    if content is not None and not isinstance(content, (str, list)):
        raise _wrong_type(f"{where}.content", "a string or an array of content parts", content)
    for j, part in enumerate(content if isinstance(content, list) else []):
        if not isinstance(part, dict) or not isinstance(part.get("type"), str):
            raise _wrong_type(f"{where}.content.[{j}]", 'an object with a "type"', part)
    if role == "tool":
        _expect(message, "tool_call_id", str, f"{where}.tool_call_id")
    calls = message.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        raise _wrong_type(f"{where}.tool_calls", "an array", calls)
    for j, call in enumerate(calls or []):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(call, dict) or not isinstance(call.get("id"), str) or not isinstance(function, dict):
            raise _wrong_type(f"{where}.tool_calls.[{j}]", 'an object with "id" and "function"', call)
        _expect(function, "name", str, f"{where}.tool_calls.[{j}].function.name", required=True)
        _expect(function, "arguments", str, f"{where}.tool_calls.[{j}].function.arguments", required=True)


def _check_tool_pairing(messages: list[dict]) -> None:
    """The real API's rules: every tool message answers an earlier call, and every call gets an answer."""
    pending: list[str] = []
    for i, message in enumerate([*messages, {"role": "end of messages"}]):
        if message.get("role") == "tool":
            if message.get("tool_call_id") not in pending:
                raise ApiError(400, "Invalid parameter: messages with role 'tool' must be a response to a preceding "
                                    f"message with 'tool_calls'; tool_call_id {echo(repr(message.get('tool_call_id')))} "
                                    f"answers no call (open calls: {', '.join(pending) or 'none'}).",
                               f"messages.[{i}].tool_call_id")
            pending.remove(message["tool_call_id"])
            continue
        if pending:
            raise ApiError(400, "An assistant message with 'tool_calls' must be followed by tool messages responding "
                                f"to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
                                f"{', '.join(pending)}", f"messages.[{i}].role")
        pending = [call["id"] for call in message.get("tool_calls") or []]


def _tool_names(request: dict[str, Any]) -> set[str]:
    """The names of the offered tools, each tool checked: `{"type": "function", "function": {"name": ..., ...}}`."""
    tools = request.get("tools")
    if tools is not None and not isinstance(tools, list):
        raise _wrong_type("tools", "an array", tools)
    for i, tool in enumerate(tools or []):
        where = f"tools[{i}]"
        if not isinstance(tool, dict):
            raise _wrong_type(where, "an object", tool)
        if tool.get("type") != "function":
            raise ApiError(400, f"Invalid value for '{where}.type': {echo(json.dumps(tool.get('type')))}; should be "
                                "\"function\".", f"{where}.type")
        _expect(tool, "function", dict, f"{where}.function", required=True)
        _expect(tool["function"], "name", str, f"{where}.function.name", required=True)
        if not TOOL_NAME.fullmatch(tool["function"]["name"]):
            raise ApiError(400, f"Invalid '{where}.function.name': {echo(repr(tool['function']['name']))}; use 1 to 64 "
                                "letters, digits, '_' or '-'.", f"{where}.function.name")
        _expect(tool["function"], "description", str, f"{where}.function.description")
        _expect(tool["function"], "parameters", dict, f"{where}.function.parameters")
    return {tool["function"]["name"] for tool in tools or []}


def _check_tool_choice(choice: Any, tools: set[str]) -> None:
    offered = ", ".join(sorted(tools)) or "none"
    if isinstance(choice, dict):
        function = choice.get("function")
        name = function.get("name") if isinstance(function, dict) else None
        if name not in tools:
            raise ApiError(400, f"Invalid value for 'tool_choice': no function named {echo(repr(name))} was specified "
                                f"in the 'tools' parameter (offered: {offered}).", "tool_choice")
    elif choice == "required" and not tools:
        raise ApiError(400, "Invalid value for 'tool_choice': 'required' needs at least one tool in 'tools'.", "tool_choice")
    elif choice is not None and choice not in TOOL_CHOICE_MODES:
        raise ApiError(400, f"Invalid value for 'tool_choice': {echo(repr(choice))}; should be one of: "
                            f"{', '.join(TOOL_CHOICE_MODES)}, or " '{"type": "function", "function": {"name": ...}}.',
                       "tool_choice")


def _expect(owner: dict[str, Any], key: str, kind: type, param: str, required: bool = False) -> None:
    """`owner[key]` is of `kind`, or absent (null) when not required; else the API's 'Invalid type' error."""
    value = owner.get(key)
    if value is None and required:
        raise ApiError(400, f"Missing required parameter: '{param}'.", param)
    if value is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
        raise _wrong_type(param, _KINDS[kind], value)


def _wrong_type(param: str, expected: str, value: Any) -> ApiError:
    return ApiError(400, f"Invalid type for '{param}': expected {expected}, but got {_kind(value)} instead.", param)


def _kind(value: Any) -> str:
    """`an integer (5)`, `null`: a JSON value's type as the API names it, with the value, capped."""
    if value is None:
        return "null"
    return f"{_KINDS.get(type(value), type(value).__name__)} ({echo(json.dumps(value, ensure_ascii=False))})"
