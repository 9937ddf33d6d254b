"""One model turn of the agent loop (chapter 08): send the messages, get back a reply the loop can use, or why not.

A provider can fail (HTTP errors, timeouts, after the SDK's own retries) or answer with something the loop
cannot read (see `agentkit.hardening.replies`); either way the turn reports a failure and adds nothing to the history.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import openai

from agentkit.events import Event
from agentkit.hardening.replies import ModelMessage, check_reply
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

    def take(self, other: ModelTurn) -> None:
        self.message, self.usage, self.failure = other.message, other.usage, other.failure


async def ask_model(client: openai.AsyncOpenAI, model: str, messages: list[dict], tools: list[dict], stream: bool,
                    reply: ModelTurn) -> AsyncIterator[Event]:
    """One request with `messages`: `reply` gets the model's message, or why the task failed.

    Streamed, each piece of text is yielded as it comes. A stream can break where a whole reply cannot: a chunk
    that is not JSON or not shaped as a chunk, no chunk at all (the body was an HTML page), or an end before the
    model finished (no `finish_reason`). Each fails the turn with its reason; the text already shown stays shown,
    but none of it is kept.
    """
    if not stream:
        reply.take(await _whole(client, model, messages, tools))
        return
    try:
        chunks = await client.chat.completions.create(model=model, messages=messages, stream=True,
                                                      stream_options={"include_usage": True},
                                                      **({"tools": tools} if tools else {}))
        async with chunks:  # closes the connection however the reading ends: a bad chunk, a cancel
            async for item in read_stream(chunks):
                if isinstance(item, TextDelta):
                    yield Event("text", text=item.text)
                elif isinstance(item, StreamedReply):
                    whole = item
    except openai.APIError as error:  # a stream can also break halfway: nothing of this turn is kept either
        reply.take(_request_failed(client, error))
    except (UnusableChunk, json.JSONDecodeError) as error:  # the SDK decodes each event's JSON as it comes
        reply.take(_unusable(_named(error)))
    else:
        reply.take(_assembled(client, chunks, whole, messages, tools))


async def _whole(client: openai.AsyncOpenAI, model: str, messages: list[dict], tools: list[dict]) -> ModelTurn:
    """The reply in one piece. The raw response is parsed here rather than by `create`, so that a body the SDK
    cannot even decode (empty, or not JSON) is reported like any other unusable reply instead of raising."""
    try:
        raw = await client.chat.completions.with_raw_response.create(
            model=model, messages=messages, **({"tools": tools} if tools else {}))
    except openai.APIError as error:  # after the SDK's own retries: HTTP errors, connection errors, timeouts
        return _request_failed(client, error)
    try:
        response = raw.parse()
    except Exception as error:  # only the body's decoding runs here: it is the provider's fault, not ours
        size, kind = len(raw.content), raw.headers.get("content-type", "no content-type")
        return _unusable(f"its body ({size:,} bytes, {kind}) is not JSON: {type(error).__name__}: {error}")
    return _checked(response)


def _assembled(client: openai.AsyncOpenAI, chunks: Any, reply: StreamedReply, messages: list[dict], tools: list[dict]
               ) -> ModelTurn:
    """The streamed reply, once the stream has ended, checked as a whole reply is."""
    if not reply.chunks:
        kind = chunks.response.headers.get("content-type", "no content-type")
        return _unusable(f"its body ({kind}) held no stream event")
    if reply.finish_reason is None:
        return _unusable(f"the stream ended without a finish_reason (chunks received: {reply.chunks}): it was cut "
                         "short before the reply was whole")
    message = reply.message()
    if recovers(client):
        message = recover_reply(message, messages, tools)
    return _checked({"choices": [{"message": message, "finish_reason": reply.finish_reason}], "usage": reply.usage})


def _request_failed(client: openai.AsyncOpenAI, error: openai.APIError) -> ModelTurn:
    # The provider's message is shown to a person and kept in transcripts; some providers echo the key in it.
    return ModelTurn(failure=without_key(f"the model request failed: {type(error).__name__}: {error}", client.api_key))


def _unusable(reason: str) -> ModelTurn:
    return ModelTurn(failure=f"the model's reply could not be used: {reason}")


def _named(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"a stream event is not JSON: {error}: {error.doc[:80]!r}"
    return str(error)


def _checked(response: Any) -> ModelTurn:
    reply, problem = check_reply(response)
    if problem:
        return _unusable(problem)
    choice = reply.choices[0]
    if not choice.message.tool_calls and not (choice.message.content or "").strip():
        return _unusable(_empty(choice.finish_reason, choice.message.reasoning_content))
    return ModelTurn(choice.message, reply.usage)


def _empty(finish_reason: str | None, reasoning: str | None) -> str:
    """Why a reply with no text and no call fails the turn instead of completing the task with an empty answer.

    It is no answer: a model cut off (`length`, often by its own thinking), filtered (`content_filter`), or
    simply silent. Kept, it would also break the history: an assistant message with neither text nor calls
    is refused by several providers (OpenAI: content is required unless there are tool_calls). Failed, the
    task is resumed as it stood, and the person sees why.
    """
    thought = f", after {len(reasoning):,} characters of thinking" if reasoning else ""
    return (f"it holds neither text nor a tool call (finish_reason: {finish_reason or 'none given'}{thought}); "
            "ask again, or allow the model more tokens if it was cut off")
