"""Check lines in Chinese: each English hint and title a check can print, with its Chinese form (`zh.json`).

A message's English form is its template in the check's source, each `{...}` of the f-string written `{0}`, `{1}`...
in order; the Chinese form uses the same numbers, in the order Chinese needs. A message is read back against the
templates (the longest fixed text first) and written out in Chinese with the same values; a message no template
fits (one built in a helper from pieces) is shown as it is. tests/test_checks_zh.py checks that every message the
checks' source writes has its Chinese form.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

CATALOG = Path(__file__).with_name("zh.json")
HOLE = re.compile(r"\{(\d+)\}")


@cache
def templates() -> list[tuple[re.Pattern[str], str]]:
    """(pattern of the English form, Chinese form), the templates with the most fixed text first."""
    catalog: dict[str, str] = json.loads(CATALOG.read_text(encoding="utf-8"))
    compiled = []
    for english, chinese in sorted(catalog.items(), key=lambda item: -len(HOLE.sub("", item[0]))):
        pieces = HOLE.split(english)  # fixed text, hole number, fixed text, ...
        pattern = "".join(re.escape(piece) if index % 2 == 0 else f"(?P<h{piece}>.*?)"
                          for index, piece in enumerate(pieces))
        compiled.append((re.compile(pattern, re.DOTALL), chinese))
    return compiled


def in_chinese(message: str) -> str:
    """`message` in Chinese, its values (names, reprs, numbers) kept; as it is if no template fits it."""
    for pattern, chinese in templates():
        found = pattern.fullmatch(message)
        if found:
            return HOLE.sub(lambda hole, found=found: found.group(f"h{hole.group(1)}"), chinese)
    return message
