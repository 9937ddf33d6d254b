"""A plan kept through a tool (chapter 14): the plan tools restate it, and the reminder follows other results."""

import asyncio

from agentkit.beyond.plans import Plan, Step, plan_tools, with_reminder
from agentkit.calls import ToolCall
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry
from agentkit.tools.schema import tool


@tool
def echo(text: str) -> str:
    """Say text back.

    Args:
        text: What to say.
    """
    return text


def run(registry, name, **arguments):
    import json

    return asyncio.run(execute_tool(registry, ToolCall.parse("c1", name, json.dumps(arguments))))


def test_writing_and_marking_the_plan_restate_it_whole():
    plan = Plan()
    registry = build_registry(plan_tools(plan))
    written = run(registry, "write_plan", steps=["read a", "read b"])
    assert written.content == "Plan:\n1. [pending] read a\n2. [pending] read b"
    marked = run(registry, "mark_step", step=2, status="done")
    assert marked.content == "Plan:\n1. [pending] read a\n2. [done] read b"
    assert plan.steps == [Step("read a"), Step("read b", "done")]


def test_a_step_that_does_not_exist_is_an_error_the_model_can_fix():
    plan = Plan([Step("only")])
    result = run(build_registry(plan_tools(plan)), "mark_step", step=3, status="done")
    assert result.is_error and result.content.startswith("Error: there is no step 3; the plan has steps 1-1")


def test_a_status_outside_the_three_is_refused():
    result = run(build_registry(plan_tools(Plan([Step("only")]))), "mark_step", step=1, status="finished")
    assert result.is_error


def test_the_reminder_follows_other_results_while_steps_are_open():
    plan = Plan([Step("read a", "done"), Step("read b")])
    registry = with_reminder(build_registry([echo, *plan_tools(plan)]), plan)
    assert run(registry, "echo", text="hi").content == ("hi\n\n[plan] open steps: 2. [pending] read b. "
                                                        "Mark each with mark_step when it is done.")
    assert "[plan]" not in run(registry, "mark_step", step=2, status="done").content
    assert run(registry, "echo", text="hi").content == "hi", "no open step, no reminder"


def test_an_empty_plan_says_so():
    assert Plan().render() == "The plan is empty."
