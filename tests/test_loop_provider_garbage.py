"""A provider that answers HTTP 200 with a body the loop cannot use, or fails on the network: the task fails
with a reason naming what was wrong, keeps a history the API accepts, and resumes once the provider is fine.

Every body goes through the real openai client, served by an in-process httpx2 transport.
"""

import asyncio
import json

import httpx2
import openai
import pytest

from agentkit.events import Status
from agentkit.loop import finish, run_task
from agentkit.offline import Faults, OfflineServer, ScriptedModel, call
from agentkit.offline.transport import OFFLINE_BASE_URL, offline_transport
from agentkit.task import ModelFailed
from agentkit.tools.registry import build_registry
from agentkit.tools.schema import tool

JSON = "application/json"


@tool
def note(text: str) -> str:
    """Write a note.

    Args:
        text: What to write.
    """
    return f"noted {text}"


REGISTRY = build_registry([note])


def completion(**fields):
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "offline", **fields}


def with_message(message):
    return completion(choices=[{"index": 0, "finish_reason": "stop", "message": message}])


def with_calls(tool_calls):
    return with_message({"role": "assistant", "content": None, "tool_calls": tool_calls})


def with_function(function):
    return with_calls([{"id": "call_1", "type": "function", "function": function}])


GARBAGE = {  # name: (body, content-type, words the task's error must contain)
    "choices empty": (completion(choices=[]), JSON, "choices: list should have at least 1 item"),
    "no choices": (completion(), JSON, "choices is missing or null"),
    "choices an object": (completion(choices={"message": "hi"}), JSON, "choices: input should be a valid list"),
    "an HTML page": ("<html><body>502 Bad Gateway</body></html>", "text/html",
                     "the body is text, not a JSON object: '<html><body>502 Bad Gateway</body></html>'"),
    "an empty body": ("", JSON, "its body (0 bytes, application/json) is not JSON"),
    "JSON cut short": ('{"choices": [', JSON, "is not JSON: JSONDecodeError"),
    "bytes that are not UTF-8": (b"\xff\xfe\xfd", JSON, "is not JSON"),
    "nested too deep to decode": ("[" * 100_000 + "]" * 100_000, JSON, "is not JSON: RecursionError"),
    "a JSON array": ([completion(choices=[])], JSON, "the body is a JSON array, not an object"),
    "a JSON string": ('"ok"', JSON, "the body is text, not a JSON object: 'ok'"),
    "a JSON number": ("5", JSON, "the body: input should be a valid dictionary or object to extract fields from; "
                                 "got 5"),
    "JSON null": ("null", JSON, "the body is missing or null"),
    "message null": (with_message(None), JSON, "choices[0].message is missing or null"),
    "message missing": (completion(choices=[{"index": 0}]), JSON, "choices[0].message is missing or null"),
    "choice not an object": (completion(choices=[5]), JSON, "choices[0]: input should be a valid dictionary"),
    "content not a string": (with_message({"role": "assistant", "content": ["hi"]}), JSON,
                             "choices[0].message.content: input should be a valid string; got ['hi']"),
    "tool_calls not a list": (with_calls({"id": "call_1"}), JSON, "choices[0].message.tool_calls: input should be "
                                                                 "a valid list"),
    "a tool call not an object": (with_calls(["note"]), JSON, "choices[0].message.tool_calls[0]: input should be"),
    "a tool call without id": (with_calls([{"type": "function", "function": {"name": "note", "arguments": "{}"}}]),
                               JSON, "choices[0].message.tool_calls[0].id is missing or null"),
    "an empty id": (with_calls([{"id": "", "type": "function", "function": {"name": "note", "arguments": "{}"}}]),
                    JSON, "choices[0].message.tool_calls[0].id: string should have at least 1 character"),
    "two calls with one id": (with_calls([{"id": "call_1", "type": "function",
                                           "function": {"name": "note", "arguments": '{"text": "a"}'}}] * 2), JSON,
                              "choices[0].message.tool_calls: each call needs its own id, but 'call_1' is used "
                              "more than once"),
    "a tool call without function": (with_calls([{"id": "call_1", "type": "function"}]), JSON,
                                     "choices[0].message.tool_calls[0].function is missing or null"),
    "a function without name": (with_function({"arguments": "{}"}), JSON,
                                "choices[0].message.tool_calls[0].function.name is missing or null"),
    "an empty name": (with_function({"name": "", "arguments": "{}"}), JSON,
                      "tool_calls[0].function.name: string should have at least 1 character"),
    "a name that is not a string": (with_function({"name": ["note"], "arguments": "{}"}), JSON,
                                    "tool_calls[0].function.name: input should be a valid string"),
    "arguments an object": (with_function({"name": "note", "arguments": {"text": "a"}}), JSON,
                            "tool_calls[0].function.arguments: input should be a valid string; got {'text': 'a'}"),
    "arguments a number": (with_function({"name": "note", "arguments": 3}), JSON,
                           "tool_calls[0].function.arguments: input should be a valid string; got 3"),
    # A reply with nothing in it is no answer: completing the task with "" would hide it, and the history would
    # hold an assistant message with neither text nor calls, which OpenAI refuses on the next request.
    "content null, no calls": (with_message({"role": "assistant", "content": None}), JSON,
                               "it holds neither text nor a tool call (finish_reason: stop)"),
    "content empty, no calls": (with_message({"role": "assistant", "content": " \n"}), JSON,
                                "it holds neither text nor a tool call (finish_reason: stop)"),
    "only thinking, cut off": (completion(choices=[{"index": 0, "finish_reason": "length", "message": {
        "role": "assistant", "content": None, "reasoning_content": "Hmm, " * 100}}]), JSON,
                               "neither text nor a tool call (finish_reason: length, after 500 characters of thinking)"),
    "usage not an object": ({**with_message({"role": "assistant", "content": "hi"}), "usage": "lots"}, JSON,
                            "usage: input should be a valid dictionary"),
    "a fractional token count": ({**with_message({"role": "assistant", "content": "hi"}),
                                  "usage": {"prompt_tokens": 1.5}}, JSON,
                                 "usage.prompt_tokens: input should be a valid integer, got a number with a "
                                 "fractional part; got 1.5"),
    "a negative token count": ({**with_message({"role": "assistant", "content": "hi"}),
                                "usage": {"prompt_tokens": 10, "completion_tokens": -3}}, JSON,
                               "usage.completion_tokens: input should be greater than or equal to 0; got -3"),
}


