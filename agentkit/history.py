"""History trimming (chapter 13): a long conversation cut to a token budget, and still valid to send.

Every request sends the whole conversation again, so a long chat costs more each turn and at last outgrows the
context window. The system prompt and the last user message (with what follows it) always stay; the rest goes in
whole pieces, oldest first: earlier exchanges, then the current one's oldest tool calls with their results (the API
refuses a result whose call is gone, HTTP 400). Tokens are estimated at 4 characters each; `count=` takes a tokenizer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

Message = dict[str, Any]


def estimate_tokens(message: Message) -> int:
    """About one token every 4 characters of the message as JSON (no tokenizer needed; exact enough for a budget)."""
    return len(json.dumps(message, ensure_ascii=False)) // 4 + 1


def pieces(messages: Sequence[Message]) -> list[list[Message]]:
    """The messages in pieces that are kept or dropped whole: an assistant message with its tool results is one piece."""
    result: list[list[Message]] = []
    for message in messages:
        if message.get("role") == "tool" and result:
            result[-1].append(message)  # a result belongs with the call before it
        else:
            result.append([message])
    return result


def trim_history(messages: Sequence[Message], max_tokens: int,
                 count: Callable[[Message], int] = estimate_tokens) -> list[Message]:
    """The conversation within `max_tokens`: the system prompt, the last request, and as much recent history as fits.

    Returns a new list and leaves `messages` as it was. If the system prompt and the last user message alone
    are over the budget, they are returned anyway: dropping them would change the task, not shorten it.
    """
    if max_tokens <= 0:
        raise ValueError(f"max_tokens must be a positive number of tokens, got {max_tokens}")
    head = [m for m in messages[:1] if m.get("role") in ("system", "developer")]
    rest = pieces(messages[len(head):])
    users = [i for i, piece in enumerate(rest) if piece[0].get("role") == "user"]
    request = users[-1] if users else 0  # the last user message: it and what follows are the task at hand

    def size(kept: list[list[Message]]) -> int:
        return sum(count(m) for m in head) + sum(count(m) for piece in kept for m in piece)

    # First drop whole earlier exchanges, oldest first: what is kept still starts with a user message.
    starts = [i for i in users if i <= request]
    start = next((i for i in starts if size(rest[i:]) <= max_tokens), request)
    kept = rest[start:]
    # Then, if the current request alone is too long, its oldest tool calls and their results.
    while size(kept) > max_tokens and len(kept) > 2 and kept[1][0].get("tool_calls"):
        del kept[1]
    return head + [m for piece in kept for m in piece]
