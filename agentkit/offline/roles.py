"""Part of step 2: what a parameter asks for, read from its name, its description and its schema.

Each parameter gets a *role* from its words, its name's words first (a time zone, a place, a date, a
phone number, a title, a body...), and each role takes the values of the span kinds that can play it
(see `spans.py`), best first. A parameter named for an origin or a destination takes the value on its
side of "from X to Y".
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from agentkit.offline import lexicon, reading
from agentkit.offline.spans import TWO_PART_CODE, Span, SpanKind
from agentkit.offline.vocabulary import english

Role = Literal["zone", "phone", "email", "url", "pattern", "tag", "path", "date", "time", "language", "unit", "place", "symbol",
               "person", "title", "body", "query", "sql", "command", "repo", "code", "room", "cuisine", "nationality"]
"""What a string parameter is for, as far as filling it goes."""
Side = Literal["from", "to"]
"""The side of "from X to Y" a parameter stands on."""

ROLES: list[tuple[Role, set[str], tuple[SpanKind, ...]]] = [
    (role, set(said["words"].split()), tuple(said["kinds"])) for role, said in lexicon.words("words")["roles"].items()]
"""A role: the words that give a parameter that role, and the span kinds that can fill it, best first."""
STRICT = {"zone", "phone", "email", "url", "pattern", "path", "date", "time", "language", "unit", "place", "sql", "command",
          "repo", "code"}
FORMAT = {"date": re.compile(r"\byyyy-mm-dd\b"), "time": re.compile(r"\bhh:mm\b"),
          "unit": re.compile(r"\b(?:iso\s*)?4217\b|\bcurrency code\b")}
"""A format written in a description says what the value is; so do JSON Schema's formats (SCHEMA_FORMAT)."""
SCHEMA_FORMAT: dict[object, Role] = {"date": "date", "date-time": "date", "time": "time", "email": "email", "uri": "url"}
CODE, PERSON, PLACE = (next(role for role in ROLES if role[0] == kind) for kind in ("code", "person", "place"))
SOFT = {"person", "title", "room", "body", "query", "nationality"}  # roles of a thing's words, not of how it is written
EXAMPLE = re.compile(r"(?:e\.g\.|like|such as|for example|例如|如)\s*[:,]?\s*['\"“‘]([^'\"”’]+)['\"”’]")
CODED = re.compile(r"(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z\d]+(?:-[A-Za-z\d]+)*|\d+(?:-\d+)+")  # "PX-55102", "B12"
FROM_WORDS, TO_WORDS, SHARED, HEADS, PLAIN = (frozenset(lexicon.words("words")["sides"][side].split())
                                              for side in ("from", "to", "shared", "heads", "plain"))


def role_of(name: str, spec: dict) -> tuple[Role | None, tuple[SpanKind, ...]]:
    """A parameter's role: by its schema's `format` ("date", "email", "uri"), then its name's words, then its description."""
    return _role(name, spec.get("description") or "", SCHEMA_FORMAT.get(spec.get("format")))


