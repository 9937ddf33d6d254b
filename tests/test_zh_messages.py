"""The front ends in Chinese (issue 28): `agentkit chat` and `agentkit web` speak to the person in the locale's
language or `--lang`'s, while what the model reads, tool names, commands and paths stay as they are."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path
from typing import get_args

import httpx
import pexpect
import pytest
from front_door import (
    SCRIPT,
    Running,
    environment,
    free_port,
    no_process_left,  # noqa: F401 (a fixture: nothing left running)
)

import agentkit
from agentkit.asking import Cancelled, Question
from agentkit.calls import ToolCall
from agentkit.decisions import Decision
from agentkit.events import Status
from agentkit.frontends.messages import (
    LANGUAGES,
    MESSAGES,
    NOT_RUN_BECAUSE,
    PERSON_LANGUAGE,
    for_the_person,
    person_language,
    person_question,
    say,
    why_it_stopped,
)
from agentkit.frontends.terminal import describe
from agentkit.frontends.web.protocol import PLACE, asking, event_fields, page_in
from agentkit.limits import LimitReached, StoppingLimit
from agentkit.task import ModelFailed


@pytest.mark.parametrize(("flag", "environ", "expected"), [
    ("zh", {}, "zh"),
    ("en", {"LANG": "zh_CN.UTF-8"}, "en"),  # the flag beats the locale
    ("zh", {"LANG": "en_US.UTF-8"}, "zh"),
    (None, {"LANG": "zh_CN.UTF-8"}, "zh"),
    (None, {"LANG": "zh_TW.Big5"}, "zh"),
    (None, {"LANG": "zh"}, "zh"),
    (None, {}, "en"),
    (None, {"LANG": "C"}, "en"),
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {"LANG": "POSIX"}, "en"),
    (None, {"LANG": "en_US.UTF-8"}, "en"),
    (None, {"LANG": "fr_FR.UTF-8"}, "en"),  # a language we do not have: English
    (None, {"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "en"),  # LC_MESSAGES before LANG
    (None, {"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
    (None, {"LC_MESSAGES": "zh_CN.UTF-8", "LC_ALL": "C"}, "en"),  # LC_ALL before both
    (None, {"LANG": "C", "LC_ALL": "zh_CN.UTF-8"}, "zh"),
    (None, {"LANG": "", "LC_ALL": "", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),  # set but empty is not set
    (None, {"LANG": "en_US.UTF-8", "LANGUAGE": "zh_CN:en"}, "zh"),  # LANGUAGE first, as gettext reads it
    (None, {"LANG": "zh_CN.UTF-8", "LANGUAGE": "fr:en"}, "en"),  # its first language we have
    (None, {"LANG": "zh_CN.UTF-8", "LANGUAGE": "fr"}, "zh"),  # none we have: the locale
    (None, {"LC_ALL": "C", "LANGUAGE": "zh_CN"}, "en"),  # ignored under the C locale, as GNU gettext does
])
def test_zh_the_language_is_the_flag_else_the_locale(flag, environ, expected):
    assert person_language(flag, environ) == expected


def test_zh_an_unknown_language_flag_names_the_valid_ones():
    with pytest.raises(ValueError, match="en, zh"):
        person_language("fr", {})


def test_zh_both_tables_have_the_same_keys_and_the_same_places_to_fill():
    assert set(MESSAGES) == set(LANGUAGES)
    errors = {key for key in MESSAGES["zh"] if key.startswith("error ")}  # a launch error's English is its own message
    assert errors and MESSAGES["en"].keys() == MESSAGES["zh"].keys() - errors
    for key, english in MESSAGES["en"].items():
        assert set(re.findall(r"\{(\w+)\}", english)) == set(re.findall(r"\{(\w+)\}", MESSAGES["zh"][key])), key
    chinese = [key for key, text in MESSAGES["zh"].items() if not re.search(r"[\u4e00-\u9fff]", text)]
    assert chinese == ["page html lang"], "every text but the page's language code is in Chinese"


def test_zh_an_unknown_key_is_a_bug():
    with pytest.raises(KeyError):
        say("no such message", "zh")


def test_zh_a_call_that_did_not_run_is_told_in_the_persons_language_and_english_is_unchanged():
    declined = Decision("c1", "write_file", "denied", "confirmation", "the person answered 'n'")
    refused = Decision("c2", "run_bash", "refused", "allowed tools", "not allowed")
    arguments = json.dumps({"path": "notes.txt", "content": "hi"})
    assert for_the_person(declined, arguments) == "You declined: write_file notes.txt"
    assert for_the_person(refused, '{"command": "ls -l"}') == f"Not run: run_bash ls -l ({NOT_RUN_BECAUSE['allowed tools']})"
    assert for_the_person(declined, arguments, "zh") == "你拒绝了：write_file notes.txt"
    assert for_the_person(refused, '{"command": "ls -l"}', "zh") == "未运行：run_bash ls -l（本任务不允许使用这个工具）"
    token = PERSON_LANGUAGE.set("zh")  # what a front end sets for its tasks
    try:
        assert for_the_person(declined, arguments) == "你拒绝了：write_file notes.txt"
    finally:
        PERSON_LANGUAGE.reset(token)
    assert NOT_RUN_BECAUSE["tool exists"] == "the model called a tool that does not exist"


def test_zh_a_confirmation_and_a_status_are_said_in_chinese_with_the_call_unchanged():
    question = Question.confirm(ToolCall.parse("c1", "write_file", '{"path": "notes.txt", "content": "hi"}'))
    assert person_question(question, "en") == 'Allow write_file {"path": "notes.txt", "content": "hi"}? [y/N]'
    assert person_question(question, "zh") == '允许运行 write_file {"path": "notes.txt", "content": "hi"} 吗？[y/N]'
    assert person_question(Question("Which file?"), "zh") == "Which file?", "the model's own question is its own"
    event = asking("confirm", "k1", question, "zh")
    assert event["text"].startswith("允许运行 write_file") and event["raw"] == question.text
    assert event["tool"] == "write_file", "the page reads the call the question carries, not its English"
    status = Status(Cancelled("/cancel", question))
    assert describe(status) == "[task cancelled: you answered /cancel when asked to allow write_file]"
    assert describe(status, "zh") == "[任务已取消：问你是否允许 write_file 时，你回答了 /cancel]"
    failed = Status(ModelFailed("unreachable", "HTTP 500 from the model"))
    assert describe(failed, "zh") == "[任务失败：无法连接到模型：HTTP 500 from the model]", "the provider's words as sent"


def test_zh_the_chats_own_labels_are_chinese_and_what_came_from_outside_is_as_it_is():
    from agentkit.events import Note, Thinking

    assert describe(Thinking("The user wants a file."), "zh") == "  （思考）The user wants a file."
    assert describe(Thinking("The user wants a file.")) == "  (thinking) The user wants a file."
    assert describe(Note("a call read back from text"), "zh") == "[提示：a call read back from text]"
    assert describe(Note("a call read back from text")) == "[note: a call read back from text]"


ENGLISH_RUN = re.compile(r"\b[A-Za-z]+(?:\s+[A-Za-z]+){2,}\b")
"""Three English words in a row: an English sentence left inside a Chinese line."""
NOT_PROSE = re.compile(r"`[^`]*`|'[^']*'|\"[^\"]*\"|“[^”]*”|[^\s\u3000-\uffff]*[/\\][^\s\u3000-\uffff]*")
"""What a Chinese line may quote as it is: code, quoted values, paths and URLs (which end at a Chinese character)."""


def english_runs(text: str) -> list[str]:
    """The runs of 3+ English words in `text` outside code, quoted values and paths: none in a Chinese line."""
    return ENGLISH_RUN.findall(NOT_PROSE.sub("", text))


def test_english_runs_sees_an_english_sentence_and_not_a_quoted_value():
    assert english_runs("没能完成：'todo.txt' does not exist; use glob") == ["does not exist"]
    assert english_runs("未运行：run_bash ls -l（本任务不允许使用这个工具）“Which file is it?” `pip install -e .`") == []
    assert english_runs("文件 /tmp/a.txt（报错：“No such file or directory”）") == [], "a path ends at a Chinese character"


@pytest.mark.parametrize("base_url", ["http://localhost:11434/v1", "http://vllm.lan:8000/v1", "http://127.0.0.1:9/v1",
                                      "https://api.deepseek.com/v1"])
def test_a_recovery_note_is_worded_from_the_fixes_it_names_in_both_languages(base_url):
    from agentkit.events import Note
    from agentkit.recovery import RecoveryNote, server_fix

    note = RecoveryNote(base_url)
    english, chinese = describe(Note(note)), describe(Note(note), "zh")
    assert english == f"[note: {note}]" and server_fix(base_url) in english, "English as the note was written"
    assert chinese.startswith("[提示：服务器把这个工具调用写成了文本") and english_runs(chinese) == [], chinese
    assert len(re.findall(r"启动|Ollama 只对|服务商", chinese)) == len(note.fixes), "each fix it names, in Chinese"


def test_a_recovery_note_in_a_chat_in_chinese_and_in_english(tmp_path):
    import subprocess

    said = {}
    for language in ("zh", "en"):
        done = subprocess.run([str(SCRIPT), "chat", "--no-history", "--lang", language], cwd=tmp_path, text=True,
                              input="What time is it in Tokyo?\n", capture_output=True, timeout=120,
                              env=environment(tmp_path, MODEL="offline/tagged_json"))
        assert done.returncode == 0, done.stderr
        (said[language],) = [line for line in done.stdout.splitlines() if line.startswith(("[提示：", "[note: "))]
    assert said["en"].startswith("[note: The server sent this tool call as text") and "provider" in said["en"]
    assert said["zh"].startswith("[提示：服务器把这个工具调用写成了文本") and english_runs(said["zh"]) == [], said["zh"]


def test_zh_a_workspace_the_chat_cannot_use_is_refused_in_chinese(tmp_path, capsys):
    from agentkit.frontends.commands import _workspace

    (tmp_path / "a_file").write_text("")
    with pytest.raises(SystemExit):
        _workspace("chat", str(tmp_path / "a_file" / "inside"), "zh")
    line = capsys.readouterr().err
    assert line.startswith("agentkit chat: 不能把 ") and "用作工作区" in line and "--workspace PATH" in line, line


REASONS = [  # every way a task ends without completing, as its value, then in English and in Chinese
    (Cancelled("/exit", Question("Which file?")), 'you answered /exit to the question "Which file?"',
     "你对问题“Which file?”回答了 /exit"),
    (Cancelled(by="SIGINT"), "interrupted (Ctrl-C)", "已中断（Ctrl-C）"),
    (Cancelled(by="SIGHUP"), "the terminal hung up (SIGHUP)", "终端已挂断（SIGHUP）"),
    (Cancelled(by="SIGTERM"), "asked to stop (SIGTERM)", "收到停止请求（SIGTERM）"),
    (Cancelled(by="the page's Stop button"), "you stopped it from the page", "你在页面上停止了它"),
    (Cancelled(by="a kiosk's own button"), "a kiosk's own button", "a kiosk's own button"),
    (LimitReached("max_turns", 12), "it used all 12 of its model turns without an answer; to allow more: "
     "ToolPolicy(limits=Limits(max_turns=...))", "它用完了全部 12 次模型回复，仍没有给出回答；如需放宽："
     "ToolPolicy(limits=Limits(max_turns=...))"),
    (LimitReached("max_tool_calls_per_task", 25), "it used all 25 of its tool calls; to allow more: "
     "ToolPolicy(limits=Limits(max_tool_calls_per_task=...))", "它用完了全部 25 次工具调用；如需放宽："
     "ToolPolicy(limits=Limits(max_tool_calls_per_task=...))"),
    (LimitReached("max_denials_per_task", 3), "you declined 3 calls, as many as one task asks; to allow more: "
     "ToolPolicy(limits=Limits(max_denials_per_task=...))", "你已拒绝 3 次调用，达到一个任务询问的上限；如需放宽："
     "ToolPolicy(limits=Limits(max_denials_per_task=...))"),
    (ModelFailed("unreachable", "APITimeoutError: Request timed out."),
     "the model could not be reached: APITimeoutError: Request timed out.",
     "无法连接到模型：APITimeoutError: Request timed out."),
    (ModelFailed("unusable", "it has no choices"), "the model's reply could not be used: it has no choices",
     "模型的回复无法使用：it has no choices"),
]


@pytest.mark.parametrize(("reason", "english", "chinese"), REASONS, ids=lambda value: str(value)[:30])
def test_every_reason_a_task_stops_is_worded_from_its_value_in_both_languages(reason, english, chinese):
    assert (why_it_stopped(reason, "en"), why_it_stopped(reason, "zh")) == (english, chinese)
    status = Status(reason)
    assert describe(status, "zh").endswith(f"：{chinese}]") and describe(status).endswith(f": {english}]")
    assert event_fields(status, why_it_stopped(reason, "zh"))["shown"] == chinese, "the page shows the same words"


def test_every_reason_has_its_words_in_both_tables():
    keys = {f"stopped {name}" for name in ("SIGINT", "SIGHUP", "SIGTERM", "the page's Stop button", "unreachable",
                                           "unusable", "answer call", "answer question", *get_args(StoppingLimit))}
    assert keys <= set(MESSAGES["en"]) and keys <= set(MESSAGES["zh"])


MATCHED_TEXT = re.compile(r"""(?:startswith|endswith|re\.\w+|compile)\(\s*r?["']([^"']*)|["']([^"']*)["']\s+in\s""")
"""A text a program matches against: the argument of `startswith(`, `endswith(` or a regex call, or the left side of `in`."""
CORE_WORDS = ("cancelled by the user", "the model request failed", "could not be used", "Limits.", "refused by rule",
              "Allow ", "the person answered", "the task used all", "the task reached", "the person said no")
"""Words of the core's English (`str()` of a status's reason, a refusal, a confirmation's question)."""


def test_no_front_end_matches_the_cores_english():
    """A front end words a status, a refusal and a question from their values: no text it matches is core English."""
    matched = [(path.name, text) for path in (Path(agentkit.__file__).parent / "frontends").rglob("*.py")
               for found in MATCHED_TEXT.findall(path.read_text(encoding="utf-8")) for text in found
               if any(words in text for words in CORE_WORDS)]
    assert matched == []
    old = 'reason = say("you", language) if (event.error or "").startswith(\n    "cancelled by the user") else event.error'
    assert any("cancelled by the user" in text for found in MATCHED_TEXT.findall(old) for text in found), "it sees one"


def test_zh_the_page_template_takes_every_label_from_the_tables():
    from agentkit.frontends.web.app import PAGE

    template = PAGE.read_text(encoding="utf-8")
    assert all(place == "labels" or place in MESSAGES["en"] for place in PLACE.findall(template))
    english = page_in(template, "en")
    assert '<html lang="en">' in english and '<button id="send" type="submit">Send</button>' in english
    assert not re.search(r"[\u4e00-\u9fff]", english), "the English page has no Chinese"
    assert "{{" not in page_in(template, "zh")


def start_chat(tmp_path, *options: str, **variables: str):
    child = pexpect.spawn(str(SCRIPT), ["chat", *options], cwd=str(tmp_path), encoding="utf-8", timeout=60,
                          env=environment(tmp_path, TERM="xterm", **variables), dimensions=(50, 200))
    child.expect_exact("/exit 结束对话。")
    child.expect_exact("你> ")
    return child


def declines_a_call_in_chinese(child) -> None:
    child.sendline('Write "hello" to the file notes.txt')
    child.expect_exact("允许运行 write_file ")
    child.expect_exact("[y/N] ")
    child.sendline("否")
    child.expect_exact("你> ")
    (result,) = [line for line in child.before.splitlines() if line.startswith("  <- ")]
    assert result == "  <- 你拒绝了：write_file notes.txt"
    child.sendline("/cancel")
    child.expect_exact("当前没有正在运行的任务")
    child.sendline("/exit")
    child.expect_exact("再见")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_zh_chat_with_lang_zh_greets_and_tells_a_declined_call_in_chinese(tmp_path):
    declines_a_call_in_chinese(start_chat(tmp_path, "--lang", "zh"))
    assert not (tmp_path / "workspace" / "notes.txt").exists()


def test_zh_chat_follows_lang_zh_cn_without_the_flag_and_answers_shi_to_allow(tmp_path):
    child = start_chat(tmp_path, LANG="zh_CN.UTF-8")
    child.sendline('Write "hello" to the file notes.txt')
    child.expect_exact("[y/N] ")
    child.sendline("是")
    child.expect_exact("你> ")
    assert (tmp_path / "workspace" / "notes.txt").read_text() == "hello", "是 allows the call"
    declines_a_call_in_chinese(child)


def test_zh_chat_with_lang_en_stays_english_under_a_chinese_locale(tmp_path):
    child = pexpect.spawn(str(SCRIPT), ["chat", "--lang", "en"], cwd=str(tmp_path), encoding="utf-8", timeout=60,
                          env=environment(tmp_path, TERM="xterm", LANG="zh_CN.UTF-8"), dimensions=(50, 200))
    child.expect_exact("Type a request. /cancel (when asked a question) stops the task; /explain shows how the offline "
                       "model read your last request; /exit ends the chat.")
    child.sendline("/exit")
    child.expect_exact("bye")
    child.expect(pexpect.EOF)


def test_zh_web_page_and_a_declined_call_in_chinese(tmp_path):
    web = Running("web", "--port", str(free_port()), "--lang", "zh", cwd=tmp_path)
    address, token = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=(\S+)", web.line_with("agentkit web: open")).groups()
    page = httpx.get(f"{address}/?token={token}", timeout=30)
    assert page.status_code == 200
    for label in ('<html lang="zh-CN">', '<button id="send" type="submit">发送</button>', ">停止</button>",
                  'placeholder="提出你的请求；智能体可以使用它的工具"', '"page approve": "批准"', '"page deny": "拒绝"',
                  '"status cancelled": "已取消"'):
        assert label in page.text, label
    assert httpx.get(f"{address}/", timeout=30).status_code == 401, "the token still guards the page"
    headers = {"authorization": f"Bearer {token}"}
    with httpx.stream("POST", f"{address}/chat", json={"conversation": "c1", "message": 'Write "x" to the file a.txt'},
                      headers=headers, timeout=60) as response:
        events = (json.loads(line) for line in response.iter_lines())
        confirm = next(event for event in events if event["kind"] == "confirm")
        assert confirm["text"].startswith("允许运行 write_file") and confirm["tool"] == "write_file"
        answered = httpx.post(f"{address}/answer", headers=headers, timeout=30,
                              json={"conversation": "c1", "question": confirm["id"], "answer": "n"})
        assert answered.status_code == 200
        result = next(event for event in events if event["kind"] == "tool_result")
    assert result["shown"] == "你拒绝了：write_file a.txt"
    assert "did not allow" in result["content"], "the model still reads its English sentence"
    status, stderr = web.end(signal.SIGINT)  # (asyncio may warn first of the page's closed stream: not our line)
    assert (status, stderr.splitlines()[-1:]) == (130, ["agentkit web: 已停止（Ctrl-C）"]), f"in Chinese too: {status} {stderr!r}"


def test_zh_language_reaches_the_restarted_chat_though_its_clean_environment_drops_language(tmp_path):
    """The restart keeps LANG and LC_* but not LANGUAGE: the language chosen before it is passed on as --lang."""
    import subprocess

    done = subprocess.run([str(SCRIPT), "chat", "--no-history"], cwd=tmp_path, text=True, input="/exit\n",
                          env=environment(tmp_path, LANG="en_US.UTF-8", LANGUAGE="zh_CN:en"), capture_output=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "/exit 结束对话。" in done.stdout and "再见" in done.stdout, done.stdout


def test_zh_page_in_a_browser_asks_and_answers_in_chinese(tmp_path):
    """The page's script fills its words from the labels the server put in it: buttons, notes and the state."""
    from playwright.sync_api import expect
    from test_web import CHROMIUM, serving

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium); .ci/run installs it")
    from playwright.sync_api import sync_playwright
    from test_web import BROWSER_ARGS, TOKEN, WAIT, send

    from agentkit.offline import OfflineModel

    with sync_playwright() as playwright, serving(OfflineModel(), tmp_path, language="zh") as port:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS, timeout=WAIT * 1000)
        page = browser.new_page()
        page.set_default_timeout(WAIT * 1000)
        page.goto(f"http://127.0.0.1:{port}/?token={TOKEN}")
        expect(page.locator("#send")).to_have_text("发送")
        send(page, port, 'Write "hi" to the file notes.txt')
        confirm = page.locator(".ask.confirm")
        expect(confirm.locator("p")).to_have_text('允许运行 write_file {"path": "notes.txt", "content": "hi"} 吗？')
        expect(confirm.locator("button.approve")).to_have_text("批准")
        expect(confirm.locator("button.cancel")).to_have_text("取消任务")
        confirm.locator("button.deny").click()
        expect(confirm.locator(".note")).to_have_text("已拒绝")
        expect(page.locator(".tool-result.error")).to_have_text("← 你拒绝了：write_file notes.txt")
        expect(page.locator("#state")).to_have_text("就绪")
        browser.close()
    assert not (tmp_path / "notes.txt").exists()
