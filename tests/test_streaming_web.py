"""`agentkit web` streaming: text events over the NDJSON stream, and the page growing the answer in a real browser."""

import openai
from playwright.sync_api import expect
from test_web import Stream, browser, page, send, serving  # noqa: F401 - fixtures and helpers of the web tests

from agentkit.offline import Faults, OfflineServer


class Paced:
    """The app's client, made to talk to an offline server that writes each chunk in `chunk_delay` seconds."""

    def __init__(self, monkeypatch, chunk_delay: float):
        self.server = OfflineServer(faults=Faults(chunk_delay=chunk_delay)).__enter__()
        client = openai.AsyncOpenAI(api_key="x", base_url=self.server.base_url, max_retries=0)
        monkeypatch.setattr("test_web.offline_client", lambda model: client)

    def close(self):
        self.server.__exit__(None, None, None)


def test_text_events_stream_the_answer_before_it_is_whole(tmp_path, monkeypatch):
    paced = Paced(monkeypatch, 0.0)
    try:
        with serving(None, tmp_path, stream=True) as port:
            events = Stream(port, "What time is it in Tokyo?").until("status")
    finally:
        paced.close()
    kinds = [e["kind"] for e in events]
    assert kinds[:2] == ["tool_call", "tool_result"] and kinds[-2:] == ["answer", "status"]
    texts = [e["text"] for e in events if e["kind"] == "text"]
    assert len(texts) > 3 and "".join(texts) == events[-2]["text"]
    assert kinds.index("answer") > max(i for i, k in enumerate(kinds) if k == "text")


def test_the_page_shows_the_answer_growing_then_once(tmp_path, page, monkeypatch):  # noqa: F811
    paced = Paced(monkeypatch, 0.1)
    try:
        with serving(None, tmp_path, stream=True) as port:
            send(page, port, "How much caffeine is in green tea?")
            growing = page.locator(".answer.streaming")
            expect(growing).to_contain_text("A cup of green tea")
            assert "coffee." not in growing.text_content(), "the rest is still being written"
            expect(page.locator(".answer")).to_contain_text("a third of a cup of coffee.")
            expect(page.locator(".answer.streaming")).to_have_count(0)
            expect(page.locator(".answer")).to_have_count(1)
            expect(page.locator("#state")).to_have_text("ready")
    finally:
        paced.close()


def test_agentkit_web_streams(monkeypatch, tmp_path):
    from agentkit.frontends.web import launch

    made = {}
    monkeypatch.setattr(launch, "create_app", lambda *a, **options: made.update(options))
    monkeypatch.setattr(launch.uvicorn.Server, "run", lambda *a, **k: None)
    launch.serve(0, str(tmp_path))
    assert made["stream"] is True


def test_a_stream_the_provider_cuts_short_ends_the_turn_as_failed_and_the_next_turn_works(tmp_path, monkeypatch):
    from test_loop_provider_garbage import SSE, chunk, events
    from test_loop_provider_garbage import serving as provider

    from agentkit.offline import ScriptedModel

    cut = events(chunk({"content": "It is "}), done=False)
    client, _ = provider([(cut, SSE)], ScriptedModel(["Hello again."]))
    monkeypatch.setattr("test_web.offline_client", lambda model: client)
    with serving(None, tmp_path, stream=True) as port:
        text, status = Stream(port, "What time is it?").until("status")
        assert (text["text"], status["text"]) == ("It is ", "failed")
        assert status["content"] == ("the model's reply could not be used: the stream ended without a finish_reason "
                                     "(chunks received: 1): it was cut short before the reply was whole")
        *_, answer, status = Stream(port, "Hello").until("status")
    assert (answer["text"], status["text"]) == ("Hello again.", "completed")
