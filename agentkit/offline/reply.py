"""What the offline model decides on a turn: a `Reply` of text, tool calls, or both; the protocol module writes it out."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EmittedCall:
    """One call the offline model emits: a tool name and its arguments as JSON text, as the API sends them. (What
    the agent reads back is `agentkit.calls.ToolCall`; this is the stand-in model's side of the wire.)"""

    name: str
    arguments: str = "{}"


@dataclass(frozen=True)
class Reply:
    """What the model decided: text, tool calls, or both."""

    content: str | None = None
    tool_calls: tuple[EmittedCall, ...] = ()
    refusal: str | None = None
    """Why it will not answer in the shape asked (`response_format`), instead of content."""
    reasoning: str | None = None
    """Thinking sent apart from the answer, as `reasoning_content` (some servers do; the base model never)."""
