"""Tools: the contract, the registry and dispatcher, and the tools the course builds.

Names are imported from their module on first use (`agentkit/exports.py` says why).
"""

from agentkit.exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    "agentkit.tools.contract": ["Handler", "ToolDefinition", "ToolError"],
    "agentkit.tools.schema": ["ToolDefinitionError", "tool"],
    "agentkit.tools.registry": ["DuplicateToolError", "build_registry", "openai_tools"],
    "agentkit.tools.dispatcher": ["ToolResult", "execute_tool", "parse_arguments", "tool_message"],
    "agentkit.tools.clock": ["clock_tool", "get_current_time"],
    "agentkit.tools.workspace": ["Workspace"],
    "agentkit.tools.path_text": ["WorkspaceError"],
    "agentkit.tools.filesystem": ["file_tools"],
    "agentkit.tools.shell": ["shell_tool"],
    "agentkit.tools.ask_user": ["Ask", "TaskCancelled", "ask_user_tool"],
})
