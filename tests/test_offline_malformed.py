"""The offline server as a careless or hostile client sees it: every malformed request gets a 4xx in the API's JSON.

Never a 500, an HTML page, a dropped connection or a hang. The byte-level cases go through raw sockets, since
well-behaved clients (the SDK, urllib) cannot send them.
"""

import http.client
import json
import socket

import openai
import pytest

from agentkit.offline import EmittedCall, OfflineModel, OfflineServer, Reply
from agentkit.offline.protocol import handle

USER = [{"role": "user", "content": "What is the capital of France?"}]
TOOL = {"type": "function", "function": {"name": "get_current_time", "parameters": {"type": "object"}}}
CALLED = {"role": "assistant", "content": None,
          "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}


@pytest.fixture(scope="module")
def server():
    with OfflineServer(body_timeout=0.5) as running:
        yield running


def request_with(**changes):
    return json.dumps({"model": "offline", "messages": USER} | changes).encode()


def answer(status, body):
    error = json.loads(body)["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["type"] == ("invalid_request_error" if status < 500 else "server_error")
    return status, error


def over_http(server, method, path, body=b"", headers=None):
    """One request with http.client; a dropped connection or a hang fails the test (10 s socket timeout)."""
    host, port = server.httpd.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {"content-type": "application/json"})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def raw(server, data: bytes):
    """Send bytes as they are and read the reply; the server must answer, not drop or hang."""
    with socket.create_connection(server.httpd.server_address[:2], timeout=10) as sock:
        sock.sendall(data)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, dict(response.getheaders()), response.read()


# Bodies that are JSON but not a request: the same 400 in-process and over HTTP

BAD_REQUESTS = {
    "invalid JSON": (b"{not json", None),
    "not UTF-8": (b'{"model": "\xff"}', None),
    "not an object": (b"[]", None),
    "model null": (request_with(model=None), "model"),
    "model a number": (request_with(model=5), "model"),
    "messages a string": (request_with(messages="hi"), "messages"),
    "messages empty": (request_with(messages=[]), "messages"),
    "message a number": (request_with(messages=[1]), "messages[0]"),
    "message without role": (request_with(messages=[{"content": "hi"}]), "messages[0].role"),
    "content a number": (request_with(messages=[{"role": "user", "content": 5}]), "messages[0].content"),
    "content part a string": (request_with(messages=[{"role": "user", "content": ["hi"]}]), "messages[0].content[0]"),
    "tool call without id": (request_with(messages=[*USER, {"role": "assistant", "tool_calls": [{"function": {}}]}]),
                             "messages[1].tool_calls[0].type"),
    "tool call arguments an object": (request_with(messages=[*USER, {"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": {}}}]}]),
        "messages[1].tool_calls[0].function.arguments"),
    "tool_calls an object": (request_with(messages=[*USER, {"role": "assistant", "tool_calls": {}}]),
                             "messages[1].tool_calls"),
    "tool answer without id": (request_with(messages=[*USER, CALLED, {"role": "tool", "content": "x"}]),
                               "messages[2].tool_call_id"),
    "tools a string": (request_with(tools="get_current_time"), "tools"),
    "tools item a string": (request_with(tools=["get_current_time"]), "tools[0]"),
    "tool without function": (request_with(tools=[{"type": "function"}]), "tools[0].function"),
    "tool without name": (request_with(tools=[{"type": "function", "function": {"description": "d"}}]),
                          "tools[0].function.name"),
    "tool name with a space": (request_with(tools=[{"type": "function", "function": {"name": "get time"}}]),
                               "tools[0].function.name"),
    "tool parameters a string": (request_with(tools=[{"type": "function", "function": {"name": "f", "parameters": "{}"}}]),
                                 "tools[0].function.parameters"),
    "tool type missing": (request_with(tools=[{"function": {"name": "f"}}]), "tools[0].type"),
    "tool_choice function a string": (request_with(tools=[TOOL], tool_choice={"type": "function", "function": "f"}),
                                      "tool_choice.function"),
    "tool_choice a list": (request_with(tool_choice=[]), "tool_choice"),
    "stop a number": (request_with(stop=5), "stop"),
    "stop a list of numbers": (request_with(stop=[5]), "stop[0]"),
    "max_tokens a string": (request_with(max_tokens="10"), "max_tokens"),
    "max_tokens zero": (request_with(max_tokens=0), "max_tokens"),
    "max_completion_tokens true": (request_with(max_completion_tokens=True), "max_completion_tokens"),
    "stream a string": (request_with(stream="yes"), "stream"),
    "stream_options a string": (request_with(stream=True, stream_options="usage"), "stream_options"),
}


@pytest.mark.parametrize("case", BAD_REQUESTS)
def test_a_malformed_request_is_a_400_in_the_api_shape_in_process(case):
    body, param = BAD_REQUESTS[case]
    reply = handle(OfflineModel(), "POST", "/v1/chat/completions", body)
    status, error = answer(reply.status, reply.chunks)
    assert (status, error["param"]) == (400, param), error["message"]


@pytest.mark.parametrize("case", BAD_REQUESTS)
def test_a_malformed_request_is_a_400_in_the_api_shape_over_http(server, case):
    body, param = BAD_REQUESTS[case]
    status, _, content = over_http(server, "POST", "/v1/chat/completions", body)
    assert answer(status, content)[0] == 400


