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
            argument = {"expect": 1, "run_check": 0, "CheckFailed": 0, "Verdict": 2}.get(node.func.id)
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
