"""Checks for chapter 14's exercise: a subagent that can read the files and nothing more. Each takes `globals()`."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentkit.checks import answer, expect, run_check
from agentkit.errors import ToolError
from agentkit.offline import offline_client
from agentkit.tools import ToolDefinition, Workspace


async def check_exercise_14_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 14.1: `read_only_helper(client, model, workspace)` is a `research` tool whose subagent only reads."""

    async def test() -> None:
        read_only_helper = answer(namespace, "read_only_helper")
        with tempfile.TemporaryDirectory(prefix="check-14-") as folder:
            (Path(folder) / "todo.txt").write_text("- book the venue\n")
            helper = read_only_helper(offline_client(), "offline", Workspace(folder))
            expect(isinstance(helper, ToolDefinition), "read_only_helper should return the tool subagent_tool makes.")
            expect(helper.name == "research", f"the tool is named {helper.name!r}; name it 'research'.")
            read = await helper.handler({"task": "Read the file todo.txt"})
            expect("book the venue" in read, f"asked to read todo.txt, the helper answered {read!r}; give its "
                                             "subagent read_file.")
            try:
                await helper.handler({"task": 'Write "hello" to the file new.txt'})
            except ToolError:
                pass  # a subagent that stops is fine here: what matters is that nothing was written
            expect(not (Path(folder) / "new.txt").exists(), "asked to write new.txt, the subagent wrote it; give it "
                                                            "only read_file and glob.")

    return await run_check("Exercise 14.1: a read-only research helper", test)
