"""Part of step 1: a question cut into the requests it holds.

"What time is it in Tokyo and in Paris?" is two requests, cut on "and", commas, ";", "then" (never inside quotes
or a pasted command); "add milk and eggs to my list" is one request per item; and a clause such as "in Paris" is
read with the words that named the tool in the clause before ("What time is it in Paris").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import reduce
from itertools import product
from typing import Any

from agentkit.offline import reading
from agentkit.offline.code import code_spans
from agentkit.offline.dates import MONTH
from agentkit.offline.fill import fill
from agentkit.offline.language import is_chinese
from agentkit.offline.lexicon import words
from agentkit.offline.numbers import PARTY
from agentkit.offline.options import YES_NO
from agentkit.offline.phrases import ADDING, ONTO
from agentkit.offline.places import zones_in
from agentkit.offline.reading import STOP_WORDS
from agentkit.offline.slots import ENOUGH
from agentkit.offline.spans import ADDRESS, ONE_VALUE, QUOTED, addresses, find, requests_follow
from agentkit.offline.vocabulary import FILE, english

ITEMS = re.compile(rf"^(?P<verb>\s*{ADDING}\s+)(?P<items>.+?)\s+(?P<rest>{ONTO}[^,;]*)$", re.IGNORECASE)
_WORDS = words("choose")["clauses"]
CUTS, CASES = re.compile("|".join(_WORDS["cuts"])), re.compile(_WORDS["cases"])
ITEMS_FIRST, SAID, MEANS_ONLY, VALUE_ONLY, CASES_SAID, ASIDE, ZH_ANOTHER, THERE, PLACE_BEFORE, COUNTED, FOR_EACH = (
    re.compile(_WORDS[n], re.I) for n in ("items_first", "said", "means_only", "value_only", "cases_said", "aside", "zh_another",
                                           "there", "place_before", "counted", "for_each"))
"""The items named before the verb, as Chinese puts them ("牛奶和鸡蛋都加到待办里": milk and eggs, add to the to-do list);
a part that only names the means ("use the shell"), gives a value by its role ("the author is Frank Herbert"), or "great"."""


def each_item(question: str) -> str:
    """ "add milk and eggs to my list" -> "add milk to my list and add eggs to my list": one request per item."""
    if first := ITEMS_FIRST.match(question.rstrip(".!?")):
        question = f"add {first.group('items')} to my {first.group('list')}"  # each verb of ITEMS_FIRST adds to a list
    if not (match := ITEMS.match(question.rstrip(".!?"))):
        return question
    quoted = [m.group(0) for m in QUOTED.finditer(match.group("items"))]  # "add 'a, b' and 'c'": the quotes are the items
    items = quoted or [i.strip() for i in re.split(r",\s*(?:and\s+)?|\s+and\s+", match.group("items")) if i.strip()]
    return question if len(items) < 2 or any(len(item.split()) > 5 for item in items) else " and ".join(
        f"{match.group('verb').strip()} {item} {match.group('rest')}" for item in items)


def zh_joined(question: str, best: Callable[[str], tuple[Any, float]], complete: Callable[[Any, str], bool]) -> str:
    """ "下周一上午10点项目周会，在3楼会议室，一个半小时" is one request: a Chinese clause after a comma fills the one before
    (its comma marked U+2060, no cut), unless a word such as 再 or 另外 opens another, or both are whole requests: the
    `best` tool fits each, and each is `complete` for it ("昨晚睡了7个小时，今天喝了800毫升水")."""
    def whole(text: str) -> bool:
        read = english(text)
        offer, fit = best(read)
        return fit >= ENOUGH and complete(offer, read)
    # a file's edit ("创建 todo.txt，内容是 买菜") is read by its own patterns, comma and all
    parts = re.split(r"[，,](?![^“《]*[”》])", question) if is_chinese(question) and not FILE.search(question) else [question]
    joined = parts[0]
    for part in parts[1:]:
        if ZH_ANOTHER.match(part) or whole(joined) and whole(part):
            joined += "，" + ZH_ANOTHER.sub(r"\g<lead>", part, count=1)  # its 再 goes: the comma cuts, not 再 again
        else:
            joined += ",\u2060" + part
    return joined


def clauses(question: str) -> list[str]:
    """The question cut on "and", commas, ";" and "then", never inside quotes, a pasted statement or command, or
    the text after "saying". A part that only names the means ("how many lines are in notes.txt? use the shell") or
    only gives a value by its role ("add Dune, the author is Frank Herbert") completes the one before; "there" is the
    last place named before ("what's the weather in London and what time is it there?")."""
    # one value each, never cut: a quote, a pasted statement, "salt and pepper", "221B Baker Street, London", "me and Jo"
    literal = [(start, end) for start, end, *_ in code_spans(question)] + [
        m.span() for pattern in (QUOTED, ONE_VALUE, ADDRESS, PARTY) for m in pattern.finditer(question)] + addresses(question)
    quoted, masked, at = [], "", 0
    for start, end in sorted(span for span in literal if not any(o[0] < span[0] < o[1] for o in literal)):
        if start >= at:
            quoted.append(question[start:end])
            masked, at = masked + question[at:start] + chr(0xE000 + len(quoted) - 1), end  # one mark per literal
    masked += question[at:]
    told = _counted(masked)  # "two todos: call the bank, and renew my passport": a request per item
    said = None if told else SAID.search(masked)  # "for 2026-07-01: book a court and hire rackets": a when leads, no text
    said = None if said and said[0].startswith(":") and (_only_when(masked[: said.start()]) or requests_follow(
        masked, said.start() + len(re.match(r":\s*", said[0])[0]))) else said  # "For my dad: book ...": requests
    head, tail = (masked[: said.start()], said.group(0)) if said else (masked, "")
    parts = told or CUTS.split(head)  # "or" before a number or a name ("Rome, Athens or Madrid") cuts too
    parts[-1] += tail
    parts += CUTS.split(masked[said.end():]) if said else []  # "...: golf at 9. Then a wine tasting": the text ended
    restored = [re.sub("[\ue000-\uf8ff]", lambda m: quoted[ord(m[0]) - 0xE000], part).replace("\u2060", "").strip()
                for part in parts]  # literals back (told ones may repeat: "two cards: …" says its lead once per card)
    joined: list[str] = []  # the parts that are requests, each with the parts that complete it
    each = [m["rest"] for p in restored[1:] if (m := FOR_EACH.match(p))]  # "…, both for 6pm": the time of every request
    restored = [f"{p} {' '.join(each)}" for p in restored if not FOR_EACH.match(p)] if each else restored
    for part in (p for p in restored if re.search(r"\w", p) and not (ASIDE.fullmatch(p) and p is not restored[-1])):
        if joined and ((value := VALUE_ONLY.fullmatch(part) or ADDRESS.fullmatch(part)) or MEANS_ONLY.fullmatch(part)):
            joined[-1] = f"{joined[-1].rstrip('?.!')}{',' * bool(value)} {part}"
        else:
            joined.append(part)
    place, resolved = None, []  # "there" read as the last place named before
    for part in joined:
        resolved.append(part := THERE.sub(lambda m, at=place: f"{m['to'] or 'in '}{at}", part, count=1) if place else part)
        place = _place_named(part) or place
    return resolved


def _only_when(lead: str) -> bool:
    """ "for 2026-07-01", "tomorrow at 9": a day or a time and words that only lead it."""
    whens = [(s.start, s.end) for s in find(lead) if s.kind in ("date", "time")]
    rest = "".join(c for at, c in enumerate(lead) if not any(start <= at < end for start, end in whens))
    return bool(whens) and all(w in STOP_WORDS for w in re.findall(r"[a-z]+", rest.lower()))


def in_place(before: str, clause: str, question: str, read: Callable[[str], tuple[dict, list]]) -> list[str]:
    """ "the study and the hall blinds down": the request once for each part "and" joins before it, with the part's values
    in place of its own ("the study blinds down"); [] unless each part gives only those, and a word at most ("the")."""
    if not before or before not in question or not re.match(r"\s+and\s", question[question.find(before) + len(before):]):
        return []
    theirs, copies = read(clause)[0], []
    for part in before.split(" and "):
        mine = read(part)[0]
        if not mine or len(reduce(lambda text, v: text.replace(str(v), " "), mine.values(), part).split()) > 1 or any(
                theirs.get(n) in (None, v) or str(theirs[n]) not in clause for n, v in mine.items()):
            return []
        copies.append(reduce(lambda text, n: text.replace(str(theirs[n]), str(mine[n]), 1), mine, clause))
    return copies


def _counted(question: str) -> list[str]:
    """ "three reminders: A, B and C" -> "reminders: A", "reminders: B", "reminders: C", when the count is the items'."""
    if not (told := COUNTED.match(question)):
        return []
    items = [item.strip() for item in CUTS.split(told["items"]) if re.search(r"\w", item)]
    count = 2 if told["pair"] else next((s.value for s in find(told["count"]) if s.kind == "number"), 0)
    return [f"{told['lead']}{told['what']}: {item}" for item in items] if len(items) == count else []


