"""Part of step 2: what free text is about, when no quotes, label or "saying" mark it.

"Search the web for hiking trails in Colorado" is about "hiking trails in Colorado", "put buy milk on my todo
list" about "buy milk": the words after "for", "about", "to", or between the verb and "to my list", and never
the tool's own words (they say which tool, not what it works on). Free text is read last, from the question
without the values the other parameters took.
"""

from __future__ import annotations

import re

from agentkit.offline import dates, lexicon, reading
from agentkit.offline.roles import role_of
from agentkit.offline.spans import Span
from agentkit.offline.vocabulary import english


def key_phrase(text: str, exclude: frozenset[str], one_character: bool = False, cued: bool = False) -> str | None:
    """What a search is about: the words after "for", "about", "on" or "to" (the first such phrase that is not
    just the tool's own words, as in "on my to-do list"), or else the words that are not the tool's (a Chinese word
    of one character, "5克盐", only when asked: more often it is a verb the vocabulary does not know)."""
    text = LEAD.sub("", FILLERS.sub("", text))  # "daily, starting tomorrow at 7:45, to ...": the day is when, not what
    for pattern in (r"\b(?:for|about|on|regarding)\s+(?:the\s+|a\s+)?(.+)", r"\b(?:to|that)\s+(?=(.+))")[: 2 - cued]:
        for after in re.finditer(pattern, text, re.IGNORECASE):
            # up to a clause break ("and I'm..."), and without a trailing "at 17:30", "on Friday" or "under $100": other values
            phrase = re.split(r"\s+-+\s+|[,;]\s|\s+and\s+(?=(?i:i|we|he|she|they)\b)", after.group(1).strip().rstrip("?.!"))[0]
            # "给旺财约个洗澡" (to 旺财 book bath), "去东区图书馆约个讨论室": a Chinese phrase ends before the request's verb
            phrase = re.split(rf"(?<=\S)\s+(?:{'|'.join(COMMANDS)})\b", phrase)[0] if re.match(HAN, phrase) else phrase
            phrase = TIMED.sub("", WHEN_FIRST.sub("", phrase))
            # "on Saturday at 7am to water the plants": a day is when, not what
            if not dates.as_iso(phrase) and any(not _is_tool_word(w, exclude) for w in _words(phrase)):
                if phrase.lower() in PRONOUNS:
                    return None
                if set(phrase.lower().split()) - PRONOUNS:  # "hire a racket for then too": a when said before, no topic
                    return phrase
    # "flâneur" as written; "周会": a word the vocabulary kept; "with Lina": who with, as one word. A phrase runs on through
    # "of", "the", "and" ("kind of blue") and ends at any other word ("the overstory at the libary": not the branch)
    runs: list[list[str]] = [[]]
    for word in re.findall(rf"(?:\bwith\s+(?=[A-Z]|{HAN}))?(?:{LATIN}|{HAN}{{{1 if one_character else 2},}})|[,;]", text):
        tool_word = _is_tool_word(reading.stem(word.lower()), exclude)
        if word.lower() not in reading.STOP_WORDS and not tool_word and not word[0].isdigit() and word not in ",;" or (
                word.lower() in JOINING and runs[-1]):
            runs[-1].append(word)
        elif cued and runs[-1] and runs[-1][-1].isascii() and runs[-1][-1].lower() not in JOINING and tool_word:  # not 定
            return " ".join(_without_commands(runs[-1])) or None  # "pasta timer": the word before the tool's names this one
        else:
            runs.append([])
    kept = next(filter(None, map(_without_commands, runs)), [])
    return None if cued else " ".join(kept) or None  # an optional text (`cued`) is never the words left over


def _without_commands(kept: list[str]) -> list[str]:
    while kept and (kept[0].lower() in COMMANDS | JOINING or kept[-1].lower() in JOINING or kept[-1] in COMMANDS and re.match(
            HAN, kept[-2:][0])):
        kept = kept[1:] if kept[0].lower() in COMMANDS | JOINING else kept[:-1]  # "Put buy milk on", "在科技大厦订", "and A301"
    return kept


_DAYS = "|".join(sorted([*dates.TABLES["days_from_today"], *dates.WEEKDAYS], key=len, reverse=True))
WHEN_FIRST = re.compile(rf"^(?:this\s+)?{dates.A_DAY}(?:\s+at(?:\s+\d{{1,2}}:\d{{2}})?)?(?:\s+to)?\s+(?=\S)", re.I)
"""A day (and a clock time) before what is to be done, as a Chinese request reads: not the phrase's words."""
WHEN = (r"(?:^|\s+)(?:at|on|by|before|after|around|until|till|in|tomorrow|today|under|below|over|above|less than|"
        r"more than)")  # "to tomorrow at 08:00 pay rent": what comes from its when on goes
