"""Step 6, *converse*: what the conversation so far adds to the question, as a person reads a chat.

The state is a `Conversation`: the calls made last (one turn may make several), their arguments and their results.

- A follow-up or a correction ("and in Montevideo?", "actually make it 20", "the same, but on Monday", "no, for
  3 people", "改到周五", "那上海呢？", "换成 20 个") repeats the last call with only the values it names changed:
  each new value goes to the parameter whose kind it fits (a count to a count, a date to a date), the rest stays.
- A message no tool fits on its own is read against the last call first ("could you check friday too?": its date);
  "the same for Lisbon and Porto" is one call for each; a message that changes no value is answered in words.
"""

from __future__ import annotations

import datetime as dt
import re
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from agentkit.offline.choose import Offer, Planned
from agentkit.offline.corrections import CLOCK, FREE, NAMED, REPLACED, SAID_AROUND, corrected, named_value
from agentkit.offline.dates import MONTH, as_iso, moved
from agentkit.offline.fill import fill
from agentkit.offline.language import is_chinese
from agentkit.offline.lexicon import words
from agentkit.offline.numbers import fits_pattern
from agentkit.offline.places import is_known_place, zone_names
from agentkit.offline.reading import message_text, split_name
from agentkit.offline.request import parsed
from agentkit.offline.roles import FROM_WORDS, json_type, role_of
from agentkit.offline.spans import find
from agentkit.offline.vocabulary import english
from agentkit.offline.zh_values import as_written, in_learners_words

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
DAY_ALONE = re.compile(rf"^(?!.*\b(?:{MONTH})\b).*?\bthe\s+(\d{{1,2}})(?:st|nd|rd|th)\b", re.I)  # "the 27th", no month named


@dataclass(frozen=True)
class PastCall:
    """One call of the last turn that made calls: the tool, its arguments, what it returned ('' before a result)."""

    name: str
    arguments: dict[str, Any]
    result: str = ""


@dataclass(frozen=True)
class Conversation:
    """What the conversation before the last message holds for it: the last turn's calls (and results), those before."""

    calls: tuple[PastCall, ...] = ()
    before: tuple[PastCall, ...] = ()
    asked: str = ""  # what the person said before this message ("… for two hours": a value no call took yet)

    @classmethod
    def of(cls, messages: list[dict]) -> Conversation:
        """The state before `messages[-1]`: the calls of the latest assistant message that made any, and earlier ones."""
        turns = []
        for at, message in enumerate(messages[:-1]):
            if made := message.get("tool_calls") or []:
                results = {m.get("tool_call_id"): message_text(m) for m in messages[at + 1:-1] if m["role"] == "tool"}
                turns.append(tuple(PastCall(c["function"]["name"], arguments_of(c["function"].get("arguments")),
                                            results.get(c.get("id"), "")) for c in made))
        asked = " . ".join(message_text(m) for m in messages[:-1] if m["role"] == "user")
        return cls(turns[-1], sum(turns[:-1], ()), asked) if turns else cls(asked=asked)

    @property
    def last_result(self) -> str | None:
        """The last result the tools gave, if any."""
        return next((c.result for c in reversed(self.calls) if c.result), None)

    def asks_about(self, planned: Planned, asked: str, own: list[Planned]) -> bool:
        """A question about the last turn's result that changes only words in lower case in its call ("so is that
        cheaper?", "这个港口有停车场吗": no digits, no name), or the call just made again, unchanged, that the message
        does not make on its `own` ("wait, why is it so cold?" after the weather): said in words, not called."""
        if planned not in own and any(c.name == planned.offer.name and c.arguments == planned.arguments and c.result
                                      for c in self.calls):
            return True
        return bool(ASKS_ABOUT.search(asked)) and any(all(isinstance(v, str) and not re.search(r"[\dA-Z]", v) for n, v in (
            planned.arguments.items()) if call.arguments.get(n) != v) for call in self.calls if call.name == planned.offer.name)

    def results_asked_about(self, asked: str) -> list[tuple[str, dict[str, Any], str]]:
        """The last turn's results, when a message no tool answers points at them ("is that a good rate?", "那边现在是
        晚上吗？", "should I bring an umbrella then?") and names nothing they do not (not "is Rome warmer?")."""
        known = " ".join(f"{c.arguments} {c.result}" for c in self.calls)
        if any(name not in known for name in re.findall(r"(?<=\s)[A-Z][a-z]+", asked)) or not (
                ABOUT_RESULT.search(asked) or BACK.search(asked)):
            return []
        return [(c.name, c.arguments, c.result) for c in self.calls if c.result]

    def calls_to(self, offers: list[Offer]) -> list[tuple[Offer, dict[str, Any]]]:
        """The calls of tools still offered, with their arguments, the latest first (of one tool, its last call)."""
        made = (*self.before, *self.calls)
        latest, order = {c.name: c.arguments for c in made}, dict.fromkeys(c.name for c in reversed(made))  # latest first
        return [(o, latest[name]) for name in order for o in offers if o.name == name]


