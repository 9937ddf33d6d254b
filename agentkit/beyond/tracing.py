"""Traces (chapter 15): a task's events as OpenTelemetry spans, named as the GenAI semantic conventions name them.

    invoke_agent {agent}                the task, from its goal to its status
    ├── chat {model}                    each model request: its tokens, or the error that failed it
    └── execute_tool {gen_ai.tool.name} each tool call, from the model's request to its result

`traced` wraps `run_task(...)`'s events and yields them unchanged: a front end traces by wrapping, and the loop
holds no tracing code. A tool's arguments and result are recorded only with `record_content=True`: they may hold a
file's contents, a key or a person's data, and a trace is sent to other systems and kept there.

The attribute names are `opentelemetry-semantic-conventions`' constants, never typed: the GenAI conventions are still
marked as in development, and a name may change from one version to the next (`CONVENTIONS` is the version taught;
in it they moved to a repository of their own, and this package marks its GenAI constants deprecated but ships them).
The `chat` spans are OpenTelemetry's own when its OpenAI instrumentation is on (`opentelemetry-instrumentation-genai-
openai`, turned on before the client's first request), ours from the events otherwise.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import aclosing
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.environment_variables import OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor
from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as gen_ai
from opentelemetry.semconv.attributes.error_attributes import ERROR_TYPE
from opentelemetry.semconv.attributes.http_attributes import HTTP_REQUEST_RESEND_COUNT, HTTP_RESPONSE_STATUS_CODE
from opentelemetry.semconv.schemas import Schemas
from opentelemetry.trace import Span, StatusCode

from agentkit.events import CallAnswered, CallRequested, Event, Status, UsageSoFar
from agentkit.task import Task

CONVENTIONS = Schemas.V1_44_0  # the semantic conventions this module and chapter 15 follow
Operation = gen_ai.GenAiOperationNameValues
SHOWN = {gen_ai.GEN_AI_TOOL_CALL_ID: "id", gen_ai.GEN_AI_USAGE_INPUT_TOKENS: "in",
         gen_ai.GEN_AI_USAGE_OUTPUT_TOKENS: "out", ERROR_TYPE: "error"}
"""The attributes `span_tree` prints, by a short name; ids, times and durations are left out, as they change every run."""


async def traced(events: AsyncIterator[Event], tracer: trace.Tracer | None = None, *, model: str,
                 agent: str = "agentkit", task: Task | None = None, record_content: bool = False,
                 chat_spans: bool | None = None) -> AsyncIterator[Event]:
    """`run_task(...)`'s events, unchanged, each recorded as it passes: one `invoke_agent` span for the run, one
    `chat` span per model request (ours unless OpenTelemetry's OpenAI instrumentation makes them), one `execute_tool`
    span per call. Pass the `task` that `run_task` resumes, so that its earlier tokens are not counted again."""
    spans = TaskSpans(tracer or trace.get_tracer("agentkit", schema_url=CONVENTIONS.value), model, agent, task,
                      record_content, not openai_instrumented() if chat_spans is None else chat_spans)
    try:
        async with aclosing(events):
            while True:
                with trace.use_span(spans.current(), end_on_exit=False):  # the parent of what the loop does next
                    try:
                        event = await anext(events)
                    except StopAsyncIteration:
                        break
                spans.record(event)
                yield event
    finally:  # ended early too (a person's Ctrl-C, a closed page): every span ends
        spans.close()


class TaskSpans:
    """The spans of one run of a task, opened and ended as its events say."""

    def __init__(self, tracer: trace.Tracer, model: str, agent: str, task: Task | None, record_content: bool,
                 chat_spans: bool):
        self.tracer, self.model, self.record_content, self.chat_spans = tracer, model, record_content, chat_spans
        self.run = tracer.start_span(f"{Operation.INVOKE_AGENT.value} {agent}", attributes={
            gen_ai.GEN_AI_OPERATION_NAME: Operation.INVOKE_AGENT.value, gen_ai.GEN_AI_AGENT_NAME: agent,
            gen_ai.GEN_AI_REQUEST_MODEL: model})
        self.start = self.used = (task.usage.prompt_tokens, task.usage.completion_tokens) if task else (0, 0)
        self.chat: Span | None = None
        self.tools: dict[str, Span] = {}
        self.model_next = True  # the loop's next step is a model request: at the start, and once every call has its result

    def current(self) -> Span:
        """The span the loop's next step belongs to: a new `chat` span when a model request comes next."""
        if self.chat_spans and self.model_next and self.chat is None:
            self.chat = self._child(f"{Operation.CHAT.value} {self.model}", {
                gen_ai.GEN_AI_OPERATION_NAME: Operation.CHAT.value, gen_ai.GEN_AI_REQUEST_MODEL: self.model})
        return self.chat or self.run

    def record(self, event: Event) -> None:
        if isinstance(event, UsageSoFar):  # a reply came: its tokens are the growth of the task's
            now = (event.usage.prompt_tokens, event.usage.completion_tokens)
            if self.chat is not None:
                self.chat.set_attributes(_tokens(now, self.used))
                self.chat.end()
            self.chat, self.used, self.model_next = None, now, False
        elif isinstance(event, CallRequested):
            self.tools[event.call_id] = self._child(f"{Operation.EXECUTE_TOOL.value} {event.name}",
                                                    _tool_attributes(event, self.record_content))
        elif isinstance(event, CallAnswered) and (span := self.tools.pop(event.call_id, None)):
            if self.record_content:
                span.set_attribute(gen_ai.GEN_AI_TOOL_CALL_RESULT, event.content)
            if event.is_error:
                _failed(span, "refused" if event.result.refused_by else "tool_error")
            span.end()
            self.model_next = not self.tools
        elif isinstance(event, Status):  # the run's tokens, and why it did not complete, if it did not
            self.run.set_attributes(_tokens(self.used, self.start))
            for span in filter(None, (self.chat, self.run) if event.status != "completed" else ()):
                _failed(span, event.status.replace(" ", "_"), str(event.error))
            if self.chat is not None:
                self.chat.end()
            self.chat, self.model_next = None, False  # the last event: no request follows

    def close(self) -> None:
        """End every span; one still open was cut short (a cancel), and says so."""
        for span in [*self.tools.values(), *([self.chat] if self.chat else [])]:
            if span.is_recording():
                _failed(span, "cancelled")
                span.end()
        self.run.end()

    def _child(self, name: str, attributes: dict[str, Any]) -> Span:
        return self.tracer.start_span(name, context=trace.set_span_in_context(self.run), attributes=attributes)


def _tokens(now: tuple[int, int], before: tuple[int, int]) -> dict[str, int]:
    return {gen_ai.GEN_AI_USAGE_INPUT_TOKENS: now[0] - before[0], gen_ai.GEN_AI_USAGE_OUTPUT_TOKENS: now[1] - before[1]}


def openai_instrumented() -> bool:
    """Whether OpenTelemetry's OpenAI instrumentation is on (never imported here: it is the learner's choice)."""
    module = sys.modules.get("opentelemetry.instrumentation.genai.openai")
    return bool(module and module.OpenAIInstrumentor().is_instrumented_by_opentelemetry)


def _tool_attributes(event: CallRequested, record_content: bool) -> dict[str, Any]:
    attributes = {gen_ai.GEN_AI_OPERATION_NAME: Operation.EXECUTE_TOOL.value, gen_ai.GEN_AI_TOOL_NAME: event.name,
                  gen_ai.GEN_AI_TOOL_CALL_ID: event.call_id, gen_ai.GEN_AI_TOOL_TYPE: "function"}
    if record_content:  # opted in: the arguments may hold a path, a file's text, a secret
        attributes[gen_ai.GEN_AI_TOOL_CALL_ARGUMENTS] = event.arguments
    return attributes


def _failed(span: Span, kind: str, description: str | None = None) -> None:
    span.set_attribute(ERROR_TYPE, kind)
    span.set_status(StatusCode.ERROR, description)


async def record_attempt(response: Any) -> None:
    """An event hook of the `httpx2.AsyncClient` given to the SDK as `http_client`: each HTTP response, retries
    included, becomes an event on the current span (the request's `chat` span), with its status and which attempt it
    was (the retry count the SDK sends with every request)."""
    resent = int(response.request.headers.get("x-stainless-retry-count", "0"))
    trace.get_current_span().add_event("http.response", {HTTP_RESPONSE_STATUS_CODE: response.status_code,
                                                         HTTP_REQUEST_RESEND_COUNT: resent})


def span_tree(spans: Sequence[ReadableSpan], shown: dict[str, str] = SHOWN) -> str:
    """The spans as an indented tree, children under their parent in the order they started, with a few attributes
    and each span event: no ids, times or durations, so the same run prints the same tree."""
    children: dict[int | None, list[ReadableSpan]] = {}
    for span in sorted(spans, key=lambda span: span.start_time or 0):
        children.setdefault(span.parent.span_id if span.parent else None, []).append(span)
    lines: list[str] = []

    def draw(span: ReadableSpan, depth: int) -> None:
        values = [f"{short}={span.attributes[name]}" for name, short in shown.items() if name in (span.attributes or {})]
        lines.append("  " * depth + " ".join([span.name, *values]))
        lines.extend("  " * (depth + 1) + f"* {event.name} " + " ".join(f"{key.rsplit('.', 1)[-1]}={value}"
                                                                       for key, value in (event.attributes or {}).items())
                     for event in span.events)
        for child in children.get(span.context.span_id, []):
            draw(child, depth + 1)

    known = {span.context.span_id for span in spans}
    for root in [span for parent, group in children.items() if parent is None or parent not in known for span in group]:
        draw(root, 0)
    return "\n".join(lines)


def console_tracer(out: Any = None) -> tuple[trace.Tracer, Callable[[], None]]:
    """A tracer whose spans are printed to `out` (stderr) as they end, one line each and their events, and sent to an
    OTLP collector when OTEL_EXPORTER_OTLP_ENDPOINT names one; with the OpenAI instrumentation on where it is
    installed; and the function that flushes and stops them (`agentkit chat --trace`). Call it before the client's
    first request: the SDK keeps the methods it wraps from its first call on."""
    provider = TracerProvider()
    out = out or sys.stderr
    exporter = ConsoleSpanExporter(out=out, formatter=lambda span: "[trace] " + span_tree([span]) + "\n")
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    if os.environ.get(OTEL_EXPORTER_OTLP_ENDPOINT) or os.environ.get(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT):
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        except ImportError:
            print(f"[trace] {OTEL_EXPORTER_OTLP_ENDPOINT} is set, but the OTLP exporter is not installed: "
                  "pip install opentelemetry-exporter-otlp-proto-http; printing the spans only", file=out)
        else:
            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))  # it reads the endpoint itself
    instrumentor = _openai_instrumentor()
    if instrumentor is not None:
        instrumentor.instrument(tracer_provider=provider)

    def stop() -> None:
        if instrumentor is not None:
            instrumentor.uninstrument()
        provider.shutdown()  # sends what the batch still holds

    return provider.get_tracer("agentkit", schema_url=CONVENTIONS.value), stop


def _openai_instrumentor() -> Any:
    try:
        from opentelemetry.instrumentation.genai.openai import OpenAIInstrumentor
    except ImportError:  # without it, `traced` makes the chat spans itself
        return None
    return OpenAIInstrumentor()
