"""Variants: the offline model made to behave the way other real models do, one habit at a time.

Each variant wraps the base model: it asks `OfflineModel` for its `Reply`, then changes one thing about
it, deterministically. None of them is wrong: each is something a real model does, so a notebook that
works with only one of them is relying on one model's habits. Select one with `MODEL=offline/<name>`
(no key set) or `connect(variant="<name>")`; `VARIANTS` lists them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from agentkit.offline.model import OfflineModel, Reply, ToolCall
from agentkit.offline.text_habits import (
    arguments_of,
    fenced,
    json_text,
    reasoning_field,
    tagged_function,
    tagged_json,
    thinks,
    with_prose,
)


@dataclass(frozen=True)
class Variant:
    """The base model's reply to a request, then `change` applied to it."""

    name: str
    """What `MODEL=offline/<name>` selects."""
    change: Callable[[OfflineModel, dict[str, Any], Reply], Reply]
    """(base model, request, base reply) -> the reply this variant sends instead."""
    rename_id: Callable[[str, int], str] | None = None
    """(the id the wire format gave, the call's index) -> the id this variant sends instead."""
    base: OfflineModel = OfflineModel()
    """The model whose replies are changed."""

    def respond(self, request: dict[str, Any]) -> Reply:
        return self.change(self.base, request, self.base.respond(request))


# one_call: several things asked, one call per reply; the next call after each result.

