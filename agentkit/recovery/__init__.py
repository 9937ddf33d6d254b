"""Tool calls a local server left in the text, and thinking kept apart from the answer (chapter 02, going deeper).

A model calls a tool by writing text; the server turns that text into `tool_calls` only when it knows the
model's format (Ollama: from the model's template; vLLM: with a `--tool-call-parser`; llama.cpp: with
`--jinja`). When it does not, the call arrives as the reply's `content`, with `finish_reason: "stop"`.
`agentkit.recovery.text_calls` reads such calls (and a `<think>` block) back out of the text.

A `RecoveringClient` (what `connect()` gives when RECOVER_TEXT_CALLS says so) applies both to every reply: its
transport to a plain one, so that a notebook's own request gets the usual shape too, and the loop to a streamed
one once it is whole (a stream passes the transport as it comes). The usual shape: calls in `tool_calls` (ids
starting with `RECOVERED`), thinking in `reasoning_content`, and no blank `content` beside calls. The real fix
is a server setting; `SERVER_FIXES` names it for each server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal
from urllib.parse import urlparse

import httpx2
import openai

# recover_calls and split_thinking are read from here too (chapter 02, config, the tests).
from agentkit.recovery.text_calls import recover_calls, split_thinking

__all__ = ["RECOVERED", "SERVER_FIXES", "RecoveringClient", "RecoveringTransport", "RecoveryNote", "first_recovery_note",
           "recover_calls", "recover_message", "recover_reply", "server_fix", "server_kind", "split_thinking"]


RECOVERED = "text_call_"
"""How the id of a call recovered from text starts: the history records where each call came from."""

ServerKind = Literal["ollama", "vllm", "llama.cpp"]
"""The local servers whose setting for native tool calls we know."""

SERVER_FIXES: dict[ServerKind, str] = {
    "ollama": "Ollama returns tool calls only for models whose template supports tools: pick one listed at "
              "https://ollama.com/search?c=tools (`ollama show MODEL --template` shows the template)",
    "vllm": "vLLM needs to be started with --enable-auto-tool-choice --tool-call-parser <parser> (hermes for "
            "Qwen2.5, qwen3_coder for Qwen3-Coder, llama3_json for Llama 3.x, mistral for Mistral), and "
            "--reasoning-parser <parser> to keep <think> out of the answer",
    "llama.cpp": "llama.cpp's server needs to be started with --jinja (and a chat template that supports tools)",
}
"""What makes each local server return calls natively, named in the chat's note and by check_connection."""


def server_kind(base_url: str | None) -> ServerKind | None:
    """ollama, vllm or llama.cpp, guessed from the URL (name or default port); None when it says nothing."""
    url = (base_url or "").lower()
    hints_of: dict[ServerKind, tuple[str, str]] = {
        "ollama": ("ollama", ":11434"), "vllm": ("vllm", ":8000/"), "llama.cpp": ("llama", ":8080/")}
    for kind, hints in hints_of.items():
        if any(hint in url for hint in hints):
            return kind
    return None


PROVIDER_FIX = "MODEL should be one of this provider's models that supports tool (function) calling"
"""What makes a provider's server (no local one) return calls natively: a model that has them."""
NOTE = ("The server sent this tool call as text, and it was read back from the text (RECOVER_TEXT_CALLS). "
        "For native tool calls: {fix}.")
"""The note a chat shows the first time in a task that calls were read back from text; {fix} is `server_fix`'s."""


def fixes_for(base_url: str | None) -> tuple[ServerKind | Literal["provider"], ...]:
    """Which fixes `server_fix` names: this server's, the three local ones (a local URL that says nothing), or a provider's."""
    kind = server_kind(base_url)
    if kind:
        return (kind,)
    if urlparse(base_url or "").hostname in ("localhost", "127.0.0.1", "::1", "0.0.0.0", "host.docker.internal"):
        return tuple(SERVER_FIXES)
    return ("provider",)


def server_fix(base_url: str | None) -> str:
    """What makes this server return calls natively: its setting, the three local ones, or a provider's model."""
    return "; ".join(SERVER_FIXES[kind] if kind != "provider" else PROVIDER_FIX for kind in fixes_for(base_url))


class RecoveryNote(str):
    """`NOTE` in English, as a notebook prints it, with the fixes it names (`fixes`): a front end words it from them."""

    fixes: tuple[ServerKind | Literal["provider"], ...]

    def __new__(cls, base_url: str | None) -> RecoveryNote:
        note = super().__new__(cls, NOTE.format(fix=server_fix(base_url)))
        note.fixes = fixes_for(base_url)
        return note


