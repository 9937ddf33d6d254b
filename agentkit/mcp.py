"""Tools over MCP (chapter 11), with the official `mcp` SDK: serve a registry, and import a server's tools.

- `mcp_server(registry, policy)`: an MCP server whose `tools/call` goes through the same `ToolExecutor` as the
  agent loop, so the workspace guard, the allowlist and the confirmations stay in force. A confirmation is
  asked of the MCP client's person as an elicitation; a client that cannot elicit gets an `Error:` result
  that says how to allow the tool. `agentkit mcp` serves the course's tools this way over stdio.
- `import_tools(client, allow=...)`: a server's tools as `ToolDefinition`s (schema from the server, handler
  that calls it), so the dispatcher, the policy and the loop work unchanged on them. A server is untrusted:
  only tools named in `allow` come in, each needs a person's yes, and descriptions are capped in length.

Needs the `mcp` extra: `pip install -e '.[mcp]'`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import get_default_environment, stdio_client
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from agentkit.policy import ToolExecutor, ToolPolicy
from agentkit.tools.clock import clock_tool
from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry
from agentkit.tools.shell import shell_tool
from agentkit.tools.workspace import Workspace

MAX_DESCRIPTION_CHARS = 300
"""Longest description of an imported tool the model sees; a longer one is cut, and the person is shown that."""

YES_SCHEMA = {"type": "object", "properties": {"allow": {"type": "boolean", "title": "Allow this call?"}},
              "required": ["allow"]}
"""What an elicitation asks the MCP client's person: one yes/no."""


CONFIRM_KEY = "confirm"
"""The key of the one input request a call that needs a yes sends (2026-07-28 protocol)."""


class NeedsAnswer(Exception):
    """Raised inside a call to stop it until the client brings its person's answer (2026-07-28 protocol)."""


class CannotAsk(ToolError):
    """The MCP client offers no way to ask its person (no elicitation): a call that needs a yes is refused."""


def mcp_server(registry: Mapping[str, ToolDefinition], policy: ToolPolicy | None = None,
               name: str = "agentkit") -> Server:
    """An MCP server for `registry`: `tools/list` offers the tools `policy` allows, `tools/call` runs them under it."""
    policy = policy or ToolPolicy()

    async def list_tools(ctx, params) -> types.ListToolsResult:
        allowed = ToolExecutor(registry, policy).allowed
        return types.ListToolsResult(tools=[
            types.Tool(name=tool.name, description=tool.description, input_schema=tool.parameters)
            for tool in allowed.values()])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult | types.InputRequiredResult:
        answered = (params.input_responses or {}).get(CONFIRM_KEY)

        async def ask(question: str) -> str:
            if answered is not None:  # the client's second try, carrying its person's answer (2026-07-28)
                return _yes_or_no(answered)
            elicitation = (ctx.session.client_capabilities or types.ClientCapabilities()).elicitation
            if elicitation is None:
                raise CannotAsk(f"'{params.name}' needs a person's yes, and this MCP client cannot ask for one (it "
                                "offers no elicitation). To let it run without asking, start the server with "
                                f"`agentkit mcp --no-confirm {params.name}`")
            if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
                raise NeedsAnswer(question)  # answered by returning InputRequiredResult; the client calls again
            return _yes_or_no(await ctx.session.elicit_form(question, YES_SCHEMA, ctx.request_id))

        # One executor a call: the server's policy (allowlist, confirmations, output cap) decides each call alone.
        executor = ToolExecutor(registry, policy, ask=ask)
        try:
            result = await executor.run(str(ctx.request_id), params.name, json.dumps(params.arguments or {}))
        except CannotAsk as error:
            return _text_result(f"Error: refused by rule 'confirmation': {error}", is_error=True)
        except NeedsAnswer as question:
            request = types.ElicitRequest(params=types.ElicitRequestFormParams(message=str(question),
                                                                               requested_schema=YES_SCHEMA))
            return types.InputRequiredResult(input_requests={CONFIRM_KEY: request})
        return _text_result(result.content, result.is_error)

    return Server(name, on_list_tools=list_tools, on_call_tool=call_tool)


def course_server(workspace: Workspace, no_confirm: Iterable[str] = ()) -> Server:
    """The course's clock, file and shell tools in `workspace`, served with their confirmations, less `no_confirm`."""
    registry = build_registry([clock_tool(), *file_tools(workspace), shell_tool(workspace)])
    no_confirm = set(no_confirm)
    unknown = no_confirm - set(registry)
    if unknown:
        raise ValueError(f"--no-confirm names {', '.join(sorted(unknown))}, which is not a served tool; "
                         f"served tools: {', '.join(registry)}")
    confirm = {name for name, tool in registry.items() if tool.needs_confirmation} - no_confirm
    return mcp_server(registry, ToolPolicy(confirm=confirm))


def _yes_or_no(answer: types.ElicitResult) -> str:
    """The person's elicitation answer as the policy reads answers: "y" only for an accepted `allow: true`."""
    return "y" if answer.action == "accept" and (answer.content or {}).get("allow") is True else "n"


def _text_result(text: str, is_error: bool) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=is_error)


async def serve_stdio(server: Server) -> None:
    """Serve `server` on this process's stdin and stdout until the client closes them."""
    async with stdio_server() as (read, write):
        messages, relayed = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def relay() -> None:
            # The SDK drops a line it cannot read without a word; JSON-RPC says the sender gets an error.
            async with messages:
                async for item in read:
                    if isinstance(item, Exception):
                        await write.send(SessionMessage(protocol_error(item)))
                    else:
                        await messages.send(item)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(relay)
            await server.run(relayed, write, server.create_initialization_options())


def protocol_error(error: Exception) -> types.JSONRPCError:
    """The JSON-RPC error for a line that is not a message: -32700 for text that is not JSON, else -32600."""
    not_json = isinstance(error, ValidationError) and any(e["type"] == "json_invalid" for e in error.errors())
    code, what = (types.PARSE_ERROR, "Parse error: the line is not JSON") if not_json else \
        (types.INVALID_REQUEST, "Invalid Request: the line is JSON but not a JSON-RPC 2.0 message")
    detail = "one JSON-RPC 2.0 object per line, such as {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}"
    return types.JSONRPCError(jsonrpc="2.0", id=None, error=types.ErrorData(code=code, message=f"{what}; send {detail}"))


def subprocess_transport(command: StdioServerParameters):
    """The transport to an MCP server run as a subprocess: `Client(subprocess_transport(...))` connects to it.

    The server's stderr (its log, a crash's traceback) goes to this process's real stderr: a notebook's
    `sys.stderr` is no file, and a subprocess cannot write to it.
    """
    errlog = sys.stderr if _is_file(sys.stderr) else sys.__stderr__
    return stdio_client(command, errlog=errlog)


def _is_file(stream) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both OSError and ValueError
        return False
    return True


def agentkit_server_command(*args: str) -> StdioServerParameters:
    """`agentkit mcp ARGS` with this Python, so it runs in the same environment as the caller.

    The SDK passes a server only a few safe variables (PATH, HOME, ...), never your keys; PYTHONPATH is added,
    so that the server imports the same `agentkit` as this process.
    """
    package_root = str(Path(__file__).resolve().parent.parent)
    env = get_default_environment() | {"PYTHONPATH": package_root}
    return StdioServerParameters(command=sys.executable, args=["-m", "agentkit.cli", "mcp", *args], env=env)


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
    allow = set(allow)
    if isinstance(allow, str):
        raise TypeError("import_tools(allow=...) takes tool names, not one string")
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
