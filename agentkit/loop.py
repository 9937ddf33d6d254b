"""The agent loop (chapter 08): ask the model, run the tools it calls, give it their results, until it answers.

    messages -> model -> assistant message -> tool calls? --no--> answer: completed
                  ^                              | yes
                  |                              v
                  +-- tool results <-- ToolExecutor (policy: check one at a time, run together)

A task ends in one of four ways, and its messages are always left valid to send again, so any task can be
resumed with `run_task(..., task=task)`:
- completed:     the model answered without calling a tool;
- cancelled:     the person answered /cancel or /exit; calls not run get a "cancelled" result;
- limit reached: a limit from `Limits` stopped it (turns, tool calls, denials); calls not run get a result
                 naming the limit;
- failed:        the model could not be reached (after the SDK's own retries), or its reply could not be used
                 (no choices, a tool call without a name, neither text nor a call, a stream cut short: see
                 `agentkit.hardening.replies` and `agentkit.turn`); nothing of that turn is kept.

The limits bound one run: resuming a task starts a fresh budget of turns and tool calls. The loop's two
steps have modules of their own: `agentkit.turn` (one request to the model) and `agentkit.tool_calls`
(one reply's calls answered).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import openai

from agentkit.asking import Ask
from agentkit.decisions import Decision
from agentkit.events import Event, OnEvent, Status, emit
from agentkit.frontends.transcript import task_transcript  # TEMPORARY: loop26 removes this upward import
from agentkit.hardening.replies import ModelMessage, ModelToolCall
from agentkit.limits import Limits
from agentkit.policy import ToolExecutor, ToolPolicy
from agentkit.recovery import first_recovery_note
from agentkit.tool_calls import CANCELLED, answer_calls, close_open_calls, run_tool_calls
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import ToolResult
from agentkit.turn import ModelTurn, ask_model, ask_model_streaming

__all__ = ["CANCELLED", "Event", "Status", "Task", "Usage", "close_open_calls", "run_task", "run_tool_calls",
           "stop_interrupted"]

@dataclass
class Usage:
    """Tokens, summed over every model response of a task (as each provider counts them)."""

    prompt_tokens: int = 0
    """Tokens of everything sent: the whole conversation so far and the tool schemas, on every turn."""
    completion_tokens: int = 0
    """Tokens the model wrote: answers and tool calls."""

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class Task:
    """One conversation with its goal and everything needed to show it, measure it and resume it."""

    goal: str
    """What the person asked for last."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    """The whole conversation as sent to the model; always valid to send again."""
    turns: int = 0
    """Model responses received, over every run of the task."""
    tool_calls: int = 0
    """Tool calls the model asked for, refused ones included, over every run."""
    usage: Usage = field(default_factory=Usage)
    """Tokens summed over every response."""
    status: Status = "running"
    """running, completed, cancelled, limit reached or failed."""
    answer: str | None = None
    """The model's final answer, when the status is completed."""
    error: str | None = None
    """Why the task stopped, when it was not completed."""
    decisions: list[Decision] = field(default_factory=list)
    """The tool policy's log: every allowed, refused, confirmed or denied call."""

    def _repr_markdown_(self) -> str:  # Jupyter shows a task as its conversation: see agentkit.frontends.transcript
        return task_transcript(self)._repr_markdown_()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # the same, as text
        printer.text(str(task_transcript(self)))


