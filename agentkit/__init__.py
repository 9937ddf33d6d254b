"""agentkit: the code of "Tool Use, from zero", one module a chapter.

    from agentkit import connect, load_settings, build_registry, clock_tool, run_task
"""

from agentkit.config import ConfigError, Settings, check_connection, connect, load_settings
from agentkit.limits import DEFAULT_LIMITS, Limits
from agentkit.loop import Event, Task, Usage, run_task
from agentkit.manual import FunctionCall, FunctionCallError, build_system_prompt, manual_round_trip, parse_reply
from agentkit.policy import (
    Ask,
    Decision,
    TaskCancelled,
    ToolExecutor,
    ToolPolicy,
    ask_user_tool,
    scripted_answers,
    terminal_ask,
)
from agentkit.tools import (
    DuplicateToolError,
    ToolDefinition,
    ToolDefinitionError,
    ToolError,
    ToolResult,
    Workspace,
    WorkspaceError,
    build_registry,
    clock_tool,
    execute_tool,
    file_tools,
    get_current_time,
    openai_tools,
    shell_tool,
    tool,
    tool_message,
)

__all__ = [
    # 00 the model connection
    "ConfigError", "Settings", "check_connection", "connect", "load_settings",
    # 01 the manual protocol
    "FunctionCall", "FunctionCallError", "build_system_prompt", "manual_round_trip", "parse_reply",
    # 01-06 tools, registry, dispatcher
    "DuplicateToolError", "ToolDefinition", "ToolDefinitionError", "ToolError", "ToolResult", "Workspace",
    "WorkspaceError", "build_registry", "clock_tool", "execute_tool", "file_tools", "get_current_time",
    "openai_tools", "shell_tool", "tool", "tool_message",
    # 07 policy
    "Ask", "Decision", "TaskCancelled", "ToolExecutor", "ToolPolicy", "ask_user_tool", "scripted_answers",
    "terminal_ask",
    # 08 the loop, and limits everywhere
    "DEFAULT_LIMITS", "Event", "Limits", "Task", "Usage", "run_task",
]
