"""`POST /v1/responses` on the offline server, through the real openai SDK: function calling, JSON and streaming."""

from __future__ import annotations

import re
from typing import Literal

import openai
import openai.lib._pydantic
import pytest
from pydantic import BaseModel

from agentkit.offline import EmittedCall, OfflineServer, ScriptedModel, offline_client
from agentkit.tools import clock_tool

# The Responses API's flatter tool shape; its timezone is optional, so it has no strict form and says so.
CLOCK = clock_tool().to_openai()["function"] | {"type": "function", "strict": False}
QUESTION = "What time is it in Tokyo?"


@pytest.fixture(scope="module")
def client():
    with OfflineServer() as server:
        yield openai.OpenAI(base_url=server.base_url, api_key="offline", max_retries=0)


def test_function_call_item_then_answer_from_its_output(client):
    first = client.responses.create(model="offline", instructions="Use tools.", input=QUESTION, tools=[CLOCK])
    [call] = first.output
    assert (call.type, call.name, call.arguments) == ("function_call", "get_current_time", '{"timezone": "Asia/Tokyo"}')
    assert call.call_id.startswith("call_") and first.status == "completed"
    second = client.responses.create(model="offline", tools=[CLOCK], input=[
        {"role": "user", "content": QUESTION},
        {"type": "function_call", "call_id": call.call_id, "name": call.name, "arguments": call.arguments},
        {"type": "function_call_output", "call_id": call.call_id, "output": "2026-01-01 10:00:00+09:00 (Asia/Tokyo)"},
    ])
    assert second.output[0].type == "message"
    assert "10:00" in second.output_text and second.usage.total_tokens > 0


def test_streaming_events_rebuild_the_same_response(client):
    plain = client.responses.create(model="offline", input=QUESTION, tools=[CLOCK])
    with client.responses.stream(model="offline", input=QUESTION, tools=[CLOCK]) as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_response()
    assert kinds[:3] == ["response.created", "response.in_progress", "response.output_item.added"]
    assert "response.function_call_arguments.delta" in kinds and kinds[-1] == "response.completed"
    assert final.output[0].arguments == plain.output[0].arguments and final.output[0].call_id == plain.output[0].call_id


def test_streamed_text_arrives_in_pieces():
    client = offline_client(sync=True)  # the in-process transport serves the same route
    events = list(client.responses.create(model="offline", input="hello", stream=True))
    deltas = [event.delta for event in events if event.type == "response.output_text.delta"]
    assert len(deltas) > 1
    done = next(event for event in events if event.type == "response.output_text.done")
    assert "".join(deltas) == done.text


@pytest.mark.parametrize(("request_fields", "message"), [
    ({"input": 5}, "Invalid type for 'input': expected one of a string or an array, but got an integer instead."),
    ({"input": "hi", "previous_response_id": "resp_1"}, "send the whole conversation"),
    ({"input": "hi", "tools": [{"type": "web_search"}]}, "only function tools"),
    ({"input": [{"type": "function_call_output", "call_id": "call_x", "output": "1"}]},
     "No tool call found for function call output with call_id call_x."),
    ({"input": [{"type": "function_call", "call_id": "call_x", "name": "f", "arguments": "{}"},
                {"role": "user", "content": "hi"}]}, "No tool output found for function call call_x."),
    ({"input": [{"type": "image_generation_call", "id": "ig_1", "result": None, "status": "completed"}]},
     "this server reads message"),
    ({"input": [{"type": "image_generation_call"}]}, "Missing required parameter: 'input[0].id'."),
])
def test_malformed_requests_get_the_apis_400(client, request_fields, message):
    with pytest.raises(openai.BadRequestError, match=re.escape(message)):
        client.responses.create(model="offline", **request_fields)


# ---- structured outputs: the same checks and constraints as /v1/chat/completions, under this endpoint's names ----

class Contact(BaseModel):
    name: str
    email: str
    city: str | None
    priority: Literal["low", "normal", "urgent"]


ADA = 'Please call back "Ada Lovelace" (ada@example.com) from London, it is urgent.'
LOOSE = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}  # not closed: no strict form


