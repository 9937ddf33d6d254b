"""What the agent loop reports as a task runs (chapter 08): one `Event` for each thing a person may want to see."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from agentkit.decisions import Decision

EventKind = Literal["tool_call", "tool_result", "answer", "status", "text", "thinking", "note"]
"""tool_call, tool_result, answer, status; text (a piece of the reply as it streams), thinking (the model's
reasoning), note (a remark for the person, not from the model)."""

Status = Literal["running", "completed", "cancelled", "limit reached", "failed"]
"""Where a task is: running, or one of the four ways it ends (a status event's text)."""


@dataclass
class Event:
    """Something that happened during a task, for a terminal, a web page or a notebook to show as it happens."""

    kind: EventKind
    """tool_call, tool_result, answer, status; text (a piece of the reply as it streams), thinking (text: the
    model's reasoning), note (text: for the person)."""
    name: str = ""
    """tool_call, tool_result: the tool's name."""
    arguments: str = ""
    """tool_call, tool_result: the arguments as the model sent them (JSON text)."""
    content: str = ""
    """tool_result: the text the model reads. status: the task's error text, if any."""
    is_error: bool = False
    """tool_result: True when the call failed or was refused."""
    text: str = ""
    """answer: the model's answer. status: the final status (completed, cancelled, limit reached, failed).
    text: the new characters of the reply being streamed."""
    call_id: str = ""
    """tool_call, tool_result: the call's id, to pair a result with its call."""
    decision: Decision | None = None
    """tool_result: the policy's decision on the call. A call that did not run has a line for the person
    (`frontends.messages.for_the_person`: "You declined: write_file notes.txt"), apart from `content`, which is
    written for the model ("... do not try it again"): two audiences, two texts."""


OnEvent = Callable[[Event], Awaitable[None] | None]
"""Where events go: a plain function or a coroutine function (a web page awaits its queue)."""


async def emit(on_event: OnEvent | None, event: Event) -> None:
    """Give `event` to `on_event`, if there is one, and wait for it if it is async."""
    if on_event is not None and inspect.isawaitable(shown := on_event(event)):
        await shown
