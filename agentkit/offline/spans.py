"""The values a question holds, found by pattern: numbers, quoted text, places, paths, emails, dates, units.

Each value is a `Span`: where it is in the text, what kind it is, and the words around it, so that the next step
(`fill.py`) can give each value to the parameter whose name or description asks for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from text_to_num import alpha2digit

from agentkit.offline import code, dates, lexicon
from agentkit.offline.dates import MONTHS, WEEKDAYS
from agentkit.offline.language import NAME_DOTS
from agentkit.offline.places import CURRENCY_CODES, CURRENCY_COUNTRIES, PLACE_KINDS, addresses, is_known_place, zones_in
from agentkit.offline.quantities import UNITS as MEASURES

SpanKind = Literal["number", "quoted", "said", "named", "addressed", "colon", "email", "phone", "url", "path", "pattern", "tag",
                   "zone", "proper", "date", "time", "unit", "language", "duration", "sql", "command", "repo", "code", "room",
                   "demonym"]
"""What a value found in a question is: the patterns below, one a kind."""


@dataclass(frozen=True)
class Span:
    """One value found in the question."""

    start: int  # where it starts in the text
    end: int  # where it ends
    kind: SpanKind  # which pattern found it
    value: object  # the value as an argument would carry it (float for numbers, str otherwise)
    before: tuple[str, ...] = ()  # up to three lowercase words just before it, nearest last
    after: tuple[str, ...] = ()  # up to two lowercase words just after it, nearest first
    percent: bool = False  # a number written with "%" or "percent"
    money: bool = False  # a number written with a currency sign or word ("$84", "84 euros", "2.30")
    counted: bool = False  # a unit written right after a number ("30 pounds"): the unit of a quantity

    def written(self, text: str) -> str:
        """The value as the text writes it: a zone's place as said ("Tokyo"), any other its value."""
        return text[self.start: self.end] if self.kind == "zone" else str(self.value)


TABLES = lexicon.words("words")
NUMBER_WORDS, SCALES = TABLES["number_words"], TABLES["number_scales"]
_RUN_WORDS = "|".join([w for w in NUMBER_WORDS if w not in ("dozen", "half")] + ["thousand", "million"])
NUMBER_RUN = re.compile(rf"\b(?:{_RUN_WORDS})(?:(?:[\s-]|\s+and\s+)(?:{_RUN_WORDS}))+\b", re.I)  # built once, not per text
CURRENCY_SIGNS = TABLES["currency_signs"]
MONEY_WORDS = frozenset({w for w in CURRENCY_CODES if w not in ("pound", "pounds")} | {"cad", "aud", "bucks"}
                        | {code.lower() for code in CURRENCY_CODES.values()})  # "pounds" is as often a weight
UNITS = (frozenset(MEASURES) - {"in", "t", "cl", "dl"}) | (MONEY_WORDS - {"bucks"}) | frozenset(TABLES["spans"]["units"].split())
"""The words a unit is written with: measures (but "in" and "t" are words), currencies, temperatures, speeds, data, time."""
LANGUAGES, SENTENCE_STARTERS, NOT_CODES = (frozenset(TABLES["spans"][kind].split())
                                           for kind in ("languages", "sentence_starters", "not_codes"))
# "the Body Mass Index (BMI) of ...": capitalised, "the body" is part of a name, no message's lead-in
# _CHANGE: an edit written without quotes, in a request that names a file: "in notes.txt replace beta with delta"
SAY_IN, _SAID, _NAMED, _ADDRESSED, _CHANGE = (re.compile(TABLES["spans"][kind], re.IGNORECASE)
                                              for kind in ("say_in", "said", "named", "addressed", "change"))
"""SAY_IN: 'how do you say thank you in Italian?', 'what's the German word for butterfly?': the text, to translate."""
_SUBJECT_VERB = re.compile(TABLES["spans"]["subject_verb"])
"""After a name that starts a sentence, a verb with its object ("Anna Weiss tutors me"): the first word is the name's."""
_SIGNED = re.compile(r"\s*(?:[,;]|and\s|\.?$)")  # a sentence after the first that is a name alone: the person's
ONE_VALUE = re.compile(rf"\b(?:{TABLES['spans']['one_value'].replace(chr(10), '')})\b", re.IGNORECASE)  # "Tom and Jerry"
DEMONYMS = {form: said[0] for said in (word.split(":") for word in TABLES["spans"]["demonyms"].split())
            for form in [said[0], said[0] + "s", *said[1:]]}
