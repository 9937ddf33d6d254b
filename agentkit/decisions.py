"""The tool policy's log (chapter 07): one `Decision` for each tool call, naming the rule that decided it; and
a call `Approved` to run, with its arguments parsed once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

Outcome = Literal["allowed", "refused", "confirmed", "denied", "cancelled"]
"""What happened to one tool call."""
Rule = Literal["tool exists", "allowed tools", "valid arguments", "confirmation", "every check",
               "max_tool_calls_per_task", "max_tool_calls_per_turn", "max_denials_per_task"]
"""The check that decided (`every check` when a call passed them all); the last three are `Limits` fields."""


@dataclass(frozen=True)
class Decision:
    """One line of the executor's log: what happened to a tool call, and which rule decided it."""

    call_id: str
    """The id of the tool call, as the model sent it."""
    tool: str
    """The tool the model asked for."""
    outcome: Outcome
    """allowed, refused, confirmed, denied or cancelled."""
    rule: Rule
    """The check that decided: tool exists, allowed tools, valid arguments, confirmation, or a Limits field."""
    detail: str = ""
    """Why: the person's answer, the call count, or (for a refusal) what the model is told, on one line."""

    def __str__(self) -> str:
        return f"{self.outcome:<9} {self.tool:<14} [{self.rule}] {self.detail}".rstrip()


class Approved(NamedTuple):
    """A call that passed every check: `ToolExecutor.execute` runs the tool `name` with the `arguments` that
    `ToolExecutor.check` parsed and checked against its schema, once."""

    name: str
    arguments: dict[str, Any]
