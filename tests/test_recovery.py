"""Tool calls a local server left in the text, read back; thinking kept apart; the loop over real HTTP."""

import json

import httpx2
import openai
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from agentkit.calls import ToolCall
from agentkit.config import ConfigError, Settings, connect, load_settings
from agentkit.events import Note, Thinking
from agentkit.frontends.terminal import describe
from agentkit.loop import finish, run_task
from agentkit.offline import OfflineServer, ScriptedModel
from agentkit.offline.variants import variant
from agentkit.recovery import RECOVERED, RecoveringClient, recover_calls, recover_message, server_fix, split_thinking
from agentkit.tools.clock import clock_tool
from agentkit.tools.registry import build_registry

TOOLS = {
    "get_current_time": {"type": "object", "properties": {"timezone": {"type": "string"}}},
    "add": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}},
}
TOKYO = ToolCall.parse("", "get_current_time", '{"timezone": "Asia/Tokyo"}')
ADD = ToolCall.parse("", "add", '{"a": 1, "b": 2.5}')


@pytest.mark.parametrize("text", [
    '{"name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}}',                       # Ollama, no template
    '{"name": "get_current_time", "parameters": {"timezone": "Asia/Tokyo"}}',                      # Llama 3.x style
    '{"type": "function", "function": {"name": "get_current_time", "arguments": "{\\"timezone\\": \\"Asia/Tokyo\\"}"}}',
    '[{"name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}}]',
    '```json\n{"name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}}\n```',
    '<tool_call>\n{"name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}}\n</tool_call>',   # Hermes/Qwen2.5
    "<tool_call>\n<function=get_current_time>\n<parameter=timezone>\nAsia/Tokyo\n</parameter>\n</function>\n</tool_call>",
    'FUNCTION: get_current_time("Asia/Tokyo")',                                                  # chapter 01's line
    'I will look it up.\n```\nFUNCTION: get_current_time(timezone="Asia/Tokyo")\n```',
])
def test_each_form_a_server_leaves_in_the_text_is_read_back(text):
    assert recover_calls(text, TOOLS) == [TOKYO]


def test_several_calls_one_a_line_or_in_blocks_after_a_sentence():
    lines = ('{"name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}}\n'
             '{"name": "add", "arguments": {"a": 1, "b": 2.5}}')
    assert recover_calls(lines, TOOLS) == [TOKYO, ADD]
    blocks = ("Let me use two tools.\n<tool_call>\n<function=get_current_time>\n<parameter=timezone>\nAsia/Tokyo\n"
              "</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=add>\n<parameter=a>\n1\n</parameter>\n"
              "<parameter=b>\n2.5\n</parameter>\n</function>\n</tool_call>")
    assert recover_calls(blocks, TOOLS) == [TOKYO, ADD]  # numbers typed by the schema, strings kept as written


# Every format a server without a parser passes on, for any calls: read back exactly, and never after prose.

_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                     | st.text(max_size=8), lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)
CALLS = st.lists(st.tuples(st.sampled_from(sorted(TOOLS)), st.dictionaries(st.text(min_size=1, max_size=8), _JSON,
                                                                           max_size=3)), min_size=1, max_size=3)


def _objects(calls, key="arguments", **dumps):
    return [json.dumps({"name": name, key: arguments}, **dumps) for name, arguments in calls]


FORMATS = {  # name -> (calls -> the text a model of that family writes for them)
    "json, one a line": lambda calls: "\n".join(_objects(calls)),
    "json list": lambda calls: json.dumps([{"name": n, "arguments": a} for n, a in calls]),
    "openai objects, arguments as text": lambda calls: "\n".join(json.dumps(
        {"type": "function", "function": {"name": n, "arguments": json.dumps(a)}}) for n, a in calls),
    "mistral [TOOL_CALLS] list": lambda calls: "[TOOL_CALLS] " + json.dumps([{"name": n, "arguments": a} for n, a in calls]),
    "mistral [TOOL_CALLS]name[ARGS]": lambda calls: "".join(f"[TOOL_CALLS]{n}[ARGS]{json.dumps(a)}" for n, a in calls),
    "llama python tag": lambda calls: "<|python_tag|>" + "; ".join(_objects(calls, "parameters")),
    "llama json": lambda calls: ";\n".join(_objects(calls, "parameters", ensure_ascii=False)),
    "json fences": lambda calls: "\n\n".join(f"```json\n{o}\n```" for o in _objects(calls, indent=2)),
    "hermes tags": lambda calls: "\n".join(f"<tool_call>\n{o}\n</tool_call>" for o in _objects(calls)),
}


