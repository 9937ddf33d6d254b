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


_TABLE: list[tuple[Any, ...]] = [  # name, what it does in one line, its change, and its wire if it has one
    ("prose", "a sentence before a FUNCTION: line, and a sentence in `content` next to native tool calls", text.with_prose),
    ("fenced", "the FUNCTION: line inside a ``` code fence", text.fenced),
    ("one_call", "one tool call per reply where the base model makes several; the others on later turns", calls.one_call),
    ("reworded", "final answers in other words, times and numbers written differently from the tool output", text.reworded),
    ("clarify", "asks which value you mean instead of calling a tool with its parameters left to defaults", calls.clarify),
    ("styled_args", "arguments with other whitespace and key order, schema defaults filled in; call ids like call_0, "
                    "toolu_01..., or 9 characters", calls.styled_args, other_ids),
    ("corrects", "a first call with an argument of the wrong type, corrected after its Error: result", calls.corrects),
    ("json_text", "each tool call written as a JSON object in `content`, no tool_calls (a server without a tool parser)",
     text.json_text),
    ("tagged_json", "each tool call as <tool_call>{JSON}</tool_call> in `content` (Hermes/Qwen2.5 format, no parser)",
     text.tagged_json),
    ("tagged_function", "tool calls as <tool_call><function=...><parameter=...> in `content`, after a sentence "
                        "(Qwen3-Coder format, no parser)", text.tagged_function),
    ("mistral_text", "tool calls as [TOOL_CALLS][{JSON}, ...] in `content` (Mistral format, vLLM without "
                     "--tool-call-parser mistral)", text.mistral_text),
    ("llama_text", "tool calls as <|python_tag|>{\"name\", \"parameters\"}; {...} in `content` (Llama 3.x format, no "
                   "llama3_json parser)", text.llama_text),
    ("fenced_json", "each tool call as a ```json fenced object in `content` (a chat model told of the tools only in "
                    "its prompt, as a client must do for a model served without tool support)", text.fenced_json),
    ("empty_args", 'a call without arguments sends arguments "" instead of "{}" (Claude through OpenRouter or '
                   "Bedrock does)", calls.empty_args),
    ("narrates", "a long answer-like sentence in `content` beside the tool calls, restating the question (as GPT-4o "
                 "and Claude often write)", text.narrates),
    ("restates", "final answers that open by restating the question in a paragraph of their own (as chat-tuned "
                 "Llama and Gemma models often do)", text.restates),
    ("listed", "final answers as paragraphs and a Markdown list, one bullet a sentence, the first in bold (as GPT-4o "
               "and Claude lay results out)", text.listed),
    ("explicit_empty", "optional message fields written out empty: tool_calls [] on answers, refusal, function_call "
                       "and reasoning_content null (as vLLM sends them)", _unchanged, explicit_empty),
    ("no_usage", "no `usage` in replies (the API marks it optional; some compatible servers leave it out)", _unchanged,
     lambda completion: {key: value for key, value in completion.items() if key != "usage"}),
    ("thinks", "a <think>...</think> block before every answer and next to every tool call", text.thinks),
    ("reasoning_field", "thinking in a reasoning_content field, blank content beside tool calls (as llama.cpp sends "
                        "them)", text.reasoning_field),
    ("delegates", "a request of several steps or a research-like one handed whole to a tool that hands work to another "
                  "agent, its answer relayed (as Claude does with Claude Code's Task tool)", agents.delegates),
    ("plans", "a request of several steps: a plan written through a plan tool first, each step marked done after its "
              "call, and a step a reminder lists marked once done (as Claude Code's to-do list)", agents.plans),
]

VARIANTS: dict[str, tuple[str, Variant]] = {name: (doc, Variant(name, *rest)) for name, doc, *rest in _TABLE}
"""name -> (what it does, in one line; the model)."""


def variant(name: str) -> Variant:
    """The variant called `name`; a ValueError that lists the valid names otherwise."""
    if name not in VARIANTS:
        raise ValueError(f"unknown offline model variant {name!r}; should be one of: {', '.join(VARIANTS)}")
    return VARIANTS[name][1]
