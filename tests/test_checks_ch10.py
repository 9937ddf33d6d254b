"""Chapter 10's check passes a sound assembler and says what is wrong with the usual mistakes."""

import asyncio
import json

import pytest

from agentkit.checks.ch10 import TRICKY_STREAMS, check_exercise_10_1, reference


def sound(chunks):
    content, calls = "", {}
    for chunk in chunks:
        for choice in chunk["choices"]:
            delta = choice["delta"]
            content += delta.get("content") or ""
            for part in delta.get("tool_calls") or []:
                call = calls.setdefault(part["index"], {"id": None, "type": "function",
                                                        "function": {"name": None, "arguments": ""}})
                call["id"] = call["id"] or part.get("id")
                call["function"]["name"] = call["function"]["name"] or part.get("function", {}).get("name")
                call["function"]["arguments"] += part.get("function", {}).get("arguments") or ""
    message = {"role": "assistant", "content": content or None}
    return message | ({"tool_calls": [calls[i] for i in sorted(calls)]} if calls else {})


def last_call_wins(chunks):
    """Appends each fragment to the last call seen: interleaved calls get each other's arguments."""
    message = sound([c for c in chunks if not any(p.get("id") is None for d in [c["choices"][0]["delta"] if c["choices"]
                                                                            else {}] for p in d.get("tool_calls") or [])])
    fragments = [p["function"].get("arguments") or "" for c in chunks for d in [c["choices"][0]["delta"] if c["choices"] else {}]
                 for p in d.get("tool_calls") or [] if "id" not in p]
    for call in message.get("tool_calls", []):
        call["function"]["arguments"] = ""
    if message.get("tool_calls"):
        message["tool_calls"][-1]["function"]["arguments"] = "".join(fragments)
    return message


def overwrites_id(chunks):
    message = sound(chunks)
    for call in message.get("tool_calls", []):
        call["id"] = None  # what `call["id"] = part.get("id")` leaves after the last delta
    return message


def parses_each_fragment(chunks):
    message = sound(chunks)
    for call in message.get("tool_calls", []):
        json.loads(call["function"]["arguments"][:3] or "{}")
    return message


def empty_list_for_text(chunks):
    """Always writes the key: a text-only reply gets `"tool_calls": []`, which the API refuses when sent back."""
    return {"tool_calls": []} | sound(chunks)


def test_the_reference_and_a_sound_assembler_pass(capsys):
    assert asyncio.run(check_exercise_10_1({"assemble_stream": sound}))
    assert asyncio.run(check_exercise_10_1({"assemble_stream": reference}))
    assert capsys.readouterr().out.count("[pass]") == 2
    assert len(TRICKY_STREAMS) >= 4


@pytest.mark.parametrize(("function", "hint"), [
    (None, "[todo]"),
    (last_call_wins, "append each fragment to the call its `index` names"),
    (overwrites_id, "keep the first id and name"),
    (parses_each_fragment, "your code raised JSONDecodeError"),
    (empty_list_for_text, "only text: the API would refuse this message when it is sent back: Invalid "
                          "'messages[1].tool_calls': empty array."),
    (lambda chunks: "text", "return the message as a dict"),
])
def test_the_usual_mistakes_get_a_hint(capsys, function, hint):
    namespace = {} if function is None else {"assemble_stream": function}
    assert not asyncio.run(check_exercise_10_1(namespace))
    assert hint in capsys.readouterr().out
