"""Tools: the contract, the registry and dispatcher, and the tools the course builds."""

from agentkit.tools.contract import Handler, ToolDefinition, ToolError

__all__ = ["Handler", "ToolDefinition", "ToolError"]
