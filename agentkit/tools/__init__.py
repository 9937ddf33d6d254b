"""Tools: the contract, the registry and dispatcher, and the tools the course builds."""

from agentkit.tools.clock import clock_tool, get_current_time
from agentkit.tools.contract import Handler, ToolDefinition, ToolError
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import (
    DuplicateToolError,
    ToolResult,
    build_registry,
    execute_tool,
    openai_tools,
    parse_arguments,
    tool_message,
)
from agentkit.tools.schema import ToolDefinitionError, tool
from agentkit.tools.shell import shell_tool
from agentkit.tools.workspace import Workspace, WorkspaceError

__all__ = [
    "DuplicateToolError", "Handler", "ToolDefinition", "ToolDefinitionError", "ToolError", "ToolResult",
    "Workspace", "WorkspaceError", "build_registry", "clock_tool", "execute_tool", "file_tools",
    "get_current_time", "openai_tools", "parse_arguments", "shell_tool", "tool", "tool_message",
]