@lru_cache(maxsize=4096)  # a tool's parameters are read for every clause and every tool of every request: read each once
def _role(name: str, description: str, format_role: Role | None = None) -> tuple[Role | None, tuple[SpanKind, ...]]:
    described = re.sub(r"\b\w+'s\b", " ", english(description).lower())  # "in the owner's words": whose, not what
    described = re.sub(r"\bwhose\s+\w+|\b(?:full|your|first|last|given|family)\s+name\b", " who ", described)  # "whose
    # birthday it is", "Full name": a person, no day nor a title
    described = re.sub(r"\b(?:as|if|unless)\b[^,.;]*", " ", described)  # "fillings, as the customer lists them": how
    described = re.sub(r"\btime[\s-]zones?\b", "timezone", described)
    named = {w.rstrip("0123456789") or w for w in reading.split_name(name)} | {"_".join(parts := reading.split_name(name))}
    # "place1" is a place; "last_name" a person's, whose name is no title's
    if "sql" in named or re.search(r"\bsql\b", described):  # "query: the SQL statement to run" is code, not a search
        return ROLES[0][0], ROLES[0][2]
    # "start: HH:MM" is a clock time and "on: YYYY-MM-DD" a day, whatever else the name or description says
    formats = {role for role, pattern in FORMAT.items() if pattern.search(described)} | {format_role} - {None}
    # "member_id" is an id, whoever's; "Bed label, e.g. 'B12'" is a label written as a code
    example = EXAMPLE.search(description)
    coded = set(parts[-1:]) & CODE[1] or example and CODED.fullmatch(example[1])
    plain = (CODE[0], CODE[2]) if coded else (None, ("quoted", "said", "named", "colon", "code"))  # "BA117": a flight's
    if not formats and (len(parts) > 1 and parts[-1] in HEADS or named & PLAIN):  # "phone_model": a model, no phone
        return plain
    for words in (formats, named - SHARED, set(re.findall(r"[a-z]+", described)), named & SHARED):  # "recipient": who?
        for role, names, kinds in ROLES:
            if words & names and parts[-1:] == ["name"] and role in ("code", "email"):  # "booking_name", "recipient_name":
                return PERSON[0], PERSON[2]  # a name, whose the words before it say, no code or e-mail address
            if words & names:  # "HH:MM" takes no day, "YYYY-MM-DD" no clock time
                return (CODE[0], CODE[2]) if coded and role in SOFT else (
                    role, kinds[:1] if words is formats and role in ("date", "time") else kinds)
    if side_of(named):  # "start"/"end", "src"/"dst": two ends of a trip
        return "place", next(kinds for role, _, kinds in ROLES if role == "place")
    return plain


def hint_of(name: str, spec: dict) -> frozenset[str]:
    """The words that say what a parameter is: its name's words, then its description's first ones."""
    return _hint(name, spec.get("description") or "")


@lru_cache(maxsize=4096)
def _hint(name: str, description: str) -> frozenset[str]:
    parts = reading.split_name(name)
    described = reading.words(english(description))[:6]
    return frozenset(parts) | {reading.stem(p) for p in parts} | {"_".join(parts)} | frozenset(described)


def hints_of(names: list[str], properties: dict) -> dict[str, frozenset[str]]:
    """Each parameter's hint without the words that name another parameter: "the height, measured from the base"
    speaks of `base`, and a number after "base" is not the height's."""
    own = {name: hint_of(name, {}) for name in properties}  # a name's words and their stems
    return {n: hint_of(n, properties[n]) - (frozenset().union(*own.values()) - own[n]) for n in names}


def by_direction(hint: set[str], spans: list[Span]) -> list[Span]:
    """For "from Paris to London": an origin takes the value after "from", a destination the one after "to". A unit
    written after a number ("30 pounds") is where a conversion starts; one asked for ("how many euros") is where it
    goes."""
    if side_of(hint) == "to":
        towards = [s for s in spans if preposition(s) in {"to", "into", "in", "until"}]
        return towards or [s for s in spans if not s.counted and preposition(s) != "from"] or spans[1:] or spans
    if side_of(hint) == "from":
        return [s for s in spans if preposition(s) in {"from", "since"}] or [
            s for s in spans if s.counted] or [s for s in spans if s.after[:1] == ("to",)] or [  # "SFO to NRT"
            s for s in spans if preposition(s) not in ("to", "into")]  # "and to yen?" names no origin
    return spans


def preposition(span: Span) -> str | None:
    """The word before a value, past an article: "to the US" is "to"."""
    return next((word for word in reversed(span.before) if word not in ("the", "a", "an")), None)


def side_of(hint: set[str]) -> Side | None:
    """ "from" for an origin, "to" for a destination, by the parameter's own name (its first words in `hint`)."""
    name = next((w for w in hint if "_" in w), "")
    return next(("to" if words & TO_WORDS else "from" for words in (set(name.split("_")), hint)
                 if words & (TO_WORDS | FROM_WORDS)), None)


def nullable(spec: dict) -> bool:
    """`"type": ["string", "null"]` or `anyOf: [..., {"type": "null"}]` (pydantic's `str | None`)."""
    return isinstance(kind := spec.get("type"), list) and "null" in kind or {"type": "null"} in (spec.get("anyOf") or [])


