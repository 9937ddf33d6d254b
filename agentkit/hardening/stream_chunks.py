"""A streamed reply's chunks, checked before the assembler reads them (chapter 10).

The attack: a provider streams garbage. A chunk is read the moment it arrives, so a provider's garbage (a delta
that is text instead of an object, a tool call whose `arguments` is an object, content that is a number) would
otherwise fail halfway through the stream with a TypeError. As `agentkit.hardening.replies` does for a whole reply,
these models name exactly the fields the assembler reads; a chunk that does not fit them stops the stream, and the
reason names the chunk and the field. Fields they do not name are ignored, as any client ignores them. Proved by
tests/test_streaming.py and tests/test_loop_provider_garbage.py."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from agentkit.hardening.replies import Checked, TokenCounts, first_problem


class FunctionPart(Checked):
    name: str | None = None
    """The tool's name, in the call's first delta."""
    arguments: str | None = None
    """A fragment of the arguments' JSON text."""


class ToolCallPart(Checked):
    index: int | None = None
    """Which call of the reply this fragment belongs to."""
    id: str | None = None
    """The call's id, in its first delta."""
    function: FunctionPart | None = None


class Delta(Checked):
    content: str | None = None
    """A few characters of the text."""
    reasoning_content: str | None = None
    """A few characters of thinking, on servers that stream it apart."""
    tool_calls: list[ToolCallPart] | None = None


class ChunkChoice(Checked):
    index: int = 0
    """Which choice; the loop reads choice 0."""
    delta: Delta | None = None
    finish_reason: str | None = None
    """Set on the choice's last chunk: a reply without it was cut short."""


class Chunk(Checked):
    choices: list[ChunkChoice] | None = None
    usage: TokenCounts | None = None
    """Token counts, in the last chunk when the request asked for them (kept whole: other counts too)."""


class UnusableChunk(ValueError):
    """A chunk the assembler cannot read; the message names the chunk and the field."""


def checked_chunk(chunk: Any, number: int) -> dict[str, Any]:
    """`chunk` (the SDK's object or a dict) as a plain dict of the fields the assembler reads, or `UnusableChunk`."""
    try:
        checked = Chunk.model_validate(chunk)
    except ValidationError as error:
        raise UnusableChunk(f"chunk {number} of the stream: {first_problem(error, 'the chunk')}") from None
    fields = checked.model_dump(exclude_none=True, exclude={"usage"})
    if checked.usage is not None:  # as sent, with the counts this model does not name (total_tokens, details)
        usage = chunk["usage"] if isinstance(chunk, dict) else chunk.usage
        fields["usage"] = usage if isinstance(usage, dict) else usage.model_dump(exclude_none=True)
    return fields
