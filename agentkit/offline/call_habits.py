"""Habits of other real models in which calls they make, and when: one call per reply where the base model makes
several, a question back instead of a guess, the same arguments written another way, `""` for no arguments, a
wrong call corrected after its `Error:` result. Each is a variant's `change` in `variants.py`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace

from agentkit.offline.model import EmittedCall, OfflineModel, Reply
from agentkit.offline.request import calls_in, functions_of, parsed


def one_call(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """The next planned call after each result; the answer from all the results since the question as one turn."""
    messages = request["messages"]
    if reply.tool_calls or messages[-1]["role"] != "tool":
        return replace(reply, tool_calls=reply.tool_calls[:1])
    question_at, planned = planned_calls(base, request)
    made = _calls_made(messages[question_at:])
    if remaining := [call for call in planned if (call.name, call.arguments) not in made]:
        return Reply(tool_calls=(remaining[0],))
    answer = base.respond({**request, "messages": as_one_turn(messages, question_at)})
    return replace(answer, tool_calls=answer.tool_calls[:1])


def clarify(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """On a conversation's first request, a call that leaves every parameter out, or a required one, is a question."""
    messages = request["messages"]
    if any(m["role"] == "assistant" for m in messages) or messages[-1]["role"] != "user":
        return reply  # only the first request of a conversation; an answer to the question is taken as it is
    schemas = _schemas(request)
    for call in reply.tool_calls:
        schema, given = schemas.get(call.name, {}), parsed(call.arguments)
        if not isinstance(given, dict):
            continue  # arguments that do not parse are a mistake, not a guess
        properties = schema.get("properties") or {}
        missing = [name for name in schema.get("required", []) if name not in given]
        if properties and (not given or missing):
            which = (missing or list(properties))[0].replace("_", " ")
            return Reply(content=f"Before I call {call.name}: which {which} do you mean? Please say it, and I will "
                                 "look it up.")
    # The text protocol: a FUNCTION: line with empty parentheses for a function the prompt shows with parameters.
    empty = re.search(r"FUNCTION:\s*(\w+)\(\s*\)", reply.content or "")
    system = "\n".join(str(m.get("content") or "") for m in messages if m["role"] == "system")
    if empty and re.search(rf"FUNCTION:\s*{empty.group(1)}\(\s*[^)\s]", system):
        return Reply(content=f"Before I call {empty.group(1)}: which value do you mean? I would rather ask than guess.")
    return reply


def styled_args(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """Other whitespace and key order, schema defaults filled in (the ids: `other_ids` in variants.py)."""
    schemas = _schemas(request)

    def styled(call: EmittedCall) -> EmittedCall:
        arguments = parsed(call.arguments)
        if not isinstance(arguments, dict):
            return call
        properties = schemas.get(call.name, {}).get("properties") or {}
        defaults = {name: spec["default"] for name, spec in properties.items() if "default" in spec and name not in arguments}
        written = dict(reversed(list({**arguments, **defaults}.items())))
        return replace(call, arguments=json.dumps(written, indent=1, ensure_ascii=False, separators=(" ,", " : ")))

    return replace(reply, tool_calls=tuple(map(styled, reply.tool_calls)))


def empty_args(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    return replace(reply, tool_calls=tuple(replace(call, arguments="") if parsed(call.arguments) == {} else call
                                           for call in reply.tool_calls))


def corrects(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """A first call with an argument of the wrong JSON type; the right call after its `Error:` result (the base model's
    own: it reads the error and fixes what the schema shows wrong)."""
    wrong = _wrong(reply.tool_calls, _schemas(request)) if request["messages"][-1]["role"] == "user" else None
    return replace(reply, tool_calls=wrong) if wrong else reply


def _wrong(calls: tuple[EmittedCall, ...], schemas: dict[str, dict]) -> tuple[EmittedCall, ...] | None:
    """The calls with the first one's first argument given a value of the wrong JSON type; None if it has none."""
    arguments = parsed(calls[0].arguments) if calls else None
    if not isinstance(arguments, dict):
        return None  # no call, or already wrong (broken JSON, not an object): nothing to add
    properties = schemas.get(calls[0].name, {}).get("properties") or {}
    if (name := next((n for n in arguments if n in properties), next(iter(properties), None))) is None:
        return None
    bad = "a lot" if properties[name].get("type") in ("number", "integer", "boolean", "array", "object") else 12345
    return (replace(calls[0], arguments=json.dumps({**arguments, name: bad})), *calls[1:])


def as_one_turn(messages: list[dict], question_at: int, keep: Callable[[str], bool] = bool) -> list[dict]:
    """The messages to the question, then every call since (whose name `keep` keeps) as one reply, then their results."""
    turns = messages[question_at + 1:]
    calls = [c for c in calls_in(turns) if keep(c["function"]["name"])]
    ids = {c["id"] for c in calls}
    return [*messages[: question_at + 1], {"role": "assistant", "content": None, "tool_calls": calls},
            *(m for m in turns if m["role"] == "tool" and m.get("tool_call_id") in ids)]


def planned_calls(base: OfflineModel, request: dict) -> tuple[int, tuple[EmittedCall, ...]]:
    """Where the last question is, and the calls the base model makes for it."""
    question_at = max(i for i, m in enumerate(request["messages"]) if m["role"] == "user")
    return question_at, base.respond({**request, "messages": request["messages"][: question_at + 1]}).tool_calls


def _schemas(request: dict) -> dict[str, dict]:
    return {f["name"]: f.get("parameters") or {} for f in functions_of(request)}


def _calls_made(messages: list[dict]) -> set[tuple[str, str]]:
    return {(c["function"]["name"], c["function"]["arguments"]) for c in calls_in(messages)}
