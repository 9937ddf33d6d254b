"""The agent loop (chapter 08): ask the model, run the tools it calls, give it their results, until it answers.

    messages -> model -> assistant message -> tool calls? --no--> answer: completed
                  ^                              | yes
                  |                              v
                  +-- tool results <-- ToolExecutor (policy: check one at a time, run together)

A task ends completed (the model answered without calling a tool), cancelled (the person answered /cancel or
/exit), limit reached (a `Limits` bound: turns, tool calls, denials) or failed (the model could not be reached
after the SDK's own retries, or its reply could not be used: `agentkit.hardening.replies`; nothing of that turn
is kept). Every call has its result either way ("cancelled", or one naming the limit), so the messages are valid
to send again: `run_task(..., task=task)` resumes the task, with a fresh budget of turns and tool calls.

`run_task` yields what happens (`agentkit.events.Event`): a terminal, a web page and a notebook read the same
stream, and `task = await finish(run_task(...))` runs it to the end. Its two steps have modules of their own:
`agentkit.turn` (one request to the model, plain or streamed) and `agentkit.tool_calls` (one reply's calls answered).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import replace
from typing import Any

import openai

from agentkit.asking import Ask, Cancelled
from agentkit.calls import ToolCall
from agentkit.events import Answer, Event, Note, Status, Thinking, UsageSoFar, finish
from agentkit.limits import LimitReached, Limits
from agentkit.policy import ToolExecutor, ToolPolicy
from agentkit.recovery import first_recovery_note
from agentkit.task import StopReason, Task
from agentkit.tool_calls import CANCELLED, answer_calls, close_open_calls
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import ToolResult
from agentkit.turn import ModelTurn, model_turn

__all__ = ["Event", "Task", "finish", "run_task", "stop_interrupted"]  # chapter 08's names, in one place


async def run_task(client: openai.AsyncOpenAI, model: str, goal: str, registry: Mapping[str, ToolDefinition], *,
                   policy: ToolPolicy = ToolPolicy(), ask: Ask | None = None, task: Task | None = None,
                   system_prompt: str | None = None, stream: bool = False) -> AsyncIterator[Event]:
    """Work on `goal` with the tools in `registry` until the model answers or something stops the task, yielding
    what happens (`Event`), the last one the status, which carries the task. A `task` passed in is resumed (an
    empty goal retries it from where it stopped); `stream=True` yields each reply's text as the model writes it;
    `ask` reaches a person (without one, a call that needs a yes is refused)."""
    task = _start(task, goal, system_prompt)
    executor = ToolExecutor(registry, policy, ask, log=task.decisions)  # one log for the whole task, across runs
    for turn in range(1, policy.limits.max_turns + 1):
        async for reply in model_turn(client, model, task.messages, executor.tools(), stream=stream):
            if not isinstance(reply, ModelTurn):
                yield reply  # the reply's text as the model writes it (stream=True); last, the whole reply
        if reply.failure:  # nothing of this turn was added: the messages are as they were, ready to send again
            yield _stop(task, reply.failure)  # failed
            return
        calls = _keep_reply(task, reply)
        for event in _reply_events(task, reply, str(client.base_url)):
            yield event  # the tokens so far, the model's thinking, a note on calls read from its text
        if not calls:
            task.answer = reply.message.content or ""
            yield Answer(task.answer)
            yield _stop(task, None)  # completed
            return
        if turn == policy.limits.max_turns:  # no turn is left to read their results, so the calls do not run
            yield _stop(task, _out_of_turns(task, policy.limits))  # limit reached
            return
        async for event in answer_calls(task.messages, executor, calls):
            if isinstance(event, Status):  # cancelled, or a limit: every call has its result already
                yield _stop(task, event.error)
                return
            yield event  # each call, each confirmation about to be asked, each result
    raise AssertionError("unreachable: the last turn returns")


def _start(task: Task | None, goal: str, system_prompt: str | None) -> Task:
    """A new task, or the one passed in to resume, set running with `goal` added as the next user message."""
    task = task or Task(goal)
    if system_prompt and not task.messages:  # recorded in the history, so the task shows what the model was told
        task.messages.append({"role": "system", "content": system_prompt})
    task.goal, task.status, task.answer, task.error = goal or task.goal, "running", None, None
    if goal:
        task.messages.append({"role": "user", "content": goal})
    return task


def _keep_reply(task: Task, reply: ModelTurn) -> list[ToolCall]:
    """Add the reply to the history and count it, with its tokens; its tool calls, maybe none."""
    calls = [ToolCall.parse(call.id, call.function.name, call.function.arguments)
             for call in reply.message.tool_calls or []]
    task.messages.append(assistant_message(reply.message.content, calls, reply.message.reasoning_content))
    task.turns, task.tool_calls = task.turns + 1, task.tool_calls + len(calls)
    if reply.usage is not None:  # some providers leave it out
        task.usage.prompt_tokens += reply.usage.prompt_tokens or 0
        task.usage.completion_tokens += reply.usage.completion_tokens or 0
    return calls


def _reply_events(task: Task, reply: ModelTurn, base_url: str) -> list[Event]:
    """What a person may want to see of a reply before its calls or its answer."""
    events: list[Event] = [UsageSoFar(task.usage)]
    if reply.message.reasoning_content:
        events.append(Thinking(reply.message.reasoning_content))
    if note := first_recovery_note(task.messages, base_url):  # the first time in a task calls were read from text
        events.append(Note(note))
    return events


def _out_of_turns(task: Task, limits: Limits) -> LimitReached:
    """Close the last reply's calls, which cannot run, and say why the task stops."""
    close_open_calls(task.messages, ToolResult.failure(f"not run: the task reached its limit of "
                                                        f"{limits.max_turns} model turns (Limits.max_turns)."))
    return LimitReached("max_turns", limits.max_turns)


def assistant_message(content: str | None, calls: list[ToolCall], reasoning: str | None = None) -> dict[str, Any]:
    """The reply as a dict to send back: text, calls, and the thinking behind calls (DeepSeek requires it back)."""
    kept: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        # "" (some servers' no-argument call) was read as {}, and goes back as {}: some reject ""
        kept["tool_calls"] = [replace(call, raw_arguments=call.raw_arguments or "{}").as_message_part() for call in calls]
        if reasoning:
            kept["reasoning_content"] = reasoning
    return kept


def stop_interrupted(task: Task, by: str) -> Status:
    """Mark a task whose run was cancelled from outside (a front end's Ctrl-C or Stop, which `by` names) as
    cancelled, its history valid to send again; the status event that says so."""
    close_open_calls(task.messages, CANCELLED)  # the loop closes them itself only when tools were running
    return _stop(task, Cancelled(by=by))


def _stop(task: Task, error: StopReason | None) -> Status:
    """End the task, completed or stopped by `error`: the last event, which carries it."""
    status = Status(error, task)
    task.status, task.error = status.status, error
    return status
