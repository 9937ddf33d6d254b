"""`agentkit chat` (chapter 08): the agent loop in a terminal, one conversation kept across turns.

    you> What time is it in Tokyo?
      -> get_current_time {"timezone": "Asia/Tokyo"}
      <- 2026-12-03 06:40:12+09:00 (Asia/Tokyo)
    agent> It's 06:40 in Tokyo (Thursday, 3 December 2026).

Each tool call and a shortened result are printed as they happen (`agentkit.frontends.terminal` prints them, made
visible). A tool that needs confirmation asks `[y/N]` first. `/cancel` (or `/exit`) as an answer stops the
task; `/help` repeats what the chat's commands do, and another word after a slash (`/foo`) is answered by the chat,
not sent to the model; `/explain` prints how the offline model read the last request (`agentkit.offline.explain`:
the values it found, each tool's score, each argument's candidates and pick); `/exit`, Ctrl-D or Ctrl-C at the
prompt ends the chat. Ctrl-C during a task stops the task (and a command it runs) and comes back here; with
requests from a pipe or a file, it ends the chat.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import openai

from agentkit.agent import POLICY, agent_tools
from agentkit.agent import system_prompt as default_system_prompt
from agentkit.asking import CANCEL, EXIT
from agentkit.events import finish
from agentkit.frontends.interrupts import Interrupted, Interrupts, Stopped
from agentkit.frontends.messages import PERSON_LANGUAGE, say
from agentkit.frontends.own_agent import Tools
from agentkit.frontends.terminal import Terminal
from agentkit.loop import run_task, stop_interrupted
from agentkit.policy import ToolPolicy
from agentkit.task import Task
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.workspace import Workspace

HELP, EXPLAIN = "/help", "/explain"
COMMAND = re.compile(r"/\w+")
"""A line that is one word after a slash is one of the chat's commands, never a request: /foo is answered by the chat."""


def _explained(request: str | None, registry: Mapping[str, ToolDefinition], language: str) -> str:
    """How the offline model reads the last request with these tools (loaded only when asked: it is not the agent)."""
    if not request:
        return say("nothing to explain", language)
    from agentkit.offline import explain
    from agentkit.tools.registry import openai_tools

    return str(explain(request, openai_tools(registry)))


async def chat(client: openai.AsyncOpenAI, model: str, workspace: Workspace, terminal: Terminal | None = None, *,
               policy: ToolPolicy = POLICY, system_prompt: str | None = None, stream: bool = False,
               tools: Tools | None = None, tracer: Any = None) -> Task | None:
    """The read-run-print loop. Each request continues the same task, so the model sees the conversation.

    `system_prompt` is the task's first message: `agentkit.agent`'s default for this workspace unless given.
    With `stream=True` (as `agentkit chat` runs it) answers are printed as the model writes them. With a `tracer`
    (`agentkit chat --trace`), each task's events are traced as they pass (`agentkit.beyond.tracing.traced`).

    Ctrl-C (SIGINT) during a task cancels it, which kills a command it is running, and the chat goes on
    (unless `terminal.interactive` is False: lines from a pipe); at the prompt it ends the chat. A hang-up
    (SIGHUP: the terminal closed) or SIGTERM cancels the task and ends the chat. Ended by a signal, the chat
    says "bye" and raises `Stopped`, so that `agentkit chat` exits with the signal's status (130 for Ctrl-C);
    ended by /exit or Ctrl-D, it returns the task.
    """
    terminal = terminal or Terminal()
    registry = tools(workspace) if tools else agent_tools(workspace, terminal.ask)  # yours, with --tools
    system_prompt = default_system_prompt(workspace.root) if system_prompt is None else system_prompt
    language = terminal.language  # the person's: our lines, and a call's that did not run (set for this chat's tasks)
    PERSON_LANGUAGE.set(language)
    terminal.write(f"{say('chat start', language, model=model, workspace=workspace.root)}\n{say('chat help', language)}")
    task: Task | None = None
    last_request: str | None = None
    stopped_by = None
    with Interrupts() as interrupts:
        while not (terminal.leaving or interrupts.ending):
            try:
                request = await interrupts.wait_for(terminal.line(say("you prompt", language)))
            except Interrupted:
                terminal.write("")  # the terminal echoed ^C on the prompt's line
                stopped_by = interrupts.last
                break
            if request.lower() in ("", EXIT):
                continue
            terminal.remember(request)
            if request == CANCEL:
                terminal.write(say("no task", language))
                continue
            if request == EXPLAIN:
                terminal.write(_explained(last_request, registry, language))
                continue
            if COMMAND.fullmatch(request):  # /help, or a command the chat does not have: said by the chat, in words
                terminal.write(say("chat help" if request == HELP else "unknown command", language, command=request))
                continue
            last_request = request
            task = task or Task(request)  # made here, so that an interrupted first task is kept too
            events = run_task(client, model, request, registry, policy=policy, ask=terminal.ask, task=task,
                              system_prompt=system_prompt, stream=stream)
            if tracer is not None:
                from agentkit.beyond.tracing import traced

                events = traced(events, tracer, model=model, task=task)
            try:
                await interrupts.wait_for(finish(events, terminal.show))
            except Interrupted as interruption:
                terminal.write("")
                terminal.show(stop_interrupted(task, str(interruption)))  # by the signal's name: SIGINT, ...
                if not terminal.interactive:  # requests from a pipe or a file: Ctrl-C ends the chat, as a script's
                    stopped_by = interrupts.last
                    break
        stopped_by = interrupts.last if interrupts.ending else stopped_by
    terminal.write(say("bye", language))
    if stopped_by is not None:  # the command ends with the signal's status (130 for Ctrl-C); "bye" said it all
        raise Stopped(stopped_by)
    return task
