"""Step 2: fill a tool's arguments from the question, by what each parameter's name and description ask for.

Each parameter gets a *role* from its words (`roles.py`: a time zone, a place, a date, a phone number, a title, a body...),
and takes a value of a kind that can play that role (`spans.py`). A value written with its label ("subject: Report") goes to
the parameter of that name. Numbers are placed by `numbers.py`. A value is used once. Optional parameters are left out
unless the question states them; what `fill` cannot find it reports as missing, and the model asks for it instead.
"""

from __future__ import annotations

import re
import string
from typing import Any

from agentkit.offline import code, dates, lexicon, lists, numbers, phrases, quantities, reading, roles
from agentkit.offline.lists import enumerated_items, listed_first
from agentkit.offline.options import boolean, choice
from agentkit.offline.phrases import LATER, NAMED, cut, example_named, key_phrase, without_values, without_when
from agentkit.offline.places import PLACE_KINDS, addresses, country_code, currency_code, is_known_place, language_code
from agentkit.offline.roles import STRICT, by_direction, hint_of, hints_of, json_type, nullable, preposition, role_of, side_of
from agentkit.offline.spans import ADDRESS, NUMBER_WORDS, Span, find
from agentkit.offline.vocabulary import ZH_ADDRESS
from agentkit.offline.zh_values import glossed

WHOSE = re.compile(rf"(?:\s+(?!(?:{dates.ENDS})\b)[a-z][\w-]*)*")
ORDINALS, LEADS = lexicon.words("choose")["conversation"]["ordinals"], lexicon.words("words")["phrases"]["leads"]
LATER_FIRST = {"person": 0, "title": 1}  # of two free texts, the one a phrase's shape marks reads first: a person by a
# name's capitals ("Sarah borrowed the tent": Sarah), a title by "from"/"at" ("from 川味小馆 order 水煮鱼"); then the rest
PICKED = re.compile(rf"\bthe (?:{'|'.join(ORDINALS)}) one\b", re.I)  # "is the second one late?": an item of the last result
BENEFICIARY = {"with", "for", "by"}  # beside a person, the name after them is the person's ("for Mia", "by Hinton")
CLOCK = re.compile(r"\d{1,2}:\d{2}")  # "9:45" alone is a time, never a day


def fill(schema: dict, text: str, exclude: frozenset[str] = frozenset(), guess: bool = True,
         named: frozenset[str] = frozenset()) -> tuple[dict, list[str]]:
    """The arguments for `schema` read from `text`, and the names of required ones that could not be found. `exclude`
    holds the tool's own words (they are not what a search is about); `guess=False` leaves out a required choice the
    question does not state instead of taking the schema's default; `named`, the words of the tool's name, name no option
    ("a home cook": no home_style)."""
    return _fill_object(schema, text, find(text), set(), exclude, guess, named)