"""A citizen's word ("canadians", "swedes") -> the nationality's adjective ("canadian", "swedish")."""

QUOTED = re.compile(r'"([^"]*)"|“([^”]*)”|(?<![\w])\'([^\']{2,})\'(?![\w])')
_NUMBER = re.compile(r"(?<![\w.^-])(?<!\D/)(-?\$?-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[-+]?\d+)?)(\s?%| percent\b)?"
                     r"(?!\w|/\D|\.\d)", re.I)  # "128/85", "1,5": two numbers; "1e-9", "2,000" one; the "2" of "m/s^2" none
_TIMES_TEN = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:x|×|\*)\s*10\s*(?:\^|\*\*)?\s*([-+]?\d+|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)\b")
_POWER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")  # "6.02 x 10^23", "3×10⁸": one number, read as "3e8"
_QUADRATIC = re.compile(r"(?<![\w.^])(-?\s*[\d.]*)\s*\*?\s*([a-z])\s*(?:\^|\*\*)\s*2\s*([+-]\s*[\d.]*)\s*\*?\s*\2(?![\w^])\s*"
                        r"([+-]\s*\d[\d.]*)(?![\w.^])", re.IGNORECASE)  # "x^2 - 5x + 6": a, b, c, signed ("x" is 1)
_PART_OF = re.compile(TABLES["spans"]["part_of"], re.IGNORECASE)  # "one of the files", "two more": no number
_TENS = "|".join(w for w, n in NUMBER_WORDS.items() if 20 <= n < 100)
_ORDINAL = re.compile(rf"\b(\d+(?:st|nd|rd|th)|(?:(?:{_TENS})[\s-])?[a-z]+(?:st|nd|rd|th))\b", re.IGNORECASE)
"""An ordinal as digits or words (text2num reads them); "first" and "second" (a unit of time too) count only after "the"."""
_FIRST_SECOND = {"first": 1, "second": 2}
_PATH = re.compile(r"(?<![\w@])(?:[\w.~-]*/[\w./-]*|[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,4})(?![\w/@])")
_PATTERN = re.compile(r"[\w./-]*\*[\w.*/?-]*")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL = re.compile(r"\bhttps?://[^\s\"']+|\bwww\.[^\s\"']+")
_DATE = re.compile(dates.RELATIVE.pattern + r"|\b\d{4}(?P<sep>[-/.])\d{1,2}(?P=sep)\d{1,2}\b|"  # "2022/08/16"
                   r"\b(?:[12]?\d|3[01])/(?:[12]?\d|3[01])(?:/\d{2,4})?\b|"  # a day and month are no more than 31 ("BP 90/60")
                   rf"\b(?:(?:{dates.WEEKDAY}),?\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{dates.MONTH})(?:\s+\d{{4}})?\b|"
                   # "Friday 14th May": a weekday before a day of a month is no day of its own
                   rf"\b{dates.A_DAY}|"  # a day by its distance from today or its name, "monday morning" too
                   rf"\b(?:{dates.MONTH})(?:\s+|(?<=[a-z])\.)\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b|{dates.DAY_OF_MONTH}|"
                   rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{dates.MONTH})(?:\s+\d{{4}})?\b", re.IGNORECASE)
_NAMED_END = re.compile(r"\s+(?:with|and|saying|that|which|to|in|for|about|containing|from|on|at)\b|[,.;:!?](?!\w)|$")
_PHONE = re.compile(TABLES["spans"]["phone"])
"""A phone number: international ("+44 7700 900123"), North American, national with its leading 0 ("07700 900123",
"0113 496 0123"), a Chinese mobile ("13812345678", "139 1234 5678")."""
_FOLDER = re.compile(r"\b([\w.-]+)\s+(?:folder|directory|dir)\b|\b(?:folder|directory|dir)\s+([\w./-]+)", re.IGNORECASE)
_HASHTAG = re.compile(r"(?<![\w&])#([A-Za-z][\w-]*)")
_CODE = re.compile(r"(?<![\w./@#-])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{5,}(?![\w/@-]|\.\w)", re.ASCII)
"""An identifier ("AB123CD", "1Z999AA10123456784", "G7301"): five or more letters and digits, with both in it."""
_DASHED_CODE = re.compile(r"(?<![\w./@#$-])(?:[A-Za-z]{1,3}-\d{2}\w*|\d{2,}-0\d{2,})(?:-[A-Za-z\d]+)*(?![\w/@-]|\.\w)", re.A)
"""One with a dash ("PX-55102", "HM-0091-22", "ab-12", "2024-00017"): taken as written, dashes and all."""
TWO_PART_CODE = re.compile(TABLES["spans"]["two_part_code"])  # "KT19 XPL", "LS6 2QT": one code, its space kept
_LOOSE_CODE = re.compile(rf"(?<![\w./@#$'’-])(?!(?i:{'|'.join(NOT_CODES)})(?![a-z]))([a-z][a-z\d]|[A-Z][A-Z\d])[ -]?(\d{{1,4}})"
                         r"(?![\w/@%-]|[.,]\d)")
