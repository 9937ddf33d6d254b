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
- failed:        the model could not be reached (after the SDK's own retries), or its reply could not be
                 used (no choices, an HTML page, a tool call without a name: see `agentkit.replies`);
                 nothing of that turn is kept.

The limits bound one run: resuming a task starts a fresh budget of turns and tool calls.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import openai

from agentkit.policy import Ask, Decision, TaskCancelled, ToolExecutor, ToolPolicy, terminal_ask
from agentkit.recovery import first_recovery_note, recover_reply, recovers
from agentkit.replies import ModelMessage, ModelToolCall, check_reply
from agentkit.streaming import StreamedReply, TextDelta, read_stream
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import ToolResult, tool_message
from agentkit.transcript import task_transcript


@dataclass
class Event:
    """Something that happened during a task, for a terminal, a web page or a notebook to show as it happens."""

    kind: str
    """tool_call, tool_result, answer, status; text (a piece of the reply as it streams), thinking (text: the
    model's reasoning), note (text: for the person)."""
    name: str = ""
    """tool_call, tool_result: the tool's name."""
    arguments: str = ""
    """tool_call: the arguments as the model sent them (JSON text)."""
    content: str = ""
    """tool_result: the text the model reads. status: the task's error text, if any."""
    is_error: bool = False
    """tool_result: True when the call failed or was refused."""
    text: str = ""
    """answer: the model's answer. status: the final status (completed, cancelled, limit reached, failed).
    text: the new characters of the reply being streamed."""
    call_id: str = ""
    """tool_call, tool_result: the call's id, to pair a result with its call."""


OnEvent = Callable[[Event], Awaitable[None] | None]


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
    status: str = "running"
    """running, completed, cancelled, limit reached or failed."""
    answer: str | None = None
    """The model's final answer, when the status is completed."""
    error: str | None = None
    """Why the task stopped, when it was not completed."""
    decisions: list[Decision] = field(default_factory=list)
    """The tool policy's log: every allowed, refused, confirmed or denied call."""

    def _repr_markdown_(self) -> str:  # Jupyter shows a task as its conversation: see agentkit.transcript
        return task_transcript(self)._repr_markdown_()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # the same, as text
        printer.text(str(task_transcript(self)))


CANCELLED = ToolResult.failure("cancelled: the task was stopped before this call completed.")
"""The result given to a call that never completed, so that every call in the history has its answer."""


async def run_task(client: openai.AsyncOpenAI, model: str, goal: str, registry: Mapping[str, ToolDefinition], *,
                   policy: ToolPolicy = ToolPolicy(), ask: Ask = terminal_ask, on_event: OnEvent | None = None,
                   task: Task | None = None, system_prompt: str | None = None, stream: bool = False) -> Task:
    """Work on `goal` with the tools in `registry` until the model answers or something stops the task.

    A `task` passed in is resumed: its messages are kept and `goal` is added as a new user message
    (an empty goal adds nothing: that retries a failed task from where it stopped). With `stream=True`
    each reply is streamed, and its text reaches `on_event` as `text` events while the model writes it.
    `system_prompt` becomes the first message of a task that has none yet (a new one, or an empty `Task`
    made ahead by a front end); a task already under way keeps the history it has.
    """
    task = _start(task, goal, system_prompt)
    executor = ToolExecutor(registry, policy, ask)
    executor.log = task.decisions  # one log for the whole task, across runs
    limits = policy.limits
    for turn in range(1, limits.max_turns + 1):
        if stream:
            message, failure = await ask_model_streaming(client, model, task, executor.tools(), on_event)
        else:
            message, failure = await ask_model(client, model, task, executor.tools())
        if failure:  # nothing of this turn was added: the messages are as they were, ready to send again
            return await _stop(task, "failed", failure, on_event)
        task.messages.append(assistant_message(message))
        await _show_recovery(task, message, str(client.base_url), on_event)
        calls = message.tool_calls or []
        task.tool_calls += len(calls)
        if not calls:
            task.answer = message.content or ""
            await _emit(on_event, Event("answer", text=task.answer))
            return await _stop(task, "completed", None, on_event)
        if turn == limits.max_turns:  # no turn is left to read their results, so the calls do not run
            close_open_calls(task.messages, ToolResult.failure(f"not run: the task reached its limit of "
                                                                f"{limits.max_turns} model turns (Limits.max_turns)."))
            reason = f"the task reached {limits.max_turns} model turns (Limits.max_turns) without an answer"
            return await _stop(task, "limit reached", reason, on_event)
        stopped = await _answer_calls(task, executor, calls, on_event)
        if stopped:
            return await _stop(task, *stopped, on_event)
    raise AssertionError("unreachable: the last turn returns")


async def ask_model(client: openai.AsyncOpenAI, model: str, task: Task, tools: list[dict]
                    ) -> tuple[ModelMessage | None, str | None]:
    """One request with the task's messages: the reply's message, or None and why the task failed.

    The raw response is parsed here rather than by `create`, so that a body the SDK cannot even decode
    (empty, or not JSON) is reported like any other unusable reply instead of raising out of the loop.
    """
    try:
        raw = await client.chat.completions.with_raw_response.create(
            model=model, messages=task.messages, **({"tools": tools} if tools else {}))
    except openai.APIError as error:  # after the SDK's own retries: HTTP errors, connection errors, timeouts
        return None, f"the model request failed: {type(error).__name__}: {error}"
    try:
        response = raw.parse()
    except Exception as error:  # only the body's decoding runs here: it is the provider's fault, not ours
        size, kind = len(raw.content), raw.headers.get("content-type", "no content-type")
        return None, (f"the model's reply could not be used: its body ({size:,} bytes, {kind}) is not JSON: "
                      f"{type(error).__name__}: {error}")
    reply, problem = check_reply(response)
    if problem:
        return None, f"the model's reply could not be used: {problem}"
    task.turns += 1
    _add_usage(task.usage, reply.usage)
    return reply.choices[0].message, None


async def ask_model_streaming(client: openai.AsyncOpenAI, model: str, task: Task, tools: list[dict],
                              on_event: OnEvent | None) -> tuple[ModelMessage | None, str | None]:
    """`ask_model`, streamed: each piece of text goes to `on_event` as it comes; the same message at the end."""
    try:
        chunks = await client.chat.completions.create(model=model, messages=task.messages, stream=True,
                                                      stream_options={"include_usage": True},
                                                      **({"tools": tools} if tools else {}))
        async for item in read_stream(chunks):
            if isinstance(item, TextDelta):
                await _emit(on_event, Event("text", text=item.text))
            elif isinstance(item, StreamedReply):
                reply = item
    except openai.APIError as error:  # a stream can also break halfway: nothing of this turn is kept either
        return None, f"the model request failed: {type(error).__name__}: {error}"
    message = reply.message()
    if recovers(client):
        message = recover_reply(message, task.messages, tools)
    checked, problem = check_reply({"choices": [{"message": message}], "usage": reply.usage})
    if problem:
        return None, f"the model's reply could not be used: {problem}"
    task.turns += 1
    _add_usage(task.usage, checked.usage)
    return checked.choices[0].message, None


async def run_tool_calls(executor: ToolExecutor, calls: list[ModelToolCall], on_event: OnEvent | None = None
                         ) -> list[ToolResult | TaskCancelled]:
    """One reply's tool calls: checked one at a time, in order (a person may be asked), then run together.

    Returns one outcome per call, in the calls' order: its result, or the `TaskCancelled` that stopped it.
    """
    executor.new_turn()
    for call in calls:
        await _emit(on_event, Event("tool_call", name=call.function.name, arguments=call.function.arguments,
                                    call_id=call.id))
    refusals: list[ToolResult | None] = []
    for call in calls:
        try:
            refusals.append(await executor.check(call.id, call.function.name, call.function.arguments))
        except TaskCancelled as cancel:  # nothing has run yet: every call of this reply is cancelled
            return [cancel] * len(calls)

    async def outcome(call: Any, refusal: ToolResult | None) -> ToolResult:
        return refusal or await executor.execute(call.function.name, call.function.arguments)

    # Slow calls (a download, a shell command) overlap: the turn takes as long as its slowest call, not the sum.
    outcomes = await asyncio.gather(*(outcome(c, r) for c, r in zip(calls, refusals, strict=True)), return_exceptions=True)
    for item in outcomes:
        if isinstance(item, BaseException) and not isinstance(item, TaskCancelled):
            raise item  # a bug in our code, not the model's mistake: it must not be hidden
    return outcomes


def assistant_message(message: Any) -> dict[str, Any]:
    """The model's reply as a plain dict to send back: its text and its tool calls, nothing provider-specific."""
    kept: dict[str, Any] = {"role": "assistant", "content": message.content}
    if message.tool_calls:
        kept["tool_calls"] = [{"id": call.id, "type": "function",
                               "function": {"name": call.function.name, "arguments": call.function.arguments}}
                              for call in message.tool_calls]
    return kept


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


def _start(task: Task | None, goal: str, system_prompt: str | None) -> Task:
    """A new task, or the one passed in to resume, set running with `goal` added as the next user message."""
    task = task or Task(goal)
    if system_prompt and not task.messages:  # recorded in the history, so the task shows what the model was told
        task.messages.append({"role": "system", "content": system_prompt})
    task.goal, task.status, task.answer, task.error = goal or task.goal, "running", None, None
    if goal:
        task.messages.append({"role": "user", "content": goal})
    return task


async def _answer_calls(task: Task, executor: ToolExecutor, calls: list[ModelToolCall], on_event: OnEvent | None
                        ) -> tuple[str, str] | None:
    """Run one reply's calls and add a result for each; the status and reason if the task must stop now."""
    try:
        outcomes = await run_tool_calls(executor, calls, on_event)
    except BaseException:  # a bug, or the task itself cancelled from outside: still leave a valid history
        close_open_calls(task.messages, CANCELLED)
        raise
    cancel = next((outcome for outcome in outcomes if isinstance(outcome, TaskCancelled)), None)
    for call, outcome in zip(calls, outcomes, strict=True):
        result = CANCELLED if isinstance(outcome, TaskCancelled) else outcome
        task.messages.append(tool_message(call.id, result))
        await _emit(on_event, Event("tool_result", name=call.function.name, content=result.content,
                                    is_error=result.is_error, call_id=call.id))
    if cancel:
        return "cancelled", f"cancelled by the user: {cancel}"
    if executor.stop_reason:  # a limit that ends the task: every call of this reply has its result first
        return "limit reached", executor.stop_reason
    return None


async def _show_recovery(task: Task, message: ModelMessage, base_url: str, on_event: OnEvent | None) -> None:
    """The model's thinking, folded; and, the first time in a task, that calls were read back from its text."""
    if message.reasoning_content:
        await _emit(on_event, Event("thinking", text=message.reasoning_content))
    note = first_recovery_note(task.messages, base_url)
    if note:
        await _emit(on_event, Event("note", text=note))


async def _stop(task: Task, status: str, error: str | None, on_event: OnEvent | None) -> Task:
    task.status, task.error = status, error
    await _emit(on_event, Event("status", text=status, content=error or ""))
    return task


async def _emit(on_event: OnEvent | None, event: Event) -> None:
    if on_event is not None and inspect.isawaitable(shown := on_event(event)):
        await shown


def _add_usage(total: Usage, usage: Any) -> None:
    if usage is not None:  # some providers leave it out
        total.prompt_tokens += usage.prompt_tokens or 0
        total.completion_tokens += usage.completion_tokens or 0
