"""What the agent loop reports as a task runs (chapter 08): one small record for each kind of thing a person may
want to see, each with its `kind`, so a front end is one `for` over them (a `match` on the class, or on `kind`).
`run_task` yields them in the order they happen; the last is always a `Status`, which carries the task.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any, ClassVar

from agentkit.asking import Question
from agentkit.calls import ToolCall
from agentkit.decisions import Decision
from agentkit.streaming import TextDelta  # a piece of a streamed reply (`stream=True`), kind "text"
from agentkit.task import ENDED, StopReason, Task, Usage
from agentkit.task import Status as TaskStatus
from agentkit.tools.dispatcher import ToolResult


@dataclass(frozen=True)
class Thinking:
    """The model's reasoning, apart from its answer (from providers that send it)."""
    text: str
    kind: ClassVar[str] = "thinking"


@dataclass(frozen=True)
class Note:
    """A remark for the person that is not from the model (how a call was read back from text)."""
    text: str
    kind: ClassVar[str] = "note"


@dataclass(frozen=True)
class UsageSoFar:
    """A reply came: the task's tokens so far."""
    usage: Usage
    kind: ClassVar[str] = "usage"


@dataclass(frozen=True)
class CallEvent:
    """Something about one tool call; `name`, `arguments` (as the model wrote them) and `call_id` are the call's."""
    call: ToolCall
    name = property(lambda self: self.call.name)
    arguments = property(lambda self: self.call.raw_arguments)
    call_id = property(lambda self: self.call.id)


@dataclass(frozen=True)
class CallRequested(CallEvent):
    """A call the model asked for, before the policy decides about it."""
    kind: ClassVar[str] = "tool_call"


@dataclass(frozen=True)
class Confirm(CallEvent):
    """A person is asked whether the call may run: yielded when, and only when, the policy asks one."""
    question: Question
    kind: ClassVar[str] = "confirm"


@dataclass(frozen=True)
class CallAnswered(CallEvent):
    """A call's result, and the policy's decision on it. The person reads a call that did not run in their own words
    (`frontends.messages.for_the_person`: "You declined: ..."); `content` is written for the model."""
    result: ToolResult
    decision: Decision | None = None
    content = property(lambda self: self.result.content)
    is_error = property(lambda self: self.result.is_error)
    kind: ClassVar[str] = "tool_result"


@dataclass(frozen=True)
class Answer:
    """The model's final answer."""
    text: str
    kind: ClassVar[str] = "answer"


@dataclass(frozen=True)
class Status:
    """The task ended (always the last event): why if it did not complete (a value each front end words), the task
    itself, and how it ended, which the type of `error` says (`task.ENDED`), so the two cannot disagree."""
    error: StopReason | None = None
    task: Task | None = field(default=None, repr=False)
    status: TaskStatus = field(init=False)  # completed, cancelled, limit reached or failed
    kind: ClassVar[str] = "status"

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", "completed" if self.error is None else ENDED[type(self.error)])


Event = TextDelta | Thinking | Note | UsageSoFar | CallRequested | Confirm | CallAnswered | Answer | Status
OnEvent = Callable[[Event], Awaitable[None] | Any]  # what `finish` gives each event to: a function or a coroutine function


async def finish(events: AsyncGenerator[Event], on_event: OnEvent | None = None) -> Task:
    """Run `run_task`'s events to the end, giving each to `on_event`; the task, from the last (status) event.

        task = await finish(run_task(client, model, goal, registry), on_event=print)
    """
    last = None
    async with aclosing(events):  # stopped early (cancelled), the loop still closes what it had open
        async for last in events:
            if on_event is not None and isinstance(shown := on_event(last), Awaitable):
                await shown
    if not isinstance(last, Status) or last.task is None:
        raise ValueError(f"finish() reads run_task(...)'s events, the last a status that carries the task; got {last!r}")
    return last.task