"""One typed loosely ("flight ek 29", "SF-88", "ba283"): two letters, not a word (`not_codes`), then its digits."""
_ONE_UNIT = re.compile(rf"\b(an?)\s+(?=(?:{'|'.join(sorted((u for u in MEASURES if len(u) > 2), key=len, reverse=True))})\b)",
                       re.IGNORECASE)
_PLACE = re.compile(rf"\b(?:\d+[A-Za-z]?\s+)?(?!The\b)(?:[A-Z][\w'-]*\s+){{1,3}}(?i:{PLACE_KINDS})\b"
                    r"(?:\s+of(?:\s+[A-Z][\w'-]*)+)?(?!\s+[A-Z])"
                    rf"|(?<=\bto )(?!the\b)(?:[a-z][\w'-]*\s+){{1,2}}(?:{PLACE_KINDS})\b")
"""A place named with its kind ("12 Elm Street", "Gatwick airport", "Union Station", "to euston square"): the whole name,
house number too, and what it is of ("the Museum of Modern Art", "Union Station of Leeds": one place, not two)."""
ADDRESS = re.compile(TABLES["spans"]["street_address"])
"""A street address, as a place: its house number, its street (in any case: "14 maple avenue"; named after its kind: "7
Rue de Rivoli") and its town and postcode after a comma ("221B Baker Street, London", "45 Victoria Road, Leeds LS6 1AB")."""
_ROOM = re.compile(rf"\b(?:{TABLES['spans']['rooms'].replace(chr(10), '')})\b", re.IGNORECASE)
_COLON = re.compile(r"(?::|^\s*[a-z]+(?: [a-z]+)?\s+-+)\s+(.+?)\s*$")  # "todo - buy milk": a dash after a word too
REQUESTS, TEXT_HOLDERS = re.compile(TABLES["spans"]["request_after_colon"]), frozenset(TABLES["spans"]["text_holders"].split())


def requests_follow(text: str, at: int) -> bool:
    """What follows a colon, from `at`, is requests, not a text ("For Saturday: book the hall, and ..."), unless the
    word before the colon holds one ("new to-do: book the vet")."""
    before = text[:at].rstrip(": -").split()
    return bool(REQUESTS.match(text, at)) and not (before and before[-1].lower() in TEXT_HOLDERS)
FOREIGN_NAME = re.compile(rf"[\u4e00-\u9fff]{{1,6}}(?:[{''.join(NAME_DOTS)}][\u4e00-\u9fff]{{1,8}})+")
"""A foreign name as Chinese writes it, its parts joined by a middle dot ("简·奥斯汀"), the way _PROPER finds "Jane Austen"."""
_HONORIFIC = rf"(?:(?:{'|'.join(TABLES['spans']['honorifics'].split())})\.\s+)?"  # "Dr. Patel": the dot ends no sentence
_PROPER = re.compile(rf"\b{_HONORIFIC}[A-Z][\w'-]*"  # "Newcastle upon Tyne", not "Kate Bush on LP" nor "Lewes on Friday"
                     r"(?:\s+(?:(?:de |del |du |des |da |do |dos |la |le |van |von )?[A-Z][\w'-]*|(?:of |upon |on )"
                     rf"(?!(?:{'|'.join(w.capitalize() for w in (*WEEKDAYS, *MONTHS))})\b)[A-Z][a-z][\w'-]*))*")


