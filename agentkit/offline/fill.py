"""Step 2: fill a tool's arguments from the question, by what each parameter's name and description ask for.

Each parameter gets a *role* from its words (a time zone, a place, a date, a number, a title, a body...),
and each role takes the values of the kinds that can play it, the nearest fitting one first. Numbers go
to the parameter whose words stand next to them ("a rate of 3.5%", "for 7 years"). A value is used once.
Optional parameters are left out unless the question states them; what `fill` cannot find, it reports
as missing, and the model asks for it instead of calling the tool with a hole in it.
"""

from __future__ import annotations

import re
from typing import Any

from agentkit.offline import reading
from agentkit.offline.spans import Span, find, is_known_place

# A role: the words that give a parameter that role, and the span kinds that can fill it, best first.
ROLES = [
    ("zone", {"timezone", "tz", "zone", "iana"}, ("zone",)),
    ("email", {"email", "mail", "recipient"}, ("email",)),
    ("url", {"url", "link", "website", "webpage", "uri", "site"}, ("url",)),
    ("pattern", {"pattern", "glob"}, ("pattern", "quoted")),
    ("path", {"path", "file", "filename", "directory", "folder", "dir", "filepath"}, ("path", "quoted")),
    ("date", {"date", "day", "deadline", "birthday", "when", "datetime"}, ("date", "time")),
    ("time", {"time", "hour", "clock"}, ("time", "date")),
    ("language", {"language", "lang", "locale"}, ("language",)),
    ("unit", {"unit", "currency", "units", "scale"}, ("unit",)),
    ("place", {"city", "location", "place", "destination", "origin", "country", "address", "region", "where",
               "airport", "town", "state", "venue", "departure", "arrival", "area"}, ("proper", "zone", "quoted")),
    ("symbol", {"symbol", "ticker"}, ("proper", "quoted")),
    ("title", {"title", "subject", "name", "label", "heading", "headline", "recipient"}, ("quoted", "named", "proper")),
    ("body", {"body", "content", "text", "message", "note", "description", "msg", "contents", "string", "sentence"},
     ("quoted", "said")),
    ("query", {"query", "keyword", "keywords", "term", "terms", "topic", "search", "q", "question", "prompt",
               "expression", "word", "phrase"}, ("quoted", "said", "named")),
]
FROM_WORDS, TO_WORDS = {"from", "source", "origin", "departure", "start", "base"}, {"to", "target", "destination",
                                                                                    "arrival", "into", "end"}
RATE_WORDS = {"rate", "percent", "percentage", "pct", "interest", "tax", "tip", "discount", "apr", "vat"}


def fill(schema: dict, text: str, exclude: frozenset[str] = frozenset()) -> tuple[dict[str, Any], list[str]]:
    """The arguments for `schema` read from `text`, and the names of required ones that could not be found.

    `exclude` holds the words of the tool itself: they are not a search query's content.
    """
    spans = find(text)
    return _fill_object(schema, text, spans, set(), exclude)


def _fill_object(schema: dict, text: str, spans: list[Span], used: set[int], exclude) -> tuple[dict, list[str]]:
    properties = schema.get("properties") or {}
    required = [r for r in schema.get("required") or [] if r in properties]
    values: dict[str, Any] = {}
    numeric = [n for n, p in properties.items() if _type(p) in ("number", "integer") and "enum" not in p]
    values.update(_numbers(numeric, properties, required, spans, used))
    for name, spec in properties.items():
        if name in values or name in numeric:
            continue
        value = _value(name, spec, name in required, text, spans, used, exclude)
        if value is not None:
            values[name] = value
    ordered = {name: values[name] for name in properties if name in values}
    return ordered, [name for name in required if name not in ordered]


def _value(name: str, spec: dict, required: bool, text: str, spans: list[Span], used: set[int], exclude) -> Any:
    kind = _type(spec)
    hint = _hint(name, spec)
    if "enum" in spec:
        return _enum(spec, text, required)
    if kind == "boolean":
        return _boolean(name, text, required)
    if kind == "array":
        items = spec.get("items") or {}
        if _type(items) in ("number", "integer"):
            found = [_number(s.value, _type(items)) for s in spans if s.kind == "number" and id(s) not in used]
        else:
            kinds = _role(hint)[1] if _role(hint)[0] != "body" else ("quoted",)
            found = [_text_of(s, text) for s in spans if s.kind in kinds and id(s) not in used]
        return found or None
    if kind == "object":
        inner, missing = _fill_object(spec, text, spans, used, exclude)
        return inner if inner and not missing else None
    if kind not in ("string", None):
        return None
    role, kinds = _role(hint)
    candidates = [s for s in spans if s.kind in kinds and id(s) not in used]
    if role == "place":
        candidates = [s for s in candidates if s.kind != "proper" or is_known_place(s.value) or _after_preposition(s)]
    if role in ("place", "unit", "language"):
        candidates = _by_direction(hint, candidates)
    if candidates:
        chosen = min(candidates, key=lambda s: kinds.index(s.kind))
        used.add(id(chosen))
        return chosen.value if role == "zone" else _text_of(chosen, text)
    if role == "query" and required:
        return _key_phrase(text, exclude) or None
    if role is None and required:
        rest = [s for s in spans if s.kind in ("quoted", "said", "named", "proper") and id(s) not in used]
        if rest:
            used.add(id(rest[0]))
            return _text_of(rest[0], text)
        return _key_phrase(text, exclude) or None
    return None