def test_parse_fills_a_pydantic_model_and_refuses_to_make_values_up(client):
    parsed = client.responses.parse(model="offline", input=ADA, text_format=Contact)
    assert parsed.output_parsed == Contact(name="Ada Lovelace", email="ada@example.com", city="London",
                                           priority="urgent")
    refused = client.responses.parse(model="offline", input="What is the capital of France?", text_format=Contact)
    assert refused.output_parsed is None and refused.output_text == ""
    [part] = refused.output[0].content
    assert (part.type, part.refusal) == ("refusal", "I cannot fill in Contact: the message does not say what email "
                                                    "and priority are.")


def test_a_streamed_refusal_arrives_as_refusal_events(client):
    events = list(client.responses.create(model="offline", input="Hello", stream=True, text={"format": {
        "type": "json_schema", "name": "Contact", "schema": openai.lib._pydantic.to_strict_json_schema(Contact),
        "strict": True}}))
    deltas = "".join(event.delta for event in events if event.type == "response.refusal.delta")
    assert deltas.startswith("I cannot fill in Contact") and events[-1].type == "response.completed"


REFUSED = {  # name: {endpoint: (the request's fields, the error's message, its param)}
    "a strict tool without a strict form": {
        "chat": ({"tools": [{"type": "function", "function": {"name": "f", "parameters": LOOSE, "strict": True}}]},
                 "Invalid schema for function 'f': In context=(), 'additionalProperties' is required",
                 "tools[0].function.parameters"),
        "responses": ({"tools": [{"type": "function", "name": "f", "parameters": LOOSE}]},  # strict by default
                      "Invalid schema for function 'f': In context=(), 'additionalProperties' is required",
                      "tools[0].parameters")},
    "a strict format without a strict form": {
        "chat": ({"response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": LOOSE,
                                                                            "strict": True}}},
                 "Invalid schema for response_format 'x': In context=(), 'additionalProperties' is required",
                 "response_format.json_schema.schema"),
        "responses": ({"text": {"format": {"type": "json_schema", "name": "x", "schema": LOOSE, "strict": True}}},
                      "Invalid schema for response_format 'x': In context=(), 'additionalProperties' is required",
                      "text.format.schema")},
    "json_object without the word json": {
        "chat": ({"response_format": {"type": "json_object"}},
                 "'messages' must contain the word 'json' in some form, to use 'response_format'", "messages"),
        "responses": ({"text": {"format": {"type": "json_object"}}},
                      "'input' must contain the word 'json' in some form, to use 'text.format'", "input")},
    "an unknown format": {
        "chat": ({"response_format": {"type": "xml"}}, "Invalid value: 'xml'. Supported values are: 'text', "
                 "'json_schema', and 'json_object'.", "response_format.type"),
        "responses": ({"text": {"format": {"type": "xml"}}}, "Invalid value: 'xml'. Supported values are: 'text', "
                      "'json_schema', and 'json_object'.", "text.format.type")},
    "a json_schema without its schema": {
        "chat": ({"response_format": {"type": "json_schema", "json_schema": {"name": "x"}}},
                 "Missing required parameter: 'response_format.json_schema.schema'.",
                 "response_format.json_schema.schema"),
        "responses": ({"text": {"format": {"type": "json_schema", "name": "x"}}},
                      "Missing required parameter: 'text.format.schema'.", "text.format.schema")},
}


@pytest.mark.parametrize("name", REFUSED)
def test_both_endpoints_refuse_the_same_requests_each_naming_its_own_fields(client, name):
    for endpoint, (fields, message, param) in REFUSED[name].items():
        with pytest.raises(openai.BadRequestError) as refused:
            if endpoint == "chat":
                client.chat.completions.create(model="offline", messages=[{"role": "user", "content": "hi"}], **fields)
            else:
                client.responses.create(model="offline", input="hi", **fields)
        assert message in refused.value.message and refused.value.body["param"] == param, refused.value.body


def test_parallel_tool_calls_false_gives_one_call_item():
    client = offline_client(ScriptedModel([[EmittedCall("f"), EmittedCall("g")]] * 2), sync=True)
    closed = {"type": "object", "properties": {}, "additionalProperties": False, "required": []}  # a strict form
    tools = [{"type": "function", "name": name, "parameters": closed} for name in "fg"]
    both = client.responses.create(model="offline", input="x", tools=tools)
    one = client.responses.create(model="offline", input="x", tools=tools, parallel_tool_calls=False)
    assert [item.name for item in both.output] == ["f", "g"] and [item.name for item in one.output] == ["f"]
