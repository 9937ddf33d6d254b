"""Part of step 2: numbers go to the parameters whose words stand next to them.

"1200 at 3.5% for 7 years" gives principal=1200, rate=3.5, years=7 when the tool's parameters are
named (or described) that way: each number is scored against each numeric parameter by the words just
before and after it, a percentage goes to a rate, a decimal never goes to an integer parameter, and
what no word points at goes, in the order of the question, to the required parameters still empty. A
number's own form counts too ("$84" is money, "400 ml" a size, "3 of us" people), and a length of time
("half an hour") goes to a parameter that asks for one, in its unit.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from agentkit.offline import dates, lexicon, quantities, reading
from agentkit.offline.roles import hint_of, json_type, side_of
from agentkit.offline.spans import MONEY_WORDS, NUMBER_WORDS, UNITS, Span

TABLES = lexicon.words("words")["numbers"]  # the words that say which kind of number a parameter takes
RATE_WORDS, NOT_COUNTED, PEOPLE_WORDS, MONEY_PARAMS, SIZE_PARAMS, DURATION_WORDS, LOSS_WORDS, FRACTION_RATES, PERCENT_SCALE, \
    COUNT_PARAMS, FORMULA_WORDS, TIME_PARAMS, LENGTHS = (frozenset(TABLES[name].split()) for name in """rate_words
    not_counted people_words money_params size_params duration_words loss_words fraction_rates percent_scale count_params
    formula_words time_params clock_parts_not""".split())
DECIMAL, FORMULA, CLOCK_PARTS = re.compile(TABLES["decimal"], re.I), re.compile(TABLES["formula"]), TABLES["clock_parts"].split()
LENGTH_ASKED = re.compile(TABLES["lengths_asked"], re.I)  # "How many hours": a length of time, no clock's hour
POSTCODE, POSTCODE_NAMES = TABLES["postcode"], frozenset(TABLES["postcode_names"])  # "SE15 4QL" for a postcode
NOT_A_THING = reading.STOP_WORDS | COUNT_PARAMS  # "number", "count", "a": no thing "a ticket" could name


def assign(names: list[str], hints: dict[str, set[str]], properties: dict, required: list[str],
           numbers: list[Span]) -> dict[str, Span]:
    """Which number span each numeric parameter gets (a span at most once)."""
    numbers = [s for s in numbers if not _counts_family(s, [n for n in names if n[-1].isdigit()])]
    units = {n: quantities.wanted_unit(n, properties[n].get("description", "")) for n in names}
    fit = [(i, name, j) for i, name in enumerate(names) for j, span in enumerate(numbers)
           if fits(value_for(name, properties[name], span, False), properties[name])]
    pairs = [(closeness(hints[n], numbers[j], n) + quantities.fits_kind(numbers[j], units[n]), -abs(i - j), n, j)
             for i, n, j in fit]
    chosen: dict[str, int] = {}  # then what no word points at: in the order of the question, to required parameters only
    for score, _, name, j in [*sorted(pairs, reverse=True), *((1, 0, n, j) for _, n, j in fit if n in required)]:
        if score > 0 and name not in chosen and j not in chosen.values():
            chosen[name] = j
    return {name: numbers[j] for name, j in chosen.items()}


def own_units(placed: dict[str, Span], properties: dict, spans: list[Span]) -> list[Span]:
    """ "cycled 42 km" for a distance in km, "for 3 days" for `days`: a number's unit is its value's, no `unit` parameter's."""
    sized = [s for n, s in placed.items() if quantities.wanted_unit(n, properties[n].get("description", "")) or s.after[:1]
             and reading.stem(s.after[0]) in map(reading.stem, reading.split_name(n))]  # the parameter named for the unit
    return [u for u in spans if u.kind == "unit" and u.counted and any(0 <= u.start - s.end <= 1 for s in sized)]


def _counts_family(span: Span, family: list[str]) -> bool:
    """ "its three sides: 7, 5 and 6", "the two given numbers 8 and 14": how many values a numbered family of parameters
    (side1, side2, side3) takes is none of those values."""
    stems = {reading.stem(name.rstrip("0123456789")) for name in family}  # "num1": "numbers" starts with "num"
    return span.value == len(family) > 1 and any(
        reading.related(word, s) or word.startswith(s) for word in map(reading.stem, span.after[:2]) for s in stems)


