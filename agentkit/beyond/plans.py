"""A plan kept through a tool (chapter 14): a to-do list the model writes, marks and reads back in its results.

The model holds no state between turns but the messages; a plan written through a tool is in them, as every result
of `write_plan` and `mark_step` restates it whole. A model may still forget to mark its steps: `with_reminder`
adds the open steps to every other tool's result, so the plan is in front of it on every turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from agentkit.errors import ToolError
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.schema import tool

StepStatus = Literal["pending", "in_progress", "done"]


@dataclass
class Step:
    text: str  # what to do, as the model wrote it
    status: StepStatus = "pending"


@dataclass
class Plan:
    """The steps of one task, in order; the tools below change it, a front end may show it."""

    steps: list[Step] = field(default_factory=list)

    def open_steps(self) -> list[tuple[int, Step]]:
        return [(number, step) for number, step in enumerate(self.steps, 1) if step.status != "done"]

    def render(self) -> str:
        if not self.steps:
            return "The plan is empty."
        lines = [f"{number}. [{step.status}] {step.text}" for number, step in enumerate(self.steps, 1)]
        return "Plan:\n" + "\n".join(lines)


def plan_tools(plan: Plan) -> list[ToolDefinition]:
    """`write_plan` and `mark_step`, both working on `plan`; each result is the whole plan."""

    @tool
    def write_plan(steps: list[str]) -> str:
        """Write the plan of a task with several steps: its steps, in order, each one pending until marked.

        Args:
            steps: The steps in order, each a short phrase.
        """
        plan.steps = [Step(text) for text in steps]
        return plan.render()

    @tool
    def mark_step(step: int, status: StepStatus) -> str:
        """Mark a step of the plan as in progress or done.

        Args:
            step: The step's number, from 1.
            status: The step's new status.
        """
        if not 1 <= step <= len(plan.steps):
            raise ToolError(f"there is no step {step}; the plan has steps 1-{len(plan.steps)}: {plan.render()}")
        plan.steps[step - 1].status = status
        return plan.render()

    return [write_plan, mark_step]


def with_reminder(registry: Mapping[str, ToolDefinition], plan: Plan) -> dict[str, ToolDefinition]:
    """The same tools, each result but the plan tools' followed by the plan's open steps while there are any."""
    planning = {"write_plan", "mark_step"}

    def reminding(definition: ToolDefinition) -> ToolDefinition:
        async def handler(arguments: dict[str, Any]) -> str:
            result = await definition.handler(arguments)
            if not plan.open_steps():
                return result
            steps = "; ".join(f"{number}. [{step.status}] {step.text}" for number, step in plan.open_steps())
            return f"{result}\n\n[plan] open steps: {steps}. Mark each with mark_step when it is done."
        return replace(definition, handler=handler)

    return {name: definition if name in planning else reminding(definition) for name, definition in registry.items()}
