"""Variants: the offline model made to behave the way other real models do, one habit each, in one table.

Each variant wraps the base model: it asks `OfflineModel` for its `Reply`, then changes one thing about it,
deterministically (`change`: (base model, request, base reply) -> the reply sent instead), and may write the
completion in its server's shape (`wire`, below). None of them is wrong: each is something a real model does, so a
notebook that works with only one of them relies on one model's habits. Select one with `MODEL=offline/<name>` (no
key set) or `connect_offline(variant="<name>")`.

Which calls a variant makes, and when (a helper agent or a plan tool among them), is in `call_habits.py`; how a
reply's text is written is here: prose or a fence around a FUNCTION: line, an answer in other words or laid out
otherwise, and (as a local server passes replies on) tool calls left in the text, thinking first. A server without a
tool parser (or a reasoning parser) hands the model's text over as it is; `agentkit.recovery` reads these back
(chapter 02, going deeper).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from agentkit.offline import call_habits as calls
from agentkit.offline.lexicon import words
from agentkit.offline.model import EmittedCall, OfflineModel, Reply
from agentkit.offline.reading import message_text
from agentkit.offline.request import parsed

Completion = dict[str, Any]
Change = Callable[[OfflineModel, dict, Reply], Reply]
Calls = tuple[EmittedCall, ...]
FUNCTION_LINE = re.compile(r"^FUNCTION:.*$", re.MULTILINE)


@dataclass(frozen=True)
class Variant:
    """The base model's reply to a request, then `change` applied to it."""

    name: str
    """What `MODEL=offline/<name>` selects."""
    change: Change
    """(base model, request, base reply) -> the reply this variant sends instead."""
    wire: Callable[[Completion], Completion] | None = None
    """(the completion as the base server writes it, `protocol.py`) -> as this variant's server writes it; the
    streamed form is made from it, so both agree. None: unchanged."""
    base: OfflineModel = OfflineModel()
    """The model whose replies are changed."""

    def respond(self, request: dict[str, Any]) -> Reply:
        return self.change(self.base, request, self.base.respond(request))


def other_ids(completion: Completion) -> Completion:
    """`call_0`-style indices, Anthropic-style `toolu_...` and Mistral-style 9-character ids, by turns."""
    completion = copy.deepcopy(completion)
    for index, call in enumerate(completion["choices"][0]["message"].get("tool_calls") or []):
        digits = re.sub(r"[\W_]", "", call["id"])[-12:].rjust(12, "0")
        call["id"] = [f"call_{index}", f"toolu_01{digits.upper()}", digits[:9]][sum(map(ord, call["id"])) % 3]
    return completion


def explicit_empty(completion: Completion) -> Completion:
    completion = copy.deepcopy(completion)
    message = completion["choices"][0]["message"]
    message.setdefault("tool_calls", [])
    for field in ("refusal", "function_call", "reasoning_content", "audio"):
        message.setdefault(field, None)
    return completion


def _unchanged(base: OfflineModel, request: dict[str, Any], reply: Reply) -> Reply:
    return reply  # the variant's habit is only in how the completion is written out (its `wire`)


def calls_in_text(write: Callable[[Calls], str | None]) -> Change:
    """No tool parser on the server: the calls as `write` lays them out in `content` (None: the reply unchanged)."""
    def change(base: OfflineModel, request: dict, reply: Reply) -> Reply:
        text = write(reply.tool_calls) if reply.tool_calls else None
        return reply if text is None else Reply(content=text)
    return change


def on_answer(rewrite: Callable[[dict, str], str]) -> Change:
    """Only a final answer is written otherwise, `rewrite(request, its text)`: text and no calls, after the last
    message brought results (a tool's, or a `RESULT:` line of the text protocol)."""
    def change(base: OfflineModel, request: dict, reply: Reply) -> Reply:
        last = request["messages"][-1]
        results = last["role"] == "tool" or (last["role"] == "user" and str(last.get("content") or "").lstrip()
                                             .startswith("RESULT:"))
        final = results and reply.content and not reply.tool_calls
        return replace(reply, content=rewrite(request, reply.content)) if final else reply
    return change


def _tagged_function(calls: Calls) -> str | None:
    """Qwen3-Coder's format: <function=name> with one <parameter=...> per argument, after a sentence."""
    if not all(isinstance(parsed(c.arguments), dict) for c in calls):
        return None
    blocks = ["<tool_call>\n<function={}>\n{}</function>\n</tool_call>".format(call.name, "".join(
        f"<parameter={name}>\n{value if isinstance(value, str) else json.dumps(value)}\n</parameter>\n"
        for name, value in parsed(call.arguments).items())) for call in calls]
    return "I will use a tool for this.\n\n" + "\n".join(blocks)


json_text = calls_in_text(lambda calls: "\n".join(json.dumps(_as_object(c, "parameters" if i % 2 else "arguments"))
                                                 for i, c in enumerate(calls)))  # "parameters" on every other line
