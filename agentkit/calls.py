"""One tool call (chapter 02), however it reached us: a model's native reply, a stream, a `FUNCTION:` line, text
read back by recovery, an MCP request. Every source makes a `ToolCall`; the loop, the policy and the front ends
read only this.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ToolCall:
    """A call the model asked for: its arguments as sent, and as parsed, or why they could not be."""

    id: str
    """Pairs the call with its result in the history ("" where a protocol has no ids)."""
    name: str
    raw_arguments: str
    """The arguments exactly as the model wrote them (JSON text, for every source but the `FUNCTION:` line)."""
    arguments: dict[str, Any] | None
    """The arguments parsed; None when they could not be (then `error` says why)."""
    error: str | None = None

    @classmethod
    def parse(cls, id: str, name: str, raw_arguments: str) -> ToolCall:
        """The call with its JSON arguments parsed: `""` (some servers' call without arguments) is `{}`."""
        try:
            arguments = json.loads(raw_arguments or "{}")
        except (ValueError, RecursionError) as error:
            return cls(id, name, raw_arguments, None, f"the arguments are not JSON: {error}")
        if not isinstance(arguments, dict):
            return cls(id, name, raw_arguments, None, f"the arguments are a JSON {type(arguments).__name__}, "
                                                      "not an object")
        return cls(id, name, raw_arguments, arguments)

    def __str__(self) -> str:  # as the model wrote it: get_current_time({"timezone": "Asia/Tokyo"})
        return f"{self.name}({self.raw_arguments})"

    def as_message_part(self) -> dict[str, Any]:
        """The call as it goes into an assistant message of the history."""
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.raw_arguments}}
