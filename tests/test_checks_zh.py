"""Check lines in Chinese (agentkit/checks/zh.json): every hint and title the checks' source writes has a Chinese form
with the same values, the form read back is the right one, and only the line a student sees changes language."""

from __future__ import annotations

import ast
import asyncio
import json
import re
from pathlib import Path

import pytest

import agentkit.checks as checks
from agentkit.checks import Verdict, expect, recording, run_check, use_language
from agentkit.checks.zh import CATALOG, HOLE, in_chinese

CHECKS = Path(checks.__file__).parent
HAN = re.compile(r"[\u4e00-\u9fff]")


def template(node: ast.expr) -> str | None:
    """The message an expression writes, each f-string value a numbered hole; None if it is not written out here."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts, holes = [], 0
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(value.value)
            else:
                parts.append(f"{{{holes}}}")
                holes += 1
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = template(node.left), template(node.right)
        if left is None or right is None:
            return None
        shift = len(HOLE.findall(left))
        return left + HOLE.sub(lambda hole: f"{{{int(hole.group(1)) + shift}}}", right)
    return None


def source_messages() -> dict[str, str]:
    """Every message template in agentkit/checks: expect's hints, run_check's titles, CheckFailed's and Verdict's
    texts; each mapped to where it is."""
    found = {}
    for path in sorted(CHECKS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            argument = {"expect": 1, "run_check": 0, "CheckFailed": 0, "Verdict": 2, "phrase": 0}.get(node.func.id)
            if argument is None or len(node.args) <= argument:
                continue
            text = template(node.args[argument])
            if text:
                found[text] = f"{path.name}:{node.lineno}"
    return found


CATALOG_ENTRIES: dict[str, str] = json.loads(CATALOG.read_text(encoding="utf-8"))
MESSAGES = source_messages()


def test_there_are_messages_to_translate():
    assert len(MESSAGES) > 150, "the extraction finds the checks' messages"
    assert "Exercise 1.1: celsius_to_fahrenheit as a manual tool" in MESSAGES


@pytest.mark.parametrize("english", sorted(MESSAGES))
def test_every_check_message_has_a_chinese_form_with_the_same_values(english):
    assert english in CATALOG_ENTRIES, f"{MESSAGES[english]}: no Chinese form in agentkit/checks/zh.json for {english!r}"
    chinese = CATALOG_ENTRIES[english]
    assert HAN.search(chinese), f"{english!r}: its Chinese form has no Chinese"
    assert sorted(HOLE.findall(chinese)) == sorted(HOLE.findall(english)), f"{english!r}: the values differ"
    values = [f"«v{n}»" for n in range(len(HOLE.findall(english)))]
    filled = HOLE.sub(lambda hole: values[int(hole.group(1))], english)
    assert in_chinese(filled) == HOLE.sub(lambda hole: values[int(hole.group(1))], chinese), \
        f"{english!r} is read back as another message's template"


def test_no_stale_entries():
    assert not set(CATALOG_ENTRIES) - set(MESSAGES), "entries whose English the checks no longer write"


def test_a_message_no_template_fits_is_shown_as_it_is():
    assert in_chinese("something a helper built") == "something a helper built"


def test_only_the_line_changes_language_and_the_recorded_verdict_stays_english(capsys):
    async def failing() -> None:
        expect(False, "write a docstring: it is the only description of the tool the model reads.")

    try:
        use_language("zh")
        with recording() as verdicts:
            asyncio.run(run_check("Exercise 1.1: celsius_to_fahrenheit as a manual tool", failing))
    finally:
        use_language("en")
    line = capsys.readouterr().out
    assert line.startswith("[fail] 练习 1.1") and HAN.search(line.split("：", 1)[1]), line
    assert verdicts == [Verdict("Exercise 1.1: celsius_to_fahrenheit as a manual tool", "fail",
                                "write a docstring: it is the only description of the tool the model reads.")]
    assert verdicts[0].line().startswith("[fail] Exercise 1.1"), "English again once use_language('en')"
    with pytest.raises(ValueError, match="there are: en, zh"):
        use_language("fr")


# What a learner in the Chinese edition reads when an answer is wrong: each check run on wrong answers in zh mode.
ENGLISH_SENTENCE = re.compile(r"\b[A-Za-z]+(?: [A-Za-z]+){2,}\b")
"""Three English words in a row, spaces between: a sentence, not a name (`read_file`), a list (`a, b, c`) or code."""
NOT_OURS = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|抛出了 [\w.]+: [^；]*")
"""Quoted values, code, and Python's own words after the exception it names: these stay as they are."""


def english_left(line: str) -> list[str]:
    return ENGLISH_SENTENCE.findall(NOT_OURS.sub("", line))


class Anything(dict):
    """A notebook namespace in which every answer a check asks for is the same wrong value."""

    def __init__(self, value: object) -> None:
        super().__init__()
        self.value = value

    def __contains__(self, name: object) -> bool:
        return True

    def __getitem__(self, name: str) -> object:
        return self.value


def every_check() -> list:
    import importlib
    import inspect

    found = []
    for path in sorted(CHECKS.glob("ch*.py")):
        module = importlib.import_module(f"agentkit.checks.{path.stem}")
        found += [function for name, function in inspect.getmembers(module, inspect.iscoroutinefunction)
                  if name.startswith("check_exercise_")]
    return found


WRONG_EVERYWHERE = [{}, Anything(None), Anything("wrong"), Anything(lambda *args, **kwargs: None),
                    Anything(lambda *args, **kwargs: 42)]
"""Not written; None; a string; a function that returns nothing; one that returns a number."""