def patterned(properties: dict, text: str, spans: list[Span], used: set[int]) -> dict[str, str]:
    """A string with a pattern takes what the question writes that fits it, before any other parameter can: a number
    ("充两百，表号是98765432101": the meter's "^[0-9]{11}$", 200 the amount's), a code in capitals however it was typed
    ("m14 5tp" is M14 5TP for a postcode), never where a plain word fits ("^[a-z-]+$" says nothing of where its value
    is); one named for a formula takes the formula."""
    fitting = by_pattern(properties, text)
    used.update(id(s) for start, end, _ in fitting.values() for s in spans if start <= s.start < end)
    formula = FORMULA.search(text)
    asked = next((n for n, spec in properties.items() if formula and json_type(spec) == "string"
                  and hint_of(n, spec) & FORMULA_WORDS), None)  # "function", not the later "function_variable"
    used.update(id(s) for s in spans if asked and formula.start() <= s.start < formula.end())
    return {name: found[2] for name, found in fitting.items()} | (
        {asked: formula.group(0).replace("^", "**")} if asked else {})  # "3x^2 + 2x - 1" -> "3x**2 + 2x - 1"


def by_pattern(properties: dict, text: str) -> dict[str, tuple[int, int, str]]:
    """Where the text writes each string's value that fits the string's pattern, as (start, end, value); of two
    parameters of one shape, each its own ("from N1 9GU to E8 3RL": the pickup's after "from", the drop-off's after "to")."""
    found: dict[str, tuple[int, int, str]] = {}
    for name, spec in properties.items():
        pattern = compiled(spec.get("pattern") or "enum" not in spec and (shaped_like(spec.get("description") or "") or (
            POSTCODE if set(reading.split_name(name)) & POSTCODE_NAMES else None))) if json_type(spec) == "string" else None
        side = side_of({name, *reading.split_name(name)})
        if pattern and (at := _written(pattern, text, any(pattern.fullmatch(w) for w in ("word", "WORD", "a b")),
                                       {start for start, *_ in found.values()}, side)):
            found[name] = at
    return found


@lru_cache(maxsize=256)
def shaped_like(description: str) -> str | None:
    """A pattern for a code its description shows, unquoted too ("registration, e.g. AB12 CDE"): each run of letters or
    digits one longer or shorter, its separator as the example writes it or none; so "KT19 XPL" fits, and "LS6 2QT"."""
    example = re.search(r"(?:e\.g\.|for example|such as|like|例如)\s*[:,]?\s*['\"“‘]?((?:[A-Z]+\d|\d)[A-Z\d]*(?:[ /-][A-Z\d]+)*)",
                        description)
    runs = re.findall(r"[A-Z]+|\d+|[ /-]", example[1]) if example and re.search(r"[A-Z]", example[1]) else []
    return "".join(f"[{r}]?" if r in " /-" else f"{'[A-Za-z]' if r.isalpha() else '[0-9]'}{{{max(1, len(r) - 1)},{len(r) + 1}}}"
                   for r in runs) or None


def fits_pattern(spec: dict | None, value: Any) -> bool:
    """The value fits the pattern its schema has, or the shape of the code its description shows, if any (a value that
    does not is never sent: "my car" is no registration "e.g. AB12 CDE")."""
    spec = spec or {}
    return not (pattern := compiled(spec.get("pattern") or isinstance(value, str) and "enum" not in spec and shaped_like(
        spec.get("description") or ""))) or bool(pattern.fullmatch(str(value)))


@lru_cache(maxsize=256)
def compiled(pattern: Any) -> re.Pattern[str] | None:
    """A schema's pattern as Python reads it; None for none, or for one only JSON Schema's dialect knows ("\\p{L}")."""
    try:
        return re.compile(pattern) if isinstance(pattern, str) else None
    except re.error:
        return None


