"""agentkit: the code of "Tool Use, from zero", one module a chapter.

    from agentkit import connect, load_settings, build_registry, clock_tool, run_task

Each name is imported from its module on first use (`agentkit/exports.py` says why).
"""

import sys

from agentkit.exports import lazy_exports

# jsonschema imports rfc3987_syntax where it is installed (Jupyter installs it), and that module compiles a grammar
# for IRIs at import: a second of CPU in every kernel and every `agentkit` command. No tool schema here checks the
# "iri" format, so agentkit imports jsonschema without it; jsonschema then skips that one format, as it does wherever
# rfc3987_syntax is not installed. If jsonschema was imported before agentkit, nothing changes.
if "jsonschema" not in sys.modules and "rfc3987_syntax" not in sys.modules:
    sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]  # None in sys.modules makes its import fail
    try:
        import jsonschema  # noqa: F401
    finally:
        del sys.modules["rfc3987_syntax"]

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    "agentkit.config": ["ConfigError", "Settings", "check_connection", "connect", "load_settings"],  # 00
    "agentkit.manual": ["FunctionCall", "FunctionCallError", "build_system_prompt", "manual_round_trip",
                        "parse_reply"],  # 01
    "agentkit.tools": ["DuplicateToolError", "ToolDefinition", "ToolDefinitionError", "ToolError", "ToolResult",
                       "Workspace", "WorkspaceError", "build_registry", "clock_tool", "execute_tool", "file_tools",
                       "get_current_time", "openai_tools", "shell_tool", "tool", "tool_message"],  # 01-06
    "agentkit.policy": ["Ask", "Decision", "TaskCancelled", "ToolExecutor", "ToolPolicy", "ask_user_tool",
                        "scripted_answers", "terminal_ask"],  # 07
    "agentkit.loop": ["Event", "Task", "Usage", "run_task"],  # 08
    "agentkit.limits": ["DEFAULT_LIMITS", "Limits"],
})
