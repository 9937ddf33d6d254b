"""The tool policy (chapter 07): which tools may run, which need a person's yes, how many, and how much output.

`ToolExecutor.run(call_id, name, raw_arguments)` decides about one tool call the model asked for, with
checks in this order; the first that fails refuses the call with an `Error:` result naming its rule:

1. the tool exists;                        rule "tool exists"
2. the policy allows it;                   rule "allowed tools"
3. its arguments are a valid object;       rule "valid arguments"  (the dispatcher's message; parsed once)
4. it is within the limits;                rules "max_tool_calls_per_task", "max_tool_calls_per_turn",
                                                 "max_denials_per_task" (for a call that needs a yes)
5. a person said yes, if it needs that;    rule "confirmation"     (a no goes back to the model; with no
                                                 `ask` given, nobody can say yes: refused, see `agentkit.asking`)
6. it runs through the dispatcher, and its result is cut to `Limits.max_output_chars`, with a note.

Every decision goes to `ToolExecutor.log`. Limits are checked before anyone is asked, and a call put to a
person uses the budget even if they say no: one reply of 100 calls asks at most `max_tool_calls_per_turn`
questions, and after `max_denials_per_task` noes the task stops. Calls refused by checks 1-4 use none of it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# scripted_answers and TaskCancelled are imported from here too: chapter 07 introduces them with the policy.
from agentkit.asking import NO_PERSON, YES_ANSWERS, Ask, TaskCancelled, is_cancel, scripted_answers  # noqa: F401
from agentkit.decisions import Approved, Decision, Rule
from agentkit.hardening.echo import echo
from agentkit.limits import (
    DEFAULT_LIMITS,
    Limits,
    denials_refusal,
    denials_used_up,
    task_calls_refusal,
    task_calls_used_up,
    turn_calls_refusal,
)
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import ToolResult, parse_arguments, run_handler
from agentkit.tools.registry import openai_tools


@dataclass(frozen=True)
class ToolPolicy:
    """What the model may do with its tools in one task. The default allows every tool and asks where flagged."""

    allowed: frozenset[str] | None = None  # the tools offered and callable; None: every registered tool
    confirm: frozenset[str] | None = None  # the tools that need a yes; None: those whose definition asks for one
    limits: Limits = DEFAULT_LIMITS  # tool calls per turn and per task, characters of one result, ...

    def __post_init__(self) -> None:
        for name in ("allowed", "confirm"):
            if isinstance(value := getattr(self, name), str):  # frozenset("bash") would be a set of letters
                raise TypeError(f"ToolPolicy({name}=...) takes a set of tool names, not the string {value!r}")
            if value is not None:
                object.__setattr__(self, name, frozenset(value))


@dataclass
class ToolExecutor:
    """Runs the model's tool calls under a `ToolPolicy`, asking a person through `ask` where the policy says so."""

    registry: Mapping[str, ToolDefinition]  # every tool that exists for this task (from `build_registry`)
    policy: ToolPolicy = field(default_factory=ToolPolicy)
    ask: Ask | None = None  # None: nobody can be asked, so a call that needs a yes is refused
    log: list[Decision] = field(default_factory=list, init=False)  # every decision, in order
    calls_this_task: int = field(default=0, init=False)  # calls that passed checks 1-4: they ran, or a person was asked
    calls_this_turn: int = field(default=0, init=False)  # the same, since the last `new_turn()`
    denials: int = field(default=0, init=False)  # calls a person said no to
    stop_reason: str | None = field(default=None, init=False)  # a limit no later call could pass: the task stops

    def __post_init__(self) -> None:
        for name in ("allowed", "confirm"):  # a typo here is our mistake, not the model's: fail now
            unknown = sorted((getattr(self.policy, name) or frozenset()) - set(self.registry))
            if unknown:
                raise ValueError(f"ToolPolicy({name}=...) names {', '.join(map(repr, unknown))}, which is not a "
                                 f"registered tool; registered tools: {', '.join(sorted(self.registry)) or '(none)'}")
        self._deciding = asyncio.Lock()

    @property
    def allowed(self) -> dict[str, ToolDefinition]:
        """The registry as this policy lets the model see it."""
        allowed = self.policy.allowed
        return {name: tool for name, tool in self.registry.items() if allowed is None or name in allowed}

    def tools(self) -> list[dict]:
        """The `tools=` list to send: only the allowed tools are offered."""
        return openai_tools(self.allowed)

    def needs_confirmation(self, name: str) -> bool:
        confirm = self.policy.confirm
        return self.registry[name].needs_confirmation if confirm is None else name in confirm

    def new_turn(self) -> None:
        """The model sent a new reply: its calls start a fresh per-turn count."""
        self.calls_this_turn = 0

    async def run(self, call_id: str, name: str, raw_arguments: str) -> ToolResult:
        """Decide about one call and run it if every check passes. Raises `TaskCancelled` on `/cancel`."""
        decided = await self.check(call_id, name, raw_arguments)
        return decided if isinstance(decided, ToolResult) else await self.execute(decided)

    async def check(self, call_id: str, name: str, raw_arguments: str) -> ToolResult | Approved:
        """Checks 1-5: the call, `Approved` to run (and counted), or the refusal the model reads."""
        # One decision at a time: a person is never asked two questions at once, and calls are counted in order.
        async with self._deciding:
            refusal, arguments = self._refusal_before_asking(name, raw_arguments)
            if refusal:
                rule, message = refusal
                self.log.append(Decision(call_id, name, "refused", rule, message.replace("\n", " ")))
                return ToolResult.failure(f"refused by rule '{rule}': {message}")
            self.calls_this_task += 1  # counted before asking: a no uses the budget too, so questions are bounded
            self.calls_this_turn += 1
            if self.needs_confirmation(name):
                denial = await self._confirm(call_id, name, arguments)
                if denial:
                    return ToolResult.failure(f"refused by rule 'confirmation': {denial}")
            self.log.append(Decision(call_id, name, "allowed", "every check",
                                     f"call {self.calls_this_turn} of this turn, {self.calls_this_task} of this task"))
            return Approved(name, arguments)

    async def execute(self, call: Approved) -> ToolResult:
        """Step 6: run a call that passed `check`, with the arguments it checked, and cut its result to size."""
        result = await run_handler(self.registry[call.name], call.arguments)
        return truncate(result, self.policy.limits.max_output_chars)

    def _refusal_before_asking(self, name: str, raw_arguments: str) -> tuple[tuple[Rule, str] | None, dict[str, Any]]:
        """The first of checks 1-4 that refuses the call (rule, message), or None; and its arguments, parsed once."""
        allowed = ", ".join(sorted(self.allowed)) or "(none)"
        if name not in self.registry:
            return ("tool exists", f"unknown tool '{echo(name)}'; available tools: {allowed}"), {}
        if name not in self.allowed:
            return ("allowed tools", f"'{name}' is not allowed in this task; allowed tools: {allowed}"), {}
        arguments, problem = parse_arguments(self.registry[name], raw_arguments)
        if problem:
            return ("valid arguments", problem), {}
        if self.ask is None and self.needs_confirmation(name):  # nobody could say yes, so nobody is counted as asked
            return ("confirmation", NO_PERSON), arguments
        return self._over_limit(name), arguments

    async def _confirm(self, call_id: str, name: str, arguments: dict[str, Any]) -> str | None:
        """Ask the person; None if they said yes, else what the model is told. Raises `TaskCancelled` on /cancel."""
        assert self.ask is not None, "checked before: a call that needs a yes and has no ask is refused"
        try:
            answer = (await self.ask(f"Allow {name} {json.dumps(arguments, ensure_ascii=False)}? [y/N]")).strip()
        except TaskCancelled:  # an Ask may stop the task itself (a terminal's Ctrl-D, a page's cancel button)
            self.log.append(Decision(call_id, name, "cancelled", "confirmation", "the person stopped the task"))
            raise
        outcome = "cancelled" if is_cancel(answer) else "confirmed" if answer.lower() in YES_ANSWERS else "denied"
        self.log.append(Decision(call_id, name, outcome, "confirmation", f"the person answered {answer!r}"))
        if outcome == "cancelled":
            raise TaskCancelled(f"the person answered {answer} when asked to allow {name}")
        if outcome == "denied":
            self.denials += 1
            if self.denials >= self.policy.limits.max_denials_per_task:
                self.stop_reason = denials_used_up(self.denials)
            return (f"the user did not allow this call of '{name}' (they answered {answer!r}). It did not run. "
                    "Do not try it again; ask the user what they want instead, or answer without it.")
        return None

    def _over_limit(self, name: str) -> tuple[Rule, str] | None:
        limits = self.policy.limits
        if self.calls_this_task >= limits.max_tool_calls_per_task:
            self.stop_reason = task_calls_used_up(limits.max_tool_calls_per_task)
            return "max_tool_calls_per_task", task_calls_refusal(limits.max_tool_calls_per_task)
        if self.calls_this_turn >= limits.max_tool_calls_per_turn:
            return "max_tool_calls_per_turn", turn_calls_refusal(limits.max_tool_calls_per_turn)
        if self.denials >= limits.max_denials_per_task and self.needs_confirmation(name):
            self.stop_reason = denials_used_up(self.denials)
            return "max_denials_per_task", denials_refusal(self.denials)
        return None


def truncate(result: ToolResult, max_chars: int) -> ToolResult:
    """The result cut to `max_chars` characters, with a note saying how much was cut and how to see more."""
    if len(result.content) <= max_chars:
        return result
    cut = len(result.content) - max_chars
    note = (f"\n[... {cut:,} more characters cut: a tool result shows at most {max_chars:,} characters "
            "(Limits.max_output_chars, set in the task's ToolPolicy). Ask for a smaller part to see the rest.]")
    return ToolResult(result.content[:max_chars] + note, result.is_error, result.error)
