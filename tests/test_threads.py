"""Blocking tools share a pool sized for waiting: sixteen blocked calls all run at once, not six at a time."""

import asyncio
import json
import subprocess
import sys
import threading

from agentkit.calls import ToolCall
from agentkit.hardening.threads import TOOL_THREADS
from agentkit.limits import Limits
from agentkit.tools import file_reading, filesystem
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry
from agentkit.tools.schema import tool
from agentkit.tools.shell import shell_tool
from agentkit.tools.workspace import Workspace

CALLS = 16
"""More than the default pool has on a small machine (cores + 4), fewer than TOOL_THREADS."""


async def _all_at_once(definition: ToolDefinition, arguments: list[str]) -> list[str]:
    registry = build_registry([definition])
    results = await asyncio.gather(*(execute_tool(registry, ToolCall.parse("", definition.name, raw)) for raw in arguments))
    return [result.content for result in results]


def test_sixteen_blocked_plain_def_tools_all_run_at_once():
    together = threading.Barrier(CALLS, timeout=10)  # passes only once all sixteen are blocked in it at the same time

    @tool
    def wait_for_the_others(n: int) -> str:
        """Wait until every call has started.

        Args:
            n: Call number.
        """
        together.wait()
        return f"{n} done"

    contents = asyncio.run(_all_at_once(wait_for_the_others, [f'{{"n": {i}}}' for i in range(CALLS)]))
    assert contents == [f"{i} done" for i in range(CALLS)]
    assert CALLS < TOOL_THREADS


def test_sixteen_shell_commands_wait_for_each_other_without_timing_out(tmp_path):
    # Each command leaves a mark, then waits until all sixteen marks exist: only possible if all run at once.
    command = 'touch "mark-$N"; while [ "$(ls | wc -l)" -lt 16 ]; do sleep 0.02; done; echo ready'
    bash = shell_tool(Workspace(tmp_path), Limits(shell_timeout=10.0))
    arguments = [json.dumps({"command": command.replace("$N", str(i))}) for i in range(CALLS)]
    contents = asyncio.run(_all_at_once(bash, arguments))
    assert all("ready" in content and "timed out" not in content for content in contents), contents[0]


def test_file_tools_run_on_the_tools_pool(tmp_path, monkeypatch):
    seen = []

    def read_file(workspace, path, offset, limit, *, limits):  # stands in for the real one, to see which thread runs it
        seen.append(threading.current_thread().name)
        return "read"

    monkeypatch.setattr(file_reading, "read_file", read_file)
    [definition] = [d for d in filesystem.file_tools(Workspace(tmp_path)) if d.name == "read_file"]
    assert asyncio.run(_all_at_once(definition, ['{"path": "a.txt"}'])) == ["read"]
    assert seen[0].startswith("agentkit-tool")


def test_no_pool_is_made_at_import():
    code = ("import agentkit.tools.schema, agentkit.tools.shell, agentkit.tools.filesystem, agentkit.hardening.threads as t, "
            "threading; assert t._pool is None and threading.active_count() == 1")
    subprocess.run([sys.executable, "-c", code], check=True)
