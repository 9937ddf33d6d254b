"""Step 2: fill a tool's arguments from the question, by what each parameter's name and description ask for.

Each parameter gets a *role* from its words, its name's words first (a time zone, a place, a date, a
phone number, a title, a body...), and each role takes the values of the kinds that can play it (see
`spans.py`). A value written with its label ("subject: Report") goes to the parameter of that name.
Numbers are placed by `numbers.py`. A value is used once. Optional parameters are left out unless the
question states them; what `fill` cannot find it reports as missing, and the model asks for it instead.
"""

from __future__ import annotations

import re
from typing import Any

from agentkit.offline import numbers, reading
from agentkit.offline.spans import COUNTRY_CODES, QUOTED, Span, currency_code, find, is_known_place

# A role: the words that give a parameter that role, and the span kinds that can fill it, best first.
ROLES = [
    ("zone", {"timezone", "tz", "zone", "iana"}, ("zone",)),
    ("phone", {"phone", "mobile", "telephone", "cell"}, ("phone",)),
    ("email", {"email", "mail", "recipient"}, ("email",)),
    ("url", {"url", "link", "website", "webpage", "uri", "site"}, ("url",)),
    ("pattern", {"pattern", "glob"}, ("pattern", "quoted")),
    ("path", {"path", "file", "filename", "directory", "folder", "dir", "filepath"}, ("path", "quoted")),
    ("date", {"date", "day", "deadline", "birthday", "when", "datetime", "check"}, ("date", "time")),
    ("time", {"time", "hour", "clock"}, ("time", "date")),
    ("language", {"language", "lang", "locale"}, ("language",)),
    ("unit", {"unit", "currency", "units", "scale"}, ("unit",)),
    ("place", {"city", "location", "place", "destination", "origin", "country", "address", "region", "where",
               "airport", "town", "state", "venue", "departure", "arrival"}, ("proper", "zone", "quoted")),
    ("symbol", {"symbol", "ticker"}, ("proper", "quoted")),
    ("title", {"title", "subject", "name", "label", "heading", "headline"}, ("quoted", "named", "proper")),
    ("body", {"body", "content", "text", "message", "note", "description", "msg", "contents", "string", "sentence"},
     ("quoted", "said", "colon")),
    ("query", {"query", "keyword", "keywords", "term", "terms", "topic", "search", "q", "question", "prompt",
               "expression", "word", "phrase"}, ("quoted", "said", "colon", "named")),
]
STRICT = {"zone", "phone", "email", "url", "pattern", "path", "date", "time", "language", "unit", "place"}
FROM_WORDS = {"from", "source", "origin", "departure", "start", "base", "check_in"}
TO_WORDS = {"to", "target", "destination", "arrival", "into", "end"}
SYMBOLS = {"°c": " celsius", "°f": " fahrenheit", "°k": " kelvin", "ºc": " celsius", "ºf": " fahrenheit"}


def fill(schema: dict, text: str, exclude: frozenset[str] = frozenset(), guess: bool = True) -> tuple[dict, list[str]]:
    """The arguments for `schema` read from `text`, and the names of required ones that could not be found.

    `exclude` holds the tool's own words (they are not what a search is about); `guess=False` leaves out
    a required choice the question does not state instead of taking the schema's default.
    """
    return _fill_object(schema, text, find(text), set(), exclude, guess)


def needed_values_present(schema: dict, text: str) -> float:
    """How many required parameters of a strict kind (a path, an email, a place...) the question has a value for."""
    properties, spans = schema.get("properties") or {}, None
    count = 0
    for name in schema.get("required") or []:
        role, kinds = _role(name, properties.get(name) or {})
        if role in STRICT and role not in ("date", "time", "unit"):
            spans = spans if spans is not None else find(text)
            count += any(s.kind in kinds and (s.kind != "proper" or is_known_place(s.value)) for s in spans)
    return count


