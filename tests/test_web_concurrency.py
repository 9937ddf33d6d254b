"""The web app when things happen at once: Stop while a tool runs, a page that goes away mid-stream, answers
posted to the wrong place, a turn stopped before it starts. Each turn ends cleanly, kills what it ran, and leaves
its conversation free and its history valid."""

import json
import logging
import os
import time

import pytest
from playwright.sync_api import expect
from test_streaming_web import Paced
from test_web import WAIT, Stream, browser, page, post, send, serving  # noqa: F401 - fixtures
from test_web_hardening import Recording, assert_valid_history, events_of

import agentkit.frontends.web.conversations
from agentkit.offline import OfflineModel, ScriptedModel, call

SLEEPER = call("bash", command="echo $$ > pid.txt; exec sleep 60")
"""A command that says its process id, then runs for longer than any test."""
STOPPED = "stopped by the page's Stop button"  # the status's data; the page shows the person's words (`shown`)


def running_pid(folder) -> int:
    """The sleeper's process id, once it has started."""
    deadline = time.monotonic() + WAIT
    while not (folder / "pid.txt").exists() or not (folder / "pid.txt").read_text().strip():
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.02)
    return int((folder / "pid.txt").read_text())


def is_dead(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def approved_sleeper(port: int, folder) -> tuple[Stream, int]:
    """A turn of conversation c1 running the sleeper, approved: its stream and the command's process id."""
    stream = Stream(port, "Sleep a minute")
    *_, question = stream.until("confirm")
    stream.answer(question, "y")
    return stream, running_pid(folder)


def next_turn_when_free(port: int, conversation: str = "c1") -> tuple[int, str]:
    """A new turn of `conversation`, posted again while the last one is still ending (409)."""
    deadline = time.monotonic() + WAIT
    while (reply := post(port, "/chat", {"conversation": conversation, "message": "Hello"}))[0] == 409:
        assert time.monotonic() < deadline, "the turn was never stopped"
        time.sleep(0.05)
    return reply


def test_stop_while_a_tool_runs_kills_the_command_and_the_conversation_goes_on(tmp_path):
    model = Recording(ScriptedModel([SLEEPER, "Hello again."]))
    with serving(model, tmp_path) as port:
        stream, pid = approved_sleeper(port, tmp_path)
        assert post(port, "/cancel", {"conversation": "c1"}) == (200, '{"cancelled":"c1"}')
        [status] = stream.until("status")
        assert (status["text"], status["content"], status["shown"]) == ("cancelled", STOPPED, "you stopped it from the page")
        assert is_dead(pid), "the command is dead before the turn says it stopped"
        status_code, body = post(port, "/cancel", {"conversation": "c1"})
        assert status_code == 409 and json.loads(body)["detail"] == ("conversation 'c1' is not running a turn: "
                                                                     "there is nothing to stop")
        status_code, body = post(port, "/chat", {"conversation": "c1", "message": "Hello"})
    assert status_code == 200 and [e["text"] for e in events_of(body)] == ["Hello again.", "completed"]
    assert_valid_history(model.histories[-1])
    assert [m["content"] for m in model.histories[-1] if m["role"] == "tool"] == [
        "Error: cancelled: the task was stopped before this call completed."]


def test_stop_for_a_conversation_that_runs_nothing_is_refused(tmp_path):
    with serving(OfflineModel(), tmp_path) as port:
        assert post(port, "/cancel", {"conversation": "never-seen"})[0] == 409
        Stream(port, "Hello", "idle").until("status")
        assert post(port, "/cancel", {"conversation": "idle"})[0] == 409


def test_a_page_that_goes_away_while_a_tool_runs_kills_the_command(tmp_path):
    model = Recording(ScriptedModel([SLEEPER, "Hello again."]))
    with serving(model, tmp_path) as port:
        stream, pid = approved_sleeper(port, tmp_path)
        stream.connection.close()
        status, body = next_turn_when_free(port)
        assert is_dead(pid)
    assert status == 200 and [e["text"] for e in events_of(body)] == ["Hello again.", "completed"]
    assert_valid_history(model.histories[-1])


def test_a_page_that_goes_away_while_the_model_streams_stops_the_turn(tmp_path, monkeypatch):
    paced = Paced(monkeypatch, 0.1)  # the offline server over HTTP, writing a chunk every 0.1 s
    try:
        with serving(None, tmp_path, stream=True) as port:
            stream = Stream(port, "What can you do?")
            assert stream.next()["kind"] == "text"
            stream.connection.close()  # the model is still writing
            status, body = next_turn_when_free(port)
    finally:
        paced.close()
    assert status == 200 and events_of(body)[-1]["text"] == "completed"


def test_a_page_that_goes_away_during_a_burst_of_events_ends_its_stream_quietly(tmp_path, caplog):
    """A long answer streamed at once puts hundreds of text events in the queue: they go out as one write, so a page
    closed meanwhile is not written to again and again (asyncio logged each "socket.send() raised exception.")."""
    model = ScriptedModel(["word " * 4000, "Hello again."])
    with caplog.at_level(logging.WARNING, logger="asyncio"), serving(model, tmp_path, stream=True) as port:
        stream = Stream(port, "Say a lot")
        assert stream.next()["kind"] == "text"
        stream.connection.close()
        status, body = next_turn_when_free(port)
    assert status == 200 and [e["text"] for e in events_of(body)][-2:] == ["Hello again.", "completed"]
    assert [record.getMessage() for record in caplog.records if record.name == "asyncio"] == []


def test_an_answer_counts_only_in_the_conversation_that_asked(tmp_path):
    with serving(OfflineModel(), tmp_path) as port:
        stream = Stream(port, 'Ask me a question: "What is your name?"', "mine")
        *_, question = stream.until("question")
        Stream(port, "Hello", "other").until("status")
        status, body = post(port, "/answer", {"conversation": "other", "question": question["id"], "answer": "Eve"})
        assert status == 404 and "asked in another conversation" in json.loads(body)["detail"]
        assert stream.answer(question, "Ada") == 200
        result, answer, _ = stream.until("status")
        assert stream.answer(question, "Ada") == 404, "answered already"
    assert result["content"] == "Ada"


def test_a_turn_stopped_before_its_first_step_still_ends_its_stream(tmp_path, monkeypatch):
    real_start = agentkit.frontends.web.conversations.Conversations.start_turn

    def start_and_stop(self, *arguments):
        conversation = real_start(self, *arguments)
        conversation.turn.cancel()  # before the event loop has run any of it
        return conversation

    monkeypatch.setattr(agentkit.frontends.web.conversations.Conversations, "start_turn", start_and_stop)
    with serving(OfflineModel(), tmp_path) as port:
        status, body = post(port, "/chat", {"conversation": "c1", "message": "Hello"})
    assert status == 200 and events_of(body) == [
        {"kind": "status", "text": "cancelled", "content": "cancelled before it started",
         "shown": "stopped before it started"}]


@pytest.mark.usefixtures("browser")
def test_the_stop_button_stops_a_running_command(tmp_path, page):  # noqa: F811
    with serving(ScriptedModel([SLEEPER, "Hello again."]), tmp_path) as port:
        stop = page.locator("#stop")
        send(page, port, "Sleep a minute")
        page.locator(".ask.confirm button.approve").click()
        pid = running_pid(tmp_path)
        stop.click()
        expect(page.locator(".status")).to_have_text("task cancelled: you stopped it from the page")
        expect(stop).to_be_hidden()
        expect(page.locator("#message")).to_be_enabled()
        assert is_dead(pid)
        send(page, port, "Hello")
        expect(page.locator(".answer")).to_have_text("Hello again.")

