"""Chapter 08's checks pass the right answers and say what is wrong with wrong ones."""

import asyncio

from agentkit.checks.ch08 import check_exercise_8_1, check_exercise_8_2
from agentkit.loop import finish, run_task


async def resume_until_done(client, model, goal, registry, attempts=3):
    task = await finish(run_task(client, model, goal, registry))
    for _ in range(attempts - 1):
        if task.status != "failed":
            break
        task = await finish(run_task(client, model, "", registry, task=task))
    return task


async def resend_the_goal(client, model, goal, registry, attempts=3):
    task = await finish(run_task(client, model, goal, registry))
    for _ in range(attempts - 1):
        if task.status == "failed":
            task = await finish(run_task(client, model, goal, registry, task=task))
    return task


async def never_stops(client, model, goal, registry, attempts=3):
    task = await finish(run_task(client, model, goal, registry))
    while task.status == "failed":
        task = await finish(run_task(client, model, "", registry, task=task))
    return task


def trace(task):
    results = {m["tool_call_id"]: m["content"] for m in task.messages if m["role"] == "tool"}
    return [f"{c['function']['name']} {c['function']['arguments']} -> {results[c['id']].splitlines()[0]}"
            for m in task.messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]


def trace_by_position(task):
    calls = [c for m in task.messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    results = [m["content"] for m in task.messages if m["role"] == "tool"]
    return [f"{c['function']['name']} {c['function']['arguments']} -> {r.splitlines()[0]}"
            for c, r in zip(calls, results, strict=True)]


def trace_first_turn_only(task):
    first = next(m for m in task.messages if m.get("tool_calls"))
    results = {m["tool_call_id"]: m["content"] for m in task.messages if m["role"] == "tool"}
    return [f"{c['function']['name']} {c['function']['arguments']} -> {results[c['id']].splitlines()[0]}"
            for c in first["tool_calls"]]


def test_resume_right_answer(capsys):
    assert asyncio.run(check_exercise_8_1({"resume_until_done": resume_until_done})) is True
    assert capsys.readouterr().out == "[pass] Exercise 8.1: resuming a failed task\n"


def test_resume_sending_the_goal_again(capsys):
    assert asyncio.run(check_exercise_8_1({"resume_until_done": resend_the_goal})) is False
    assert capsys.readouterr().out == (
        "[fail] Exercise 8.1: resuming a failed task: the goal was sent 3 times; resume with an empty goal "
        "(run_task(..., '', ..., task=task)) so it is not asked again.\n")


def test_resume_without_a_bound(capsys):
    assert asyncio.run(check_exercise_8_1({"resume_until_done": never_stops})) is False
    assert "attempts=3 made 4 requests to a failing model; stop after 3 attempts." in capsys.readouterr().out


def test_resume_not_written(capsys):
    assert asyncio.run(check_exercise_8_1({})) is False
    assert capsys.readouterr().out.startswith("[todo] Exercise 8.1")


def test_trace_right_answer(capsys):
    assert asyncio.run(check_exercise_8_2({"trace": trace})) is True
    assert capsys.readouterr().out == "[pass] Exercise 8.2: a trace of the tool calls\n"


def test_trace_pairing_by_position(capsys):
    assert asyncio.run(check_exercise_8_2({"trace": trace_by_position})) is False
    assert "results were paired with calls by position; pair them by tool_call_id" in capsys.readouterr().out


def test_trace_reading_one_turn(capsys):
    assert asyncio.run(check_exercise_8_2({"trace": trace_first_turn_only})) is False
    assert "it found 2 calls; the task made 3" in capsys.readouterr().out
