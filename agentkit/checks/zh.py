"""Check lines in Chinese: each English hint and title a check can print, with its Chinese form (`zh.json`).

A message's English form is its template in the check's source, each `{...}` of the f-string written `{0}`, `{1}`...
in order; the Chinese form uses the same numbers, in the order Chinese needs. A message is read back against the
templates (the longest fixed text first) and written out in Chinese with the same values, each value read back in
turn: a piece built elsewhere (a helper's sentence, a hidden case's description, marked `phrase(...)` where it is
written) has its own template, and pieces joined by "; " or ", " are read back one by one. A text no template fits
(a name, a repr, Python's own error) is kept as it is.
tests/test_checks_zh.py checks that every message and piece the checks' source writes has its Chinese form.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

CATALOG = Path(__file__).with_name("zh.json")
HOLE = re.compile(r"\{(\d+)\}")
LATIN = re.compile(r"[A-Za-z]")


@cache
def templates() -> list[tuple[re.Pattern[str], str]]:
    """(pattern of the English form, Chinese form), the templates with the most fixed text first; each template twice,
    its values read shortest first and longest first (a value may hold the text that follows it: "a: b: c")."""
    catalog: dict[str, str] = json.loads(CATALOG.read_text(encoding="utf-8"))
    compiled = []
    for english, chinese in sorted(catalog.items(), key=lambda item: -len(HOLE.sub("", item[0]))):
        pieces = HOLE.split(english)  # fixed text, hole number, fixed text, ...
        for value in (".*?", ".*"):
            pattern = "".join(re.escape(piece) if index % 2 == 0 else f"(?P<h{piece}>{value})"
                              for index, piece in enumerate(pieces))
            compiled.append((re.compile(pattern, re.DOTALL), chinese))
    return compiled


@cache
def in_chinese(message: str) -> str:
    """`message` in Chinese, its values (names, reprs, numbers) kept; as it is if no template fits it.

    Of every way the templates read it, the one that leaves the least English (Latin letters) wins: a message can
    fit a general template ("{0} is {1}; expected {2}") and a specific one whose values are read back too."""
    readings = [HOLE.sub(lambda hole, found=found: in_chinese(found.group(f"h{hole.group(1)}")), chinese)
                for pattern, chinese in templates() if (found := pattern.fullmatch(message))]
    for separator, chinese_separator in (("; ", "；"), (", ", ", ")):  # pieces a helper joined, each read back
        pieces = message.split(separator)
        if len(pieces) > 1 and (read := [in_chinese(piece) for piece in pieces]) != pieces:
            readings.append(chinese_separator.join(read))
    return min(readings, key=lambda reading: len(LATIN.findall(reading)), default=message)