WORDS = words("choose")["conversation"]
FOLLOWS_ON, BACK, IT_FILE, LEAD = (re.compile("|".join(WORDS[name]), re.I) for name in ("follows_on", "back", "it_file", "lead"))
"""A follow-up or a correction ("and in Lima?", "actually, Porto", "改到周五"), the words around the value in it (what
is left is the value), "that" or "the result" (the last result), "its lines" or "open it" (the last file), "for"."""
AGAIN, MORE, FEWER, MORNING, FLAG, CORRECTS, DOER, AFTER_THAT, UNCHANGED = (re.compile(WORDS[name], re.I) for name in (
    "again", "more", "fewer", "morning", "flag", "corrects", "doer", "after_that", "unchanged"))
ORDINALS = WORDS["ordinals"]
PICKED = re.compile(rf"(?:\b({'|'.join(ORDINALS)})\b|\b(\d+)(?:st|nd|rd|th)\b|第\s*(\d+))(\s+one\b)?", re.I)
JOINED, ASKS_ABOUT, ABOUT_RESULT = (re.compile(WORDS[name], re.I) for name in ("joined", "asks_about", "about_result"))


def follow_up(state: Conversation, asked: str, offers: list[Offer]) -> list[Planned]:
    """The last call again, with the values the message `asked` changes (none: not a follow-up). Bare words are a
    value only when it says it follows on ("and…", "actually…", "那…呢"), corrects ("title should be…") or is a few
    words ("要大号的"), and asks nothing about the result ("那要带伞吗"); else only a value of a kind or a name."""
    tried = state.calls_to(offers)
    if not tried:
        return []
    asked = corrected(UNCHANGED.sub("", asked).strip() or asked, tuple(said for o, _ in tried for said in o.options))
    short = len(re.findall(r"\w+", asked)) <= 3 and len(asked) <= 24  # a question of a few words ("要大号的")
    cued = FOLLOWS_ON.search(asked) or corrects(asked) or short  # "and in Lima?", "改到周五"
    loose = bool(cued) and (corrects(asked) or not ASKS_ABOUT.search(asked))  # "改成拿铁可以吗" corrects
    value = SAID_AROUND.sub(" ", asked).strip()  # "the same, but on Monday" -> "on Monday"
    offered = re.search(rf"(?<![\d:])0?{value}:\d\d\b", state.last_result or "") if value.isdigit() else None
    value = offered.group(0) if offered else value  # "ok 12 works then" after a result offering "12:00"
    # "the same for Lisbon and Porto": one call for each
    each = [_again_with(tried, part, asked, loose) for part in JOINED.split(value)]
    changed = {frozenset(_changed(planned, tried)) for one in each for planned in one}
    if len(each) > 1 and all(len(one) == 1 for one in each) and len(changed) == 1 and frozenset() not in changed:
        return [one[0] for one in each]
    return _again_with(tried, value, asked, loose)


def _changed(planned: Planned, tried: list[tuple[Offer, dict]]) -> set[str]:
    """The tool and the parameters a call changes from its last call (none for a list: "rice and beans" is one)."""
    previous = next(p for o, p in tried if o.name == planned.offer.name)
    changed = {n for n, v in planned.arguments.items() if previous.get(n) != v}
    return set() if any(isinstance(planned.arguments[n], list) for n in changed) else {planned.offer.name, *changed}


def _again_with(tried: list[tuple[Offer, dict]], value: str, asked: str, loose: bool) -> list[Planned]:
    """The latest call again with what `value` (the words of `asked` that are no lead-in) changes in it."""
    question = english(value)
    # the latest call whose tool takes a value the message names ("make it 4 people" after a table, then the weather)
    changes = [(offer, previous, *_changes(offer, previous, question, asked, loose)) for offer, previous in tried]
    offer, previous, changed, bare = next((c for c in changes if c[2]), None) or next((c for c in changes if c[3]), changes[0])
    doer = DOER.fullmatch(value) if loose else None  # "是舅舅去接": who does it, for the parameter whose description has the verb
    described = {n: doer[1] for n, spec in (offer.schema.get("properties") or {}).items()
                 if doer and n in previous and doer[2] in str(spec.get("description"))}
    if not (changed := described or _to_the_side_named(offer, changed or bare, previous, question)):
        return []
    english_read = {name: value for name, value in changed.items() if not is_chinese(str(value))}
    unasked = offer.schema | {"required": []}  # "卧室也开一下": 卧室; what a follow-up leaves out is kept, not looked for
    changed |= in_learners_words(english_read, unasked, asked) if english_read else {}
    kept = {n: _as_before(v, previous.get(n), asked) for n, v in changed.items() if fits_pattern(
        spec := unasked["properties"].get(n), v) and (json_type(spec or {}) in ("string", None)) == isinstance(v, str)}
    arguments = {**previous, **kept}  # a value its pattern or type refuses ("compost 垃圾" for a postcode) is no change
    return [Planned(offer, arguments)] if kept and set(offer.schema.get("required") or []) <= set(arguments) else []