def _fill_object(schema: dict, text: str, spans: list[Span], used: set[int], exclude, guess) -> tuple[dict, list[str]]:
    properties = schema.get("properties") or {}
    required = [r for r in schema.get("required") or [] if r in properties]
    numeric = [n for n, p in properties.items() if _type(p) in ("number", "integer") and "enum" not in p]
    free = [s for s in spans if s.kind == "number" and id(s) not in used]
    must = [name for name in required if not _nullable(properties[name])]
    placed = numbers.assign(numeric, {n: _hint(n, properties[n]) for n in numeric}, properties, must, free)
    used.update(id(s) for s in placed.values())
    values: dict[str, Any] = {n: numbers.as_json(s.value, _type(properties[n])) for n, s in placed.items()}
    for name, spec in properties.items():
        if name not in numeric:
            value = _labelled(name, properties, text) if _type(spec) == "string" and "enum" not in spec else None
            if value is None:  # a nullable value is never guessed: null says "not given" (strict schemas)
                value = _value(name, spec, name in required and not _nullable(spec), text, spans, used, exclude, guess)
            if value is not None:
                values[name] = value
    values |= {name: None for name in required if name not in values and _nullable(properties[name])}
    ordered = {name: values[name] for name in properties if name in values}
    return ordered, [name for name in required if name not in ordered]


def _value(name: str, spec: dict, required: bool, text: str, spans: list[Span], used: set[int], exclude, guess) -> Any:
    kind, hint = _type(spec), _hint(name, spec)
    if "enum" in spec:
        return _choice(spec["enum"], hint, text, spec.get("default") if required and guess else None,
                       required and guess)
    if kind == "boolean":
        return _boolean(name, text, required and guess)
    if kind == "array":
        items = spec.get("items") or {}
        if "enum" in items:
            found = [v for v in items["enum"] if _choice([v], hint, text, None, False) is not None]
        elif _type(items) in ("number", "integer"):
            found = [numbers.as_json(s.value, _type(items)) for s in spans if s.kind == "number" and id(s) not in used]
        else:
            role, kinds = _role(name, spec)
            found = [_text_of(s, text) for s in spans if s.kind in (kinds if role != "body" else ("quoted",))
                     and id(s) not in used]
        return found or None
    if kind == "object":
        inner, missing = _fill_object(spec, text, spans, used, exclude, guess)
        return inner if inner and not missing else None
    if kind not in ("string", None):
        return None
    role, kinds = _role(name, spec)
    candidates = [s for s in spans if s.kind in kinds and id(s) not in used]
    if role == "place":
        candidates = [s for s in candidates if s.kind != "proper" or is_known_place(s.value) or _after_preposition(s)]
    if role in ("place", "unit", "language", "date", "time"):
        candidates = _by_direction(hint, candidates)
    if candidates:
        chosen = min(candidates, key=lambda s: kinds.index(s.kind))
        used.add(id(chosen))
        return _as_asked(role, hint, chosen, text)
    if required and role not in STRICT:
        rest = [s for s in spans if s.kind in ("quoted", "said", "named", "colon") and id(s) not in used]
        return _text_of(rest[0], text) if rest else _key_phrase(text, exclude) or None
    return None


def _as_asked(role: str | None, hint: set[str], span: Span, text: str) -> str:
    """The value as the parameter wants it: a zone as an IANA name, a currency or a country as its code."""
    if role == "zone":
        return str(span.value)
    written = _text_of(span, text)
    if role == "unit" and hint & {"currency"}:
        return currency_code(written, span.before)
    if role == "place" and hint & {"code", "iso"}:
        return COUNTRY_CODES.get(written.lower(), written)
    return written


def _labelled(name: str, properties: dict, text: str) -> str | None:
    """ "subject: Report, body: The Q3 report is attached." -> the text after this parameter's label."""
    labels = "|".join(re.escape(p.replace("_", " ")) for p in properties)
    match = re.search(rf"\b{re.escape(name.replace('_', ' '))}\s*[:=]\s*(.+?)(?=,?\s*\b(?:{labels})\s*[:=]|$)", text, re.I)
    return match.group(1).strip().rstrip(",").strip("\"“”") if match else None


def _choice(options: list, hint: set[str], text: str, default: Any, must: bool) -> Any:
    """The option the question names; for "from X to Y", the one on this parameter's side. Else `default`."""
    lowered = text.lower()
    for symbol, word in SYMBOLS.items():
        lowered = lowered.replace(symbol, word)
    found = []
    for option in options:
        parts = [reading.stem(p) for p in reading.split_name(str(option))]
        for match in re.finditer(r"[a-z0-9]+", lowered):
            word = reading.stem(match.group(0))
            if parts and (word == parts[0] or len(word) >= 4 and parts[0].startswith(word) or parts[0] == word[:4]):
                before = re.findall(r"[a-z0-9]+", lowered[: match.start()])[-2:]
                found.append((match.start(), option, before))
                break
    if not found:
        return (default if default is not None else options[0]) if must else None
    found.sort(key=lambda f: f[0])
    towards = [f for f in found if f[2][-1:] and f[2][-1] in {"to", "into", "in"}]
    source = [f for f in found if f[2][-1:] and (f[2][-1] == "from" or re.fullmatch(r"\d+|degrees?", f[2][-1]))]
    if _side(hint) == "to":
        return (towards or [f for f in found if f not in source] or found)[-1][1]
    if _side(hint) == "from":
        return (source or [f for f in found if f not in towards] or found)[0][1]
    return found[0][1]


