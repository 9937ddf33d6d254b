"""One reply's tool calls, answered (chapter 08): checked in order under the policy, run together, each given a result.

The API refuses a history in which a tool call has no result (HTTP 400), so every way out of a turn,
a cancel, a limit, a bug, a consumer that stops reading the events, first gives each open call its result.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from agentkit.asking import TaskCancelled
from agentkit.calls import ToolCall
from agentkit.decisions import Approved
from agentkit.events import Event
from agentkit.policy import ToolExecutor
from agentkit.tools.dispatcher import ToolResult, tool_message

CANCELLED = ToolResult.failure("cancelled: the task was stopped before this call completed.")
"""The result given to a call that never completed, so that every call in the history has its answer."""

Outcome = ToolResult | TaskCancelled
"""What became of one call: its result, or the `TaskCancelled` that stopped it."""


async def answer_calls(messages: list[dict[str, Any]], executor: ToolExecutor, calls: list[ToolCall]
                       ) -> AsyncIterator[Event]:
    """Check one reply's calls one at a time, in order (a person may be asked), run them together, add each result.

    Yields each call, each confirmation about to be asked, each result; last, a status event if the task must stop.
    """
    try:
        executor.new_turn()
        for call in calls:
            yield Event("tool_call", name=call.name, arguments=call.raw_arguments, call_id=call.id)
        decided: list[ToolResult | Approved] = []  # a refusal, or the call approved with its parsed arguments
        for call in calls:
            if _will_ask(executor, call):
                yield Event("confirm", name=call.name, arguments=call.raw_arguments, call_id=call.id)
            decided.append(await executor.check(call.id, call.name, call.raw_arguments))
        outcomes = await run_approved(executor, decided)
    except TaskCancelled as cancel:  # from a question: nothing has run yet, every call of this reply is cancelled
        outcomes = [cancel] * len(calls)
    except BaseException:  # a bug, a cancel from outside, the consumer gone: still leave a valid history
        close_open_calls(messages, CANCELLED)
        raise
    results = [CANCELLED if isinstance(outcome, TaskCancelled) else outcome for outcome in outcomes]
    messages.extend(tool_message(call.id, result) for call, result in zip(calls, results, strict=True))
    for call, result in zip(calls, results, strict=True):
        decision = next((d for d in reversed(executor.log) if d.call_id == call.id), None)
        yield Event("tool_result", name=call.name, content=result.content, is_error=result.is_error, call_id=call.id,
                    arguments=call.raw_arguments, decision=decision)
    if cancel := next((outcome for outcome in outcomes if isinstance(outcome, TaskCancelled)), None):
        yield Event("status", text="cancelled", content=f"cancelled by the user: {cancel}")
    elif executor.stop_reason:  # a limit that ends the task: every call of this reply has its result first
        yield Event("status", text="limit reached", content=executor.stop_reason)


async def run_approved(executor: ToolExecutor, decided: list[ToolResult | Approved]) -> list[Outcome]:
    """Run the approved calls together (a refusal is already its result); one outcome per call, in order."""

    async def outcome(decision: ToolResult | Approved) -> ToolResult:
        return decision if isinstance(decision, ToolResult) else await executor.execute(decision)

    # Slow calls (a download, a shell command) overlap: the turn takes as long as its slowest call, not the sum.
    outcomes = await asyncio.gather(*map(outcome, decided), return_exceptions=True)
    for item in outcomes:
        if isinstance(item, BaseException) and not isinstance(item, TaskCancelled):
            raise item  # a bug in our code, not the model's mistake: it must not be hidden
    return outcomes


def _will_ask(executor: ToolExecutor, call: ToolCall) -> bool:
    """Whether checking `call` puts it to a person (unless a limit refuses it first)."""
    return (executor.ask is not None and call.name in executor.allowed and call.arguments is not None
            and executor.needs_confirmation(call.name))


def close_open_calls(messages: list[dict[str, Any]], result: ToolResult) -> None:
    """Answer every call of the last assistant message that has no result yet, with `result`."""
    last = max((i for i, m in enumerate(messages) if m["role"] == "assistant"), default=None)
    if last is None:
        return
    answered = {m.get("tool_call_id") for m in messages[last + 1:] if m["role"] == "tool"}
    for call in messages[last].get("tool_calls") or []:
        if call["id"] not in answered:
            messages.append(tool_message(call["id"], result))