def _place_named(part: str) -> str | None:
    """The last place a part names: a city or country ("in Lyon"), or a name after "near", "to"... ("near Angel")."""
    names = [part[start:end] for start, end, _ in zones_in(part)] or [
        str(s.value) for s in find(part) if s.kind == "proper" and PLACE_BEFORE.search(part[:s.start])]
    return names[-1] if names else None


def each_case(question: str, schema: dict, read: Callable[[str], tuple[dict, list]]) -> list[str]:
    """ "The first circle has a radius of 5 m, the second of 10 m": the question once per case it tells. A part giving a
    number or name (as written, not a choice) that another gives differently starts a case, or goes on with one it is new to; the
    others go with each case. A case lacks fewer values than it gives, and only some another gives ("a similar house")."""
    parts = [p.strip(" ,;") for p in CASES.split(question) if p.strip(" ,;")] if CASES_SAID.search(question) else []
    got = [_given(p, read(p)[0], schema) for p in parts]
    told = [(c, *read(c)) for c in _cases(parts, _differing(got))]  # a case gives more than it lacks, lacks only another's
    return [c for c, g, lacks in told if len(lacks) < len(g) and set(lacks) <= {n for _, o, _ in told if o is not g for n in o}]


def _given(part: str, values: dict, schema: dict) -> dict:
    """The values a part gives as written, numbers and names ("two dogs": none), no choice of an enum."""
    return {n: v for n, v in values.items() if "enum" not in schema["properties"][n]
            and (w := str(v).removesuffix(".0")) in part and re.search(r"[A-Z\d]", w)}


