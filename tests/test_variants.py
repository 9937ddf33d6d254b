"""Variants of the offline model: each changes one habit, deterministically, and is selected by MODEL or connect()."""

import json

import pytest

from agentkit.classroom import offline_environment
from agentkit.config import VARIABLES, ConfigError, Settings, load_settings
from agentkit.manual import build_system_prompt
from agentkit.offline import VARIANTS, OfflineModel, connect_offline, variant
from agentkit.tools.clock import clock_tool, get_current_time

CLOCK = clock_tool().to_openai()
TWO_CITIES = "What time is it in Tokyo and in Paris?"


def ask(question, tools=(CLOCK,)):
    return {"model": "offline", "messages": [{"role": "user", "content": question}], "tools": list(tools)}


def protocol_request(question):
    return {"model": "offline", "messages": [{"role": "system", "content": build_system_prompt([get_current_time])},
                                             {"role": "user", "content": question}]}


def answered(request, reply, results):
    """The request after `reply`'s calls were answered by `results` (one per call)."""
    calls = [{"id": f"c{len(request['messages'])}-{i}", "type": "function",
              "function": {"name": c.name, "arguments": c.arguments}} for i, c in enumerate(reply.tool_calls)]
    tools = [{"role": "tool", "tool_call_id": call["id"], "content": result} for call, result in zip(calls, results, strict=True)]
    return {**request, "messages": [*request["messages"], {"role": "assistant", "content": reply.content,
                                                           "tool_calls": calls}, *tools]}


def test_every_variant_has_a_one_line_doc_and_is_deterministic():
    for name, (doc, model) in VARIANTS.items():
        assert doc and "\n" not in doc and model.name == name
        for request in (ask(TWO_CITIES), protocol_request("What time is it in Tokyo?"), ask("Hello")):
            assert model.respond(request) == model.respond(request)


def test_an_unknown_variant_lists_the_valid_ones():
    with pytest.raises(ValueError, match="should be one of: prose, fenced"):
        variant("sloppy")


def test_prose_says_a_sentence_before_a_call_in_both_protocols():
    native = variant("prose").respond(ask(TWO_CITIES))
    assert native.content and "get_current_time" in native.content and len(native.tool_calls) == 2
    text = variant("prose").respond(protocol_request("What time is it in Tokyo?")).content
    first, second = text.splitlines()[:2]
    assert "FUNCTION:" not in first and second.startswith("FUNCTION: get_current_time(")


def test_fenced_puts_the_function_line_in_a_code_fence():
    lines = variant("fenced").respond(protocol_request("What time is it in Tokyo?")).content.splitlines()
    assert lines[0] == "```" and lines[1].startswith("FUNCTION: get_current_time(") and lines[2] == "```"


def test_one_call_makes_the_calls_one_reply_at_a_time_and_answers_from_all_results():
    model, request = variant("one_call"), ask(TWO_CITIES)
    made = []
    for result in ("10:00 in Tokyo", "03:00 in Paris"):
        reply = model.respond(request)
        assert len(reply.tool_calls) == 1
        made.append(json.loads(reply.tool_calls[0].arguments)["timezone"])
        request = answered(request, reply, [result])
    assert made == ["Asia/Tokyo", "Europe/Paris"]
    final = model.respond(request)
    assert not final.tool_calls and "10:00 in Tokyo" in final.content and "03:00 in Paris" in final.content


def test_reworded_never_repeats_a_time_or_number_as_the_tool_wrote_it():
    request = ask("What time is it in Tokyo?")
    reply = OfflineModel().respond(request)
    for result in ("2026-12-03 06:42:28+09:00 (Asia/Tokyo)", "86.0 °F", "$814.45"):
        base = OfflineModel().respond(answered(request, reply, [result])).content
        worded = variant("reworded").respond(answered(request, reply, [result])).content
        assert (result in base or "06:42" in base) and result not in worded and worded != base


def test_clarify_asks_when_the_call_would_leave_its_parameters_to_a_default():
    asked = variant("clarify").respond(ask("What time is it?"))
    assert not asked.tool_calls and "timezone" in asked.content
    assert variant("clarify").respond(ask("What time is it in Tokyo?")).tool_calls  # nothing to guess: it calls


def test_styled_args_writes_the_same_arguments_otherwise_and_fills_defaults():
    tool = {"type": "function", "function": {"name": "search", "description": "Search the docs for a query.",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"},
                                                            "limit": {"type": "integer", "default": 5}},
                           "required": ["query"]}}}
    base = OfflineModel().respond(ask('Search the docs for "refunds".', [tool])).tool_calls[0]
    styled = variant("styled_args").respond(ask('Search the docs for "refunds".', [tool])).tool_calls[0]
    assert styled.arguments != base.arguments
    assert json.loads(styled.arguments) == {**json.loads(base.arguments), "limit": 5}


@pytest.mark.anyio
async def test_styled_args_ids_come_in_other_providers_formats_and_still_pair():
    client = connect_offline(variant="styled_args")
    ids = []
    for question in ("What time is it in Tokyo?", TWO_CITIES, "Time in Paris, in Lima and in Oslo?", "Time in UTC?"):
        response = await client.chat.completions.create(model="offline", messages=ask(question)["messages"], tools=[CLOCK])
        ids += [call.id for call in response.choices[0].message.tool_calls]
    assert {"call_", "toolu"} <= {i[:5] for i in ids} or any(len(i) == 9 for i in ids)
    assert not any(i.startswith("call_") and len(i) == 17 for i in ids)  # none is left in the base format


def test_corrects_makes_a_wrong_call_then_the_right_one_after_the_error():
    model, request = variant("corrects"), ask("What time is it in Tokyo?")
    wrong = model.respond(request)
    assert not isinstance(json.loads(wrong.tool_calls[0].arguments)["timezone"], str)
    right = model.respond(answered(request, wrong, ["Error: timezone should be a string"]))
    assert json.loads(right.tool_calls[0].arguments) == {"timezone": "Asia/Tokyo"}


def test_model_offline_slash_variant_selects_it_only_without_a_key(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MODEL", "offline/fenced")
    assert load_settings().variant == "fenced"
    monkeypatch.setenv("MODEL", "offline/nonsense")
    with pytest.raises(ConfigError, match="offline/prose"):
        load_settings()
    monkeypatch.setenv("MODEL", "gpt-4o-mini")
    assert load_settings() == Settings()
    monkeypatch.setenv("MODEL", "offline/fenced")
    with offline_environment():  # what `agentkit refresh` stores is always the base model's
        assert load_settings() == Settings()


@pytest.mark.anyio
async def test_connect_variant_keyword_and_unruly_combine():
    client = connect_offline(variant="prose", unruly="unknown_tool")
    message = (await client.chat.completions.create(model="offline", messages=ask("Time in Tokyo?")["messages"],
                                                    tools=[CLOCK])).choices[0].message
    assert message.content and message.tool_calls[0].function.name != "get_current_time"
