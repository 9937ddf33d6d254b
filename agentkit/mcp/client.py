"""An MCP server's tools in our registry (chapter 11): reach a server run as a subprocess, import the tools it offers.

`import_tools(client, allow=...)` turns a server's tools into `ToolDefinition`s (schema from the server,
handler that calls it), so the dispatcher, the policy and the loop work unchanged on them. A server is
untrusted: only tools named in `allow` come in, each needs a person's yes, and descriptions are capped
in length. `agentkit.mcp.server` is the other direction: serving our tools.

Needs the `mcp` extra: `pip install -e '.[mcp]'`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import mcp_types as types
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import get_default_environment, stdio_client

from agentkit.errors import ToolError
from agentkit.tools.contract import ToolDefinition

MAX_DESCRIPTION_CHARS = 300
"""Longest description of an imported tool the model sees; a longer one is cut, and the person is shown that."""


def subprocess_transport(command: StdioServerParameters):
    """The transport to an MCP server run as a subprocess: `Client(subprocess_transport(...))` connects to it.

    The server's stderr (its log, a crash's traceback) goes to this process's real stderr: a notebook's
    `sys.stderr` is no file, and a subprocess cannot write to it.
    """
    errlog = sys.stderr if _is_file(sys.stderr) else sys.__stderr__
    return stdio_client(command, errlog=errlog)


def _is_file(stream) -> bool:
    try:
        return stream.fileno() is not None
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both OSError and ValueError
        return False


def agentkit_server_command(*args: str) -> StdioServerParameters:
    """`agentkit mcp ARGS` with this Python, so it runs in the same environment as the caller.

    The SDK passes a server only a few safe variables (PATH, HOME, ...), never your keys; PYTHONPATH is added,
    so that the server imports the same `agentkit` as this process.
    """
    package_root = str(Path(__file__).resolve().parents[2])  # the folder that holds agentkit/
    env = get_default_environment() | {"PYTHONPATH": package_root}
    return StdioServerParameters(command=sys.executable, args=["-m", "agentkit.frontends.cli", "mcp", *args], env=env)


@dataclass(frozen=True)
class Imported:
    """One tool a server offered, and what became of it: what the person reviews before the model sees anything."""

    name: str
    """The tool's name on the server."""
    description: str
    """Its description as the model will see it, cut to `MAX_DESCRIPTION_CHARS`."""
    imported: bool
    """True if it is in the allowlist, and so in the registry."""
    note: str = ""
    """Why it was left out, or that its description was cut."""

    def __str__(self) -> str:
        mark = "imported" if self.imported else "skipped "
        return f"{mark} {self.name:<16} {self.note}\n         {self.description!r}"


async def import_tools(client: Client, allow: Iterable[str], *, confirm: bool = True,
                       max_description: int = MAX_DESCRIPTION_CHARS) -> tuple[list[ToolDefinition], list[Imported]]:
    """The server's tools named in `allow`, as `ToolDefinition`s whose handler calls the server; and the review.

    Each imported tool needs a person's yes (`confirm=True`) unless the caller decides otherwise, whatever the
    server says about it: the server's own annotations (read-only, harmless) are claims, not guarantees.
    """
    if isinstance(allow, str):
        raise TypeError("import_tools(allow=...) takes tool names, not one string")
    allow = set(allow)
    listed = (await client.list_tools()).tools
    definitions, review = [], []
    for tool in listed:
        description = tool.description or ""
        cut = len(description) > max_description
        shown = description[:max_description] + ("…" if cut else "")
        note = f"(description cut from {len(description)} to {max_description} characters)" if cut else ""
        if tool.name not in allow:
            review.append(Imported(tool.name, shown, False, "not in the allowlist"))
            continue
        review.append(Imported(tool.name, shown, True, note))
        definitions.append(ToolDefinition(tool.name, shown, dict(tool.input_schema), _remote_handler(client, tool.name),
                                          needs_confirmation=confirm))
    unknown = allow - {tool.name for tool in listed}
    if unknown:
        raise ValueError(f"import_tools(allow=...) names {', '.join(sorted(unknown))}, which the server does not "
                         f"offer; it offers: {', '.join(tool.name for tool in listed) or '(none)'}")
    return definitions, review


def _remote_handler(client: Client, name: str):
    async def handler(arguments: dict) -> str:
        try:
            result = await client.call_tool(name, arguments)
        except MCPError as error:  # the server refused the request itself (unknown tool, bad params)
            raise ToolError(f"the MCP server refused the call: {error.error.message}") from None
        text = "\n".join(part.text if isinstance(part, types.TextContent) else f"[{part.type} content]"
                         for part in result.content)
        if result.is_error:
            raise ToolError(text.removeprefix("Error: "))
        return text

    return handler