def _boolean(name: str, text: str, must: bool) -> bool | None:
    topic = [w for w in reading.split_name(name) if w not in {"is", "include", "use", "enable", "show", "with", "has", "only"}]
    # Every word of the flag must be asked for ("replace all", not just "replace"), outside quoted text.
    lowered = QUOTED.sub(" ", text).lower()
    matches = [re.search(rf"\b{re.escape(reading.stem(word)[:5])}\w*", lowered) for word in topic]
    if topic and all(matches):
        first = min(match.start() for match in matches)
        return not re.search(r"\b(?:no|not|without|don't|exclude|skip|never)\b[\w\s]{0,20}$", lowered[:first])
    return False if must else None


def _role(name: str, spec: dict) -> tuple[str | None, tuple[str, ...]]:
    """A parameter's role: by the words of its name first, then by its description."""
    for words in (set(reading.split_name(name)), set(re.findall(r"[a-z]+", spec.get("description", "").lower())[:8])):
        for role, names, kinds in ROLES:
            if words & names:
                return role, kinds
    return None, ("quoted", "said", "named", "colon")


def _hint(name: str, spec: dict) -> set[str]:
    """The words that say what a parameter is: its name's words, then its description's first ones."""
    parts = reading.split_name(name)
    return set(parts) | {reading.stem(p) for p in parts} | {"_".join(parts)} | set(reading.words(spec.get("description", ""))[:6])


def _by_direction(hint: set[str], spans: list[Span]) -> list[Span]:
    """For "from Paris to London": an origin takes the value after "from", a destination the one after "to"."""
    if _side(hint) == "to":
        return [s for s in spans if s.before[-1:] and s.before[-1] in {"to", "into", "in", "until"}] or spans[1:] or spans
    if _side(hint) == "from":
        return [s for s in spans if s.before[-1:] and s.before[-1] in {"from", "since"}] or spans
    return spans


def _side(hint: set[str]) -> str | None:
    """ "from" for an origin, "to" for a destination, by the parameter's own name (its first words in `hint`)."""
    name = next((w for w in hint if "_" in w), "")
    for words in (set(name.split("_")), hint):
        if words & TO_WORDS:
            return "to"
        if words & FROM_WORDS:
            return "from"
    return None


def _after_preposition(span: Span) -> bool:
    return bool(span.before) and span.before[-1] in {"in", "at", "from", "to", "for", "near", "of", "into"}


def _text_of(span: Span, text: str) -> str:
    return text[span.start: span.end] if span.kind == "zone" else str(span.value)


def _nullable(spec: dict) -> bool:
    """`"type": ["string", "null"]` or `anyOf: [..., {"type": "null"}]` (pydantic's `str | None`)."""
    kind = spec.get("type")
    return isinstance(kind, list) and "null" in kind or {"type": "null"} in (spec.get("anyOf") or [])


def _type(spec: dict) -> str | None:
    kind = spec.get("type")
    if kind is None and spec.get("anyOf"):  # `int | None`: the type of its one option that is not null
        kinds = [option.get("type") for option in spec["anyOf"] if option.get("type") != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    return next((k for k in kind if k != "null"), None) if isinstance(kind, list) else kind


def _key_phrase(text: str, exclude: frozenset[str]) -> str:
    """What a search is about: the words after "for", "about" or "on", or else the words that are not the tool's."""
    after = (re.search(r"\b(?:for|about|on|regarding)\s+(?:the\s+|a\s+)?(.+)", text, re.IGNORECASE)
             or re.search(r"\b(?:to|that)\s+(.+)", text, re.IGNORECASE))
    if after:  # without a trailing "at 17:30" or "on Friday": those are other arguments
        return re.sub(r"\s+(?:at|on|by|before|in|tomorrow|today)\b[^,]*$", "", after.group(1).strip().rstrip("?.!"))
    kept = [t for t in re.findall(r"[A-Za-z0-9'-]+", text)
            if t.lower() not in reading.STOP_WORDS and reading.stem(t.lower()) not in exclude and not t[0].isdigit()]
    return " ".join(kept)
