"""Knowing when not to call, in Chinese: a general question that happens to share words with a tool.

"什么是股票代码？" (what is a ticker symbol?), "多喝水有什么好处？" (why drink more water?), "为什么天空是蓝色的？":
each asks about the world, not for the tool's action, even when a tool's words are in it ("股票", "水"). A question
of that form is answered in words, unless it names a concrete value a tool would take: a number, a place, a file,
a quoted text, a time ("纽约现在是什么时间？" asks for the time in New York, and a clock tool answers it).
"""

from __future__ import annotations

import re

from agentkit.offline.language import is_chinese
from agentkit.offline.places import is_known_place
from agentkit.offline.spans import find
from agentkit.offline.vocabulary import english

GENERAL = re.compile(r"什么是|是什么(?!时候)|什么意思|什么叫|为什么|为何|"
                     r"有什么(?:好处|坏处|影响|区别|作用|用处|意义|优点|缺点|危害)|有哪些(?:好处|坏处|影响|区别)|是谁|谁(?:发明|发现|写|创造|建立)|怎么回事|原理|(?:一般|通常).*合适")
"""The forms of a general question: what is, what does it mean, why, what good is it, who invented."""
CONCRETE = {"number", "zone", "path", "quoted", "email", "url", "repo", "time", "date", "sql", "command", "phone", "tag",
            "pattern"}
"""Values that make a question a request after all: something a tool would act on."""


def asks_in_general(question: str) -> bool:
    """A Chinese question about the world, naming no value a tool could act on: answered in words, not with a call."""
    if not is_chinese(question) or not GENERAL.search(question):
        return False
    values = find(english(question))
    return not any(s.kind in CONCRETE or s.kind == "proper" and (is_known_place(s.value) or re.search(r"[A-Z]{2}", s.value))
                   for s in values)