def json_type(spec: dict) -> str | None:
    """The JSON type a parameter's schema asks for, null aside."""
    kind = spec.get("type")
    if kind is None and spec.get("anyOf"):  # `int | None`: the type of its one option that is not null
        kinds = [option.get("type") for option in spec["anyOf"] if option.get("type") != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    return next((k for k in kind if k != "null"), None) if isinstance(kind, list) else kind


def kind_of(schema: dict, name: str) -> str | None:
    role = role_of(name, schema["properties"][name])[0]  # "define X and say it in French": a word, then a text
    return "text" if role in (None, "title", "body", "query") else role


def before_labels(value: str, siblings: tuple[str, ...], name: str) -> str:
    """ "renew passport, high priority, due 2027-04-30": a text ends where a comma brings (a word and) another parameter's."""
    words = {w for p in siblings if p != name for w in reading.split_name(p) if w not in reading.STOP_WORDS}
    cut = re.search(rf",\s*(?:\w+\s+)?(?:{'|'.join(map(re.escape, sorted(words)))})s?\b", value, re.I) if words else None
    return value[:cut.start()] if cut and cut.start() > 0 else value


def labelled_value(name: str, properties: dict, text: str) -> tuple[str, int, int] | None:
    """ "subject: Report, body: The Q3 report is attached." -> the text after this parameter's label, and where they are."""
    if ":" in text or "=" in text:  # a label's sign: most texts have none, and then no pattern is compiled (~1 ms a tool)
        labels = "|".join(re.escape(p.replace("_", " ")) for p in properties)
        label = re.escape(name.replace("_", " "))
        match = reading.pattern(rf"\b{label}\s*[:=]\s*(.+?)(?=,?\s*\b(?:{labels})\s*[:=]|$)", re.I).search(text)
        if match and not re.search(r"\b(?:the|a|an|my|our|this|that)\s+(?:\S+\s+)?$", text[:match.start()], re.I):
            return before_labels(match.group(1).strip().rstrip(",").strip("\"“”"), tuple(properties), name), *match.span()
    # "in room B2", "at gate 14", "table 4": the parameter's own word, then a code with a digit in it
    if not set(reading.split_name(name)) - reading.STOP_WORDS:  # a parameter named "at" or "to" labels nothing
        return None
    # "stop 4521" for stop_id, "order 55102" for order_number: the thing's word labels its identifier too
    thing = re.sub(r"[ _](?:id|number|no|code|ref|identifier)$", "", name.replace("_", " ")) if "_" in name else name
    short = [f"{name[:3]}\\.?"] if len(name) > 5 and name.isalpha() else []  # "reg" for registration, "ref" for reference
    glossed = re.findall(r"\(([a-z]+(?: [a-z]+){0,2})\)", properties[name].get("description") or "")  # "(number plate)"
    labels = "|".join([*(re.escape(label) for label in dict.fromkeys((name.replace("_", " "), thing, *glossed))), *short])
    said = r"is\s+|" * (role_of(name, properties[name])[0] == "code")  # "registration is WU17 ABC"; no "address is 8C …"
    if coded := reading.pattern(rf"\b(?:{labels})s?\s+(?:{said}number\s+|no\.?\s*|#\s*)?((?-i:{TWO_PART_CODE.pattern})|"
                                r"[A-Za-z]{0,3}-?\d[\w-]*|(?-i:[A-HJ-Z])(?![\w'-]))\b", re.I).search(text):  # "postcode LS6 2QT"
        return coded.group(1), *coded.span()
    # "the bedroom", "in the living room" for `room`: a phrase that ends in a role-less parameter's word is its value
    if "_" in name or len(name) < 4 or role_of(name, properties[name])[0] is not None:
        return None
    head = reading.pattern(rf"\b(?:the|my|our)\s+((?:[a-z]+\s+)?[a-z]*{re.escape(name)})\b", re.I).search(text)
    named = head and re.fullmatch(rf"([A-Z][\w-]*)\s+{re.escape(name)}", head.group(1))  # "the Doing column": "Doing"
    return ((named or head).group(1), *head.span(1)) if head and head.group(1).lower() != name.lower() else None
