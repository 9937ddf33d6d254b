"""The web app under attack: turns posted at once, oversized messages, endless conversations, text UTF-8
cannot encode, a turn that breaks halfway, and a turn asked to stop twice. Each conversation must stay usable
afterwards."""

import asyncio
import http.client
import json
import os
import re
from contextlib import aclosing

import httpx
from test_web import AUTHORIZATION, WAIT, Stream, post, serving

import agentkit.frontends.web.app
from agentkit.frontends.web.conversations import stop_once
from agentkit.limits import Limits
from agentkit.offline import OfflineModel, ScriptedModel, call
from agentkit.policy import ToolPolicy


class Recording:
    """Answers as `model` does, and keeps a copy of every history it was sent."""

    def __init__(self, model) -> None:
        self.model, self.histories = model, []

    def respond(self, request: dict):
        self.histories.append(json.loads(json.dumps(request["messages"])))
        return self.model.respond(request)


def assert_valid_history(messages: list[dict]) -> None:
    """Turns in order (user, then the model's calls each answered by one tool message, then its answer)."""
    roles = "".join("c" if m.get("tool_calls") else m["role"][0] for m in messages)  # c: assistant with calls
    assert re.fullmatch(r"s?(u(ct+)*a?)*u?(ct+)?", roles), f"roles out of order: {roles}"
    for i, message in enumerate(messages):
        if message.get("tool_calls"):
            called = sorted(c["id"] for c in message["tool_calls"])
            answered = sorted(m["tool_call_id"] for m in messages[i + 1:i + 1 + len(called)] if m["role"] == "tool")
            assert called == answered, f"message {i}: calls {called} answered by {answered}"
    assert roles[-1] in "ut", "a request ends with the person's message or the tool results"


def events_of(body: str) -> list[dict]:
    return [json.loads(line) for line in body.splitlines()]


def test_turns_posted_at_once_to_one_conversation_run_one_at_a_time(tmp_path):
    model = Recording(OfflineModel())

    async def burst(port: int) -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", headers=AUTHORIZATION, timeout=WAIT) as client:
            return await asyncio.gather(*(client.post("/chat", json={"conversation": "c", "message": message})
                                          for message in ["What time is it in Tokyo?", "Hello"] * 6))

    with serving(model, tmp_path) as port:
        for _ in range(3):
            replies = asyncio.run(burst(port))
            assert {reply.status_code for reply in replies} <= {200, 409}
            assert any(reply.status_code == 200 for reply in replies)
            for reply in replies:
                if reply.status_code == 409:
                    assert reply.json()["detail"].startswith("conversation 'c' is already running a turn")
                else:
                    assert events_of(reply.text)[-1]["text"] == "completed"  # not "failed" on a history the API refused
        status, body = post(port, "/chat", {"conversation": "c", "message": "Hello"})
    assert status == 200 and events_of(body)[-1]["text"] == "completed"
    for history in model.histories:
        assert_valid_history(history)


def test_a_turn_that_breaks_halfway_ends_as_failed_and_frees_its_conversation(tmp_path, monkeypatch):
    real_run_task = agentkit.frontends.web.app.run_task
    broken = []

    async def breaks_once(*arguments, **options):
        async with aclosing(real_run_task(*arguments, **options)) as events:
            async for event in events:
                yield event
                if event.kind == "tool_call" and not broken:
                    broken.append(event)
                    raise RuntimeError("a bug halfway through a turn")

    monkeypatch.setattr(agentkit.frontends.web.app, "run_task", breaks_once)
    model = Recording(ScriptedModel([call("get_current_time", timezone="UTC"), "Hello again."]))
    with serving(model, tmp_path) as port:
        tool_call, status = Stream(port, "What time is it?").until("status")
        assert tool_call["kind"] == "tool_call"
        assert (status["text"], status["content"], status["shown"]) == (
            "failed", "internal error: RuntimeError: a bug halfway through a turn (see the server's log)",
            "internal error: RuntimeError: a bug halfway through a turn (see the server's log)")
        # No waiting: the conversation is free the moment its stream ends.
        status, body = post(port, "/chat", {"conversation": "c1", "message": "Hello"})
    assert status == 200 and [e["text"] for e in events_of(body)] == ["Hello again.", "completed"]
    assert_valid_history(model.histories[-1])
    answered = [m["content"] for m in model.histories[-1] if m["role"] == "tool"]
    assert answered == ["Error: cancelled: the task was stopped before this call completed."]


