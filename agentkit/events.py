"""What the agent loop reports as a task runs (chapter 08): one `Event` for each thing a person may want to see.

`run_task` yields them, in the order they happen; its last event is always a `status`, which carries the task.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from agentkit.decisions import Decision

if TYPE_CHECKING:
    from agentkit.loop import Task

EventKind = Literal["text", "thinking", "note", "usage", "tool_call", "confirm", "tool_result", "answer", "status"]

Status = Literal["running", "completed", "cancelled", "limit reached", "failed"]
"""Where a task is: running, or one of the four ways it ends (a status event's text)."""


@dataclass
class Event:
    """Something that happened during a task, for a terminal, a web page or a notebook to show as it happens.

    text: a piece of the reply as it streams. thinking: the model's reasoning. note: a remark for the person, not
    from the model. usage: a reply came; the task's tokens so far. tool_call: a call the model asked for. confirm:
    a call that needs a person's yes is about to be checked (asked, unless a limit refuses it first).
    tool_result: a call's result. answer: the model's final answer. status: the task ended (always last).
    """

    kind: EventKind
    name: str = ""
    """tool_call, confirm, tool_result: the tool's name."""
    arguments: str = ""
    """tool_call, confirm, tool_result: the arguments as the model sent them."""
    content: str = ""
    """tool_result: the text the model reads. status: the task's error text, if any."""
    is_error: bool = False
    """tool_result: True when the call failed or was refused."""
    text: str = ""
    """text, thinking, note, answer: the text. status: the final status (completed, cancelled, limit reached, failed)."""
    call_id: str = ""
    """tool_call, confirm, tool_result: the call's id, to pair a result with its call."""
    decision: Decision | None = None
    """tool_result: the policy's decision on the call. A call that did not run has a line for the person
    (`frontends.messages.for_the_person`: "You declined: write_file notes.txt"), apart from `content`, which is
    written for the model ("... do not try it again"): two audiences, two texts."""
    task: Task | None = field(default=None, repr=False)
    """usage, status: the task (its `usage`, its end: status, answer, error, messages)."""


OnEvent = Callable[[Event], Awaitable[None] | Any]
"""A function `finish` gives each event to: a plain function or a coroutine function."""


async def finish(events: AsyncGenerator[Event], on_event: OnEvent | None = None) -> Task:
    """Run `run_task`'s events to the end, giving each to `on_event`; the task, from the last (status) event.

        task = await finish(run_task(client, model, goal, registry), on_event=print)
    """
    last = None
    async with aclosing(events):  # stopped early (cancelled), the loop still closes what it had open
        async for last in events:
            if on_event is not None and isinstance(shown := on_event(last), Awaitable):
                await shown
    if last is None or last.task is None:
        raise ValueError(f"finish() reads run_task(...)'s events, the last a status that carries the task; got {last!r}")
    return last.task