def _differing(got: list[dict]) -> list[set[str]]:
    """For each part, the parameters it gives a value for that another part gives differently."""
    return [{n for n in g if any(n in h and h[n] != g[n] for h in got if h is not g)} for g in got]


def _cases(parts: list[str], differing: list[set[str]]) -> list[str]:
    """Each case's text: a part with a differing value starts a case, or goes on with the one before when its values
    are new to it ("Today it is worth $7000"); then, without its words that tell it ("the first"), the other parts."""
    cases: list[tuple[set, str]] = []
    for part, names in ((p, n) for p, n in zip(parts, differing, strict=True) if n):
        goes_on = cases and not names & cases[-1][0]
        cases[-1:] = [(cases[-1][0] | names, f"{cases[-1][1]} {part}")] if goes_on else [*cases[-1:], (names, part)]
    shared = [p for p, names in zip(parts, differing, strict=True) if not names]
    return [" ".join([CASES_SAID.sub("", c), *shared]) for _, c in cases]


def with_context(so_far: str, clause: str, values: Iterable[Any] = (), schema: dict | None = None) -> str:
    """The clause, led by the words that named the tool ("the square root of 9" -> "the square root of 25"). A clause
    that repeats a word of the call so far stands in for what follows that word ("synonyms for fast" + "for slow" ->
    "synonyms for slow"; "water the front for 5 minutes" + "the back for 8" -> "water the back for 8"); otherwise it
    stands in for the values (`values`, the call's so far), from the first one on, or from the first number, quote or
    capital. A clause with an answer of its own to a yes/no or a choice of the `schema` reads the call's words before
    the call's answer only ("rsvp yes to A" + "no to B" -> "rsvp no to B")."""
    for spec in ((schema or {}).get("properties") or {}).values():  # the words that answer a yes/no, or a choice's options
        options = [rf"\b{re.escape(str(option).replace('_', ' '))}\b" for option in spec.get("enum") or ()]
        answer = YES_NO.pattern if spec.get("type") == "boolean" else "|".join(options)
        said = answer and (answered := reading.pattern(answer, re.I)).search(so_far)
        so_far = so_far[:said.start()] if said and answered.search(clause) else so_far
    clause = re.sub(_WORDS["stands_in"], "", clause)  # "one near the harbour": "near the harbour"
    first = re.match(r"\s*([\w'-]+)", clause)
    if parallel := first and re.search(rf"(?i)^(.*?\s|)(?={re.escape(first.group(1))}\b)", so_far):
        lead = parallel.group(1)
    else:
        lead = re.split(r"^(?=\d)|(?<=\s)(?=\S*\d|\"|“|[A-Z])", so_far, maxsplit=1)[0] if so_far else ""
        # a zone is written as its city ("Tokyo" for Asia/Tokyo); a value that opens the call leaves no lead words
        written = [w for v in values if isinstance(v, str) and v for w in {v, v.rsplit("/", 1)[-1].replace("_", " ")}]
        found = [so_far.lower().find(w.lower()) for w in written]
        lead = min((so_far[:at] for at in found if at >= 0), key=len, default=lead) if lead == so_far else lead
    lead = lead if lead.endswith(" ") or not lead else lead + " "
    return f"{lead}{clause}" if not lead.strip() or lead.strip().lower() not in clause.lower() else clause