def _fill_object(schema: dict, text: str, spans: list[Span], used: set[int], exclude, guess,
                 named: frozenset[str] = frozenset()) -> tuple[dict, list[str]]:
    properties = schema.get("properties") or {}
    required = [r for r in schema.get("required") or [] if r in properties]
    numeric = [n for n, p in properties.items() if json_type(p) in ("number", "integer") and "enum" not in p]
    labelled = {name: roles.labelled_value(name, properties, text) for name, spec in properties.items() if name not in numeric
                and json_type(spec) == "string" and "enum" not in spec and role_of(name, spec)[0] != "phone"}  # by its shape
    places = [n for n, p in properties.items() if role_of(n, p)[0] == "place" and n in labelled]  # "地址是朝阳区建国路88号": the
    address = next((s for s in spans if s.kind == "quoted" and ZH_ADDRESS.fullmatch(str(s.value))), None)  # one place's
    labelled |= {places[0]: (address.value, address.start, address.end)} if address and len(places) == 1 and not labelled[
        places[0]] else {}
    for value, start, end in filter(None, labelled.values()):  # "room B2", "stops 5173": the room's, no other parameter's
        used.update(id(s) for s in spans if start <= s.start < end)
        spans.append(Span(start, end, "named", value))
        used.add(id(spans[-1]))
    options = {str(o).lower().replace("_", " ") for p in properties.values() for o in p.get("enum") or []}
    used.update(id(s) for s in spans if s.kind == "proper" and str(s.value).lower() in options)  # "Cantonese food": a cuisine's
    timed = numeric + [n for n, p in properties.items() if json_type(p) == "integer" and "enum" in p]  # "hours": 1-5 too
    values: dict[str, Any] = numbers.durations(timed, properties, text, spans, used)  # "for an hour" -> 60 for duration_minutes
    values |= numbers.patterned(properties, text, spans, used)  # "表号是98765432101" for a meter's "^[0-9]{11}$"
    values |= numbers.line_counts([n for n in numeric if n not in values], properties, text, spans, used)  # "first line"
    values |= numbers.party([n for n in numeric if n not in values], text, spans, used)  # "me and two friends": 3
    numeric = [n for n in numeric if n not in values]
    paths = sum(s.kind == "path" for s in spans)  # "a.txt 和 b.txt 这两个文件": the 2 counts the files, it is no value
    free = [s for s in spans if s.kind == "number" and id(s) not in used and not (paths and s.after[:1] == ("files",))]
    must = [name for name in required if not nullable(properties[name])]
    placed = numbers.assign(numeric, hints_of(numeric, properties), properties, must, free)
    used.update(id(s) for s in [*placed.values(), *numbers.own_units(placed, properties, spans)])
    values |= {n: numbers.value_for(n, properties[n], s) for n, s in placed.items()}
    values |= numbers.ones([n for n in numeric if n not in values], text)
    later = []  # free text ("what the event is called") is read last, from what the other parameters left over
    values |= listed_first(properties, text, spans, used)
    for name, spec in ((n, s) for n, s in properties.items() if n not in numeric and n not in values):
        value = (labelled.get(name) or (None,))[0]
        if value is None:  # a nullable value is never guessed: null says "not given" (strict schemas)
            value = _value(name, spec, name in required and not nullable(spec), text, spans, used, exclude, guess, (*properties,),
                           any(role_of(n, p)[0] == "place" for n, p in properties.items() if n != name), named)
        later += [name] if value is LATER else []
        values |= {name: value} if value is not None and value is not LATER else {}
    values |= _left_of_its_kind([n for n in must if n not in values and n not in later], properties, text, spans, used)
    rest = without_values(text, spans, used, properties)
    for name in sorted(later, key=lambda n: LATER_FIRST.get(role_of(n, properties[n])[0] or "", 2)):
        named = len(later) > 1 and role_of(name, properties[name])[0] == "title" and NAMED.search(rest)
        person = role_of(name, properties[name])[0] == "person"
        phrase = named[1] if named else example_named(properties[name].get("description", ""), rest) or \
            phrases.cued(name, text, spans, used, tuple(properties), name in required) or \
            phrases.said_on(key_phrase(rest, exclude, cued=name not in required) or key_phrase(
                rest, exclude, True, name not in required), rest, phrases.text_kind(name) == "body" and name in required)
        if phrase and role_of(name, properties[name])[0] == "query":  # "any good true crime podcasts": what is searched
            phrase = phrases.QUERY_LEADS.sub("", phrase) or phrase
        capitals = person and phrase and re.match(r"[A-Z][\w'-]*(?: [A-Z][\w'-]*)*", phrase)
        if person and phrase and ({*phrase.lower().split()} & NUMBER_WORDS.keys() if not capitals else re.sub(
                r"['’]\w+$", "", phrase.split()[0].lower()) in reading.STOP_WORDS):  # "ana" is Ana; "We'd like" nobody
            phrase = None  # "two portrait sessions", "a family one": a count, nobody's name
        taken = capitals[0] if capitals else phrase
        if taken and len(later) > 1:  # one phrase, one parameter: the other reads the words this one left
            verb = r"\s+[a-z]+(?=\s+\w)" if capitals and rest.startswith(taken) else ""  # "Grace teaches physics": hers
            at = named or re.search(rf"(?<!\w){re.escape(taken)}(?!\w)(?:{verb})?", rest)
            left = cut(rest, [at.span()]) if at else rest  # none left: a run the reading did not part ("让外婆接小宇")
            rest = left if re.search(r"\w{2}", left) else rest
        if phrase is not None:  # a person is the name in the words left ("Adele plays on Saturday": Adele; "ana": Ana)
            values[name] = taken if capitals else string.capwords(phrase) if person and phrase.islower() else phrase
            exclude = exclude - {phrase}  # an example taken frees its word
    # "mood: great!! got the job": a text is what follows the option another parameter chose, not that option again
    for name, chosen in ((n, v.lower()) for n, v in values.items() if "enum" in properties[n] and isinstance(v, str)):
        for text_name in (n for n, v in values.items() if n != name and isinstance(v, str) and v.lower().startswith(chosen)):
            values[text_name] = re.sub(r"^\W+", "", values[text_name][len(chosen):]) or values[text_name]
    texts = [name for name, value in values.items() if isinstance(value, str)]  # "Surname Okafor": the name, not its label
    values |= {n: phrases.as_name(n, values[n]) for n in texts if role_of(n, properties[n])[0] == "person"}
    for name, other in ((n, o) for n in texts for o in texts if o != n and values[o].lower() in values[n].lower()):
        # "a watch for dad": dad is the recipient's
        ending = rf"(?<=\w)\s+(?:{LEADS})\s+(?:the\s+)?{re.escape(values[other])}(?:\s+and\b.*)?$"
        values[name] = re.sub(ending, "", values[name], flags=re.I)
    twice = {n for n in texts for o in set(texts) & set(required) - {n} if n not in required and values[n] == values[o]}
    values = {n: v for n, v in values.items() if n not in twice}  # "add a task: X": X is the task's, no optional project's
    values |= {name: None for name in required if name not in values and nullable(properties[name])}
    refused = {n for n, p in properties.items() if n in values and (not numbers.fits_pattern(p, values[n])  # "查下"
               or len(str(values[n])) > p.get("maxLength", 1e9) or re.fullmatch(r"[\s,.;:!?'\"\-–—]*", str(values[n])))}  # "-"
    ordered = {name: values[name] for name in properties if name in values and name not in refused}
    return ordered, [name for name in required if name not in ordered]


