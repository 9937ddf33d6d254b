"""`agentkit chat` restarts itself with a clean environment: a command cannot read a secret in /proc/<agent>/environ."""

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from test_cli_chat import ask, start_chat

from agentkit.config import Settings
from agentkit.frontends.reexec import SETTINGS_FD, clean_environment, receive_settings, send_settings

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc/<pid>/environ (Linux)")


def environment_of(pid: int) -> dict[str, str]:
    """What a command the agent runs sees in /proc/$PPID/environ: the process's environment as it started."""
    with open(f"/proc/{pid}/environ", "rb") as file:
        entries = file.read().decode(errors="replace").split("\0")
    return dict(entry.split("=", 1) for entry in entries if "=" in entry)


def test_a_secret_exported_in_the_shell_is_not_in_the_chats_environment(tmp_path):
    child = start_chat(tmp_path, DATABASE_URL="postgres://app:secret-xyz@db/app", GH_PAT="ghp-secret-xyz")
    seen = environment_of(child.pid)  # execve keeps the pid: this is the restarted chat
    assert SETTINGS_FD in seen, "the chat restarted itself"
    assert "secret-xyz" not in "".join(f"{name}={value}" for name, value in seen.items())
    assert seen["PATH"] == os.environ["PATH"], "what commands need is kept"
    child.sendline("/exit")
    child.expect_exact("bye")


class RecordingProvider(BaseHTTPRequestHandler):
    """A provider that records the key each request brings and always answers "hello"."""

    keys: list[str] = []

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["content-length"])))
        self.keys.append(self.headers["authorization"])
        if request.get("stream"):  # the chat streams its replies: answer as a provider does, in server-sent events
            chunk = {"id": "1", "object": "chat.completion.chunk", "created": 0, "model": "m", "choices": [
                {"index": 0, "finish_reason": "stop", "delta": {"role": "assistant", "content": "hello"}}]}
            body, kind = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode(), "text/event-stream"
        else:
            body, kind = json.dumps({"id": "1", "object": "chat.completion", "created": 0, "model": "m", "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hello"}}]}).encode(), \
                "application/json"
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_the_key_reaches_the_restarted_chat_through_the_pipe_not_the_environment(tmp_path):
    with ThreadingHTTPServer(("127.0.0.1", 0), RecordingProvider) as provider:
        threading.Thread(target=provider.serve_forever, daemon=True).start()
        key = "sk-test-key-only-in-memory"
        child = start_chat(tmp_path, MODEL_API_KEY=key, MODEL="m", BASE_URL=f"http://127.0.0.1:{provider.server_port}/v1")
        assert ask(child, "Say hello") == "agent> hello\n"
        assert RecordingProvider.keys == [f"Bearer {key}"], "the provider got the key"
        assert key not in json.dumps(environment_of(child.pid)), "but the chat's environment never held it"
        child.sendline("/exit")
        child.expect_exact("bye")
        provider.shutdown()


def test_settings_go_through_an_inherited_pipe():
    settings = Settings(api_key="sk-1", base_url="https://example.com/v1", model="m", timeout=5.0, max_retries=1)
    fd = send_settings(settings)
    assert os.get_inheritable(fd), "a program this process becomes (execve) must find the pipe open"
    assert receive_settings(fd) == settings
    with pytest.raises(OSError):
        os.fstat(fd)  # read once, then closed


def test_the_clean_environment_is_the_shells_allowlist_plus_what_python_and_the_client_need():
    environ = {"PATH": "/bin", "LC_ALL": "C.UTF-8", "PYTHONPATH": "/src", "HTTPS_PROXY": "http://proxy:3128",
               "DATABASE_URL": "postgres://secret", "SLACK_WEBHOOK_URL": "https://hooks/secret", "MODEL_API_KEY": "sk"}
    kept = clean_environment(environ)
    assert {"PATH", "LC_ALL", "PYTHONPATH", "HTTPS_PROXY"} <= kept.keys()
    assert not {"DATABASE_URL", "SLACK_WEBHOOK_URL", "MODEL_API_KEY"} & kept.keys()


def test_agentkit_web_restarts_itself_too(tmp_path):
    pytest.importorskip("uvicorn")
    env = {**os.environ, "MODEL_API_KEY": "", "DATABASE_URL": "postgres://app:secret-xyz@db/app"}
    server = subprocess.Popen([sys.executable, "-m", "agentkit.frontends.cli", "web", "--port", "0", "--workspace",
                               str(tmp_path)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().startswith("agentkit web: open"), "the restarted server is up"
        seen = environment_of(server.pid)
        assert SETTINGS_FD in seen and "secret-xyz" not in json.dumps(seen)
    finally:
        server.terminate()
        server.wait(timeout=10)