def serving(plan, model):
    """A real AsyncOpenAI client whose n-th request gets plan[n]: a (body, content-type) sent with HTTP 200, an
    httpx2.Response, an exception to raise in the transport, or None (and after the plan) the model's next reply."""
    fine = offline_transport(model)
    requests = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        requests.append(json.loads(request.content))
        planned = plan.pop(0) if plan else None
        if isinstance(planned, Exception):
            raise planned
        if planned is None:
            return fine.handler(request)
        if isinstance(planned, httpx2.Response):
            return planned
        body, content_type = planned
        if not isinstance(body, (bytes, str)):
            body = json.dumps(body)
        return httpx2.Response(200, content=body, headers={"content-type": content_type})

    client = openai.AsyncOpenAI(api_key="k", base_url=OFFLINE_BASE_URL, max_retries=0,
                                http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(answer)))
    return client, requests


def nobody(question):
    raise AssertionError(f"nobody should be asked anything, but was asked {question!r}")


async def fail_then_resume(planned, stream: bool = False):
    """One good turn (a tool call), then the planned failure, then a resumed run against a provider that is fine."""
    model = ScriptedModel([call("note", text="a"), "done at last"])
    client, requests = serving([None, planned], model)
    events = []
    task = await finish(run_task(client, "offline", "take a note", REGISTRY, ask=nobody,
                          stream=stream), on_event=events.append)
    failed = (task.status, str(task.error), [m["role"] for m in task.messages], task.turns, events[-1])
    kept = json.loads(json.dumps(task.messages))
    await finish(run_task(client, "offline", "", REGISTRY, task=task, ask=nobody, stream=stream))
    return failed, kept, task, requests


@pytest.mark.parametrize("name", GARBAGE)
def test_an_unusable_reply_fails_the_task_naming_the_problem_and_the_task_resumes(name):
    body, content_type, named = GARBAGE[name]
    (status, error, roles, turns, last_event), kept, task, requests = asyncio.run(
        fail_then_resume((body, content_type)))
    assert status == "failed"
    assert error.startswith("the model's reply could not be used: ") and named in error, error
    assert len(error) < 400  # a huge body is quoted cut, not whole
    assert last_event == Status(ModelFailed("unusable", error.split(": ", 1)[1]), task)
    assert roles == ["user", "assistant", "tool"] and turns == 1  # nothing of the unusable reply was kept
    # Resumed: the same messages are sent again, unchanged, and the provider's good reply completes the task.
    assert requests[2]["messages"] == kept
    assert (task.status, task.answer, task.error) == ("completed", "done at last", None)
    assert [m["role"] for m in task.messages] == ["user", "assistant", "tool", "assistant"]