class _Gate:
    """Exercise 7.1's interface with a mistake chosen by the subclass."""

    def __init__(self, registry, policy, ask):
        self.registry, self.policy, self.ask = registry, policy, ask


class NeverAsks(_Gate):
    async def decide(self, name):
        return None if name in self.registry else "tool exists"


class AlwaysAsks(_Gate):
    async def decide(self, name):
        await self.ask(f"Allow {name}? [y/N]")
        return None if name in self.registry else "tool exists"


class Crashes(_Gate):
    async def decide(self, name):
        return self.registry[name] and None


class AsksAndRefuses(_Gate):
    async def decide(self, name):
        if name in self.registry and self.registry[name].needs_confirmation:
            await self.ask(f"Allow {name}? [y/N]")
        return "confirmation"


def _inside_with_a_prefix_hole(root, path):
    from agentkit.checks.ch05 import broken_guard

    return broken_guard(str(root), path) is not None


WRONG_ANSWERS = [  # (check, the wrong answers): the helpers that build a hint from pieces, each of their branches
    ("ch01", "check_exercise_1_2", {"parse_arguments": lambda text: tuple(text.split(","))}),
    ("ch01", "check_exercise_1_2", {"parse_arguments": lambda text: int(text)}),
    ("ch02", "check_exercise_2_3", {"calls_in_text": lambda text, tools: []}),
    ("ch03", "check_exercise_3_2", {"parameters_schema": lambda fn: []}),
    ("ch03", "check_exercise_3_2", {"parameters_schema": lambda fn: {"type": "object", "properties": {}}}),
    ("ch05", "check_exercise_5_1", {"inside": lambda root, path: True}),
    ("ch05", "check_exercise_5_1", {"inside": lambda root, path: "yes"}),
    ("ch05", "check_exercise_5_1", {"inside": _inside_with_a_prefix_hole}),
    ("ch06", "check_exercise_6_3", {"child_environment": lambda parent, allowed, extras: dict(parent)}),
    ("ch06", "check_exercise_6_3", {"child_environment": lambda parent, allowed, extras: {}}),
    ("ch06", "check_exercise_6_3", {"child_environment": lambda parent, allowed, extras: dict.fromkeys(allowed, "x")}),
    ("ch07", "check_exercise_7_1", {"Gatekeeper": NeverAsks}),
    ("ch07", "check_exercise_7_1", {"Gatekeeper": AlwaysAsks}),
    ("ch07", "check_exercise_7_1", {"Gatekeeper": Crashes}),
    ("ch07", "check_exercise_7_1", {"Gatekeeper": AsksAndRefuses}),
    ("ch10", "check_exercise_10_1", {"assemble_stream": lambda chunks: {"role": "assistant", "content": None}}),
]


def zh_lines(check, namespace, capsys) -> str:
    try:
        use_language("zh")
        asyncio.run(check(namespace))
    finally:
        use_language("en")
    return capsys.readouterr().out


@pytest.mark.parametrize("check", every_check(), ids=lambda check: check.__name__)
def test_zh_every_check_speaks_chinese_to_wrong_answers(check, capsys):
    for namespace in WRONG_EVERYWHERE:
        out = zh_lines(check, namespace, capsys)
        assert out.startswith(("[fail] 练习", "[todo] 练习")) and HAN.search(out.split("：", 1)[1]), out
        assert not english_left(out), out


@pytest.mark.parametrize(("chapter", "name", "namespace"), WRONG_ANSWERS,
                         ids=[f"{name}-{number}" for number, (_, name, _) in enumerate(WRONG_ANSWERS)])
def test_zh_a_hint_built_from_pieces_is_chinese_in_every_piece(chapter, name, namespace, capsys):
    import importlib

    check = getattr(importlib.import_module(f"agentkit.checks.{chapter}"), name)
    out = zh_lines(check, namespace, capsys)
    assert out.startswith("[fail] 练习"), out
    assert not english_left(out), out


def test_zh_the_english_detector_finds_a_sentence_and_leaves_values_code_and_python_alone():
    assert english_left("[fail] 练习 5.1：inside(root, 'a.txt') returned True; return a bool for every path")
    assert not english_left("[fail] 练习 7.1：之前的调用：read_file, bash, glob；值是 'a plain file inside'，"
                            "`os.path.commonpath or Path`，抛出了 ValueError: it is outside the workspace；完")


def test_zh_scripted_answers_prints_questions_as_its_word_puts_them_and_no_other_ask_changes(capsys):
    """The zh edition's chapters 07, 08, 11 and 14 pass `word=` (the Chinese chat's wording) to `scripted_answers`:
    an argument, not a setting of the kernel, so an `Ask` made without it still prints the library's English."""
    from agentkit.asking import Question, scripted_answers
    from agentkit.calls import ToolCall
    from agentkit.frontends.messages import person_question

    confirmation = Question.confirm(ToolCall.parse("c1", "write_file", '{"path": "笔记.txt", "content": "hi"}'))
    own = Question("Which city do you live in?")
    ask = scripted_answers("y", "Paris", "n", word=lambda question: person_question(question, "zh"))
    asyncio.run(ask(confirmation)), asyncio.run(ask(own)), asyncio.run(ask("Allow bash? [y/N]"))
    assert capsys.readouterr().out == ('[asked] 允许运行 write_file {"path": "笔记.txt", "content": "hi"} 吗？[y/N]\n'
                                       "[answer] y\n[asked] Which city do you live in?\n[answer] Paris\n"
                                       "[asked] Allow bash? [y/N]\n[answer] n\n"), "a notebook's own string as it is"
    asyncio.run(scripted_answers("n")(confirmation))
    assert capsys.readouterr().out.startswith('[asked] Allow write_file {"path": "笔记.txt"'), "no word=: English"
