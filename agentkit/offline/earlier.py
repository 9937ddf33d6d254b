"""Step 6, *converse* (continued): what the last turn's result and calls give the calls a new message plans.

- "that", "it", "the result" in a request to write ("now save that to summary.md") is the result the tools gave before:
  the content to write, not the words of the request.
- A call to another tool that points back ("book the first one", "把它取消了") takes what it lacks from the item of the
  last result it points at (or its one item), else from the last call's arguments.
- "the two nights after that": a stay that starts the day the last one ended; "the Friday after", "a week later",
  "下周同一天": a day counted from the last call's day.
- "在 笔记.txt 末尾加一行：买牛奶": a request in one sentence that takes two calls, the file read, then written back.
- A request answered in words (the model asked for a value, or read the details back to confirm them) is the last
  turn's call for the message after it: "Saturday at 10", "actually make it 4 people", "yes please".
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from agentkit.offline import conversation, reading
from agentkit.offline.choose import Offer, Planned, plan
from agentkit.offline.choose_fit import score
from agentkit.offline.clauses import THERE
from agentkit.offline.conversation import AFTER_THAT, BACK, FOLLOWS_ON, ISO_DATE, ORDINALS, PICKED, WORDS, Conversation, PastCall
from agentkit.offline.dates import UNIT_SECONDS, WEEKDAYS, units_named
from agentkit.offline.fill import fill
from agentkit.offline.language import is_chinese
from agentkit.offline.outputs import NUMBERED
from agentkit.offline.reading import message_text, split_name
from agentkit.offline.request import calls_in, parsed
from agentkit.offline.roles import json_type, kind_of, role_of
from agentkit.offline.spans import QUOTED, find
from agentkit.offline.vocabulary import english


def awaited(state: Conversation, messages: list[dict], offers: list[Offer]) -> Conversation:
    """The calls a request answered in words asks for (a value missing, or the details read back first), as the last
    turn's: the message after the answer gives the value or corrects one ("Saturday at 10", "actually make it 4")."""
    asked = max((at for at, m in enumerate(messages[:-1]) if m["role"] == "user"), default=-1)
    answered = messages[asked + 1:-1]  # nothing asked before, or the tools called for it: the state as it is
    if asked < 0 or not answered or any(m.get("tool_calls") or m["role"] != "assistant" for m in answered):
        return state
    planned = plan(message_text(messages[asked]), offers)
    return Conversation(tuple(PastCall(p.offer.name, p.arguments) for p in planned), (*state.before, *state.calls)) if (
        planned) else state


