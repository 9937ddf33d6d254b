"""The Responses API (`POST /v1/responses`) around the same offline model, so `client.responses.create` works offline.

The Responses API carries what Chat Completions does, in other shapes (chapter 12 maps them):

    Chat Completions                          Responses
    messages=[{"role": "system", ...}]        instructions="..."
    messages=[{"role": "user", ...}]          input="..." or input=[{"role": "user", "content": ...}]
    tools=[{"type": "function",               tools=[{"type": "function", "name": ...,
            "function": {"name": ...}}]               "parameters": ...}]          (one level flatter)
    message.tool_calls[i].id                  output item {"type": "function_call", "call_id": ...}
    {"role": "tool", "tool_call_id": ...}     input item {"type": "function_call_output", "call_id": ..., "output": ...}

    tools[i].function.strict                  tools[i].strict
    response_format={"type": "json_schema",   text={"format": {"type": "json_schema",
                     "json_schema": {...}}}                     "name": ..., "schema": ..., "strict": ...}}

One default differs: a Responses function tool is strict unless it says `"strict": false` (in Chat Completions,
only with `"strict": true`), so its schema must be closed with every property required, or the request is refused.

So a request is checked against its own types and rules (`contract.py`), converted to a Chat Completions request,
answered by the same model, and its completion converted back: one decision procedure, two wire formats.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

from agentkit.hardening.echo import echo
from agentkit.offline.contract import check_responses
from agentkit.offline.protocol import Model, _event, _pieces, completed
from agentkit.offline.request import ApiError, HttpReply, read_json


def respond(model: Model, body: bytes) -> HttpReply:
    """Answer one `POST /v1/responses`: the Response object as JSON, or its stream of events."""
    request = read_json(body)
    check_responses(request)  # refused in this endpoint's own names, before it is converted
    response = to_response(request, completed(model, to_chat_request(request)))
    if request.get("stream"):
        return HttpReply(200, "text/event-stream", list(response_events(response)))
    return HttpReply(200, "application/json", json.dumps(response).encode())


def to_chat_request(request: dict[str, Any]) -> dict[str, Any]:
    """The Chat Completions request that asks the same thing as this Responses request."""
    if request.get("previous_response_id"):
        raise ApiError(400, "This offline server stores no responses: send the whole conversation in 'input' "
                            "instead of 'previous_response_id'.", "previous_response_id")
    messages = [{"role": "system", "content": request["instructions"]}] if request.get("instructions") else []
    if (items := request.get("input")) is None:  # the API would take a stored prompt instead; this server has none
        raise ApiError(400, "'input' must be a string or an array of input items.", "input")
    for index, item in enumerate([{"role": "user", "content": items}] if isinstance(items, str) else items):
        _add_item(messages, item, f"input[{index}]")
    chat: dict[str, Any] = {"model": request.get("model"), "messages": messages}
    if request.get("tools"):
        chat["tools"] = [_chat_tool(tool) for tool in request["tools"]]
    choice = request.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "function":
        choice = {"type": "function", "function": {"name": choice.get("name")}}
    same = {"tool_choice": choice, "max_completion_tokens": request.get("max_output_tokens"),
            "parallel_tool_calls": request.get("parallel_tool_calls")}
    chat |= {field: value for field, value in same.items() if value is not None}
    if form := (request.get("text") or {}).get("format"):  # a json_schema's fields sit one level up in Responses
        chat["response_format"] = {"type": form["type"]} if form["type"] != "json_schema" else {
            "type": "json_schema", "json_schema": {k: form[k] for k in ("name", "description", "schema", "strict") if k in form}}
    return chat


def _add_item(messages: list[dict[str, Any]], item: Any, where: str) -> None:
    """One input item as the chat message it stands for; consecutive function calls join one assistant message."""
    if (kind := item.get("type", "message")) == "message":
        messages.append({"role": item.get("role"), "content": _text(item.get("content"))})
    elif kind == "function_call":
        call = {"id": item.get("call_id"), "type": "function",
                "function": {"name": item.get("name"), "arguments": item.get("arguments")}}
        if (last := messages[-1] if messages else {}).get("role") == "assistant" and "tool_calls" in last:
            last["tool_calls"].append(call)
        else:
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
    elif kind == "function_call_output":
        messages.append({"role": "tool", "tool_call_id": item.get("call_id"), "content": _text(item.get("output"))})
    elif kind != "reasoning":  # reasoning items carry nothing this model reads
        raise ApiError(400, f"Invalid value for '{where}.type': {echo(json.dumps(kind))}; this server reads message, "
                            "function_call, function_call_output and reasoning items.", f"{where}.type")


def _text(content: Any) -> Any:
    """A message's content parts (`input_text`, `output_text`) as the plain text Chat Completions carries."""
    if not isinstance(content, list):
        return content
    return "".join(part.get("text", "") for part in content if part.get("type") in ("input_text", "output_text", "text"))


