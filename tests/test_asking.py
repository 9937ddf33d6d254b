"""Asking a person: with no `ask` given, nobody is reached, and a call that needs a yes is refused, saying how to give one."""

import asyncio
import builtins

from recording_tools import recording_tools

from agentkit.asking import NO_PERSON
from agentkit.calls import ToolCall
from agentkit.limits import Limits
from agentkit.loop import finish, run_task
from agentkit.offline import ScriptedModel, call, offline_client
from agentkit.policy import ToolExecutor, ToolPolicy
from agentkit.tools.registry import build_registry

ran: list[str] = []
erase, note = recording_tools(ran)


REGISTRY = build_registry([erase, note])


def no_terminal(monkeypatch):
    """The library must never fall back on the terminal: input() here fails the test."""
    def typed(prompt):
        raise AssertionError(f"input() was called with {prompt!r}: the library asked the terminal by default")

    monkeypatch.setattr(builtins, "input", typed)


def test_an_executor_without_ask_refuses_a_call_that_needs_a_yes_and_says_how_to_give_one(monkeypatch):
    no_terminal(monkeypatch)
    ran.clear()
    executor = ToolExecutor(REGISTRY, ToolPolicy(limits=Limits(max_tool_calls_per_task=1)))
    result = asyncio.run(executor.run(ToolCall.parse("call_1", "erase", '{"path": "a.txt"}')))
    assert result.is_error and result.content == f"Error: refused by rule 'confirmation': {NO_PERSON}"
    assert "no person is connected" in result.content and "ask=" in result.content
    assert ran == [] and [(d.outcome, d.rule) for d in executor.log] == [("refused", "confirmation")]
    # nobody was asked, so the refusal used none of the task's budget: a call that needs no yes still runs
    assert asyncio.run(executor.run(ToolCall.parse("call_2", "note", '{"text": "hi"}'))).content == "noted hi"
    assert executor.stop_reason is None and executor.denials == 0


def test_run_task_without_ask_gives_the_model_the_refusal_and_the_task_goes_on(monkeypatch):
    no_terminal(monkeypatch)
    ran.clear()
    model = ScriptedModel([call("erase", path="all"), "I could not erase it."])
    task = asyncio.run(finish(run_task(offline_client(model), "offline", "erase all", REGISTRY)))
    assert task.status == "completed" and ran == []
    sent_back = model.requests[1]["messages"][-1]
    assert sent_back["role"] == "tool" and sent_back["content"].startswith("Error: refused by rule 'confirmation'")
    assert "no person is connected" in sent_back["content"]


def test_a_policy_that_confirms_nothing_needs_no_ask(monkeypatch):
    no_terminal(monkeypatch)
    ran.clear()
    executor = ToolExecutor(REGISTRY, ToolPolicy(confirm=frozenset()))
    assert asyncio.run(executor.run(ToolCall.parse("call_1", "erase", '{"path": "a"}'))).content == "erased a"
