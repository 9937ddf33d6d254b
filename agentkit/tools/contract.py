"""The tool contract: what a tool is, as data plus one async callable."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from agentkit.errors import ToolError
from agentkit.hardening.arguments import ArgumentsValidator, CheckedArguments, ModelValidator

__all__ = ["CheckedArguments", "Handler", "ToolDefinition", "ToolError"]  # ToolError: what a handler raises for the model

Handler = Callable[[dict[str, Any]], Awaitable[str]]


@dataclass(frozen=True)
class ToolDefinition:
    """One tool: the part the model sees (name, description, parameters) and the part it never sees (handler)."""

    name: str  # identifier the model calls the tool by: letters, digits, `_` and `-`, at most 64 characters
    description: str  # what the tool does and when to use it, written for the model
    parameters: dict[str, Any]  # JSON Schema of the arguments object: what the model is shown, and every call must fit
    handler: Handler = field(repr=False)
    """`async def handler(arguments: dict) -> str`; blocking work goes to a thread (`hardening.threads.run_blocking`)."""
    needs_confirmation: bool = False  # True for tools with side effects (write, edit, shell): the policy asks a person first
    strict: bool = False  # True when `parameters` is a strict schema the provider enforces as the model writes (chapter 10)
    validator: ArgumentsValidator | ModelValidator | None = field(default=None, repr=False, compare=False)
    """The tool's one check of a call's arguments, which the dispatcher runs: `check(arguments)` gives the arguments
    as the handler takes them, or every problem in words. None, for a tool written by hand: jsonschema over
    `parameters`; a `@tool` brings its pydantic model, which also makes its function's typed values."""

    def __post_init__(self) -> None:
        if self.validator is None:
            object.__setattr__(self, "validator", ArgumentsValidator(self.parameters))

    def to_openai(self) -> dict[str, Any]:
        """The Chat Completions `tools=` entry: everything but the handler."""
        function = {"name": self.name, "description": self.description, "parameters": self.parameters}
        return {"type": "function", "function": function | ({"strict": True} if self.strict else {})}
