"""Checks for chapter 11's exercises: a tool as MCP lists it, and an MCP result under the error contract.

Each takes `globals()`. They need the `mcp` extra, as the chapter does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentkit.checks import CheckFailed, answer, expect, run_check
from agentkit.tools import ToolError, build_registry, clock_tool
from agentkit.tools.contract import ToolDefinition


async def check_exercise_11_1(namespace: Mapping[str, Any]) -> bool:
    """`to_mcp_tool(definition)`: the dict a `tools/list` answer holds for one tool, as on the wire. Await it."""

    async def test() -> None:
        to_mcp_tool = answer(namespace, "to_mcp_tool")
        from mcp import Client

        from agentkit.mcp.server import mcp_server

        async with Client(mcp_server(build_registry([clock_tool()]))) as client:
            wire = [tool.model_dump(by_alias=True, exclude_none=True) for tool in (await client.list_tools()).tools]
        clock = clock_tool()
        mine = to_mcp_tool(clock)
        expect(isinstance(mine, dict), f"to_mcp_tool should return a dict, got {type(mine).__name__}.")
        expect(set(mine) == {"name", "description", "inputSchema"},
               f"the keys should be name, description and inputSchema (camelCase, as on the wire); got {sorted(mine)}.")
        expect(mine["inputSchema"] is clock.parameters or mine["inputSchema"] == clock.parameters,
               "inputSchema is the tool's parameters, unchanged: the same JSON Schema the dispatcher validates against.")
        expect({k: wire[0].get(k) for k in mine} == mine, "the SDK's server lists the clock differently; compare with "
                                                          "what `client.list_tools()` printed above.")
        other = ToolDefinition("x", "d", {"type": "object"}, clock.handler)
        expect(to_mcp_tool(other) == {"name": "x", "description": "d", "inputSchema": {"type": "object"}},
               "to_mcp_tool should work for any ToolDefinition, not only the clock.")

    return await run_check("Exercise 11.1: a ToolDefinition as MCP lists it", test)


async def check_exercise_11_2(namespace: Mapping[str, Any]) -> bool:
    """`result_text(result)`: an MCP CallToolResult as a handler's str, or a ToolError when the server says isError."""

    async def test() -> None:
        import mcp_types as types

        result_text = answer(namespace, "result_text")

        def made(*texts: str, error: bool = False) -> types.CallToolResult:
            return types.CallToolResult(content=[types.TextContent(type="text", text=t) for t in texts], is_error=error)

        expect(result_text(made("10:00")) == "10:00", "a successful result with one text part is that text.")
        expect(result_text(made("a", "b")) == "a\nb", "several text parts are joined with newlines, in order.")
        try:
            result_text(made("Error: no such file", error=True))
        except ToolError as error:
            expect("no such file" in str(error), "the ToolError should carry the server's message.")
            expect(not str(error).startswith("Error:"), "leave out the server's 'Error: ' prefix: the dispatcher adds "
                                                        "its own, and the model should not read it twice.")
        else:
            raise CheckFailed("a result with is_error=True should raise ToolError, so the dispatcher reports it as "
                                 "an Error: result, as for a local tool.")

    return await run_check("Exercise 11.2: an MCP result under the dispatcher's error contract", test)