def _numbers(names: list[str], properties: dict, required: list[str], spans: list[Span], used: set[int]) -> dict:
    """Numbers given to parameters by the words next to them; then, in order, to required ones still empty."""
    numbers = [s for s in spans if s.kind == "number" and id(s) not in used]
    pairs = []
    for i, name in enumerate(names):
        hint = _hint(name, properties[name])
        for j, span in enumerate(numbers):
            if _fits(span.value, properties[name]):
                pairs.append((_closeness(hint, span), -abs(i - j), name, j))
    chosen: dict[str, Any] = {}
    taken: set[int] = set()
    for score, _, name, j in sorted(pairs, reverse=True):
        if score > 0 and name not in chosen and j not in taken:
            chosen[name], _ = numbers[j].value, taken.add(j)
    for name in names:  # what no word points at: in the order of the question, to required parameters only
        free = [j for j in range(len(numbers)) if j not in taken and _fits(numbers[j].value, properties[name])]
        if name not in chosen and name in required and free:
            chosen[name], _ = numbers[free[0]].value, taken.add(free[0])
    used.update(id(numbers[j]) for j in taken)
    return {name: _number(value, _type(properties[name])) for name, value in chosen.items()}


def _closeness(hint: set[str], span: Span) -> float:
    """How much the words around a number speak of this parameter: the nearest word counts most."""
    score = 0.0
    for distance, word in enumerate(reversed(span.before)):
        if any(reading.related(reading.stem(word), h) for h in hint):
            score += 3 - distance
    for distance, word in enumerate(span.after):
        if any(reading.related(reading.stem(word), h) for h in hint):
            score += 3 - distance
    is_rate = bool(hint & RATE_WORDS)
    if span.percent:
        score += 3 if is_rate else -2
    return score


def _fits(value: float, spec: dict) -> bool:
    """A value this parameter can take: a whole number for an integer (3.5 never becomes 3), within its bounds."""
    if _type(spec) == "integer" and not float(value).is_integer():
        return False
    return spec.get("minimum", float("-inf")) <= value <= spec.get("maximum", float("inf"))


def _number(value: float, kind: str | None) -> int | float:
    return int(value) if kind == "integer" or float(value).is_integer() else value


def _enum(spec: dict, text: str, required: bool) -> Any:
    lowered = text.lower()
    asked = [reading.stem(w) for w in re.findall(r"[a-z0-9]+", lowered)]
    for value in spec["enum"]:
        parts = reading.split_name(str(value))
        if parts and all(any(reading.related(reading.stem(p), a) for a in asked) for p in parts):
            return value
    if required:  # a model picks one rather than ask "celsius or fahrenheit?"; the schema's default first
        return spec.get("default", spec["enum"][0])
    return None


def _boolean(name: str, text: str, required: bool) -> bool | None:
    topic = [w for w in reading.split_name(name) if w not in {"is", "include", "use", "enable", "show", "with", "has"}]
    lowered = text.lower()
    for word in topic:
        match = re.search(rf"\b{re.escape(reading.stem(word))}\w*", lowered)
        if match:
            return not re.search(r"\b(?:no|not|without|don't|exclude|skip|never)\b[\w\s]{0,20}$", lowered[: match.start()])
    return False if required else None


def _role(hint: set[str]) -> tuple[str | None, tuple[str, ...]]:
    for role, names, kinds in ROLES:
        if hint & names:
            return role, kinds
    return None, ("quoted", "said", "named")


def _hint(name: str, spec: dict) -> set[str]:
    """The words that say what a parameter is: its name's words first, then its description's."""
    parts = reading.split_name(name)
    own = set(parts) | {reading.stem(p) for p in parts}
    return own | set(reading.words(spec.get("description", ""))[:6])


def _by_direction(hint: set[str], spans: list[Span]) -> list[Span]:
    """For "from Paris to London": an origin takes the value after "from", a destination the one after "to"."""
    wants = "from" if hint & FROM_WORDS else "to" if hint & TO_WORDS else None
    if wants is None:
        return spans
    preferred = [s for s in spans if s.before and s.before[-1] in ({"from"} if wants == "from" else {"to", "into", "in"})]
    return preferred or spans


def _after_preposition(span: Span) -> bool:
    return bool(span.before) and span.before[-1] in {"in", "at", "from", "to", "for", "near", "of", "into"}


def _text_of(span: Span, text: str) -> str:
    return text[span.start: span.end] if span.kind == "zone" else str(span.value)


def _type(spec: dict) -> str | None:
    kind = spec.get("type")
    return next((k for k in kind if k != "null"), None) if isinstance(kind, list) else kind


def _key_phrase(text: str, exclude: frozenset[str]) -> str:
    """What a search is about: the words after "for", "about" or "on", or else the words that are not the tool's."""
    after = re.search(r"\b(?:for|about|on|regarding)\s+(?:the\s+|a\s+)?(.+)", text, re.IGNORECASE)
    if after:
        return after.group(1).strip().rstrip("?.!")
    kept = [t for t in re.findall(r"[A-Za-z0-9]+", text)
            if t.lower() not in reading.STOP_WORDS and reading.stem(t.lower()) not in exclude]
    return " ".join(kept)
