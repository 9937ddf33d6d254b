"""A typed Python function -> a `ToolDefinition`: the schema is derived from the signature, never written twice.

    @tool
    def get_weather(city: str, unit: Literal["C", "F"] = "C") -> str:
        '''Current weather in a city.

        Args:
            city: City name, e.g. "Paris".
            unit: Temperature unit.
        '''

(1) The docstring gives the description and a text per argument, (2) the signature each argument's type and
default; (3) pydantic makes a model of them, whose JSON Schema the model is shown; (4) that model is the tool's
validator: it checks a call's arguments, once, and makes the typed values the function is called with."""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from agentkit.errors import ToolError
from agentkit.hardening.arguments import CheckedArguments, ModelValidator
from agentkit.hardening.threads import run_blocking
from agentkit.tools.contract import Handler, ToolDefinition
from agentkit.tools.strict import NotStrictError, strict_schema

_ARGS_HEADERS = {"Args:", "Arguments:", "Parameters:"}
_OTHER_HEADERS = {"Returns:", "Return:", "Yields:", "Raises:", "Example:", "Examples:", "Note:", "Notes:"}
_ARG_LINE = re.compile(r"(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)")  # "city (str): City name" or "city: City name"


class ToolDefinitionError(TypeError):
    """A function that cannot become a tool; the message says what to add. Raised when the tool is defined."""


def tool(fn: Callable[..., Any] | None = None, *, name: str | None = None, needs_confirmation: bool = False,
         strict: bool = False) -> Any:
    """Turn a typed, documented function (sync or async) into a `ToolDefinition`.

    Bare (`@tool`) or with options (`@tool(needs_confirmation=True)`, `@tool(name="...")`); `strict=True` gives
    the strict schema a provider can enforce (chapter 10), or says why the function has none.
    """
    if fn is None:
        return lambda f: tool(f, name=name, needs_confirmation=needs_confirmation, strict=strict)
    tool_name = name or fn.__name__
    description, arg_docs = parse_docstring(fn, tool_name)
    model, parameters = arguments_model(tool_name, _fields(fn, tool_name, arg_docs))
    try:
        shown = strict_schema(parameters) if strict else parameters
    except NotStrictError as error:
        raise ToolDefinitionError(f"Tool '{tool_name}' cannot have a strict schema: {error} "
                                  "Or leave strict off for this tool.") from None
    validator = ModelValidator(model, shown, strict_from=parameters if strict else None)
    return ToolDefinition(tool_name, description, shown, _handler(fn, validator), needs_confirmation=needs_confirmation,
                          strict=strict, validator=validator)


def parse_docstring(fn: Callable[..., Any], tool_name: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into the tool description and `{argument: text}`."""
    description: list[str] = []
    arg_docs: dict[str, list[str]] = {}
    section, current, arg_indent = "description", None, None
    for line in inspect.cleandoc(fn.__doc__ or "").splitlines():
        indent, text = len(line) - len(line.lstrip()), line.strip()
        if text in _ARGS_HEADERS | _OTHER_HEADERS and not indent:
            section = "args" if text in _ARGS_HEADERS else "other"
        elif section == "description":
            description.append(line)
        elif section == "args" and text:
            match = _ARG_LINE.fullmatch(text)
            if match and (arg_indent is None or indent <= arg_indent):  # deeper lines continue the argument above
                arg_indent, current = indent if arg_indent is None else arg_indent, match.group(1)
                arg_docs[current] = [match.group(2)]
            elif current is not None:
                arg_docs[current].append(text)
    if not (text := "\n".join(description).strip()):
        raise ToolDefinitionError(f"Tool '{tool_name}' has no description: add a docstring whose first line says what "
                                  "the tool does, for the model, and an `Args:` section with one line per argument.")
    return text, {arg: " ".join(filter(None, parts)) for arg, parts in arg_docs.items()}


def _fields(fn: Callable[..., Any], tool_name: str, arg_docs: dict[str, str]) -> dict[str, Any]:
    """Each argument as a pydantic field: its type hint, its default, its text from the docstring."""
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as error:  # a hint naming something undefined: say which, at definition time
        raise ToolDefinitionError(f"Tool '{tool_name}': a type hint cannot be resolved ({error}).") from error
    fields: dict[str, Any] = {}
    for param in inspect.signature(fn).parameters.values():
        if param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            raise ToolDefinitionError(f"Tool '{tool_name}': argument '{param.name}' is {param.kind.description}; a tool "
                                      "takes named arguments only (the model sends a JSON object), so list each by name.")
        if param.name not in hints:
            raise ToolDefinitionError(f"Tool '{tool_name}': argument '{param.name}' has no type hint; add one (e.g. "
                                      f"`{param.name}: str`) so that its JSON Schema can be generated.")
        if param.name not in arg_docs:
            raise ToolDefinitionError(f"Tool '{tool_name}': argument '{param.name}' is not described; add a line "
                                      f"`{param.name}: <what it means>` under `Args:` in the docstring, for the model.")
        default = ... if param.default is param.empty else param.default
        fields[param.name] = (hints[param.name], Field(default, description=arg_docs[param.name]))
    if unknown := sorted(set(arg_docs) - set(fields)):
        raise ToolDefinitionError(f"Tool '{tool_name}': the docstring describes {', '.join(map(repr, unknown))}, which "
                                  f"the function does not take; its arguments are: {', '.join(fields) or '(none)'}.")
    return fields


def arguments_model(tool_name: str, fields: dict[str, Any]) -> tuple[type[BaseModel], dict[str, Any]]:
    """The pydantic model of a tool's arguments, and the JSON Schema the model is shown."""
    model_name = "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", tool_name)) + "Arguments"
    try:
        model = create_model(model_name, __config__=ConfigDict(extra="forbid", protected_namespaces=()), **fields)
        return model, clean_schema(model.model_json_schema())
    except Exception as error:  # a type pydantic cannot describe, a name it cannot use: say so now, not mid-task
        raise ToolDefinitionError(f"Tool '{tool_name}': its arguments cannot become a JSON Schema: {error}") from error


def clean_schema(node: Any) -> Any:
    """pydantic's schema without its titles, every object closed to unexpected keys, keys ordered for a reader."""
    if isinstance(node, list):
        return [clean_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    cleaned: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("properties", "$defs"):  # maps of names to schemas: the names are data, not "title"s
            cleaned[key] = {name: clean_schema(schema) for name, schema in value.items()}
        elif key != "title":
            cleaned[key] = value if key in ("default", "enum", "const", "examples") else clean_schema(value)
    if "properties" in cleaned:  # a misspelled key comes back to the model as an error, not dropped without a word
        cleaned.setdefault("additionalProperties", False)
    first = [key for key in ("type", "description", "properties", "required", "additionalProperties") if key in cleaned]
    return {key: cleaned[key] for key in first} | cleaned


def _handler(fn: Callable[..., Any], validator: ModelValidator) -> Handler:
    """`fn` as an async handler. The dispatcher hands it the arguments its validator checked, as typed values;
    called directly (`await tool.handler({...})`), it checks them itself."""
    is_async = inspect.iscoroutinefunction(fn)

    async def handler(arguments: dict[str, Any]) -> str:
        if not isinstance(arguments, CheckedArguments):
            arguments, problems = validator.check(arguments)
            if problems:  # wrong arguments are the model's to fix, not a bug
                raise ToolError(f"invalid arguments: {'; '.join(problems)}")
        # `def` functions may block (files, network, sleep): run them on a thread so the event loop stays free.
        result = await fn(**arguments) if is_async else await run_blocking(fn, **arguments)
        return str(result)

    return handler
