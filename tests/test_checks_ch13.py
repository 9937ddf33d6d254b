"""Chapter 13's checks pass any working tool and sound cases, and say what is wrong with the others."""

import asyncio
import tempfile
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Literal

import pytest

from agentkit.checks.ch13 import check_exercise_13_1, check_exercise_13_2
from agentkit.evaluation import Case, ExpectedCall
from agentkit.tools import ToolDefinition, ToolError, build_registry, tool


def agent_tools(workspace):
    """A stand-in for the notebook's expenses_agent.tools: a ledger file, and add_expense to fill it."""
    ledger = workspace.root / "ledger.txt"
    ledger.touch()

    @tool
    def add_expense(amount: float, category: str, item: str, day: str) -> str:
        """Record a new expense.

        Args:
            amount: Euros.
            category: Its kind.
            item: What it was.
            day: YYYY-MM-DD.
        """
        with ledger.open("a") as file:
            file.write(f"{item.replace(' ', '_')} {amount:.2f}\n")
        return "Recorded."

    @tool
    def spending_total(month: str | None = None) -> str:
        """The total spent, in all or in one month.

        Args:
            month: Only this month, YYYY-MM.
        """
        return "12.50 euros"

    return build_registry([add_expense, spending_total])


AGENT = SimpleNamespace(tools=agent_tools)


def biggest(workspace):
    """A working tool with no required argument, reading what the agent recorded."""
    @tool
    def biggest_expense(category: Literal["food", "transport"] | None = None) -> str:
        """The single biggest expense recorded so far.

        Args:
            category: Only this kind of spending.
        """
        lines = (workspace.root / "ledger.txt").read_text().splitlines()
        return max(lines, key=lambda line: float(line.split()[1])) if lines else "none"

    return biggest_expense


def delete(workspace):
    """A working tool with a required argument, that changes what the agent recorded."""
    @tool(needs_confirmation=True)
    def delete_expense(item: str) -> str:
        """Delete the expense recorded for one item.

        Args:
            item: The item to delete, e.g. "lunch".
        """
        ledger = workspace.root / "ledger.txt"
        lines = ledger.read_text().splitlines()
        if not any(line.split()[0] == item for line in lines):
            raise ToolError(f"no expense for {item!r}; recorded: {', '.join(line.split()[0] for line in lines)}")
        ledger.write_text("".join(f"{line}\n" for line in lines if line.split()[0] != item))
        return f"Deleted the expense for {item}."

    return delete_expense


def biggest_cases(name="biggest_expense"):
    offered = ("spending_total", name)
    return [Case("mine_1", "train", "choose", "What was my biggest expense?", offered,
                 (ExpectedCall(name, {"category": [None]}),)),
            Case("mine_2", "train", "choose", "My biggest food expense?", offered, (ExpectedCall(name, {"category": ["food"]}),)),
            Case("mine_3", "heldout", "no_tool", "Which bank has the lowest fees?", offered, ())]


def run(check, answers):
    """Run a check with the notebook's names: the agent module, its registry, and the answers."""
    with tempfile.TemporaryDirectory() as folder:
        registry = agent_tools(SimpleNamespace(root=Path(folder)))
    return asyncio.run(check({"registry": registry, "agent": AGENT, **answers}))


def test_any_working_tool_passes_in_a_workspace_of_the_checks_own(capsys):
    assert run(check_exercise_13_1, {"my_tool": biggest, "my_tool_arguments": {"category": "food"}})
    # "lunch" exists only because the check recorded it through the agent's add_expense before calling the tool
    assert run(check_exercise_13_1, {"my_tool": delete, "my_tool_arguments": {"item": "lunch"}})
    assert capsys.readouterr().out.count("[pass]") == 2


def broken(description="The biggest expense recorded so far.", parameters=None):
    async def crash(arguments):
        return {}["no such key"]

    return lambda workspace: ToolDefinition("biggest", description, parameters or {"type": "object", "properties": {}}, crash)


