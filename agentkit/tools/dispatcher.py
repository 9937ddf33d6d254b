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

from agentkit.hardening.arguments import decode_arguments, expected_keys, problems_in_words
from agentkit.hardening.echo import echo, json_value
from agentkit.tools.contract import ToolDefinition, ToolError

logger = logging.getLogger("agentkit.tools")


@dataclass(frozen=True)
class ToolResult:
    """What one tool call produced: the text the model reads, and what a developer needs when it failed."""

    content: str
    """The text sent back to the model; starts with `Error: ` when the call failed."""
    is_error: bool = False
    error: BaseException | None = None
    """The exception behind a failure, kept for humans (logs, tests); never shown to the model as such."""

    @classmethod
    def failure(cls, message: str, error: BaseException | None = None) -> ToolResult:
        """A failed call, as the model reads every failure: `Error: ` and then what went wrong and what is valid."""
        return cls(f"Error: {message}", is_error=True, error=error)


def tool_message(tool_call_id: str, result: ToolResult) -> dict[str, Any]:
    """The `role="tool"` message that answers one tool call; the only place such messages are made.

    A file name that is not UTF-8 arrives as lone surrogates, which no JSON encoder can send: each becomes
    U+FFFD, so one odd file cannot break every later request of a conversation."""
    return {"role": "tool", "tool_call_id": tool_call_id, "content": re.sub("[\ud800-\udfff]", "\ufffd", result.content)}


async def execute_tool(registry: Mapping[str, ToolDefinition], name: str, raw_arguments: str | Mapping) -> ToolResult:
    """Run one tool call as the model sent it (arguments as JSON text, or a dict). Never raises for what it sends."""
    definition = registry.get(name) if isinstance(name, str) else None
    if definition is None:
        called = f"'{echo(name)}'" if isinstance(name, str) else f"name {json_value(name)} (a tool name is a string)"
        return ToolResult.failure(f"Unknown tool {called}; available tools: {', '.join(sorted(registry)) or '(none)'}")
    arguments, problem = parse_arguments(definition, raw_arguments)
    if problem:
        return ToolResult.failure(problem)
    return await run_handler(definition, arguments)


async def run_handler(definition: ToolDefinition, arguments: dict[str, Any]) -> ToolResult:
    """Call the tool's handler with arguments `parse_arguments` has already checked; sort what it raises."""
    try:
        content = await definition.handler(arguments)
        if not isinstance(content, str):
            raise TypeError(f"handler returned {type(content).__name__}, but a handler must return str")
    except ToolError as error:
        return ToolResult.failure(str(error) or type(error).__name__, error)
    except Exception as error:  # anything else is our bug: keep the traceback, tell the model the tool is broken
        logger.exception("Bug in tool '%s', called with arguments %.200s", definition.name,
                         json.dumps(arguments, ensure_ascii=False))
        return ToolResult.failure(
            f"tool '{definition.name}' failed with an internal error ({type(error).__name__}). This is a bug in the "
            "tool, not a mistake in your call; calling it again will not help. Tell the user the tool is broken.",
            error,
        )
    return ToolResult(content)


def parse_arguments(definition: ToolDefinition, raw_arguments: str | Mapping) -> tuple[dict[str, Any], str | None]:
    """The arguments as a dict, or the one message that lists everything wrong with them."""
    these = f"arguments for '{definition.name}'"
    arguments, problem = decode_arguments(raw_arguments)  # not JSON, not an object: says what it got instead
    if problem:
        return {}, f"{these} {problem}; expected keys: {expected_keys(definition.parameters)}."
    problems = problems_in_words(definition.validator.problems(arguments))
    if not problems:
        return arguments, None
    listed = "".join(f"\n- {problem}" for problem in problems)
    return {}, f"{these} do not match its parameters ({len(problems)} problem{'s' * (len(problems) > 1)}):{listed}"