def _value(name: str, spec: dict, required: bool, text: str, spans: list[Span], used: set[int], exclude, guess,
           siblings: tuple[str, ...] = (), placed: bool = False, named: frozenset[str] = frozenset()) -> Any:
    kind, hint = json_type(spec), hint_of(name, spec)
    if "enum" in spec:
        return glossed(spec, text, spans, used) or choice(spec, hint, text, required, guess, named)
    if kind == "boolean":
        return boolean(name, text, required, guess, spans, used, spec.get("description") or "", siblings)
    if kind == "array":
        items = spec.get("items") or {}
        if "enum" in items:
            found = [v for v in items["enum"] if choice({"enum": [v]}, hint, text, False, False) is not None]
        elif json_type(items) in ("number", "integer"):
            found = numbers.listed(text, spans, used, json_type(items))  # "[3, 4] and [7, 8]": one list a parameter
        else:
            role, kinds = role_of(name, spec)
            own = "|".join(re.escape(w) for w in reading.split_name(name) if w not in reading.STOP_WORDS) or "$^"
            # "…: Login fails, labels auth and ui": a colon's text that names this list holds the list, it is not it
            found = [s.written(text) for s in spans if s.kind in (kinds if role != "body" else ("quoted",))
                     and id(s) not in used and not (s.kind == "colon" and re.search(rf"\b(?:{own})", s.written(text), re.I))]
            if not found and (role not in STRICT or role == "email"):  # "with Priya and Tom" for the invitees' emails
                found = enumerated_items(name, text, spans, used, required, siblings)
        return found or None
    if kind not in ("string", None):  # an object is filled whole or not at all
        inner, missing = _fill_object(spec, text, spans, used, exclude, guess) if kind == "object" else ({}, [])
        return inner if inner and not missing else None
    if spec.get("format") == "date-time":  # "on 2026-05-14 at 8am": a day and a clock time, as one value
        return dates.date_time(spans, used)
    role, kinds = role_of(name, spec)
    if (role == "person" or reading.split_name(name)[-1:] == ["name"]) and (found := phrases.person_named(text, spans, used)):
        return found  # "the name's Tom Okoro", "booking name Lucy Fenn", "under Morris": whose it is, said so
    if role is None and (model := phrases.model_named(spec.get("description") or "", text)):
        return model  # "my Galaxy S22" for "Phone model, e.g. 'Galaxy S23'": the line and its number, not the code alone
    if role is None and any(role_of(n, {})[0] == "code" for n in siblings if n != name):  # "CL-2207" is the card's
        kinds = tuple(k for k in kinds if k != "code")
    person = role == "title" and any(role_of(n, {})[0] == "person" for n in siblings if n != name)  # "Ingrid Berg…" is no title
    kinds += ("proper",) * (role == "code")  # "Bay label, e.g. 'B4'": "B4", capitalised as a name is
    day = role == "date" and hint & {"date", "day", "deadline", "birthday", "due"}  # "when" may be a clock time alone
    sayable = phrases.text_kind(name) == "body" or all(phrases.text_kind(s) != "body" for s in siblings)  # "saying": a body's
    candidates = [s for s in spans if s.kind in kinds and id(s) not in used and (sayable or s.kind != "said")
                  and not (day and s.kind == "time" and CLOCK.fullmatch(str(s.value))) and not (role in ("title", "body")
                  and s.kind == "proper" and s.before[-1:] == ("with",) and text[s.end:].strip(" ?.!"))  # "with Lina meeting"
                  and not (role == "code" and s.kind == "proper" and not roles.CODED.fullmatch(str(s.value)))
                  and not (person and s.kind == "proper" and (not text[:s.start].strip() or {*s.before[-1:]} & BENEFICIARY))
                  and not (role == "person" and (str(s.value).split()[0].lower() in reading.STOP_WORDS or s.before[-1:] == (
                      "the",) or preposition(s) in {"at", "in", "near"}))  # "In Rainbows", "at the Harbour gym": no one
                  and not (placed and role == "title" and s.kind == "proper" and preposition(s) in {"in", "at"})]  # a place's
    if role == "place":  # a name no table knows can be a place after "in", "to the" ("in Lisbon", "to the Louvre")
        coded = hint & {"code", "iata", "icao", "iso"}  # "IATA code of departure airport": "SFO" as written
        candidates = [s for s in candidates if s.kind != "proper" or is_known_place(s.value) or coded and re.fullmatch(
            r"[A-Z]{2,4}", str(s.value)) or preposition(s) in {"in", "at", "from", "to", "for", "near", "of", "into"}
            or ADDRESS.fullmatch(str(s.value)) or addresses(str(s.value)) == [(0, s.end - s.start)]  # "Unit 4, …, Leeds"
            or side_of(hint) == "from" and s.after[:1] == ("to",) or any(re.fullmatch(PLACE_KINDS, w) or w in roles.PLACE[1]
                for w in set(s.after[:1]) & {*reading.split_name(name)})]  # "Bath to Leeds", "Lewes studio" ("Pantone color": no)
    if role == "repo":  # a repository is owner/name: "Open an issue titled 'Crash on start'" names no repository
        candidates = [s for s in candidates if s.kind == "repo" or re.fullmatch(r"[\w.-]+/[\w.-]+", str(s.value).strip())]
    candidates = by_direction(hint, candidates) if role in ("place", "unit", "language", "date", "time") else candidates
    if candidates:
        # of names, a person's is the one "by" marks ("the Hounds of Love LP by Kate Bush": the artist)
        chosen = min(candidates, key=lambda s: (kinds.index(s.kind), role == "person" and s.before[-1:] != ("by",),
                                                role == "place" and preposition(s) == "for" and any(preposition(
                                                    c) in ("at", "in") for c in candidates)))  # "at Lewes ... for Jamal"
        taken = [(0, chosen.start), (chosen.end, len(text))] + [(s.start, s.end) for s in spans if id(s) in used]
        used.add(id(chosen))
        if chosen.kind == "colon":  # "记一笔支出：午饭 35 元": the note is what the amount and currency left of it
            said = without_when(text, chosen, spans, siblings, tuple(taken)) or str(chosen.value)
            return roles.before_labels(said, siblings, name)
        if role == "title" and chosen.kind == "proper" and str(chosen.value).endswith("'s"):  # "Priya's farewell lunch"
            return str(chosen.value) + WHOSE.match(text, chosen.end).group(0)  # whose, then what: up to another argument
        return _as_asked(role, hint, chosen, text, spec)
    side = side_of(hint) if role == "place" else None  # "from the airport to Hilton Downtown": a place no table knows
    seller = role is None and bool(hint & phrases.SELLERS)  # "oat milk from aldi", "frame from Ikea": the shop, known or not
    if side or seller or role == "place" and required or role == "person" and not required:  # "storm warnings for florida?"
        leads = {"from"} if side == "from" else {"to", "into"} if side else phrases.BOUGHT_AT if seller else phrases.FOUND_AT
        blocked = [(s.start, s.end) for s in spans if id(s) in used or not (side or seller)]
        found = lists.made_by(text, blocked) if role == "person" else lists.phrase_after(text, leads, blocked)
        owned = found and not (side or seller) and (text[:found[0]].split() or [""])[-1].lower() in phrases.OWNED  # "my flat"
        if found and not owned and (side or found[2].lower() not in reading.STOP_WORDS and not re.search(r"\d|\bus\b", found[2])):
            spans.append(Span(found[0], found[1], "named", found[2]))
            used.add(id(spans[-1]))
            return string.capwords(found[2]) if found[2].islower() and not side else found[2]
    if required and role in ("command", "pattern"):  # "count the lines of notes.txt": the command it implies
        file = next((str(s.value) for s in spans if s.kind == "path" and id(s) not in used), None)
        number = next((s.value for s in spans if s.kind == "number" and id(s) not in used), None)
        return code.command_for(text, file, number) if role == "command" else code.pattern_for(text)
    digits = [s for s in spans if s.kind == "number" and id(s) not in used and text[s.start:s.end].isdigit()]
    identifier = role == "code" and [s for s in digits if s.end - s.start > 2]  # "is the 9012 late?" for train_number
    if identifier or role not in STRICT and digits and re.search(r"\be\.g\.\W*\d+\W", spec.get("description", "")):
        digits = identifier or digits
        used.add(id(digits[0]))  # "the next 73" for "The bus line, e.g. '73'": a code written in digits
        return text[digits[0].start:digits[0].end]
    if role == "code" and (picked := PICKED.search(text)):  # "is the second one late?": the listed item's, read later
        return picked[0]
    if (role not in STRICT or phrases.text_kind(name)) and (found := phrases.cued(name, text, spans, used, siblings)):
        return found  # "because ...", "about ...", "a folder called X" (folder_name: a name, though it reads as a path)
    if (required or role == "title") and role not in STRICT:  # an optional title only as a phrase marked for it
        texts = role != "body" and any(role_of(n, {})[0] == "body" for n in siblings if n != name)  # a text's own slot
        rest = [s for s in spans if id(s) not in used  # a person is no message's text ("message mum saying home by 9")
                and s.kind in ("quoted", "named", "said", "colon")[:4 - 2 * (role == "person" or texts)]
                and (sayable or s.kind != "said")]
        said = rest and (without_when(text, rest[0], spans, siblings) if rest[0].kind == "colon" else rest[0].written(text))
        used.update(id(s) for s in rest[:1] if s.kind != "colon")  # one text, one parameter (a colon's may hold a list)
        return roles.before_labels(said, siblings, name) if rest else LATER
    return None