_PHRASES = lexicon.words("words")["phrases"]  # the phrase tables, read once for every pattern below
WHAT_WHEN = rf"(?:{dates.A_DAY}|{dates.MONTH}|{_PHRASES['when_words']})\b"  # "in the morning"
TIMED = re.compile(rf"(?:^{WHEN}|{WHEN}\b(?:\s+(?:(?:the|this|next|an?)\s+)?(?:[$€£¥]?\d|{WHAT_WHEN})|(?<=tomorrow)|(?<=today)"
                   r"|$))[^,]*$", re.I)
"""A when (or a price) at a phrase's end: its lead and a number, a day or a part of one ("at 17:30", "on Friday", "under
$100"), or a lead that starts or ends the phrase (its value taken); not a phrase of the text's own ("stuck in traffic")."""
LEAD = re.compile(rf"\b(?:{_PHRASES['when_leads']})(?:(?:{_DAYS})\b|(?=(?:at\s+)?\d))", re.I)
ADDING, ONTO = (_PHRASES[kind] for kind in ("adding", "onto"))
"""'add X to my list', 'put X on the list': the verb that adds items and the list it adds them to (also clauses.py's)."""
ADDED = rf"^\s*{ADDING}\s+(?=(.+?)\s+{ONTO})"  # what is added: the object of any required text
SELLERS, BOUGHT_AT, FOUND_AT, OWNED = (frozenset(_PHRASES[kind].split())
                                       for kind in ("sellers", "bought_at", "found_at", "owned"))
"""An optional slot for who sells a thing ("Shop to buy it from"), the words before its seller, before a place, and
before a place said as whose it is."""
PRONOUNS, COMMANDS, JOINING, NOBODY = (frozenset(_PHRASES[kind].split()) for kind in (
    "pronouns", "commands", "joining", "nobody"))
SENTENCE_END = re.compile("".join(rf"(?<!\b{h})" for h in lexicon.words("words")["spans"]["honorifics"].split()) + r"\.\s")
"""A full stop that ends a sentence: "grandad ken. collecting on the 30th" (not "Dr. Patel")."""
NAMED = re.compile(rf"\b(?:{_PHRASES['name_leads']})\s+(.+?)(?=\s+(?:{'|'.join(COMMANDS)})\b|[,;]|$)")
FILLERS = re.compile(rf"\s*(?:\band\s+)?\b(?:{'|'.join(_PHRASES['fillers'].split())})\b[,.!]?", re.I)


NAME_LABEL = re.compile(rf"^(?:{_PHRASES['name_lead']}|(?:{_PHRASES['name_label']})\b\s*(?:is\s+|:\s*)?)(?=\S)",
                        re.I)  # "Surname Okafor", "It's Okafor": the name
LAST_NAME, FIRST_NAME = (frozenset(_PHRASES["name_parts"][end].split()) for end in ("last", "first"))
PERSON = re.compile(_PHRASES["person"])  # "name's Tom Okoro", "under Morris", "Joe Bloggs here": whose it is


def person_named(text: str, spans: list[Span], used: set[int]) -> str | None:
    """The name the request says is the person's (PERSON), once: its span is then used."""
    for found in PERSON.finditer(text):  # each alternative names its group: name, here or zh
        start, end = found.span(found.lastgroup)
        if not any(s.start <= start < s.end and id(s) in used for s in spans):
            spans.append(Span(start, end, "named", found[found.lastgroup]))
            used.add(id(spans[-1]))
            return found[found.lastgroup]
    return None


def as_name(param: str, value: str) -> str:
    """A person's name as the parameter wants it: without its label ("Surname Okafor", "It's Okafor"), and of a full
    name, the last word for a last name or a surname, the first for a first name ("I'm Jo Okafor": Okafor, Jo)."""
    value, part = re.sub(r"(?<=\w)['’]s$", "", SENTENCE_END.split(NAME_LABEL.sub("", value))[0]), set(reading.split_name(param))
    if any(re.sub(r"['’]\w+$", "", word.lower()) in NOBODY for word in value.split()):  # "Mostly I want ...": no one
        return ""  # "I'd like to give plasma", "me at the centre": nobody's name; "Mia's birthday": Mia's; "ken. collecting": ken
    words = value.split() if len(value.split()) > 1 and all(w[:1].isupper() for w in value.split()) else [value]
    return words[-1] if part & LAST_NAME else words[0] if part & FIRST_NAME else value


HAN = r"[\u3400-\u4dbf\u4e00-\u9fff]"
"""A Chinese word the vocabulary does not know stays in Chinese ("cancel 周会"): it is a word of the phrase too."""
LATIN = r"[A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f'-]+"
"""A word in a Latin script, accents included ("flâneur", "Müller", "São")."""


