"""The tool policy (chapter 07): which tools may run, which need a person's yes, how many, and how much output.

`ToolExecutor.check(call)` decides about one `ToolCall` the model asked for, with checks in this order; the first
that fails refuses the call (`Refuse`, naming its rule), and a call that needs a yes is put to a person
(`AskPerson`, with the question); `ToolExecutor.run(call)` does the whole of it and returns the result:

1. the tool exists;                        rule "tool exists"
2. the policy allows it;                   rule "allowed tools"
3. its arguments are a valid object;       rule "valid arguments"  (the tool's own validator, run once)
4. it is within the limits;                rules "max_tool_calls_per_task", "max_tool_calls_per_turn",
                                                 "max_denials_per_task" (for a call that needs a yes)
5. a person said yes, if it needs that;    rule "confirmation"     (a no goes back to the model; with no
                                                 `ask` given, nobody can say yes: refused, see `agentkit.asking`)
6. it runs through chapter 04's `execute_tool`, and its result is cut to `Limits.max_output_chars`, with a note.

Every decision goes to `ToolExecutor.log`. Limits are checked before anyone is asked, and a call put to a
person uses the budget even if they say no: one reply of 100 calls asks at most `max_tool_calls_per_turn`
questions, and after `max_denials_per_task` noes the task stops. Calls refused by checks 1-4 use none of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

# scripted_answers and TaskCancelled are imported from here too: chapter 07 introduces them with the policy.
from agentkit.asking import NO_PERSON, YES_ANSWERS, Ask, Cancelled, Question, TaskCancelled, is_cancel, scripted_answers  # noqa: F401
from agentkit.calls import ToolCall
from agentkit.decisions import Allow, AskPerson, Decision, Refuse, Rule, Verdict
from agentkit.limits import DEFAULT_LIMITS, LimitReached, Limits, limit_refusal
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import ToolResult, check_arguments, execute_tool, unknown_tool
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
    log: list[Decision] = field(default_factory=list)  # every decision, in order (a task passes its own, to keep)
    calls_this_task: int = field(default=0, init=False)  # calls that passed checks 1-4: they ran, or a person was asked
    calls_this_turn: int = field(default=0, init=False)  # the same, since the last `new_turn()`
    denials: int = field(default=0, init=False)  # calls a person said no to
    stop_reason: LimitReached | None = field(default=None, init=False)  # a limit no later call could pass: the task stops

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

    async def run(self, call: ToolCall) -> ToolResult:
        """Decide about one call, ask a person if it needs a yes, and run it if allowed. Raises `TaskCancelled`."""
        async with self._deciding:  # one decision at a time: a person is never asked two questions at once
            verdict = self.check(call)
            if isinstance(verdict, AskPerson):
                verdict = await self.confirm(verdict)
        return await self.execute(verdict)

    def check(self, call: ToolCall) -> Verdict:
        """Checks 1-4, in order: `Refuse` (naming the rule), `AskPerson` (check 5 is theirs), or `Allow`."""
        verdict = self._checks(call)
        if isinstance(verdict, Refuse):
            self._record(call, "refused", verdict.rule, verdict.reason.replace("\n", " "))
            if verdict.rule in ("max_tool_calls_per_task", "max_denials_per_task"):  # no later call could pass it
                self.stop_reason = LimitReached(verdict.rule, getattr(self.policy.limits, verdict.rule))
            return verdict
        self.calls_this_task += 1  # counted before asking: a no uses the budget too, so questions are bounded
        self.calls_this_turn += 1
        if self.needs_confirmation(call.name):
            return AskPerson(Question.confirm(call), verdict.arguments)
        self._record(call, "allowed", "every check", self._count())
        return verdict

    async def confirm(self, asking: AskPerson) -> Allow | Refuse:
        """Check 5: put the question to the person. Raises `TaskCancelled` on /cancel or /exit."""
        assert self.ask is not None, "checked before: a call that needs a yes and has no ask is refused"
        call = asking.call
        try:
            answer = (await self.ask(asking.question)).strip()
        except TaskCancelled:  # an Ask may stop the task itself (a terminal's Ctrl-D, a page's cancel button)
            self._record(call, "cancelled", "confirmation", "the person stopped the task")
            raise
        outcome = "cancelled" if is_cancel(answer) else "confirmed" if answer.lower() in YES_ANSWERS else "denied"
        self._record(call, outcome, "confirmation", f"the person answered {answer!r}")
        if outcome == "cancelled":
            raise TaskCancelled(Cancelled(answer, asking.question))
        if outcome == "confirmed":
            self._record(call, "allowed", "every check", self._count())
            return Allow(call, asking.arguments)
        self.denials += 1
        if self.denials >= self.policy.limits.max_denials_per_task:
            self.stop_reason = LimitReached("max_denials_per_task", self.denials)
        return Refuse(call, "confirmation", f"the user did not allow this call of '{call.name}' (they answered "
                      f"{answer!r}). It did not run. Do not try it again; ask the user what they want instead, or "
                      "answer without it.")

    async def execute(self, verdict: Allow | Refuse) -> ToolResult:
        """Step 6: run an allowed call through the dispatcher and cut its result to size; a refusal is its result."""
        if isinstance(verdict, Refuse):
            return verdict.result()
        result = await execute_tool(self.allowed, verdict.call, checked=verdict.arguments)  # by check 3
        return truncate(result, self.policy.limits.max_output_chars)

    def _checks(self, call: ToolCall) -> Refuse | Allow:
        """The first of checks 1-4 that refuses `call`, or the call allowed with its arguments as check 3 passed them."""
        name, allowed = call.name, ", ".join(sorted(self.allowed)) or "(none)"
        if name not in self.registry:
            return Refuse(call, "tool exists", unknown_tool(name, self.allowed))
        if name not in self.allowed:
            return Refuse(call, "allowed tools", f"'{name}' is not allowed in this task; allowed tools: {allowed}")
        arguments, problem = check_arguments(self.registry[name], call)
        if problem:
            return Refuse(call, "valid arguments", problem)
        if self.ask is None and self.needs_confirmation(name):  # nobody could say yes, so nobody is counted as asked
            return Refuse(call, "confirmation", NO_PERSON)
        return self._limit_refusal(call) or Allow(call, arguments)

    def _limit_refusal(self, call: ToolCall) -> Refuse | None:
        """Check 4: the refusal of the first limit `call` would go past, or None."""
        limits, over = self.policy.limits, None
        if self.calls_this_task >= limits.max_tool_calls_per_task:
            over = "max_tool_calls_per_task"
        elif self.calls_this_turn >= limits.max_tool_calls_per_turn:
            over = "max_tool_calls_per_turn"
        elif self.denials >= limits.max_denials_per_task and self.needs_confirmation(call.name):
            over = "max_denials_per_task"
        return Refuse(call, over, limit_refusal(over, getattr(limits, over))) if over else None

    def _count(self) -> str:
        return f"call {self.calls_this_turn} of this turn, {self.calls_this_task} of this task"

    def _record(self, call: ToolCall, outcome: str, rule: Rule, detail: str) -> None:
        self.log.append(Decision(call.id, call.name, outcome, rule, detail))  # type: ignore[arg-type]


def truncate(result: ToolResult, max_chars: int) -> ToolResult:
    """The result cut to `max_chars` characters, with a note saying how much was cut and how to see more."""
    if len(result.content) <= max_chars:
        return result
    cut = len(result.content) - max_chars
    note = (f"\n[... {cut:,} more characters cut: a tool result shows at most {max_chars:,} characters "
            "(Limits.max_output_chars, set in the task's ToolPolicy). Ask for a smaller part to see the rest.]")
    return replace(result, content=result.content[:max_chars] + note)
