"""Checks for chapter 15's exercise: a task's trace read back by its attributes. Each takes `globals()`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentkit.checks import answer, expect, run_check
from agentkit.events import finish
from agentkit.loop import run_task
from agentkit.offline import offline_client
from agentkit.tools import build_registry
from agentkit.tools.clock import clock_tool


async def check_exercise_15_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 15.1: `trace_summary(spans)` counts a trace's model requests, names its tools, sums its input tokens."""

    async def test() -> None:
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

        from agentkit.beyond.tracing import traced

        trace_summary = answer(namespace, "trace_summary")
        exporter, provider = InMemorySpanExporter(), TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        goal = "What time is it in Tokyo and in Lima?"  # our own chat spans, whether the notebook instrumented openai or not
        task = await finish(traced(run_task(offline_client(), "offline", goal, build_registry([clock_tool()])),
                                   provider.get_tracer("check"), model="offline", chat_spans=True))
        summary = trace_summary(exporter.get_finished_spans())
        expect(isinstance(summary, dict), f"trace_summary returned {summary!r}; return a dict.")
        expect(summary.get("requests") == task.turns, f"'requests' is {summary.get('requests')!r}; the task made "
                                                      f"{task.turns} model requests: count the chat spans.")
        tools = [call["function"]["name"] for message in task.messages if message["role"] == "assistant"
                 for call in message.get("tool_calls") or []]
        expect(summary.get("tools") == tools, f"'tools' is {summary.get('tools')!r}; the task called {tools!r}: the "
                                              "gen_ai.tool.name of each execute_tool span, in the order they started.")
        expect(summary.get("input_tokens") == task.usage.prompt_tokens,
               f"'input_tokens' is {summary.get('input_tokens')!r}; the requests read {task.usage.prompt_tokens}: "
               "sum gen_ai.usage.input_tokens over the chat spans only (invoke_agent holds the total already).")

    return await run_check("Exercise 15.1: a trace's summary", test)
