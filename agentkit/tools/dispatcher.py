"""The dispatcher (chapter 04): `execute_tool`, where model output enters our code.

Two error channels meet here, and only here:
- what the model got wrong (unknown tool, bad JSON, arguments that do not fit the schema, a `ToolError` from
  the handler) becomes a `ToolResult` whose content starts with `Error:` and says what is valid;
- what we got wrong (any other exception in a handler) is a bug: logged with its traceback for the developer,
  and reported to the model as a broken tool, never as its own mistake.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agentkit.calls import ToolCall
from agentkit.errors import ToolError
from agentkit.hardening.arguments import expected_keys
from agentkit.hardening.echo import echo, json_value
from agentkit.tools.contract import CheckedArguments, ToolDefinition

logger = logging.getLogger("agentkit.tools")


@dataclass(frozen=True)
class ToolResult:
    """What one tool call produced: the text the model reads, and what a developer needs when it failed."""

    content: str  # the text sent back to the model; starts with `Error: ` when the call failed
    is_error: bool = False
    error: BaseException | None = None  # the exception behind a failure, for humans (logs, tests), never the model
    refused_by: str | None = None  # the policy's rule that refused the call (chapter 07), not to parse it from `content`

    @classmethod
    def failure(cls, message: str, error: BaseException | None = None, refused_by: str | None = None) -> ToolResult:
        """A failed call, as the model reads every failure: `Error: ` and then what went wrong and what is valid."""
        return cls(f"Error: {message}", is_error=True, error=error, refused_by=refused_by)


def tool_message(tool_call_id: str, result: ToolResult) -> dict[str, Any]:
    """The `role="tool"` message that answers one tool call; the only place such messages are made.

    A file name that is not UTF-8 arrives as lone surrogates, which no JSON encoder can send: each becomes
    U+FFFD, so one odd file cannot break every later request of a conversation."""
    return {"role": "tool", "tool_call_id": tool_call_id, "content": re.sub("[\ud800-\udfff]", "\ufffd", result.content)}


async def execute_tool(registry: Mapping[str, ToolDefinition], call: ToolCall, *,
                       checked: CheckedArguments | None = None) -> ToolResult:
    """Run one tool call the model made (`ToolCall.parse(id, name, arguments)`). Never raises for what it sent.

    `checked`: the arguments `check_arguments` already passed (the policy of chapter 07 checks them before it asks
    a person), so that they are not checked twice."""
    definition = registry.get(call.name) if isinstance(call.name, str) else None
    if definition is None:
        return ToolResult.failure(unknown_tool(call.name, registry))
    arguments, problem = (checked, None) if checked is not None else check_arguments(definition, call)
    if problem:
        return ToolResult.failure(problem)
    return await run_handler(definition, arguments)


def unknown_tool(name: object, registry: Mapping[str, ToolDefinition]) -> str:
    """What the model is told when it calls a tool that is not there, with the tools that are."""
    called = f"'{echo(name)}'" if isinstance(name, str) else f"name {json_value(name)} (a tool name is a string)"
    return f"Unknown tool {called}; available tools: {', '.join(sorted(registry)) or '(none)'}"


async def run_handler(definition: ToolDefinition, arguments: CheckedArguments) -> ToolResult:
    """Call the tool's handler with arguments `check_arguments` has already checked; sort what it raises."""
    try:
        content = await definition.handler(arguments)
        if not isinstance(content, str):
            raise TypeError(f"handler returned {type(content).__name__}, but a handler must return str")
    except ToolError as error:
        return ToolResult.failure(str(error) or type(error).__name__, error)
    except Exception as error:  # anything else is our bug: keep the traceback, tell the model the tool is broken
        logger.exception("Bug in tool '%s', called with arguments %.200s", definition.name,
                         json.dumps(arguments, ensure_ascii=False, default=repr))
        return ToolResult.failure(
            f"tool '{definition.name}' failed with an internal error ({type(error).__name__}). This is a bug in the "
            "tool, not a mistake in your call; calling it again will not help. Tell the user the tool is broken.",
            error,
        )
    return ToolResult(content)


def check_arguments(definition: ToolDefinition, call: ToolCall) -> tuple[CheckedArguments, str | None]:
    """The call's arguments as the tool's validator passed them, or the one message that lists what is wrong."""
    these = f"arguments for '{definition.name}'"
    if call.arguments is None:  # not JSON, not an object: `ToolCall.parse` said what it got instead
        return CheckedArguments(), f"{these} {call.error}; expected keys: {expected_keys(definition.parameters)}."
    arguments, problems = definition.validator.check(call.arguments)  # the tool's one check: jsonschema, or @tool's model
    if not problems:
        return arguments, None
    listed = "".join(f"\n- {problem}" for problem in problems)
    return arguments, f"{these} do not match its parameters ({len(problems)} problem{'s' * (len(problems) > 1)}):{listed}"