TAIL = re.compile(rf"\s+[a-z]+$|\s+(?i:{MONTH})(?:\s+\d{{4}})?$")  # "5 and 10 miles", "Friday 14th and 28th May 2027"


def each_value(question: str, schema: dict) -> list[str]:
    """ "the compound interest at 4% over 3, 6 and 9 years" -> the question once per value listed, the rest shared;
    two lists pair in order with "respectively" ("A and B for 20 and 15 minutes respectively"), else each with each.
    [] where a copy lacks a required value or the whole question puts two of them in one array ("John and Alice");
    a group is a value ("the GCD of (12, 18) and (35, 49)", "the mean of [1, 2] and [3, 4]")."""
    (sep, last), lists = _WORDS["list_and"], []
    for kind in _WORDS["list_items"]:  # numbers with a unit, quotes, names
        for run in re.finditer(rf"(?<![\w$€£'\"“])(?:{kind})(?:(?:{sep})(?:{kind}))*(?:{last})(?:{kind})", question):
            start, end, items = *run.span(), re.findall(kind, run.group(0))
            if (unit := re.search(TAIL, items[-1])) and not any(re.search(TAIL, i) for i in items[:-1]):
                items[-1], end = items[-1][: unit.start()], end - len(unit[0])  # "5 and 10 miles": the unit is each item's
            joined = any(start < m.end() and m.start() < end for m in ONE_VALUE.finditer(question))  # "Tom and Jerry"
            ranged = re.search(r"\band\s+\w+\s", run[0]) and re.match(r"\s*(?:to|-)\s", question[end:])  # "and from 200 to 150"
            if not joined and not ranged and not any(start < e and s < end for s, e, _ in lists) and not re.search(
                    r"\d\s$", question[:start]):
                both = re.search(r"\bboth\s+$", question[:start])  # "for both Mia and Leo": a copy is "for Mia"
                lists.append((both.start() if both else start, end, items))  # not "+1 415 555 ..."
    together = re.search(r"\brespectively\b", question) and len({len(items) for *_, items in lists}) == 1
    copies = []
    for pick in (zip if together else product)(*(items for *_, items in lists)) if 0 < len(lists) < 3 else ():
        copy = question
        for (start, end, _), item in sorted(zip(lists, pick, strict=True), reverse=True):
            copy = copy[:start] + item + copy[end:]
        copies.append(copy)
    if not copies or any(fill(schema, copy, guess=False)[1] for copy in copies):
        return []
    whole, groups = fill(schema, question, guess=False)[0], all(i[0] in "([" for *_, items in lists for i in items)
    return [] if not groups and any(isinstance(value, list) and len(value) > 1 for value in whole.values()) else copies
