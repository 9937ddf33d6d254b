"""Reading tool calls back out of text: the formats a model writes a call in when the server does not parse it.

    {"name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}}       (also a list, one a line, or in a fence)
    <|python_tag|>{"name": "get_current_time", "parameters": {...}}; {...}      (Llama 3.x)
    [TOOL_CALLS][{"name": "get_current_time", "arguments": {...}}]             (Mistral; newer: [TOOL_CALLS]name[ARGS]{...})
    <tool_call>{"name": "get_current_time", "arguments": {...}}</tool_call>
    <tool_call><function=get_current_time><parameter=timezone>Asia/Tokyo</parameter></function></tool_call>
    FUNCTION: get_current_time(timezone="Asia/Tokyo")

`recover_calls` reads those back, as chapter 01 parsed its `FUNCTION:` line, with two rules that keep a
call from being made out of text that only talks about one: the name must be one of the tools offered,
and bare JSON counts only when it is the whole reply (a JSON example inside prose is an example). Text
copied from a tool result or the person's message is never a call: a file cannot make the agent act.
`split_thinking` takes a `<think>...</think>` block off the front of the text. `agentkit.recovery` puts
both to work on every reply a client receives.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agentkit.calls import ToolCall
from agentkit.recovery.function_line import FunctionCallError, parse_reply  # chapter 01's skill, the first way calls were written

_THINK = re.compile(r"^\s*<think>(.*?)</think>\s*", re.DOTALL)
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.DOTALL)
_FUNCTION = re.compile(r"^\s*<function=([\w.-]+)>(.*?)(?:</function>\s*)?$", re.DOTALL)
_PARAMETER = re.compile(r"<parameter=([\w.-]+)>\n?(.*?)\n?</parameter>", re.DOTALL)
_FENCE = r"```[\w-]*\n(.*?)\n```\s*"
_ONLY_FENCES = re.compile(f"(?:{_FENCE})+", re.DOTALL)
_BETWEEN_CALLS = re.compile(r"\s*(?:;|<\|python_tag\|>|\[TOOL_CALLS\])?\s*")
"""What may come before or between JSON calls: Llama 3.x's `;` and python tag, Mistral's [TOOL_CALLS] token."""
_NAMED_ARGS = re.compile(r"\[TOOL_CALLS\]\s*([\w.-]+)\s*\[ARGS\]")
"""Mistral's newer form (tokenizer v11 on): the name, then [ARGS] and the arguments' JSON, for each call."""
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.DOTALL)
_CALL_KEYS = {"name", "arguments", "parameters", "type", "id"}


def split_thinking(text: str) -> tuple[str, str]:
    """(the thinking, the rest): a leading `<think>` block, or all before a `</think>` whose `<think>` was in the prompt."""
    if match := _THINK.match(text):
        return match.group(1).strip(), text[match.end():]
    if "</think>" in text and "<think>" not in text:  # some chat templates open the block themselves
        thinking, _, rest = text.partition("</think>")
        return thinking.strip(), rest.lstrip()
    return "", text


def recover_calls(text: str, tools: Mapping[str, dict], quoted: Sequence[str] = ()) -> list[ToolCall]:
    """The calls written in `text` to the offered `tools` (name -> parameters schema); [] if it is not only calls.

    All or nothing: a reply with one part that is not a call to an offered tool recovers no call at all.
    `quoted`: texts the model was given (tool results, the person's messages); a call copied from one is data.
    """
    text = text.strip()
    if not text or any(text in source for source in quoted if source):
        return []
    blocks = [block.strip() for block in _TOOL_CALL.findall(text)]
    if blocks and len(_TOOL_CALL.findall(_CODE.sub("", text))) < len(blocks):
        return []  # a <tool_call> shown as code is an example of the format, not a call
    if blocks:
        calls = [_tagged(block, tools) for block in blocks]
    elif _NAMED_ARGS.match(text):
        calls = _named_args_calls(text, tools)
    elif _ONLY_FENCES.fullmatch(text) and "FUNCTION:" not in text:  # the whole reply in ```json fences
        calls = _json_calls("\n".join(re.findall(_FENCE, text, re.DOTALL)), tools)
    elif text.startswith(("{", "[", "<|python_tag|>")):
        calls = _json_calls(text, tools)
    else:
        calls = [_function_line(text, tools)] if "FUNCTION:" in text else []
    return calls if calls and all(calls) else []


def _tagged(block: str, tools: Mapping[str, dict]) -> ToolCall | None:
    if function := _FUNCTION.match(block):
        name, body = function.groups()
        schema = (tools.get(name) or {}).get("properties") or {}
        values = {key: _parameter_value(value, schema.get(key) or {}) for key, value in _PARAMETER.findall(body)}
        return _call(name, values, tools)
    calls = _json_calls(block, tools)
    return calls[0] if len(calls) == 1 else None


def _parameter_value(text: str, schema: dict) -> Any:
    if schema.get("type") == "string":
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _json_calls(text: str, tools: Mapping[str, dict]) -> list[ToolCall | None]:
    """JSON objects, or lists of them, one after another: alone, one a line, apart by `;` or after a template's token."""
    decoder, items, at = json.JSONDecoder(), [], _BETWEEN_CALLS.match(text).end()
    while at < len(text):
        try:
            found, at = decoder.raw_decode(text, at)
        except ValueError:
            return []
        items += found if isinstance(found, list) else [found]
        at = _BETWEEN_CALLS.match(text, at).end()
    return [_from_object(item, tools) for item in items]


def _named_args_calls(text: str, tools: Mapping[str, dict]) -> list[ToolCall | None]:
    """`[TOOL_CALLS]name[ARGS]{...}` once for each call: each arguments part one JSON object and nothing more."""
    _, *parts = _NAMED_ARGS.split(text)
    calls: list[ToolCall | None] = []
    for name, arguments in zip(parts[::2], parts[1::2], strict=True):
        try:
            calls.append(_call(name, json.loads(arguments), tools))
        except ValueError:
            return []
    return calls


def _from_object(item: Any, tools: Mapping[str, dict]) -> ToolCall | None:
    if isinstance(item, dict) and isinstance(item.get("function"), dict):  # {"type": "function", "function": {...}}
        item = item["function"]
    if not isinstance(item, dict) or not set(item) <= _CALL_KEYS or "name" not in item:
        return None
    arguments = item.get("arguments", item.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    return _call(item["name"], arguments, tools)


def _function_line(text: str, tools: Mapping[str, dict]) -> ToolCall | None:
    """Chapter 01's `FUNCTION: name(...)` line, read by chapter 01's own parser against the offered tools."""
    try:
        call = parse_reply(text, [_signature_of(name, schema) for name, schema in tools.items()])
    except FunctionCallError:
        return None
    if call is None:
        return None
    return _call(call.name, call.arguments, tools)


def _signature_of(name: str, schema: dict) -> Callable[..., None]:
    """A function that only has the tool's name and parameters: enough for `parse_reply` to check a call against."""
    def tool(*args: Any, **kwargs: Any) -> None: ...
    tool.__name__ = name
    tool.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None) for p in schema.get("properties") or {}])
    return tool


def _call(name: Any, arguments: Any, tools: Mapping[str, dict]) -> ToolCall | None:
    if not isinstance(name, str) or name not in tools or not isinstance(arguments, dict):
        return None  # only tools that were offered: text naming anything else is not a call we may make
    return ToolCall("", name, json.dumps(arguments, ensure_ascii=False), arguments)  # its id is given with the reply's
