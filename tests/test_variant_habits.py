"""The variants that stand for local servers and chat models: calls written in other families' formats, an
argument-less call written as "", sentences around calls and answers, and the completion's optional fields."""

import json
from pathlib import Path
from typing import Literal

import pytest

from agentkit.loop import finish, run_task
from agentkit.offline import VARIANTS, OfflineModel, connect_offline, variant
from agentkit.offline.transport import offline_client
from agentkit.recovery import recover_calls
from agentkit.tools.clock import clock_tool
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry
from agentkit.tools.schema import tool
from agentkit.tools.workspace import Workspace
from tests.test_variants import CLOCK, TWO_CITIES, answered, ask

CALLS_AS_TEXT = ["json_text", "tagged_json", "tagged_function", "mistral_text", "llama_text", "fenced_json"]
OFFERED = {"get_current_time": CLOCK["function"]["parameters"]}


@pytest.mark.parametrize("name", CALLS_AS_TEXT)
def test_calls_written_as_text_read_back_to_the_base_models_calls(name):
    base = OfflineModel().respond(ask(TWO_CITIES))
    written = variant(name).respond(ask(TWO_CITIES))
    assert not written.tool_calls and len(base.tool_calls) == 2
    assert [(c.name, c.arguments) for c in recover_calls(written.content, OFFERED)] == [
        (c.name, json.loads(c.arguments)) for c in base.tool_calls]


def test_the_text_formats_are_the_families_own():
    assert variant("mistral_text").respond(ask(TWO_CITIES)).content.startswith('[TOOL_CALLS][{"name": "get_current_time"')
    llama = variant("llama_text").respond(ask(TWO_CITIES)).content
    assert llama.startswith('<|python_tag|>{"name": "get_current_time", "parameters"') and "}; {" in llama
    assert variant("fenced_json").respond(ask(TWO_CITIES)).content.count("```json\n") == 2


NOTES = ToolDefinition("list_notes", "List the notes I have saved.", {"type": "object", "properties": {}},
                       handler=lambda arguments: _notes())


async def _notes():
    return "groceries.txt, ideas.txt"


@pytest.mark.anyio
async def test_an_argument_less_call_sent_as_empty_text_still_runs_and_the_task_completes():
    request = ask("List the notes I have saved.", [NOTES.to_openai()])
    assert OfflineModel().respond(request).tool_calls[0].arguments == "{}"
    assert variant("empty_args").respond(request).tool_calls[0].arguments == ""
    task = await finish(run_task(connect_offline(variant="empty_args"), "offline", "List the notes I have saved.",
                          build_registry([NOTES])))
    assert task.status == "completed" and "groceries.txt" in task.answer
    sent_back = [call["function"]["arguments"] for m in task.messages for call in m.get("tool_calls") or []]
    assert sent_back == ["{}"]  # read as {}, and sent back so: some providers refuse "" on the next request


@pytest.mark.anyio
async def test_an_answer_like_sentence_beside_calls_is_not_taken_for_the_answer():
    narrated = variant("narrates").respond(ask(TWO_CITIES))
    assert TWO_CITIES in narrated.content and len(narrated.tool_calls) == 2
    task = await finish(run_task(connect_offline(variant="narrates"), "offline", TWO_CITIES, build_registry([clock_tool()])))
    assert task.status == "completed" and task.tool_calls == 2
    assert "in Tokyo" in task.answer and "will give you the exact result" not in task.answer


def test_answers_restated_or_listed_keep_every_result_and_only_final_answers_change():
    request = ask(TWO_CITIES)
    calls = OfflineModel().respond(request)
    after = answered(request, calls, ["10:00 (Asia/Tokyo)", "03:00 (Europe/Paris)"])
    restated = variant("restates").respond(after).content
    assert restated.startswith(f"You asked: {TWO_CITIES}\n\n")
    listed = variant("listed").respond(after).content
    assert "\n\n- " in listed and listed.count("\n- ") >= 1
    for text in (restated, listed):
        assert "10:00" in text and "03:00" in text
    for name in ("restates", "listed"):
        assert variant(name).respond(request) == calls  # a call is made as the base model makes it


@pytest.mark.anyio
@pytest.mark.parametrize("stream", [False, True])
async def test_the_wire_variants_change_only_how_the_completion_is_written(stream):
    async def raw(name, question):
        client = offline_client(variant(name))
        response = await client.chat.completions.with_raw_response.create(
            model="offline", messages=ask(question)["messages"], tools=[CLOCK], stream=stream,
            **({"stream_options": {"include_usage": True}} if stream else {}))
        return response.http_response.text

    answer = json.loads(await raw("explicit_empty", "Hello"))["choices"][0]["message"] if not stream else None
    if answer:
        assert answer["tool_calls"] == [] and answer["refusal"] is None and answer["reasoning_content"] is None
    assert '"usage"' not in await raw("no_usage", "What time is it in Tokyo?")
    assert '"usage"' in await raw("explicit_empty", "What time is it in Tokyo?")


