"""Variants of the offline model that write a reply's text differently: prose or a fence around a FUNCTION: line,
an answer in other words, and (as a local server passes replies on) tool calls left in the text, thinking first.

A server without a tool parser (or a reasoning parser) hands the model's text over as it is; `agentkit.recovery`
reads these back (chapter 02, going deeper). Each function here is one variant's `change`, like those in
`agentkit.offline.variants`.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from agentkit.offline.model import EmittedCall, OfflineModel, Reply
from agentkit.offline.reading import message_text

FUNCTION_LINE = re.compile(r"^FUNCTION:.*$", re.MULTILINE)


# prose: a sentence before the call, as chat-tuned models like to say what they are about to do.

def with_prose(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    if reply.tool_calls:
        names = ", ".join(dict.fromkeys(call.name for call in reply.tool_calls))
        return replace(reply, content=f"Let me check that with {names}.")
    if reply.content and FUNCTION_LINE.search(reply.content):
        return replace(reply, content="Sure, I will use a tool for this.\n" + reply.content)
    return reply


# fenced: the FUNCTION: line in a Markdown code fence, as models trained on Markdown chat often write it.

def fenced(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    if reply.content and FUNCTION_LINE.search(reply.content):
        return replace(reply, content=FUNCTION_LINE.sub(lambda m: f"```\n{m.group(0)}\n```", reply.content, count=1))
    return reply


# reworded: the answer in other words, with times and numbers written differently from the tool's output.

def reworded(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    if not _is_final_answer(request, reply):
        return reply
    text = re.sub(r"^According to ([\w.]+):\s*", "", reply.content)
    text = re.sub(r"(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::\d\d)?([+-]\d\d:\d\d|Z)?", _spoken_time, text)
    text = re.sub(r"\b(\d+)\.0\b", r"\1", text)                       # 86.0 -> 86
    text = re.sub(r"\$(\d[\d,]*(?:\.\d+)?)", lambda m: m.group(1).replace(",", "") + " dollars", text)
    text = re.sub(r"\s*\n[\s-]*", "; ", text.strip())              # a list of lines said as one sentence
    return replace(reply, content=f"Here is what I found. {text.strip()}")


# How an answer is laid out: the question said again, a list, a sentence beside the calls.

def restates(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """The final answer opens by saying the question again, in a paragraph of its own."""
    if not _is_final_answer(request, reply):
        return reply
    return replace(reply, content=f"You asked: {_question(request)}\n\n{reply.content}")


def listed(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """The final answer as paragraphs and a Markdown list: an opening line, one bullet a sentence, a closing line."""
    if not _is_final_answer(request, reply):
        return reply
    sentences = re.split(r"(?<=[.!?])\s+", reply.content.strip())
    bullets = "\n".join(f"- **{s}**" if i == 0 else f"- {s}" for i, s in enumerate(sentences))
    return replace(reply, content=f"Here is what I found:\n\n{bullets}\n\nLet me know if you need anything else.")


def narrates(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """Beside the calls, a long sentence that reads like an answer: the question restated and what will be done."""
    if not reply.tool_calls:
        return reply
    names = " and ".join(dict.fromkeys(call.name for call in reply.tool_calls))
    return replace(reply, content=f"The answer to {_question(request)!r} is what {names} will tell me, so I am calling "
                                  "it now and will give you the exact result as soon as it comes back.")


def _question(request: dict) -> str:
    """The person's last message, on one line."""
    question = next(m for m in reversed(request["messages"]) if m["role"] == "user")
    return " ".join(message_text(question).split())


def _spoken_time(match: re.Match) -> str:
    year, month, day, hour, minute, offset = match.groups()
    return f"{hour}h{minute} on {int(day)}/{int(month)}/{year}" + (f" (UTC{offset})" if offset and offset != "Z" else "")


