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
from typing import Any, ClassVar

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
    max_tokens: int = 20_000  # its token budget for one task: a request that would pass it is not sent (Budget)


async def run_subagent(agent: Subagent, goal: str, on_event: Callable[[Event], Any] | None = None) -> Task:
    """Run one task in the subagent and return it completed, or raise `ToolError` saying why it stopped."""
    events = run_task(agent.client, agent.model, goal, agent.registry, policy=agent.policy, ask=agent.ask,
                      system_prompt=agent.system_prompt)
    task: Task | None = None
    budget = Budget(agent.max_tokens)
    try:
        async for event in events:
            if on_event is not None:
                on_event(event)  # the subagent's events, for a person to watch; the parent's model never sees them
            if over := budget.over(event):
                raise ToolError(f"the subagent stopped: {over}; raise its budget with Subagent(..., max_tokens=...) "
                                "or give it a smaller task")
            if event.kind == "status":
                task = event.task
    finally:
        await events.aclose()  # a budget stop leaves the loop mid-task: close it, so nothing of it keeps running
    if task is None or task.status != "completed":
        status, why = (task.status, task.error) if task else ("failed", "no status")
        raise ToolError(f"the subagent stopped ({status}): {why}")
    return task


@dataclass
class Budget:
    """A token budget kept before each request rather than found passed after it. A request sends again everything
    the last one sent and its reply, then the new results, and gets a reply of its own: the next one is expected to
    cost the last one's tokens, a token for each character of the results (most text takes fewer: a bound, for
    Chinese too), `PER_MESSAGE` for each new message and a reply as long as the last. The API cannot cap a whole
    request (`max_tokens` caps only the reply, and not every provider takes it), so the budget is kept by not sending
    a request expected to pass it; the first one, which nothing comes before, is measured after it came."""

    limit: int
    used: int = 0  # tokens so far, as the provider counted them
    written: int = 0  # of which the replies'
    last_request: int = 0  # tokens of the last request: what it sent and its reply
    last_reply: int = 0
    waiting: int = 0  # the last reply's calls whose results have not come yet
    new: int = 0  # tokens expected of the messages added since: the reply's, the results' so far

    PER_MESSAGE: ClassVar[int] = 16  # what a provider adds around a message: its role, a call's id and type

    def over(self, event: Event) -> str | None:
        """Why the budget stops the task at `event`; None while it holds."""
        if event.kind == "usage":
            self.last_request, self.used = event.usage.total_tokens - self.used, event.usage.total_tokens
            self.last_reply, self.written = event.usage.completion_tokens - self.written, event.usage.completion_tokens
            self.waiting, self.new = 0, self.PER_MESSAGE
            if self.used > self.limit:
                return f"it used {self.used} tokens, over its budget of {self.limit} (Subagent.max_tokens)"
        elif event.kind == "tool_call":
            self.waiting += 1
        elif event.kind == "tool_result":
            self.waiting, self.new = self.waiting - 1, self.new + len(event.content) + self.PER_MESSAGE
            expected = self.last_request + self.new + self.last_reply
            if not self.waiting and self.used + expected > self.limit:
                return (f"it has used {self.used} of its {self.limit} tokens (Subagent.max_tokens), and its next request "
                        f"would cost about {expected}, so it was not sent")
        return None


def subagent_tool(name: str, description: str, agent: Subagent,
                  on_event: Callable[[Event], Any] | None = None) -> ToolDefinition:
    """A tool `name(task)` that hands `task` to `agent` and returns its final answer as the tool result."""

    async def delegate(arguments: dict[str, Any]) -> str:
        task = await run_subagent(agent, arguments["task"], on_event)
        return task.answer or "(the subagent gave no answer)"

    parameters = {"type": "object", "additionalProperties": False, "required": ["task"], "properties": {
        "task": {"type": "string", "description": "The task for the subagent, in full: it sees nothing else."}}}
    return ToolDefinition(name, description, parameters, delegate)
