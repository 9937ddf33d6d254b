"""agentkit: the code of "Tool Use, from zero", promoted from the notebooks, one module an idea.

The teaching core, in the order the chapters build it:

    --  errors            ToolError, WorkspaceError, TaskCancelled: at the bottom, importing nothing of ours
    00  config            settings from .env; connect(): a real client or the offline model
    01  manual            the FUNCTION: text protocol (recovery/function_line: the line, parsed by our own code)
    02  calls             ToolCall: one call, from any source (native, streamed, a FUNCTION: line, recovered, MCP)
    01  tools/clock       the first tool
    02  recovery/         tool calls a local server left in the text, read by text_calls (going deeper)
    03  tools/contract    ToolDefinition; tools/schema: @tool from a typed signature; tools/registry
    04  tools/dispatcher  execute_tool: where bad model output becomes an `Error:` result
    05  tools/workspace   the path guard; tools/filesystem: read_file, write_file, edit_file, glob
    06  tools/shell       bash, with a timeout and an output cap
    07  policy, asking    ToolPolicy and the ToolExecutor that enforces it; decisions: what it decides (Allow,
                          Refuse, AskPerson) and its log; asking a person (a Question); limits
    08  loop              run_task: an async generator of events (events: one small record a kind; finish
                          drains them), with task (Task, Usage), turn (one model request: plain or streamed)
                          and tool_calls (one reply's calls); agent (the course's agent)
    09  evaluation/       an evaluation set and a scorer
    10  streaming         a streamed reply read as it comes
    11  mcp/              server: a registry served over MCP; client: a server's tools imported
    12  frameworks        the same tools in other frameworks
    13  history           trim_history: a long conversation cut to a token budget, still valid to send

Underneath, what a learner may skip: hardening/ (the defences the chapters call by name, one module per attack),
frontends/ (the agentkit command, the terminal chat, the web page), offline/ (the offline model), checks/ and
classroom/ (the exercises and the teacher's tools). docs/teaching.md draws the layers.

    from agentkit import connect, load_settings, build_registry, clock_tool, run_task, finish
"""

import importlib.util
from typing import Any

PUBLIC = {
    "agentkit.asking": ("Ask", "Question", "TaskCancelled", "scripted_answers", "terminal_ask"),
    "agentkit.calls": ("ToolCall",),
    "agentkit.config": ("ConfigError", "Settings", "connect", "load_settings"),
    "agentkit.errors": ("ToolError", "WorkspaceError"),
    "agentkit.events": ("Event", "finish"),
    "agentkit.history": ("trim_history",),
    "agentkit.limits": ("DEFAULT_LIMITS", "Limits"),
    "agentkit.loop": ("run_task",),
    "agentkit.manual": ("FunctionCallError", "build_system_prompt", "manual_round_trip", "parse_reply"),
    "agentkit.policy": ("Decision", "ToolExecutor", "ToolPolicy"),
    "agentkit.task": ("Task", "Usage"),
    "agentkit.tools": ("ToolDefinition", "ToolResult", "Workspace", "ask_user_tool", "clock_tool", "execute_tool",
                       "file_tools", "get_current_time", "shell_tool", "tool_message"),
    "agentkit.tools.registry": ("DuplicateToolError", "build_registry", "openai_tools"),
    "agentkit.tools.schema": ("ToolDefinitionError", "tool"),
}
"""Each public name by the module that defines it. A name is imported the first time it is asked for (PEP 562), so
`import agentkit` loads nothing heavy: the `agentkit` command sets up its Ctrl-C handling before the `openai` SDK
(about a second) loads, and `from agentkit import connect` loads what `connect` needs, no more."""

HOME = {name: module for module, names in PUBLIC.items() for name in names}
__all__ = sorted(HOME)


def __getattr__(name: str) -> Any:
    """`agentkit.connect` (a public name, from its module) or `agentkit.tools` (a subpackage), loaded on first use."""
    if name not in HOME and importlib.util.find_spec(f"agentkit.{name}") is None:
        raise AttributeError(f"module 'agentkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(HOME[name]), name) if name in HOME else importlib.import_module(f"agentkit.{name}")
    globals()[name] = value  # found once; the next use is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *HOME})
