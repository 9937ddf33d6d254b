"""What the tool policy decides (chapter 07): before a call runs, a verdict the loop acts on (`Allow`, `Refuse`
naming its rule, or `AskPerson` with the question); and its log, one `Decision` for each call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from agentkit.asking import Question
from agentkit.calls import ToolCall
from agentkit.tools.contract import CheckedArguments
from agentkit.tools.dispatcher import ToolResult

Rule = Literal["tool exists", "allowed tools", "valid arguments", "confirmation", "every check",
               "max_tool_calls_per_task", "max_tool_calls_per_turn", "max_denials_per_task"]
"""The check that decided (`every check` when a call passed them all); the last three are `Limits` fields."""


@dataclass(frozen=True)
class Allow:
    """Run `call`: it passed every check (and a person said yes, if it needed one)."""

    call: ToolCall
    arguments: CheckedArguments  # as check 3 passed them: the handler takes them without a second check


@dataclass(frozen=True)
class Refuse:
    """Do not run `call`: `rule` refused it, and `reason` tells the model why and what to do instead."""

    call: ToolCall
    rule: Rule
    reason: str

    def result(self) -> ToolResult:
        """What the model reads instead of the tool's output: the rule by name, then the reason."""
        return ToolResult.failure(f"refused by rule '{self.rule}': {self.reason}", refused_by=self.rule)


@dataclass(frozen=True)
class AskPerson:
    """Ask a person first: `question` carries the call; their answer makes it an `Allow` or a `Refuse`."""

    question: Question
    arguments: CheckedArguments  # as check 3 passed them, for the `Allow` a yes makes

    @property
    def call(self) -> ToolCall:
        return self.question.call  # type: ignore[return-value]  # a confirmation always carries its call


Verdict = Allow | Refuse | AskPerson  # what `ToolExecutor.check` says about one call


@dataclass(frozen=True)
class Decision:
    """One line of the executor's log: what happened to a tool call, and which rule decided it."""

    call_id: str  # the id of the tool call, as the model sent it
    tool: str  # the tool the model asked for
    outcome: Literal["allowed", "refused", "confirmed", "denied", "cancelled"]  # what happened to the call
    rule: Rule  # the check that decided: tool exists, allowed tools, valid arguments, confirmation, or a Limits field
    detail: str = ""  # why: the person's answer, the call count, or (for a refusal) what the model is told, on one line

    def __str__(self) -> str:
        return f"{self.outcome:<9} {self.tool:<14} [{self.rule}] {self.detail}".rstrip()
