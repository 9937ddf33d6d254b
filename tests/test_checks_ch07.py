"""Chapter 07's checks pass the right answers and say what is wrong with wrong ones."""

import asyncio

from agentkit.checks.ch07 import check_exercise_7_1, check_exercise_7_2
from agentkit.policy import ToolPolicy


def summary(policy, capsys):
    passed = asyncio.run(check_exercise_7_2({"summary_policy": policy}))
    return passed, capsys.readouterr().out


class Gatekeeper:
    """The reference answer to exercise 7.1, as the notebook's solution cell writes it."""

    def __init__(self, registry, policy, ask):
        self.registry, self.policy, self.ask = registry, policy, ask
        self.calls, self.denials = 0, 0

    def needs_yes(self, name):
        confirm = self.policy.confirm
        return self.registry[name].needs_confirmation if confirm is None else name in confirm

    async def decide(self, name):
        limits = self.policy.limits
        if name not in self.registry:
            return "tool exists"
        if self.policy.allowed is not None and name not in self.policy.allowed:
            return "allowed tools"
        if self.calls >= limits.max_tool_calls_per_task:
            return "max_tool_calls_per_task"
        if self.needs_yes(name) and self.denials >= limits.max_denials_per_task:
            return "max_denials_per_task"
        self.calls += 1
        if self.needs_yes(name) and self.answered_no(await self.ask(f"Allow {name}? [y/N]")):
            self.denials += 1
            return "confirmation"
        return None

    def answered_no(self, answer):
        return answer.strip().lower() not in ("y", "yes")


def gate(gatekeeper, capsys):
    passed = asyncio.run(check_exercise_7_1({"Gatekeeper": gatekeeper}))
    return passed, capsys.readouterr().out


def test_gate_right_answer(capsys):
    assert gate(Gatekeeper, capsys) == (True, "[pass] Exercise 7.1: a gatekeeper that counts\n")


def test_gate_that_takes_an_empty_confirm_set_for_none(capsys):
    class Truthy(Gatekeeper):
        def needs_yes(self, name):
            confirm = self.policy.confirm
            return name in confirm if confirm else self.registry[name].needs_confirmation

    passed, out = gate(Truthy, capsys)
    assert out == ("[fail] Exercise 7.1: a gatekeeper that counts: in the hidden case 'an empty confirm set: nobody "
                   "is asked', ToolPolicy(confirm=frozenset()), earlier calls: none; then bash: your gatekeeper asked "
                   "the person; expected no question: this tool needs no yes in this policy.\n")


def test_gate_that_counts_only_the_calls_that_ran(capsys):
    class CountsYesOnly(Gatekeeper):
        async def decide(self, name):
            calls = self.calls
            rule = await super().decide(name)
            if rule == "confirmation":
                self.calls = calls
            return rule

    passed, out = gate(CountsYesOnly, capsys)
    assert not passed and "in the hidden case 'three calls per task'" in out
    assert out.endswith("then read_file: decide returned None; expected 'max_tool_calls_per_task'.\n")
    assert "earlier calls: read_file, bash (answered 'n'), format_disk, glob;" in out


def test_gate_that_asks_past_the_denial_limit(capsys):
    class AsksForever(Gatekeeper):
        def __init__(self, registry, policy, ask):
            super().__init__(registry, policy, ask)
            self.denials = -1_000  # never reaches max_denials_per_task

    passed, out = gate(AsksForever, capsys)
    assert not passed and "in the hidden case 'every tool confirmed; answers spelled many ways'" in out
    assert out.endswith("then read_file: your gatekeeper asked the person; expected no question: "
                        "'max_denials_per_task' refuses it first.\n")


def test_gate_that_wants_an_exact_yes(capsys):
    class ExactYes(Gatekeeper):
        def answered_no(self, answer):
            return answer != "y"

    passed, out = gate(ExactYes, capsys)
    assert not passed and "then read_file (the person answers ' Y ' if asked): decide returned 'confirmation'; " \
                          "expected None." in out


def test_gate_that_ignores_the_policy_allowlist(capsys):
    class NoAllowlist(Gatekeeper):
        async def decide(self, name):
            rule = await super().decide(name)
            return None if rule == "allowed tools" else rule

    passed, out = gate(NoAllowlist, capsys)
    assert not passed and "'an allowlist', ToolPolicy(allowed={'glob', 'read_file'})" in out


def test_gate_that_looks_up_an_unknown_tool(capsys):
    class FlagsFirst(Gatekeeper):
        async def decide(self, name):
            self.needs_yes(name)  # KeyError for a tool that does not exist: check 1 must come first
            return await super().decide(name)

    passed, out = gate(FlagsFirst, capsys)
    assert out == ("[fail] Exercise 7.1: a gatekeeper that counts: in the hidden case 'the default policy: "
                   "needs_confirmation says whom to ask', ToolPolicy(), earlier calls: read_file, write_file (answered "
                   "'y'), bash (answered 'n'); then format_disk: decide raised KeyError: 'format_disk'; "
                   "expected 'tool exists'.\n")


def test_gate_built_the_wrong_way(capsys):
    class TwoArguments:
        def __init__(self, policy, ask):
            pass

    passed, out = gate(TwoArguments, capsys)
    assert not passed and "your code raised TypeError: " in out and "__init__() takes 3 positional arguments" in out


def test_gate_not_written(capsys):
    passed, out = asyncio.run(check_exercise_7_1({})), capsys.readouterr().out
    assert not passed and out.startswith("[todo] Exercise 7.1")


def test_summary_right_answer(capsys):
    passed, out = summary(ToolPolicy(allowed={"read_file", "glob"}), capsys)
    assert (passed, out) == (True, "[pass] Exercise 7.2: a policy that makes the injection harmless\n")


def test_summary_allowing_everything(capsys):
    passed, out = summary(ToolPolicy(), capsys)
    assert not passed and "allowed=None allows every tool, bash included" in out


def test_summary_keeping_the_shell(capsys):
    passed, out = summary(ToolPolicy(allowed={"read_file", "bash"}, confirm=frozenset()), capsys)
    assert out == ("[fail] Exercise 7.2: a policy that makes the injection harmless: bash can change files or run "
                   "commands; a summary needs none of them.\n")


def test_summary_without_read_file(capsys):
    passed, out = summary(ToolPolicy(allowed={"glob"}), capsys)
    assert not passed and "the model needs read_file to read notes.txt" in out


def test_summary_naming_an_unknown_tool(capsys):
    passed, out = summary(ToolPolicy(allowed={"read_file", "read_files"}), capsys)
    assert not passed and "read_files can change files or run commands" in out
