"""Checks for chapter 10's exercise: a stream assembler of your own, against the streams that trip most of them.

Your `assemble_stream(chunks)` takes a list of chunks as plain dicts (`chunk.model_dump()` of the SDK's
objects) and returns the assistant message: `{"role": "assistant", "content": ..., "tool_calls": [...]}`, one the
API accepts when it is sent back (no `"tool_calls": []`, which it refuses with `empty_array`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agentkit.checks import answer, expect, phrase, run_check
from agentkit.streaming import StreamAssembler


def _chunk(delta: dict[str, Any] | None = None, finish: str | None = None) -> dict[str, Any]:
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}]}


def _part(index: int, arguments: str | None = None, id: str | None = None, name: str | None = None) -> dict[str, Any]:
    function = {key: value for key, value in (("name", name), ("arguments", arguments)) if value is not None}
    return _chunk({"tool_calls": [{"index": index, **({"id": id, "type": "function"} if id else {}), "function": function}]})


TRICKY_STREAMS = {
    phrase("two parallel calls whose fragments are interleaved"): [
        _chunk({"role": "assistant", "content": None}),
        _part(0, "", "call_tokyo", "get_current_time"), _part(1, "", "call_paris", "get_current_time"),
        _part(0, '{"timezone": "As'), _part(1, '{"timezone": "Eu'), _part(0, 'ia/Tokyo"}'), _part(1, 'rope/Paris"}'),
        _chunk(finish="tool_calls")],
    phrase("a call without arguments (no arguments fragment at all)"): [
        _chunk({"role": "assistant", "content": None}), _part(0, None, "call_list", "list_files"),
        _chunk(finish="tool_calls")],
    phrase("text, then a call"): [
        _chunk({"role": "assistant", "content": ""}), _chunk({"content": "Let me "}), _chunk({"content": "look."}),
        _part(0, '{"path": ', "call_read", "read_file"), _part(0, '"notes.txt"}'), _chunk(finish="tool_calls")],
    phrase("an id and a name only in a call's first delta, and a usage chunk with no choices"): [
        _part(0, "", "call_1", "search"), _part(0, '{"query"'), _part(0, ': "tea"}'), _chunk(finish="tool_calls"),
        {"object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 4}}],
    phrase("only text"): [_chunk({"role": "assistant", "content": ""}), _chunk({"content": "Hello"}), _chunk({"content": "!"}),
                  _chunk(finish="stop")],
}
"""name -> chunks: what each stream tests, and the stream."""


def reference(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """What `agentkit.streaming` assembles from `chunks`: the message your function should return."""
    assembler = StreamAssembler()
    for chunk in chunks:
        assembler.add(chunk)
    return assembler.finish().message()


def refused(message: dict[str, Any]) -> str | None:
    """Why the API would refuse `message` sent back as the assistant's turn (each call answered), or None."""
    from agentkit.offline.contract import check_chat
    from agentkit.offline.request import ApiError

    calls = message.get("tool_calls") if isinstance(message.get("tool_calls"), list) else []
    answers = [{"role": "tool", "tool_call_id": call.get("id"), "content": "done"} for call in calls
               if isinstance(call, dict)]
    try:
        check_chat({"model": "any", "messages": [{"role": "user", "content": "go"}, message, *answers]})
    except ApiError as error:
        return error.message
    return None


def _comparable(message: Any) -> tuple[Any, list[tuple[Any, Any, Any]]]:
    """Content and each call's (id, name, arguments as data): "" and "{}" are the same empty arguments."""
    calls = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except (TypeError, ValueError):
            arguments = function.get("arguments")
        calls.append((call.get("id"), function.get("name"), arguments))
    return message.get("content") or None, calls


async def check_exercise_10_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 10.1: `assemble_stream(chunks)` puts each tricky stream together as `agentkit.streaming` does."""

    async def test() -> None:
        assemble_stream = answer(namespace, "assemble_stream")
        for name, chunks in TRICKY_STREAMS.items():
            got = assemble_stream([dict(chunk) for chunk in chunks])
            expect(isinstance(got, dict), f"assemble_stream returned {type(got).__name__}; return the message as a dict.")
            want_content, want_calls = _comparable(reference(chunks))
            content, calls = _comparable(got)
            expect(content == want_content, f"{name}: content is {content!r}, expected {want_content!r}.")
            expect(len(calls) == len(want_calls), f"{name}: {len(calls)} tool calls, expected {len(want_calls)}: one "
                                                  "per distinct `index`.")
            for (id_, call_name, arguments), (want_id, want_name, want_arguments) in zip(calls, want_calls, strict=True):
                expect(id_ == want_id and call_name == want_name,
                       f"{name}: a call has id {id_!r} and name {call_name!r}, expected {want_id!r} and {want_name!r}: "
                       "keep the first id and name a call's deltas give, and do not overwrite them with None.")
                expect(arguments == want_arguments,
                       f"{name}: call {want_id} has arguments {arguments!r}, expected {want_arguments!r}: append each "
                       "fragment to the call its `index` names, and parse only when the stream is over.")
            problem = refused(got)
            expect(problem is None, f"{name}: the API would refuse this message when it is sent back: {problem}")

    return await run_check("Exercise 10.1: a stream assembler", test)
