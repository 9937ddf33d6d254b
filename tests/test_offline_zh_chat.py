"""Everyday Chinese requests in `agentkit chat --lang zh`, offline, through the real chat loop (in process): the call
made, the file it leaves, and the words on screen (Chinese as Chinese, no English sentence in a Chinese line).

The other half of these requests is in the evaluation set (`zhchat_*` in notebooks/data/eval/cases.jsonl)."""

import asyncio
import json
import re

import pytest

from agentkit.agent import open_workspace
from agentkit.frontends.chat import chat
from agentkit.frontends.terminal import Terminal
from agentkit.offline import OfflineModel, offline_client


def session(tmp_path, *lines: str, files: dict[str, str] | None = None) -> tuple[list[str], list[tuple[str, dict]]]:
    """Type `lines` into a Chinese chat (a y/N confirmation is answered yes): what it printed and the calls it made."""
    for name, text in (files or {}).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    typed, printed = iter([*lines, "/exit"]), []

    def read(prompt: str) -> str:
        printed.append(prompt)
        return "y" if prompt.rstrip().endswith("[y/N]") else next(typed)

    asyncio.run(chat(offline_client(OfflineModel()), "offline", open_workspace(tmp_path), Terminal(read, printed.append,
                                                                                                  language="zh")))
    calls = [(m.group(1), json.loads(m.group(2))) for line in printed
             for m in [re.match(r"  -> (\w+) (\{.*\})$", line)] if m]
    return printed, calls


def answers(printed: list[str]) -> list[str]:
    return [line.split(">", 1)[1].strip() for line in printed if line.startswith("助手>")]


def no_english_sentence(text: str, *names: str) -> bool:
    """No run of three English words (a name or a path the person wrote is kept as written)."""
    for name in names:
        text = text.replace(name, "")
    return not re.search(r"[A-Za-z]{2,}[\s,;:']+[A-Za-z]{2,}[\s,;:']+[A-Za-z]{2,}", text)


@pytest.mark.parametrize("request_, call", [
    ("把 你好世界 写到 笔记.txt", ("write_file", {"path": "笔记.txt", "content": "你好世界"})),
    ("把今天下午开会写入会议.txt", ("write_file", {"path": "会议.txt", "content": "今天下午开会"})),
    ("读一下 购物清单.txt", ("read_file", {"path": "购物清单.txt"})),
    ("用 shell 数一下 笔记.txt 有多少个字", ("bash", {"command": "wc -m 笔记.txt"})),
    ("笔记.txt 有几行？", ("bash", {"command": "wc -l 笔记.txt"})),
    ("把笔记.txt里的牛奶换成鸡蛋", ("edit_file", {"path": "笔记.txt", "old_text": "牛奶", "new_text": "鸡蛋"})),
    ("列出所有文件", ("glob", {"pattern": "*"})),
    # found while fixing the ones above (written after their fix): create with content, search, move, 字数
    ("创建 todo.txt，内容是 买菜", ("write_file", {"path": "todo.txt", "content": "买菜"})),
    ("在 笔记.txt 里搜索 牛奶", ("bash", {"command": "grep -n 牛奶 笔记.txt"})),
    ("把笔记.txt移动到旧笔记.txt", ("bash", {"command": "mv 笔记.txt 旧笔记.txt"})),
    ("统计一下 笔记.txt 的字数", ("bash", {"command": "wc -m 笔记.txt"})),
    ("todo.txt 的内容是什么？", ("read_file", {"path": "todo.txt"})),
])
def test_an_everyday_request_makes_the_call_it_asks_for(tmp_path, request_, call):
    printed, calls = session(tmp_path, request_, files={"笔记.txt": "你好世界\n买牛奶\n"})
    assert calls[:1] == [call], printed


def test_tool_lines_show_chinese_as_chinese_and_the_prompts_are_chinese(tmp_path):
    printed, _ = session(tmp_path, "把 你好世界 写到 笔记.txt")
    assert '  -> write_file {"path": "笔记.txt", "content": "你好世界"}' in printed
    assert not any("\\u" in line for line in printed), printed
    assert "你> " in printed and answers(printed), printed
    assert (tmp_path / "笔记.txt").read_text(encoding="utf-8").startswith("你好世界")


def test_a_line_is_added_at_the_end_and_then_another(tmp_path):
    printed, _ = session(tmp_path, "在 笔记.txt 末尾加一行：买牛奶", "再加一行：买面包", files={"笔记.txt": "你好世界"})
    assert (tmp_path / "笔记.txt").read_text(encoding="utf-8").splitlines() == ["你好世界", "买牛奶", "买面包"], printed
    assert all(no_english_sentence(a, "笔记.txt") for a in answers(printed)), printed


def test_a_follow_up_names_another_file(tmp_path):
    _, calls = session(tmp_path, "把 早上好 写到 a.txt", "换成 notes.txt")
    assert calls[-1] == ("write_file", {"path": "notes.txt", "content": "早上好"})


def test_an_error_is_said_in_chinese_with_the_name_as_written(tmp_path):
    printed, calls = session(tmp_path, "读一下 不存在.txt")
    assert calls[0] == ("read_file", {"path": "不存在.txt"})
    said = answers(printed)[-1]
    assert "不存在.txt" in said and no_english_sentence(said, "不存在.txt") and "glob" not in said, said


@pytest.mark.parametrize("request_, meaning", [
    ("把 笔记.txt 里的 香蕉 换成 苹果", "没有找到"),  # edit_file: old_text was not found
    ("读一下 资料.txt", "是文件夹"),  # a folder, not a file
    ("读一下 ../外面.txt", "工作区之外"),  # outside the workspace
])
def test_each_class_of_tool_error_is_said_in_chinese(tmp_path, request_, meaning):
    (tmp_path / "资料.txt").mkdir()
    printed, calls = session(tmp_path, request_, files={"笔记.txt": "买牛奶\n"})
    said = answers(printed)[-1]
    assert calls and meaning in said and no_english_sentence(said), printed


def test_a_missing_value_is_asked_for_in_chinese(tmp_path):
    printed, calls = session(tmp_path, "用 shell 运行一个命令", "/cancel")
    question = calls[0][1]["question"] if calls and calls[0][0] == "ask_user" else answers(printed)[0]
    assert question.endswith("？") and not re.search(r"[A-Za-z]", question), question
    assert f"[任务已取消：你对问题“{question}”回答了 /cancel]" in printed, "the person's /cancel is told in Chinese too"


@pytest.mark.parametrize("request_, said", [("谢谢", "不客气"), ("你好", "你好")])
def test_a_request_needing_no_tool_is_answered_in_chinese_words(tmp_path, request_, said):
    printed, calls = session(tmp_path, request_)
    assert not calls and said in answers(printed)[0] and no_english_sentence(answers(printed)[0]), printed


def test_a_value_with_no_chinese_name_is_asked_for_by_its_kind_never_in_english():
    from agentkit.offline.answer import ask_for

    schema = {"properties": {"zorp_id": {"type": "string", "description": "The zorp to frobnicate."},
                             "pattern": {"type": "string"}, "qq": {"type": "integer"}}}
    assert ask_for("frob", ["zorp_id"], "zh", schema) == "请问要用的内容是什么？"
    assert ask_for("frob", ["pattern", "qq"], "zh", schema) == "请问匹配模式和数字是什么？"
    assert ask_for("frob", ["zorp_id"], "en", schema) == "Which zorp id should I use?"
