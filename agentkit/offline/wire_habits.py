"""Variants of the offline model that write the same reply in another server's shape of the Chat Completions format.

The reply is the base model's; only how the completion is written changes: which optional fields are there,
how an empty value is written, what the ids look like. Each function here takes the completion as the base
server writes it (`agentkit.offline.protocol`) and returns it as the variant's server would; the streamed form
is made from it, so both agree. Listed as a variant's `wire` in `agentkit.offline.variants`.
"""

from __future__ import annotations

import copy
import re
from typing import Any

Completion = dict[str, Any]


def other_ids(completion: Completion) -> Completion:
    """`call_0`-style indices, Anthropic-style `toolu_...` and Mistral-style 9-character ids, by turns."""
    completion = copy.deepcopy(completion)
    for index, call in enumerate(_message(completion).get("tool_calls") or []):
        digits = re.sub(r"[\W_]", "", call["id"])[-12:].rjust(12, "0")
        call["id"] = [f"call_{index}", f"toolu_01{digits.upper()}", digits[:9]][sum(map(ord, call["id"])) % 3]
    return completion


def explicit_empty(completion: Completion) -> Completion:
    """Every optional field of the message written out, empty: `tool_calls: []` on an answer, the rest null."""
    completion = copy.deepcopy(completion)
    message = _message(completion)
    message.setdefault("tool_calls", [])
    for field in ("refusal", "function_call", "reasoning_content", "audio"):
        message.setdefault(field, None)
    return completion


def no_usage(completion: Completion) -> Completion:
    """No `usage` (the API marks it optional): a client that counts tokens must cope without it."""
    return {key: value for key, value in completion.items() if key != "usage"}


def _message(completion: Completion) -> dict[str, Any]:
    return completion["choices"][0]["message"]
