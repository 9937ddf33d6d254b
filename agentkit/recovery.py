"""Tool calls a local server left in the text, and thinking kept apart from the answer (chapter 02, going deeper).

A model calls a tool by writing text; the server turns that text into `tool_calls` only when it knows the
model's format (Ollama: from the model's template; vLLM: with a `--tool-call-parser`; llama.cpp: with
`--jinja`). When it does not, the call arrives as the reply's `content`, with `finish_reason: "stop"`:

    {"name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}}
    <tool_call>{"name": "get_current_time", "arguments": {...}}</tool_call>
    <tool_call><function=get_current_time><parameter=timezone>Asia/Tokyo</parameter></function></tool_call>
    FUNCTION: get_current_time(timezone="Asia/Tokyo")

`recover_calls` reads those back, as chapter 01 parsed its `FUNCTION:` line, with two rules that keep a
call from being made out of text that only talks about one: the name must be one of the tools offered,
and bare JSON counts only when it is the whole reply (a JSON example inside prose is an example). Text
copied from a tool result or the person's message is never a call: a file cannot make the agent act.
`split_thinking` takes a `<think>...</think>` block off the front of the text.

`RecoveringTransport` applies both to every (non-streamed) reply a client receives, so the notebooks, the
loop, the chat and the web page all get the usual shape: calls in `tool_calls` (ids starting with
`RECOVERED`), thinking in `reasoning_content`, and no blank `content` beside calls. The real fix is a
server setting; `SERVER_FIXES` names it for each server.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

import httpx2

RECOVERED = "text_call_"
"""How the id of a call recovered from text starts: the history records where each call came from."""

SERVER_FIXES = {
    "ollama": "Ollama returns tool calls only for models whose template supports tools: pick one listed at "
              "https://ollama.com/search?c=tools (`ollama show MODEL --template` shows the template)",
    "vllm": "vLLM needs to be started with --enable-auto-tool-choice --tool-call-parser <parser> (hermes for "
            "Qwen2.5, qwen3_coder for Qwen3-Coder, llama3_json for Llama 3.x, mistral for Mistral), and "
            "--reasoning-parser <parser> to keep <think> out of the answer",
    "llama.cpp": "llama.cpp's server needs to be started with --jinja (and a chat template that supports tools)",
}
"""What makes each local server return calls natively, named in the chat's note and by check_connection."""

_THINK = re.compile(r"^\s*<think>(.*?)</think>\s*", re.DOTALL)
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.DOTALL)
_FUNCTION = re.compile(r"^\s*<function=([\w.-]+)>(.*?)(?:</function>\s*)?$", re.DOTALL)
_PARAMETER = re.compile(r"<parameter=([\w.-]+)>\n?(.*?)\n?</parameter>", re.DOTALL)
_FENCE = re.compile(r"^```[\w-]*\n(.*)\n```$", re.DOTALL)
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.DOTALL)
_CALL_KEYS = {"name", "arguments", "parameters", "type", "id"}


@dataclass(frozen=True)
class TextCall:
    """One call read from text."""

    name: str
    """An offered tool's name."""
    arguments: str
    """The arguments as JSON text, as in a native call."""


def server_kind(base_url: str | None) -> str | None:
    """ollama, vllm or llama.cpp, guessed from the URL (name or default port); None when it says nothing."""
    url = (base_url or "").lower()
    for kind, hints in {"ollama": ("ollama", ":11434"), "vllm": ("vllm", ":8000/"), "llama.cpp": ("llama", ":8080/")}.items():
        if any(hint in url for hint in hints):
            return kind
    return None


def server_fix(base_url: str | None) -> str:
    """What makes this server return calls natively: its setting, the three local ones, or a provider's model."""
    kind = server_kind(base_url)
    if kind:
        return SERVER_FIXES[kind]
    if urlparse(base_url or "").hostname in ("localhost", "127.0.0.1", "::1", "0.0.0.0", "host.docker.internal"):
        return "; ".join(SERVER_FIXES.values())
    return "MODEL should be one of this provider's models that supports tool (function) calling"


def split_thinking(text: str) -> tuple[str, str]:
    """(the thinking, the rest): a leading `<think>` block, or all before a `</think>` whose `<think>` was in the prompt."""
    if match := _THINK.match(text):
        return match.group(1).strip(), text[match.end():]
    if "</think>" in text and "<think>" not in text:  # some chat templates open the block themselves
        thinking, _, rest = text.partition("</think>")
        return thinking.strip(), rest.lstrip()
    return "", text


