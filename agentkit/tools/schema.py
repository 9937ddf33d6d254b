"""A typed Python function -> a `ToolDefinition`: the schema is derived from the signature, never written twice.

    @tool
    def get_weather(city: str, unit: Literal["C", "F"] = "C") -> str:
        '''Current weather in a city.

        Args:
            city: City name, e.g. "Paris".
            unit: Temperature unit.
        '''

The pipeline, one step a function below:
1. read the docstring: the tool's description and one line of text per argument;
2. read the signature: every argument needs a type hint and a line in `Args:`;
3. build a pydantic model of the arguments and take its JSON Schema, cleaned for the model;
4. wrap the function as an async handler that converts the arguments dict with that model.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from agentkit.tools.contract import Handler, ToolDefinition, ToolError
from agentkit.tools.strict import NotStrictError, strict_schema, without_unset
from agentkit.tools.threads import run_blocking

_ARGS_HEADERS = {"Args:", "Arguments:", "Parameters:"}
_OTHER_HEADERS = {"Returns:", "Return:", "Yields:", "Raises:", "Example:", "Examples:", "Note:", "Notes:"}
_ARG_LINE = re.compile(r"(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)")  # "city (str): City name" or "city: City name"
_DATA_KEYS = {"default", "enum", "const", "examples"}  # values, not schemas: never cleaned


class ToolDefinitionError(TypeError):
    """A function that cannot become a tool; the message says what to add. Raised when the tool is defined."""


def tool(
    fn: Callable[..., Any] | None = None, *, name: str | None = None, needs_confirmation: bool = False,
    strict: bool = False,
) -> Any:
    """Turn a typed, documented function (sync or async) into a `ToolDefinition`.

    Use it bare (`@tool`) or with options (`@tool(needs_confirmation=True)`, `@tool(name="...")`).
    `strict=True` gives the strict schema a provider can enforce (see `agentkit.tools.strict`), or says
    why the function has none.
    """
    if fn is None:
        return lambda f: tool(f, name=name, needs_confirmation=needs_confirmation, strict=strict)
    tool_name = name or fn.__name__
    description, arg_docs = parse_docstring(fn, tool_name)
    model, parameters = arguments_model(tool_name, _fields(fn, tool_name, arg_docs))
    original = parameters
    if strict:
        try:
            parameters = strict_schema(parameters)
        except NotStrictError as error:
            raise ToolDefinitionError(f"Tool '{tool_name}' cannot have a strict schema: {error} "
                                      "Or leave strict off for this tool.") from None
    return ToolDefinition(
        name=tool_name,
        description=description,
        parameters=parameters,
        handler=_handler(fn, model, original if strict else None),
        needs_confirmation=needs_confirmation,
        strict=strict,
    )


# 1. The docstring: description before the first section, argument text under "Args:".
def parse_docstring(fn: Callable[..., Any], tool_name: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into the tool description and `{argument: text}`."""
    lines = inspect.cleandoc(fn.__doc__ or "").splitlines()
    description: list[str] = []
    arg_docs: dict[str, list[str]] = {}
    section, current, arg_indent = "description", None, None
    for line in lines:
        if line.strip() in _ARGS_HEADERS | _OTHER_HEADERS and not line.startswith(" "):
            section = "args" if line.strip() in _ARGS_HEADERS else "other"
        elif section == "description":
            description.append(line)
        elif section == "args" and line.strip():
            match = _ARG_LINE.fullmatch(line.strip())
            # An argument starts at the section's first indent; anything deeper continues the one before.
            if match and (arg_indent is None or _indent(line) <= arg_indent):
                arg_indent = _indent(line) if arg_indent is None else arg_indent
                current = match.group(1)
                arg_docs[current] = [match.group(2)]
            elif current is not None:
                arg_docs[current].append(line.strip())
    text = "\n".join(description).strip()
    if not text:
        raise ToolDefinitionError(
            f"Tool '{tool_name}' has no description: add a docstring whose first line says what the tool "
            "does, for the model, and an `Args:` section with one line per argument."
        )
    return text, {arg: " ".join(part for part in parts if part) for arg, parts in arg_docs.items()}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