def _written(pattern: re.Pattern[str], text: str, loose: bool, taken: set[int] = frozenset(),
             side: str | None = None) -> tuple[int, int, str] | None:
    """Where the text writes a value that fits the pattern, as (start, end, value), none `taken` (where another starts);
    in capitals where it was typed in small letters and the value has a digit, as a code has. A `loose` pattern, one a
    plain word fits ("^[A-Z0-9 ]{2,8}$"), takes the longest code it fits, letters and digits ("AB12 CDE"), never a word;
    for a `side` ("to", "from"), the one after its word, if any."""
    body = re.sub(r"^\^|(?<!\\)\$$", "", pattern.pattern)  # its anchors go: the value stands inside the question
    inside = re.compile(rf"(?<![A-Za-z0-9])(?:{body})(?![A-Za-z0-9])")
    def free(m: re.Match) -> bool:  # not taken, nor a part of a longer number ("07400" of "07400 555210")
        return m.start() not in taken and not (re.match(r"[ .-]?\d", text[m.start() + len(m[0].rstrip()):])
                                               and m[0].rstrip()[-1:].isdigit())
    fits = [m for m in inside.finditer(text) if free(m)]
    if not fits and not loose:
        capitals = "".join(c.upper() if c.isascii() else c for c in text)  # as long as the text: the same places
        fits = [m for m in inside.finditer(capitals) if re.search(r"\d", m[0]) and free(m)]
    sided = [m for m in fits if side and re.search(rf"\b{side}\s+$", text[max(0, m.start() - 8):m.start()], re.I)]
    if loose:
        coded = (m for m in sided or fits if re.search(r"\d", m[0]) and re.search(r"[A-Za-z]", m[0]))
        found = max(coded, key=lambda m: len(m[0].strip()), default=None)
    else:
        found = (sided or fits or [None])[0]
    return (found.start(), found.start() + len(found[0].rstrip()), found[0].strip()) if found else None


def ones(names: list[str], text: str) -> dict[str, int]:
    """ "a ticket", "an extra shot", "for a day", "the next month": one, for the parameter named for what is counted;
    "a weight of 90" names the parameter, it counts nothing."""
    said = {n: r"\s+".join(reading.stem(w) for w in reading.split_name(n) if w not in NOT_A_THING) for n in names}
    return {n: 1 for n, words in said.items()
            if words and reading.pattern(rf"\b(?:a|an|next)\s+{words}\w*\b(?!\s+of\b)", re.I).search(text)}


def value_for(name: str, spec: dict, span: Span, as_json_writes: bool = True) -> int | float:
    """The number a parameter takes from a span: in the parameter's unit ("half a litre" -> 500 for millilitres), a
    percentage as a fraction where the parameter takes one ("5%" -> 0.05: the description asks for a decimal, or speaks
    of a float rate, return or yield and names no percent scale, as a real model reads it, or it is at most 1), a loss
    below zero for a gain or loss; as JSON writes it, or as read (for `fits`, which keeps 3.5 from an integer)."""
    unit, fraction, loss = _reads(name, spec.get("description", ""), json_type(spec), spec.get("maximum", 2))
    amount = quantities.converted(span, unit, json_type(spec) == "integer")
    amount = float(f"{amount / 100:.12g}") if span.percent and fraction else amount
    amount = -abs(amount) if loss and LOSS_WORDS & {*span.before[-2:]} else amount
    return as_json(amount, json_type(spec)) if as_json_writes else amount


@lru_cache(maxsize=4096)  # `assign` tries every (parameter, number) pair: a parameter's own words are read once
def _reads(name: str, description: str, kind: str | None, top: Any) -> tuple[str | None, bool, bool]:
    """What a parameter says of the numbers it takes: its unit ("volume_ml", "in grams", if named), whether a
    percentage is a fraction for it, whether it is a loss (a number after "lost" goes below zero)."""
    said = {reading.stem(w) for w in re.findall(r"[a-z]+", description.lower())}
    rate = kind == "number" and not ("%" in description or (said | set(reading.split_name(name))) & PERCENT_SCALE)
    fraction = DECIMAL.search(description) or rate and (said & FRACTION_RATES or isinstance(top, (int, float)) and top <= 1)
    return quantities.wanted_unit(name, description), bool(fraction), bool(re.search(r"\bloss", f"{name} {description}", re.I))


def closeness(hint: set[str], span: Span, name: str = "") -> float:
    """How much the words around a number speak of this parameter: the nearest word counts most."""
    score = sum(3 - distance for distance, word in [*enumerate(reversed(span.before)), *enumerate(span.after)]
                if any(reading.related(reading.stem(word), h) for h in hint))
    named = {reading.stem(w) for w in reading.split_name(name)} | set(reading.split_name(name))
    return score + ((3 if hint & RATE_WORDS else -2) if span.percent else _by_what_it_is(named, span))  # "5%": a rate