def test_text_utf8_cannot_encode_neither_breaks_the_stream_nor_the_conversation(tmp_path):
    # A file name with bytes that are not UTF-8 reaches Python as a lone surrogate ("\udcff"); so does a
    # JSON escape. Neither can be encoded for the stream or for the next request to the model.
    os.close(os.open(os.path.join(os.fsencode(tmp_path), b"caf\xff.txt"), os.O_CREAT | os.O_WRONLY))
    (tmp_path / "latin1.txt").write_bytes("déjà vu\n".encode("latin-1"))
    model = Recording(ScriptedModel([[call("glob", pattern="*"), call("read_file", path="latin1.txt")],
                                     "Listed.", "Still here.", "And here."]))
    with serving(model, tmp_path) as port:
        listed, read, answer, status = Stream(port, "List and read the files").until("status")[2:]
        # glob leaves such a name out (no file tool could open it) and names it by its bytes, in plain ASCII
        assert "such as b'caf\\xff.txt': its name is not UTF-8 text" in listed["content"]
        assert read["is_error"] and "'latin1.txt' is not UTF-8 text" in read["content"]
        assert (answer["text"], status["text"]) == ("Listed.", "completed")
        # ASCII JSON, as json.dumps writes it: the lone surrogate travels as the escape "\udcff"
        status, body = post(port, "/chat", {"conversation": "c1", "message": "lone \udcff half"})
        assert status == 422 and json.loads(body)["detail"][0]["input"] == "lone \ufffd half"
        for message in ("and you?", "and now?"):
            status, body = post(port, "/chat", {"conversation": "c1", "message": message})
            assert status == 200 and [e["kind"] for e in events_of(body)] == ["answer", "status"]
    tool_results = [m["content"] for m in model.histories[-1] if m["role"] == "tool"]
    assert "b'caf\\xff.txt'" in tool_results[0]  # the listing the model read, sent back whole


def test_a_message_over_the_limit_is_refused_with_413_naming_the_limit(tmp_path):
    policy = ToolPolicy(limits=Limits(max_message_chars=100))
    with serving(OfflineModel(), tmp_path, policy=policy) as port:
        status, body = post(port, "/chat", {"conversation": "c", "message": "x" * 101})
        assert status == 413
        assert json.loads(body)["detail"] == (
            "the message has 101 characters; this server takes at most 100 (Limits.max_message_chars): send a "
            "shorter one, or raise the limit: create_app(..., policy=ToolPolicy(limits=Limits(max_message_chars=...)))")
        status, body = post(port, "/chat", {"conversation": "c", "message": "Hello " + "x" * 94})
        assert status == 200 and events_of(body)[-1]["text"] == "completed"
        # A body far larger than any message of 100 characters is refused as it arrives, however it is sent.
        huge = json.dumps({"conversation": "c", "message": "x" * 100_000}).encode()
        for chunked in (False, True):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
            connection.request("POST", "/chat", iter([huge]) if chunked else huge,
                               {"content-type": "application/json", **AUTHORIZATION}, encode_chunked=chunked)
            response = connection.getresponse()
            assert response.status == 413
            assert "Limits.max_message_chars" in json.loads(response.read())["detail"]


