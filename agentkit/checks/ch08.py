"""Checks for chapter 08's exercises: resuming tasks and reading their history. Each takes `globals()`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentkit.checks import answer, expect, run_check
from agentkit.offline import ScriptedModel, offline_client
from agentkit.task import Task


async def check_exercise_8_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 8.1: `resume_until_done(client, model, goal, registry, attempts=3)` retries a failed task."""

    async def test() -> None:
        resume_until_done = answer(namespace, "resume_until_done")
        model = ScriptedModel([500, 500, "done"])
        task = await resume_until_done(offline_client(model), "offline", "Say done.", {})
        expect(isinstance(task, Task), f"it returned a {type(task).__name__}; return the Task from run_task.")
        expect(task.status == "completed", f"with a model failing twice, then answering, the task ended "
                                           f"{task.status!r} after {len(model.requests)} requests; it should complete "
                                           "on the third attempt.")
        goals = [m["content"] for m in task.messages if m["role"] == "user"]
        expect(goals == ["Say done."], f"the goal was sent {len(goals)} times; resume with an empty goal "
                                       "(run_task(..., '', ..., task=task)) so it is not asked again.")
        model = ScriptedModel([500, 500, 500, "too late"])
        task = await resume_until_done(offline_client(model), "offline", "Say done.", {}, attempts=3)
        expect(len(model.requests) == 3, f"attempts=3 made {len(model.requests)} requests to a failing model; "
                                         "stop after 3 attempts.")
        expect(task.status == "failed", f"after 3 failed attempts the task is {task.status!r}; return it as it "
                                        "is, failed.")

    return await run_check("Exercise 8.1: resuming a failed task", test)


async def check_exercise_8_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 8.2: `trace(task)` lists each tool call with the first line of its result, in call order."""

    async def test() -> None:
        trace = answer(namespace, "trace")
        got = trace(_task_with_results_out_of_order())
        expected = ['get_time {"zone": "UTC"} -> 12:00 UTC', 'read {"path": "a.txt"} -> line one',
                    "ping {} -> Error: no pong"]
        expect(isinstance(got, list), f"it returned a {type(got).__name__}; return a list of strings.")
        expect(len(got) == 3, f"it found {len(got)} calls; the task made 3, in two assistant messages: look at "
                              "every assistant message's tool_calls.")
        expect(got[0] != 'get_time {"zone": "UTC"} -> line one',
               "results were paired with calls by position; pair them by tool_call_id (results may come in any order).")
        expect(got == expected, f"got {got!r}; expected {expected!r} (name, arguments as sent, ' -> ', the "
                                "result's first line).")

    return await run_check("Exercise 8.2: a trace of the tool calls", test)


def _task_with_results_out_of_order() -> Task:
    def calls(*made: tuple[str, str, str]) -> dict[str, Any]:
        return {"role": "assistant", "content": None, "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in made]}

    return Task("check", [
        {"role": "user", "content": "check"},
        calls(("c1", "get_time", '{"zone": "UTC"}'), ("c2", "read", '{"path": "a.txt"}')),
        {"role": "tool", "tool_call_id": "c2", "content": "line one\nline two"},
        {"role": "tool", "tool_call_id": "c1", "content": "12:00 UTC"},
        calls(("c3", "ping", "{}")),
        {"role": "tool", "tool_call_id": "c3", "content": "Error: no pong"},
        {"role": "assistant", "content": "All done."},
    ], status="completed", answer="All done.")
