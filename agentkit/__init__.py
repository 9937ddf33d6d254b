"""agentkit: the code of "Tool Use, from zero", one module a chapter."""

from agentkit.tools.contract import ToolDefinition

__all__ = ["ToolDefinition"]
