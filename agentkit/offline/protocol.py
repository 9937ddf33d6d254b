"""The Chat Completions wire format around a model: requests checked like the real API, replies as JSON or SSE.

One function, `handle`, serves both the in-process transport and the HTTP server, so that the two
paths cannot drift apart.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Protocol

from agentkit.hardening.echo import echo
from agentkit.offline import structured
from agentkit.offline.contract import check_chat
from agentkit.offline.model import Reply
from agentkit.offline.request import ApiError, HttpReply, read_json

SERVED_MODEL = "offline"
"""The model id `GET /v1/models` lists; requests may name any model, the same offline model answers them all."""

ENDPOINTS = "POST /v1/chat/completions, POST /v1/responses, GET /v1/models and GET /v1/models/{id}"


class Model(Protocol):
    def respond(self, request: dict[str, Any]) -> Reply: ...


def handle(model: Model, method: str, path: str, body: bytes) -> HttpReply:
    """Answer one HTTP request: every problem is a JSON error in the API's shape, never an exception."""
    try:
        return _route(model, method, path.split("?")[0], body)
    except ApiError as error:
        return error.reply()
    except Exception as error:  # a bug in a model must reach the client as an answer, not as a dropped connection
        return ApiError(500, f"the model failed: {type(error).__name__}: {echo(str(error), 200)}").reply()


def _route(model: Model, method: str, path: str, body: bytes) -> HttpReply:
    if path == "/v1/models" or path.startswith("/v1/models/"):
        _allow(method, "GET", path)
        if not (model_id := path.removeprefix("/v1/models").removeprefix("/")):
            return _json({"object": "list", "data": [_model_object()]})
        if model_id != SERVED_MODEL:
            raise ApiError(404, f"The model {echo(model_id)!r} does not exist; this server serves {SERVED_MODEL!r}.",
                           code="model_not_found")
        return _json(_model_object())
    if path == "/v1/responses":
        _allow(method, "POST", path)
        from agentkit.offline.responses import respond  # here: responses.py builds on this module

        return respond(model, body)
    if path != "/v1/chat/completions":
        raise ApiError(404, f"Unknown endpoint {echo(method)} {echo(path)}; this server has {ENDPOINTS}.")
    _allow(method, "POST", path)
    request = read_json(body)
    check_chat(request)  # refused as the API would, before the model sees it
    completion = completed(model, request)
    if rewrite := getattr(model, "wire", None):  # a variant written in another server's shape of the format
        completion = rewrite(completion)
    # Made in full here, inside `handle`'s try: a failure once the stream has started could only drop it.
    chunks = list(_sse(completion, (request.get("stream_options") or {}).get("include_usage", False)))
    if request.get("stream"):
        return HttpReply(200, "text/event-stream", chunks, steps=len(chunks))
    return replace(_json(completion), steps=len(chunks))


def _allow(method: str, allowed: str, path: str) -> None:
    if method != allowed:
        raise ApiError(405, f"Method {echo(method)} is not allowed on {echo(path)}; use {allowed} (this server has "
                            f"{ENDPOINTS}).", allow=allowed)


def _model_object() -> dict[str, Any]:
    return {"id": SERVED_MODEL, "object": "model", "created": 0, "owned_by": "agentkit"}


def _json(content: dict[str, Any]) -> HttpReply:
    return HttpReply(200, "application/json", json.dumps(content).encode())


def completed(model: Model, request: dict[str, Any]) -> dict[str, Any]:
    """The completion of a request that passed `contract.py`: the model's reply, constrained as the API does."""
    reply = structured.constrained(request, model.respond(request))
    # Ids are derived from the request, so the same request always gets the same reply, byte for byte.
    digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()
    # Only a choice the model made gives "tool_calls": a call forced by name is the answer asked for, so "stop".
    forced = isinstance(request.get("tool_choice"), dict)
    content, finish = reply.content, "tool_calls" if reply.tool_calls and not forced else "stop"
    for stop in [request["stop"]] if isinstance(request.get("stop"), str) else request.get("stop") or []:
        if content and stop in content:
            content = content[: content.index(stop)]
    limit = request.get("max_completion_tokens") or request.get("max_tokens")
    if content and limit and len(content) > 4 * limit:
        content, finish = content[: 4 * limit], "length"
    message: dict[str, Any] = {"role": "assistant", "content": content}
    message |= {key: value for key, value in (("refusal", reply.refusal), ("reasoning_content", reply.reasoning)) if value}
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": "call_" + hashlib.sha256(f"{digest}:{i}".encode()).hexdigest()[:12], "type": "function",
             "function": {"name": call.name, "arguments": call.arguments}}
            for i, call in enumerate(reply.tool_calls)
        ]
    # the offline model has no tokenizer: about 4 characters a token
    prompt = (len(json.dumps(request["messages"])) + len(json.dumps(request.get("tools") or []))) // 4
    written = max(1, (len(content or "") + sum(len(c.name) + len(c.arguments) for c in reply.tool_calls)) // 4)
    usage = {"prompt_tokens": prompt, "completion_tokens": written, "total_tokens": prompt + written, "approximate": True}
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
    if message.get("reasoning_content"):
        deltas.append({"reasoning_content": message["reasoning_content"]})
    deltas += [{field: piece} for field in ("content", "refusal") for piece in _pieces(message.get(field) or "")]
    deltas += _call_deltas(message.get("tool_calls") or [])
    base = {k: completion[k] for k in ("id", "created", "model", "system_fingerprint")} | {"object": "chat.completion.chunk"}
    for delta in deltas:
        yield _event(base | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
    yield _event(base | {"choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]})
    if include_usage and "usage" in completion:
        yield _event(base | {"choices": [], "usage": completion["usage"]})
    yield b"data: [DONE]\n\n"


def _call_deltas(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each call's head (index, id, name), then its arguments in fragments, the calls' fragments taken in turns.
    Interleaved, as some providers send parallel calls: an assembler that appends each fragment to the last call it saw,
    instead of to the call its `index` names, mixes up the two calls' arguments."""
    queues = []
    for index, call in enumerate(calls):
        head = {"index": index, "id": call["id"], "type": "function",
                "function": {"name": call["function"]["name"], "arguments": ""}}
        queues.append([head, *({"index": index, "function": {"arguments": piece}}
                               for piece in _pieces(call["function"]["arguments"], size=8))])
    return [{"tool_calls": [queue[step]]} for step in range(max(map(len, queues), default=0))
            for queue in queues if step < len(queue)]


def _pieces(text: str, size: int = 0) -> list[str]:
    if size:
        return [text[i: i + size] for i in range(0, len(text), size)]
    return [word for word in text.replace(" ", " \x00").split("\x00") if word]


def _event(chunk: dict[str, Any], kind: str = "") -> bytes:
    """One server-sent event: the chunk as JSON, under its name if it has one (the Responses API names each)."""
    return ((f"event: {kind}\n" if kind else "") + f"data: {json.dumps(chunk)}\n\n").encode()
