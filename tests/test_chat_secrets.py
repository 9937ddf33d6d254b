"""A provider's error message that echoes the API key never shows it: not in the chat, not in the connection check."""

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import openai
import pytest

from agentkit.agent import open_workspace
from agentkit.config import ConfigError, Settings
from agentkit.frontends.chat import chat
from agentkit.frontends.connection import check_connection
from agentkit.frontends.terminal import Terminal
from agentkit.hardening.secrets import HIDDEN_KEY, without_key

KEY = "sk-proj-secret-4f8a9c2e1b7d"


class EchoingProvider(BaseHTTPRequestHandler):
    """Refuses every request with a message that repeats the Authorization header, as some providers do."""

    status = 401

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["content-length"]))
        echoed = f"Invalid key in header '{self.headers['authorization']}' (key={self.headers['authorization'][7:]})"
        body = json.dumps({"error": {"message": echoed, "type": "invalid_request_error"}}).encode()
        self.send_response(self.status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def provider():
    with ThreadingHTTPServer(("127.0.0.1", 0), EchoingProvider) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_port}/v1"
        server.shutdown()


@pytest.mark.parametrize("stream", [False, True])
def test_the_chat_does_not_print_a_key_the_provider_echoes(tmp_path, provider, stream):
    client = openai.AsyncOpenAI(api_key=KEY, base_url=provider, max_retries=0)
    printed, answers = [], iter(["hello", "/exit"])
    task = asyncio.run(chat(client, "m", open_workspace(tmp_path), Terminal(lambda _: next(answers), printed.append),
                            stream=stream))
    failure = next(line for line in printed if line.startswith("[task failed"))
    assert KEY not in "\n".join(printed) and KEY not in str(task.error)
    assert f"'Bearer {HIDDEN_KEY}' (key={HIDDEN_KEY})" in failure, "the rest of the provider's message is kept"


@pytest.mark.parametrize("status", [401, 403, 429])
def test_the_connection_check_does_not_print_it_either(provider, status, monkeypatch):
    monkeypatch.setattr(EchoingProvider, "status", status)
    settings = Settings(api_key=KEY, base_url=provider, model="m", max_retries=0)
    client = openai.AsyncOpenAI(api_key=KEY, base_url=provider, max_retries=0)
    with pytest.raises(ConfigError) as raised:
        asyncio.run(check_connection(client, settings))
    assert KEY not in str(raised.value)


def test_only_a_real_key_is_hidden():
    assert without_key(f"bad {KEY}!", KEY) == f"bad {HIDDEN_KEY}!"
    assert without_key("the offline model said no", "offline") == "the offline model said no", "a placeholder"
    assert without_key("anything", None) == without_key("anything", "") == "anything"
