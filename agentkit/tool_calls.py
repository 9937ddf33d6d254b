"""One reply's tool calls, answered (chapter 08): checked in order under the policy, run together, each given a result.

The API refuses a history in which a tool call has no result (HTTP 400), so every way out of a turn,
a cancel, a limit, a bug, first gives each open call its result.
"""

from __future__ import annotations

import asyncio
from typing import Any

from agentkit.asking import TaskCancelled
from agentkit.decisions import Approved
from agentkit.events import Event, OnEvent, Status, emit
from agentkit.hardening.replies import ModelToolCall
from agentkit.policy import ToolExecutor
from agentkit.tools.dispatcher import ToolResult, tool_message

CANCELLED = ToolResult.failure("cancelled: the task was stopped before this call completed.")
"""The result given to a call that never completed, so that every call in the history has its answer."""


async def run_tool_calls(executor: ToolExecutor, calls: list[ModelToolCall], on_event: OnEvent | None = None
                         ) -> list[ToolResult | TaskCancelled]:
    """One reply's tool calls: checked one at a time, in order (a person may be asked), then run together.

    Returns one outcome per call, in the calls' order: its result, or the `TaskCancelled` that stopped it.
    """
    executor.new_turn()
    for call in calls:
        await emit(on_event, Event("tool_call", name=call.function.name, arguments=call.function.arguments,
                                   call_id=call.id))
    decided: list[ToolResult | Approved] = []  # a refusal, or the call approved with its parsed arguments
    for call in calls:
        try:
            decided.append(await executor.check(call.id, call.function.name, call.function.arguments))
        except TaskCancelled as cancel:  # nothing has run yet: every call of this reply is cancelled
            return [cancel] * len(calls)

    async def outcome(decision: ToolResult | Approved) -> ToolResult:
        return decision if isinstance(decision, ToolResult) else await executor.execute(decision)

    # Slow calls (a download, a shell command) overlap: the turn takes as long as its slowest call, not the sum.
    outcomes = await asyncio.gather(*map(outcome, decided), return_exceptions=True)
    for item in outcomes:
        if isinstance(item, BaseException) and not isinstance(item, TaskCancelled):
            raise item  # a bug in our code, not the model's mistake: it must not be hidden
    return outcomes


async def answer_calls(messages: list[dict[str, Any]], executor: ToolExecutor, calls: list[ModelToolCall],
                       on_event: OnEvent | None) -> tuple[Status, str] | None:
    """Run one reply's calls and add a result for each; the status and reason if the task must stop now."""
    try:
        outcomes = await run_tool_calls(executor, calls, on_event)
    except BaseException:  # a bug, or the task itself cancelled from outside: still leave a valid history
        close_open_calls(messages, CANCELLED)
        raise
    cancel = next((outcome for outcome in outcomes if isinstance(outcome, TaskCancelled)), None)
    for call, outcome in zip(calls, outcomes, strict=True):
        result = CANCELLED if isinstance(outcome, TaskCancelled) else outcome
        messages.append(tool_message(call.id, result))
        decision = next((d for d in reversed(executor.log) if d.call_id == call.id), None)
        await emit(on_event, Event("tool_result", name=call.function.name, content=result.content,
                                   is_error=result.is_error, call_id=call.id,
                                   arguments=call.function.arguments, decision=decision))
    if cancel:
        return "cancelled", f"cancelled by the user: {cancel}"
    if executor.stop_reason:  # a limit that ends the task: every call of this reply has its result first
        return "limit reached", executor.stop_reason
    return None


def close_open_calls(messages: list[dict[str, Any]], result: ToolResult) -> None:
    """Answer every call of the last assistant message that has no result yet, with `result`.

    The API refuses a history where a tool call has no answer (HTTP 400), so a task that stops in the
    middle of a turn must close it before it can be sent again.
    """
    last = max((i for i, m in enumerate(messages) if m["role"] == "assistant"), default=None)
    if last is None:
        return
    answered = {m.get("tool_call_id") for m in messages[last + 1:] if m["role"] == "tool"}
    for call in messages[last].get("tool_calls") or []:
        if call["id"] not in answered:
            messages.append(tool_message(call["id"], result))