@pytest.mark.parametrize("failure, named", [
    (httpx2.ConnectError("connection refused"), "APIConnectionError"),
    (httpx2.ReadTimeout("read timed out"), "APITimeoutError"),
    (httpx2.RemoteProtocolError("server disconnected without sending a response"), "APIConnectionError"),
])
def test_a_network_failure_fails_the_task_and_the_task_resumes(failure, named):
    (status, error, roles, turns, _), kept, task, requests = asyncio.run(fail_then_resume(failure))
    assert status == "failed" and error.startswith(f"the model request failed: {named}: "), error
    assert roles == ["user", "assistant", "tool"]
    assert requests[2]["messages"] == kept and task.status == "completed"


def test_an_error_status_with_a_garbage_body_fails_the_task():
    too_many = httpx2.Response(429, content=b"<html>slow down</html>", headers={"content-type": "text/html"})
    (status, error, roles, _, _), kept, task, requests = asyncio.run(fail_then_resume(too_many))
    assert status == "failed" and error.startswith("the model request failed: RateLimitError: "), error
    assert roles == ["user", "assistant", "tool"]
    assert requests[2]["messages"] == kept and task.status == "completed"


# ---- the same, streamed (as `agentkit web` and `agentkit chat` ask): a stream breaks in ways a body cannot ----

SSE = "text/event-stream"


def events(*chunks, done: bool = True) -> str:
    """A server-sent event stream: one `data:` line a chunk (a dict as JSON, a str as it is), then [DONE]."""
    lines = [f"data: {chunk if isinstance(chunk, str) else json.dumps(chunk)}\n\n" for chunk in chunks]
    return "".join(lines) + ("data: [DONE]\n\n" if done else "")


def chunk(delta: object = None, finish_reason: str | None = None, **fields) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "offline",
            "choices": [{"index": 0, "delta": {} if delta is None else delta, "finish_reason": finish_reason}],
            **fields}


def call_part(**part) -> dict:
    return chunk({"tool_calls": [part]})


NOTE = {"name": "note", "arguments": '{"text": "b"}'}
STREAM_GARBAGE = {  # name: (body, content-type, words the task's error must contain)
    "an HTML page": ("<html><body>502 Bad Gateway</body></html>", "text/html",
                     "its body (text/html) held no stream event"),
    "no event at all": (events(), SSE, "its body (text/event-stream) held no stream event"),
    "cut before the end": (events(chunk({"content": "Hal"}), done=False), SSE,
                           "the stream ended without a finish_reason (chunks received: 1): it was cut short"),
    "no finish_reason, [DONE] sent": (events(chunk({"content": "Hal"}), {"choices": [], "usage": {
        "prompt_tokens": 1, "completion_tokens": 1}}), SSE, "the stream ended without a finish_reason (chunks "
                                                                 "received: 2)"),
    "content null, no calls": (events(chunk({"role": "assistant", "content": None}), chunk(finish_reason="stop")),
                               SSE, "it holds neither text nor a tool call (finish_reason: stop)"),
    "only thinking, cut off": (events(chunk({"reasoning_content": "Hmm"}), chunk(finish_reason="length")), SSE,
                               "neither text nor a tool call (finish_reason: length, after 3 characters of thinking)"),
    "an event that is not JSON": (events(chunk({"content": "Hal"}), "{not json"), SSE,
                                  "a stream event is not JSON: Expecting property name"),
    "a chunk that is a list": (events([1, 2]), SSE, "chunk 1 of the stream: the chunk: input should be a valid "
                                                    "dictionary"),
    "a chunk that is null": (events("null"), SSE, "chunk 1 of the stream: the chunk is missing or null"),
    "choices an object": (events({"choices": {"index": 0}}), SSE, "chunk 1 of the stream: choices: input should "
                                                                  "be a valid list"),
    "a delta that is text": (events(chunk("hi")), SSE, "chunk 1 of the stream: choices[0].delta: input should be"),
    "content a number": (events(chunk({"content": "x"}), chunk({"content": 5}, "stop")), SSE,
                         "chunk 2 of the stream: choices[0].delta.content: input should be a valid string; got 5"),
    "tool_calls an object": (events(chunk({"tool_calls": {"index": 0}}, "tool_calls")), SSE,
                             "choices[0].delta.tool_calls: input should be a valid list"),
    "a function that is text": (events(call_part(index=0, id="call_2", function="note")), SSE,
                                "choices[0].delta.tool_calls[0].function: input should be a valid dictionary"),
    "a name that is not a string": (events(call_part(index=0, id="call_2", function={"name": 5})), SSE,
                                    "delta.tool_calls[0].function.name: input should be a valid string; got 5"),
    "a name that is null": (events(call_part(index=0, id="call_2", function={"name": None, "arguments": "{}"}),
                                   chunk(finish_reason="tool_calls")), SSE,
                            "choices[0].message.tool_calls[0].function.name: string should have at least 1 character"),
    "arguments an object": (events(call_part(index=0, id="call_2", function={"name": "note", "arguments": {"a": 1}})),
                            SSE, "delta.tool_calls[0].function.arguments: input should be a valid string; got {'a': 1}"),
    "a call without id": (events(call_part(index=0, function=NOTE), chunk(finish_reason="tool_calls")), SSE,
                          "choices[0].message.tool_calls[0].id: string should have at least 1 character"),
    "two calls with one id": (events(call_part(index=0, id="call_2", function=NOTE),
                                     call_part(index=1, id="call_2", function=NOTE), chunk(finish_reason="tool_calls")),
                              SSE, "each call needs its own id, but 'call_2' is used more than once"),
    "an index that is not a number": (events(call_part(index="first", id="call_2", function=NOTE)), SSE,
                                      "delta.tool_calls[0].index: input should be a valid integer"),
    "usage text": (events(chunk({"content": "hi"}, "stop"), {"choices": [], "usage": "lots"}), SSE,
                   "usage: input should be a valid dictionary"),
    "usage counts that are not numbers": (
        events(chunk({"content": "hi"}, "stop"), {"choices": [], "usage": {"prompt_tokens": "many"}}), SSE,
        "usage.prompt_tokens: input should be a valid integer"),
    "a negative token count": (events(chunk({"content": "hi"}, "stop"), {"choices": [], "usage": {"prompt_tokens": -1}}),
                               SSE, "usage.prompt_tokens: input should be greater than or equal to 0; got -1"),
}


