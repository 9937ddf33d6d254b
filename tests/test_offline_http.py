"""The real openai client, sync and async, against the in-process transport and the HTTP server on 127.0.0.1."""

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import openai
import pytest

from agentkit.offline import Faults, OfflineModel, OfflineServer, ScriptedModel, call, offline_client

CLOCK = {"type": "function", "function": {
    "name": "get_current_time", "description": "Get the current time in a time zone.",
    "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}}}
TIME_QUESTION = [{"role": "user", "content": "What time is it in Tokyo and in Paris?"}]
TWO_CALLS = [("get_current_time", '{"timezone": "Asia/Tokyo"}'), ("get_current_time", '{"timezone": "Europe/Paris"}')]
PARIS = "The capital of France is Paris."
CAPITAL_QUESTION = [{"role": "user", "content": "What is the capital of France?"}]


class CountingModel:
    """The offline model, counting the requests that reach it (faults answer before the model is asked)."""

    def __init__(self):
        self.model, self.requests = OfflineModel(), 0

    def respond(self, request):
        self.requests += 1
        return self.model.respond(request)


def quiet(running):
    """Keep clients that hang up (a timeout, a stream closed before its last bytes) out of the test output.

    The server reports them as errors with a traceback on stderr; any other error is still reported.
    """
    report = running.httpd.handle_error

    def handle_error(request, address):
        error = sys.exc_info()[0]
        if not issubclass(error, (BrokenPipeError, ConnectionResetError)):
            report(request, address)

    running.httpd.handle_error = handle_error
    return running


@pytest.fixture(scope="module")
def server():
    with quiet(OfflineServer()) as running:
        yield quiet(running)


@pytest.fixture(params=["in-process", "http"])
def where(request, server):
    return None if request.param == "in-process" else server.base_url


def sync_client(base_url, **options):
    if base_url is None:
        return offline_client(sync=True)
    return openai.OpenAI(api_key="offline", base_url=base_url, max_retries=options.pop("max_retries", 0), **options)


def async_client(base_url, **options):
    if base_url is None:
        return offline_client()
    return openai.AsyncOpenAI(api_key="offline", base_url=base_url, max_retries=options.pop("max_retries", 0), **options)


def summary(response):
    message = response.choices[0].message
    made = [(c.function.name, c.function.arguments) for c in message.tool_calls or []]
    return message.content, made, response.choices[0].finish_reason


def reassemble(chunks):
    """Text, tool calls and finish reason put back together from stream chunks, and the usage chunk if any."""
    text, calls, finish, usage = "", {}, None, None
    for chunk in chunks:
        usage = chunk.usage or usage
        for choice in chunk.choices:
            text += choice.delta.content or ""
            for piece in choice.delta.tool_calls or []:
                entry = calls.setdefault(piece.index, {"id": None, "name": "", "arguments": ""})
                entry["id"] = piece.id or entry["id"]
                entry["name"] += (piece.function.name or "") if piece.function else ""
                entry["arguments"] += (piece.function.arguments or "") if piece.function else ""
            finish = choice.finish_reason or finish
    made = [(calls[i]["name"], calls[i]["arguments"]) for i in sorted(calls)]
    return text or None, made, finish, usage


# Non-streaming and streaming, both clients, both paths

def test_sync_client_text_and_tool_calls(where):
    client = sync_client(where)
    assert summary(client.chat.completions.create(model="offline", messages=CAPITAL_QUESTION)) == (PARIS, [], "stop")
    tools = client.chat.completions.create(model="offline", messages=TIME_QUESTION, tools=[CLOCK])
    assert summary(tools) == (None, TWO_CALLS, "tool_calls")
    assert tools.usage.approximate is True


@pytest.mark.anyio
async def test_async_client_text_and_tool_calls(where):
    # Closed on this test's event loop: an open HTTP client would be closed later, on a loop that is gone.
    async with async_client(where) as client:
        text = await client.chat.completions.create(model="offline", messages=CAPITAL_QUESTION)
        tools = await client.chat.completions.create(model="offline", messages=TIME_QUESTION, tools=[CLOCK])
    assert summary(text) == (PARIS, [], "stop")
    assert summary(tools) == (None, TWO_CALLS, "tool_calls")


def test_in_process_and_http_give_the_identical_response(server):
    request = dict(model="offline", messages=TIME_QUESTION, tools=[CLOCK])
    in_process = offline_client(sync=True).chat.completions.create(**request)
    over_http = sync_client(server.base_url).chat.completions.create(**request)
    assert in_process.model_dump() == over_http.model_dump()


@pytest.mark.parametrize(("messages", "tools"), [(CAPITAL_QUESTION, None), (TIME_QUESTION, [CLOCK])], ids=["text", "tool calls"])
def test_sync_stream_reassembles_to_the_same_reply(where, messages, tools):
    client = sync_client(where)
    extra = {"tools": tools} if tools else {}
    whole = client.chat.completions.create(model="offline", messages=messages, **extra)
    chunks = list(client.chat.completions.create(model="offline", messages=messages, stream=True,
                                                 stream_options={"include_usage": True}, **extra))
    content, made, finish, usage = reassemble(chunks)
    assert (content, made, finish) == summary(whole)
    assert len(chunks) > 3  # really streamed in pieces, not one chunk
    assert chunks[-1].choices == [] and usage.model_dump() == whole.usage.model_dump()


@pytest.mark.anyio
@pytest.mark.parametrize(("messages", "tools"), [(CAPITAL_QUESTION, None), (TIME_QUESTION, [CLOCK])], ids=["text", "tool calls"])
async def test_async_stream_reassembles_to_the_same_reply(where, messages, tools):
    extra = {"tools": tools} if tools else {}
    async with async_client(where) as client:
        whole = await client.chat.completions.create(model="offline", messages=messages, **extra)
        stream = await client.chat.completions.create(model="offline", messages=messages, stream=True, **extra)
        chunks = [chunk async for chunk in stream]
    content, made, finish, usage = reassemble(chunks)
    assert (content, made, finish) == summary(whole)
    assert usage is None  # no include_usage, no usage chunk


def test_stream_text_deltas_are_word_pieces(where):
    chunks = list(sync_client(where).chat.completions.create(model="offline", messages=CAPITAL_QUESTION, stream=True))
    pieces = [c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content]
    assert pieces == ["The ", "capital ", "of ", "France ", "is ", "Paris."]
    assert chunks[0].choices[0].delta.role == "assistant"


def test_stream_honours_stop_and_max_tokens(where):
    client = sync_client(where)
    stream = client.chat.completions.create(model="offline", messages=CAPITAL_QUESTION, stream=True, max_tokens=2)
    assert reassemble(stream)[:3] == ("The capi", [], "length")


def test_stream_helper_final_message_equals_the_unstreamed_one(where):
    client = sync_client(where)
    whole = client.chat.completions.create(model="offline", messages=TIME_QUESTION, tools=[CLOCK])
    with client.chat.completions.stream(model="offline", messages=TIME_QUESTION, tools=[CLOCK]) as stream:
        final = stream.get_final_completion()
    assert final.choices[0].message.content == whole.choices[0].message.content


def test_models_endpoint(where):
    assert [m.id for m in sync_client(where).models.list()] == ["offline"]


def test_scripted_model_through_the_server():
    script = ScriptedModel([call("get_current_time", timezone="UTC"), "It is noon."])
    with quiet(OfflineServer(script)) as running:
        client = sync_client(running.base_url)
        first = client.chat.completions.create(model="m", messages=CAPITAL_QUESTION, tools=[CLOCK])
        second = client.chat.completions.create(model="m", messages=CAPITAL_QUESTION)
    assert summary(first) == (None, [("get_current_time", '{"timezone": "UTC"}')], "tool_calls")
    assert summary(second) == ("It is noon.", [], "stop")
    assert [r["messages"] for r in script.requests] == [CAPITAL_QUESTION, CAPITAL_QUESTION]


def test_http_errors_are_json_in_the_api_format(server):
    def post(body):
        request = urllib.request.Request(server.base_url + "/chat/completions", data=body, method="POST",
                                         headers={"content-type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as raised:
            urllib.request.urlopen(request, timeout=5)
        return raised.value.code, json.loads(raised.value.read())["error"]

    assert post(b"{not json")[0] == 400
    status, error = post(json.dumps({"messages": CAPITAL_QUESTION}).encode())
    assert (status, error["message"], error["param"]) == (400, "you must provide a model parameter", "model")
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(server.base_url + "/embeddings", timeout=5)
    assert raised.value.code == 404
    message = json.loads(raised.value.read())["error"]["message"]
    assert "this server has POST /v1/chat/completions, POST /v1/responses, GET /v1/models and GET /v1/models/{id}" in message


# Fault injection: what the SDK does with it

def test_429_once_is_retried_by_the_sdk_and_succeeds():
    model, faults = CountingModel(), Faults(status=429, times=1)
    with quiet(OfflineServer(model, faults)) as running:
        response = sync_client(running.base_url, max_retries=1).chat.completions.create(model="m", messages=CAPITAL_QUESTION)
    assert summary(response) == (PARIS, [], "stop")
    assert (faults._failed, model.requests) == (1, 1)  # two requests reached the server: one 429, one answered


@pytest.mark.anyio
async def test_429_once_is_retried_by_the_async_sdk():
    model, faults = CountingModel(), Faults(status=429, times=1)
    with quiet(OfflineServer(model, faults)) as running:
        async with async_client(running.base_url, max_retries=2) as client:
            response = await client.chat.completions.create(model="m", messages=CAPITAL_QUESTION)
    assert summary(response)[0] == PARIS
    assert (faults._failed, model.requests) == (1, 1)


def test_429_without_retries_is_a_rate_limit_error():
    with quiet(OfflineServer(faults=Faults(status=429, times=1))) as running:
        with pytest.raises(openai.RateLimitError, match="injected fault 1: HTTP 429"):
            sync_client(running.base_url, max_retries=0).chat.completions.create(model="m", messages=CAPITAL_QUESTION)


def test_persistent_500_surfaces_as_the_sdk_error_after_the_retries():
    model, faults = CountingModel(), Faults(status=500, times=-1)
    with quiet(OfflineServer(model, faults)) as running:
        with pytest.raises(openai.InternalServerError) as raised:
            sync_client(running.base_url, max_retries=2).chat.completions.create(model="m", messages=CAPITAL_QUESTION)
    assert raised.value.status_code == 500
    assert raised.value.body["type"] == "server_error"
    assert (faults._failed, model.requests) == (3, 0)  # one try and two retries, none reached the model


def test_slow_reply_with_a_short_timeout_is_a_timeout_error():
    # The timed-out client hangs up, so the server's late write fails: quiet() keeps that out of the output.
    with quiet(OfflineServer(faults=Faults(delay=0.6))) as running:
        client = sync_client(running.base_url, timeout=0.1, max_retries=0)
        with pytest.raises(openai.APITimeoutError):
            client.chat.completions.create(model="m", messages=CAPITAL_QUESTION)
        # A patient client gets the answer from the same slow server (and the first handler finishes meanwhile).
        patient = sync_client(running.base_url, timeout=5)
        assert summary(patient.chat.completions.create(model="m", messages=CAPITAL_QUESTION))[0] == PARIS


# `python -m agentkit.offline` as a real process

def wait_until_serving(url, process, seconds=20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode}: {process.stderr.read()}")
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                return json.loads(answer.read())
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing answered at {url} within {seconds} s")


def test_python_m_agentkit_offline_serves_a_real_request():
    process = subprocess.Popen([sys.executable, "-m", "agentkit.offline", "--port", "0"],  # 0: any free port
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        banner = process.stdout.readline()
        base_url = re.search(r"http://127\.0\.0\.1:\d+/v1", banner)[0]
        assert wait_until_serving(base_url + "/models", process)["data"][0]["id"] == "offline"
        response = sync_client(base_url, timeout=10).chat.completions.create(model="offline", messages=TIME_QUESTION,
                                                                            tools=[CLOCK])
        assert summary(response) == (None, TWO_CALLS, "tool_calls")
    finally:
        process.terminate()
        try:
            out, _ = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            out, _ = process.communicate(timeout=10)
    assert banner + out == f"Offline model serving at {base_url} (BASE_URL for any OpenAI client). Ctrl-C stops it.\n"
