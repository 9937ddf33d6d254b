"""Streamed replies: the assembler on hand-made tricky chunks and on the offline model's streams (in process and
over HTTP), the loop's streaming path, and `agentkit chat` in a real terminal printing an answer as it streams."""

import asyncio
import json
import os
import sys
import time

import pexpect
import pytest

from agentkit.calls import ToolCall
from agentkit.loop import finish, run_task
from agentkit.offline import Faults, OfflineServer, offline_client
from agentkit.offline.variants import VARIANTS
from agentkit.streaming import StreamAssembler, StreamedReply, TextDelta, read_stream
from agentkit.tools import build_registry, clock_tool

WAIT = 10


def chunk(delta=None, finish=None, usage=None, choices=True):
    """One chat.completion.chunk as a provider sends it."""
    body = {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}]
            if choices else []}
    return body | ({"usage": usage} if usage else {})


def part(index, arguments=None, id=None, name=None):
    function = {k: v for k, v in (("name", name), ("arguments", arguments)) if v is not None}
    return chunk({"tool_calls": [{"index": index, **({"id": id} if id else {}), "function": function}]})


def assemble(chunks) -> tuple[str, StreamedReply]:
    assembler = StreamAssembler()
    shown = "".join(assembler.add(c) for c in chunks)
    return shown, assembler.finish()


def calls(reply):
    return [(index, c.id, c.name, c.arguments) for index, c in enumerate(reply.tool_calls)]  # in `index` order


def test_interleaved_parallel_calls_are_kept_apart_by_index():
    _, reply = assemble([
        part(0, "", "call_a", "get_time"), part(1, "", "call_b", "get_time"),
        part(0, '{"zone": "Asia/'), part(1, '{"zone": "Europe/'), part(1, 'Paris"}'), part(0, 'Tokyo"}'),
        chunk(finish="tool_calls")])
    assert calls(reply) == [(0, "call_a", "get_time", {"zone": "Asia/Tokyo"}),
                            (1, "call_b", "get_time", {"zone": "Europe/Paris"})]
    assert reply.finish_reason == "tool_calls" and reply.content is None


def test_an_empty_arguments_call_parses_as_an_empty_object():
    _, reply = assemble([part(0, None, "call_1", "list_files"), chunk(finish="tool_calls")])
    assert calls(reply) == [(0, "call_1", "list_files", {})]
    assert reply.message()["tool_calls"][0]["function"]["arguments"] == ""


def test_text_then_a_call_shows_the_text_and_keeps_both():
    shown, reply = assemble([chunk({"role": "assistant", "content": ""}), chunk({"content": "Let me "}),
                             chunk({"content": "check."}), part(0, '{"a": 1}', "call_1", "f"), chunk(finish="tool_calls")])
    assert shown == "Let me check." and reply.content == "Let me check."
    assert calls(reply) == [(0, "call_1", "f", {"a": 1})]


def test_id_and_name_come_from_the_first_delta_and_a_repeated_name_is_not_doubled():
    _, reply = assemble([part(0, '{"q"', "call_1", "search"), part(0, ': "x"}', name="search"), chunk(finish="tool_calls")])
    assert calls(reply) == [(0, "call_1", "search", {"q": "x"})]