def test_the_least_recently_used_idle_conversation_makes_room_for_a_new_one(tmp_path):
    model = Recording(OfflineModel())
    with serving(model, tmp_path, policy=ToolPolicy(limits=Limits(max_conversations=2))) as port:
        def history_length(conversation: str) -> int:
            Stream(port, "Hello", conversation).until("status")
            return len([m for m in model.histories[-1] if m["role"] != "system"])

        assert (history_length("a"), history_length("b"), history_length("a")) == (1, 1, 3)
        history_length("c")  # a third conversation: b, used least recently, is forgotten
        assert (history_length("a"), history_length("b")) == (5, 1)


def test_a_conversation_waiting_for_an_answer_is_never_forgotten(tmp_path):
    with serving(OfflineModel(), tmp_path, policy=ToolPolicy(limits=Limits(max_conversations=1))) as port:
        stream = Stream(port, 'Run the bash command "ls"', "a")
        *_, question = stream.until("confirm")
        status, body = post(port, "/chat", {"conversation": "b", "message": "Hello"})
        assert status == 503
        assert json.loads(body)["detail"] == ("all 1 conversations this server keeps (Limits.max_conversations) are "
                                              "running a turn: try again when one ends")
        assert stream.answer(question, "y") == 200
        assert stream.until("status")[-1]["text"] == "completed"
        status, body = post(port, "/chat", {"conversation": "b", "message": "Hello"})
    assert status == 200 and events_of(body)[-1]["text"] == "completed"


def test_a_turn_is_cancelled_once_however_many_ask_so_its_clean_up_runs_to_the_end():
    # Stop and a page going away can come together; a second cancel would land in the first one's clean-up.
    async def both_stop() -> list[str]:
        cleaned = []

        async def turn():
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                await asyncio.sleep(0.01)  # the clean-up awaits, as bash awaits its killed command
                cleaned.append("done")
                raise

        running = asyncio.create_task(turn())
        await asyncio.sleep(0)
        stop_once(running)
        await asyncio.sleep(0)  # the turn is in its clean-up now
        stop_once(running)
        await asyncio.gather(running, return_exceptions=True)
        return cleaned

    assert asyncio.run(both_stop()) == ["done"]


HIDDEN = "\u202e\u2066\u200b\ufeff\u00a0"
"""A bidi override, an isolate, a zero-width space, a BOM and a no-break space: each shows as something else."""


def test_every_text_a_person_reads_in_an_event_has_its_hidden_characters_marked():
    """The page's JSON events carry the model's words marked as a confirmation's are: the tool's name, its
    arguments, a result, an answer, a status's reason. Nothing a person reads carries a hidden character raw."""
    from agentkit.calls import ToolCall
    from agentkit.events import Answer, CallAnswered, CallRequested, Note, Status, Thinking
    from agentkit.frontends.web.protocol import event_fields
    from agentkit.streaming import TextDelta
    from agentkit.task import ModelFailed
    from agentkit.tools.dispatcher import ToolResult

    call = ToolCall.parse("c1", f"bash{HIDDEN}", json.dumps({"command": f"echo {HIDDEN} rm -rf ~"}, ensure_ascii=False))
    events = [CallRequested(call), CallAnswered(call, ToolResult(f"out{HIDDEN}")), Answer(f"done{HIDDEN}"),
              TextDelta(f"a{HIDDEN}"), Thinking(f"t{HIDDEN}"), Note(f"n{HIDDEN}"),
              Status(ModelFailed("unusable", f"why{HIDDEN}"))]
    for event in events:
        fields = event_fields(event, shown=f"line{HIDDEN}" if isinstance(event, CallAnswered) else "")
        texts = [value for value in fields.values() if isinstance(value, str)]
        assert not [text for text in texts if any(character in text for character in HIDDEN[:4])], fields
        assert fields["hidden"] >= 4, fields
    # A no-break space shows as a space; it is marked where it would run: in the call's name and arguments.
    tool_call = event_fields(CallRequested(call))
    assert tool_call["arguments"] == '{"command": "echo <U+202E><U+2066><U+200B><U+FEFF><U+00A0> rm -rf ~"}'
    assert tool_call["hidden"] == 10
