"""The agent loop: how each task ends, that its history can always be sent again, and concurrent tool calls."""

import asyncio
import json

import openai
import pytest
from recording_tools import recording_tools

from agentkit.asking import Cancelled, Question
from agentkit.events import Status
from agentkit.limits import LimitReached, Limits
from agentkit.loop import CANCELLED, Task, close_open_calls, finish, run_task
from agentkit.offline import Faults, OfflineServer, ScriptedModel, call, offline_client
from agentkit.policy import TaskCancelled, ToolPolicy, scripted_answers
from agentkit.tools.ask_user import ask_user_tool
from agentkit.tools.clock import clock_tool
from agentkit.tools.registry import build_registry
from agentkit.tools.schema import tool

done: list[str] = []
erase, note = recording_tools(done)


REGISTRY = build_registry([note, erase])


@pytest.fixture(autouse=True)
def _clear_done():
    done.clear()


def nobody(question: str):
    raise AssertionError(f"nobody should be asked anything, but was asked {question!r}")


def scripted(*replies):
    model = ScriptedModel(replies)
    return model, offline_client(model)


def go(client, goal, registry=REGISTRY, **options):
    options.setdefault("ask", nobody)
    on_event = options.pop("on_event", None)
    return asyncio.run(finish(run_task(client, "offline", goal, registry, **options), on_event))


def accepted_by_the_api(task: Task) -> str:
    """Send the task's history on: the offline model answers HTTP 400, like OpenAI, if a call has no answer."""
    resumed = go(offline_client(), "Write a note \"again\"", task=task)
    assert resumed.status == "completed", resumed.error
    return resumed.answer


def test_a_task_completes_with_the_offline_model_and_counts_everything():
    events = []
    task = go(offline_client(), "What time is it in Tokyo?", build_registry([clock_tool()]), on_event=events.append)
    assert task.status == "completed" and task.error is None
    assert task.answer.startswith("It's ") and " in Tokyo (" in task.answer
    assert (task.turns, task.tool_calls) == (2, 1)
    assert task.usage.prompt_tokens > 0 and task.usage.completion_tokens > 0
    assert task.usage.total_tokens == task.usage.prompt_tokens + task.usage.completion_tokens
    assert [m["role"] for m in task.messages] == ["user", "assistant", "tool", "assistant"]
    assert [e.kind for e in events] == ["usage", "tool_call", "tool_result", "usage", "answer", "status"]
    assert events[-1].task is task and events[0].usage is task.usage  # the status carries the task
    events = [e for e in events if e.kind != "usage"]
    assert events[0].name == "get_current_time" and json.loads(events[0].arguments) == {"timezone": "Asia/Tokyo"}
    assert events[1].call_id == events[0].call_id and not events[1].is_error
    assert events[-1] == Status(None, task)


