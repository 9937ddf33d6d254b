"""A scripted model for tests that need exact control: it answers with the next reply from a queue."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable
from typing import Any

from agentkit.offline.model import EmittedCall, Reply
from agentkit.offline.protocol import ApiError

Scripted = str | EmittedCall | list[EmittedCall] | int
"""A text reply, one tool call, several tool calls, or an HTTP status code to fail with."""


def call(name: str, **arguments: Any) -> EmittedCall:
    """A scripted tool call: `call("get_current_time", timezone="Asia/Tokyo")`."""
    return EmittedCall(name, json.dumps(arguments))


class ScriptedModel:
    """Replies in order, and keeps every request it received so a test can look at what was sent."""

    def __init__(self, replies: Iterable[Scripted]):
        self.replies = deque(replies)
        self.requests: list[dict[str, Any]] = []

    def respond(self, request: dict[str, Any]) -> Reply:
        self.requests.append(request)
        if not self.replies:
            raise ApiError(500, f"the scripted model has no reply left for request #{len(self.requests)}")
        reply = self.replies.popleft()
        if isinstance(reply, int):
            raise ApiError(reply, f"scripted failure with HTTP status {reply}")
        if isinstance(reply, str):
            return Reply(content=reply)
        return Reply(tool_calls=tuple(reply) if isinstance(reply, list) else (reply,))