async def run_task(client: openai.AsyncOpenAI, model: str, goal: str, registry: Mapping[str, ToolDefinition], *,
                   policy: ToolPolicy = ToolPolicy(), ask: Ask | None = None, on_event: OnEvent | None = None,
                   task: Task | None = None, system_prompt: str | None = None, stream: bool = False) -> Task:
    """Work on `goal` with the tools in `registry` until the model answers or something stops the task.

    A `task` passed in is resumed: its messages are kept and `goal` is added as a new user message
    (an empty goal adds nothing: that retries a failed task from where it stopped). With `stream=True`
    each reply is streamed, and its text reaches `on_event` as `text` events while the model writes it.
    `system_prompt` becomes the first message of a task that has none yet (a new one, or an empty `Task`
    made ahead by a front end); a task already under way keeps the history it has. `ask` reaches a
    person for confirmations; without one, a call that needs a yes is refused (`agentkit.asking`).
    """
    task = _start(task, goal, system_prompt)
    executor = ToolExecutor(registry, policy, ask)
    executor.log = task.decisions  # one log for the whole task, across runs
    for turn in range(1, policy.limits.max_turns + 1):
        reply = await _ask(client, model, task, executor.tools(), stream, on_event)
        if reply.failure:  # nothing of this turn was added: the messages are as they were, ready to send again
            return await _stop(task, "failed", reply.failure, on_event)
        calls = await _keep_reply(task, reply.message, str(client.base_url), on_event)
        if not calls:
            return await _answered(task, reply.message, on_event)
        if turn == policy.limits.max_turns:  # no turn is left to read their results, so the calls do not run
            return await _stop(task, "limit reached", _out_of_turns(task, policy.limits), on_event)
        stopped = await answer_calls(task.messages, executor, calls, on_event)
        if stopped:
            return await _stop(task, *stopped, on_event)
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


async def _ask(client: openai.AsyncOpenAI, model: str, task: Task, tools: list[dict], stream: bool,
               on_event: OnEvent | None) -> ModelTurn:
    """One model turn with the task's messages, streamed or not; a usable reply is counted, with its tokens."""
    if stream:
        reply = await ask_model_streaming(client, model, task.messages, tools, on_event)
    else:
        reply = await ask_model(client, model, task.messages, tools)
    if not reply.failure:
        task.turns += 1
        _add_usage(task.usage, reply.usage)
    return reply


async def _keep_reply(task: Task, message: ModelMessage, base_url: str, on_event: OnEvent | None
                      ) -> list[ModelToolCall]:
    """Add the reply to the history, show its thinking and any recovered calls; its tool calls, maybe none."""
    task.messages.append(assistant_message(message))
    if message.reasoning_content:
        await emit(on_event, Event("thinking", text=message.reasoning_content))
    note = first_recovery_note(task.messages, base_url)  # the first time in a task calls were read from text
    if note:
        await emit(on_event, Event("note", text=note))
    calls = message.tool_calls or []
    task.tool_calls += len(calls)
    return calls


async def _answered(task: Task, message: ModelMessage, on_event: OnEvent | None) -> Task:
    """The model answered without calling a tool: the task is completed."""
    task.answer = message.content or ""
    await emit(on_event, Event("answer", text=task.answer))
    return await _stop(task, "completed", None, on_event)


def _out_of_turns(task: Task, limits: Limits) -> str:
    """Close the last reply's calls, which cannot run, and say why the task stops."""
    close_open_calls(task.messages, ToolResult.failure(f"not run: the task reached its limit of "
                                                        f"{limits.max_turns} model turns (Limits.max_turns)."))
    return f"the task reached {limits.max_turns} model turns (Limits.max_turns) without an answer"


def assistant_message(message: Any) -> dict[str, Any]:
    """The model's reply as a plain dict to send back: its text and its tool calls, nothing provider-specific."""
    kept: dict[str, Any] = {"role": "assistant", "content": message.content}
    if message.tool_calls:
        kept["tool_calls"] = [{"id": call.id, "type": "function",
                               # "" (some servers' no-argument call) was read as {}, and goes back as {}: some reject ""
                               "function": {"name": call.function.name, "arguments": call.function.arguments or "{}"}}
                              for call in message.tool_calls]
    return kept


def stop_interrupted(task: Task, why: str) -> None:
    """Mark a task whose run was cancelled from outside (a front end's Ctrl-C or Stop) as cancelled, its history
    valid to send again."""
    close_open_calls(task.messages, CANCELLED)  # the loop closes them itself only when tools were running
    task.status, task.error = "cancelled", f"{why}: the task was stopped, and any command it was running killed"


async def _stop(task: Task, status: Status, error: str | None, on_event: OnEvent | None) -> Task:
    task.status, task.error = status, error
    await emit(on_event, Event("status", text=status, content=error or ""))
    return task


def _add_usage(total: Usage, usage: Any) -> None:
    if usage is not None:  # some providers leave it out
        total.prompt_tokens += usage.prompt_tokens or 0
        total.completion_tokens += usage.completion_tokens or 0
