"""Variants: the offline model made to behave the way other real models do, one habit at a time.

Each variant wraps the base model: it asks `OfflineModel` for its `Reply`, then changes one thing about
it, deterministically. None of them is wrong: each is something a real model does, so a notebook that
works with only one of them is relying on one model's habits. Select one with `MODEL=offline/<name>`
(no key set) or `connect(variant="<name>")`; `VARIANTS` lists them. The habits themselves are in
`text_habits.py` (how a reply's text is written) and `call_habits.py` (which calls, and when).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentkit.offline.call_habits import clarify, corrects, one_call, other_id, styled_args
from agentkit.offline.model import OfflineModel, Reply
from agentkit.offline.text_habits import (
    fenced,
    json_text,
    reasoning_field,
    reworded,
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


_LISTED: list[tuple[str, str, Callable[[OfflineModel, dict[str, Any], Reply], Reply]]] = [
    ("prose", "a sentence before a FUNCTION: line, and a sentence in `content` next to native tool calls", with_prose),
    ("fenced", "the FUNCTION: line inside a ``` code fence", fenced),
    ("one_call", "one tool call per reply where the base model makes several; the others on later turns", one_call),
    ("reworded", "final answers in other words, times and numbers written differently from the tool output", reworded),
    ("clarify", "asks which value you mean instead of calling a tool with its parameters left to defaults", clarify),
    ("styled_args", "arguments with other whitespace and key order, schema defaults filled in; call ids like call_0, "
                    "toolu_01..., or 9 characters", styled_args),
    ("corrects", "a first call with an argument of the wrong type, corrected after its Error: result", corrects),
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
_RENAMED_IDS = {"styled_args": other_id}
"""Variants that also change the call ids the wire format gives."""

VARIANTS: dict[str, tuple[str, Variant]] = {
    name: (doc, Variant(name, change, _RENAMED_IDS.get(name))) for name, doc, change in _LISTED}
"""name -> (what it does, in one line; the model)."""


def variant(name: str) -> Variant:
    """The variant called `name`; a ValueError that lists the valid names otherwise."""
    if name not in VARIANTS:
        raise ValueError(f"unknown offline model variant {name!r}; should be one of: {', '.join(VARIANTS)}")
    return VARIANTS[name][1]