def recover_calls(text: str, tools: Mapping[str, dict], quoted: Sequence[str] = ()) -> list[TextCall]:
    """The calls written in `text` to the offered `tools` (name -> parameters schema); [] if it is not only calls.

    All or nothing: a reply with one part that is not a call to an offered tool recovers no call at all.
    `quoted`: texts the model was given (tool results, the person's messages); a call copied from one is data.
    """
    text = text.strip()
    if not text or any(text in source for source in quoted if source):
        return []
    blocks = [block.strip() for block in _TOOL_CALL.findall(text)]
    if blocks and len(_TOOL_CALL.findall(_CODE.sub("", text))) < len(blocks):
        return []  # a <tool_call> shown as code is an example of the format, not a call
    if blocks:
        calls = [_tagged(block, tools) for block in blocks]
    elif fenced := _FENCE.match(text):  # the whole reply in one ```json fence
        calls = _json_calls(fenced.group(1).strip(), tools)
    elif text.startswith(("{", "[")):
        calls = _json_calls(text, tools)
    else:
        calls = [_function_line(text, tools)] if "FUNCTION:" in text else []
    return calls if calls and all(calls) else []


def _tagged(block: str, tools: Mapping[str, dict]) -> TextCall | None:
    if function := _FUNCTION.match(block):
        name, body = function.groups()
        schema = (tools.get(name) or {}).get("properties") or {}
        values = {key: _parameter_value(value, schema.get(key) or {}) for key, value in _PARAMETER.findall(body)}
        return _call(name, values, tools)
    calls = _json_calls(block, tools)
    return calls[0] if len(calls) == 1 else None


def _parameter_value(text: str, schema: dict) -> Any:
    if schema.get("type") == "string":
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _json_calls(text: str, tools: Mapping[str, dict]) -> list[TextCall | None]:
    """One JSON object, a JSON list of them, or one object a line."""
    try:
        found = json.loads(text)
        items = found if isinstance(found, list) else [found]
    except ValueError:
        try:
            items = [json.loads(line) for line in text.splitlines() if line.strip()]
        except ValueError:
            return []
    return [_from_object(item, tools) for item in items]


def _from_object(item: Any, tools: Mapping[str, dict]) -> TextCall | None:
    if isinstance(item, dict) and isinstance(item.get("function"), dict):  # {"type": "function", "function": {...}}
        item = item["function"]
    if not isinstance(item, dict) or not set(item) <= _CALL_KEYS or "name" not in item:
        return None
    arguments = item.get("arguments", item.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    return _call(item["name"], arguments, tools)


def _function_line(text: str, tools: Mapping[str, dict]) -> TextCall | None:
    """Chapter 01's `FUNCTION: name(...)` line, read by chapter 01's own parser against the offered tools."""
    from agentkit.manual import FunctionCallError, parse_reply  # chapter 01's skill, the first way calls were written

    try:
        call = parse_reply(text, [_signature_of(name, schema) for name, schema in tools.items()])
    except FunctionCallError:
        return None
    if call is None:
        return None
    bound = inspect.signature(_signature_of(call.name, tools[call.name])).bind(*call.args, **call.kwargs)
    return _call(call.name, dict(bound.arguments), tools)


def _signature_of(name: str, schema: dict) -> Callable[..., None]:
    """A function that only has the tool's name and parameters: enough for `parse_reply` to check a call against."""
    def tool(*args: Any, **kwargs: Any) -> None: ...
    tool.__name__ = name
    tool.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None) for p in schema.get("properties") or {}])
    return tool


def _call(name: Any, arguments: Any, tools: Mapping[str, dict]) -> TextCall | None:
    if not isinstance(name, str) or name not in tools or not isinstance(arguments, dict):
        return None  # only tools that were offered: text naming anything else is not a call we may make
    return TextCall(name, json.dumps(arguments, ensure_ascii=False))


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
                                          "function": {"name": c.name, "arguments": c.arguments}}
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


def recovers(client: Any) -> bool:
    """Does `client` read calls back from text? `connect()` puts a `RecoveringTransport` under it when the setting
    says so; streams pass that transport untouched, so the loop recovers a streamed reply once it is whole."""
    return isinstance(getattr(getattr(client, "_client", None), "_transport", None), RecoveringTransport)


def first_recovery_note(messages: Sequence[dict[str, Any]], base_url: str | None) -> str | None:
    """A note for the person when the last reply's calls are the first in `messages` read back from text."""
    recovered = [any(c["id"].startswith(RECOVERED) for c in m.get("tool_calls") or [])
                 for m in messages if m.get("role") == "assistant"]
    if not recovered or not recovered[-1] or any(recovered[:-1]):
        return None
    return (f"The server sent this tool call as text, and it was read back from the text (RECOVER_TEXT_CALLS). "
            f"For native tool calls: {server_fix(base_url)}.")


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
                choice["message"] = recover_reply(choice["message"], sent.get("messages") or [], sent.get("tools") or [])
                if choice["message"].get("tool_calls") and choice.get("finish_reason") == "stop":
                    choice["finish_reason"] = "tool_calls"
        return httpx2.Response(200, headers=headers, content=json.dumps(body).encode(), request=request)

    async def aclose(self) -> None:
        await self.inner.aclose()
