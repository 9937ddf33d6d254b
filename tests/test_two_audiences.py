"""Two audiences, two texts: a call that did not run has a line for the person (`for_the_person(event.decision,
event.arguments)`), and a tool result
for the model; the person's line never carries the instructions written for the model."""

import asyncio

import pytest
from recording_tools import recording_tools

from agentkit.decisions import Decision
from agentkit.frontends.messages import for_the_person
from agentkit.limits import Limits
from agentkit.loop import finish, run_task
from agentkit.offline import ScriptedModel, call, offline_client
from agentkit.policy import ToolPolicy
from agentkit.tools.registry import build_registry

erase, note = recording_tools([])
REGISTRY = build_registry([erase, note])
MODEL_WORDS = ("do not", "try it again", "ask the user", "answer with what you have", "Error:")


def results(replies, answer="n", limits=Limits(), ask=True):
    events = []

    async def person(question):
        return answer

    asyncio.run(finish(run_task(offline_client(ScriptedModel(replies)), "offline", "go", REGISTRY,
                         policy=ToolPolicy(limits=limits), ask=person if ask else None), on_event=events.append))
    return [Shown(event) for event in events if event.kind == "tool_result"]


class Shown:
    """A tool_result event with the line a front end shows the person for it."""

    def __init__(self, event):
        self.content, self.is_error = event.content, event.is_error
        self.shown = for_the_person(event.decision, event.arguments)


def assert_for_the_person(result, line):
    assert result.shown == line
    assert not any(words in result.shown for words in MODEL_WORDS)
    assert result.content.startswith("Error: refused by rule"), "the model keeps the sentence written for it"


def test_a_declined_call():
    (result,) = results([[call("erase", path="notes.txt")], "ok"])
    assert_for_the_person(result, "You declined: erase notes.txt")
    assert "Do not try it again" in result.content


def test_calls_over_a_limit_and_past_the_denials():
    first, second = results([[call("erase", path="a"), call("erase", path="b")], "ok"],
                            limits=Limits(max_tool_calls_per_turn=1))
    assert first.shown == "You declined: erase a"
    assert_for_the_person(second, "Not run: erase b (more calls in one reply than are run at once "
                                  "(Limits.max_tool_calls_per_turn))")
    *_, last = results([[call("erase", path=f"f{n}") for n in range(3)], "ok"],
                       limits=Limits(max_denials_per_task=2))
    assert_for_the_person(last, "Not run: erase f2 (you declined as many calls as one task may ask "
                                "(Limits.max_denials_per_task))")


def test_nobody_to_ask_and_a_call_that_ran():
    (refused,) = results([[call("erase", path="a")], "ok"], ask=False)
    assert_for_the_person(refused, "Not run: erase a (nobody could be asked to allow it)")
    (ran,) = results([[call("note", text="hello")], "ok"])
    assert ran.shown == "" and not ran.is_error, "a call that ran shows its result"


@pytest.mark.parametrize("arguments", ['{"path": "' + "x" * 500 + '"}', "not json", "[1, 2]", "{}", ""])
def test_the_summary_is_one_short_line_whatever_the_arguments(arguments):
    line = for_the_person(Decision("1", "erase", "denied", "confirmation"), arguments)
    assert line.startswith("You declined: erase") and len(line) < 100 and "\n" not in line