@pytest.mark.parametrize("name", STREAM_GARBAGE)
def test_an_unusable_stream_fails_the_task_naming_the_problem_and_the_task_resumes(name):
    body, content_type, named = STREAM_GARBAGE[name]
    (status, error, roles, turns, last_event), kept, task, requests = asyncio.run(
        fail_then_resume((body, content_type), stream=True))
    assert status == "failed"
    assert error.startswith("the model's reply could not be used: ") and named in error, error
    assert last_event == Status(ModelFailed("unusable", error.split(": ", 1)[1]), task)
    assert roles == ["user", "assistant", "tool"] and turns == 1  # nothing of the unusable stream was kept
    assert requests[2]["messages"] == kept
    assert (task.status, task.answer) == ("completed", "done at last")


class CutStream(httpx2.AsyncByteStream):
    """A stream whose connection drops after its first chunk."""

    async def __aiter__(self):
        yield events(chunk({"content": "Hal"}), done=False).encode()
        raise httpx2.RemoteProtocolError("peer closed connection without sending complete message body")


def test_a_stream_whose_connection_drops_fails_the_task_and_the_task_resumes():
    dropped = httpx2.Response(200, stream=CutStream(), headers={"content-type": SSE})
    (status, error, roles, _, _), kept, task, requests = asyncio.run(fail_then_resume(dropped, stream=True))
    assert status == "failed" and error.startswith("the model request failed: APIConnectionError"), error
    assert roles == ["user", "assistant", "tool"]
    assert requests[2]["messages"] == kept and task.status == "completed"


@pytest.mark.parametrize("name, chunks", [
    ("indexes out of order", [call_part(index=1, id="call_3", function={"name": "note", "arguments": '{"text": "c"}'}),
                              call_part(index=0, id="call_2", function=NOTE)]),
    ("fields nobody knows", [call_part(index=0, id="call_2", function={**NOTE, "strict": True}, type="function",
                                       surprise=[1]),
                             chunk({"tool_calls": [{"index": 1, "id": "call_3", "function": {
                                 "name": "note", "arguments": '{"text": "c"}'}}], "audio": None}, logprobs={})]),
])
def test_a_stream_with_odd_but_valid_chunks_is_read(name, chunks):
    body = events(*chunks, chunk(finish_reason="tool_calls"))
    (status, error, roles, _, _), kept, _, _ = asyncio.run(fail_then_resume((body, SSE), stream=True))
    assert status == "completed", error
    results = {m["tool_call_id"]: m["content"] for m in kept if m["role"] == "tool"}
    assert {key: results[key] for key in ("call_2", "call_3")} == {"call_2": "noted b", "call_3": "noted c"}


def test_a_stream_that_stalls_fails_by_the_clients_timeout_instead_of_hanging():
    with OfflineServer(faults=Faults(chunk_delay=2.0)) as server:  # a chunk every 2 s; the client waits 0.3 s
        client = openai.AsyncOpenAI(api_key="k", base_url=server.base_url, max_retries=0, timeout=0.3)
        task = asyncio.run(finish(run_task(client, "offline", "What can you do?", REGISTRY, ask=nobody, stream=True)))
    assert (task.status, task.error) == ("failed", ModelFailed("unreachable", "APITimeoutError: Request timed out."))
    assert [m["role"] for m in task.messages] == ["user"]
