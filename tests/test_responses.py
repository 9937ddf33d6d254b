"""`POST /v1/responses` on the offline server, through the real openai SDK: function calling, JSON and streaming."""

from __future__ import annotations

import openai
import pytest

from agentkit.offline import OfflineServer, offline_client
from agentkit.tools import clock_tool

CLOCK = clock_tool().to_openai()["function"] | {"type": "function"}  # the Responses API's flatter tool shape
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
    ({"input": 5}, "'input' must be a string or an array"),
    ({"input": "hi", "previous_response_id": "resp_1"}, "send the whole conversation"),
    ({"input": "hi", "tools": [{"type": "web_search"}]}, "only function tools"),
    ({"input": [{"type": "function_call_output", "call_id": "call_x", "output": "1"}]}, "answers no call"),
    ({"input": [{"type": "image_generation_call"}]}, "this server reads message"),
])
def test_malformed_requests_get_the_apis_400(client, request_fields, message):
    with pytest.raises(openai.BadRequestError, match=message):
        client.responses.create(model="offline", **request_fields)