tagged_json = calls_in_text(lambda calls: "\n".join(f"<tool_call>\n{json.dumps(_as_object(c))}\n</tool_call>" for c in calls))
tagged_function = calls_in_text(_tagged_function)
mistral_text = calls_in_text(lambda calls: "[TOOL_CALLS]" + json.dumps([_as_object(c) for c in calls]))
llama_text = calls_in_text(lambda calls: "<|python_tag|>" + "; ".join(json.dumps(_as_object(c, "parameters")) for c in calls))
fenced_json = calls_in_text(lambda calls: "\n".join(f"```json\n{json.dumps(_as_object(c), indent=2)}\n```" for c in calls))


def with_prose(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    if reply.tool_calls:
        return replace(reply, content=f"Let me check that with {_names(reply, ', ')}.")
    if reply.content and FUNCTION_LINE.search(reply.content):
        return replace(reply, content="Sure, I will use a tool for this.\n" + reply.content)
    return reply


def fenced(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    if reply.content and FUNCTION_LINE.search(reply.content):
        return replace(reply, content=FUNCTION_LINE.sub(lambda m: f"```\n{m.group(0)}\n```", reply.content, count=1))
    return reply


def narrates(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    if not reply.tool_calls:
        return reply
    return replace(reply, content=f"The answer to {_question(request)!r} is what {_names(reply, ' and ')} will tell "
                                  "me, so I am calling it now and will give you the exact result as soon as it comes back.")


@on_answer
def reworded(request: dict, text: str) -> str:
    text = re.sub(r"^According to ([\w.]+):\s*", "", text)
    text = re.sub(r"(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::\d\d)?([+-]\d\d:\d\d|Z)?", _spoken_time, text)
    text = re.sub(r"\b(\d+)\.0\b", r"\1", text)                       # 86.0 -> 86
    text = re.sub(r"\$(\d[\d,]*(?:\.\d+)?)", lambda m: m.group(1).replace(",", "") + " dollars", text)
    text = re.sub(r"\s*\n[\s-]*", "; ", text.strip())              # a list of lines said as one sentence
    return f"Here is what I found. {text.strip()}"


@on_answer
def restates(request: dict, text: str) -> str:
    return f"You asked: {_question(request)}\n\n{text}"


@on_answer
def listed(request: dict, text: str) -> str:
    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    bullets = "\n".join(f"- **{s}**" if i == 0 else f"- {s}" for i, s in enumerate(sentences))
    return f"Here is what I found:\n\n{bullets}\n\nLet me know if you need anything else."


def thinks(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    return replace(reply, content=f"<think>\n{_thought(reply)}\n</think>\n\n{reply.content or ''}")


def reasoning_field(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    return replace(reply, reasoning=_thought(reply), content="\n\n" if reply.tool_calls else reply.content)


def _thought(reply: Reply) -> str:
    if reply.tool_calls:
        return f"The question needs a tool. I should call {_names(reply, ', ')}."
    return "No tool is needed for this, or the results are in: I will answer in a sentence or two."


def _names(reply: Reply, between: str) -> str:
    return between.join(dict.fromkeys(call.name for call in reply.tool_calls))


def _question(request: dict) -> str:
    """The person's last message, on one line."""
    question = next(m for m in reversed(request["messages"]) if m["role"] == "user")
    return " ".join(message_text(question).split())


def _spoken_time(match: re.Match) -> str:
    year, month, day, hour, minute, offset = match.groups()
    return f"{hour}h{minute} on {int(day)}/{int(month)}/{year}" + (f" (UTC{offset})" if offset and offset != "Z" else "")


def _as_object(call: EmittedCall, key: str = "arguments") -> dict[str, Any]:
    """The call as the JSON object a model writes in text: its name, its arguments under `key` (parsed, or as sent
    when they are not JSON)."""
    arguments = parsed(call.arguments)
    return {"name": call.name, key: call.arguments if arguments is None else arguments}


_TABLE: list[tuple[Any, ...]] = [  # name, its change, and its wire if it has one (what each does: answers.toml)
    ("prose", with_prose),
    ("fenced", fenced),
    ("one_call", calls.one_call),
    ("reworded", reworded),
    ("clarify", calls.clarify),
    ("styled_args", calls.styled_args, other_ids),
    ("corrects", calls.corrects),
    ("json_text", json_text),
    ("tagged_json", tagged_json),
    ("tagged_function", tagged_function),
    ("mistral_text", mistral_text),
    ("llama_text", llama_text),
    ("fenced_json", fenced_json),
    ("empty_args", calls.empty_args),
    ("narrates", narrates),
    ("restates", restates),
    ("listed", listed),
    ("explicit_empty", _unchanged, explicit_empty),
    ("no_usage", _unchanged, lambda completion: {key: value for key, value in completion.items() if key != "usage"}),
    ("thinks", thinks),
    ("reasoning_field", reasoning_field),
    ("delegates", calls.delegates),
    ("plans", calls.plans),
]

VARIANTS: dict[str, tuple[str, Variant]] = {name: (words("answers")["variants"][name], Variant(name, *rest))
                                             for name, *rest in _TABLE}
"""name -> (what it does, in one line; the model)."""


def variant(name: str) -> Variant:
    """The variant called `name`; a ValueError that lists the valid names otherwise."""
    if name not in VARIANTS:
        raise ValueError(f"unknown offline model variant {name!r}; should be one of: {', '.join(VARIANTS)}")
    return VARIANTS[name][1]
