"""Chapter 15: a task's events as OpenTelemetry spans (`agentkit.beyond.tracing`), offline."""

import asyncio
import sys

import httpx2
import openai
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as gen_ai
from opentelemetry.semconv.attributes.error_attributes import ERROR_TYPE
from opentelemetry.trace import StatusCode

from agentkit.beyond.tracing import record_attempt, span_tree, traced
from agentkit.events import finish
from agentkit.loop import run_task
from agentkit.offline import Faults, OfflineServer, ScriptedModel, call, offline_client
from agentkit.tools import build_registry
from agentkit.tools.clock import clock_tool

CLOCK = build_registry([clock_tool()])
TWO_CITIES = "What time is it in Tokyo and in Lima?"


@pytest.fixture
def spans():
    """A tracer of its own and the list its spans end up in."""
    exporter, provider = InMemorySpanExporter(), TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider.get_tracer("test"), exporter


def by_operation(exporter, name):
    return [span for span in exporter.get_finished_spans() if span.attributes[gen_ai.GEN_AI_OPERATION_NAME] == name]


def test_a_task_is_one_invoke_agent_span_with_a_chat_span_per_request_and_a_tool_span_per_call(spans):
    tracer, exporter = spans
    seen = []
    task = asyncio.run(finish(traced(run_task(offline_client(), "offline", TWO_CITIES, CLOCK), tracer, model="offline",
                                     chat_spans=True), seen.append))
    assert [event.kind for event in seen][-1] == "status" and task.status == "completed", "the events pass unchanged"
    [run] = by_operation(exporter, "invoke_agent")
    chats, tools = by_operation(exporter, "chat"), by_operation(exporter, "execute_tool")
    assert len(chats) == task.turns == 2
    calls = [c for m in task.messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    assert sorted(span.attributes[gen_ai.GEN_AI_TOOL_CALL_ID] for span in tools) == sorted(c["id"] for c in calls)
    assert {span.name for span in tools} == {"execute_tool get_current_time"}
    assert all(span.parent.span_id == run.context.span_id for span in chats + tools)
    assert sum(span.attributes[gen_ai.GEN_AI_USAGE_INPUT_TOKENS] for span in chats) == task.usage.prompt_tokens
    assert run.attributes[gen_ai.GEN_AI_USAGE_OUTPUT_TOKENS] == task.usage.completion_tokens
    assert chats[1].attributes[gen_ai.GEN_AI_USAGE_INPUT_TOKENS] > chats[0].attributes[gen_ai.GEN_AI_USAGE_INPUT_TOKENS]


def test_arguments_and_results_are_recorded_only_when_asked(spans):
    tracer, exporter = spans
    for record in (False, True):
        exporter.clear()
        asyncio.run(finish(traced(run_task(offline_client(), "offline", TWO_CITIES, CLOCK), tracer, model="offline",
                                  record_content=record)))
        for span in by_operation(exporter, "execute_tool"):
            kept = {gen_ai.GEN_AI_TOOL_CALL_ARGUMENTS, gen_ai.GEN_AI_TOOL_CALL_RESULT} & set(span.attributes)
            assert bool(kept) == record, (record, dict(span.attributes))
            if record:
                assert "timezone" in span.attributes[gen_ai.GEN_AI_TOOL_CALL_ARGUMENTS]


def test_a_failed_request_marks_its_chat_span_and_the_run_and_a_resumed_run_counts_only_its_own_tokens(spans):
    tracer, exporter = spans
    model = ScriptedModel([call("get_current_time", timezone="UTC"), 500, "It is noon."])
    client = offline_client(model)
    task = asyncio.run(finish(traced(run_task(client, "offline", "time?", CLOCK), tracer, model="m", chat_spans=True)))
    assert task.status == "failed"
    run = by_operation(exporter, "invoke_agent")[0]
    failed = by_operation(exporter, "chat")[-1]
    for span in (run, failed):
        assert span.status.status_code == StatusCode.ERROR and span.attributes[ERROR_TYPE] == "failed"
    before = task.usage.prompt_tokens
    exporter.clear()
    task = asyncio.run(finish(traced(run_task(client, "offline", "", CLOCK, task=task), tracer, model="m", task=task,
                                     chat_spans=True)))
    [resumed] = by_operation(exporter, "invoke_agent")
    assert task.status == "completed" and resumed.status.status_code == StatusCode.UNSET
    assert resumed.attributes[gen_ai.GEN_AI_USAGE_INPUT_TOKENS] == task.usage.prompt_tokens - before


def test_a_tool_error_marks_its_span():
    exporter, provider = InMemorySpanExporter(), TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    model = ScriptedModel([call("get_current_time", timezone="Mars/Olympus"), "No such zone."])
    asyncio.run(finish(traced(run_task(offline_client(model), "offline", "time?", CLOCK), provider.get_tracer("t"),
                              model="m")))
    [tool] = by_operation(exporter, "execute_tool")
    assert tool.status.status_code == StatusCode.ERROR and tool.attributes[ERROR_TYPE] == "tool_error"


def test_stopping_early_still_ends_every_span(spans):
    tracer, exporter = spans

    async def stop_at_the_first_call():
        events = traced(run_task(offline_client(), "offline", TWO_CITIES, CLOCK), tracer, model="offline")
        async for event in events:
            if event.kind == "tool_call":
                await events.aclose()  # what a front end's Ctrl-C does to the stream
                return

    asyncio.run(stop_at_the_first_call())
    ended = exporter.get_finished_spans()
    assert {span.attributes[gen_ai.GEN_AI_OPERATION_NAME] for span in ended} == {"invoke_agent", "chat", "execute_tool"}
    assert [span.attributes.get(ERROR_TYPE) for span in by_operation(exporter, "execute_tool")] == ["cancelled"]


def test_the_sdks_retries_are_events_on_one_chat_span(spans):
    tracer, exporter = spans

    async def ask(server):
        client = openai.AsyncOpenAI(api_key="k", base_url=server.base_url, max_retries=2,
                                    http_client=httpx2.AsyncClient(event_hooks={"response": [record_attempt]}))
        return await finish(traced(run_task(client, "offline", "What time is it in Tokyo?", CLOCK), tracer,
                                   model="offline", chat_spans=True))

    with OfflineServer(faults=Faults(status=429, times=2)) as server:
        assert asyncio.run(ask(server)).status == "completed"
    first = by_operation(exporter, "chat")[0]
    assert [(event.attributes["http.response.status_code"], event.attributes["http.request.resend_count"])
            for event in first.events] == [(429, 0), (429, 1), (200, 2)]


def test_with_the_openai_instrumentation_on_its_chat_spans_sit_under_the_run_and_traced_makes_none(spans):
    from opentelemetry.instrumentation.genai.openai import OpenAIInstrumentor

    tracer, exporter = spans
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    OpenAIInstrumentor().instrument(tracer_provider=provider)
    try:
        client = offline_client()  # made after: its requests are traced
        task = asyncio.run(finish(traced(run_task(client, "offline", TWO_CITIES, CLOCK), tracer, model="offline")))
    finally:
        OpenAIInstrumentor().uninstrument()
    [run], chats = by_operation(exporter, "invoke_agent"), by_operation(exporter, "chat")
    assert len(chats) == task.turns, "one chat span per request, the instrumentation's only"
    assert all(span.parent.span_id == run.context.span_id for span in chats)
    assert all(span.attributes[gen_ai.GEN_AI_RESPONSE_ID].startswith("chatcmpl-") for span in chats)


def test_the_span_tree_shows_no_ids_of_spans_nor_times_and_is_the_same_for_the_same_run(spans):
    tracer, exporter = spans
    trees = []
    for _ in range(2):
        exporter.clear()
        asyncio.run(finish(traced(run_task(offline_client(), "offline", TWO_CITIES, CLOCK), tracer, model="offline",
                                  chat_spans=True)))
        trees.append(span_tree(exporter.get_finished_spans()))
    assert trees[0] == trees[1]
    lines = trees[0].splitlines()
    assert lines[0].startswith("invoke_agent agentkit in=") and lines[1].startswith("  chat offline in=")
    assert sum(line.startswith("  execute_tool get_current_time id=call_") for line in lines) == 2


def test_agentkit_chat_trace_prints_the_spans_of_a_real_session(tmp_path):
    from test_cli_chat import ask, start_chat

    child = start_chat(tmp_path, "--trace")
    printed = ask(child, "What time is it in Tokyo?")
    for line in ("[trace] execute_tool get_current_time id=call_", "[trace] chat offline in=",
                 "[trace] invoke_agent agentkit in="):
        assert line in printed, printed
    assert printed.index("[trace] invoke_agent") > printed.index("agent> "), "the task's span ends with the task"
    child.sendline("/exit")
    child.expect_exact("bye")


def test_import_agentkit_does_not_load_tracing():
    import subprocess

    script = "import sys, agentkit; print(any(m.startswith(('opentelemetry', 'agentkit.beyond')) for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.strip() == "False"


def test_agentkit_chat_trace_sends_the_spans_to_the_otlp_collector_the_environment_names(tmp_path):
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http")
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from threading import Thread

    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
    from test_cli_chat import ask, start_chat
    from test_cli_chat import finish as chat_ended

    received = []

    class Collector(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            request = ExportTraceServiceRequest.FromString(self.rfile.read(int(self.headers["content-length"])))
            received.extend((self.path, span.name) for resource in request.resource_spans
                            for scope in resource.scope_spans for span in scope.spans)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    with ThreadingHTTPServer(("127.0.0.1", 0), Collector) as collector:
        Thread(target=collector.serve_forever, daemon=True).start()
        child = start_chat(tmp_path, "--trace", OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{collector.server_port}")
        ask(child, "What time is it in Tokyo?")
        child.sendline("/exit")
        child.expect_exact("bye")
        assert chat_ended(child) == 0
        collector.shutdown()
    names = {name for path, name in received if path == "/v1/traces"}
    assert {"invoke_agent agentkit", "chat offline", "execute_tool get_current_time"} <= names, received
