"""A subagent as a tool (chapter 14): isolated from the parent's messages, held to its own policy, and stopped into
an `Error:` result that the parent's model reads."""

import asyncio

from agentkit.asking import Question
from agentkit.beyond.subagents import Subagent, run_subagent, subagent_tool
from agentkit.errors import ToolError
from agentkit.limits import Limits
from agentkit.loop import finish, run_task
from agentkit.offline import ScriptedModel, call, offline_client
from agentkit.policy import ToolPolicy
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry
from agentkit.tools.workspace import Workspace

PROMPT = "You are a helper."


def parent_run(tmp_path, child_replies, *, ask=None, **settings):
    """The parent asks the subagent once, then answers; returns (parent task, child model, events the child showed)."""
    (tmp_path / "todo.txt").write_text("- book the venue\n")
    child = ScriptedModel(child_replies)
    agent = Subagent(offline_client(child), "offline", build_registry(file_tools(Workspace(tmp_path))), PROMPT,
                     ask=ask, **settings)
    seen = []
    parent = ScriptedModel([call("research", task="Read todo.txt"), "Done."])
    registry = build_registry([subagent_tool("research", "Hand a task to a helper.", agent, on_event=seen.append)])
    task = asyncio.run(finish(run_task(offline_client(parent), "offline", "Ask the helper.", registry)))
    return task, child, seen


def tool_results(task):
    return [m["content"] for m in task.messages if m["role"] == "tool"]


def test_the_parent_sees_the_answer_and_never_the_subagents_calls(tmp_path):
    task, child, seen = parent_run(tmp_path, [call("read_file", path="todo.txt"), "One thing: book the venue."])
    assert tool_results(task) == ["One thing: book the venue."]
    called = [c["function"]["name"] for m in task.messages for c in m.get("tool_calls") or []]
    assert called == ["research"]
    assert "book the venue\n" not in str(task.messages), "the file's text stayed inside the subagent"
    assert [e.name for e in seen if e.kind == "tool_call"] == ["read_file"]
    first = child.requests[0]["messages"]
    assert first == [{"role": "system", "content": PROMPT}, {"role": "user", "content": "Read todo.txt"}]


def test_a_write_inside_the_subagent_still_asks_the_person(tmp_path):
    asked: list[Question] = []

    async def person(question: Question) -> str:
        asked.append(question)
        return "n"

    task, _, seen = parent_run(tmp_path, [call("write_file", path="new.txt", content="x"), "I was not allowed."],
                               ask=person)
    assert [q.call.name for q in asked] == ["write_file"]
    assert [e.kind for e in seen].count("confirm") == 1
    assert not (tmp_path / "new.txt").exists()
    assert tool_results(task) == ["I was not allowed."]


def test_without_a_person_the_write_is_refused_not_run(tmp_path):
    _, child, _ = parent_run(tmp_path, [call("write_file", path="new.txt", content="x"), "Refused."])
    assert not (tmp_path / "new.txt").exists()
    assert child.requests[1]["messages"][-1]["content"].startswith("Error: refused")


def test_the_workspace_guard_holds_inside_the_subagent(tmp_path):
    _, child, _ = parent_run(tmp_path, [call("read_file", path="../outside.txt"), "Could not."])
    assert "outside the workspace" in child.requests[1]["messages"][-1]["content"]


def test_a_limit_inside_comes_back_as_an_error_result(tmp_path):
    task, _, _ = parent_run(tmp_path, [call("read_file", path="todo.txt"), "never sent"],
                            policy=ToolPolicy(limits=Limits(max_turns=1)))
    (result,) = tool_results(task)
    assert result.startswith("Error: the subagent stopped (limit reached)"), result
    assert task.status == "completed", "the parent goes on: it read the error and answered"


def test_a_failing_model_inside_comes_back_as_an_error_result(tmp_path):
    task, _, _ = parent_run(tmp_path, [500])
    (result,) = tool_results(task)
    assert result.startswith("Error: the subagent stopped (failed)"), result


def test_the_token_budget_stops_the_subagent(tmp_path):
    task, child, _ = parent_run(tmp_path, [call("read_file", path="todo.txt"), "never sent"], max_tokens=1)
    (result,) = tool_results(task)
    assert result.startswith("Error: the subagent stopped: it used"), result
    assert "(Subagent.max_tokens)" in result and "max_tokens=..." in result, "which limit, and how to raise it"
    assert len(child.requests) == 1, "the subagent stopped at its first reply over the budget"


def test_the_chapters_inline_subagent_answers_as_the_promoted_one_does():
    import shutil

    from tests.chapter_code import chapter_names

    chapter = chapter_names(14, until="shutil.rmtree")
    try:
        promoted = subagent_tool("research", chapter["research"].description, Subagent(
            chapter["client"], chapter["settings"].model, chapter["helper_tools"], chapter["HELPER_PROMPT"],
            policy=ToolPolicy(limits=Limits(max_turns=4))))
        for goal in ("Read the file guests.txt", "Read the file ../outside.txt", "Read the file todo.txt"):
            inline = chapter["run"](chapter["research"].handler({"task": goal}))
            assert inline == chapter["run"](promoted.handler({"task": goal})), goal
    finally:
        shutil.rmtree(chapter["scratch"])


def test_the_budget_holds_a_request_that_would_pass_it_is_not_sent(tmp_path):
    (tmp_path / "todo.txt").write_text("- book the venue\n")
    replies = [call("read_file", path="todo.txt"), "One thing: book the venue."]

    def run(budget, on_event=None):
        child = ScriptedModel(replies)
        agent = Subagent(offline_client(child), "offline", build_registry(file_tools(Workspace(tmp_path))), PROMPT,
                         max_tokens=budget)
        try:
            return asyncio.run(run_subagent(agent, "Read todo.txt", on_event)), child
        except ToolError as error:
            return error, child

    totals = []
    whole, _ = run(10_000, lambda event: event.kind == "usage" and totals.append(event.usage.total_tokens))
    first, both = totals
    assert whole.status == "completed" and both == whole.usage.total_tokens
    stopped, child = run(both - 1)
    assert isinstance(stopped, ToolError) and len(child.requests) == 1, "the request that would pass it was not sent"
    assert f"it has used {first} of its {both - 1} tokens (Subagent.max_tokens)" in str(stopped)
    assert "Subagent(..., max_tokens=...)" in str(stopped), "the Error says how to raise it"
    enough, child = run(both + both // 10)
    assert enough.status == "completed" and len(child.requests) == 2, "a budget the task fits in lets it finish"
