"""Part of step 1: a question about the world is not a request for a tool, even when it shares the tool's words.

"What is a stock split?", "why do planes fly so high?", "什么是股票代码？", "为什么天空是蓝色的？": a tool that quotes
stocks, searches flights or makes passwords does not answer them, and a model that calls it anyway (or asks which
ticker to use) has misread the question. Such a question has the form of a question about things in general (a
definition, a reason, how something works, who made something, advice) and names no value a tool would work on:
no number, date, place, file, quoted text, code or symbol ("纽约现在是什么时间？" names a place: a clock tool answers
it). Then no tool is called, and the model answers in words.
"""

from __future__ import annotations

import re

from agentkit.offline.language import is_chinese
from agentkit.offline.places import is_known_place
from agentkit.offline.spans import find
from agentkit.offline.vocabulary import english

GENERAL = re.compile(
    r"^\s*(?:(?:so|and|but|ok|okay|hey|hi),?\s+)?(?:"
    r"what(?:'s| is| are)\s+(?:a|an)\s|what(?:'s| is) the (?:difference|point|purpose|meaning|history|origin)\b|"
    r"what does .+ (?:mean|do|stand for)\b|what do .+ (?:mean|do)\b|what (?:causes|makes|happens)\b|"
    r"(?:which|what) [\w ]+? (?:is|are) the (?:\w+est|best|worst|most \w+|least \w+)\b|"
    r"why\b|how (?:does|do|did) (?!i\b|you\b|we\b).+ work\b|how (?:does|do) (?:a|an|the)\s|"
    r"who (?:invented|wrote|discovered|founded|painted|composed|made|created|built|was|is|were|sang)\b|"
    r"(?:is|are|was) (?!it\b|there\b)[\w' -]+ (?:good|bad|healthy|safe|hard|easy|better|worse|italian|french|true)\b|"
    r"how (?:many|much|long|often) .*\b(?:should|does|do|can|is|are)\b (?:i|you|we|a|an|the|people|one)\b)",
    re.IGNORECASE)
"""The forms of a question about the world: a definition, a reason, how it works, who did it, an opinion, advice."""
GENERAL_ZH = re.compile(r"什么是|是什么(?!时候)|什么意思|什么叫|为什么|为何|"
                        r"有什么(?:好处|坏处|影响|区别|作用|用处|意义|优点|缺点|危害)|有哪些(?:好处|坏处|影响|区别)|"
                        r"是谁|谁(?:发明|发现|写|创造|建立)|怎么回事|原理|(?:一般|通常).*合适")
"""The same forms in Chinese: what is, what does it mean, why, what good is it, who invented."""
CONCRETE = {"number", "quoted", "email", "phone", "url", "path", "pattern", "tag", "zone", "date", "time", "sql",
            "command", "repo", "duration"}
"""Values a tool works on: any of them in the question makes it a request, whatever its form."""
SYMBOL = re.compile(r"(?<!\ba )(?<!\ban )(?<!\bthe )\b[A-Z]{2,5}\b")
"""A code a tool takes as it is ("AAPL", "USD", "JFK"); after an article it is a word ("an API key")."""


PLACE_FACT = re.compile(
    r"\b(?:what|which)\s+(?:language|languages|currency|continent|religion)s?\b.*\b(?:speak|spoken|use|used|in|of)\b|"
    r"\bwhat(?:'s| is| are)\s+the\s+(?:capital|official language|national \w+|currency|population)\s+of\b|"
    r"\bhow many people (?:live|are there) in\b|\bwhere is\s+[A-Z]\w+\s*\??$", re.IGNORECASE)
"""A fact about a place ("what language do they speak in Brazil?"): a request only for a tool that takes a place."""


def is_place_fact(question: str) -> bool:
    """True for a question about a place's language, currency, capital or people (see `PLACE_FACT`)."""
    return bool(PLACE_FACT.search(question))


def is_general(question: str) -> bool:
    """True for a question about the world that names no value a tool would take."""
    return bool(GENERAL.search(question)) and not SYMBOL.search(question) and not any(
        s.kind in CONCRETE or s.kind == "proper" and is_known_place(str(s.value)) for s in find(question))


def asks_in_general(question: str) -> bool:
    """A Chinese question about the world, naming no value a tool could act on: answered in words, not with a call."""
    if not is_chinese(question) or not GENERAL_ZH.search(question):
        return False
    return not any(s.kind in CONCRETE or s.kind == "proper" and (is_known_place(s.value) or re.search(r"[A-Z]{2}", s.value))
                   for s in find(english(question)))