def test_messages_say_what_is_valid():
    def message(**changes):
        response = handle(OfflineModel(), "POST", "/v1/chat/completions", request_with(**changes))
        return json.loads(response.chunks)["error"]["message"]

    assert message(model=5) == "Invalid type for 'model': expected a string, but got an integer instead."
    assert message(tools="x" * 1000) == "Invalid type for 'tools': expected an array, but got a string instead."
    assert message(messages=[{"role": "robot"}]) == (
        "Invalid value: 'robot'. Supported values are: 'developer', 'system', 'user', 'assistant', 'tool', and "
        "'function'.")


# Byte-level: what only a raw socket can send

LENGTH_CASES = {
    "Content-Length abc": (b"abc", 400),
    "Content-Length -1": (b"-1", 400),
    "Content-Length 1e3": (b"1e3", 400),
    "Content-Length superscript two": ("\u00b2".encode("latin-1"), 400),
    "Content-Length beyond the limit": (b"1000000000000", 413),
}


@pytest.mark.parametrize("case", LENGTH_CASES)
def test_a_bad_content_length_is_answered_not_a_traceback_or_a_hang(server, case):
    length, expected = LENGTH_CASES[case]
    status, headers, content = raw(server, b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + length
                                   + b"\r\ncontent-type: application/json\r\n\r\n" + request_with())
    assert answer(status, content)[0] == expected
    assert headers["connection"] == "close"  # the body's end is unknown, so the connection cannot carry another request


def test_a_body_shorter_than_its_content_length_gets_408_not_a_hang(server):
    status, headers, content = raw(server, b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
    status, error = answer(status, content)
    assert status == 408 and "Content-Length announced 100 bytes" in error["message"]
    assert headers["connection"] == "close"


def test_a_chunked_body_is_refused_with_411(server):
    status, _, content = raw(server, b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                                     b"2\r\n{}\r\n0\r\n\r\n")
    assert answer(status, content)[0] == 411


@pytest.mark.parametrize(("request_head", "expected"), [
    (b"GET /v1/" + b"m" * 70_000 + b" HTTP/1.1\r\n\r\n", 414),
    (b"GET /v1/models HTTP/1.1\r\nX-Long: " + b"x" * 70_000 + b"\r\n\r\n", 431),
    (b"GET /v1/models HTTP/1.1\r\n" + b"X: y\r\n" * 101 + b"\r\n", 431),
], ids=["request line too long", "header too long", "too many headers"])
def test_what_http_server_itself_refuses_is_json_not_html(server, request_head, expected):
    status, headers, content = raw(server, request_head)
    assert headers["content-type"] == "application/json" and answer(status, content)[0] == expected


@pytest.mark.parametrize(("method", "path", "expected", "allow"), [
    ("PUT", "/v1/chat/completions", 405, "POST"),
    ("BREW", "/v1/chat/completions", 405, "POST"),
    ("DELETE", "/v1/models", 405, "GET"),
    ("GET", "/v1/chat/completions", 405, "POST"),
    ("POST", "/v1/embeddings", 404, None),
    ("BREW", "/coffee", 404, None),
    ("GET", "/", 404, None),
])
def test_unknown_methods_and_paths_are_json(server, method, path, expected, allow):
    status, headers, content = over_http(server, method, path)
    assert headers["content-type"] == "application/json"
    assert answer(status, content)[0] == expected
    assert headers.get("allow") == allow


def test_head_is_get_without_a_body_and_the_connection_stays_usable(server):
    host, port = server.httpd.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        connection.request("HEAD", "/v1/models")
        head = connection.getresponse()
        assert (head.status, head.read()) == (200, b"")
        connection.request("GET", "/v1/models")
        assert json.loads(connection.getresponse().read())["data"][0]["id"] == "offline"
    finally:
        connection.close()


# The served model, as the SDK asks for it

def test_models_retrieve_answers_for_the_served_model(server):
    client = openai.OpenAI(api_key="offline", base_url=server.base_url, max_retries=0)
    model = client.models.retrieve("offline")
    assert (model.id, model.object, model.owned_by) == ("offline", "model", "agentkit")
    with pytest.raises(openai.NotFoundError) as raised:
        client.models.retrieve("gpt-unknown")
    assert raised.value.code == "model_not_found"


# A model that fails: a 500 in the API's JSON, never a dropped connection

class BrokenModel:
    def __init__(self, reply):
        self.reply = reply

    def respond(self, request):
        if isinstance(self.reply, Exception):
            raise self.reply
        return self.reply


@pytest.mark.parametrize("reply", [
    RuntimeError("boom"),
    Reply(content=5),
    Reply(tool_calls=[EmittedCall("f", None)]),
    "not a Reply",
], ids=["raises", "content a number", "arguments None", "not a Reply"])
@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
def test_a_model_that_fails_is_a_500_json_answer(reply, stream):
    with OfflineServer(BrokenModel(reply)) as running:
        status, _, content = over_http(running, "POST", "/v1/chat/completions", request_with(stream=stream))
    status, error = answer(status, content)
    assert status == 500 and error["message"].startswith("the model failed: ")
