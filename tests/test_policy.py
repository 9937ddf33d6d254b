"""The tool policy: each check in its order, the exact text the model reads, the log, ask_user and /cancel."""

import asyncio
import builtins
import json
import logging

import pytest

from agentkit.asking import terminal_ask
from agentkit.calls import ToolCall
from agentkit.hardening.arguments import ArgumentsValidator
from agentkit.limits import LimitReached, Limits
from agentkit.policy import (
    Decision,
    TaskCancelled,
    ToolExecutor,
    ToolPolicy,
    scripted_answers,
    truncate,
)
from agentkit.tools.ask_user import ask_user_tool
from agentkit.tools.dispatcher import ToolResult, check_arguments
from agentkit.tools.registry import build_registry
from agentkit.tools.schema import tool

ran: list[str] = []


@tool
def read_note(path: str) -> str:
    """Read a note.

    Args:
        path: Note to read.
    """
    ran.append(f"read_note {path}")
    return f"contents of {path}"


@tool(needs_confirmation=True)
def delete_note(path: str) -> str:
    """Delete a note.

    Args:
        path: Note to delete.
    """
    ran.append(f"delete_note {path}")
    return f"deleted {path}"


@tool
def long_report(size: int) -> str:
    """A report of `size` characters.

    Args:
        size: How many characters.
    """
    return "x" * size


REGISTRY = build_registry([read_note, delete_note, long_report])


@pytest.fixture(autouse=True)
def _clear_ran():
    ran.clear()


def never_asked(question: str):
    raise AssertionError(f"nobody should be asked anything, but was asked {question!r}")


def run(executor: ToolExecutor, name: str, arguments: str, call_id: str = "call_1") -> ToolResult:
    return asyncio.run(executor.run(ToolCall.parse(call_id, name, arguments)))


def test_a_policy_takes_any_set_of_names_and_refuses_a_string():
    assert ToolPolicy(allowed=["read_note"]).allowed == frozenset({"read_note"})
    with pytest.raises(TypeError, match="takes a set of tool names, not the string 'read_note'"):
        ToolPolicy(allowed="read_note")


def test_a_policy_naming_an_unregistered_tool_is_our_mistake_and_raises():
    with pytest.raises(ValueError, match="ToolPolicy\\(allowed=...\\) names 'rm', which is not a registered tool; "
                                         "registered tools: delete_note, long_report, read_note"):
        ToolExecutor(REGISTRY, ToolPolicy(allowed={"read_note", "rm"}))


def test_an_allowed_call_runs_and_is_logged():
    executor = ToolExecutor(REGISTRY, ToolPolicy(), never_asked)
    assert run(executor, "read_note", '{"path": "a.txt"}') == ToolResult("contents of a.txt")
    assert executor.log == [
        Decision("call_1", "read_note", "allowed", "every check", "call 1 of this turn, 1 of this task")]


def test_check_1_an_unknown_tool_lists_only_the_allowed_ones():
    executor = ToolExecutor(REGISTRY, ToolPolicy(allowed={"read_note"}), never_asked)
    result = run(executor, "rm_rf", "{}")
    assert result.is_error
    assert result.content == "Error: refused by rule 'tool exists': Unknown tool 'rm_rf'; available tools: read_note"
    assert executor.log[-1].outcome == "refused" and executor.log[-1].rule == "tool exists"


def test_check_1_a_huge_unknown_name_is_echoed_cut_to_size():
    executor = ToolExecutor(REGISTRY, ToolPolicy(allowed={"read_note"}), never_asked)
    result = run(executor, "x" * 10_000, "{}")
    assert result.is_error and len(result.content) < 300
    assert "(10000 characters)" in result.content


def test_check_2_a_registered_tool_outside_the_allowlist_is_refused_and_not_offered():
    executor = ToolExecutor(REGISTRY, ToolPolicy(allowed={"read_note"}), never_asked)
    result = run(executor, "delete_note", '{"path": "a.txt"}')
    assert result.content == ("Error: refused by rule 'allowed tools': 'delete_note' is not allowed in this task; "
                              "allowed tools: read_note")
    assert [t["function"]["name"] for t in executor.tools()] == ["read_note"]
    assert ran == []


