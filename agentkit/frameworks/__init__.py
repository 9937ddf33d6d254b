"""The course's tools in the frameworks a learner moves on to (chapter 12), and the Anthropic Messages format.

Each framework is a different spelling of what chapters 02-08 built; each function here is one mapping. A
framework's tool call goes through a `ToolExecutor`, so the policy and the dispatcher's error contract hold
inside it too; a framework does not say where a model turn ends, so `max_tool_calls_per_turn` counts over the
whole run. LangChain and the OpenAI Agents SDK come with the `frameworks` extra, imported when called.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from agentkit.calls import ToolCall
from agentkit.config import Settings, load_settings
from agentkit.policy import ToolExecutor
from agentkit.tools.contract import ToolDefinition

INSTALL_FRAMEWORKS = "pip install -e '.[frameworks]'  (LangChain and the OpenAI Agents SDK)"
"""What a learner runs when a framework is missing."""


def anthropic_tools(registry: Mapping[str, ToolDefinition]) -> list[dict[str, Any]]:
    """The `tools=` list of Anthropic's Messages API: the same three fields, flat, the schema as `input_schema`."""
    return [{"name": tool.name, "description": tool.description, "input_schema": tool.parameters}
            for tool in registry.values()]


def anthropic_messages(messages: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """A Chat Completions history as Anthropic's `(system, messages)`.

    The system prompt is a parameter of its own; a tool call is a `tool_use` block inside the assistant's
    content, with its arguments parsed (`input` is an object, not JSON text); tool results are `tool_result`
    blocks in the next *user* message, all the results of one reply in one message, `is_error` for `Error:`.
    """
    system, converted = [], []
    for message in messages:
        role, content = message["role"], message.get("content")
        if role in ("system", "developer"):
            system.append(content or "")
        elif role == "tool":
            block = {"type": "tool_result", "tool_use_id": message["tool_call_id"], "content": content or ""}
            if (content or "").startswith("Error:"):
                block["is_error"] = True
            last = converted[-1] if converted else {}
            if last.get("role") == "user" and isinstance(last["content"], list) and \
                    all(part["type"] == "tool_result" for part in last["content"]):
                last["content"].append(block)
            else:
                converted.append({"role": "user", "content": [block]})
        elif role == "assistant" and message.get("tool_calls"):
            blocks = [{"type": "text", "text": content}] if content else []
            blocks += [{"type": "tool_use", "id": call["id"], "name": call["function"]["name"],
                        "input": json.loads(call["function"]["arguments"] or "{}")} for call in message["tool_calls"]]
            converted.append({"role": "assistant", "content": blocks})
        else:
            converted.append({"role": role, "content": content or ""})
    return "\n\n".join(system), converted


def langchain_tools(executor: ToolExecutor) -> list[Any]:
    """The executor's allowed tools as LangChain `StructuredTool`s; each call runs through `executor`, with its id."""
    from langchain_core.tools import StructuredTool

    class CallTool(StructuredTool):  # hands the coroutine the model's call id along with the arguments
        def _to_args_and_kwargs(self, tool_input: Any, tool_call_id: str | None) -> tuple[tuple, dict[str, Any]]:
            return (), {"arguments": super()._to_args_and_kwargs(tool_input, tool_call_id)[1], "call_id": tool_call_id}

    def make(tool: ToolDefinition) -> Any:
        async def call(arguments: dict[str, Any], call_id: str | None) -> str:
            return (await executor.run(ToolCall.parse(call_id or "", tool.name, arguments))).content

        return CallTool.from_function(coroutine=call, name=tool.name, description=tool.description,
                                      args_schema=tool.parameters)

    return [make(tool) for tool in executor.allowed.values()]


def agents_tools(executor: ToolExecutor) -> list[Any]:
    """The executor's allowed tools as OpenAI Agents SDK `FunctionTool`s; each call runs through `executor`."""
    from agents import FunctionTool

    def make(tool: ToolDefinition) -> Any:
        async def invoke(context: Any, raw_arguments: str) -> str:
            call = ToolCall.parse(getattr(context, "tool_call_id", ""), tool.name, raw_arguments)
            return (await executor.run(call)).content

        # strict_json_schema=False: our schemas are checked by the dispatcher, not rewritten for strict mode.
        return FunctionTool(name=tool.name, description=tool.description, params_json_schema=tool.parameters,
                            on_invoke_tool=invoke, strict_json_schema=False)

    return [make(tool) for tool in executor.allowed.values()]


@dataclass(frozen=True)
class Endpoint:
    """What a framework's OpenAI client needs: where, with which key, and the model name to send."""

    base_url: str | None  # the OpenAI-compatible URL; None means OpenAI's own
    api_key: str  # the key to send (the offline server accepts any)
    model: str  # the model name to send


@contextmanager
def model_endpoint(settings: Settings | None = None) -> Iterator[Endpoint]:
    """The real provider from `.env`, or, without a key, the offline model served on 127.0.0.1 while in the block.

    Frameworks build their own OpenAI client from a URL, so the offline model is served over HTTP here
    (the in-process transport of `connect()` is not theirs to use).
    """
    settings = settings or load_settings()
    if not settings.offline:
        yield Endpoint(settings.base_url, settings.api_key or "", settings.model)
        return
    from agentkit.offline import OfflineModel, OfflineServer, variant

    model = variant(settings.variant) if settings.variant else OfflineModel()
    with OfflineServer(model) as server:
        yield Endpoint(server.base_url, "offline", settings.model)