def _by_what_it_is(named: set[str], span: Span) -> float:
    """A number's own form says what it is: "$84" or "for 2.30" is money, "400 ml" a size, "3 people" or "between 3"
    a count of people; each goes to a parameter whose name says that kind, and away from the others."""
    people = span.after[:1] and span.after[0] in PEOPLE_WORDS or span.after[:2] == ("of", "us") or (
        span.before[-1:] and span.before[-1] in {"between", "among", "amongst"})
    size = span.after[:1] and span.after[0] in UNITS and span.after[0] not in MONEY_WORDS
    money = span.money or span.before[-1:] in (("for",), ("costs",), ("cost",)) and not (size or people or span.after)
    if people:
        return 3 if named & PEOPLE_WORDS else -1
    party = span.before[-1:] == ("for",) and not span.money and (not span.after or span.after[0] in reading.STOP_WORDS)
    if party and named & PEOPLE_WORDS and str(span.value) in {f"{n}.0" for n in range(1, 21)}:  # "a tee time for four (on
        return 2  # Sunday)": a party of four, where a count of people is asked
    if money:
        return 2 if named & MONEY_PARAMS else (-2 if named & (SIZE_PARAMS | PEOPLE_WORDS | TIME_PARAMS) else 0)
    if size:
        pounds = named & MONEY_PARAMS and span.after[0] in ("pound", "pounds")  # "under 400 pounds" for a price: money
        return 2 if named & SIZE_PARAMS or pounds else -2 if named & MONEY_PARAMS - {"amount"} else int("amount" in named)
    counted = span.after[:1] and span.after[0].isalpha() and span.after[0] not in NOT_COUNTED  # "3 apples": how many
    return 2 if counted and named & COUNT_PARAMS else 0


def listed(text: str, spans: list[Span], used: set[int], kind: str | None) -> list[int | float]:
    """An array's numbers: a list in brackets is one array's whole ("[4, 7] and [5, 8]"), else every number left."""
    taken = next(filter(None, ([s for s in spans if s.kind == "number" and id(s) not in used and start <= s.start < end] for
                               start, end in [m.span() for m in re.finditer(r"\[[^][]*\]", text)] or [(0, len(text))])), [])
    used.update(id(s) for s in taken if "[" in text)  # a list in brackets is used up: the next array takes the next list
    return [as_json(s.value, kind) for s in taken]


def fits(value: Any, spec: dict) -> bool:
    """A value this parameter can take: a whole number for an integer (3.5 never becomes 3), within its bounds."""
    whole = spec.get("type") != "integer" or float(value).is_integer()
    return whole and spec.get("minimum", float("-inf")) <= value <= spec.get("maximum", float("inf"))


def as_json(value: float, kind: str | None) -> int | float:
    """5.0 is written 5: an integer parameter gets an int, and so does a whole number for a number parameter."""
    return int(value) if kind == "integer" or float(value).is_integer() else value


_ONE, _MANY = (TABLES[kind].split() for kind in ("party_one", "party_many"))
_COUNT = rf"\d+|{'|'.join(w for w, n in NUMBER_WORDS.items() if 1 < n < 20)}"
_MEMBER = rf"(?:(?:my|our)\s+)?(?:(?:{_COUNT})\s+(?:{'|'.join(_MANY)})|(?:an?\s+)?(?:{'|'.join(_ONE)}))\b"
PARTY = re.compile(rf"\b(?:just|only)\s+(?:me|myself)\b|\b{_MEMBER}(?:\s*(?:,|and|&|plus)\s*{_MEMBER})+", re.I)


def party(numeric: list[str], text: str, spans: list[Span], used: set[int]) -> dict[str, int]:
    """How many people a party said by who is in it counts ("me and two friends": 3, "my wife and I": 2, "just me": 1),
    for a parameter that counts people, when the request says "I" or "me" among them and gives no count of its own."""
    counted = [n for n in numeric if {*reading.split_name(n), *map(reading.stem, reading.split_name(n))} & PEOPLE_WORDS]
    said = next((m for m in PARTY.finditer(text) if re.search(r"\b(?:me|myself|i)\b", m[0], re.I)), None)
    if not counted or not said or any(s.kind == "number" and s.after[:1] and s.after[0] in PEOPLE_WORDS
                                      and not said.start() <= s.start < said.end() for s in spans):  # "for 5 people"
        return {}
    members = re.split(r"\s*(?:,|\band\b|&|\bplus\b)\s*", said[0].lower())
    sizes = [1 if (n := next(iter(re.findall(rf"\b(?:{_COUNT})\b", m)), None)) is None else int(n) if n.isdigit() else
             NUMBER_WORDS[n] for m in members if m]
    used.update(id(s) for s in spans if said.start() <= s.start < said.end())  # "two friends": no other number's
    return {counted[0]: sum(sizes)}