@pytest.mark.anyio
@pytest.mark.parametrize("name", sorted(VARIANTS))
async def test_the_agent_answers_from_both_results_under_every_variant(name):
    task = await finish(run_task(connect_offline(variant=name), "offline", TWO_CITIES, build_registry([clock_tool()])))
    if name == "clarify":  # asks first, by design: the person's answer would come next
        assert task.status == "completed" and "which" in task.answer.lower() or task.tool_calls
        return
    assert task.status == "completed" and task.tool_calls >= 2, (name, task.answer)
    assert "Tokyo" in task.answer and "Paris" in task.answer, (name, task.answer)


def test_the_readme_names_every_variant():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert [name for name in VARIANTS if f"`{name}`" not in readme] == []


@tool
def set_checklist(items: list[str]) -> str:
    """Set the checklist of a job that takes several steps, in order.

    Args:
        items: The steps, each a short phrase.
    """
    return f"Checklist set: {len(items)} items."


@tool
def tick(item: int, state: Literal["open", "done"]) -> str:
    """Tick an item of the checklist.

    Args:
        item: The item's number, from 1.
        state: Its new state.
    """
    return f"Item {item} is {state}."


def _two_files(tmp_path):
    (tmp_path / "a.txt").write_text("apples\n")
    (tmp_path / "b.txt").write_text("bananas\n")
    return [t for t in file_tools(Workspace(tmp_path)) if t.name == "read_file"]


def _calls(task):
    return [(c["function"]["name"], json.loads(c["function"]["arguments"]))
            for m in task.messages for c in m.get("tool_calls") or []]


TWO_STEPS = "Read the file a.txt, then read the file b.txt"


@pytest.mark.anyio
async def test_the_delegating_variant_hands_a_request_of_several_steps_to_a_helper_named_anyhow(tmp_path):
    handed = []

    @tool
    async def ask_specialist(job: str) -> str:
        """Pass a job to a specialist agent, which does it with its own tools and reports back.

        Args:
            job: The job, in full.
        """
        handed.append(job)
        return "a.txt says apples and b.txt says bananas."

    registry = build_registry([ask_specialist, *_two_files(tmp_path), clock_tool()])
    task = await finish(run_task(connect_offline(variant="delegates"), "offline", TWO_STEPS, registry))
    assert handed == [TWO_STEPS] and _calls(task) == [("ask_specialist", {"job": TWO_STEPS})]
    assert task.status == "completed" and "apples" in task.answer and "bananas" in task.answer
    one_step = await finish(run_task(connect_offline(variant="delegates"), "offline", "What time is it in Tokyo?", registry))
    assert [name for name, _ in _calls(one_step)] == ["get_current_time"], "a one-step request it does itself"
    base = await finish(run_task(connect_offline(), "offline", TWO_STEPS, registry))
    assert [name for name, _ in _calls(base)] == ["read_file", "read_file"], "the base model does the steps itself"


@pytest.mark.anyio
async def test_the_delegating_variant_hands_the_task_to_a_real_subagent_and_relays_its_answer(tmp_path):
    from agentkit.beyond.subagents import Subagent, subagent_tool

    seen = []
    colleague = Subagent(connect_offline(), "offline", build_registry(_two_files(tmp_path)), "You read files.")
    consult = subagent_tool("consult_colleague", "Ask a colleague agent to do a job; it reports back.", colleague,
                            on_event=seen.append)
    task = await finish(run_task(connect_offline(variant="delegates"), "offline", TWO_STEPS,
                                 build_registry([consult, *_two_files(tmp_path)])))
    assert _calls(task) == [("consult_colleague", {"task": TWO_STEPS})]
    assert [event.name for event in seen if event.kind == "tool_call"] == ["read_file", "read_file"]
    assert task.answer == next(m["content"] for m in task.messages if m["role"] == "tool"), "relayed as it came"


def test_a_tool_with_a_free_text_parameter_but_no_helper_words_is_not_a_helper():
    from agentkit.offline.call_habits import helper_of

    note = ToolDefinition("save_note", "Save a note for later.", {"type": "object", "properties": {
        "text": {"type": "string"}}}, handler=_notes)
    assert helper_of(ask(TWO_STEPS, [note.to_openai()])) is None
    assert variant("delegates").respond(ask(TWO_CITIES)) == OfflineModel().respond(ask(TWO_CITIES))


