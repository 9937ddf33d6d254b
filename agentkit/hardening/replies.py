"""A model's reply, checked before the loop reads it (chapter 08).

The attack: a provider (or whatever stands between us and it) answers HTTP 200 with a body the loop cannot use: no
`choices`, an HTML error page, a `message` that is null, a tool call without a name, arguments sent as an object
instead of JSON text. The SDK does not check what it returns (it builds its objects without validation), so without
a check the loop would fail halfway through a turn with an IndexError or a TypeError. These models name exactly
what the loop reads; a reply that does not fit them is refused as a whole, with the field that was wrong. Proved by
tests/test_loop_provider_garbage.py."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator


class Checked(BaseModel):
    """A reply's part as the loop reads it: from the SDK's objects (built without validation) or plain dicts,
    field by field (`from_attributes`); fields it does not name are ignored, as any client ignores them."""

    model_config = ConfigDict(from_attributes=True)


class CalledFunction(Checked):
    name: str = Field(min_length=1)
    """The tool the model asks for (the policy checks that it exists)."""
    arguments: str
    """The arguments as JSON text (the dispatcher parses and checks them)."""


class ModelToolCall(Checked):
    id: str = Field(min_length=1)
    """Pairs the call with its result in the history."""
    function: CalledFunction


class ModelMessage(Checked):
    content: str | None = None
    """The model's text; None when it only calls tools."""
    tool_calls: list[ModelToolCall] | None = None
    """The calls it asks for; none means the text is its answer."""
    reasoning_content: str | None = None
    """Thinking some servers send apart from the answer; shown on request, sent back only beside tool calls."""

    @field_validator("tool_calls")
    @classmethod
    def _ids_are_unique(cls, calls: list[ModelToolCall] | None) -> list[ModelToolCall] | None:
        twice = sorted(id for id, count in Counter(call.id for call in calls or []).items() if count > 1)
        if twice:  # each result is paired with its call by id: two calls with one id cannot both be answered
            raise ValueError(f"each call needs its own id, but {', '.join(map(repr, twice))} is used more than once")
        return calls


class Choice(Checked):
    message: ModelMessage
    finish_reason: str | None = None
    """Why the model stopped (stop, tool_calls, length, content_filter...); named when a reply holds nothing."""


class TokenCounts(Checked):
    # A negative count would silently lower the task's totals, and the budgets read from them.
    prompt_tokens: int | None = Field(default=None, ge=0)
    completion_tokens: int | None = Field(default=None, ge=0)


class ModelReply(Checked):
    choices: list[Choice] = Field(min_length=1)
    """The loop reads the first choice; a reply without one has nothing to read."""
    usage: TokenCounts | None = None
    """Some providers leave it out."""


def check_reply(response: Any) -> tuple[ModelReply | None, str | None]:
    """The reply as the loop reads it, or None and what was wrong with it, naming the field."""
    if isinstance(response, str):  # the SDK hands back the text of a body that is not JSON
        return None, f"the body is text, not a JSON object: {_shown(response)}"
    if isinstance(response, list):
        return None, f"the body is a JSON array, not an object: {_shown(response)}"
    try:
        reply = ModelReply.model_validate(response)
    except ValidationError as error:
        return None, first_problem(error, "the body")
    choice = reply.choices[0]
    if not choice.message.tool_calls and not (choice.message.content or "").strip():
        return None, _empty(choice.finish_reason, choice.message.reasoning_content)
    return reply, None


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


def stream_problem(reply: Any, content_type: str) -> str | None:
    """What makes a stream that ended unusable as a reply: no event at all, or no `finish_reason` (cut short)."""
    if not reply.chunks:
        return f"its body ({content_type}) held no stream event"
    if reply.finish_reason is None:
        return (f"the stream ended without a finish_reason (chunks received: {reply.chunks}): it was cut short "
                "before the reply was whole")
    return None


def first_problem(error: ValidationError, whole: str) -> str:
    """The first thing `error` found wrong, naming its field as the loop reads it ("choices[0].message")."""
    first = error.errors()[0]
    field = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"]).lstrip(".")
    field = field or whole
    if first["type"] == "missing" or first["input"] is None:  # the SDK fills a missing field with None
        return f"{field} is missing or null"
    if first["type"] == "value_error":  # one of our own checks: its message says it all
        return f"{field}: {first['ctx']['error']}"
    return f"{field}: {first['msg'][0].lower()}{first['msg'][1:]}; got {_shown(first['input'])}"


def _shown(value: Any, limit: int = 80) -> str:
    """A value as it is shown in a reason: its repr, cut to `limit` characters."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