def durations(numeric: list[str], properties: dict, text: str, spans: list[Span], used: set[int]) -> dict[str, Any]:
    """Lengths of time for the number parameters that ask for one, each in the unit its words name; and a clock time
    for parameters named for its hour and minute ("at 6:30 PM": hours 6, as written, or 18 where the description
    counts 24 hours; minutes 30)."""
    found = [s for s in spans if s.kind == "duration" and id(s) not in used] or _ranged(text, spans)
    parts, values = {n: CLOCK_PARTS.index(stem) for n in numeric if (stem := reading.stem(n.lower())) in CLOCK_PARTS
                     and not hint_of(n, properties[n]) & LENGTHS and "enum" not in properties[n] and not found
                     and not LENGTH_ASKED.search(properties[n].get("description") or "")}, {}
    if clock := 0 in parts.values() and next((s for s in spans if s.kind == "time" and id(s) not in used), None):
        used.add(id(clock))
        hour, minute = map(int, str(clock.value).split(":"))
        said = hour % 12 or 12 if re.search(r"[ap]\.?m", text[clock.start:clock.end], re.I) else hour
        values = {n: minute if p else hour if "24" in properties[n].get("description", "") else said for n, p in parts.items()}
    for name in numeric:
        hint = hint_of(name, properties[name])  # weeks go to what names its unit ("nights"), else they are counted
        if found and name not in values and hint & DURATION_WORDS and (found[0].value < dates.WEEK or dates.units_named(hint)):
            amount = dates.in_unit(float(found[0].value), hint, own=hint_of(name, {}))
            if amount < 1 and json_type(properties[name]) == "integer" or amount not in properties[name].get("enum", [amount]):
                continue  # "for 3 hours" is no count of days, nor one of the options
            used.update([id(span := found.pop(0))] + [id(s) for s in spans if span.start <= s.start < span.end])
            values[name] = as_json(round(amount, 4), json_type(properties[name]))
    return values


RANGE = re.compile(r"[^,.;:!?，。；：！？\d]{0,20}?(?:\bto|\buntil|\btill|-|–|~|到)\s*(?:at\s+)?", re.I)


def _ranged(text: str, spans: list[Span]) -> list[Span]:
    """ "8点到11点", "from 14:00 until 17:30", "7pm-10pm": the length of time between two clock times (an end before the
    start is the same afternoon's), as a duration that takes neither time from the parameters they are for."""
    times = [s for s in spans if s.kind == "time"]
    for first, then in zip(times, times[1:], strict=False):
        start, end = (int(h) * 60 + int(m) for h, m in (str(s.value).split(":") for s in (first, then)))
        end += 720 if end <= start < end + 720 else 0
        if RANGE.fullmatch(text[first.end:then.start]) and end > start:
            return [Span(then.end, then.end, "duration", (end - start) * 60.0)]
    return []


FIRST_LINES = re.compile(rf"\b(?:first|top|opening)\s+(?:(\d+|{dates.said(1, 100)})\s+)?lines?\b", re.IGNORECASE)


def line_counts(numeric: list[str], properties: dict, text: str, spans: list[Span], used: set[int]) -> dict[str, Any]:
    """ "the first line of notes.txt", "its top 5 lines": how many lines a parameter like read_file's `limit`
    ("how many lines to read at most") takes; the place to start (`offset`, "first line to read") stays as it is."""
    found = FIRST_LINES.search(text)
    for name in numeric if found else []:
        hint = {reading.stem(w) for w in hint_of(name, properties[name])}
        if "line" in hint and hint & {"limit", "many", "count", "number", "max", "most"} and \
                not hint & {"first", "start", "offset", "from", "begin"}:
            used.update(id(s) for s in spans if s.kind == "number" and found.start() <= s.start < found.end())
            return {name: int(NUMBER_WORDS.get(word := (found.group(1) or "one").lower(), word))}  # "5" or "five"
    return {}
