"""One model turn (chapter 08): `plain_turn` gets the whole reply at once, `streamed_turn` yields its text as it
comes. A provider that fails (after the SDK's retries) or sends what the loop cannot read (`hardening.replies`)
gives a failure, and nothing is added to the history.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import openai

from agentkit.hardening.replies import ModelMessage, check_reply, stream_problem
from agentkit.hardening.secrets import without_key
from agentkit.hardening.stream_chunks import UnusableChunk
from agentkit.recovery import RecoveringClient, recover_reply
from agentkit.streaming import StreamedReply, TextDelta, read_stream
from agentkit.task import ModelFailed


@dataclass(frozen=True)
class ModelTurn:
    """What one request to the model gave: the reply's message and its token counts, or why the task failed."""

    message: ModelMessage | None = None  # the assistant message, checked: text, tool calls, maybe reasoning
    usage: Any = None  # the reply's token counts (prompt_tokens, completion_tokens), when the provider sent them
    failure: ModelFailed | None = None  # why the model failed; then `message` is None


async def model_turn(client: openai.AsyncOpenAI, model: str, messages: list[dict], tools: list[dict], *,
                     stream: bool) -> AsyncIterator[TextDelta | ModelTurn]:
    """One turn, plain or streamed as `stream` says: a streamed reply's text as it comes, then the `ModelTurn`."""
    if not stream:
        yield await plain_turn(client, model, messages, tools)
        return
    async for item in streamed_turn(client, model, messages, tools):
        yield item


async def plain_turn(client: openai.AsyncOpenAI, model: str, messages: list[dict], tools: list[dict]) -> ModelTurn:
    """One request with `messages`; the whole reply at once (calls a local server left in its text are read back
    by the client's transport: `agentkit.recovery`)."""
    try:
        raw = await client.chat.completions.with_raw_response.create(model=model, messages=messages,
                                                                     **({"tools": tools} if tools else {}))
    except openai.APIError as error:
        return _failed(client, error)
    try:  # parsed here rather than by `create`: a body the SDK cannot decode is one more unusable reply
        response = raw.parse()
    except Exception as error:  # only the body's decoding runs here: it is the provider's fault, not ours
        size, kind = len(raw.content), raw.headers.get("content-type", "no content-type")
        return _unusable(f"its body ({size:,} bytes, {kind}) is not JSON: {type(error).__name__}: {error}")
    return _checked(response)


async def streamed_turn(client: openai.AsyncOpenAI, model: str, messages: list[dict], tools: list[dict]
                        ) -> AsyncIterator[TextDelta | ModelTurn]:
    """One streamed request: each piece of text as it comes, then the `ModelTurn`, last.

    A stream can break: a chunk that is not JSON or not shaped as a chunk, no chunk at all, an end before the
    model finished. The text already shown stays shown, but none of it is kept."""
    try:
        chunks = await client.chat.completions.create(model=model, messages=messages, stream=True,
                                                      stream_options={"include_usage": True},
                                                      **({"tools": tools} if tools else {}))
        async with chunks:  # closes the connection however the reading ends: a bad chunk, a cancel
            async for item in read_stream(chunks):
                if isinstance(item, TextDelta):
                    yield item
                elif isinstance(item, StreamedReply):
                    whole = item
    except openai.APIError as error:  # a stream can also break halfway
        yield _failed(client, error)
        return
    except (UnusableChunk, json.JSONDecodeError) as error:  # the SDK decodes each event's JSON as it comes
        yield _unusable(f"a stream event is not JSON: {error}: {error.doc[:80]!r}"
                        if isinstance(error, json.JSONDecodeError) else str(error))
        return
    if problem := stream_problem(whole, chunks.response.headers.get("content-type", "no content-type")):
        yield _unusable(problem)
        return
    # A stream passes the transport as it comes, so a streamed reply's calls are read from its text here, once whole.
    message = recover_reply(whole.message(), messages, tools) if isinstance(client, RecoveringClient) else whole.message()
    yield _checked({"choices": [{"message": message, "finish_reason": whole.finish_reason}], "usage": whole.usage})


def _checked(response: Any) -> ModelTurn:
    checked, problem = check_reply(response)
    return _unusable(problem) if problem else ModelTurn(checked.choices[0].message, checked.usage)


def _failed(client: openai.AsyncOpenAI, error: openai.APIError) -> ModelTurn:
    # The provider's message is shown to a person and kept in transcripts; some providers echo the key in it.
    return ModelTurn(failure=ModelFailed("unreachable", without_key(f"{type(error).__name__}: {error}", client.api_key)))


def _unusable(reason: str) -> ModelTurn:
    return ModelTurn(failure=ModelFailed("unusable", reason))