def _one_call(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    messages = request["messages"]
    if reply.tool_calls or messages[-1]["role"] != "tool":
        return replace(reply, tool_calls=reply.tool_calls[:1])
    question_at = _last_user(messages)
    planned = base.respond({**request, "messages": messages[: question_at + 1]}).tool_calls
    made = _calls_made(messages[question_at:])
    remaining = [call for call in planned if (call.name, call.arguments) not in made]
    if remaining:
        return Reply(tool_calls=(remaining[0],))
    # The answer: what the base model says when all the results since the question come back in one turn.
    answer = base.respond({**request, "messages": _as_one_turn(messages, question_at)})
    return replace(answer, tool_calls=answer.tool_calls[:1])


def _as_one_turn(messages: list[dict], question_at: int) -> list[dict]:
    turns = messages[question_at + 1:]
    calls = [call for m in turns if m["role"] == "assistant" for call in m.get("tool_calls") or []]
    results = [m for m in turns if m["role"] == "tool"]
    return [*messages[: question_at + 1], {"role": "assistant", "content": None, "tool_calls": calls}, *results]


# reworded: the answer in other words, with times and numbers written differently from the tool's output.

def _reworded(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    if reply.tool_calls or not reply.content or not _answers_results(request["messages"]):
        return reply
    text = re.sub(r"^According to ([\w.]+):\s*", "", reply.content)
    text = re.sub(r"(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::\d\d)?([+-]\d\d:\d\d|Z)?", _spoken_time, text)
    text = re.sub(r"\b(\d+)\.0\b", r"\1", text)                       # 86.0 -> 86
    text = re.sub(r"\$(\d[\d,]*(?:\.\d+)?)", lambda m: m.group(1).replace(",", "") + " dollars", text)
    text = re.sub(r"\s*\n[\s-]*", "; ", text.strip())              # a list of lines said as one sentence
    return replace(reply, content=f"Here is what I found. {text.strip()}")


def _spoken_time(match: re.Match) -> str:
    year, month, day, hour, minute, offset = match.groups()
    return f"{hour}h{minute} on {int(day)}/{int(month)}/{year}" + (f" (UTC{offset})" if offset and offset != "Z" else "")


def _answers_results(messages: list[dict]) -> bool:
    """The last message is a tool result, or a `RESULT:` line of the text protocol."""
    last = messages[-1]
    return last["role"] == "tool" or (last["role"] == "user" and str(last.get("content") or "").lstrip().startswith("RESULT:"))


# clarify: asks back instead of guessing when a call would leave the tool's parameters to defaults.

def _clarify(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    messages = request["messages"]
    if any(m["role"] == "assistant" for m in messages) or messages[-1]["role"] != "user":
        return reply  # only the first request of a conversation; an answer to the question is taken as it is
    schemas = _schemas(request)
    for call in reply.tool_calls:
        if _guesses(call, schemas.get(call.name, {})):
            return Reply(content=f"Before I call {call.name}: which {_missing(call, schemas[call.name])} do you mean? "
                                 "Please say it, and I will look it up.")
    # The text protocol: a FUNCTION: line with empty parentheses for a function the prompt shows with parameters.
    empty = re.search(r"FUNCTION:\s*(\w+)\(\s*\)", reply.content or "")
    if empty and re.search(rf"FUNCTION:\s*{empty.group(1)}\(\s*[^)\s]", _system(messages)):
        return Reply(content=f"Before I call {empty.group(1)}: which value do you mean? I would rather ask than guess.")
    return reply


def _guesses(call: ToolCall, schema: dict) -> bool:
    """A call that leaves every parameter out, or a required one: the tool would run on a default or fail."""
    properties, given = schema.get("properties") or {}, arguments_of(call)
    if not isinstance(given, dict):
        return False  # arguments that do not parse are a mistake, not a guess
    return bool(properties) and (not given or any(name not in given for name in schema.get("required", [])))


def _missing(call: ToolCall, schema: dict) -> str:
    given = arguments_of(call)
    missing = [n for n in schema.get("required", []) if n not in given] or list(schema.get("properties", {}))
    return missing[0].replace("_", " ")


# styled_args: the same arguments written another way, and tool-call ids in other providers' formats.

def _styled_args(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    schemas = _schemas(request)
    calls = []
    for call in reply.tool_calls:
        arguments = arguments_of(call)
        if not isinstance(arguments, dict):
            calls.append(call)
            continue
        properties = schemas.get(call.name, {}).get("properties") or {}
        defaults = {name: spec["default"] for name, spec in properties.items() if "default" in spec and name not in arguments}
        styled = dict(reversed(list({**arguments, **defaults}.items())))
        calls.append(replace(call, arguments=json.dumps(styled, indent=1, ensure_ascii=False, separators=(" ,", " : "))))
    return replace(reply, tool_calls=tuple(calls))


def _other_id(old: str, index: int) -> str:
    """`call_0`-style indices, Anthropic-style `toolu_...` and Mistral-style 9-character ids, by turns."""
    digits = re.sub(r"[\W_]", "", old)[-12:].rjust(12, "0")
    return [f"call_{index}", f"toolu_01{digits.upper()}", digits[:9]][sum(map(ord, old)) % 3]


# corrects: a wrong call first (an argument of the wrong type), the right call after its `Error:` result.

def _corrects(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    messages = request["messages"]
    if messages[-1]["role"] == "user":
        wrong = _wrong(reply.tool_calls, _schemas(request))
        return replace(reply, tool_calls=wrong) if wrong else reply
    question_at = _last_user(messages)
    right = base.respond({**request, "messages": messages[: question_at + 1]}).tool_calls
    turns = messages[question_at + 1:]
    said = [m for m in turns if m["role"] == "assistant"]
    errors = any(str(m.get("content") or "").startswith("Error:") for m in turns if m["role"] == "tool")
    if len(said) == 1 and errors and _calls_made(said) == {(c.name, c.arguments) for c in _wrong(right, _schemas(request)) or ()}:
        return Reply(tool_calls=right)
    return reply


def _wrong(calls: tuple[ToolCall, ...], schemas: dict[str, dict]) -> tuple[ToolCall, ...] | None:
    """The calls with the first one's first argument given a value of the wrong JSON type; None if it has none."""
    if not calls:
        return None
    first = calls[0]
    properties = schemas.get(first.name, {}).get("properties") or {}
    arguments = arguments_of(first)
    if not isinstance(arguments, dict):
        return None  # already wrong (broken JSON, not an object): nothing to add
    name = next((n for n in arguments if n in properties), next(iter(properties), None))
    if name is None:
        return None
    kind = properties[name].get("type")
    bad = "a lot" if kind in ("number", "integer", "boolean", "array", "object") else 12345
    return (replace(first, arguments=json.dumps({**arguments, name: bad})), *calls[1:])


# What the variants share: reading the request and the conversation.

def _schemas(request: dict) -> dict[str, dict]:
    return {t["function"]["name"]: t["function"].get("parameters") or {} for t in request.get("tools") or []}


def _last_user(messages: list[dict]) -> int:
    return max(i for i, m in enumerate(messages) if m["role"] == "user")


def _calls_made(messages: list[dict]) -> set[tuple[str, str]]:
    return {(c["function"]["name"], c["function"]["arguments"])
            for m in messages if m["role"] == "assistant" for c in m.get("tool_calls") or []}


def _system(messages: list[dict]) -> str:
    return "\n".join(str(m.get("content") or "") for m in messages if m["role"] == "system")


_LISTED: list[tuple[str, str, Callable[[OfflineModel, dict[str, Any], Reply], Reply]]] = [
    ("prose", "a sentence before a FUNCTION: line, and a sentence in `content` next to native tool calls", with_prose),
    ("fenced", "the FUNCTION: line inside a ``` code fence", fenced),
    ("one_call", "one tool call per reply where the base model makes several; the others on later turns", _one_call),
    ("reworded", "final answers in other words, times and numbers written differently from the tool output", _reworded),
    ("clarify", "asks which value you mean instead of calling a tool with its parameters left to defaults", _clarify),
    ("styled_args", "arguments with other whitespace and key order, schema defaults filled in; call ids like call_0, "
                    "toolu_01..., or 9 characters", _styled_args),
    ("corrects", "a first call with an argument of the wrong type, corrected after its Error: result", _corrects),
    ("json_text", "each tool call written as a JSON object in `content`, no tool_calls (a server without a tool parser)",
     json_text),
    ("tagged_json", "each tool call as <tool_call>{JSON}</tool_call> in `content` (Hermes/Qwen2.5 format, no parser)",
     tagged_json),
    ("tagged_function", "tool calls as <tool_call><function=...><parameter=...> in `content`, after a sentence "
                        "(Qwen3-Coder format, no parser)", tagged_function),
    ("thinks", "a <think>...</think> block before every answer and next to every tool call", thinks),
    ("reasoning_field", "thinking in a reasoning_content field, blank content beside tool calls (as llama.cpp sends "
                        "them)", reasoning_field),
]
_RENAMED_IDS = {"styled_args": _other_id}
"""Variants that also change the call ids the wire format gives."""

VARIANTS: dict[str, tuple[str, Variant]] = {
    name: (doc, Variant(name, change, _RENAMED_IDS.get(name))) for name, doc, change in _LISTED}
"""name -> (what it does, in one line; the model)."""


def variant(name: str) -> Variant:
    """The variant called `name`; a ValueError that lists the valid names otherwise."""
    if name not in VARIANTS:
        raise ValueError(f"unknown offline model variant {name!r}; should be one of: {', '.join(VARIANTS)}")
    return VARIANTS[name][1]