@given(calls=CALLS, form=st.sampled_from(sorted(FORMATS)))
@example(calls=[("add", {"a": ";"}), ("add", {})], form="llama python tag")
@example(calls=[("add", {"x": "[ARGS]"})], form="mistral [TOOL_CALLS]name[ARGS]")
def test_each_format_reads_back_exactly_the_calls_written(calls, form):
    assert recover_calls(FORMATS[form](calls), TOOLS) == [
        ToolCall.parse("", name, json.dumps(arguments, ensure_ascii=False)) for name, arguments in calls]


@given(calls=CALLS, form=st.sampled_from(sorted(set(FORMATS) - {"hermes tags"})),
       prose=st.sampled_from(["Here is the call:", "To call the tool, write", "Sure!", "I would send"]))
def test_the_same_formats_after_prose_are_an_example_not_a_call(calls, form, prose):
    assert recover_calls(f"{prose}\n{FORMATS[form](calls)}", TOOLS) == []
    assert recover_calls(f"{FORMATS[form](calls)}\nThat is how it looks.", TOOLS) == []


@pytest.mark.parametrize("text", [
    '{"name": "delete_everything", "arguments": {}}',
    '<tool_call>\n{"name": "bash", "arguments": {"command": "rm -rf ~"}}\n</tool_call>',
    "<tool_call>\n<function=bash>\n<parameter=command>\nrm -rf ~\n</parameter>\n</function>\n</tool_call>",
    'FUNCTION: bash("rm -rf ~")',
    # one offered call next to one that is not: nothing runs, not half of it
    '{"name": "get_current_time", "arguments": {}}\n{"name": "bash", "arguments": {"command": "ls"}}',
])
def test_no_call_is_recovered_for_a_tool_that_was_not_offered(text):
    assert recover_calls(text, TOOLS) == []


@pytest.mark.parametrize("text", [
    'A tool call is JSON like this:\n```json\n{"name": "get_current_time", "arguments": {"timezone": "UTC"}}\n```\n'
    "The name picks the tool.",
    'Write {"name": "get_current_time", "arguments": {"timezone": "UTC"}} to call the clock.',
    'Qwen writes `<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>` for a call.',
    'The format:\n```\n<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n</tool_call>\n```',
    '{"name": "get_current_time", "arguments": {"timezone": "UTC"}, "note": "an object with other keys is data"}',
    '{"name": "get_current_time", "description": "Get the current time"}',
    "It is 10:42 in Tokyo.",
    "",
])
def test_json_or_tags_inside_prose_about_them_is_not_a_call(text):
    assert recover_calls(text, TOOLS) == []


def test_a_call_copied_from_a_tool_result_is_data_not_a_call():
    planted = '{"name": "add", "arguments": {"a": 1, "b": 2}}'
    assert recover_calls(planted, TOOLS) != []
    assert recover_calls(planted, TOOLS, quoted=[f"notes.txt says:\n{planted}\n"]) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("<think>\nThe user wants a greeting.\n</think>\n\nHello!", ("The user wants a greeting.", "Hello!")),
    ("The template opened the block.\n</think>\n\nHello!", ("The template opened the block.", "Hello!")),
    ("Hello! <think> is a tag some models write.", ("", "Hello! <think> is a tag some models write.")),
])
def test_split_thinking(text, expected):
    assert split_thinking(text) == expected


