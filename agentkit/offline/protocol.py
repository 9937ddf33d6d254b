"""The Chat Completions wire format around a model: requests checked like the real API, replies as JSON or SSE.

One function, `handle`, serves both the in-process transport and the HTTP server, so that the two
paths cannot drift apart.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from agentkit.offline.model import Reply


class Model(Protocol):
    def respond(self, request: dict[str, Any]) -> Reply: ...


class ApiError(Exception):
    """An HTTP error in the API's own format; the openai SDK turns it into BadRequestError and friends."""

    def __init__(self, status: int, message: str, param: str | None = None):
        super().__init__(message)
        self.status, self.message, self.param = status, message, param

    def body(self) -> bytes:
        kind = "invalid_request_error" if self.status < 500 else "server_error"
        return json.dumps({"error": {"message": self.message, "type": kind, "param": self.param, "code": None}}).encode()


@dataclass(frozen=True)
class HttpReply:
    status: int
    content_type: str
    chunks: Iterator[bytes] | bytes


def handle(model: Model, method: str, path: str, body: bytes) -> HttpReply:
    """Answer one HTTP request to `/v1/chat/completions` or `/v1/models`."""
    try:
        if method == "GET" and path.endswith("/models"):
            models = {"object": "list", "data": [{"id": "offline", "object": "model", "created": 0, "owned_by": "agentkit"}]}
            return HttpReply(200, "application/json", json.dumps(models).encode())
        if not (method == "POST" and path.endswith("/chat/completions")):
            raise ApiError(404, f"Unknown endpoint {method} {path}; this server has POST /v1/chat/completions and GET /v1/models.")
        request = _parse(body)
        reply = model.respond(request)
    except ApiError as error:
        return HttpReply(error.status, "application/json", error.body())
    except Exception as error:  # a bug in a model must reach the client as an answer, not as a dropped connection
        return HttpReply(500, "application/json", ApiError(500, f"the model failed: {type(error).__name__}: {error}").body())
    completion = _completion(request, reply)
    if request.get("stream"):
        include_usage = (request.get("stream_options") or {}).get("include_usage", False)
        return HttpReply(200, "text/event-stream", _sse(completion, include_usage))
    return HttpReply(200, "application/json", json.dumps(completion).encode())


def _parse(body: bytes) -> dict[str, Any]:
    try:
        request = json.loads(body)
    except ValueError as error:
        raise ApiError(400, f"We could not parse the JSON body of your request: {error}") from None
    if not isinstance(request, dict) or "model" not in request:
        raise ApiError(400, "you must provide a model parameter", "model")
    messages = request.get("messages")
    if not messages or not isinstance(messages, list):
        raise ApiError(400, "'messages' must be a non-empty array of message objects", "messages")
    _check_tool_pairing(messages)
    tools = {t["function"]["name"] for t in request.get("tools") or []}
    choice = request.get("tool_choice")
    if isinstance(choice, dict) and choice.get("function", {}).get("name") not in tools:
        raise ApiError(400, f"Invalid value for 'tool_choice': no function named {choice.get('function', {}).get('name')!r} "
                            f"was specified in the 'tools' parameter (offered: {', '.join(sorted(tools)) or 'none'}).", "tool_choice")
    if choice == "required" and not tools:
        raise ApiError(400, "Invalid value for 'tool_choice': 'required' needs at least one tool in 'tools'.", "tool_choice")
    if choice is not None and not isinstance(choice, dict) and choice not in ("auto", "none", "required"):
        raise ApiError(400, f"Invalid value for 'tool_choice': {choice!r}; should be one of: auto, none, required, "
                            "or {\"type\": \"function\", \"function\": {\"name\": ...}}.", "tool_choice")
    return request


def _check_tool_pairing(messages: list[dict]) -> None:
    """The real API's rules: every tool message answers an earlier call, and every call gets an answer."""
    pending: list[str] = []
    for i, message in enumerate([*messages, {"role": "end of messages"}]):
        if message.get("role") == "tool":
            if message.get("tool_call_id") not in pending:
                raise ApiError(400, "Invalid parameter: messages with role 'tool' must be a response to a preceding "
                                    f"message with 'tool_calls'; tool_call_id {message.get('tool_call_id')!r} "
                                    f"answers no call (open calls: {', '.join(pending) or 'none'}).", f"messages.[{i}].tool_call_id")
            pending.remove(message["tool_call_id"])
            continue
        if pending:
            raise ApiError(400, "An assistant message with 'tool_calls' must be followed by tool messages responding "
                                f"to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
                                f"{', '.join(pending)}", f"messages.[{i}].role")
        pending = [call["id"] for call in message.get("tool_calls") or []]


def _completion(request: dict[str, Any], reply: Reply) -> dict[str, Any]:
    # Ids are derived from the request, so the same request always gets the same reply, byte for byte.
    digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()
    content, finish = reply.content, "tool_calls" if reply.tool_calls else "stop"
    for stop in [request["stop"]] if isinstance(request.get("stop"), str) else request.get("stop") or []:
        if content and stop in content:
            content = content[: content.index(stop)]
    limit = request.get("max_completion_tokens") or request.get("max_tokens")
    if content and limit and len(content) > 4 * limit:
        content, finish = content[: 4 * limit], "length"
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": "call_" + hashlib.sha256(f"{digest}:{i}".encode()).hexdigest()[:12], "type": "function",
             "function": {"name": call.name, "arguments": call.arguments}}
            for i, call in enumerate(reply.tool_calls)
        ]
    prompt = len(json.dumps(request["messages"])) + len(json.dumps(request.get("tools") or []))
    completion_chars = len(content or "") + sum(len(c.name) + len(c.arguments) for c in reply.tool_calls)
    usage = {"prompt_tokens": prompt // 4, "completion_tokens": max(1, completion_chars // 4)}
    usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    usage["approximate"] = True  # the offline model has no tokenizer: about 4 characters a token
    return {
        "id": f"chatcmpl-offline-{digest[:12]}", "object": "chat.completion", "created": 0,
        "model": request["model"], "system_fingerprint": "agentkit-offline",
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": usage,
    }


def _sse(completion: dict[str, Any], include_usage: bool) -> Iterator[bytes]:
    """The completion as the stream of chunks a real server sends: role, text pieces, tool-call pieces, finish."""
    choice = completion["choices"][0]
    message = choice["message"]
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": None if message["content"] is None else ""}]
    for piece in _pieces(message["content"] or ""):
        deltas.append({"content": piece})
    for index, call in enumerate(message.get("tool_calls") or []):
        head = {"index": index, "id": call["id"], "type": "function", "function": {"name": call["function"]["name"], "arguments": ""}}
        deltas.append({"tool_calls": [head]})
        for piece in _pieces(call["function"]["arguments"], size=8):
            deltas.append({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    base = {key: completion[key] for key in ("id", "created", "model", "system_fingerprint")} | {"object": "chat.completion.chunk"}
    for delta in deltas:
        yield _event(base | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
    yield _event(base | {"choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]})
    if include_usage:
        yield _event(base | {"choices": [], "usage": completion["usage"]})
    yield b"data: [DONE]\n\n"


def _pieces(text: str, size: int = 0) -> list[str]:
    if size:
        return [text[i: i + size] for i in range(0, len(text), size)]
    return [word for word in text.replace(" ", " \x00").split("\x00") if word]


def _event(chunk: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(chunk)}\n\n".encode()
