"""Part of step 1: a value corrected in the same breath ("at 7pm, no wait, 8pm") put where the value it corrects was.

"book a court at 7pm, no wait, 8pm" is read as "book a court at 8pm": the value after the correction's words takes the
place of the last value of its kind before them (a time a time, a name a name); a correction with no value found by
pattern takes the place of another option of the same enum ("softwood, actually make that seasoned hardwood"), or of
as many words at the end of the phrase its first word opens ("a large latte, sorry, a cappuccino": "a large
cappuccino"); a reason said before the value is passed over ("25 sq ft, no wait, that won't fit, make it 50"). Where
nothing before is of its kind, the question is left as it is.

A later message that names the value it replaces ("Leeds, not York", "it's 41 Meadow Road, not 14", "是5号，不是3号")
changes that value, or that part of a longer one (`named_value`, for the converse stage).
"""

from __future__ import annotations

import re
from dataclasses import replace

from agentkit.offline.language import is_chinese
from agentkit.offline.lexicon import words
from agentkit.offline.roles import hint_of, json_type, kind_of, role_of
from agentkit.offline.spans import find
from agentkit.offline.vocabulary import english
from agentkit.offline.zh_values import framed

_SAID, TOLD = words("choose")["clauses"]["correction"], words("choose")["conversation"]
_ANY = rf"(?:{_SAID['strong']}|{_SAID['weak']})(?![a-z])"
MARK = re.compile(rf"(?:[,;.?!—–-][\s\u2060]*{_ANY}|(?<=\s)(?:{_SAID['strong']})(?![a-z]))(?:[\s,!.:—\u2060-]*{_ANY})*"
                  rf"[\s,!.:—\u2060-]*(?:{_SAID['then']})?", re.IGNORECASE)
ZH_MARK = re.compile(_SAID["zh"])
VALUE = re.compile(r"(?:[^,;.!?，；。—–]|\.(?=\d))+")  # up to the clause's end ("8.30pm" whole; "— two of us" after)
ENDING = re.compile(r"(?i)\s+(?:instead|then|please|rather|actually)\s*$")
THEN = re.compile(rf"[,;]\s*(?:{_SAID['then']})", re.IGNORECASE)  # the value after a reason: "..., make it 50"
LED = re.compile(r"(?i)(?:\b(?:at|on|for|to|in|from|by|the)\s+)*$")  # the words that led a value placed before
BARE = re.compile(r"(?i)\s*(?:$|[,.;!?]|(?:for|with|and|please|instead|then|o'?clock)\b)")  # "8 for four": no count of
CLOCK = re.compile(r"[012]\d:[0-5]\d")  # "09:00": a clock time as a call writes it
SAID_AROUND = re.compile("|".join(TOLD["said_around"]), re.I)  # the words around a follow-up's value: the rest is it
NAMED, REPLACED = ([re.compile(pattern, re.I) for pattern in TOLD[name]] for name in ("named", "replaced"))  # see choose.toml
FREE = {role or None for role in TOLD["free"]}
"""Roles whose value can be any words: a follow-up changes them only with a value it clearly names."""
NAMES = {"zone": "proper"}  # "in Leeds, sorry, York": a place known by its zone, or a name
LEADS = re.compile(r"(?i)^(?:a|an|the|to|in|at|on|for|from|with|by)\s+")


def _a_time(spans: list) -> bool:
    """A bare number corrects a time: the last value before it was one, or a time was said and no number."""
    return bool(spans) and (spans[-1].kind == "time" or not any(s.kind == "number" for s in spans) and any(
        s.kind == "time" for s in spans))


def zh_marked(question: str) -> str:
    """ "晚上7点，不对，8点" -> "晚上7点, no wait, 8点": a Chinese correction in the words `corrected` reads."""
    return ZH_MARK.sub(", no wait, ", question)


def corrected(text: str, options: tuple[tuple[str, ...], ...] = ()) -> str:
    """The text with each correction put in place of what it corrects (an enum's option, of the `options` of each)."""
    for _ in range(3):  # "7, no, 8, sorry, 9": a few in a row at most
        if not (mark := MARK.search(text)) or not (fix := VALUE.match(text, mark.end())):
            return text
        before, value, end = text[: mark.start()], ENDING.sub("", fix[0].strip(" \u2060")), fix.end()
        if (put := _in_place(before, value, options)) is None and (then := THEN.match(text, end)) and (
                fix := VALUE.match(text, then.end())):  # "25 sq ft, no wait, that won't fit the sofa, make it 50"
            put, end = _in_place(before, ENDING.sub("", fix[0].strip()), options), fix.end()
        if put is None:
            return text
        text = put + ("" if re.match(r"[\s,;.!?，；。]|$", text[end:]) else " ") + text[end:]
    return text


