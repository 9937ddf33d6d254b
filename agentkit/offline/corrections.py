"""Part of step 1: a value corrected in the same breath ("at 7pm, no wait, 8pm") put where the value it corrects was.

"book a court at 7pm, no wait, 8pm" is read as "book a court at 8pm": the value after the correction's words takes the
place of the last value of its kind before them (a time a time, a name a name); a correction with no value found by
pattern ("a large latte, sorry, a cappuccino") takes the place of as many words at the end of the phrase its first word
opens ("a large cappuccino"). Where nothing before is of its kind, the question is left as it is.
"""

from __future__ import annotations

import re
from dataclasses import replace

from agentkit.offline.lexicon import words
from agentkit.offline.spans import find

_SAID = words("choose")["clauses"]["correction"]
_ANY = rf"(?:{_SAID['strong']}|{_SAID['weak']})(?![a-z])"
MARK = re.compile(rf"(?:[,;.—–-][\s\u2060]*{_ANY}|(?<=\s)(?:{_SAID['strong']})(?![a-z]))(?:[\s,!.:—\u2060-]*{_ANY})*"
                  rf"[\s,!.:—\u2060-]*(?:{_SAID['then']})?", re.IGNORECASE)
ZH_MARK = re.compile(_SAID["zh"])
NAMES = {"zone": "proper"}  # "in Leeds, sorry, York": a place known by its zone, or a name
LEADS = re.compile(r"(?i)^(?:a|an|the|to|in|at|on|for|from|with|by)\s+")


def zh_marked(question: str) -> str:
    """ "晚上7点，不对，8点" -> "晚上7点, no wait, 8点": a Chinese correction in the words `corrected` reads."""
    return ZH_MARK.sub(", no wait, ", question)


def corrected(text: str) -> str:
    """The text with each correction put in place of what it corrects."""
    for _ in range(3):  # "7, no, 8, sorry, 9": a few in a row at most
        if not (mark := MARK.search(text)) or not (fix := re.match(r"[^,;.!?，；。]+", text[mark.end():])):
            return text
        before, value = text[: mark.start()], fix[0].strip(" \u2060")
        if (put := _in_place(before, value)) is None:
            return text
        text = put + text[mark.end() + fix.end():]
    return text


def _in_place(before: str, value: str) -> str | None:
    """`before` with `value` in place of what it corrects, or None when nothing there is of its kind."""
    theirs, joined = find(before), f"{before}, {value}"
    if mine := [s for s in find(joined) if s.start > len(before)]:  # read after the words before: "in Leeds, sorry, York"
        put, added = before, ""
        for span in sorted(mine, key=lambda s: -s.start):  # from the end, so that each place is still where it was
            said = joined[span.start:span.end]
            if value == said.strip() and said.isdigit() and int(said) < 24 and theirs[-1:] and theirs[-1].kind == "time":
                span = replace(span, kind="time", value=f"{int(said):02d}:00")
            prior = [s for s in theirs if NAMES.get(s.kind, s.kind) == NAMES.get(span.kind, span.kind)]
            codes = [s for s in theirs if s.kind == "code" and re.search(rf"\d{{{len(said)}}}$", before[s.start:s.end])]
            if not prior and said.isdigit() and codes:  # "ref AB1234, sorry, 1243": the code's digits typed again
                prior, said = codes, before[codes[-1].start:codes[-1].end - len(said)] + said
            if not prior:  # a value new to the request ("8pm for 4 people"): said as well
                added = f" {said}{added}"
                continue
            if span.kind == "time" and str(prior[-1].value) >= "12" > str(span.value) and not re.search(r"(?i)am|morning", said):
                said = f"{int(str(span.value)[:2]) + 12}:{str(span.value)[3:]}"  # "at 7pm, no, 8": 8 in the evening too
            put = put[: prior[-1].start] + said + put[prior[-1].end:]
        return None if put == before else put.rstrip(" ,") + added
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
