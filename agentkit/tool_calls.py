"""One reply's tool calls, answered (chapter 08): checked in order under the policy, run together, each given a result.

The API refuses a history in which a tool call has no result (HTTP 400), so every way out of a turn,
a cancel, a limit, a bug, a consumer that stops reading the events, first gives each open call its result.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from agentkit.asking import Cancelled, TaskCancelled
from agentkit.calls import ToolCall
from agentkit.decisions import Allow, AskPerson, Refuse
from agentkit.events import CallAnswered, CallRequested, Confirm, Event, Status
from agentkit.policy import ToolExecutor
from agentkit.tools.dispatcher import ToolResult, tool_message

CANCELLED = ToolResult.failure("cancelled: the task was stopped before this call completed.")
"""The result given to a call that never completed, so that every call in the history has its answer."""


async def answer_calls(messages: list[dict[str, Any]], executor: ToolExecutor, calls: list[ToolCall]
                       ) -> AsyncIterator[Event]:
    """Check one reply's calls one at a time, in order (a person may be asked), run them together, add each result.

    Yields each call, each question put to a person (just before it is asked), each result; last, a status event
    if the task must stop.
    """
    cancel: TaskCancelled | None = None
    try:
        executor.new_turn()
        for call in calls:
            yield CallRequested(call)
        verdicts: list[Allow | Refuse] = []
        for call in calls:
            verdict = executor.check(call)
            if isinstance(verdict, AskPerson):  # the policy's own decision: the event comes only when a person is asked
                yield Confirm(call, verdict.question)
                verdict = await executor.confirm(verdict)
            verdicts.append(verdict)
        ran = await run_allowed(executor, verdicts)
        cancel = next((item for item in ran if isinstance(item, TaskCancelled)), None)  # `ask_user` answered /cancel
        results = [CANCELLED if isinstance(item, TaskCancelled) else item for item in ran]
    except TaskCancelled as stopped:  # from a question: nothing has run yet, every call of this reply is cancelled
        cancel, results = stopped, [CANCELLED] * len(calls)
    except BaseException:  # a bug, a cancel from outside, the consumer gone: still leave a valid history
        close_open_calls(messages, CANCELLED)
        raise
    messages.extend(tool_message(call.id, result) for call, result in zip(calls, results, strict=True))
    for call, result in zip(calls, results, strict=True):
        decision = next((d for d in reversed(executor.log) if d.call_id == call.id), None)
        yield CallAnswered(call, result, decision)
    if cancel is not None:
        yield Status(Cancelled.of(cancel))
    elif executor.stop_reason:  # a limit that ends the task: every call of this reply has its result first
        yield Status(executor.stop_reason)


async def run_allowed(executor: ToolExecutor, verdicts: list[Allow | Refuse]) -> list[ToolResult | TaskCancelled]:
    """Run the allowed calls together (a refusal is already its result); one result per call, in order, or the
    `TaskCancelled` that stopped it (`ask_user` answered /cancel)."""
    # Slow calls (a download, a shell command) overlap: the turn takes as long as its slowest call, not the sum.
    results = await asyncio.gather(*map(executor.execute, verdicts), return_exceptions=True)
    for item in results:
        if isinstance(item, BaseException) and not isinstance(item, TaskCancelled):
            raise item  # a bug in our code, not the model's mistake: it must not be hidden
    return results  # type: ignore[return-value]


def close_open_calls(messages: list[dict[str, Any]], result: ToolResult) -> None:
    """Answer every call of the last assistant message that has no result yet, with `result`."""
    last = max((i for i, m in enumerate(messages) if m["role"] == "assistant"), default=None)
    if last is None:
        return
    answered = {m.get("tool_call_id") for m in messages[last + 1:] if m["role"] == "tool"}
    for call in messages[last].get("tool_calls") or []:
        if call["id"] not in answered:
            messages.append(tool_message(call["id"], result))