def _chat_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A function tool (the only kind `contract_rules.py` lets through) one level deeper, strict unless it says not."""
    function = {key: tool[key] for key in ("name", "description", "parameters") if tool.get(key) is not None}
    if tool.get("strict") is not False:  # strict unless it says otherwise: Chat Completions' default is the opposite
        function["strict"] = True
    return {"type": "function", "function": function}


def to_response(request: dict[str, Any], completion: dict[str, Any]) -> dict[str, Any]:
    """The Response object for a completion: a message item for its text, a function_call item for each call."""
    message = completion["choices"][0]["message"]
    key = completion["id"].removeprefix("chatcmpl-offline-")
    output: list[dict[str, Any]] = []
    if message["content"] or message.get("refusal"):  # a strict text.format the question cannot fill: refused
        part = ({"type": "output_text", "text": message["content"], "annotations": []} if message["content"] else
                {"type": "refusal", "refusal": message["refusal"]})
        output.append({"type": "message", "id": f"msg_{key}", "status": "completed", "role": "assistant", "content": [part]})
    for index, call in enumerate(message.get("tool_calls") or []):
        output.append({"type": "function_call", "id": f"fc_{key}_{index}", "call_id": call["id"],
                       "name": call["function"]["name"], "arguments": call["function"]["arguments"], "status": "completed"})
    usage = completion["usage"]
    cut = completion["choices"][0]["finish_reason"] == "length"
    return {
        "id": f"resp_{key}", "object": "response", "created_at": 0, "model": completion["model"],
        "status": "incomplete" if cut else "completed",
        "incomplete_details": {"reason": "max_output_tokens"} if cut else None,
        "instructions": request.get("instructions"), "output": output,
        "parallel_tool_calls": request.get("parallel_tool_calls", True),
        "tool_choice": request.get("tool_choice") or "auto", "tools": request.get("tools") or [],
        "usage": {"input_tokens": usage["prompt_tokens"], "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": usage["completion_tokens"], "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": usage["total_tokens"]},
    }


def response_events(response: dict[str, Any]) -> Iterator[bytes]:
    """The response as the events a real server streams: created, each item piece by piece, completed."""
    count = itertools.count()

    def numbered(kind: str, **fields: Any) -> bytes:
        return _event({"type": kind, "sequence_number": next(count)} | fields, kind)

    pending = response | {"status": "in_progress", "output": []}
    yield numbered("response.created", response=pending)
    yield numbered("response.in_progress", response=pending)
    for index, item in enumerate(response["output"]):
        at = {"output_index": index}
        if item["type"] == "message":
            whole = item["content"][0]  # output_text, or a refusal: streamed alike, under their own names
            field, kind = ("text", "output_text") if whole["type"] == "output_text" else ("refusal", "refusal")
            extra = {"logprobs": []} if field == "text" else {}
            part = {"item_id": item["id"], "content_index": 0} | at
            yield numbered("response.output_item.added", item=item | {"status": "in_progress", "content": []}, **at)
            yield numbered("response.content_part.added", part=whole | {field: ""}, **part)
            for piece in _pieces(whole[field]):
                yield numbered(f"response.{kind}.delta", delta=piece, **extra, **part)
            yield numbered(f"response.{kind}.done", **{field: whole[field]}, **extra, **part)
            yield numbered("response.content_part.done", part=whole, **part)
        else:
            yield numbered("response.output_item.added", item=item | {"status": "in_progress", "arguments": ""}, **at)
            for piece in _pieces(item["arguments"], size=8):
                yield numbered("response.function_call_arguments.delta", item_id=item["id"], delta=piece, **at)
            yield numbered("response.function_call_arguments.done", item_id=item["id"], name=item["name"],
                           arguments=item["arguments"], **at)
        yield numbered("response.output_item.done", item=item, **at)
    yield numbered("response.completed" if response["status"] == "completed" else "response.incomplete", response=response)