# 2. The signature: each argument becomes a pydantic field with its type, default and text.
def _fields(fn: Callable[..., Any], tool_name: str, arg_docs: dict[str, str]) -> dict[str, Any]:
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as error:  # a hint naming something undefined: say which, at definition time
        raise ToolDefinitionError(f"Tool '{tool_name}': a type hint cannot be resolved ({error}).") from error
    fields: dict[str, Any] = {}
    for param in inspect.signature(fn).parameters.values():
        if param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            raise ToolDefinitionError(
                f"Tool '{tool_name}': argument '{param.name}' is {param.kind.description}; a tool takes named "
                "arguments only (the model sends a JSON object), so list each argument by name."
            )
        if param.name not in hints:
            raise ToolDefinitionError(
                f"Tool '{tool_name}': argument '{param.name}' has no type hint; add one (e.g. "
                f"`{param.name}: str`) so that its JSON Schema can be generated."
            )
        if param.name not in arg_docs:
            raise ToolDefinitionError(
                f"Tool '{tool_name}': argument '{param.name}' is not described; add a line "
                f"`{param.name}: <what it means>` under `Args:` in the docstring, for the model."
            )
        default = ... if param.default is param.empty else param.default
        fields[param.name] = (hints[param.name], Field(default, description=arg_docs[param.name]))
    unknown = sorted(set(arg_docs) - set(fields))
    if unknown:
        raise ToolDefinitionError(
            f"Tool '{tool_name}': the docstring describes {', '.join(map(repr, unknown))}, which the function "
            f"does not take; its arguments are: {', '.join(fields) or '(none)'}."
        )
    return fields


# 3. The schema: pydantic's JSON Schema, without its "title" noise, closed to unexpected keys.
def arguments_model(tool_name: str, fields: dict[str, Any]) -> tuple[type[BaseModel], dict[str, Any]]:
    """The pydantic model of a tool's arguments, and the JSON Schema the model is shown."""
    model_name = "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", tool_name)) + "Arguments"
    try:
        model = create_model(model_name, __config__=ConfigDict(extra="forbid", protected_namespaces=()), **fields)
        return model, clean_schema(model.model_json_schema())
    except Exception as error:  # a type pydantic cannot describe, a name it cannot use: say so now, not mid-task
        raise ToolDefinitionError(f"Tool '{tool_name}': its arguments cannot become a JSON Schema: {error}") from error


def clean_schema(node: Any) -> Any:
    """Drop pydantic's titles, close every object to unexpected keys, and order keys for a human reader."""
    if isinstance(node, list):
        return [clean_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    cleaned: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("properties", "$defs"):  # maps of names to schemas: the names are data
            cleaned[key] = {name: clean_schema(schema) for name, schema in value.items()}
        elif key != "title":
            cleaned[key] = value if key in _DATA_KEYS else clean_schema(value)
    if "properties" in cleaned:
        # A misspelled key should come back to the model as an error, not be dropped without a word.
        cleaned.setdefault("additionalProperties", False)
    first = [key for key in ("type", "description", "properties", "required", "additionalProperties") if key in cleaned]
    return {key: cleaned[key] for key in first} | cleaned


# 4. The handler: the arguments dict becomes typed values (nested models arrive as model instances).
def _handler(fn: Callable[..., Any], model: type[BaseModel], strict_from: dict[str, Any] | None = None) -> Handler:
    is_async = inspect.iscoroutinefunction(fn)

    async def handler(arguments: dict[str, Any]) -> str:
        if strict_from is not None:  # a null the strict form added means "not given": the default applies
            arguments = without_unset(arguments, strict_from)
        try:
            parsed = model.model_validate(arguments)
        except ValidationError as error:  # wrong arguments are the model's to fix, not a bug
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {_in_words(e)}" for e in error.errors())
            raise ToolError(f"invalid arguments: {problems}") from error
        kwargs = {name: getattr(parsed, name) for name in type(parsed).model_fields}
        # `def` functions may block (files, network, sleep): run them on a thread so the event loop stays free.
        result = await fn(**kwargs) if is_async else await run_blocking(fn, **kwargs)
        return str(result)

    return handler


def _in_words(error: Any) -> str:
    # JSON can spell half a character ("\ud800"): Python keeps it, pydantic refuses it as "unable to parse raw data".
    if error["type"] == "string_unicode":
        return "holds a lone surrogate (half of a character, such as \\ud800), which is not text; send real characters"
    return error["msg"]
