"""The registry (chapter 03): a dict of tools by name, checked once, when it is built.

A tool exists for the model only when it is in the registry; `openai_tools` is what the model sees of it.
Running a call (chapter 04) is the dispatcher's job: `agentkit.tools.dispatcher`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from agentkit.hardening.arguments import Draft202012Validator, SchemaError  # jsonschema, imported the light way
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.strict import strict_problem

TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what the OpenAI API accepts as a function name


class DuplicateToolError(ValueError):
    """Two tools with the same name: the model could not say which one it means."""


def build_registry(tools: Iterable[ToolDefinition]) -> dict[str, ToolDefinition]:
    """The registry: `{name: tool}` for exactly the tools listed, checked once, when it is built."""
    registry: dict[str, ToolDefinition] = {}
    for definition in tools:
        if not isinstance(definition, ToolDefinition):
            named = f" {definition.__name__!r}" if hasattr(definition, "__name__") else ""
            raise TypeError(f"build_registry() takes ToolDefinition objects, got {type(definition).__name__}{named}; "
                            "decorate a function with @tool, or build a ToolDefinition, to make one.")
        if not TOOL_NAME.fullmatch(definition.name):
            raise ValueError(f"Invalid tool name {definition.name!r}: use 1 to 64 letters, digits, '_' or '-' "
                             "(the name the model calls the tool by).")
        if definition.name in registry:
            raise DuplicateToolError(f"Duplicate tool name '{definition.name}': each tool needs its own name, "
                                     "or the model could not say which one it means.")
        _check_parameters(definition)
        registry[definition.name] = definition
    return registry


def _check_parameters(definition: ToolDefinition) -> None:
    """A schema the API would refuse (HTTP 400 on every request that offers it) is refused here, once."""
    try:
        Draft202012Validator.check_schema(definition.parameters)
    except SchemaError as error:
        raise ValueError(f"Tool '{definition.name}': parameters is not a valid JSON Schema: {error.message}") from error
    if definition.parameters.get("type") != "object":
        raise ValueError(f"Tool '{definition.name}': parameters must describe an object (\"type\": \"object\"), "
                         "because the model always sends its arguments as one JSON object.")
    if definition.strict and (problem := strict_problem(definition.parameters)):
        raise ValueError(f"Tool '{definition.name}' is strict, but its parameters are not a strict schema: {problem} "
                         "Make it with @tool(strict=True), or use agentkit.tools.strict.strict_schema().")


def openai_tools(registry: Mapping[str, ToolDefinition]) -> list[dict[str, Any]]:
    """The `tools=` list for the Chat Completions API: what the model sees of each tool, handlers left out."""
    return [definition.to_openai() for definition in registry.values()]