def test_check_3_bad_arguments_get_the_dispatchers_own_message():
    executor = ToolExecutor(REGISTRY, ToolPolicy(), never_asked)
    for raw in ['{"path": 3}', '{"path": ', '["a.txt"]', '{}']:
        _, problem = check_arguments(read_note, ToolCall.parse("", "read_note", raw))
        assert run(executor, "read_note", raw).content == f"Error: refused by rule 'valid arguments': {problem}"
    assert ran == []


def test_check_3_comes_before_asking_a_person():
    executor = ToolExecutor(REGISTRY, ToolPolicy(), never_asked)
    assert run(executor, "delete_note", '{"file": "a.txt"}').content.startswith(
        "Error: refused by rule 'valid arguments': arguments for 'delete_note' do not match")


def test_check_4_a_denied_call_does_not_run_and_the_model_reads_why(capsys):
    executor = ToolExecutor(REGISTRY, ToolPolicy(), scripted_answers("no, keep it"))
    result = run(executor, "delete_note", '{"path": "a.txt"}')
    assert result == ToolResult(
        "Error: refused by rule 'confirmation': the user did not allow this call of 'delete_note' (they answered "
        "'no, keep it'). It did not run. Do not try it again; ask the user what they want instead, or answer "
        "without it.", is_error=True, refused_by="confirmation")
    assert ran == []
    assert capsys.readouterr().out == '[asked] Allow delete_note {"path": "a.txt"}? [y/N]\n[answer] no, keep it\n'
    assert [(d.outcome, d.rule, d.detail) for d in executor.log] == [
        ("denied", "confirmation", "the person answered 'no, keep it'")]


@pytest.mark.parametrize("yes", ["y", "Yes", " YES "])
def test_check_4_a_confirmed_call_runs(yes):
    executor = ToolExecutor(REGISTRY, ToolPolicy(), scripted_answers(yes))
    assert run(executor, "delete_note", '{"path": "a.txt"}') == ToolResult("deleted a.txt")
    assert [d.outcome for d in executor.log] == ["confirmed", "allowed"]


@pytest.mark.parametrize("stop", ["/cancel", "/exit", " /CANCEL "])
def test_check_4_cancel_stops_the_task_without_running_the_call(stop):
    executor = ToolExecutor(REGISTRY, ToolPolicy(), scripted_answers(stop))
    with pytest.raises(TaskCancelled):
        run(executor, "delete_note", '{"path": "a.txt"}')
    assert ran == []
    assert executor.log[-1].outcome == "cancelled"


def test_the_policy_can_ask_for_any_tool_or_for_none():
    asks_for_reads = ToolExecutor(REGISTRY, ToolPolicy(confirm={"read_note"}), scripted_answers("n"))
    assert "did not allow" in run(asks_for_reads, "read_note", '{"path": "a.txt"}').content
    never = ToolExecutor(REGISTRY, ToolPolicy(confirm=frozenset()), never_asked)
    assert run(never, "delete_note", '{"path": "a.txt"}') == ToolResult("deleted a.txt")


def test_check_5_calls_per_turn_are_limited_and_a_new_turn_starts_afresh():
    executor = ToolExecutor(REGISTRY, ToolPolicy(limits=Limits(max_tool_calls_per_turn=2)), never_asked)
    results = [run(executor, "read_note", f'{{"path": "{n}.txt"}}', f"call_{n}") for n in range(3)]
    assert [r.is_error for r in results] == [False, False, True]
    assert results[2].content == (
        "Error: refused by rule 'max_tool_calls_per_turn': at most 2 tool calls per reply are run or put to the user "
        "(Limits.max_tool_calls_per_turn: only the user can raise it, in the task's ToolPolicy); ask for this one "
        "again in your next reply if you still need it")
    assert executor.stop_reason is None  # the next reply may call again
    executor.new_turn()
    assert not run(executor, "read_note", '{"path": "x.txt"}').is_error


def test_check_5_calls_per_task_are_limited_across_turns():
    executor = ToolExecutor(REGISTRY, ToolPolicy(limits=Limits(max_tool_calls_per_task=2)), never_asked)
    for _ in range(2):
        executor.new_turn()
        assert not run(executor, "read_note", '{"path": "a.txt"}').is_error
    executor.new_turn()
    assert run(executor, "read_note", '{"path": "a.txt"}').content == (
        "Error: refused by rule 'max_tool_calls_per_task': this task has used all of its 2 tool calls "
        "(Limits.max_tool_calls_per_task: only the user can raise it, in the task's ToolPolicy); "
        "answer with what you have")
    assert executor.stop_reason == LimitReached("max_tool_calls_per_task", 2)
    assert ran == ["read_note a.txt"] * 2