def test_the_system_prompt_starts_a_new_task_and_only_tools_allowed_are_offered():
    model, client = scripted("ok")
    go(client, "hi", system_prompt="Be brief.", policy=ToolPolicy(allowed={"note"}))
    request = model.requests[0]
    assert request["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    assert [t["function"]["name"] for t in request["tools"]] == ["note"]


def test_the_system_prompt_is_recorded_in_a_task_made_ahead_and_kept_once_when_it_resumes():
    model, client = scripted("one", "two")
    task = go(client, "hi", system_prompt="You are Ada.", task=Task("hi"))  # as a chat or a web page makes it
    assert task.messages[0] == {"role": "system", "content": "You are Ada."}
    go(client, "again", system_prompt="You are Ada.", task=task)
    assert [m["role"] for m in model.requests[1]["messages"]] == ["system", "user", "assistant", "user"]


def test_no_tools_key_is_sent_when_no_tool_is_allowed():
    model, client = scripted("ok")
    assert go(client, "hi", policy=ToolPolicy(allowed=set())).status == "completed"
    assert "tools" not in model.requests[0]


def test_an_async_event_handler_is_awaited():
    seen = []

    async def show(event):
        await asyncio.sleep(0)
        seen.append(event.kind)

    go(scripted(call("note", text="a"), "done")[1], "go", on_event=show)
    assert seen == ["usage", "tool_call", "tool_result", "usage", "answer", "status"]


def test_tool_calls_run_concurrently_and_their_results_keep_the_calls_order():
    started, everyone_started = [], asyncio.Event()

    @tool
    async def gather_up(who: str) -> str:
        """Wait until three calls have started.

        Args:
            who: Caller.
        """
        started.append(who)
        if len(started) == 3:
            everyone_started.set()
        # Run one after another, the first call would wait here forever: only concurrent calls get past.
        await asyncio.wait_for(everyone_started.wait(), timeout=5)
        await asyncio.sleep(0.01 * (3 - len(who)))  # the first call finishes last
        return f"{who} done"

    model, client = scripted([call("gather_up", who=n) for n in ("a", "bb", "ccc")], "all done")
    task = go(client, "go", build_registry([gather_up]))
    assert task.status == "completed"
    calls = task.messages[1]["tool_calls"]
    assert [(m["tool_call_id"], m["content"]) for m in task.messages[2:5]] == [
        (calls[0]["id"], "a done"), (calls[1]["id"], "bb done"), (calls[2]["id"], "ccc done")]


def test_max_turns_stops_the_task_and_closes_the_calls_it_did_not_run():
    model, client = scripted(*[call("note", text=str(n)) for n in range(3)])
    task = go(client, "go", policy=ToolPolicy(limits=Limits(max_turns=2)))
    assert task.status == "limit reached"
    assert task.error == LimitReached("max_turns", 2)
    assert str(task.error) == "the task reached 2 model turns (Limits.max_turns) without an answer"
    assert done == ["0"]  # the second reply's call did not run
    assert task.messages[-1]["content"] == ("Error: not run: the task reached its limit of 2 model turns "
                                            "(Limits.max_turns).")
    accepted_by_the_api(task)


def test_max_tool_calls_per_task_stops_the_task_after_answering_every_call():
    model, client = scripted([call("note", text=str(n)) for n in range(3)], "never sent")
    task = go(client, "go", policy=ToolPolicy(limits=Limits(max_tool_calls_per_task=2)))
    assert task.status == "limit reached"
    assert task.error == LimitReached("max_tool_calls_per_task", 2)
    assert str(task.error) == "the task used all of its 2 tool calls (Limits.max_tool_calls_per_task)"
    assert done == ["0", "1"]
    assert task.messages[-1]["content"].startswith("Error: refused by rule 'max_tool_calls_per_task'")
    assert [d.outcome for d in task.decisions] == ["allowed", "allowed", "refused"]
    accepted_by_the_api(task)


def test_max_tool_calls_per_turn_refuses_the_extra_calls_and_the_task_goes_on():
    model, client = scripted([call("note", text="a"), call("note", text="b")], call("note", text="b"), "done")
    task = go(client, "go", policy=ToolPolicy(limits=Limits(max_tool_calls_per_turn=1)))
    assert task.status == "completed" and task.answer == "done"
    assert done == ["a", "b"]
    assert task.messages[3]["content"].startswith("Error: refused by rule 'max_tool_calls_per_turn'")


def test_a_denied_confirmation_goes_back_to_the_model_and_the_task_goes_on():
    model, client = scripted(call("erase", path="all"), "I did not erase anything.")
    task = go(client, "erase all", ask=scripted_answers("n"))
    assert task.status == "completed" and task.answer == "I did not erase anything."
    assert done == []
    sent_back = model.requests[1]["messages"][-1]
    assert sent_back["role"] == "tool" and "the user did not allow this call of 'erase'" in sent_back["content"]
    assert [(d.tool, d.outcome) for d in task.decisions] == [("erase", "denied")]


def test_cancel_at_a_confirmation_cancels_every_call_of_that_reply_and_runs_none():
    events = []
    model, client = scripted([call("note", text="a"), call("erase", path="x"), call("note", text="c")], "unused")
    task = go(client, "go", ask=scripted_answers("/cancel"), on_event=events.append)
    assert task.status == "cancelled"
    assert (task.error.answer, task.error.question.call.name) == ("/cancel", "erase"), "the answer, and the call asked about"
    assert str(task.error) == "the person answered /cancel when asked to allow erase"
    assert done == []
    assert [m["content"] for m in task.messages[2:]] == [CANCELLED.content] * 3
    assert [e.kind for e in events] == ["usage"] + ["tool_call"] * 3 + ["confirm"] + ["tool_result"] * 3 + ["status"]
    assert events[-1].status == "cancelled"
    assert len(model.requests) == 1
    accepted_by_the_api(task)


def test_cancel_given_to_ask_user_keeps_the_results_of_calls_that_ran():
    registry = build_registry([note, ask_user_tool(scripted_answers("/exit"))])
    model, client = scripted([call("note", text="a"), call("ask_user", question="Which one?")], "unused")
    task = go(client, "go", registry)
    assert task.status == "cancelled" and task.error == Cancelled("/exit", Question("Which one?"))
    assert [m["content"] for m in task.messages[2:]] == ["noted a", CANCELLED.content]
    accepted_by_the_api(task)


def test_a_failing_model_fails_the_task_keeps_its_messages_and_can_be_resumed():
    model, client = scripted(call("note", text="a"), 500)
    task = go(client, "go")
    assert task.status == "failed"
    assert task.error.how == "unreachable" and task.error.detail.startswith("InternalServerError: ")
    assert "scripted failure with HTTP status 500" in str(task.error)
    assert [m["role"] for m in task.messages] == ["user", "assistant", "tool"]
    model.replies.append("done at last")
    resumed = go(client, "", task=task)  # an empty goal: carry on from where it stopped
    assert resumed is task and task.status == "completed" and task.answer == "done at last"
    assert task.error is None and task.turns == 2
    assert [m["role"] for m in task.messages] == ["user", "assistant", "tool", "assistant"]


def test_a_model_failing_after_the_sdks_retries_over_http_fails_the_task():
    registry = build_registry([clock_tool()])

    async def fail_then_resume(base_url):
        async with openai.AsyncOpenAI(api_key="k", base_url=base_url, max_retries=2) as client:
            task = await finish(run_task(client, "offline", "What time is it in Tokyo?", registry, ask=nobody))
            failed = (task.status, task.error)
            await finish(run_task(client, "offline", "", registry, ask=nobody, task=task))
            return failed, task

    with OfflineServer(faults=Faults(status=500, times=3)) as server:
        (status, error), task = asyncio.run(fail_then_resume(server.base_url))
        assert server.faults._failed == 3  # the first request and the SDK's two retries
    assert status == "failed" and str(error).startswith("the model request failed: InternalServerError: ")
    assert task.status == "completed"
    assert [m["role"] for m in task.messages] == ["user", "assistant", "tool", "assistant"]


def test_resuming_a_completed_task_adds_the_new_goal_to_the_same_conversation():
    model, client = scripted("first", "second")
    task = go(client, "one")
    go(client, "two", task=task)
    assert task.goal == "two" and task.answer == "second" and task.turns == 2
    assert model.requests[1]["messages"] == [{"role": "user", "content": "one"},
                                             {"role": "assistant", "content": "first"},
                                             {"role": "user", "content": "two"}]


def test_an_open_call_is_refused_by_the_api_until_it_is_closed():
    task = Task("go", [{"role": "user", "content": "go"},
                       {"role": "assistant", "content": None, "tool_calls": [
                           {"id": "call_1", "type": "function", "function": {"name": "note", "arguments": "{}"}}]}])
    with pytest.raises(openai.BadRequestError, match="did not have response messages: call_1"):
        asyncio.run(offline_client().chat.completions.create(model="offline", messages=task.messages))
    close_open_calls(task.messages, CANCELLED)
    close_open_calls(task.messages, CANCELLED)  # closing twice adds nothing
    assert task.messages[2:] == [{"role": "tool", "tool_call_id": "call_1", "content": CANCELLED.content}]
    accepted_by_the_api(task)


def test_a_bug_while_deciding_raises_but_leaves_the_history_valid():
    def broken_person(question):
        raise RuntimeError("the confirmation dialog crashed")

    model, client = scripted(call("erase", path="x"))
    task = Task("go")
    with pytest.raises(RuntimeError, match="dialog crashed"):
        go(client, "go", ask=broken_person, task=task)
    assert task.messages[-1] == {"role": "tool", "tool_call_id": task.messages[1]["tool_calls"][0]["id"],
                                 "content": CANCELLED.content}
    accepted_by_the_api(task)


def test_an_ask_raising_task_cancelled_cancels_the_task():
    async def stop_button(question):
        raise TaskCancelled("the page's cancel button")

    model, client = scripted(call("erase", path="x"), "unused")
    task = go(client, "go", ask=stop_button)
    assert (task.status, task.error) == ("cancelled", Cancelled(by="the page's cancel button"))
    assert task.messages[-1]["content"] == CANCELLED.content


@pytest.mark.parametrize("stop_at", ["tool_call", "confirm"])
def test_a_consumer_that_stops_reading_closes_the_calls_still_open(stop_at):
    """A front end's Stop or Ctrl-C closes the stream (`aclose`) wherever it is: no call is left without a result."""
    model, client = scripted([call("note", text="a"), call("erase", path="x")], "unused")
    task = Task("go")

    async def read_until_stop() -> list[str]:
        seen = []
        events = run_task(client, "offline", "go", REGISTRY, ask=scripted_answers("y"), task=task)
        async for event in events:
            seen.append(event.kind)
            if event.kind == stop_at:
                await events.aclose()
                break
        return seen

    seen = asyncio.run(read_until_stop())
    assert seen[-1] == stop_at and "tool_result" not in seen
    assert done == []  # nothing ran: the stream stopped before the calls were run
    assert [m["content"] for m in task.messages[2:]] == [CANCELLED.content] * 2
    accepted_by_the_api(task)


def test_a_task_cancelled_from_outside_while_a_tool_runs_leaves_a_valid_history():
    model, client = scripted(call("slow", text="a"), "unused")
    task = Task("go")

    async def cancel_while_running() -> None:
        started = asyncio.Event()

        @tool
        async def slow(text: str) -> str:
            """Wait until cancelled.

            Args:
                text: Anything.
            """
            started.set()
            await asyncio.Event().wait()
            return text

        running = asyncio.ensure_future(finish(run_task(client, "offline", "go", build_registry([slow]), task=task)))
        await started.wait()
        running.cancel()  # as a front end's Ctrl-C or Stop does
        with pytest.raises(asyncio.CancelledError):
            await running

    asyncio.run(cancel_while_running())
    assert task.messages[-1]["content"] == CANCELLED.content
    accepted_by_the_api(task)


def test_the_confirm_event_comes_before_the_person_is_asked():
    seen, seen_when_asked = [], []

    async def person(question):
        seen_when_asked.append(list(seen))
        return "y"

    go(scripted([call("note", text="a"), call("erase", path="x")], "done")[1], "go", ask=person,
       on_event=lambda event: seen.append((event.kind, getattr(event, "name", ""))))
    assert seen_when_asked == [[("usage", ""), ("tool_call", "note"), ("tool_call", "erase"), ("confirm", "erase")]]
    assert ("confirm", "note") not in seen  # a call that needs no yes asks nobody


@pytest.mark.parametrize("arguments, limits, rule", [
    ({"path": 5}, Limits(), "valid arguments"),  # the policy refuses the arguments before anyone is asked
    ({"path": "x"}, Limits(max_tool_calls_per_task=0), "max_tool_calls_per_task"),
    ({"path": "x"}, Limits(max_denials_per_task=0), "max_denials_per_task"),
])
def test_a_call_the_policy_refuses_yields_no_confirm_event_and_asks_nobody(arguments, limits, rule):
    events = []
    task = go(scripted([call("erase", **arguments)], "done")[1], "go", policy=ToolPolicy(limits=limits),
              ask=nobody, on_event=events.append)
    assert [event.kind for event in events if event.kind in ("tool_call", "confirm", "tool_result")] == \
        ["tool_call", "tool_result"]
    result = next(event for event in events if event.kind == "tool_result")
    assert result.result.refused_by == rule and result.decision.rule == rule and done == []
    assert task.decisions[-1].outcome == "refused"


def test_a_confirm_event_carries_the_question_the_person_is_asked():
    asked, confirms = [], []

    async def person(question):
        asked.append(question)
        return "n"

    go(scripted([call("erase", path="x")], "done")[1], "go", ask=person,
       on_event=lambda event: confirms.append(event) if event.kind == "confirm" else None)
    assert [event.question for event in confirms] == asked and asked[0].call.arguments == {"path": "x"}
