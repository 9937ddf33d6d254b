"""Variants of the offline model that change its calls or the course of the conversation, one habit each.

One call per reply where it would make several, a question back instead of a guess, the same arguments
written another way (and other providers' call ids), a wrong call corrected after its `Error:` result.
Each function here is one variant's `change`, listed in `agentkit.offline.variants`.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

from agentkit.offline.model import EmittedCall, OfflineModel, Reply
from agentkit.offline.text_habits import arguments_of

# one_call: several things asked, one call per reply; the next call after each result.

def one_call(base: OfflineModel, request: dict, reply: Reply) -> Reply:
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


# clarify: asks back instead of guessing when a call would leave the tool's parameters to defaults.

def clarify(base: OfflineModel, request: dict, reply: Reply) -> Reply:
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


def _guesses(call: EmittedCall, schema: dict) -> bool:
    """A call that leaves every parameter out, or a required one: the tool would run on a default or fail."""
    properties, given = schema.get("properties") or {}, arguments_of(call)
    if not isinstance(given, dict):
        return False  # arguments that do not parse are a mistake, not a guess
    return bool(properties) and (not given or any(name not in given for name in schema.get("required", [])))


def _missing(call: EmittedCall, schema: dict) -> str:
    given = arguments_of(call)
    missing = [n for n in schema.get("required", []) if n not in given] or list(schema.get("properties", {}))
    return missing[0].replace("_", " ")


# styled_args: the same arguments written another way (the ids in other providers' formats: wire_habits.other_ids).

def styled_args(base: OfflineModel, request: dict, reply: Reply) -> Reply:
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


# empty_args: a call without arguments sends "" where the API's own models send "{}".

def empty_args(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    return replace(reply, tool_calls=tuple(replace(call, arguments="") if arguments_of(call) == {} else call
                                           for call in reply.tool_calls))


# corrects: a wrong call first (an argument of the wrong type), the right call after its `Error:` result.

def corrects(base: OfflineModel, request: dict, reply: Reply) -> Reply:
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


def _wrong(calls: tuple[EmittedCall, ...], schemas: dict[str, dict]) -> tuple[EmittedCall, ...] | None:
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
