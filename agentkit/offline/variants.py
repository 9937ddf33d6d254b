"""Variants: the offline model made to behave the way other real models do, one habit at a time.

Each variant wraps the base model: it asks `OfflineModel` for its `Reply`, then changes one thing about
it, deterministically. None of them is wrong: each is something a real model does, so a notebook that
works with only one of them is relying on one model's habits. Select one with `MODEL=offline/<name>`
(no key set) or `connect_offline(variant="<name>")`; `VARIANTS` lists them. The habits themselves are in
`text_habits.py` (how a reply's text is written), `call_habits.py` (which calls, and when) and
`wire_habits.py` (how the server writes the completion out).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentkit.offline.call_habits import clarify, corrects, empty_args, one_call, styled_args
from agentkit.offline.model import OfflineModel, Reply
from agentkit.offline.text_habits import (
    fenced,
    fenced_json,
    json_text,
    listed,
    llama_text,
    mistral_text,
    narrates,
    reasoning_field,
    restates,
    reworded,
    tagged_function,
    tagged_json,
    thinks,
    with_prose,
)
from agentkit.offline.wire_habits import Completion, explicit_empty, no_usage, other_ids


@dataclass(frozen=True)
class Variant:
    """The base model's reply to a request, then `change` applied to it."""

    name: str
    """What `MODEL=offline/<name>` selects."""
    change: Callable[[OfflineModel, dict[str, Any], Reply], Reply]
    """(base model, request, base reply) -> the reply this variant sends instead."""
    wire: Callable[[Completion], Completion] | None = None
    """(the completion as the base server writes it) -> as this variant's server writes it; None: unchanged."""
    base: OfflineModel = OfflineModel()
    """The model whose replies are changed."""

    def respond(self, request: dict[str, Any]) -> Reply:
        return self.change(self.base, request, self.base.respond(request))


def _unchanged(base: OfflineModel, request: dict[str, Any], reply: Reply) -> Reply:
    return reply  # the variant's habit is only in how the completion is written out (its `wire`)


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
    ("mistral_text", "tool calls as [TOOL_CALLS][{JSON}, ...] in `content` (Mistral format, vLLM without "
                     "--tool-call-parser mistral)", mistral_text),
    ("llama_text", "tool calls as <|python_tag|>{\"name\", \"parameters\"}; {...} in `content` (Llama 3.x format, no "
                   "llama3_json parser)", llama_text),
    ("fenced_json", "each tool call as a ```json fenced object in `content` (a chat model told of the tools only in "
                    "its prompt, as a client must do for a model served without tool support)", fenced_json),
    ("empty_args", 'a call without arguments sends arguments "" instead of "{}" (Claude through OpenRouter or '
                   "Bedrock does)", empty_args),
    ("narrates", "a long answer-like sentence in `content` beside the tool calls, restating the question (as GPT-4o "
                 "and Claude often write)", narrates),
    ("restates", "final answers that open by restating the question in a paragraph of their own (as chat-tuned "
                 "Llama and Gemma models often do)", restates),
    ("listed", "final answers as paragraphs and a Markdown list, one bullet a sentence, the first in bold (as GPT-4o "
               "and Claude lay results out)", listed),
    ("explicit_empty", "optional message fields written out empty: tool_calls [] on answers, refusal, function_call "
                       "and reasoning_content null (as vLLM sends them)", _unchanged),
    ("no_usage", "no `usage` in replies (the API marks it optional; some compatible servers leave it out)", _unchanged),
    ("thinks", "a <think>...</think> block before every answer and next to every tool call", thinks),
    ("reasoning_field", "thinking in a reasoning_content field, blank content beside tool calls (as llama.cpp sends "
                        "them)", reasoning_field),
]
_WIRE: dict[str, Callable[[Completion], Completion]] = {
    "styled_args": other_ids, "explicit_empty": explicit_empty, "no_usage": no_usage}
"""Variants that (also) change how the completion is written out: the call ids, the optional fields."""

VARIANTS: dict[str, tuple[str, Variant]] = {
    name: (doc, Variant(name, change, _WIRE.get(name))) for name, doc, change in _LISTED}
"""name -> (what it does, in one line; the model)."""


def variant(name: str) -> Variant:
    """The variant called `name`; a ValueError that lists the valid names otherwise."""
    if name not in VARIANTS:
        raise ValueError(f"unknown offline model variant {name!r}; should be one of: {', '.join(VARIANTS)}")
    return VARIANTS[name][1]