def corrects(asked: str) -> bool:
    """A correction of a value of an earlier call: "时间改成下午5点", "title should be Q3 plan", "not Tom, Sara"."""
    return bool(CORRECTS.search(asked)) or any(pattern.search(asked) for pattern in (*NAMED, *REPLACED))


def _changes(offer: Offer, previous: dict, question: str, asked: str, loose: bool) -> tuple[dict, dict]:
    """What the message changes in one earlier call: the values it names that the tool takes, and its bare value
    (when `loose`: words of no kind and no name, "what about bergen?")."""
    if said := named_value(offer.schema, previous, asked):  # "change the title to Q3 plan": that parameter's, as written
        return said, {}
    found, _ = fill(offer.schema, question, exclude=offer.words, guess=False, named=offer.name_words)
    retimed = {n: new for n, v in previous.items() if (offer.schema["properties"].get(n) or {}).get("format") == "date-time"
               and isinstance(v, str) and "T" in v and (new := moved(v, find(question)))}  # "make it 8:15": that day
    bare = _bare_value(offer, previous, LEAD.sub("", question).strip(" ?.!,")) if loose and not retimed else {}
    found = {n: v for n, v in found.items() if v is not None and v != previous.get(n) and (loose or _of_a_kind(offer, n, v))}
    kept = _kept(offer, found, question, bare)
    titled = {n: v for n, v in bare.items()  # "also The Hobbit": the title's own "The" too
              if isinstance(v, str) and re.fullmatch(rf"(?:[A-Z]\w*\s+)+{re.escape(str(kept.get(n)))}", v)}
    return {**kept, **titled, **retimed}, bare


def _of_a_kind(offer: Offer, name: str, value: Any) -> bool:
    """A value a message that is no follow-up in words can still change: a number, a date, an option, a place, a name."""
    spec = (offer.schema.get("properties") or {}).get(name) or {}
    return not isinstance(value, str) or "enum" in spec or is_known_place(value) or bool(re.search(r"[\dA-Z]", value))


def again(state: Conversation, asked: str, offers: list[Offer]) -> Planned | None:
    """ "try again", "再试一次": the last call once more, with the same arguments, as a person asks after an error."""
    last = state.calls_to(offers) if AGAIN.match(asked) else None
    return Planned(*last[0]) if last else None


def _kept(offer: Offer, found: dict[str, Any], question: str, bare: dict[str, Any]) -> dict[str, Any]:
    """The values fill found that the message really names: a typed value (a number, a date, a place...), or free
    text only when it is the message's whole value ("no, for 3 people" names a count, not a restaurant "people") or
    follows the parameter's name ("stop 2250"); never the words an option took ("那下午呢？" changes the period only)."""
    options = {english(str(v)) for n, v in found.items() if "enum" in (offer.properties.get(n) or {})}
    named = {str(s.value) for s in find(question) if s.kind in ("quoted", "proper", "zone")} | set(bare.values())
    named -= options
    return {name: value for name, value in found.items()
            if not isinstance(value, str) or "enum" in (offer.properties.get(name) or {}) or is_known_place(value)
            or value in named and (name in bare or value not in bare.values())  # one value, for the one it replaces
            or role_of(name, offer.properties.get(name) or {})[0] not in FREE or f"{name} {value}".lower() in question.lower()}


def _to_the_side_named(offer: Offer, changed: dict, previous: dict, question: str) -> dict:
    """ "what about GBP?" after USD -> EUR: of two parameters of one kind, a new value changes the target unless
    the message says "from"; "and from Leeds?" changes the start."""
    said_from = bool(set(re.findall(r"[a-z]+", question.lower())) & {"from", "since"})
    moved = {}
    for name, value in changed.items():
        role = role_of(name, offer.properties.get(name) or {})[0]
        pair = [n for n in previous if n != name and role and role_of(n, offer.properties.get(n) or {})[0] == role
                and isinstance(previous[n], str) and "enum" not in (offer.properties.get(n) or {})]  # place_type is no place
        if role not in (None, "title") and pair and len(changed) == 1:  # a song and its playlist are no two ends
            ends = sorted([name, *pair], key=list(offer.properties).index)
            name = next((n for n in ends if set(split_name(n)) & FROM_WORDS), ends[0]) if said_from else ends[-1]
        moved[name] = value
    return moved