def _is_final_answer(request: dict, reply: Reply) -> bool:
    """Text and no calls, after the last message brought results: a tool's, or a `RESULT:` line of the text protocol."""
    last = request["messages"][-1]
    if reply.tool_calls or not reply.content:
        return False
    return last["role"] == "tool" or (last["role"] == "user" and str(last.get("content") or "").lstrip().startswith("RESULT:"))


# Local servers: the call left in the text, thinking before the answer.

def json_text(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """No tool parser on the server: each call as a JSON line in `content` ("parameters" on every other one)."""
    if not reply.tool_calls:
        return reply
    lines = [json.dumps(_as_object(call, "parameters" if i % 2 else "arguments"))
             for i, call in enumerate(reply.tool_calls)]
    return Reply(content="\n".join(lines))


def tagged_json(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """Hermes-style models (Qwen2.5) served without a parser: one <tool_call> block of JSON per call."""
    if not reply.tool_calls:
        return reply
    blocks = [f'<tool_call>\n{json.dumps(_as_object(c))}\n</tool_call>'
              for c in reply.tool_calls]
    return Reply(content="\n".join(blocks))


def tagged_function(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """Qwen3-Coder-style models served without a parser: <function=name> with one <parameter=...> per argument."""
    if not reply.tool_calls or not all(isinstance(arguments_of(c), dict) for c in reply.tool_calls):
        return reply
    blocks = []
    for call in reply.tool_calls:
        parameters = "".join(f"<parameter={name}>\n{value if isinstance(value, str) else json.dumps(value)}\n</parameter>\n"
                             for name, value in arguments_of(call).items())
        blocks.append(f"<tool_call>\n<function={call.name}>\n{parameters}</function>\n</tool_call>")
    return Reply(content="I will use a tool for this.\n\n" + "\n".join(blocks))


def mistral_text(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """Mistral models (tokenizer v3) served without a parser: `[TOOL_CALLS]`, then a JSON list of the calls."""
    if not reply.tool_calls:
        return reply
    return Reply(content="[TOOL_CALLS]" + json.dumps([_as_object(c) for c in reply.tool_calls]))


def llama_text(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """Llama 3.x served without a parser: `<|python_tag|>`, then one {"name", "parameters"} object a call, apart by `;`."""
    if not reply.tool_calls:
        return reply
    return Reply(content="<|python_tag|>" + "; ".join(
        json.dumps(_as_object(c, "parameters")) for c in reply.tool_calls))


def fenced_json(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """A chat model told the tools in its prompt: each call as a ```json fenced object, nothing else."""
    if not reply.tool_calls:
        return reply
    return Reply(content="\n".join(f'```json\n{json.dumps(_as_object(c), indent=2)}\n```'
                                   for c in reply.tool_calls))


def thinks(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """Reasoning models (Qwen3, DeepSeek-R1) without a reasoning parser: a <think> block opens every reply."""
    return replace(reply, content=f"<think>\n{_thought(reply)}\n</think>\n\n{reply.content or ''}")


def reasoning_field(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """llama.cpp's way: the thinking in `reasoning_content`, and blank text ("\\n\\n") next to tool calls."""
    return replace(reply, reasoning=_thought(reply), content="\n\n" if reply.tool_calls else reply.content)


def _thought(reply: Reply) -> str:
    if reply.tool_calls:
        return f"The question needs a tool. I should call {', '.join(dict.fromkeys(c.name for c in reply.tool_calls))}."
    return "No tool is needed for this, or the results are in: I will answer in a sentence or two."


def _as_object(call: EmittedCall, key: str = "arguments") -> dict[str, Any]:
    """The call as the JSON object a model writes in text: its name, and its arguments under `key` (parsed, or
    as sent when they are not JSON)."""
    arguments = arguments_of(call)
    return {"name": call.name, key: call.arguments if arguments is None else arguments}


def arguments_of(call: EmittedCall) -> Any:
    """The call's arguments parsed from JSON; None if they are not JSON."""
    try:
        return json.loads(call.arguments)
    except ValueError:
        return None
