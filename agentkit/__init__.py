"""agentkit: the code of "Tool Use, from zero", one module a chapter.

    from agentkit import connect, load_settings, build_registry, clock_tool, run_task

Each name is imported from its module on first use (`agentkit/exports.py` says why).
"""

from agentkit.exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    "agentkit.config": ["ConfigError", "Settings", "check_connection", "connect", "load_settings"],  # 00
    "agentkit.manual": ["FunctionCall", "FunctionCallError", "build_system_prompt", "manual_round_trip",
                        "parse_reply"],  # 01
    "agentkit.tools": ["DuplicateToolError", "ToolDefinition", "ToolDefinitionError", "ToolError", "ToolResult",
                       "Workspace", "WorkspaceError", "build_registry", "clock_tool", "execute_tool", "file_tools",
                       "get_current_time", "openai_tools", "shell_tool", "tool", "tool_message"],  # 01-06
    "agentkit.policy": ["Decision", "ToolExecutor", "ToolPolicy", "scripted_answers", "terminal_ask"],  # 07
    "agentkit.tools.ask_user": ["Ask", "TaskCancelled", "ask_user_tool"],  # 07
    "agentkit.loop": ["Event", "Task", "Usage", "run_task"],  # 08
    "agentkit.limits": ["DEFAULT_LIMITS", "Limits"],
})