def test_calls_without_index_are_told_apart_by_their_ids():
    no_index = [chunk({"tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}}]}),
                chunk({"tool_calls": [{"id": "b", "function": {"name": "g", "arguments": '{"x"'}}]}),
                chunk({"tool_calls": [{"function": {"arguments": ": 2}"}}]})]
    _, reply = assemble(no_index)
    assert calls(reply) == [(0, "a", "f", {}), (1, "b", "g", {"x": 2})]


def test_arguments_are_parsed_once_at_the_end_and_broken_ones_are_none():
    _, reply = assemble([part(0, '{"a": ', "c", "f"), chunk(finish="tool_calls")])
    assert reply.tool_calls[0].raw_arguments == '{"a": ' and reply.tool_calls[0].arguments is None
    assert reply.tool_calls[0].error.startswith("are not valid JSON")


def test_usage_comes_from_the_last_chunk_without_choices():
    usage = {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}
    _, reply = assemble([chunk({"content": "hi"}), chunk(finish="stop"), chunk(choices=False, usage=usage)])
    assert reply.usage == usage and reply.content == "hi"


CLOCK_TWICE = "What time is it in Tokyo and in Paris?"


async def streamed_and_plain(client, **request):
    plain = await client.chat.completions.create(model="offline", **request)
    stream = await client.chat.completions.create(model="offline", stream=True, stream_options={"include_usage": True},
                                                  **request)
    items = [item async for item in read_stream(stream)]
    return plain, items


@pytest.mark.parametrize("variant", [None, *VARIANTS])
def test_an_offline_stream_assembles_to_the_same_message_as_the_plain_reply(variant):
    from agentkit.offline.variants import variant as make

    client = offline_client(make(variant) if variant else None)
    request = {"messages": [{"role": "user", "content": CLOCK_TWICE}], "tools": [clock_tool().to_openai()]}
    plain, items = asyncio.run(streamed_and_plain(client, **request))
    reply = items[-1]
    message = plain.choices[0].message
    assert reply.content == message.content
    # The ids differ (the offline model derives them from the request, which says stream=True): each has one.
    assert [(c.name, c.raw_arguments) for c in reply.tool_calls] == [
        (c.function.name, c.function.arguments) for c in message.tool_calls or []]
    assert all(c.id for c in reply.tool_calls) and len({c.id for c in reply.tool_calls}) == len(reply.tool_calls)
    assert (reply.usage or {}).get("total_tokens") == (plain.usage and plain.usage.total_tokens)  # both, or neither
    assert [i for i in items if isinstance(i, ToolCall)] == reply.tool_calls


def test_the_offline_stream_interleaves_parallel_calls_in_several_fragments():
    client = offline_client()
    stream = asyncio.run(client.chat.completions.create(
        model="offline", stream=True, messages=[{"role": "user", "content": CLOCK_TWICE}],
        tools=[clock_tool().to_openai()]))

    async def indices():
        return [p.index for c in [c async for c in stream] for p in (c.choices[0].delta.tool_calls or []) if c.choices]

    order = asyncio.run(indices())
    assert order.count(0) > 2 and order.count(1) > 2, "each call's arguments come in several fragments"
    assert order[:4] == [0, 1, 0, 1], "the two calls' fragments alternate"


def test_streaming_over_http_gives_text_before_the_reply_is_whole():
    with OfflineServer(faults=Faults(chunk_delay=0.01)) as server:
        import openai

        client = openai.AsyncOpenAI(api_key="x", base_url=server.base_url, max_retries=0)

        async def run():
            stream = await client.chat.completions.create(
                model="offline", stream=True, messages=[{"role": "user", "content": "Who are you?"}])
            return [item async for item in read_stream(stream)]

        items = asyncio.run(run())
    texts = [i.text for i in items if isinstance(i, TextDelta)]
    assert len(texts) > 5 and "".join(texts) == items[-1].content


def test_the_loop_streams_text_events_and_keeps_the_same_history():
    registry = build_registry([clock_tool()])

    def run(stream):
        events = []
        task = asyncio.run(finish(run_task(offline_client(), "offline", CLOCK_TWICE, registry,
                                    stream=stream), on_event=events.append))
        return task, events

    plain, _ = run(False)
    streamed, events = run(True)
    assert streamed.status == "completed" and streamed.answer == plain.answer
    texts = "".join(e.text for e in events if e.kind == "text")
    assert texts == streamed.answer
    assert [e.kind for e in events if e.kind != "text"] == ["usage", "tool_call", "tool_call", "tool_result",
                                                            "tool_result", "usage", "answer", "status"]
    scrub = lambda messages: json.dumps(messages).replace(" ", "")  # noqa: E731 - times differ by a second at most
    assert len(scrub(streamed.messages)) == len(scrub(plain.messages))
    assert streamed.usage.total_tokens > 0


def test_the_loop_streaming_reports_a_reply_it_cannot_use():
    from agentkit.offline import EmittedCall, ScriptedModel

    model = ScriptedModel([EmittedCall("", "{}")])
    task = asyncio.run(finish(run_task(offline_client(model), "offline", "hi", build_registry([clock_tool()]), stream=True)))
    assert task.status == "failed" and "name" in task.error.detail


def test_agentkit_chat_prints_the_answer_as_it_streams(tmp_path):
    with OfflineServer(faults=Faults(chunk_delay=0.25)) as server:
        env = {**os.environ, "MODEL_API_KEY": "offline", "BASE_URL": server.base_url, "MODEL": "offline",
               "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
        child = pexpect.spawn(sys.executable, ["-m", "agentkit.frontends.cli", "chat"], cwd=str(tmp_path), env=env,
                              encoding="utf-8", timeout=WAIT * 3, dimensions=(50, 250))
        child.expect_exact("you> ")
        child.sendline("How much caffeine is in green tea?")
        child.expect_exact("agent> A cup of green tea")
        started = time.monotonic()
        # The rest of the answer is still being written (about 20 more chunks, 0.25 s each).
        assert "coffee" not in child.buffer
        child.expect_exact("a cup of coffee.\r\n")
        assert time.monotonic() - started > 2, "the first words came well before the last"
        child.expect_exact("you> ")
        child.sendline("/exit")
        child.expect(pexpect.EOF)
        child.close()
    assert child.exitstatus == 0
