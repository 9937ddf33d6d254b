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
from agentkit.offline.lexicon import words
from agentkit.offline.places import is_known_place
from agentkit.offline.spans import find
from agentkit.offline.vocabulary import english

_WORDS = words("choose")["general"]
GENERAL = re.compile(rf"^\s*{_WORDS['lead']}(?:{'|'.join(_WORDS['forms'])})", re.IGNORECASE)  # the forms, as above
GENERAL_ZH = re.compile("|".join(_WORDS["forms_zh"]))  # the same forms in Chinese
CONCRETE = set(_WORDS["concrete"])  # the kinds of value a tool works on: one makes a question a request
SYMBOL = re.compile(r"(?<!\ba )(?<!\ban )(?<!\bthe )\b[A-Z]{2,5}\b")
"""A code a tool takes as it is ("AAPL", "USD", "JFK"); after an article it is a word ("an API key")."""
PLACE_FACT = re.compile("|".join(_WORDS["place_fact"]), re.IGNORECASE)
"""A fact about a place ("what language do they speak in Brazil?"): a request only for a tool that takes a place."""


def is_place_fact(question: str) -> bool:
    """True for a question about a place's language, currency, capital or people (see `PLACE_FACT`)."""
    return bool(PLACE_FACT.search(question))


def is_general(question: str) -> bool:
    """True for a question about the world that names no value a tool would take."""
    return bool(GENERAL.search(question)) and not SYMBOL.search(question) and not _names_a_value(question)


def asks_in_general(question: str) -> bool:
    """A Chinese question about the world, naming no value a tool could act on: answered in words, not with a call."""
    # "serendipity是什么意思？": a word in Latin letters asked about is a value, for a tool that defines or translates it
    latin = re.search(r"[A-Za-z]{2,}", question)
    return is_chinese(question) and bool(GENERAL_ZH.search(question)) and not latin and not _names_a_value(
        english(question), True)


def _names_a_value(text: str, capitals: bool = False) -> bool:
    """A value of a CONCRETE kind, a known place, or (`capitals`) a name with two capitals in a row ("NVDA")."""
    return any(s.kind in CONCRETE or s.kind == "proper" and (is_known_place(str(s.value)) or capitals and bool(
        re.search(r"[A-Z]{2}", str(s.value)))) for s in find(text))
