"""The tool policy's log (chapter 07): one `Decision` for each tool call, naming the rule that decided it; and
a call `Approved` to run, with its arguments parsed once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, get_args

from agentkit.messages import PERSON_LANGUAGE, say

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
NOT_RUN_BECAUSE: dict[str, str] = {rule: say(f"because {rule}", "en") for rule in get_args(Rule)
                                   if rule != "every check"}
"""Why a refused call did not run, said to the person: the model's result says what to do next instead."""
SUMMARY_CHARS = 60
"""Characters of a call's main argument the person's line repeats."""


def for_the_person(decision: Decision | None, arguments: str, language: str | None = None) -> str:
    """The line a person reads about a call that did not run ("You declined: write_file notes.txt"); "" if it ran.

    In `language` ("zh": "你拒绝了：write_file notes.txt"); by default the language of the person the task
    reports to (`messages.PERSON_LANGUAGE`, which a front end sets), English unless one set it.

    The model's tool result says the same for the model ("do not try it again ..."): two audiences, two texts.
    """
    if decision is None or decision.outcome in ("allowed", "confirmed"):
        return ""
    language = language or PERSON_LANGUAGE.get()
    call = _summary(decision.tool, arguments)
    if decision.outcome == "denied":
        return say("you declined", language, call=call)
    if decision.outcome == "cancelled":
        return say("cancelled call", language, call=call)
    reason = say(f"because {decision.rule}", language) if decision.rule in NOT_RUN_BECAUSE else decision.rule
    return say("not run", language, call=call, reason=reason)


def _summary(tool: str, arguments: str) -> str:
    """`write_file notes.txt`: the tool and its main argument (a path, a command), shortened to one line."""
    try:
        parsed = json.loads(arguments or "{}")
    except ValueError:
        parsed = None
    values = parsed.values() if isinstance(parsed, dict) else []
    main = next((value for value in values if isinstance(value, str) and value.strip()), "")
    main = " ".join(main.split())
    return f"{tool} {main[:SUMMARY_CHARS]}{'...' * (len(main) > SUMMARY_CHARS)}".rstrip()
