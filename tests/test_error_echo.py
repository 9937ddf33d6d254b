"""An `Error:` result quotes at most a bounded prefix of what the model sent (`agentkit.hardening.echo.ECHO_CHARS`).

A 1 MB path or 1 MB of arguments must come back as its first characters and its length, not as a 1 MB error
that fills the model's context (and the web page, and the transcript). Every tool, every way in.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from agentkit.calls import ToolCall
from agentkit.hardening.echo import ECHO_CHARS, echo, quoted
from agentkit.policy import ToolExecutor, ToolPolicy, scripted_answers
from agentkit.tools.clock import clock_tool
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry
from agentkit.tools.shell import shell_tool
from agentkit.tools.workspace import Workspace

MB = 1_000_000
BIG = "a" * MB
BOUND = 1_000
"""Longest error any case may give: the message's own words plus one quote of ECHO_CHARS, with room to spare."""

CASES = {  # name: (tool, arguments as JSON text or a dict)
    "a 1 MB path": ("read_file", {"path": BIG}),
    "a 1 MB path with a NUL byte": ("read_file", {"path": BIG + "\0"}),
    "a 1 MB path that is not Unicode": ("read_file", {"path": "\udce9" + BIG}),
    "a long path naming a folder": ("read_file", {"path": "a" * 3_000 + "/"}),
    "a long path climbing out": ("read_file", {"path": "../" + "a/" * 1_500}),
    "a long absolute path": ("write_file", {"path": "/" + "b/" * 1_500 + "x", "content": "x"}),
    "a long temporary's name": ("write_file", {"path": "b" * 200 + ".agentkit.write-tmp", "content": "x"}),
    "a long missing file": ("read_file", {"path": "d/" * 1_500 + "x"}),
    "a 1 MB path to edit": ("edit_file", {"path": BIG + "\0", "old_text": "a", "new_text": "b"}),
    "a 1 MB pattern": ("glob", {"pattern": BIG + "\0"}),
    "a long pattern climbing out": ("glob", {"pattern": "c/" * 1_500 + ".."}),
    "a long absolute pattern": ("glob", {"pattern": "/" + "c/" * 1_500}),
    "a 1 MB command with a NUL byte": ("bash", {"command": BIG + "\0"}),
    "a 1 MB time zone": ("get_current_time", {"timezone": BIG}),
    "a 1 MB unexpected key": ("read_file", {"path": "x", BIG: 1}),
    "a 1 MB value of the wrong type": ("read_file", {"path": [BIG]}),
    "a 1 MB string for a number": ("read_file", {"path": "x", "offset": BIG}),
    "1 MB of broken JSON": ("read_file", "{" + BIG),
    "1 MB of JSON that is not an object": ("read_file", json.dumps([BIG])),
    "a 1 MB tool name": (BIG, {}),
}


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> dict:
    workspace = Workspace(tmp_path_factory.mktemp("workspace"))
    (workspace.root / "notes.txt").write_text("hello\n")
    return build_registry([*file_tools(workspace), shell_tool(workspace), clock_tool()])


@pytest.mark.parametrize("name", CASES)
def test_an_error_quotes_a_bounded_prefix_of_the_models_input(registry: dict, name: str) -> None:
    tool, arguments = CASES[name]
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    direct = asyncio.run(execute_tool(registry, ToolCall.parse("", tool, raw)))
    # Through the policy too (as the loop, MCP and the frameworks run calls), every confirmation answered yes.
    executor = ToolExecutor(registry, ToolPolicy(), scripted_answers(*["y"] * 3))
    checked = asyncio.run(executor.run(ToolCall.parse("call_1", tool, raw)))
    for result in (direct, checked):
        assert result.is_error and result.content.startswith("Error: "), result.content[:200]
        assert len(result.content) < BOUND, f"{len(result.content):,} characters: {result.content[:300]!r}"
        assert "a" * (ECHO_CHARS + 1) not in result.content and "/b/b/b/b/b" * 10 not in result.content


def test_a_long_quote_keeps_its_start_and_says_how_long_it_was() -> None:
    assert echo("x" * 61) == "x" * 60 + "… (61 characters)"
    assert quoted("a\0b") == "'a\\x00b'" and quoted("x" * 60) == repr("x" * 60)
    assert quoted("\n" * MB) == repr("\n" * 60 + f"… ({MB} characters)")  # escaped: no line of the error is faked


def test_a_short_path_is_still_quoted_whole(registry: dict, tmp_path: Path) -> None:
    result = asyncio.run(execute_tool(registry, ToolCall.parse("", "read_file", json.dumps({"path": "missing/notes.txt"}))))
    assert result.content == "Error: 'missing/notes.txt' does not exist; use glob to see which files there are"