def _in_place(before: str, value: str, options: tuple[tuple[str, ...], ...] = ()) -> str | None:
    """`before` with `value` in place of what it corrects, or None when nothing there is of its kind."""
    for said in options:  # "softwood, actually make that the seasoned hardwood": another option of the same enum
        new = [o for o in said if re.search(rf"(?i)\b{re.escape(o)}\b", value)]
        if len(new) == 1 and (old := [m for o in said if o != new[0] for m in re.finditer(rf"(?i)\b{re.escape(o)}\b", before)]):
            last = max(old, key=lambda m: m.start())
            return before[: last.start()] + new[0] + before[last.end():]
    theirs, joined, at = find(before), f"{before}, {value}", len(before) + 2
    if mine := [s for s in find(joined) if s.start >= at]:  # read after the words before: "in Leeds, sorry, York"
        put, rest, taken = before, value, set()  # rest: the value's words no value before takes ("8pm for 4 people")
        for span in sorted(mine, key=lambda s: -s.start):  # from the end, so that each place is still where it was
            said = str(span.value) if span.kind == "time" and CLOCK.fullmatch(str(span.value)) else joined[span.start:span.end]
            if span.kind == "number" and float(span.value) < 24 and _a_time(theirs) and BARE.match(joined, span.end) and (
                    re.fullmatch(r"(?i)\s*(?:at|around|about)?\s*", joined[at:span.start])):  # "at 7pm, no, 8": the hour
                span, said = replace(span, kind="time", value=f"{int(span.value):02d}:00"), f"{int(span.value):02d}:00"
            prior = [s for s in theirs if NAMES.get(s.kind, s.kind) == NAMES.get(span.kind, span.kind)]
            codes = [s for s in theirs if s.kind == "code" and re.search(rf"\d{{{len(said)}}}$", before[s.start:s.end])]
            if not prior and said.isdigit() and codes:  # "ref AB1234, sorry, 1243": the code's digits typed again
                prior, said = codes, before[codes[-1].start:codes[-1].end - len(said)] + said
            if not prior or prior[-1].start in taken:  # a value new to the request ("8pm for 4 people"): said as well
                continue
            if span.kind == "time" and str(prior[-1].value) >= "12" > str(span.value) and not re.search(r"(?i)am|morning", said):
                said = f"{int(str(span.value)[:2]) + 12}:{str(span.value)[3:]}"  # "at 7pm, no, 8": 8 in the evening too
            put, taken = put[: prior[-1].start] + said + put[prior[-1].end:], taken | {prior[-1].start}
            rest = rest[: LED.search(rest[: span.start - at]).start()] + rest[span.end - at:]
        rest = rest if find(rest) else ""  # "6 people": no other value in it, no word of it left
        return None if put == before else f"{put.rstrip(' ,')} {rest.strip(' ,')}".rstrip()
    restated = value.split()  # "morning slot, sorry, afternoon slot": the words before the head both share
    head = rf"(?i)(?:\S+\s+){{{len(restated) - 1}}}{re.escape(restated[-1])}\b"
    if shared := [*re.finditer(head, before)][-1:] if len(restated) > 1 else []:
        return before[: shared[0].start()] + value + before[shared[0].end():]
    lead, core = (m[0], value[m.end():]) if (m := LEADS.match(value)) else ("", value)
    opens = [m.end() for m in re.finditer(rf"(?i)\b{re.escape(lead.strip())}\s+", before)] if lead else []
    cjk = re.fullmatch(r"[\u4e00-\u9fff]+", core)  # a Chinese name the dictionary does not know: the last word's place
    if not core or len(core.split()) > 3 or not (opens or cjk):
        return None
    kept, size = before.rstrip(" ,"), len(core.split())
    start = opens[-1] if opens and len(before[opens[-1]:].split()) > size else len(kept) - len(kept.split()[-1])
    return f"{kept[:start]}{' '.join(kept[start:].split()[:-size] if opens else [])} {core}".replace("  ", " ")


def named_value(schema: dict, previous: dict, asked: str) -> dict:
    """A free text, as written to its end, for the parameter the message names by its hint's words ("change the title to
    Q3 plan"; in Chinese as a first request reads "标题是…") or by its old value ("not Tom, Sara"; "不是他，是小李")."""
    properties = schema.get("properties") or {}
    free = {n: s for n, s in properties.items() if json_type(s) == "string" and "enum" not in s and role_of(n, s)[0] in FREE}
    for said in filter(None, (pattern.search(asked) for pattern in NAMED)):
        fits = [n for n, spec in free.items() if set(english(said["name"]).lower().split()) & hint_of(n, spec)]
        if len(fits) == 1 or is_chinese(said["name"]):
            return {fits[0]: said["v"]} if len(fits) == 1 else framed(f"{said['name']}是{said['v']}", free, set())
    for said in filter(None, (pattern.search(asked) for pattern in REPLACED)):
        old = said["old"].strip().lower()
        fits = [n for n in free if str(previous.get(n, "")).lower() == old
                or old in TOLD["person_pronouns"] and n in previous and kind_of(schema, n) == "person"]
        new = SAID_AROUND.sub(" ", said["v"]).strip()
        if len(fits) == 1:
            return {fits[0]: new}  # "sorry I meant Leeds, not York": Leeds
        part = re.compile(rf"(?<![a-z0-9]){re.escape(old)}" + "(?![a-z0-9])" * bool(re.search(r"[a-z0-9]$", old)))
        parts = [n for n, v in previous.items() if isinstance(v, str) and part.search(v.lower()) and "enum" not in (
            properties.get(n) or {})]
        if len(parts) == 1:  # "it's 41 Meadow Road, not 14", "是5号，不是3号": a part of a longer value
            return {parts[0]: _within(previous[parts[0]], new, part.search(previous[parts[0]].lower()))}
    return {}


def _within(whole: str, new: str, old: re.Match) -> str:
    """`whole` with its part `old` said anew: "14 Meadow Road, Kendal" with "41 Meadow Road" for "14" is "41 Meadow Road,
    Kendal" (the words the new value repeats are said once)."""
    rest = whole[old.end():]
    repeated = next((k for k in range(len(new) - 1, 1, -1) if rest.lower().startswith(new[-k:].lower())), 0)
    return whole[: old.start()] + new + rest[repeated:]
