"""Chapter 14's check passes a read-only helper and says what is wrong with one that can write."""

import asyncio

from agentkit.beyond.subagents import Subagent, subagent_tool
from agentkit.checks.ch14 import check_exercise_14_1
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry


def read_only_helper(client, model, workspace):
    readers = build_registry([t for t in file_tools(workspace) if t.name in {"read_file", "glob"}])
    return subagent_tool("research", "Hand a question about the files to a helper.",
                         Subagent(client, model, readers, "You are a helper."))


def writing_helper(client, model, workspace):
    return subagent_tool("research", "Hand a task on the files to a helper.",
                         Subagent(client, model, build_registry(file_tools(workspace)), "You are a helper.",
                                  ask=lambda question: asyncio.sleep(0, "y")))


def test_a_read_only_helper_passes(capsys):
    assert asyncio.run(check_exercise_14_1({"read_only_helper": read_only_helper}))
    assert "[pass]" in capsys.readouterr().out


def test_a_helper_that_can_write_fails_and_says_why(capsys):
    assert not asyncio.run(check_exercise_14_1({"read_only_helper": writing_helper}))
    assert "give it only read_file and glob" in capsys.readouterr().out
