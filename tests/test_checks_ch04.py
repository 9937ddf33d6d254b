"""Chapter 04's checks pass the right answers and say what is wrong with wrong ones."""

import asyncio
import logging
from typing import Annotated, Literal

import pytest
from pydantic import Field

from agentkit.checks.ch04 import check_exercise_4_1, check_exercise_4_2
from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.schema import tool


async def set_volume(arguments: dict) -> str:
    return f"volume {arguments['level']} on {arguments['mode']}"


def volume_tool(level_schema: dict) -> ToolDefinition:
    return ToolDefinition("set_volume", "Set the volume.", {
        "type": "object",
        "properties": {"level": level_schema, "mode": {"type": "string", "enum": ["speaker", "headphones"]}},
        "required": ["level", "mode"],
        "additionalProperties": False,
    }, set_volume)


def initials_tool(fixed: bool, guarded: bool):
    @tool
    def initials(name: str) -> str:
        """Initials of a name.

        Args:
            name: The full name.
        """
        parts = name.split() if fixed else name.split(" ")
        if guarded and not parts:
            raise ToolError('name has no words; give a full name such as "Ada Lovelace"')
        return ".".join(part[0].upper() for part in parts) + "."

    return initials


@pytest.fixture(autouse=True)
def quiet_bug_log():
    """The wrong answers crash on purpose; their tracebacks would only clutter the test output."""
    logging.getLogger("agentkit.tools").disabled = True
    yield
    logging.getLogger("agentkit.tools").disabled = False


def test_volume_right_answer(capsys):
    assert asyncio.run(check_exercise_4_1({"volume_tool": volume_tool(
        {"type": "integer", "minimum": 0, "maximum": 10})})) is True
    assert capsys.readouterr().out == "[pass] Exercise 4.1: a schema the dispatcher enforces\n"


def test_volume_with_tool_decorator_also_passes(capsys):
    @tool
    def set_volume(level: Annotated[int, Field(ge=0, le=10)], mode: Literal["speaker", "headphones"]) -> str:
        """Set the volume.

        Args:
            level: From 0 (silent) to 10.
            mode: Where the sound goes.
        """
        return f"volume {level} on {mode}"

    assert asyncio.run(check_exercise_4_1({"volume_tool": set_volume})) is True


def test_volume_without_bounds(capsys):
    assert asyncio.run(check_exercise_4_1({"volume_tool": volume_tool({"type": "integer"})})) is False
    assert capsys.readouterr().out == (
        "[fail] Exercise 4.1: a schema the dispatcher enforces: a level above 10 ({\"level\": 11, \"mode\": "
        "\"speaker\"}) got through to the handler, which returned 'volume 11 on speaker'; the schema should refuse "
        "it before the handler runs.\n"
    )


def test_volume_accepting_numbers(capsys):
    assert asyncio.run(check_exercise_4_1({"volume_tool": volume_tool(
        {"type": "number", "minimum": 0, "maximum": 10})})) is False
    assert "a level that is not an integer" in capsys.readouterr().out


def test_volume_not_written(capsys):
    assert asyncio.run(check_exercise_4_1({})) is False
    assert capsys.readouterr().out.startswith("[todo] Exercise 4.1")


def test_initials_right_answer(capsys):
    assert asyncio.run(check_exercise_4_2({"fixed_initials": initials_tool(fixed=True, guarded=True)})) is True
    assert capsys.readouterr().out == "[pass] Exercise 4.2: a bug fixed, a mistake reported\n"


def test_initials_still_buggy(capsys):
    assert asyncio.run(check_exercise_4_2({"fixed_initials": initials_tool(fixed=False, guarded=True)})) is False
    assert capsys.readouterr().out == (
        "[fail] Exercise 4.2: a bug fixed, a mistake reported: for 'Ada  Lovelace' the tool still crashes "
        "(IndexError): split on any whitespace.\n"
    )


def test_initials_without_tool_error(capsys):
    assert asyncio.run(check_exercise_4_2({"fixed_initials": initials_tool(fixed=True, guarded=False)})) is False
    assert "a name with no words returned '.' as a success; raise ToolError." in capsys.readouterr().out
