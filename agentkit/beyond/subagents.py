"""An agent as a tool (chapter 14): a tool whose handler is a whole agent loop of its own.

    parent loop --call delegate(task)--> handler: run_task(its own tools, prompt, policy, budget)
         ^                                                |
         +------ one tool result: the subagent's answer --+  (or `Error: ...` when it failed or hit a limit)

The parent's messages get the call and that one result, never the subagent's own calls and results (context
isolation): the subagent's work costs the parent a few tokens. Its calls go through its own `ToolPolicy`, so a
write inside it still asks the person through the `ask` it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import openai

from agentkit.asking import Ask
from agentkit.errors import ToolError
from agentkit.events import Event
from agentkit.loop import run_task
from agentkit.policy import ToolPolicy
from agentkit.task import Task
from agentkit.tools.contract import ToolDefinition


@dataclass(frozen=True)
class Subagent:
    """Everything the subagent gets of its own: the parent's tools, prompt and history are none of it."""

    client: openai.AsyncOpenAI  # the model it talks to: the parent's, or a cheaper one
    model: str
    registry: Mapping[str, ToolDefinition]  # its tools, usually fewer than the parent's
    system_prompt: str  # its role and rules
    policy: ToolPolicy = field(default_factory=ToolPolicy)  # its allowlist, confirmations and limits
    ask: Ask | None = None  # who answers its confirmations: pass the parent's person; None refuses them
    max_tokens: int = 20_000  # its token budget for one task: past it, the task stops and the parent reads an Error


async def run_subagent(agent: Subagent, goal: str, on_event: Callable[[Event], Any] | None = None) -> Task:
    """Run one task in the subagent and return it completed, or raise `ToolError` saying why it stopped."""
    events = run_task(agent.client, agent.model, goal, agent.registry, policy=agent.policy, ask=agent.ask,
                      system_prompt=agent.system_prompt)
    task: Task | None = None
    try:
        async for event in events:
            if on_event is not None:
                on_event(event)  # the subagent's events, for a person to watch; the parent's model never sees them
            if event.kind == "usage" and event.usage.total_tokens > agent.max_tokens:
                raise ToolError(f"the subagent stopped: it used {event.usage.total_tokens} tokens, over its budget "
                                f"of {agent.max_tokens}; give it a smaller task")
            if event.kind == "status":
                task = event.task
    finally:
        await events.aclose()  # a budget stop leaves the loop mid-task: close it, so nothing of it keeps running
    if task is None or task.status != "completed":
        status, why = (task.status, task.error) if task else ("failed", "no status")
        raise ToolError(f"the subagent stopped ({status}): {why}")
    return task


def subagent_tool(name: str, description: str, agent: Subagent,
                  on_event: Callable[[Event], Any] | None = None) -> ToolDefinition:
    """A tool `name(task)` that hands `task` to `agent` and returns its final answer as the tool result."""

    async def delegate(arguments: dict[str, Any]) -> str:
        task = await run_subagent(agent, arguments["task"], on_event)
        return task.answer or "(the subagent gave no answer)"

    parameters = {"type": "object", "additionalProperties": False, "required": ["task"], "properties": {
        "task": {"type": "string", "description": "The task for the subagent, in full: it sees nothing else."}}}
    return ToolDefinition(name, description, parameters, delegate)
