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

import json
from typing import Any

from agentkit.hardening.echo import echo
from agentkit.offline.contract import check_responses
from agentkit.offline.protocol import HttpReply, Model, _completion
from agentkit.offline.request import ApiError, read_json
from agentkit.offline.response_events import response_events
from agentkit.offline.structured import answered

_TEXT_PARTS = ("input_text", "output_text", "text")


def respond(model: Model, body: bytes) -> HttpReply:
    """Answer one `POST /v1/responses`: the Response object as JSON, or its stream of events."""
    request = read_json(body)
    check_responses(request)  # refused in this endpoint's own names, before it is converted
    chat = to_chat_request(request)
    response = to_response(request, _completion(chat, answered(model, chat)))
    if request.get("stream"):
        return HttpReply(200, "text/event-stream", list(response_events(response)))
    return HttpReply(200, "application/json", json.dumps(response).encode())


def to_chat_request(request: dict[str, Any]) -> dict[str, Any]:
    """The Chat Completions request that asks the same thing as this Responses request."""
    if request.get("previous_response_id"):
        raise ApiError(400, "This offline server stores no responses: send the whole conversation in 'input' "
                            "instead of 'previous_response_id'.", "previous_response_id")
    messages = [{"role": "system", "content": request["instructions"]}] if request.get("instructions") else []
    items = request.get("input")
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    if not isinstance(items, list):
        raise ApiError(400, "'input' must be a string or an array of input items.", "input")
    for index, item in enumerate(items):
        _add_item(messages, item, f"input[{index}]")
    chat: dict[str, Any] = {"model": request.get("model"), "messages": messages}
    if request.get("tools"):
        chat["tools"] = [_chat_tool(tool, f"tools[{i}]") for i, tool in enumerate(request["tools"])]
    choice = request.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "function":
        choice = {"type": "function", "function": {"name": choice.get("name")}}
    if choice is not None:
        chat["tool_choice"] = choice
    if request.get("max_output_tokens") is not None:
        chat["max_completion_tokens"] = request["max_output_tokens"]
    if request.get("parallel_tool_calls") is not None:
        chat["parallel_tool_calls"] = request["parallel_tool_calls"]
    if (text := request.get("text")) is not None:
        chat["response_format"] = _response_format(text)
    return chat


def _response_format(text: Any) -> dict[str, Any]:
    """`text={"format": {...}}` as Chat Completions' `response_format`: a json_schema's fields sit one level up."""
    form = text.get("format") if isinstance(text, dict) else None
    if not isinstance(form, dict):
        raise ApiError(400, "Invalid type for 'text.format': expected an object such as {\"type\": \"text\"}.",
                       "text.format")
    if form.get("type") != "json_schema":
        return {"type": form.get("type")}
    return {"type": "json_schema", "json_schema": {key: form[key] for key in ("name", "description", "schema", "strict")
                                                   if key in form}}


def _add_item(messages: list[dict[str, Any]], item: Any, where: str) -> None:
    """One input item as the chat message it stands for; consecutive function calls join one assistant message."""
    if not isinstance(item, dict):
        raise ApiError(400, f"Invalid type for '{where}': expected an object.", where)
    kind = item.get("type", "message")
    if kind == "message":
        messages.append({"role": item.get("role"), "content": _text(item.get("content"), where)})
    elif kind == "function_call":
        call = {"id": item.get("call_id"), "type": "function",
                "function": {"name": item.get("name"), "arguments": item.get("arguments")}}
        last = messages[-1] if messages else {}
        if last.get("role") == "assistant" and "tool_calls" in last:
            last["tool_calls"].append(call)
        else:
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
    elif kind == "function_call_output":
        output = item.get("output")
        messages.append({"role": "tool", "tool_call_id": item.get("call_id"),
                         "content": output if isinstance(output, str) else _text(output, where)})
    elif kind != "reasoning":  # reasoning items carry nothing this model reads
        raise ApiError(400, f"Invalid value for '{where}.type': {echo(json.dumps(kind))}; this server reads message, "
                            "function_call, function_call_output and reasoning items.", f"{where}.type")


def _text(content: Any, where: str) -> Any:
    """A message's content parts (`input_text`, `output_text`) as the plain text Chat Completions carries."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict)
                       and part.get("type") in _TEXT_PARTS)
    raise ApiError(400, f"Invalid type for '{where}.content': expected a string or an array of content parts.",
                   f"{where}.content")


def _chat_tool(tool: Any, where: str) -> dict[str, Any]:
    if not isinstance(tool, dict) or tool.get("type") != "function":
        kind = tool.get("type") if isinstance(tool, dict) else tool
        raise ApiError(400, f"Invalid value for '{where}.type': {echo(json.dumps(kind))}; this server has only "
                            "function tools.", f"{where}.type")
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
        output.append({"type": "message", "id": f"msg_{key}", "status": "completed", "role": "assistant",
                       "content": [part]})
    for index, call in enumerate(message.get("tool_calls") or []):
        output.append({"type": "function_call", "id": f"fc_{key}_{index}", "call_id": call["id"],
                       "name": call["function"]["name"], "arguments": call["function"]["arguments"],
                       "status": "completed"})
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
