"""Tools over MCP (chapter 11), with the official `mcp` SDK: serve a registry, and import a server's tools.

- `mcp_server(registry, policy)`: an MCP server whose `tools/call` goes through the same `ToolExecutor` as the
  agent loop, so the workspace guard, the allowlist and the confirmations stay in force. A confirmation is
  asked of the MCP client's person as an elicitation; a client that cannot elicit gets an `Error:` result
  that says how to allow the tool. `agentkit mcp` serves the course's tools this way over stdio
  (`agentkit.frontends.mcp_stdio`).
- `import_tools(client, allow=...)`, from `agentkit.mcp.client`: a server's tools as `ToolDefinition`s, so
  the dispatcher, the policy and the loop work unchanged on them; only the tools named in `allow` come in.

Needs the `mcp` extra: `pip install -e '.[mcp]'`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from importlib.metadata import version

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

# The client side, read from here as well (chapter 11's `promoted.import_tools`, the tests).
from agentkit.asking import Question
from agentkit.calls import ToolCall
from agentkit.decisions import Refuse
from agentkit.errors import ToolError
from agentkit.mcp.client import Imported, agentkit_server_command, import_tools, subprocess_transport
from agentkit.policy import ToolExecutor, ToolPolicy
from agentkit.tools.clock import clock_tool
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry
from agentkit.tools.shell import shell_tool
from agentkit.tools.workspace import Workspace

__all__ = ["Imported", "agentkit_server_command", "course_server", "import_tools", "mcp_server", "subprocess_transport"]

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

        async def ask(question: Question) -> str:
            if answered is not None:  # the client's second try, carrying its person's answer (2026-07-28)
                return _yes_or_no(answered)
            elicitation = (ctx.session.client_capabilities or types.ClientCapabilities()).elicitation
            if elicitation is None:
                raise CannotAsk(f"'{params.name}' needs a person's yes, and this MCP client cannot ask for one (it "
                                "offers no elicitation). To let it run without asking, start the server with "
                                f"`agentkit mcp --no-confirm {params.name}`")
            if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
                raise NeedsAnswer(str(question))  # answered by returning InputRequiredResult; the client calls again
            return _yes_or_no(await ctx.session.elicit_form(str(question), YES_SCHEMA, ctx.request_id))

        # One executor a call: the server's policy (allowlist, confirmations, output cap) decides each call alone.
        executor = ToolExecutor(registry, policy, ask=ask)
        call = ToolCall.parse(str(ctx.request_id), params.name, params.arguments or {})
        try:
            result = await executor.run(call)
        except CannotAsk as error:
            refused = Refuse(call, "confirmation", str(error)).result()
            return _text_result(refused.content, refused.is_error)
        except NeedsAnswer as question:
            request = types.ElicitRequest(params=types.ElicitRequestFormParams(message=str(question),
                                                                               requested_schema=YES_SCHEMA))
            return types.InputRequiredResult(input_requests={CONFIRM_KEY: request})
        return _text_result(result.content, result.is_error)

    return Server(name, version=version("agentkit"), on_list_tools=list_tools, on_call_tool=call_tool)


def course_tools(workspace: Workspace) -> dict[str, ToolDefinition]:
    """What `agentkit mcp` serves unless given `--tools`: the clock, the file tools and the shell in `workspace`."""
    return build_registry([clock_tool(), *file_tools(workspace), shell_tool(workspace)])


def course_server(workspace: Workspace, no_confirm: Iterable[str] = (),
                  tools: Callable[[Workspace], Mapping[str, ToolDefinition]] | None = None,
                  policy: ToolPolicy | None = None) -> Server:
    """The course's clock, file and shell tools in `workspace` (or `tools(workspace)`, your registry: `--tools`),
    served with their confirmations (or `policy`'s, with its allowlist and limits: `--policy`), less `no_confirm`."""
    registry = tools(workspace) if tools else course_tools(workspace)
    policy = policy or ToolPolicy()
    ToolExecutor(registry, policy)  # a policy naming a tool that is not served: a ValueError now, not at a call
    no_confirm = set(no_confirm)
    unknown = no_confirm - set(registry)
    if unknown:
        raise ValueError(f"--no-confirm names {', '.join(sorted(unknown))}, which is not a served tool; "
                         f"served tools: {', '.join(registry)}")
    confirm = policy.confirm if policy.confirm is not None else {n for n, t in registry.items() if t.needs_confirmation}
    return mcp_server(registry, replace(policy, confirm=confirm - no_confirm))


def _yes_or_no(answer: types.ElicitResult) -> str:
    """The person's elicitation answer as the policy reads answers: "y" only for an accepted `allow: true`."""
    return "y" if answer.action == "accept" and (answer.content or {}).get("allow") is True else "n"


def _text_result(text: str, is_error: bool) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=is_error)