def recover_message(message: dict[str, Any], tools: Mapping[str, dict], quoted: Sequence[str] = (),
                    first_id: int = 0) -> dict[str, Any]:
    """A reply's message (wire format) in the usual shape: thinking apart, calls recovered, no blank text beside calls."""
    message = dict(message)
    content = message.get("content")
    if isinstance(content, str):
        thinking, content = split_thinking(content)
        if thinking:
            message["reasoning_content"] = "\n\n".join(filter(None, [message.get("reasoning_content"), thinking]))
        if not message.get("tool_calls") and tools:
            calls = recover_calls(content, tools, quoted)
            if calls:
                message["tool_calls"] = [{"id": f"{RECOVERED}{first_id + i}", "type": "function",
                                          "function": {"name": c.name, "arguments": c.raw_arguments}}
                                         for i, c in enumerate(calls)]
                content = ""  # the text was the calls: what the server would have sent is no text at all
        message["content"] = None if message.get("tool_calls") and not content.strip() else content
    return message


def recover_reply(message: dict[str, Any], sent_messages: Sequence[dict], sent_tools: Sequence[dict]) -> dict[str, Any]:
    """`recover_message` for a reply to a request that sent `sent_messages` and offered `sent_tools`."""
    tools = {t["function"]["name"]: t["function"].get("parameters") or {}
             for t in sent_tools if isinstance(t, dict) and isinstance(t.get("function"), dict)}
    quoted = [m["content"] for m in sent_messages
              if m.get("role") in ("user", "tool") and isinstance(m.get("content"), str)]
    made = sum(len(m.get("tool_calls") or []) for m in sent_messages if m.get("role") == "assistant")
    return recover_message(message, tools, quoted, first_id=made)


class RecoveringClient(openai.AsyncOpenAI):
    """An `AsyncOpenAI` client that reads calls back from text: its type is the setting the loop reads.

    Its transport recovers every plain reply, whatever made the client: `transport=` is the one it wraps (by
    default the usual HTTP one); an `http_client=` must already recover (a copy, made by `with_options`)."""

    def __init__(self, *, transport: httpx2.AsyncBaseTransport | None = None, **options: Any) -> None:
        given = options.get("http_client")
        if given is None:
            inner = transport or httpx2.AsyncHTTPTransport()
            options["http_client"] = openai.DefaultAsyncHttpxClient(transport=RecoveringTransport(inner))
        elif transport is not None or not isinstance(getattr(given, "_transport", None), RecoveringTransport):
            raise TypeError("RecoveringClient(http_client=...) would not read calls back from a plain reply: pass "
                            "transport= (the one to wrap), or neither, and it builds its own recovering HTTP client")
        super().__init__(**options)


def first_recovery_note(messages: Sequence[dict[str, Any]], base_url: str | None) -> RecoveryNote | None:
    """A note for the person when the last reply's calls are the first in `messages` read back from text."""
    recovered = [any(c["id"].startswith(RECOVERED) for c in m.get("tool_calls") or [])
                 for m in messages if m.get("role") == "assistant"]
    if not recovered or not recovered[-1] or any(recovered[:-1]):
        return None
    return RecoveryNote(base_url)


class RecoveringTransport(httpx2.AsyncBaseTransport):
    """A transport that hands the client every chat completion through `recover_message` (streams pass as they are)."""

    def __init__(self, inner: httpx2.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        if not request.url.path.endswith("/chat/completions") or response.status_code != 200:
            return response
        try:
            sent = json.loads(request.content)
        except ValueError:
            return response
        if not isinstance(sent, dict) or sent.get("stream") or "json" not in response.headers.get("content-type", ""):
            return response
        raw = await response.aread()  # decoded: the encoding headers no longer describe what is passed on
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in ("content-length", "content-encoding")]
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        if not isinstance(body, dict):  # not a completion: the loop's own check says what is wrong with it
            return httpx2.Response(200, headers=headers, content=raw, request=request)
        for choice in body.get("choices") or []:
            if isinstance(choice, dict) and isinstance(choice.get("message"), dict):
                native = bool(choice["message"].get("tool_calls"))  # a forced named call says "stop": left as sent
                choice["message"] = recover_reply(choice["message"], sent.get("messages") or [], sent.get("tools") or [])
                if not native and choice["message"].get("tool_calls") and choice.get("finish_reason") == "stop":
                    choice["finish_reason"] = "tool_calls"
        return httpx2.Response(200, headers=headers, content=json.dumps(body).encode(), request=request)

    async def aclose(self) -> None:
        await self.inner.aclose()
