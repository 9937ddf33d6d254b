"""Which fields of a JSON object a person asked about, and how each reads in a sentence.

A weather API answers with ten fields; "How humid is it?" asks about one of them. A field is chosen when the
question names it, or its value ("Is it raining?" and `"condition": "rain"`), closely before loosely ("humid"
is "humidity"; "weather" is only a synonym of it); when the question names none, the first few are said. A
field that only says back the call's own input is left out.
"""

from __future__ import annotations

from typing import Any

from agentkit.offline import reading
from agentkit.offline.wording import Language, label, value_text

NAMING = ("name", "title", "label", "city", "symbol", "day", "date", "id")
"""Fields that say which item of a list a row is, in this order of preference."""


def _close(a: str, b: str) -> bool:
    """The same word, or one the start of the other ("humid", "humidity"): closer than a synonym."""
    return a == b or len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a))


def fields(value: dict, question: str, language: Language, full: bool, given: tuple = (),
           topic: str = "") -> list[tuple[str, str]]:
    """(label, value as words) for the fields a person asked about: those whose name or value the question names,
    else the first few; every field when the system prompt asks for detail. Fields that only say back the call's
    own input (`given`) are left out; `topic`, the tool's subject in Chinese, names no field in particular."""
    flat: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, dict):  # one level down: {"main": {"temp": 21}} -> "main temp"
            flat.update({f"{key}_{k}": v for k, v in item.items() if not isinstance(v, (dict, list))})
        elif not isinstance(item, list) or all(not isinstance(v, (dict, list)) for v in item):
            flat[key] = item
        else:  # a list of objects: each said by its name and one more field ("Mon (high 20°C)")
            flat[key] = "; ".join(row(v, question, language) for v in item[:12])
    asked = set(reading.words(question))
    identifying = {k for k in flat if reading.split_name(k)[-1:] in (["id"], ["uuid"], ["url"], ["href"], ["timestamp"])}
    echoed = {k for k, v in flat.items() if v in given and not isinstance(v, bool)}  # the call's own input, said back

    def named(key: str, loosely: bool) -> bool:
        key_words = {reading.stem(w) for w in label(key, "en")[0].split() + reading.split_name(key)}
        key_words |= set(reading.words(str(flat[key]))) if key not in echoed else set()
        near = reading.related if loosely else _close
        zh_label = label(key, "zh")[0]
        return any(near(a, k) for a in asked for k in key_words) or bool(zh_label and zh_label in question
                                                                           and zh_label not in topic)

    chosen = [k for k in flat if named(k, False)] or [k for k in flat if named(k, True)]
    if full or not chosen:
        chosen = [k for k in flat if k not in identifying | echoed or k in chosen][: len(flat) if full else 4]
    shown = []
    for key in chosen:
        name, unit = label(key, language)
        shown.append((name, value_text(flat[key], language, unit)))
    return shown


def row(item: Any, question: str, language: Language) -> str:
    """One item of a list: a value, or an object by its name and one more field ("Dune (1965)")."""
    if not isinstance(item, dict):
        return value_text(item, language)
    key = next((k for n in NAMING for k in item if reading.split_name(k)[-1:] == [n]), None)
    if key is None:
        return ", ".join(f"{label(k, language)[0]} {v}" for k, v in fields(item, question, language, False))
    rest = [v for k, v in fields({k: v for k, v in item.items() if k != key}, question, language, False)][:1]
    return f"{item[key]} ({rest[0]})" if rest else str(item[key])
