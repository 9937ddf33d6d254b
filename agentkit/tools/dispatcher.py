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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentkit.limits import echo  # every error that repeats the model's text cuts it (Limits' ECHO_CHARS)
from agentkit.tools.contract import ToolDefinition, ToolError

if TYPE_CHECKING:  # importing jsonschema takes most of a second: `import agentkit` does not pay for it
    from jsonschema import ValidationError

logger = logging.getLogger("agentkit.tools")

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

ECHO_NAMES = 10
"""Most names (missing or unexpected keys) one error line lists; the rest are counted."""

_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number"}


@dataclass(frozen=True)
class ToolResult:
    """What one tool call produced: the text the model reads, and what a developer needs when it failed."""

    content: str
    """The text sent back to the model; starts with `Error: ` when the call failed."""
    is_error: bool = False
    """True when the call failed, for either reason (the model's mistake or a bug in the tool)."""
    error: BaseException | None = None
    """The exception behind a failure, kept for humans (logs, tests); never shown to the model as such."""

    @classmethod
    def failure(cls, message: str, error: BaseException | None = None) -> ToolResult:
        """A failed call, as the model reads every failure: `Error: ` and then what went wrong and what is valid."""
        return cls(f"Error: {message}", is_error=True, error=error)


def tool_message(tool_call_id: str, result: ToolResult) -> dict[str, Any]:
    """The `role="tool"` message that answers one tool call; the only place such messages are made.

    A file name with bytes that are not UTF-8 reaches Python as lone surrogates, which no JSON encoder
    can send: each becomes U+FFFD here, so one odd file cannot break every later request of a conversation.
    """
    content = _LONE_SURROGATE.sub("\ufffd", result.content)
    return {"role": "tool", "tool_call_id": tool_call_id, "content": content}


async def execute_tool(registry: Mapping[str, ToolDefinition], name: str, raw_arguments: str | Mapping) -> ToolResult:
    """Run one tool call as the model sent it. Never raises for anything the model sends.

    `raw_arguments` is the JSON text the API sends, or the same object already parsed (some frameworks pass a dict).
    """
    definition = registry.get(name) if isinstance(name, str) else None
    if definition is None:
        called = f"'{echo(name)}'" if isinstance(name, str) else f"name {_got(name)} (a tool name is a string)"
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
    expected = _expected_keys(definition.parameters)
    if isinstance(raw_arguments, Mapping):
        # Already parsed: written back as JSON text, so a dict is checked exactly like the text would be.
        try:
            raw_arguments = json.dumps(dict(raw_arguments))
        except (TypeError, ValueError, RecursionError) as error:
            return {}, f"arguments for '{definition.name}' are a dict that is not JSON data ({echo(str(error))}); " \
                       f"expected keys: {expected}."
    if not isinstance(raw_arguments, str):
        return {}, (
            f"arguments for '{definition.name}' must be a JSON object, as text (str) or already parsed (dict), "
            f"got {_python_value(raw_arguments)}; expected keys: {expected}."
        )
    if not raw_arguments.strip():
        raw_arguments = "{}"  # some models send "" for a call without arguments
    try:
        arguments = json.loads(raw_arguments)
    except (ValueError, RecursionError) as error:
        # The decoder's own message may end in "at" ("Unterminated string starting at"): its position follows a colon.
        reason = f"{error.msg}: line {error.lineno} column {error.colno}" if hasattr(error, "msg") else str(error)
        return {}, (
            f"arguments for '{definition.name}' are not valid JSON ({reason}). "
            f"Send them again as one JSON object with double-quoted keys; expected keys: {expected}."
        )
    if not isinstance(arguments, dict):
        return {}, (
            f"arguments for '{definition.name}' must be a JSON object like {{\"key\": value}}, "
            f"got {_got(arguments)}; expected keys: {expected}."
        )
    errors = definition.validator.problems(arguments)
    if not errors:
        return arguments, None
    # jsonschema reports each missing key on its own; one line names them all, so lines are deduplicated.
    problems = list(dict.fromkeys(_describe(error) for error in errors))
    count = f"{len(problems)} problem{'s' * (len(problems) > 1)}"
    return {}, f"arguments for '{definition.name}' do not match its parameters ({count}):\n" + "\n".join(
        f"- {problem}" for problem in problems
    )

def _describe(error: ValidationError) -> str:
    """One problem in words the model can act on, from jsonschema's structured error."""
    path, schema, value = _path(error.absolute_path), error.schema, error.instance
    where = f"argument '{echo(path)}'" if path else "the arguments"
    if error.validator == "required":
        missing = [key for key in error.validator_value if key not in value]
        return f"missing required argument{'s' * (len(missing) > 1)}: {_names(missing, path)}"
    if error.validator == "additionalProperties" and isinstance(value, dict):
        extra = sorted(set(value) - set(schema.get("properties", {})))
        return f"unexpected argument{'s' * (len(extra) > 1)}: {_names(extra, path)}; valid " \
               f"{'arguments' if not path else 'keys in ' + where}: {', '.join(schema.get('properties', {}))}"
    if error.validator == "enum":
        return f"{where} is {_short(value)}; should be one of: {', '.join(map(json.dumps, error.validator_value))}"
    if error.validator in ("anyOf", "oneOf") and (inside := _errors_in_options_of_its_type(error)):
        return "; ".join(dict.fromkeys(_describe(inner) for inner in inside))
    types = error.validator_value if error.validator == "type" else _any_of_types(schema)
    if types:
        return f"{where} should be of type {' or '.join(types) if isinstance(types, list) else types}, got {_got(value)}"
    return f"{where}: {echo(error.message, 200)}"


def _path(parts: Iterable[str | int]) -> str:
    """`points[0].x`: where in the arguments a problem is, written as a programmer would."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts).lstrip(".")


def _names(keys: list[str], parent: str) -> str:
    """`'a', 'b'`: the keys (the model's own, when unexpected) capped in length and in number."""
    named = [f"'{echo(f'{parent}.{key}' if parent else key)}'" for key in keys[:ECHO_NAMES]]
    return ", ".join(named) + (f" and {len(keys) - ECHO_NAMES} more" if len(keys) > ECHO_NAMES else "")


def _errors_in_options_of_its_type(error: ValidationError) -> list[ValidationError]:
    """`limit: int >= 1 | None` sent 0: the problems in the options of the value's type (0 < 1), not "int or null"."""
    wrong_type = {e.relative_schema_path[0] for e in error.context or [] if e.validator == "type" and not e.relative_path}
    return [e for e in error.context or [] if e.relative_schema_path[0] not in wrong_type]


def _any_of_types(schema: dict[str, Any]) -> list[str]:
    """`["integer", "null"]` for an optional integer: its error then says what types are valid."""
    options = schema.get("anyOf", [])
    return [option["type"] for option in options] if all("type" in option for option in options) else []


def _expected_keys(parameters: dict[str, Any]) -> str:
    required = set(parameters.get("required", []))
    keys = [f"{key} (required)" if key in required else key for key in parameters.get("properties", {})]
    return ", ".join(keys) or "(none)"


def _got(value: Any) -> str:
    """`string "ten"`, `array [1, 2]`, `null`: a JSON value with its type, as the model wrote it."""
    return "null" if value is None else f"{_JSON_TYPES.get(type(value), type(value).__name__)} {_short(value)}"


def _short(value: Any) -> str:
    return echo(json.dumps(value, ensure_ascii=False, default=str))


def _python_value(value: Any) -> str:
    """`int 5`, `bytes b'{}'`, `None`: what a caller passed, as Python names it."""
    return "None" if value is None else f"{type(value).__name__} {echo(repr(value))}"