def _words(phrase: str) -> list[str]:
    return [*reading.words(phrase), *re.findall(rf"{HAN}+", phrase)]


def _is_tool_word(word: str, exclude: frozenset[str]) -> bool:
    pairs = {word[i:i + 2] for i in range(len(word) - 1)} if re.fullmatch(f"{HAN}{{3,}}", word) else {""}  # "网球场": 网球, 球场
    return word in exclude or pairs <= exclude or any(reading.related(word, tool_word) for tool_word in exclude)


LATER = object()  # a free-text value, read once every other parameter has taken its value
CUES = _PHRASES["cues"]
QUERY_LEADS = re.compile(rf"^(?:(?:{'|'.join(_PHRASES['query_leads'].split())})\s+)+", re.I)
ENDS, TRAILING = (re.compile(_PHRASES[kind], re.I) for kind in ("ends", "trailing"))


def text_kind(name: str) -> str | None:
    """The kind of free text a parameter's name says it holds: a body, a title, a subject, a reason (or none)."""
    words = set(reading.split_name(name))
    return next((kind for kind, table in CUES.items() if words & set(table["names"].split())), None)


def cued(name: str, text: str, spans: list[Span], used: set[int], siblings: tuple[str, ...], objects=False) -> str | None:
    """A free text as a span of the question, chosen by structure: it starts after its kind's cue ("saying", "called",
    "about", "because") and ends at the first clause break, another parameter's cue, value another parameter took
    (outside a body, any day, time or number: "text mum that i'll be home by 6" keeps "by 6") or trailing "please".
    The span, its cue with it, is then used: no other text takes its words."""
    kind = text_kind(name)
    others = {text_kind(s) for s in siblings if s != name} - {None, kind}
    ends = {k for s in siblings if s != name for k in role_of(s, {})[1]} & {"date", "time", "language", "email", "url"}
    ends |= {"date", "time"} if kind != "body" else set()  # a when ends a title ("lunch with Ana on friday"), not a body
    table = CUES.get(kind, {})  # and with `objects`, the request verb's object: "add X to my list", "text mum that X"
    cues = [*re.finditer(table.get("cue", "$^"), text, re.I)]
    cues += [*re.finditer(rf"{ADDED}|{table.get('object', '$^')}", text, re.I)] if objects else []
    for cue in cues if not re.search(HAN, text) else ():
        start = cue.end()
        if any(s.start <= start < s.end and (id(s) in used or s.kind in ("date", "time")) for s in spans):
            continue  # a value taken, or a when: "remind me to tomorrow at 15:00 pay rent" (a Chinese request, read)
        stops = [m.start() for m in (ENDS.search(text, start), *(re.compile(CUES[k]["cue"], re.I).search(text, start)
                                                                 for k in others)) if m]
        stops += [s.start for s in spans if s.start >= start and (id(s) in used or s.kind in ends)]
        stops += [cue.end(1)] if cue.re.groups and cue[1] else []  # "add the book club to my schedule"
        value = TRAILING.sub("", text[start:min(stops, default=len(text))].rstrip(" ,")).strip(" ,\"'“”")
        if any(w not in reading.STOP_WORDS | PRONOUNS for w in FILLERS.sub("", value).lower().split()):  # not "it", "someone"
            spans.append(Span(cue.start(), start + len(value), "named", value))
            used.add(id(spans[-1]))
            return value
    return None


def said_on(phrase: str | None, rest: str, body: bool) -> str | None:
    """A required body no cue marks is said, not named: from its phrase's start to its clause's end ("charge 18, nachos
    with the band": "nachos with the band"), where a name ends at the first word no name runs through ("nachos")."""
    at = rest.find(phrase) if phrase and body else -1
    end = ENDS.search(rest, at) if at >= 0 else None
    said = TIMED.sub("", rest[at:end.start() if end else len(rest)]) if at >= 0 else ""  # "on friday": when
    return TRAILING.sub("", said).strip(" ,") or phrase and (TRAILING.sub("", phrase).strip(" ,") or phrase)  # not "Rex on"


MODEL = re.compile(r"(?<![\w-])(?:[a-z]*[A-Z][\w-]*\s+)+[A-Za-z]*\d+[A-Za-z]*(?:\s+(?:Pro|Max|Plus|Ultra|Mini|Lite|XL|FE)\b)?")
"""A model's name: a brand or a line, then its number ("iPhone 14 Pro", "Galaxy S23", "Pixel 7")."""


def examples(description: str) -> list[str]:
    """The examples a description lists ("e.g. running, 'cycling'", "例如“牙医”“周会”"), quotes aside."""
    listed = re.search(r"(?:\b(?:e\.?g\.|for example|such as|like|in this case)|[例比]如|如(?![果何]))\s*(.+)", description, re.I)
    pieces = re.split(r",\s*|\s+(?:or|and)\s+|[、，或“”「」]", listed[1].rstrip(".)）。")) if listed else []
    return [e.strip(" '\"") for e in pieces]


