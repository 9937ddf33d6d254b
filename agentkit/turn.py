"""One model turn of the agent loop (chapter 08): send the messages, get back a reply the loop can use, or why not.

A provider can fail (HTTP errors, timeouts, after the SDK's own retries) or answer with something the loop
cannot read (`agentkit.hardening.replies`); either way the turn reports a failure and adds nothing to the history.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import openai

from agentkit.events import Event
from agentkit.hardening.replies import ModelMessage, check_reply, stream_problem
from agentkit.hardening.secrets import without_key
from agentkit.hardening.stream_chunks import UnusableChunk
from agentkit.recovery import recover_reply, recovers
from agentkit.streaming import StreamedReply, TextDelta, read_stream


@dataclass
class ModelTurn:
    """What one request to the model gave: the reply's message and its token counts, or why the task failed."""

    message: ModelMessage | None = None
    """The assistant message, checked: text, tool calls, maybe reasoning."""
    usage: Any = None
    """The reply's token counts (prompt_tokens, completion_tokens), when the provider sent them."""
    failure: str | None = None
    """Why the reply cannot be used; then `message` is None."""


async def ask_model(client: openai.AsyncOpenAI, model: str, messages: list[dict], tools: list[dict], stream: bool,
                    reply: ModelTurn) -> AsyncIterator[Event]:
    """One request with `messages`: `reply` gets the model's message, or why the task failed.

    Streamed, each piece of text is yielded as it comes. A stream can also break: a chunk that is not JSON or
    not shaped as a chunk, no chunk at all, an end before the model finished. The text already shown stays
    shown, but none of it is kept.
    """
    tools_sent = {"tools": tools} if tools else {}
    try:
        if not stream:
            # Parsed here rather than by `create`: a body the SDK cannot decode is one more unusable reply.
            raw = await client.chat.completions.with_raw_response.create(model=model, messages=messages, **tools_sent)
            try:
                response = raw.parse()
            except Exception as error:  # only the body's decoding runs here: it is the provider's fault, not ours
                size, kind = len(raw.content), raw.headers.get("content-type", "no content-type")
                reply.failure = _unusable(f"its body ({size:,} bytes, {kind}) is not JSON: {type(error).__name__}: {error}")
            else:
                _checked(reply, response)
            return
        chunks = await client.chat.completions.create(model=model, messages=messages, stream=True,
                                                      stream_options={"include_usage": True}, **tools_sent)
        async with chunks:  # closes the connection however the reading ends: a bad chunk, a cancel
            async for item in read_stream(chunks):
                if isinstance(item, TextDelta):
                    yield Event("text", text=item.text)
                elif isinstance(item, StreamedReply):
                    whole = item
    except openai.APIError as error:  # after the SDK's own retries; a stream can also break halfway
        # The provider's message is shown to a person and kept in transcripts; some providers echo the key in it.
        reply.failure = without_key(f"the model request failed: {type(error).__name__}: {error}", client.api_key)
        return
    except (UnusableChunk, json.JSONDecodeError) as error:  # the SDK decodes each event's JSON as it comes
        reply.failure = _unusable(f"a stream event is not JSON: {error}: {error.doc[:80]!r}"
                                  if isinstance(error, json.JSONDecodeError) else str(error))
        return
    if problem := stream_problem(whole, chunks.response.headers.get("content-type", "no content-type")):
        reply.failure = _unusable(problem)
        return
    message = recover_reply(whole.message(), messages, tools) if recovers(client) else whole.message()
    _checked(reply, {"choices": [{"message": message, "finish_reason": whole.finish_reason}], "usage": whole.usage})


def _checked(reply: ModelTurn, response: Any) -> None:
    checked, problem = check_reply(response)
    if problem:
        reply.failure = _unusable(problem)
    else:
        reply.message, reply.usage = checked.choices[0].message, checked.usage


def _unusable(reason: str) -> str:
    return f"the model's reply could not be used: {reason}"
