"""Tools: the contract (03), the registry (03) and the dispatcher (04), and the tools the course builds (01, 05-07)."""

from agentkit.errors import ToolError, WorkspaceError
from agentkit.tools.ask_user import ask_user_tool
from agentkit.tools.clock import clock_tool, get_current_time
from agentkit.tools.contract import Handler, ToolDefinition
from agentkit.tools.dispatcher import ToolResult, check_arguments, execute_tool, tool_message
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import DuplicateToolError, build_registry, openai_tools
from agentkit.tools.schema import ToolDefinitionError, tool
from agentkit.tools.shell import shell_tool
from agentkit.tools.workspace import Workspace

__all__ = ["DuplicateToolError", "Handler", "ToolDefinition", "ToolDefinitionError", "ToolError", "ToolResult",
           "Workspace", "WorkspaceError", "ask_user_tool", "build_registry", "clock_tool", "execute_tool", "file_tools",
           "get_current_time", "openai_tools", "check_arguments", "shell_tool", "tool", "tool_message"]
