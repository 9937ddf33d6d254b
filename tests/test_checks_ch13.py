"""Chapter 13's checks pass any working tool and sound cases, and say what is wrong with the others."""

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Literal

import pytest

from agentkit.checks.ch13 import check_exercise_13_1, check_exercise_13_2
from agentkit.evaluation import Case, ExpectedCall
from agentkit.tools import ToolDefinition, ToolError, build_registry, tool


@tool
def spending_total(month: str | None = None) -> str:
    """The total spent, in all or in one month.

    Args:
        month: Only this month, YYYY-MM.
    """
    return "12.50 euros"


REGISTRY = build_registry([spending_total])


def tools_for(folder: Path):
    """Two different working tools, as two learners might write them: one with a required argument, one without."""
    ledger = folder / "ledger.txt"
    ledger.write_text("lunch 12.50\ntrain 30.00\n")

    @tool
    def biggest_expense(category: Literal["food", "transport"] | None = None) -> str:
        """The single biggest expense recorded so far.

        Args:
            category: Only this kind of spending.
        """
        return max(ledger.read_text().splitlines(), key=lambda line: float(line.split()[1]))

    @tool(needs_confirmation=True)
    def delete_expense(item: str) -> str:
        """Delete the expense recorded for one item.

        Args:
            item: The item to delete, e.g. "lunch".
        """
        lines = ledger.read_text().splitlines()
        if not any(line.split()[0] == item for line in lines):
            raise ToolError(f"no expense for {item!r}; recorded: {', '.join(line.split()[0] for line in lines)}")
        ledger.write_text("".join(f"{line}\n" for line in lines if line.split()[0] != item))
        return f"Deleted the expense for {item}."

    return biggest_expense, delete_expense


def biggest_cases(name="biggest_expense"):
    offered = ("spending_total", name)
    return [Case("mine_1", "train", "choose", "What was my biggest expense?", offered,
                 (ExpectedCall(name, {"category": [None]}),)),
            Case("mine_2", "train", "choose", "My biggest food expense?", offered, (ExpectedCall(name, {"category": ["food"]}),)),
            Case("mine_3", "heldout", "no_tool", "Which bank has the lowest fees?", offered, ())]


def run(check, answers):
    return asyncio.run(check({"registry": REGISTRY, **answers}))


def test_any_working_tool_passes(tmp_path, capsys):
    biggest, delete = tools_for(tmp_path)
    assert run(check_exercise_13_1, {"my_tool": biggest, "my_tool_arguments": {"category": "food"}})
    assert run(check_exercise_13_1, {"my_tool": delete, "my_tool_arguments": {"item": "lunch"}})
    assert (tmp_path / "ledger.txt").read_text() == "train 30.00\n"  # the call really ran
    assert capsys.readouterr().out.count("[pass]") == 2


def broken(description="The biggest expense recorded so far.", parameters=None, handler=None):
    async def crash(arguments):
        return {}["no such key"]

    return ToolDefinition("biggest", description, parameters or {"type": "object", "properties": {}},
                          handler or crash)


@pytest.mark.parametrize(("answers", "hint"), [
    ({}, "[todo]"),
    ({"my_tool": lambda: "42", "my_tool_arguments": {}}, "not a tool: decorate"),
    ({"my_tool": spending_total, "my_tool_arguments": {}}, "like one of the agent's tools"),
    ({"my_tool": broken(), "my_tool_arguments": {}}, "hit a bug in the tool: KeyError"),
    ({"my_tool": broken(description="Biggest."), "my_tool_arguments": {}}, "say in a sentence what it does"),
    ({"my_tool": broken(parameters={"type": "object", "properties": {"n": {"type": "integer"}}}), "my_tool_arguments": {}},
     "parameter 'n' has no description"),
])
def test_exercise_13_1_says_what_is_wrong(answers, hint, capsys):
    assert not run(check_exercise_13_1, answers)
    assert hint in capsys.readouterr().out


def test_a_call_that_fails_or_a_tool_that_takes_anything_fails(tmp_path, capsys):
    _, delete = tools_for(tmp_path)
    assert not run(check_exercise_13_1, {"my_tool": delete, "my_tool_arguments": {"item": "cinema"}})
    assert "should be a call that works" in capsys.readouterr().out

    async def anything(arguments):
        return "ok"

    loose = ToolDefinition("count", "Count the expenses of one item.",
                           {"type": "object", "properties": {"item": {"type": "string", "description": "An item."}},
                            "required": ["item"]}, anything)
    assert run(check_exercise_13_1, {"my_tool": loose, "my_tool_arguments": {"item": "x"}})
    loose_schema = replace(loose, parameters={"type": "object", "properties": {"item": {"description": "An item."}},
                                              "required": []})
    assert run(check_exercise_13_1, {"my_tool": loose_schema, "my_tool_arguments": {"item": "x"}})  # nothing to make wrong


def test_sound_cases_pass(tmp_path, capsys):
    biggest, _ = tools_for(tmp_path)
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
def test_exercise_13_2_says_what_is_wrong(tmp_path, cases, hint, capsys):
    biggest, _ = tools_for(tmp_path)
    notebook_cases = [Case("total_1", "train", "choose", "Total?", ("spending_total",),
                           (ExpectedCall("spending_total", {"month": [None]}),))]
    assert not run(check_exercise_13_2, {"my_tool": biggest, "my_cases": cases, "cases": notebook_cases})
    assert hint in capsys.readouterr().out
