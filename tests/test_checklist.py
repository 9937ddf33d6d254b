"""A plan in a tool's result, drawn as a checklist: recognised by its shape (`agentkit.frontends.checklist`), then
shown by the terminal chat and by the web page, in English and in Chinese."""

from __future__ import annotations

import asyncio
import json

import pytest
from playwright.sync_api import expect
from test_web import browser, page, send, serving  # noqa: F401 (fixtures: one chromium for the module)

from agentkit.agent import open_workspace
from agentkit.beyond.plans import Plan, plan_tools
from agentkit.frontends.chat import chat
from agentkit.frontends.checklist import Step, checklist, plan_in
from agentkit.frontends.terminal import Terminal
from agentkit.frontends.web.protocol import event_fields
from agentkit.offline import ScriptedModel, call, offline_client
from agentkit.tools import build_registry

CHAPTER_14 = "Plan:\n1. [done] read todo.txt\n2. [in_progress] read guests.txt\n3. [pending] write the summary"
STEPS = [Step("read todo.txt", "done"), Step("read guests.txt", "in_progress"), Step("write the summary", "pending")]


@pytest.mark.parametrize("content", [
    CHAPTER_14,
    "- [x] read todo.txt\n- [in progress] read guests.txt\n- [ ] write the summary",  # a markdown task list
    "☑ 1. read todo.txt\n[进行中] read guests.txt\n☐ 3. write the summary",
    json.dumps({"todos": [{"content": "read todo.txt", "status": "completed"},  # another agent's to-do tool
                          {"content": "read guests.txt", "status": "in_progress"},
                          {"content": "write the summary", "status": "pending"}]}),
    json.dumps([{"title": "read todo.txt", "done": True}, {"title": "read guests.txt", "state": "doing"},
                {"title": "write the summary", "done": False}]),
], ids=["chapter-14", "markdown", "boxes", "json-todos", "json-list"])
def test_a_plan_is_recognised_by_its_shape_whatever_the_tool(content):
    assert plan_in(content) == STEPS


@pytest.mark.parametrize("content", [
    "The plan is empty.", "Saved the note: [x] marks the spot", "Wrote 19 bytes to notes.txt (new file)",
    "todo.txt, lines 1-2:\n- book the venue\n- send the invitations",
    "read it\n\n[plan] open steps: 1. [pending] read todo.txt. Mark each with mark_step when it is done.",  # a reminder
    "1. [done] read todo.txt\nand then some prose",  # one line that is no step: not a plan
    json.dumps([{"title": "Fix the build", "state": "open"}]),  # an issue list: "open" is no plan word
    json.dumps({"steps": [{"text": "a", "status": "done"}], "more": [{"text": "b", "status": "done"}]}),  # two lists
    "[]", "{}", "",
])
def test_a_result_of_another_shape_is_no_plan(content):
    assert plan_in(content) is None


def test_the_checklist_says_how_much_is_done_in_the_persons_language_and_shows_hidden_characters():
    assert checklist(STEPS) == ["plan (1/3 done)", "☑ 1. read todo.txt", "☐ 2. read guests.txt (in progress)",
                                "☐ 3. write the summary"]
    assert checklist(STEPS, "zh") == ["计划（已完成 1/3）", "☑ 1. read todo.txt", "☐ 2. read guests.txt（进行中）",
                                      "☐ 3. write the summary"]
    assert checklist([Step("rm \u202ehs.x", "pending")])[1] == "☐ 1. rm <U+202E>hs.x", "a tool wrote it"


def plan_chat(tmp_path, language: str) -> list[str]:
    """The chat with chapter 14's plan tools, the model scripted to write a plan and mark its first step."""
    model = ScriptedModel([call("write_plan", steps=["read todo.txt", "read guests.txt"]), "Planned.",
                           call("mark_step", step=1, status="done"), "Marked."])
    lines, printed = iter(["Plan it", "Mark step 1", "/exit"]), []
    terminal = Terminal(lambda prompt: next(lines), printed.append, language=language)
    asyncio.run(chat(offline_client(model), "offline", open_workspace(tmp_path), terminal,
                     tools=lambda workspace: build_registry(plan_tools(Plan()))))
    return printed


def test_the_chat_draws_a_plan_tools_result_as_a_checklist(tmp_path):
    printed = plan_chat(tmp_path, "en")
    assert printed[1:4] == ['  -> write_plan {"steps": ["read todo.txt", "read guests.txt"]}',
                            "  <- plan (0/2 done)\n     ☐ 1. read todo.txt\n     ☐ 2. read guests.txt",
                            "agent> Planned."]
    assert printed[4:7] == ['  -> mark_step {"step": 1, "status": "done"}',
                            "  <- plan (1/2 done)\n     ☑ 1. read todo.txt\n     ☐ 2. read guests.txt",
                            "agent> Marked."]


def test_the_chinese_chat_labels_the_checklist_in_chinese(tmp_path):
    assert "  <- 计划（已完成 1/2）\n     ☑ 1. read todo.txt\n     ☐ 2. read guests.txt" in plan_chat(tmp_path, "zh")


def test_the_page_is_sent_the_steps_of_a_plan_and_nothing_for_another_result():
    from agentkit.calls import ToolCall
    from agentkit.events import CallAnswered
    from agentkit.tools.dispatcher import ToolResult

    def answered(content: str, is_error: bool = False) -> dict:
        return event_fields(CallAnswered(ToolCall.parse("c1", "write_plan", "{}"), ToolResult(content, is_error)))

    assert answered(CHAPTER_14)["plan"] == [{"text": "read todo.txt", "status": "done"},
                                            {"text": "read guests.txt", "status": "in_progress"},
                                            {"text": "write the summary", "status": "pending"}]
    assert answered("Saved.")["plan"] == [] and answered("Error: " + CHAPTER_14, True)["plan"] == []
    assert answered("- [ ] rm \u202ehs.x")["plan"] == [{"text": "rm <U+202E>hs.x", "status": "pending"}]


@pytest.mark.parametrize(("language", "heading", "going"), [("en", "plan (1/2 done)", " (in progress)"),
                                                            ("zh", "计划（已完成 1/2）", "（进行中）")])
def test_the_page_draws_a_plan_as_a_checklist(tmp_path, page, language, heading, going):  # noqa: F811 (a fixture)
    model = ScriptedModel([call("write_plan", steps=["read todo.txt", "read guests.txt"]),
                           call("mark_step", step=1, status="done"), call("mark_step", step=2, status="in_progress"),
                           "Working on it."])
    with serving(model, tmp_path, tools=lambda workspace: build_registry(plan_tools(Plan())), language=language) as port:
        send(page, port, "Plan it")
        expect(page.locator(".answer")).to_have_text("Working on it.")
        plans = page.locator(".tool-result.plan")
        expect(plans).to_have_count(3)
        last = plans.nth(2)
        expect(last.locator("div").first).to_have_text(f"← mark_step: {heading}")
        expect(last.locator("li")).to_have_text(["☑ read todo.txt", f"☐ read guests.txt{going}"])
        expect(last.locator("li.done")).to_have_count(1)
        expect(last.locator("li.in-progress")).to_have_count(1)
        expect(plans.nth(0).locator("li")).to_have_text(["☐ read todo.txt", "☐ read guests.txt"])