def _left_of_its_kind(names: list[str], properties: dict, text: str, spans: list[Span], used: set[int]) -> dict[str, Any]:
    """Asking is the last resort: a required value given without the words its kind is found by takes what the request
    has left of that kind ("text Ravi stuck in traffic": Ravi, for a recipient read as an email)."""
    found: dict[str, Any] = {}
    for name in (n for n in names if "enum" not in properties[n] and json_type(properties[n]) in ("string", None)):
        spec, (role, _) = properties[name], role_of(name, properties[name])
        shared = role == "email" and roles.SHARED & set(reading.split_name(name))  # "recipient": an address or a name
        if role not in STRICT or role == "code" or shared:  # a name, a title, a code; no day, path or place
            if left := next((s for s in spans if id(s) not in used and _names(s, role)), None):
                used.add(id(left))
                found[name] = _as_asked(role, hint_of(name, spec), left, text, spec)
    return found


def _names(span: Span, role: str | None) -> bool:
    """A name, a quote, one word after a colon ("promo: BLACKFRI"); for an identifier, one written as one (no "Lion")."""
    if span.kind == "colon":
        return " " not in str(span.value).strip()
    coded = role != "code" or span.kind != "proper" or roles.CODED.fullmatch(str(span.value))
    return span.kind in ("addressed", "proper", "quoted", "named", "code") and bool(coded)


