"""Variants: the offline model made to behave the way other real models do, one habit each, in one table.

Each variant wraps the base model: it asks `OfflineModel` for its `Reply`, then changes one thing about it,
deterministically (`change`: how a reply's text is written, `text_habits.py`; which calls, and when,
`call_habits.py`; a helper agent or a plan tool used, `agent_habits.py`), and may write the completion in its
server's shape (`wire`, below). None of them is wrong: each is something a real model does, so a notebook that
works with only one of them relies on one model's habits. Select one with `MODEL=offline/<name>` (no key set) or
`connect_offline(variant="<name>")`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentkit.offline import agent_habits as agents
from agentkit.offline import call_habits as calls
from agentkit.offline import text_habits as text
from agentkit.offline.lexicon import words
from agentkit.offline.model import OfflineModel, Reply
from agentkit.offline.text_habits import Change

Completion = dict[str, Any]


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


_TABLE: list[tuple[Any, ...]] = [  # name, its change, and its wire if it has one (what each does: answers.toml)
    ("prose", text.with_prose),
    ("fenced", text.fenced),
    ("one_call", calls.one_call),
    ("reworded", text.reworded),
    ("clarify", calls.clarify),
    ("styled_args", calls.styled_args, other_ids),
    ("corrects", calls.corrects),
    ("json_text", text.json_text),
    ("tagged_json", text.tagged_json),
    ("tagged_function", text.tagged_function),
    ("mistral_text", text.mistral_text),
    ("llama_text", text.llama_text),
    ("fenced_json", text.fenced_json),
    ("empty_args", calls.empty_args),
    ("narrates", text.narrates),
    ("restates", text.restates),
    ("listed", text.listed),
    ("explicit_empty", _unchanged, explicit_empty),
    ("no_usage", _unchanged, lambda completion: {key: value for key, value in completion.items() if key != "usage"}),
    ("thinks", text.thinks),
    ("reasoning_field", text.reasoning_field),
    ("delegates", agents.delegates),
    ("plans", agents.plans),
]

VARIANTS: dict[str, tuple[str, Variant]] = {name: (words("answers")["variants"][name], Variant(name, *rest))
                                             for name, *rest in _TABLE}
"""name -> (what it does, in one line; the model)."""


def variant(name: str) -> Variant:
    """The variant called `name`; a ValueError that lists the valid names otherwise."""
    if name not in VARIANTS:
        raise ValueError(f"unknown offline model variant {name!r}; should be one of: {', '.join(VARIANTS)}")
    return VARIANTS[name][1]