@tool
def spending_total(month: str | None = None) -> str:
    """The total spent, in all or in one month, again.

    Args:
        month: Only this month, YYYY-MM.
    """
    return "0"


@pytest.mark.parametrize(("answers", "hint"), [
    ({}, "[todo]"),
    ({"my_tool": biggest(SimpleNamespace(root=None)), "my_tool_arguments": {}}, "must be a function that takes the workspace"),
    ({"my_tool": lambda workspace: "42", "my_tool_arguments": {}}, "returned a str, not a tool"),
    ({"my_tool": lambda workspace: spending_total, "my_tool_arguments": {}}, "like one of the agent's tools"),
    ({"my_tool": broken(), "my_tool_arguments": {}}, "hit a bug in the tool: KeyError"),
    ({"my_tool": broken(description="Biggest."), "my_tool_arguments": {}}, "say in a sentence what it does"),
    ({"my_tool": broken(parameters={"type": "object", "properties": {"n": {"type": "integer"}}}), "my_tool_arguments": {}},
     "parameter 'n' has no description"),
    ({"my_tool": delete, "my_tool_arguments": {"item": "cinema"}}, "should be a call that works"),
    ({"my_tool": delete, "my_tool_arguments": "lunch"}, "must be a dict of arguments"),
])
def test_exercise_13_1_says_what_is_wrong(answers, hint, capsys):
    assert not run(check_exercise_13_1, answers)
    assert hint in capsys.readouterr().out


def test_a_wrong_call_must_be_refused_when_the_schema_can_refuse_one(capsys):
    async def anything(arguments):
        return "ok"

    strict = ToolDefinition("count", "Count the expenses of one item.",
                            {"type": "object", "properties": {"item": {"type": "string", "description": "An item."}},
                             "required": ["item"]}, anything)
    assert run(check_exercise_13_1, {"my_tool": lambda workspace: strict, "my_tool_arguments": {"item": "x"}})
    untyped = replace(strict, parameters={"type": "object", "properties": {"item": {"description": "An item."}}})
    assert run(check_exercise_13_1, {"my_tool": lambda workspace: untyped, "my_tool_arguments": {"item": "x"}})


def test_sound_cases_pass(capsys):
    assert run(check_exercise_13_2, {"my_tool": biggest, "my_cases": biggest_cases()})
    assert "[pass]" in capsys.readouterr().out


@pytest.mark.parametrize(("cases", "hint"), [
    (biggest_cases()[:2], "write at least 3"),
    ([*biggest_cases()[:2], replace(biggest_cases()[2], id="mine_1")], "share an id"),
    ([*biggest_cases(), replace(biggest_cases()[0], id="total_1")], "the notebook's cases use that id already"),
    ([*biggest_cases(), replace(biggest_cases()[0], id="x", tools=("spending_total", "delete_all"))], "delete_all"),
    ([*biggest_cases(), replace(biggest_cases()[1], id="x", expected=(ExpectedCall("biggest_expense", {}),))],
     "list every declared parameter"),
    ([*biggest_cases(), replace(biggest_cases()[1], id="x", expected=(ExpectedCall("biggest_expense", {"category": ["rent"]}),))],
     "is not a valid 'category'"),
    ([biggest_cases()[2], replace(biggest_cases()[2], id="b"), replace(biggest_cases()[2], id="c")], "no case expects a call"),
    ([biggest_cases()[0], replace(biggest_cases()[0], id="b"), replace(biggest_cases()[1], id="c")], "add a no_tool case"),
    ("three cases", "must be a list of Case"),
])
def test_exercise_13_2_says_what_is_wrong(cases, hint, capsys):
    notebook_cases = [Case("total_1", "train", "choose", "Total?", ("spending_total",),
                           (ExpectedCall("spending_total", {"month": [None]}),))]
    assert not run(check_exercise_13_2, {"my_tool": biggest, "my_cases": cases, "cases": notebook_cases})
    assert hint in capsys.readouterr().out