def _as_before(value: Any, before: Any, asked: str) -> Any:
    """A new value written as the old one was: "Monday" for a date the last call gave as 2026-12-04 is a date too;
    "make it 7:30" after 18:00 is 19:30 (the same afternoon, unless the message says morning); "two more people",
    "再加两个人", "one fewer night": a count added to the last one, or taken from it."""
    if type(value) is int and type(before) is int:
        return before + value if MORE.search(asked) else before - value if FEWER.search(asked) else value
    if all(isinstance(v, str) and CLOCK.fullmatch(v) for v in (value, before)) and int(before[:2]) >= 12 > int(value[:2]) > 0:
        return value if MORNING.search(asked) else f"{int(value[:2]) + 12}{value[2:]}"
    if isinstance(value, str) and isinstance(before, str) and is_chinese(before) and not is_chinese(value):
        return as_written(value, asked)  # "卧室也开一下" after 客厅: the room as written, as the last one was
    dated = isinstance(before, str) and ISO_DATE.fullmatch(before) and isinstance(value, str)
    if dated and ISO_DATE.fullmatch(value) and (day := DAY_ALONE.search(asked)):  # "make it the 27th" after 2027-03-20: the
        with suppress(ValueError):  # 27th of that month (if it has one), not of this one
            return dt.date.fromisoformat(before).replace(day=int(day[1])).isoformat()
    return as_iso(value) or value if dated and not ISO_DATE.fullmatch(value) else value


def _bare_value(offer: Offer, previous: dict, rest: str) -> dict:
    """ "what about bergen?": the words left, for the text parameter the last call was about; "and the 31?" (digits):
    for the one whose last value was digits too, the closest in length (a bus line, not its stop); "make it 3",
    "太短了，改成24", "6包": a number alone or with its unit (after words it cannot read at most), for the one number the
    last call gave."""
    flag = FLAG.fullmatch(rest)  # "what if we add packing?": the flag whose name starts with the word, on or off
    for name, spec in offer.properties.items() if flag else ():
        if spec.get("type") == "boolean" and name.startswith(flag["flag"][:5].lower()):
            return {name: flag["on"] is not None}
    codes = [n for n, v in previous.items() if isinstance(v, str) and v.isdigit() and "enum" not in offer.properties.get(n, ())]
    if rest.isdigit() and codes:
        return {min(codes, key=lambda n: abs(len(previous[n]) - len(rest))): rest}
    numeric = [n for n, value in previous.items() if type(value) in (int, float)]
    alone = re.search(r"(?<!\S)(\d+)\s*([^\W\d]{0,12})$", rest)  # "3", "6包", "7 packets": a count, never a place
    if alone and not re.search(r"[a-z\d]", rest[:alone.start()], re.I):  # a unit in English is the parameter's name
        fits = len(numeric) == 1 and (not alone[2].isascii() or numeric[0].startswith(alone[2][:3].lower()))
        clocks = [n for n, v in previous.items() if isinstance(v, str) and CLOCK.fullmatch(v)]  # "make it 10" after 09:00
        hour = {clocks[0]: f"{int(alone[1]):02d}:00"} if not numeric and len(clocks) == 1 and int(alone[1]) < 24 else {}
        return {numeric[0]: int(alone[1])} if fits else hour if not alone[2] else {}
    if not rest or len(rest.split()) > 3 or re.fullmatch(r"[\d\s.,:-]+", rest):
        return {}
    if not (texts := [n for n, v in previous.items() if isinstance(v, str) and "enum" not in (offer.properties.get(n) or {})]):
        return {}
    name = min(texts, key=lambda n: _ending(previous[n]) != _ending(rest))  # "西城分馆" after "东城分馆", else the first
    if (role := role_of(name, offer.properties.get(name) or {})[0]) == "zone":
        return {name: zone_names()[rest.lower()]} if rest.lower() in zone_names() else {}
    alike = is_known_place(rest) or _ending(previous[name]) == _ending(rest)  # "客房" after "书房": a room too
    return {name: rest} if role in (None, "query", "title", "path", "symbol", "place") or alike else {}


def _ending(text: str) -> str:
    """What names the kind of a thing: the last word of a name ("Station garage"), of a Chinese name its last character
    ("东城分馆", "书房"), so that a new value replaces the earlier one of its kind."""
    return text[-1:] if is_chinese(text) else (text.split() or [""])[-1].lower()


def arguments_of(text: str | None) -> dict[str, Any]:
    """A call's arguments as a dict, from the JSON text a message carries ({} when it is not an object)."""
    value = parsed(text or "{}")
    return value if isinstance(value, dict) else {}
