"""Chapter 07's checks pass the right answers and say what is wrong with wrong ones."""

import asyncio

import pytest

from agentkit.checks.ch07 import check_exercise_7_1, check_exercise_7_2
from agentkit.limits import Limits
from agentkit.policy import ToolPolicy
from agentkit.tools.clock import clock_tool
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry
from agentkit.tools.shell import shell_tool
from agentkit.tools.workspace import Workspace


@pytest.fixture
def registry(tmp_path):
    workspace = Workspace(tmp_path)
    return build_registry([*file_tools(workspace), shell_tool(workspace), clock_tool()])


def careful(policy, registry, capsys):
    passed = asyncio.run(check_exercise_7_1({"careful": policy, "registry": registry}))
    return passed, capsys.readouterr().out


def summary(policy, capsys):
    passed = asyncio.run(check_exercise_7_2({"summary_policy": policy}))
    return passed, capsys.readouterr().out


def test_careful_right_answer(registry, capsys):
    policy = ToolPolicy(confirm=set(registry), limits=Limits(max_tool_calls_per_task=3))
    assert careful(policy, registry, capsys) == (True, "[pass] Exercise 7.1: a careful policy\n")


def test_careful_leaving_confirm_to_the_flags(registry, capsys):
    passed, out = careful(ToolPolicy(limits=Limits(max_tool_calls_per_task=3)), registry, capsys)
    assert not passed and "confirm=None asks only for the tools flagged needs_confirmation" in out


def test_careful_forgetting_a_tool(registry, capsys):
    policy = ToolPolicy(confirm={"bash", "write_file", "edit_file"}, limits=Limits(max_tool_calls_per_task=3))
    passed, out = careful(policy, registry, capsys)
    assert out == ("[fail] Exercise 7.1: a careful policy: these tools still run without a yes: get_current_time, "
                   "glob, read_file; confirm every tool in registry.\n")


def test_careful_changing_another_limit(registry, capsys):
    policy = ToolPolicy(confirm=set(registry), limits=Limits(max_tool_calls_per_task=3, max_tool_calls_per_turn=3))
    passed, out = careful(policy, registry, capsys)
    assert not passed and "change only max_tool_calls_per_task" in out


def test_careful_not_written(registry, capsys):
    passed, out = asyncio.run(check_exercise_7_1({"registry": registry})), capsys.readouterr().out
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
