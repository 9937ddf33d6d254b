"""A task (chapter 08): one conversation with its goal, and everything needed to show it, measure it and resume it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from agentkit.asking import Cancelled
from agentkit.decisions import Decision
from agentkit.limits import LimitReached

Status = Literal["running", "completed", "cancelled", "limit reached", "failed"]
"""Where a task is: running, or one of the four ways it ends."""


@dataclass(frozen=True)
class ModelFailed:
    """Why a task failed: the model could not be reached (`unreachable`, after the SDK's retries) or its reply
    could not be used (`unusable`); `detail` is the provider's error, or what was wrong with the reply."""

    how: Literal["unreachable", "unusable"]
    detail: str

    def __str__(self) -> str:
        if self.how == "unreachable":
            return f"the model request failed: {self.detail}"
        return f"the model's reply could not be used: {self.detail}"


StopReason = Cancelled | LimitReached | ModelFailed
"""Why a task ended without completing: a value that carries its data, which each front end words for its person."""
ENDED: dict[type, Status] = {Cancelled: "cancelled", LimitReached: "limit reached", ModelFailed: "failed"}
"""How a task ended, by the type of why it stopped; a task that nothing stopped is completed."""


@dataclass
class Usage:
    """Tokens, summed over every model response of a task (as each provider counts them)."""

    prompt_tokens: int = 0  # tokens of everything sent: the whole conversation so far and the tool schemas, on every turn
    completion_tokens: int = 0  # tokens the model wrote: answers and tool calls

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class Task:
    """One conversation with its goal and everything needed to show it, measure it and resume it."""

    goal: str  # what the person asked for last
    messages: list[dict[str, Any]] = field(default_factory=list)
    """The whole conversation as sent to the model; always valid to send again."""
    turns: int = 0  # model responses received, over every run of the task
    tool_calls: int = 0  # tool calls the model asked for, refused ones included, over every run
    usage: Usage = field(default_factory=Usage)  # tokens summed over every response
    status: Status = "running"  # running, completed, cancelled, limit reached or failed
    answer: str | None = None  # the model's final answer, when the status is completed
    error: StopReason | None = None  # why the task stopped, when it was not completed
    decisions: list[Decision] = field(default_factory=list)
    """The tool policy's log: every allowed, refused, confirmed or denied call."""