def _as_asked(role: str | None, hint: set[str], span: Span, text: str, spec: dict) -> str:
    """The value as the parameter wants it: a zone as an IANA name, a currency or a country as its code, a day
    as YYYY-MM-DD when the schema asks for that format (otherwise as the learner wrote it)."""
    if role == "zone":
        return str(span.value)
    written, description = span.written(text), spec.get("description", "")
    if role == "date" and span.kind == "date":  # in the format the description shows; JSON Schema's "date" is YYYY-MM-DD
        past = dates.PAST.search(" ".join([description, *span.before]))  # a day something was lost or done: the last one
        return dates.as_asked(written, description, spec.get("format"), past=bool(past))
    if role == "code" and "-" in written and re.search(r"\b[A-Z]+\d+\b", description):  # "e.g. SF204": "SF-88" is SF88
        return written.replace("-", "").upper()
    if role == "unit" and quantities.takes_currency(hint, description):
        return currency_code(written, span.before)
    if role == "place" and hint & {"code", "iso"}:
        return country_code(written)
    if role == "language" and (hint & {"code", "iso"} or re.search(r"\b639\b|\bcode\b", description, re.I)):
        return language_code(written)  # "ISO 639-1 code like 'fr'": German -> de
    if role == "person" and re.fullmatch(r"\w.*\w['’]s", written):  # "Robert's nickname": the person is Robert
        written = written[:-2]
    if role in ("place", "language", "person", "nationality") and written.islower():  # "from porto" -> "Porto"; "ana": "Ana"
        return string.capwords(written)
    return written