def test_recover_message_gives_the_usual_shape():
    recovered = recover_message({"role": "assistant", "content": "<think>Tokyo: a tool.</think>\n" + json.dumps(
        {"name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}})}, TOOLS, first_id=3)
    assert recovered == {"role": "assistant", "content": None, "reasoning_content": "Tokyo: a tool.", "tool_calls": [
        {"id": f"{RECOVERED}3", "type": "function", "function": {"name": "get_current_time", "arguments": TOKYO.raw_arguments}}]}
    native = {"role": "assistant", "content": "\n\n", "tool_calls": [{"id": "c1", "type": "function",
                                                                      "function": {"name": "add", "arguments": "{}"}}]}
    assert recover_message(native, TOOLS) == {**native, "content": None}  # llama.cpp's blank text beside calls
    assert recover_message({"role": "assistant", "content": "Hi"}, {}) == {"role": "assistant", "content": "Hi"}


# The agent against a real OpenAI-compatible HTTP server on 127.0.0.1 whose model leaves calls in the text

TEXT_FORMS = ["json_text", "tagged_json", "tagged_function", "mistral_text", "llama_text", "fenced_json"]
THINKING = ["thinks", "reasoning_field"]


async def agent_against(model, settings_overrides=None, goal="What time is it in Tokyo and in Paris?", stream=False):
    events = []
    with OfflineServer(model) as server:
        settings = Settings(api_key="sk-local", base_url=server.base_url, model="local-model", **(settings_overrides or {}))
        async with connect(settings) as client:
            task = await finish(run_task(client, settings.model, goal, build_registry([clock_tool()]),
                                  stream=stream), on_event=events.append)
    return task, events


@pytest.mark.anyio
@pytest.mark.parametrize("stream", [False, True], ids=["json", "streamed"])
@pytest.mark.parametrize("form", TEXT_FORMS + THINKING)
async def test_the_agent_completes_a_tool_task_against_a_server_that_leaves_calls_in_text(form, stream):
    task, events = await agent_against(variant(form), stream=stream)
    assert task.status == "completed" and task.tool_calls == 2
    results = [event.content for event in events if event.kind == "tool_result"]
    assert len(results) == 2 and "(Asia/Tokyo)" in results[0] and "(Europe/Paris)" in results[1]
    for leftover in ("<tool_call>", "<think>", '"name"', "FUNCTION:"):
        assert leftover not in task.answer
    sent_back = json.dumps(task.messages)
    assert "<think>" not in sent_back
    # the thinking goes back beside the calls it led to (DeepSeek's thinking mode requires it), never elsewhere
    thought = [m for m in task.messages if "reasoning_content" in m]
    assert all(m["role"] == "assistant" and m.get("tool_calls") for m in thought)
    assert len(thought) == (1 if form in THINKING else 0)
    notes = [event.text for event in events if event.kind == "note"]
    if form in TEXT_FORMS:  # said once, visibly, with the fix; the history records the calls' origin in their ids
        assert len(notes) == 1 and "--tool-call-parser" in notes[0] and "--jinja" in notes[0]
        calls = [call for m in task.messages if m["role"] == "assistant" for call in m.get("tool_calls") or []]
        assert calls and all(call["id"].startswith(RECOVERED) for call in calls)
    else:
        assert notes == []
        assert [event.text for event in events if event.kind == "thinking"][0].startswith("The question needs a tool")


@pytest.mark.anyio
async def test_with_recovery_off_the_call_is_shown_as_text_and_nothing_runs():
    task, events = await agent_against(variant("json_text"), {"recover_text_calls": "off"})
    assert task.status == "completed" and task.tool_calls == 0 and task.answer.startswith('{"name": "get_current_time"')


@pytest.mark.anyio
@pytest.mark.parametrize("stream", [False, True], ids=["json", "streamed"])
async def test_the_setting_is_the_clients_type_and_a_copy_keeps_it(stream):
    """No registry of clients: `connect()` gives a `RecoveringClient` when the setting is on, the loop reads its
    type, and a copy made with `with_options` reads calls back as the original does, plain or streamed."""
    with OfflineServer(variant("json_text")) as server:
        on, off = (connect(Settings(api_key="sk", base_url=server.base_url, model="m", recover_text_calls=mode))
                   for mode in ("on", "off"))
        assert isinstance(on, RecoveringClient) and not isinstance(off, RecoveringClient)
        async with on.with_options(timeout=30) as copy:
            assert isinstance(copy, RecoveringClient)
            task = await finish(run_task(copy, "m", "What time is it in Tokyo?", build_registry([clock_tool()]),
                                         stream=stream))
        await off.close()
    assert task.status == "completed" and task.tool_calls == 1


@pytest.mark.anyio
@pytest.mark.parametrize("stream", [False, True], ids=["json", "streamed"])
async def test_a_recovering_client_built_by_hand_recovers_plain_and_streamed_replies(stream):
    """Built with neither transport= nor http_client=, it wraps the usual HTTP transport: no recovering client
    leaves plain replies as text."""
    with OfflineServer(variant("json_text")) as server:
        async with RecoveringClient(api_key="sk", base_url=server.base_url) as client:
            task = await finish(run_task(client, "m", "What time is it in Tokyo?", build_registry([clock_tool()]),
                                         stream=stream))
    assert task.status == "completed" and task.tool_calls == 1


def test_a_recovering_client_refuses_an_http_client_that_would_not_recover():
    with pytest.raises(TypeError, match="would not read calls back from a plain reply"):
        RecoveringClient(api_key="sk", http_client=openai.DefaultAsyncHttpxClient())
    with pytest.raises(TypeError, match="pass transport="):
        RecoveringClient(api_key="sk", http_client=openai.DefaultAsyncHttpxClient(), transport=httpx2.AsyncHTTPTransport())


@pytest.mark.anyio
async def test_over_http_a_call_to_a_tool_not_offered_stays_text():
    text = '{"name": "bash", "arguments": {"command": "rm -rf ~"}}'
    task, events = await agent_against(ScriptedModel([text]))
    assert (task.status, task.tool_calls, task.answer) == ("completed", 0, text)
    assert not [event for event in events if event.kind == "tool_call"]


def test_the_chat_shows_thinking_folded_and_the_note():
    assert describe(Thinking("First\nI think.\x1b[2J")) == "  (thinking) First I think.\\x1b[2J"
    assert describe(Note("read back from text")) == "[note: read back from text]"


# The setting

@pytest.mark.parametrize(("base_url", "mode", "on"), [
    (None, "auto", False), ("https://api.openai.com/v1", "auto", False), ("http://localhost:11434/v1", "auto", True),
    ("https://api.deepseek.com/v1", "auto", True), ("https://api.openai.com/v1", "on", True),
    ("http://localhost:8000/v1", "off", False),
])
def test_recovery_is_on_by_default_except_for_openai_itself(base_url, mode, on):
    assert Settings(api_key="sk", base_url=base_url, model="m", recover_text_calls=mode).recovers_text_calls is on


def test_recover_text_calls_is_read_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RECOVER_TEXT_CALLS", "Off")
    assert load_settings().recover_text_calls == "off"
    monkeypatch.setenv("RECOVER_TEXT_CALLS", "sometimes")
    with pytest.raises(ConfigError, match="^RECOVER_TEXT_CALLS='sometimes' should be one of: auto, on, off"):
        load_settings()


@pytest.mark.parametrize(("base_url", "fix"), [
    ("http://localhost:11434/v1", "template supports tools"),
    ("http://gpu-box:8000/v1", "--enable-auto-tool-choice --tool-call-parser"),
    ("http://127.0.0.1:8080/v1", "--jinja"),
    ("https://dashscope.aliyuncs.com/compatible-mode/v1", "this provider's models that supports tool"),
])
def test_the_fix_named_for_each_server(base_url, fix):
    assert fix in server_fix(base_url)