def test_refused_calls_use_none_of_the_budget_and_denied_ones_do():
    executor = ToolExecutor(REGISTRY, ToolPolicy(limits=Limits(max_tool_calls_per_task=2)), scripted_answers("n"))
    run(executor, "nope", "{}")
    run(executor, "read_note", "{}")
    assert executor.calls_this_task == 0
    run(executor, "delete_note", '{"path": "a.txt"}')  # a person was asked: that is what the budget bounds
    assert (executor.calls_this_task, executor.denials) == (1, 1)
    assert run(executor, "read_note", '{"path": "a.txt"}') == ToolResult("contents of a.txt")
    assert "max_tool_calls_per_task" in run(executor, "read_note", '{"path": "b.txt"}').content


def test_a_long_result_is_cut_with_a_note_naming_the_limit():
    executor = ToolExecutor(REGISTRY, ToolPolicy(limits=Limits(max_output_chars=100)), never_asked)
    result = run(executor, "long_report", '{"size": 1234}')
    assert result.content == "x" * 100 + (
        "\n[... 1,134 more characters cut: a tool result shows at most 100 characters (Limits.max_output_chars, "
        "set in the task's ToolPolicy). Ask for a smaller part to see the rest.]")
    assert run(executor, "long_report", '{"size": 100}').content == "x" * 100


def test_truncate_keeps_the_error_flag():
    cut = truncate(ToolResult("Error: " + "e" * 50, is_error=True), 10)
    assert cut.is_error and cut.content.startswith("Error: eee\n[... 47 more characters cut")


def test_concurrent_confirmations_are_asked_one_at_a_time_in_call_order():
    asked, open_questions = [], []

    async def slow_person(question) -> str:
        open_questions.append(question)
        assert len(open_questions) == 1, "two questions were open at once"
        await asyncio.sleep(0)  # let the other calls try to ask meanwhile
        asked.append(str(question))
        open_questions.pop()
        return "y"

    async def three_calls():
        executor = ToolExecutor(REGISTRY, ToolPolicy(), slow_person)
        return await asyncio.gather(*(executor.run(
            ToolCall.parse(f"c{n}", "delete_note", f'{{"path": "{n}"}}')) for n in range(3)))

    results = asyncio.run(three_calls())
    assert [r.content for r in results] == ["deleted 0", "deleted 1", "deleted 2"]
    assert asked == [f'Allow delete_note {{"path": "{n}"}}? [y/N]' for n in range(3)]


def test_ask_user_returns_the_persons_answer(capsys):
    executor = ToolExecutor(build_registry([ask_user_tool(scripted_answers("  Paris "))]), ToolPolicy(), never_asked)
    assert run(executor, "ask_user", '{"question": "Which city?"}') == ToolResult("Paris")
    assert capsys.readouterr().out == "[asked] Which city?\n[answer]   Paris \n"


def test_ask_user_with_an_empty_answer_says_so():
    executor = ToolExecutor(build_registry([ask_user_tool(scripted_answers(""))]), ToolPolicy(), never_asked)
    assert run(executor, "ask_user", '{"question": "Which city?"}').content == "(the user gave no answer)"


def test_cancel_given_to_ask_user_stops_the_task_and_is_not_reported_as_a_bug(caplog):
    executor = ToolExecutor(build_registry([ask_user_tool(scripted_answers("/exit"))]), ToolPolicy(), never_asked)
    with caplog.at_level(logging.ERROR), pytest.raises(TaskCancelled, match="answered /exit"):
        run(executor, "ask_user", '{"question": "Which city?"}')
    assert caplog.records == []


def test_scripted_answers_say_when_they_run_out():
    ask = scripted_answers("y")
    asyncio.run(ask("first?"))
    with pytest.raises(RuntimeError, match="no answer left for the question 'second\\?'"):
        asyncio.run(ask("second?"))


def test_terminal_ask_reads_a_line_and_treats_end_of_input_as_exit(monkeypatch):
    monkeypatch.setattr(builtins, "input", lambda prompt: f"typed after {prompt!r}")
    assert asyncio.run(terminal_ask("Allow?")) == "typed after 'Allow? '"

    def closed(prompt):
        raise EOFError

    monkeypatch.setattr(builtins, "input", closed)
    assert asyncio.run(terminal_ask("Allow?")) == "/exit"