def model_named(description: str, text: str) -> str | None:
    """A model named as the description's examples are, a line and its number: "Galaxy S22" for 'Galaxy S23' (a
    sentence's first word aside: "My iPad 9")."""
    found = next((m[0].split() for e in examples(description) if MODEL.fullmatch(e) and (m := MODEL.search(text))), None)
    return " ".join(found[next((i for i, w in enumerate(found) if w.lower() not in reading.STOP_WORDS), 0):]) if found else None


def example_named(description: str, text: str) -> str | None:
    """ "The activity, e.g. running, 'cycling'": "burn running for 45 minutes" names the example "running" (quotes aside,
    “牙医”“周会” too: Chinese quotes part examples as commas do).
    The examples are the tool's own words, so the key phrase leaves them out; named in the question, they are the value;
    else, for a category, the example a question's word is of ("lunch": "e.g. food, transport"; "类别，如餐饮、交通": "餐饮")."""
    said = examples(description)
    named = next((e for e in filter(None, said) if re.search(  # as written or as read ("钢琴": "piano"), glued ("节书法")
        rf"(?<![A-Za-z0-9])(?:{re.escape(e)}|{re.escape(english(e))})(?![A-Za-z0-9])", text, re.I)), None) or model_named(
        description, text)
    kinds = re.search(r"\b(?:category|type|kind|class|group)\b|类别|类型|分类", description, re.I)  # a thing is of one kind
    if named or not kinds or not said:
        return named
    words = [reading.stem(w) for w in reading.words(text)]
    return next((e for e in filter(None, said) if any(reading.related(w, reading.stem(english(e).lower())) for w in words)), None)


def without_values(text: str, spans: list[Span], used: set[int], properties: dict) -> str:
    """The question without the values other parameters took, nor the unit they were counted in: in "scale the
    lasagna recipe to 8 servings" the recipe is "lasagna", not "8 servings" (8 went to `servings`)."""
    names = {reading.stem(w) for p in properties for w in reading.split_name(p)}
    cuts = []
    for span in (s for s in spans if id(s) in used):
        end = span.end
        unit = re.match(r"\s*([A-Za-z]+)", text[end:]) if span.kind == "number" else None  # "28 yuan": its unit, no text
        if unit and (reading.stem(unit[1].lower()) in names or any(u.kind == "unit" and u.start == end + unit.start(1)
                                                                  for u in spans)):
            end += unit.end()
        of = re.match(r"\s+of\b", text[end:]) if span.kind == "unit" else None  # "2 liters of milk": the item is milk
        if span.kind == "proper" and not text[:span.start].strip():  # "Ingrid Berg teaches me piano": the name's verb
            of = re.match(r"\s+[a-z]+(?=\s+\w)", text[end:])
        if span.kind in ("zone", "proper") and re.search(r"\b(?:in|at|near)\s+$", text[:span.start]):  # "in Berlin's shops"
            of = re.match(r"[^,;]*", text[end:])  # a place taken ends the text at its lead: the rest of its clause is the place's
        lead = re.search(r"\s+(?:from|at)\s+$", text[:span.start]) if span.kind in ("zone", "proper") else None
        cuts.append((lead.start() if lead else span.start, end + (of.end() if of else 0)))  # "from 14 Maple Avenue": its lead
    return cut(text, cuts)


def cut(text: str, cuts: list[tuple[int, int]]) -> str:
    """The text, each cut (and a "for" just before it: "swimming for 40 minutes") a space; overlapping cuts cut once."""
    pieces, at = [], 0
    for start, end in sorted(cuts):
        if end <= at:
            continue
        pieces += [re.sub(r"\s+(?:for|and)\s*$", "", text[at:max(start, at)]), " "]
        at = max(at, end)
    return re.sub(r"\s+", " ", "".join(pieces) + text[at:]).strip()


def without_when(text: str, span: Span, spans: list[Span], siblings: tuple[str, ...], taken: tuple = ()) -> str:
    """ "Add to my calendar: lunch with Ana on Friday at 1pm": a colon's text as a title, without the day and time
    (and "on", "at" before them) that a date or time parameter beside it takes, and the parts `taken` by other values."""
    timed = any(w in ("date", "time", "day", "when") for p in siblings for w in reading.split_name(p))
    when = [(len(re.sub(r"\b(?:on|at|by)\s+$", "", text[:s.start])), s.end) for s in spans
            if timed and s.kind in ("date", "time") and span.start <= s.start < span.end]
    return cut(text, [(0, span.start), (span.end, len(text)), *taken, *when])