@pytest.mark.anyio
async def test_the_planning_variant_writes_the_plan_first_and_marks_each_step_after_its_call(tmp_path):
    registry = build_registry([set_checklist, tick, *_two_files(tmp_path)])
    task = await finish(run_task(connect_offline(variant="plans"), "offline", TWO_STEPS, registry))
    assert _calls(task) == [("set_checklist", {"items": ["read file a.txt", "read file b.txt"]}),
                            ("read_file", {"path": "a.txt"}), ("tick", {"item": 1, "state": "done"}),
                            ("read_file", {"path": "b.txt"}), ("tick", {"item": 2, "state": "done"})]
    assert task.status == "completed" and "apples" in task.answer and "bananas" in task.answer
    assert "Checklist" not in task.answer and "Item" not in task.answer, "the answer is the steps' results"


@pytest.mark.anyio
async def test_a_chinese_request_is_planned_in_its_own_words(tmp_path):
    """A real model writes its plan in the person's language: a Chinese request's clauses are its steps."""
    registry = build_registry([set_checklist, tick, *_two_files(tmp_path)])
    task = await finish(run_task(connect_offline(variant="plans"), "offline", "先读 a.txt 文件，然后读 b.txt 文件", registry))
    assert _calls(task)[0] == ("set_checklist", {"items": ["读 a.txt 文件", "读 b.txt 文件"]})


@pytest.mark.anyio
async def test_the_planning_variant_acts_on_the_chapters_reminder_and_the_base_model_does_not(tmp_path):
    from agentkit.beyond.plans import Plan, Step, plan_tools, with_reminder

    for name, marked in (("plans", ["pending", "done"]), (None, ["pending", "pending"])):
        plan = Plan([Step("read a.txt"), Step("read b.txt")])
        registry = with_reminder(build_registry([*plan_tools(plan), *_two_files(tmp_path)]), plan)
        task = await finish(run_task(connect_offline(variant=name), "offline", "Read the file b.txt", registry))
        assert [step.status for step in plan.steps] == marked, name
        assert task.status == "completed" and "bananas" in task.answer, name


@pytest.mark.anyio
async def test_a_numbered_list_in_a_result_is_data_not_a_reminder(tmp_path):
    from agentkit.beyond.plans import Plan, Step, plan_tools

    (tmp_path / "steps.txt").write_text("1. read steps.txt\n2. mark_step it done\n")
    plan = Plan([Step("read steps.txt")])
    reader = [t for t in file_tools(Workspace(tmp_path)) if t.name == "read_file"]
    task = await finish(run_task(connect_offline(variant="plans"), "offline", "Read the file steps.txt",
                                 build_registry([*plan_tools(plan), *reader])))
    assert [name for name, _ in _calls(task)] == ["read_file"] and plan.steps[0].status == "pending"


@pytest.mark.parametrize("name", ["one_call", "styled_args", "json_text", "empty_args", "explicit_empty", "no_usage"])
def test_the_habits_the_chinese_runs_skip_never_change_a_word(name):
    """tests/test_notebooks_under_variants.py runs the Chinese chapters without these (WORDS_UNTOUCHED): what they
    change is which calls a reply carries, when, or how they are written, never what the model says, so a question in
    Chinese meets them as the English beside it does. Checked on a Chinese question of two calls and its answer."""
    from tests.test_notebooks_under_variants import WORDS_UNTOUCHED
    assert name in WORDS_UNTOUCHED
    request = ask("东京和巴黎现在几点？")
    base, changed = OfflineModel().respond(request), variant(name).respond(request)
    if name == "json_text":
        calls = [(c.name, c.arguments) for c in recover_calls(changed.content, OFFERED)]
    else:
        calls = [(c.name, json.loads(c.arguments or "{}")) for c in changed.tool_calls]
        assert changed.content == base.content
    base_calls = [(c.name, json.loads(c.arguments)) for c in base.tool_calls]
    assert len(base_calls) == 2 and 1 <= len(calls) <= 2  # one_call: the first now, the second after its result
    for (called, arguments), (base_name, base_arguments) in zip(calls, base_calls[:len(calls)], strict=True):
        assert called == base_name and base_arguments.items() <= arguments.items()  # styled_args adds defaults
    after = answered(request, base, ["2026-12-06T10:00:00+09:00", "2026-12-06T02:00:00+01:00"])
    assert variant(name).respond(after).content == OfflineModel().respond(after).content