def without_literals(text: str) -> str:
    """The question with quoted text, URLs, emails and paths blanked out: values to pass on, not words that say
    what is asked ("notes.txt" is about a file, not about notes; "#crypto" is a channel, not crypto)."""
    for pattern in (QUOTED, _URL, _EMAIL, _PATH, _HASHTAG):
        text = pattern.sub(" ", text)
    return text


def find(text: str) -> list[Span]:
    """Every value in the text, in order of appearance; a span found by an earlier kind hides later ones."""
    return list(_find(text))


@lru_cache(maxsize=256)  # one question is read for many tools and clauses: find its values once
def _find(text: str) -> tuple[Span, ...]:
    found: list[Span] = []

    def add(start: int, end: int, kind: SpanKind, value: object, **extra) -> None:
        if not any(s.start < end and start < s.end for s in found):
            found.append(Span(start, end, kind, value, _before(text, start), _after(text, end), **extra))

    for start, end, kind, statement in code.code_spans(text):  # taken whole, quotes and all
        add(start, end, kind, statement)
    for match in QUOTED.finditer(text):
        add(match.start(), match.end(), "quoted", next(g for g in match.groups() if g is not None))
    if not found and re.search(r"[\w-]\.[A-Za-z]\w{0,4}\b", text) and (change := _CHANGE.search(text)):  # "8080 with 9090"
        old, new = change.group("old"), change.group("new")
        if re.fullmatch(r"[\d.]+", new) and re.search(r"\s[\d.]+$", old):  # "the port 8080 to 9090": the number
            old = old.rsplit(" ", 1)[1]
        add(change.end("old") - len(old), change.end("old"), "quoted", old)
        add(change.start("new"), change.end("new"), "quoted", new)
    for match in (m for m in SAY_IN.finditer(text) if m[1]):  # the words to say, as if quoted (the language: a span)
        add(match.start(1), match.end(1), "said", match.group(1).strip("\"'“”"))
    for kind, pattern in (("said", _SAID), ("named", _NAMED), ("addressed", _ADDRESSED)):  # "text sam that ...": sam
        for match in pattern.finditer(text):
            value = match.group(1)[: _NAMED_END.search(match.group(1)).start() if kind == "named" else None]
            value = value.strip().rstrip(".?!").strip("\"'“”")
            file = kind == "named" and re.fullmatch(r"[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,4}", value)
            if value:  # "a file called ideas.md": a file name, whatever word introduced it
                add(match.start(1), match.start(1) + len(value), "path" if file else kind, value)
    for start, end in addresses(text):
        add(start, end, "proper", text[start:end])
    for kind, pattern in (("proper", ADDRESS), ("proper", _PLACE), ("email", _EMAIL), ("phone", _PHONE), ("url", _URL),
                          ("pattern", _PATTERN), ("date", _DATE), ("code", TWO_PART_CODE), ("code", _DASHED_CODE),
                          ("code", _CODE)):
        for match in pattern.finditer(text):  # "monday morning" is the day: its part of the day is no other value
            add(match.start(), match.end(), kind, re.sub(dates.PART_OF_DAY, "", match.group(0), flags=re.I).rstrip(".,;:"))
            count = re.search(r"\d+", match.group(0)) if kind == "date" and match.group(0).startswith("in ") else None
            if count:  # "due in 14 days": a date, and 14 for a parameter that counts the days
                at, end = match.start() + count.start(), match.start() + count.end()
                found.append(Span(at, end, "number", float(count.group(0)), _before(text, at), _after(text, end)))
    for match in _LOOSE_CODE.finditer(text):  # "ek 29" is "EK29" ("at 5", "go 2" are words and a number)
        add(match.start(), match.end(), "code", (match.group(1) + match.group(2)).upper())
    for kind, read in (("time", dates.clock_times(text)), ("duration", dates.durations(text))):  # "at 9:30", "for 2 hours"
        for start, end, value in read:
            add(start, end, kind, value)
            at = text.rfind(" ", start, end)  # "for 2 weeks", "for 24 months": a count of weeks or months too (a period's)
            if kind == "duration" and value >= dates.WEEK and at > start and text[start:at].lower() not in ("a", "an"):
                unit = dates.UNIT_SECONDS["month" if "month" in text[at:end].lower() else "week"]
                found.append(Span(start, at, "number", value / unit, _before(text, start), _after(text, at)))
    for start, end, number, before, after in code.dice(text):
        add(start, end, "number", number)
        found[-1] = Span(start, end, "number", number, before, after)  # what each number of "3d8+1" is
    for match in _HASHTAG.finditer(text):
        add(match.start(), match.end(), "tag", match.group(1))
    for match in _PATH.finditer(text):
        value = match.group(0).rstrip(".,;:")
        if not re.fullmatch(r"[\d.,]+|\w\.\w|[a-z]\.[a-z]\.?|\d{2,3}/\d{2,3}", value, re.IGNORECASE):
            repo = re.fullmatch(r"[\w-]+/[\w.-]+", value) and not re.search(r"\.\w{1,4}$", value)  # owner/name
            add(match.start(), match.start() + len(value), "repo" if repo else "path", value)
    for match in _FOLDER.finditer(text):
        group = 1 if match.group(1) else 2
        if match.group(group).lower() not in {"the", "a", "my", "this", "that", "current", "whole", "every"}:
            add(match.start(group), match.end(group), "path", match.group(group))
    for start, end, zone in zones_in(text):  # "Denver Nuggets", "Leeds United": a city that starts a longer name is none
        if not re.match(r" (?!Time\b|Standard\b|Zone\b)[A-Z][a-z]", text[end:]):
            add(start, end, "zone", zone)
    for match in _QUADRATIC.finditer(text):
        for group in (1, 3, 4):
            written = match.group(group).replace(" ", "")
            add(match.start(group), match.end(group), "number", float(written + "1" if written in ("", "+", "-") else written))
    for match in _TIMES_TEN.finditer(text):
        add(match.start(), match.end(), "number", float(f"{match.group(1)}e{match.group(2).translate(_POWER)}"))
    for match in _NUMBER.finditer(text):
        scale = SCALES.get(re.match(r"\s*(\w*)", text[match.end():]).group(1).lower(), 1)  # "50 million"
        number = float(match.group(1).replace(",", "").replace("$", "")) * scale
        add(match.start(), match.end(1), "number", number, percent=bool(match.group(2)), money=_money(text, match))
    for match in _ORDINAL.finditer(text):  # "the 3rd step", "the third", "the twenty-first": a position, as a number
        position = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", alpha2digit(match.group(1).lower(), "en"))
        if position or (match.group(1).lower() in _FIRST_SECOND and re.search(r"\bthe\s+$", text[: match.start()], re.I)):
            add(match.start(1), match.end(1), "number", float(position[1] if position else _FIRST_SECOND[match.group(1).lower()]))
    # "twenty two", "twenty-two" and "one hundred and five" are one number each (text2num reads them)
    for match in NUMBER_RUN.finditer(text):
        read = alpha2digit(match.group(0).lower(), "en").split()  # "22", "105"; "1 35"; "2 and 3" is no one number
        if not text.startswith("-", match.end()) and len(read) == 2 and len(read[0]) == 1 and 20 <= int(read[1]) <= 99:
            read = [str(int(read[0]) * 100 + int(read[1]))]  # "one thirty five" (over ninety) is 135, not "three twenty-sided"
        if len(read) == 1 and read[0].isdigit():
            add(match.start(), match.end(), "number", float(read[0]))
    for match in re.finditer(r"(?:\ba\s+(?=dozen\b|hundred\b))?\b[a-z]+\b", text, re.IGNORECASE):  # "a dozen": 12, "a" too
        word = match.group(0).lower().split()[-1]
        if word in NUMBER_WORDS and not _PART_OF.match(text, match.end()):
            add(match.start(), match.end(), "number", float(NUMBER_WORDS[word]))
        elif word in UNITS and (len(word) > 1 or _after_number(text, match.start())) and word != "m" or word in LANGUAGES:
            add(match.start(), match.end(), "language" if word in LANGUAGES else "unit", match.group(0),
                counted=_after_number(text, match.start()))
        elif word in DEMONYMS and not re.match(r"\s+[A-Z]", text[match.end():]):  # "Canadian Rockies" is a name
            add(match.start(), match.end(), "demonym", DEMONYMS[word].capitalize())
    for match in _ONE_UNIT.finditer(text):  # "a pint of water", "an ounce": one of that unit ("half a litre" is half)
        if not re.search(r"(?:\d|\bhalf|\bquarter|\band)\s+$", text[: match.start()], re.IGNORECASE):
            add(match.start(), match.end(1), "number", 1.0)
    for match in re.finditer(r"[°º]\s?[CFK]\b", text):  # "100 °F to °C"
        add(match.start(), match.end(), "unit", match.group(0).replace(" ", ""), counted=_after_number(text, match.start()))
    for match in re.finditer(r"[$€£¥]", text):  # "€50 to $": a currency by its sign (it may sit inside "$84")
        found.append(Span(match.start(), match.end(), "unit", CURRENCY_SIGNS[match.group(0)], _before(text, match.start()),
                          _after(text, match.end()), counted=bool(re.match(r"\s?\d", text[match.end():]))))
    for match in (m for m in ONE_VALUE.finditer(text) if m.group(0)[0].isupper()):  # "Tom and Jerry": one name
        add(match.start(), match.end(), "proper", match.group(0))
    for match in _PROPER.finditer(text):
        name = match.group(0)
        first = name.split()[0].lower()
        sentence_start = not text[: match.start()].strip() or text[: match.start()].rstrip()[-1] in ".?!:"
        if first in SENTENCE_STARTERS and (sentence_start or not name.startswith("The ")) or first in MONTHS or (
                first in WEEKDAYS or name == "I" or sentence_start and not is_known_place(name.split()[0])
                and not (" " in name and (_SUBJECT_VERB.match(text, match.end()) or _SIGNED.match(text, match.end())
                                          and text[: match.start()].strip()))):  # "... please. Nadia Brook, nadia@..."
            name = name.partition(" ")[2]  # a capitalised first word of a sentence is not a name ("The Hobbit" inside one is)
        if name not in ("", "I"):  # "Can I get ...": no name
            add(match.end() - len(name), match.end(), "proper", name)
    for match in _ROOM.finditer(text):  # after the names: "Central Garage" is a car park's
        add(match.start(), match.end(), "room", match.group(0).lower())
    for match in FOREIGN_NAME.finditer(text):  # "弗兰克·赫伯特": a foreign name as Chinese writes it
        add(match.start(), match.end(), "proper", match.group(0))
    colon = _COLON.search(text)  # "all caps: handle with care": the text; "For Saturday: book the hall": no text
    if colon and not re.match(r"\d", colon.group(1)) and not requests_follow(text, colon.start(1)):
        found.append(Span(colon.start(1), colon.end(1), "colon", colon.group(1)))
    return tuple(sorted(found, key=lambda s: s.start))


