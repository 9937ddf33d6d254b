"""One tool call (chapter 02), however it reached us: a model's native reply, a stream, a `FUNCTION:` line, text
read back by recovery, an MCP request. Every source makes a `ToolCall`, its arguments parsed once, here; the policy,
the dispatcher, the loop and the front ends read only this.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agentkit.hardening.arguments import decode_arguments


@dataclass(frozen=True)
class ToolCall:
    """A call the model asked for: its arguments as sent, and as parsed, or why they could not be."""

    id: str  # pairs the call with its result in the history ("" where a protocol has no ids)
    name: str
    raw_arguments: str  # the arguments exactly as the model wrote them (JSON text, for every source but the `FUNCTION:` line)
    arguments: dict[str, Any] | None  # the arguments parsed; None when they could not be (then `error` says why)
    error: str | None = None  # what is wrong with the arguments, to follow "the arguments": "are not valid JSON (...)"

    @classmethod
    def parse(cls, id: str, name: str, raw_arguments: str | Mapping) -> ToolCall:
        """The call with its arguments parsed: JSON text (`""`, some servers' call without arguments, is `{}`), or
        a dict a framework or an MCP client already parsed, checked as its JSON text would be."""
        arguments, problem = decode_arguments(raw_arguments)
        if not isinstance(raw_arguments, str):
            raw_arguments = json.dumps(arguments, ensure_ascii=False) if not problem else repr(raw_arguments)
        return cls(id, name, raw_arguments, None if problem else arguments, problem)

    def __str__(self) -> str:  # as the model wrote it: get_current_time({"timezone": "Asia/Tokyo"})
        return f"{self.name}({self.raw_arguments})"

    def as_message_part(self) -> dict[str, Any]:
        """The call as it goes into an assistant message of the history."""
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.raw_arguments}}