def test_a_call_over_the_limit_is_refused_before_anyone_is_asked():
    executor = ToolExecutor(REGISTRY, ToolPolicy(limits=Limits(max_tool_calls_per_turn=1)), scripted_answers("y"))
    assert run(executor, "delete_note", '{"path": "a"}') == ToolResult("deleted a")
    # scripted_answers has no answer left: asking now would raise RuntimeError
    assert "max_tool_calls_per_turn" in run(executor, "delete_note", '{"path": "b"}').content
    assert [d.outcome for d in executor.log] == ["confirmed", "allowed", "refused"]


def test_an_ask_that_raises_task_cancelled_itself_is_logged_and_stops_the_task():
    async def stop_button(question: str) -> str:
        raise TaskCancelled("the page's cancel button")

    executor = ToolExecutor(REGISTRY, ToolPolicy(), stop_button)
    with pytest.raises(TaskCancelled, match="cancel button"):
        run(executor, "delete_note", '{"path": "a.txt"}')
    assert ran == []
    assert executor.log == [Decision("call_1", "delete_note", "cancelled", "confirmation", "the person stopped the task")]


def test_denials_are_counted_and_after_the_limit_nobody_is_asked():
    executor = ToolExecutor(REGISTRY, ToolPolicy(limits=Limits(max_denials_per_task=2)), scripted_answers("n", "n"))
    for n in range(2):
        assert "did not allow" in run(executor, "delete_note", f'{{"path": "{n}"}}').content
    assert executor.denials == 2 and executor.stop_reason == LimitReached("max_denials_per_task", 2)
    # scripted_answers has no answer left: asking now would raise RuntimeError
    refused = run(executor, "delete_note", '{"path": "2"}').content
    assert refused.startswith("Error: refused by rule 'max_denials_per_task': the user denied 2 tool calls")
    assert run(executor, "read_note", '{"path": "a"}') == ToolResult("contents of a")  # needs no yes: still runs
    assert ran == ["read_note a"]


def test_no_denials_allowed_means_nobody_is_ever_asked():
    executor = ToolExecutor(REGISTRY, ToolPolicy(limits=Limits(max_denials_per_task=0)), never_asked)
    assert "max_denials_per_task" in run(executor, "delete_note", '{"path": "a"}').content
    assert executor.stop_reason


def test_refusals_are_made_by_the_dispatchers_failure_constructor(monkeypatch):
    made = []
    original = ToolResult.failure.__func__
    monkeypatch.setattr(ToolResult, "failure",
                        classmethod(lambda cls, *args, **kw: made.append(args[0]) or original(cls, *args, **kw)))
    result = asyncio.run(ToolExecutor(build_registry([]), ToolPolicy()).run(ToolCall.parse("call_1", "nope", "{}")))
    assert result.is_error and made == [result.content.removeprefix("Error: ")]


@pytest.mark.parametrize("name, answers", [("read_note", ()), ("delete_note", ("y",))])
def test_a_calls_arguments_are_parsed_and_checked_once_and_run_as_checked(monkeypatch, name, answers):
    # Checked, shown to the person, and run: one parse, one check by the tool's own validator (a @tool's pydantic
    # model, which jsonschema does not see on a valid call), not one for each step.
    parsed, checked, model_checks = [], [], []
    loads, check = json.loads, REGISTRY[name].validator.check
    model = REGISTRY[name].validator.model
    validate = model.model_validate_json
    monkeypatch.setattr(json, "loads", lambda text, **kw: parsed.append(text) or loads(text, **kw))
    monkeypatch.setattr(REGISTRY[name].validator, "check", lambda arguments: checked.append(arguments) or check(arguments))
    monkeypatch.setattr(model, "model_validate_json", lambda *args, **kw: model_checks.append(1) or validate(*args, **kw))
    monkeypatch.setattr(ArgumentsValidator, "problems", lambda *args: pytest.fail("jsonschema ran on a @tool's call"))
    executor = ToolExecutor(REGISTRY, ToolPolicy(), scripted_answers(*answers))
    assert not run(executor, name, '{"path": "a.txt"}').is_error
    assert parsed == ['{"path": "a.txt"}'] and checked == [{"path": "a.txt"}] and model_checks == [1]
    assert ran == [f"{name} a.txt"]
