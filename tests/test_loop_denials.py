"""Confirmations under load: the limits apply before anyone is asked, and a person's noes are counted.

One reply can ask for a hundred calls that each need a yes; the person must not be asked a hundred times,
and a model that keeps asking after being told no must be stopped.
"""

import asyncio

from recording_tools import recording_tools

from agentkit.limits import LimitReached, Limits
from agentkit.loop import Task, finish, run_task
from agentkit.offline import ScriptedModel, call, offline_client
from agentkit.policy import ToolPolicy
from agentkit.tools.registry import build_registry

erased: list[str] = []
erase, note = recording_tools(erased)


REGISTRY = build_registry([erase, note])
HUNDRED_ERASES = [call("erase", path=f"file{n}") for n in range(100)]


class Person:
    """Answers every confirmation the same way and counts the questions."""

    def __init__(self, answer: str):
        self.answer, self.questions = answer, []

    async def __call__(self, question: str) -> str:
        self.questions.append(question)
        return self.answer


def go(replies, person, limits=Limits()):
    erased.clear()
    model = ScriptedModel(replies)
    task = asyncio.run(finish(run_task(offline_client(model), "offline", "erase everything", REGISTRY,
                                policy=ToolPolicy(limits=limits), ask=person)))
    return task, model


def results(task: Task) -> list[str]:
    return [m["content"] for m in task.messages if m["role"] == "tool"]


def assert_accepted_by_the_api(task: Task) -> None:
    resumed = asyncio.run(finish(run_task(offline_client(ScriptedModel(["ok"])), "offline", "", REGISTRY, task=task,
                                   ask=Person("n"))))
    assert resumed.status == "completed", resumed.error


def test_a_hundred_calls_in_one_reply_ask_at_most_the_per_turn_limit_with_any_answers():
    for answer in ("n", "y"):
        person = Person(answer)
        go([HUNDRED_ERASES, "done"], person)
        assert len(person.questions) <= Limits().max_tool_calls_per_turn


def test_the_per_turn_limit_refuses_the_rest_without_asking_and_names_the_limit():
    person = Person("n")
    task, _ = go([HUNDRED_ERASES, "I erased nothing."], person, Limits(max_denials_per_task=1000))
    assert len(person.questions) == 8  # Limits.max_tool_calls_per_turn, not 100
    assert erased == []
    answered = results(task)
    assert len(answered) == 100  # every call has its result
    assert all("the user did not allow this call" in r for r in answered[:8])
    assert all(r.startswith("Error: refused by rule 'max_tool_calls_per_turn': at most 8 tool calls per reply")
               and "Limits.max_tool_calls_per_turn: only the user can raise it" in r for r in answered[8:])
    assert (task.status, task.answer) == ("completed", "I erased nothing.")


def test_the_per_task_limit_also_applies_before_asking():
    person = Person("n")
    task, model = go([HUNDRED_ERASES, "unused"], person,
                     Limits(max_tool_calls_per_task=5, max_denials_per_task=1000))
    assert len(person.questions) == 5
    assert task.status == "limit reached"
    assert task.error == LimitReached("max_tool_calls_per_task", 5)
    assert len(model.requests) == 1
    assert_accepted_by_the_api(task)


def test_denials_are_counted_and_the_limit_stops_the_task_without_asking_again():
    person = Person("no")
    task, model = go([HUNDRED_ERASES, "unused"], person)
    assert len(person.questions) == 3  # Limits.max_denials_per_task
    assert erased == []
    assert task.status == "limit reached"
    assert task.error == LimitReached("max_denials_per_task", 3)
    assert str(task.error).startswith("the person said no to 3 tool calls (Limits.max_denials_per_task), so the task "
                                      "stopped asking")
    assert task.error.how_to_raise == "ToolPolicy(limits=Limits(max_denials_per_task=...))" in str(task.error)
    answered = results(task)
    assert len(answered) == 100
    assert all(r.startswith("Error: refused by rule 'max_denials_per_task': the user denied 3 tool calls")
               for r in answered[3:])
    assert [d.outcome for d in task.decisions][:4] == ["denied", "denied", "denied", "refused"]
    assert len(model.requests) == 1  # the model is not asked again: the person decides what happens next
    assert_accepted_by_the_api(task)


def test_denials_add_up_across_replies():
    person = Person("n")
    replies = [call("erase", path=f"file{n}") for n in range(5)]
    task, model = go(replies, person, Limits(max_denials_per_task=2))
    assert len(person.questions) == 2 and len(model.requests) == 2
    assert task.status == "limit reached" and task.error == LimitReached("max_denials_per_task", 2)


def test_calls_that_need_no_yes_still_run_after_the_denials_limit_in_the_same_reply():
    person = Person("n")
    reply = [call("erase", path="a"), call("note", text="x"), call("erase", path="b")]
    task, _ = go([reply, "unused"], person, Limits(max_denials_per_task=1))
    assert len(person.questions) == 1
    assert results(task)[1] == "noted x"
    assert results(task)[2].startswith("Error: refused by rule 'max_denials_per_task'")
    assert task.status == "limit reached"


def test_a_yes_is_not_a_denial():
    person = Person("y")
    task, _ = go([[call("erase", path=f"f{n}") for n in range(4)], "done"], person)
    assert len(person.questions) == 4 and erased == ["erased f0", "erased f1", "erased f2", "erased f3"]
    assert (task.status, task.answer) == ("completed", "done")