def _before(text: str, start: int) -> tuple[str, ...]:
    return tuple(re.findall(r"[a-z]+|[$€£]", text[max(0, start - 40): start].lower())[-3:])


def _after(text: str, end: int) -> tuple[str, ...]:  # up to a comma or "and", one the span ends with too ("depth 3, width 5")
    after = re.split(r"[,;，；]|\band\b", text[end - 1: end + 30].lower())[0][1:]  # "$1500, end value": of another
    return tuple(re.findall(r"[a-zµμ]+(?:/[a-z]+)?|%|°|[\u4e00-\u9fff]+", after)[:2])  # "330 µF", "3 m/s"


def _money(text: str, match: re.Match) -> bool:
    """ "$84", "84 euros", "for 2.30": a sum of money, not a count or a size (a size has its unit after it)."""
    after = _after(text, match.end(1))[:2]  # "200 swiss francs": the currency is the word after its country
    after = after[1:2] if after[:1] and after[0] in CURRENCY_COUNTRIES else after[:1]
    return bool("$" in match[1] or re.search(r"[$€£¥]\s?-?$", text[: match.start(1)]) or after and after[0] in MONEY_WORDS
                or re.fullmatch(r"[1-9]\d*\.\d\d", match.group(1)) and not (after and after[0] in UNITS))


def _after_number(text: str, start: int) -> bool:
    """ "30 pounds", "one dollar", "200 swiss francs": a unit counted by a number, in digits or in words (a
    currency's country may stand between them)."""
    if (head := text[:start].rstrip()).lower().rsplit(" ", 1)[-1] in CURRENCY_COUNTRIES:
        head = head[: head.rfind(" ") + 1] if " " in head else ""
    return bool(re.search(r"\d\s?$", head)) or head.rstrip().lower().rsplit(" ", 1)[-1] in NUMBER_WORDS