def with_earlier_result(planned: list[Planned], state: Conversation, question: str, offers: list[Offer]) -> list[Planned]:
    """What the last result gives a call: a text to write the question calls "that" or "it" (the whole result); what a
    call to another tool lacks ("book the first one", "把它取消了"), under its name (or as its "_id"), in the item of the
    result the message points at by its place (or its one item), else in the last call's arguments; in a message that
    follows on ("and the air quality there?" after the tides at Whitby), the last call's values of its kind, no text."""
    read = english(question)  # the question in English words, read once for "there" and "the 2nd one"
    last = state.calls_to(offers)[:1] if FOLLOWS_ON.search(question) or THERE.search(read) or CARRIES.search(
        question) and for_another_tool(planned, state, question) else []  # "the podiatrist too, the same morning"
    earlier, picked = state.last_result, PICKED.search(read)
    back = earlier is not None and BACK.search(QUOTED.sub(" ", question))  # "save that": the whole result is the text
    quoted = " ".join(m.group(0) for m in QUOTED.finditer(question))
    items = parsed(earlier or "null")
    items = next((v for v in items.values() if isinstance(v, list)), [items]) if isinstance(items, dict) else items
    items = [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []
    at = (ORDINALS.index(picked[1].lower()) - 1 if picked[1] else int(picked[2] or picked[3]) - 1) if picked else 0
    picked = picked if picked and -len(items) <= at < len(items) else None  # "on Sunday the 20th": no 20th item
    item = items[at] if (picked or len(items) == 1) and -len(items) <= at < len(items) else {}
    named = None if picked else _named_item(items, read)  # "the rainbow one", "11点的": an item by a value of its own
    said = {at + 1, 1 if picked[4] else at + 1} if picked else {1} if named else set()  # the numbers "the 2nd one" says
    item = named or item
    given = {**(state.calls[-1].arguments if state.calls else {}), **item} if picked or back or named else {}  # it, the 2nd one
    changed = []
    for call in _acting(planned, state, offers, item, question) if picked or named else planned:
        body = [n for n, spec in call.offer.properties.items() if back and role_of(n, spec)[0] == "body" and json_type(
            spec) in ("string", None) and not (isinstance(call.arguments.get(n), str) and call.arguments[n] in quoted)]
        stale = [n for n, v in call.arguments.items() if type(v) in (int, float) and v in said or picked and isinstance(
            v, str) and picked[0].lower() in v.lower() or (picked or named) and isinstance(v, str) and re.fullmatch(
            r"[a-z\s'-]+", v) and "enum" not in call.offer.properties.get(n, {}) and any(_keyed(n, k) for k in given)]
        # "the 2nd one" is no count of 2 or 1, "last one e-book" no title; "the sunset one": no harbour "one", it was Padstow
        found = {n: v for n in (*call.missing, *stale) for k, v in given.items() if _keyed(n, k)}
        found = {**found, body[0]: earlier} if body else found
        found |= {n: v for n, v in _carried(call, last).items() if n not in found}
        if given and (still := {n: p for n, p in call.offer.properties.items() if n in {*call.missing, *stale} - found.keys()}):
            found |= fill({"properties": still}, english(state.asked), guess=False)[0]  # "… for 3 of us", said before
        changed.append(Planned(call.offer, {**call.arguments, **found}, tuple(m for m in call.missing if m not in found),
                               call.clause) if found else call)
    return changed


def _carried(call: Planned, last: list[tuple[Offer, dict]]) -> dict[str, Any]:
    """What a call to another tool lacks, from the last call: its value of the same name or kind, or its one count for
    the call's one count ("archery for the same group" after climbing for 8: 8 archers)."""
    found = {}
    for offer, previous in ((o, p) for o, p in last if o.name != call.offer.name):
        counts = [[n for n, s in o.properties.items() if json_type(s) == "integer"] for o in (call.offer, offer)]
        found |= {n: v for n in call.missing for k, v in previous.items() if n == k or kind_of(call.offer.schema, n) == kind_of(
            offer.schema, k) != "text" or [n] == counts[0] and [k] == counts[1]}
    return found


def _keyed(name: str, key: str) -> bool:
    """A parameter a result's key fills: the same name, or one with more words ("start" for start_time, "id" for night_id)."""
    return name == key or name.endswith(f"_{key}") or key.endswith(f"_{name}") or name.startswith(f"{key}_")


def _named_item(items: list[dict], read: str) -> dict | None:
    """The one item of a result the message names by a value only it has: a word of it ("the rainbow one"), of a key
    that is true of it ("the beginners one": beginner_friendly) or its clock time ("11点的": 11:00)."""
    said, times = set(reading.words(read)), set(re.findall(r"\b\d{1,2}:\d\d\b", read))
    owns = [{w for k, v in item.items() for w in ((*reading.words(v), v) if isinstance(v, str) else reading.words(k) if v is True
                                                  else ())} for item in items]
    common = set.intersection(*owns) if owns else set()
    named = [item for item, own in zip(items, owns, strict=True) if (own - common) & (said | times | {f"0{t}" for t in times})]
    return named[0] if len(named) == 1 else None


def _acting(planned: list[Planned], state: Conversation, offers: list[Offer], item: dict, question: str) -> list[Planned]:
    """A search again, for a message that picks an item of its result ("the beginners one, for 3"), is a call to the
    offered tool that acts on the item: the one that fits the message best among those taking one of its keys."""
    last = state.calls[-1].name if state.calls else None
    keys = {*item, *(state.calls[-1].arguments if state.calls else {})}
    acting = [o for o in offers if o.name != last and any(_keyed(n, k) for n in o.properties for k in keys)]
    names = {p.offer.name for p in planned}  # none, or the search again, alone or with the tool that acts on what it found
    if planned and last not in names or names - {last, *(o.name for o in acting)} or (
            not acting or ASKS_ITEM.match(question) or conversation.ASKS_ABOUT.search(question)):
        return planned  # "is the second one late?" asks about it
    return plan(question, [max(acting, key=lambda o: score(o, english(question)))], "required") or planned  # read once: cached


def after_the_last(planned: list[Planned], state: Conversation, asked: str) -> list[Planned]:
    """ "and the two nights after that": from the day the last stay ended (its first day plus its days or nights)."""
    last = dict(state.calls_to([p.offer for p in planned]))
    ended = {offer: _ended(args) for offer, args in last.items()} if AFTER_THAT.search(asked) else {}
    return [Planned(p.offer, p.arguments | ended.get(p.offer, {}), p.missing, p.clause) for p in planned]


def for_another_tool(planned: list[Planned], state: Conversation, question: str) -> bool:
    """The message names the tool of a call it plans by a word of its name the last call's tool does not have ("also get
    him in with the podiatrist" after an eye test): a request of its own, never the last call again."""
    said, last = set(reading.words(english(question))), {w for c in state.calls for w in split_name(c.name)} | PLAIN
    return bool(planned and state.calls) and any(said & (p.offer.name_words - last) for p in planned)


CARRIES, PLAIN = re.compile(WORDS["carries_over"], re.I), set(WORDS["plain_name_words"].split())
ASKS_ITEM = re.compile(r"\s*(?:is|are|was|were|does|do|did|what|which|how|when|where|why)\b", re.I)  # about it, no request
ANCHORED = [(re.compile(pattern, re.I), days) for pattern, days in WORDS["anchored_days"]]
WEEKDAY_AFTER = [re.compile(pattern, re.I) for pattern in WORDS["weekday_after"]]


def on_the_last_day(said: str, state: Conversation) -> str:
    """ "the Friday after", "a week later", "下周同一天": a day said from the last call's day, written as that day."""
    if not any(pattern.search(said) for pattern in (*(p for p, _ in ANCHORED), *WEEKDAY_AFTER)):
        return said  # most messages count no day: the last call's arguments are not read for them
    last = next((day for call in state.calls for v in call.arguments.values() if (day := _day(v))), None)
    on = "{0.year}年{0.month}月{0.day}日" if is_chinese(said) else " on {0} "  # "那天下午": a day as the message writes one
    for pattern, days in ANCHORED if last else ():
        said = pattern.sub(lambda m, days=days: on.format(last + dt.timedelta(days=days)), said)
    for pattern in WEEKDAY_AFTER if last else ():  # the first such weekday after the last call's day
        said = pattern.sub(lambda m: on.format(last + dt.timedelta((WEEKDAYS.index(m['day'].lower()) - last.weekday()) % 7 or 7)),
                           said)
    return said


def _day(value: Any) -> dt.date | None:
    """A day an earlier call was given ("2027-05-07", "2027-05-07T09:00"); None for any other value, or one no calendar
    has ("2027-02-30": a call the learner wrote into the history may hold one)."""
    try:
        return dt.date.fromisoformat(value[:10]) if isinstance(value, str) and ISO_DATE.match(value) else None
    except ValueError:
        return None


def _ended(previous: dict) -> dict:
    days = [v for n, v in previous.items() if type(v) is int and units_named(set(split_name(n))) == [UNIT_SECONDS["day"]]]
    day = next((n for n, v in previous.items() if isinstance(v, str) and ISO_DATE.fullmatch(v)), None)
    return {day: (dt.date.fromisoformat(previous[day]) + dt.timedelta(days=days[0])).isoformat()} if day and days else {}


APPEND, PREPEND, GOES_ON, NOTHING_IN, NO_FILE = (re.compile(WORDS[name], re.I) for name in (
    "append_line", "prepend_line", "goes_on", "nothing_in", "no_file"))
"""A request in one sentence that takes two calls, read the file then write it back with a line added at its end or
its top (group 1 the file, group 2 the line); and what a read result says: more than it shows, nothing, no file."""


def next_step(question: str, messages: list[dict], offers: list[Offer]) -> Planned | None:
    """The next call of a request that takes steps: the read first; once it is read (the last message, its result),
    the write. A file shown only in part is never written back (what was not shown would be lost); a file that does
    not exist yet is written with the new line alone."""
    reader = next((o for o in offers if "read" in split_name(o.name) and "path" in o.schema.get("properties", {})), None)
    writer = next((o for o in offers if {"path", "content"} <= set(o.schema.get("properties") or {})), None)
    asked = english(question) if messages[-1]["role"] == "tool" else with_earlier_file(english(question), messages)
    found = APPEND.search(asked) or PREPEND.search(asked)
    if messages[-1]["role"] != "tool":
        return Planned(reader, {"path": found.group(1)}) if found and reader and writer and "." in found.group(1) else None
    calls = Conversation.of([*messages, {"role": "user"}]).calls
    one_read = found and writer and reader and len(calls) == 1 and calls[0].name == reader.name  # the read, not yet written
    lines, line = (_lines_read(calls[0].result), found.group(2).strip('"')) if one_read else (None, "")
    if lines is None:
        return None
    text = "\n".join([line, *lines] if found.re is PREPEND else [*lines, line]) + "\n"
    return Planned(writer, {"path": calls[0].arguments.get("path"), "content": text})


def _lines_read(result: str) -> list[str] | None:
    """What a read result says the file holds, line by line, as a person reads it: no lines when it is empty or
    does not exist yet; None when it failed otherwise or shows only part of the file."""
    if result.startswith("Error:") or GOES_ON.search(result):
        return [] if result.startswith("Error:") and NO_FILE.search(result) else None
    lines = result.splitlines()
    return NUMBERED.findall(result) or ([] if NOTHING_IN.search(result) and len(lines) == 1 else lines)


def with_earlier_file(question: str, messages: list[dict]) -> str:
    """ "count its lines", "edit that file": "it" is the file the last call worked on, when the question names none."""
    if any(s.kind == "path" for s in find(question)):
        return question
    for call in reversed(calls_in(messages[:-1])):
        arguments = conversation.arguments_of(call["function"].get("arguments"))
        if path := next((v for k, v in arguments.items() if isinstance(v, str) and role_of(k, {})[0] == "path"), None):
            return conversation.IT_FILE.sub(lambda m, path=path: f"{m[1]} {path}" if m[1] else path, question, count=1)
    return question
