"""Which language a learner wrote in, so that the offline model answers in it.

The course's readers write English or Simplified Chinese; a message with any Han character is taken as
Chinese ("把 notes.txt 读一下" keeps the learner's language even though it names a file in Latin letters).
"""

from __future__ import annotations

import re

NAME_DOTS = ("·", "•", "・")
"""The middle dot that joins the parts of a foreign name in Chinese ("弗兰克·赫伯特")."""
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def is_chinese(text: str) -> bool:
    """True when the text has a Han character: the learner wrote (at least partly) in Chinese."""
    return bool(_HAN.search(text or ""))


def language_of(text: str) -> str:
    """'zh' for a message written (even partly) in Chinese, otherwise 'en'."""
    return "zh" if is_chinese(text) else "en"
