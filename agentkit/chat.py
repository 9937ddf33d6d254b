"""`agentkit chat` (chapter 08): the agent loop in a terminal, one conversation kept across turns.

    you> What time is it in Tokyo?
      -> get_current_time {"timezone": "Asia/Tokyo"}
      <- 2026-12-03 06:40:12+09:00 (Asia/Tokyo)
    agent> According to get_current_time: ...

Each tool call and a shortened result are printed as they happen. A tool that needs confirmation asks
`[y/N]` first. `/cancel` (or `/exit`) as an answer stops the task; `/exit`, Ctrl-D or Ctrl-C at the
prompt ends the chat.
"""

from __future__ import annotations

import asyncio
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path

import openai

from agentkit.loop import Event, Task, run_task
from agentkit.policy import CANCEL, EXIT, Ask, ToolPolicy, ask_user_tool
from agentkit.tools.clock import clock_tool
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry
from agentkit.tools.shell import shell_tool
from agentkit.tools.workspace import Workspace

RESULT_WIDTH = 160
"""Characters of a tool result the terminal shows; the model still reads all of it."""
HELP = "Type a request. /cancel (when asked a question) stops the task; /exit ends the chat."


def chat_tools(workspace: Workspace, ask: Ask) -> dict[str, ToolDefinition]:
    """The chat's registry: the clock, the file tools and the shell in `workspace`, and `ask_user` through `ask`."""
    return build_registry([clock_tool(), *file_tools(workspace), shell_tool(workspace), ask_user_tool(ask)])


def open_workspace(path: str | Path | None) -> Workspace:
    """The chat's workspace: `path`, or a `workspace/` folder in the current directory; created if missing."""
    root = Path(path) if path else Path.cwd() / "workspace"
    root.mkdir(parents=True, exist_ok=True)
    return Workspace(root)


def shorten(text: str, width: int = RESULT_WIDTH) -> str:
    """One line of at most `width` characters, saying how long the whole text was when it had to be cut."""
    short = textwrap.shorten(text, width, placeholder=" ...")
    return short if short == " ".join(text.split()) else f"{short} ({len(text):,} characters)"


def describe(event: Event) -> str | None:
    """The line the terminal prints for an event (None: nothing to print)."""
    if event.kind == "tool_call":
        return f"  -> {event.name} {event.arguments}"
    if event.kind == "tool_result":
        return f"  <- {shorten(event.content)}"
    if event.kind == "answer":
        return f"agent> {event.text}"
    if event.kind == "status" and event.text != "completed":
        return f"[task {event.text}: {event.content}]" if event.content else f"[task {event.text}]"
    return None


class Terminal:
    """Reads the person's lines without blocking the event loop, and remembers whether they asked to leave."""

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> None:
        self.read, self.write = read, write
        self.leaving = False
        """True once the person typed /exit (or closed the input): the chat ends after the current task."""
        self._one_prompt = asyncio.Lock()  # two concurrent tool calls must not both read the next line

    async def line(self, prompt: str) -> str:
        async with self._one_prompt:
            try:
                line = (await _in_daemon_thread(self.read, prompt)).strip()
            except EOFError:
                line = EXIT
        self.leaving |= line.lower() == EXIT  # as the policy reads it: "/EXIT" leaves too
        return line

    async def ask(self, question: str) -> str:
        """The `Ask` for confirmations and `ask_user`; the policy turns /cancel and /exit into `TaskCancelled`."""
        return await self.line(f"{question} ")

    def show(self, event: Event) -> None:
        """The `on_event` callback: one line per tool call, result, answer, or a task that did not complete."""
        line = describe(event)
        if line is not None:
            self.write(line)


async def chat(client: openai.AsyncOpenAI, model: str, workspace: Workspace, terminal: Terminal | None = None, *,
               policy: ToolPolicy = ToolPolicy()) -> Task | None:
    """The read-run-print loop. Each request continues the same task, so the model sees the conversation."""
    terminal = terminal or Terminal()
    registry = chat_tools(workspace, terminal.ask)
    terminal.write(f"agentkit chat: model {model}, workspace {workspace.root}\n{HELP}")
    task: Task | None = None
    while not terminal.leaving:
        request = await terminal.line("you> ")
        if request in ("", EXIT):
            continue
        if request == CANCEL:
            terminal.write("No task is running: /cancel stops a task when it asks you something. /exit ends the chat.")
            continue
        task = await run_task(client, model, request, registry, policy=policy, ask=terminal.ask,
                              on_event=terminal.show, task=task)
    terminal.write("bye")
    return task


async def _in_daemon_thread(function: Callable[[str], str], argument: str) -> str:
    """`function(argument)` on a daemon thread: unlike `asyncio.to_thread`, Ctrl-C never waits for it to return."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[str] = loop.create_future()

    def settle(result: str | None, error: BaseException | None) -> None:
        if done.done():  # the coroutine that waited was cancelled meanwhile
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)

    def work() -> None:
        try:
            result, error = function(argument), None
        except BaseException as raised:  # EOFError, mostly: handed to the coroutine that waits
            result, error = None, raised
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the chat has ended and closed its event loop
            pass

    threading.Thread(target=work, daemon=True).start()
    return await done
