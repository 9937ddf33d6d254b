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

from agentkit.asking import Ask, Question, TaskCancelled, scripted_answers, terminal_ask
from agentkit.calls import ToolCall
from agentkit.config import ConfigError, Settings, connect, load_settings
from agentkit.errors import ToolError, WorkspaceError
from agentkit.events import Event, finish
from agentkit.history import trim_history
from agentkit.limits import DEFAULT_LIMITS, Limits
from agentkit.loop import run_task
from agentkit.manual import FunctionCallError, build_system_prompt, manual_round_trip, parse_reply
from agentkit.policy import Decision, ToolExecutor, ToolPolicy
from agentkit.task import Task, Usage
from agentkit.tools import (
    ToolDefinition,
    ToolResult,
    Workspace,
    ask_user_tool,
    clock_tool,
    execute_tool,
    file_tools,
    get_current_time,
    shell_tool,
    tool_message,
)
from agentkit.tools.registry import DuplicateToolError, build_registry, openai_tools
from agentkit.tools.schema import ToolDefinitionError, tool

__all__ = [
    "DEFAULT_LIMITS", "Ask", "ConfigError", "Decision", "DuplicateToolError", "Event", "FunctionCallError", "Limits", "Question",
    "Settings", "Task", "TaskCancelled", "ToolCall", "ToolDefinition", "ToolDefinitionError", "ToolError", "ToolExecutor",
    "ToolPolicy", "ToolResult", "Usage", "Workspace", "WorkspaceError", "ask_user_tool", "build_registry", "build_system_prompt",
    "clock_tool", "connect", "execute_tool", "file_tools", "finish", "get_current_time", "load_settings", "manual_round_trip",
    "openai_tools", "parse_reply", "run_task", "scripted_answers", "shell_tool", "terminal_ask", "tool", "tool_message",
    "trim_history",
]

