"""Which fields of a JSON object a person asked about, and how each reads in a sentence.

A weather API answers with ten fields; "How humid is it?" asks about one of them. A field is chosen when the
question names it, or its value ("Is it raining?" and `"condition": "rain"`), closely before loosely ("humid"
is "humidity"; "weather" is only a synonym of it); when the question names none, the first few are said. A
field that only says back the call's own input is left out.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from agentkit.offline import lexicon, reading, wording
from agentkit.offline.language import is_chinese
from agentkit.offline.wording import MOMENT, PLACES, STATUS_ZH, WORDING, YES_NO_ZH, Language, join, label, one, place, value_text

ASKS_WHEN, ASKS_COST = (re.compile(WORDING[asks], re.IGNORECASE) for asks in ("asks_when", "asks_cost"))
MONEY, FRACTIONS, LEADING, NOW, BY, OWED, QUIET, AFTER_COUNT, STATE_AT, HEDGES = (frozenset(WORDING[k]) for k in (
    "money", "fractions", "leading", "now", "by", "owed", "quiet", "after_count", "state_at", "hedges"))
FIELDS = lexicon.words("words")["fields"]
NAMING, STATES, YES_NO = FIELDS["naming"], frozenset(FIELDS["states"].split()), FIELDS["yes_no"]
"""Fields that say which item of a list a row is, in this order of preference; fields whose word is what the thing is
("in transit", "shipped"): said as "it is in transit"; first words of a question that asks yes or no."""
HOW_MANY = re.compile(FIELDS["how_many"], re.IGNORECASE)
"""'how many unread messages do I have?', '我有几条未读消息？', '还剩多少钱？': a count asked for, and what it counts."""


class Fact(NamedTuple):
    """One field for a sentence: its name as words, its value as words, and the value itself."""

    name: str
    said: str
    value: Any = None
    key: str = ""


def _echoes(value: Any, given: tuple) -> bool:
    """Whether a field's value is the call's own input said back: the value itself, or a longer form of a name the call
    was given ("Dishoom Shoreditch" for "Dishoom")."""
    if isinstance(value, bool):
        return False
    return value in given or isinstance(value, str) and any(
        isinstance(g, str) and len(g) > 2 and re.search(rf"(?<!\w){re.escape(g)}(?!\w)", value, re.I) for g in given)


def fields(value: dict, question: str, language: Language, full: bool, given: tuple = (), topic: str = "") -> list[Fact]:
    """(label, value as words) for the fields a person asked about: those whose name or value the question names,
    else the first few; every field when the system prompt asks for detail. Fields that only say back the call's
    own input (`given`) are left out; `topic`, the tool's subject in Chinese, names no field in particular."""
    flat: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, dict):  # one level down: {"main": {"temp": 21}} -> "main temp"
            flat.update({key if k in ("amount", "value") else f"{key}_{k}": v for k, v in item.items()  # "price": {"amount"}
                         if not isinstance(v, (dict, list))})
        elif not isinstance(item, list) or all(not isinstance(v, (dict, list)) for v in item):
            flat[key] = item
        else:  # a list of objects: each said by its name and the rest ("Mon (20°C)")
            flat[key] = "; ".join(row(v, question, language) for v in item[:12])
    units = _currencies(flat)
    asked = set(reading.words(question)) - {w for g in given for w in reading.words(str(g))}  # "in savings" chose the call
    identifying = {k for k in flat if set(reading.split_name(k)) & QUIET or str(flat[k]).startswith("http")}
    echoed = {k for k, v in flat.items() if _echoes(v, given)}

    def named(key: str, loosely: bool, by: str) -> bool:
        if key in echoed and isinstance(flat[key], str) or key in identifying and not asked & set(reading.split_name(key)[-1:]):
            return False  # a name the call was given said back ("Dishoom Shoreditch" for "Dishoom"), an id not asked for
        names = {reading.stem(w) for w in label(key, "en")[0].split() + reading.split_name(key)} if by != "value" else set()
        key_words = names | (set(reading.words(str(flat[key]))) if by != "name" and key not in echoed else set())
        near = reading.related if loosely else reading.close
        zh_label = label(key, "zh")[0]
        return any(near(a, k) for a in asked for k in key_words) or by != "value" and bool(
            zh_label and zh_label in question and zh_label not in topic)

    # a field the question names comes first, then one whose value it names ("Is it raining?": condition "rain"), then
    # one it names loosely ("weather": temperature, condition)
    chosen = next(([k for k in flat if named(k, loose, by)] for loose, by in ((False, "name"), (False, "value"), (True, ""))
                   if any(named(k, loose, by) for k in flat)), [])
    # "when does it leave and what did it cost?": the date-times and the money, whatever their fields are called
    chosen += [k for k, v in flat.items() if k not in chosen and (ASKS_WHEN.search(question) and MOMENT.search(str(v)) or
               ASKS_COST.search(question) and set(reading.split_name(k)) & MONEY and not isinstance(v, str))]
    chosen = [] if all(reading.split_name(k)[0] in LEADING for k in chosen) else chosen  # "from_size" alone says little
    yes_no = question.split()[:1] and question.split()[0].lower() in YES_NO  # "has it left?": its status first
    chosen = [k for k in flat if chosen and yes_no and set(reading.split_name(k)) & STATES and k not in chosen][:1] + chosen
    if full or not chosen:
        reference = [k for k in flat if full and k in identifying and re.fullmatch(r"[A-Z]+[-\d][A-Z\d-]*\d", str(flat[k]))][:1]
        reference += [k for k in flat if full and str(flat[k]).startswith("http")][:1]  # a meeting's link, a label's
        chosen = [*(k for k in flat if k not in identifying | echoed and flat[k] is not None or k in chosen),  # not "none"
                  *reference][: len(flat) if full else 4]
    shown = []
    for key in chosen:
        (name, unit), value = label(key, language, units.get(key, "")), flat[key]
        said = place(value, language) if set(reading.split_name(key)) & PLACES and isinstance(value, str) else None
        if not unit and type(value) in (int, float) and set(reading.split_name(key)) & FRACTIONS:  # humidity 0.3: 30%
            value, unit = round(value * 100, 2) if isinstance(value, float) and 0 <= value <= 1 else value, "%"
            value = int(value) if value == int(value) else value  # 0.3 is 30%, not 30.0%
        shown.append(Fact(name, said or value_text(value, language, units.get(key, unit)), flat[key], key))
    return [fact for fact in shown if not (units and fact.key.endswith("currency"))]


def _currencies(flat: dict[str, Any]) -> dict[str, str]:
    """{"balance": 2450.75, "currency": "USD"}: an amount's unit is the currency beside it ("2450.75 USD"), said once."""
    units = {}
    for key, currency in flat.items():
        prefix = key.removesuffix("currency").rstrip("_")
        amount = next((k for k, v in flat.items() if k.startswith(prefix) and isinstance(v, float | int)
                       and not isinstance(v, bool)), None) if key.endswith("currency") and isinstance(currency, str) else None
        units |= {amount: currency} if amount else {}
    return units

def row(item: Any, question: str, language: Language) -> str:
    """One item of a list: a value, or an object by its name and one more field ("Dune (1965)"), or by its first
    value and the others ("high (06:12, 5.1 m)"); never its keys."""
    if not isinstance(item, dict):
        return value_text(item, language)
    key = next((k for n in NAMING for k in item if reading.split_name(k)[-1:] == [n]), None)
    said = [_yes_no(f.name, f.value, language, f.key) if isinstance(f.value, bool) else f"{f.name} {f.said}" if re.fullmatch(
        r"-?[\d,.]+|\S+ min", f.said) and f.name and f.key != "year" and not (language == "zh" and re.search("[A-Za-z]", f.name))
            else f.said for f in fields({k: v for k, v in item.items() if k != key}, question if key else "", language, False)]
    said = [s for s in said if s]  # "(not done)", "（未完成）"; a yes/no whose name Chinese lacks is left out
    head, rest = (str(item[key]), said[:1]) if key else (said[0] if said else "", said[1:])
    if any("(" in r or "（" in r for r in rest):  # "Standup, 10:30 (Monday, …)": no brackets in brackets
        return ("，" if language == "zh" else ", ").join([head, *rest])
    return f"{head}（{'，'.join(rest)}）" if rest and language == "zh" else f"{head} ({', '.join(rest)})" if rest else head


def sentence(facts: list[Fact], question: str, where: str, language: Language, done: str) -> str:
    """Facts as a sentence a person says, after what an action did (`done`: "Logged", "已记录"; "" for a lookup): states
    and yes/no fields as what it is ("it is in stock"), a place as where it is, fields named after a verb as what it does
    ("it opens at 09:00"), the rest by their names ("the weight is 12 kg")."""
    states, places, doing, nouns, counts, marks = [], [], [], [], [], []
    for fact in facts:
        words, key = fact.name.split(), set(reading.split_name(fact.key))
        clock = re.fullmatch(r"\d{1,2}:\d{2}", fact.said) or MOMENT.match(str(fact.value))  # a time or a date
        if isinstance(fact.value, bool) and language == "en" and len(words) > 1 and words[-1].endswith("ed") and words[0] != "is":
            doing.append(f"{'' if fact.value else 'no '}{' '.join(words[:-1])} is {words[-1]}")  # "no permit is needed"
        elif isinstance(fact.value, bool):  # "toxic to pets": an English name is never pasted into a Chinese answer
            states += [said for said in [_yes_no(fact.name, fact.value, language, fact.key)] if said]
        elif key & STATES and isinstance(fact.value, str) and len(fact.said) <= 30:
            states.append(STATUS_ZH.get(fact.said.lower(), fact.said) if language == "zh" else fact.said.lower())
        elif key & {"name", "title"} and not states and isinstance(fact.value, str):  # "who is on call?": it is Priya
            states.append(f"是{fact.said}" if language == "zh" else fact.said)
        elif key & PLACES and isinstance(fact.value, str):
            places.append(fact.said)
        elif language == "en" and type(fact.value) is int and fact.name in AFTER_COUNT:  # "there are 3 left"
            nouns += [] if counts else [counts]
            counts.append(f"{fact.said} {fact.name}")
        elif language == "en" and clock and words and words[-1] in STATE_AT and set(words[:-1]) <= HEDGES | STATE_AT:
            hedged = set(words[:-1]) & HEDGES  # "it should be ready on Thursday, 14 January", "it is due back on …"
            named = " ".join(w for w in words if w not in HEDGES | {"time"})
            state = f"{'should be' if hedged and named else 'is'} {named + ' ' if named else ''}"
            at = "at about" if hedged and not named else "at" if ":" in fact.said else "on"  # approx_time: "at about 10:15"
            doing.append(f"it {state}{at} {fact.said}")
        elif words == [fact.key] and re.fullmatch(r"\w+[^s]s", fact.key) and clock and language == "en":
            doing.append(f"it {fact.key} {'at' if ':' in fact.said else 'on'} {fact.said}")  # "departs": "it departs at 07:45"
        elif len(words) > 1 and words[-1] in ("at", "on", "in", "by", "until", "from", "to") and language == "en":
            first = words[0]  # "it opens at 09:00", "it was delivered on …", "it will be ready in 7 min", "it is due on …"
            be = "was " if first.endswith("ed") else "" if first.endswith("s") else "will be " if words[-1] == "in" else "is "
            # a deadline: "return_by" is "return it by 11:40", "decision_by" (a noun's ending) "the decision is due by …"
            noun = re.search(r"(?:ion|ment|[ae]nce|al|ure)$", first)
            verb = words[-1] == "by" and clock and first not in STATE_AT and not first.endswith("ed")  # "signed by J. Ito"
            doing.append((f"the {' '.join(words[:-1])} is due by" if noun else f"{first} it {' '.join(words[1:])}") + (
                f" {fact.said}") if verb else f"it {be}{fact.name} {fact.said}")
        elif language == "en" and (re.fullmatch(r"[a-z]+ed", fact.key) or words[:1] and words[0] in LEADING or key & BY):
            at = ("at " if ":" in fact.said else "on ") if clock else ""  # "scheduled at 11:35", "moved 50", "from bills"
            marks.append(f"by {fact.said}" if key & BY else f"{words[0]} {fact.said}" if words[0] in LEADING else
                         f"{fact.key} {at}{fact.said}")  # a channel is how: "by sms"
        elif language == "en" and type(fact.value) is int and _plural(words[0] if words else ""):  # "there are 4 readings"
            nouns += [] if counts else [counts]  # said together, where the first count is: "there are 21 lifts open and 25 …"
            counts.append(" ".join([fact.said, one(words[0]) if fact.value == 1 else words[0], *words[1:]]))
        elif language == "en" and {"every", "each"} & set(words) and type(fact.value) in (int, float):
            at = next(i for i, w in enumerate(words) if w in ("every", "each")) + 1  # "water every 7 days", "every day"
            nouns.append([*words[:at], *(map(one, words[at:]) if fact.value == 1 and words[at:] else [fact.said, *words[at:]])])
        elif key & OWED and type(fact.value) in (int, float) and fact.value < 0:  # "you owe 35.2", "还欠 35.2 元"
            owed = wording.say("owe", language, now="now " * bool(key & NOW), amount=fact.said.replace("-", "", 1))
            (states if language == "zh" else doing).append(owed)
        else:
            now = language == "en" and words[1:] and words[-1] in NOW  # balance_after: "the balance is now 310.2"
            nouns.append((" ".join(words[:-1]), f"now {fact.said}") if now else (fact.name, fact.said))
    if len(facts) == 1 and re.fullmatch(r"[\d,.]+", facts[0].said) and (counted := how_many(question, facts[0].said, language)):
        return counted
    if language == "zh":
        # a fact whose name the table could not put in Chinese is left out ("4" alone says nothing), never an English
        # key; where it is all there is, its value alone
        named = [f"{n}是{'' if v[:1] == '“' or is_chinese(v[:1]) else ' '}{v}" if n else v
                 for n, v in nouns if not re.search("[A-Za-z]", n)]
        parts = states + [f"在{p}" for p in places if p != where.strip()]  # "北京：晴" says where once
        parts += named if named or states or places or done else [v for _, v in nouns]
        lead = f"{done}：" if done else (where.strip() + "：" if where.strip() else "")
        lead = lead or ("" if is_chinese("".join(parts)) else "结果是 ")  # "7" alone is not yet a Chinese sentence
        return f"{lead}{'，'.join(parts)}。" if parts or not done else f"{done}。"  # never "已删除：。"
    said = f"it is {join(states, 'en')}" if states else ""
    said += f"{' ' if said else 'it is '}in {join(places, 'en')}" if places else where if said else ""
    said, marks = (said + "".join(f", {m}" for m in marks), []) if said else (said, marks)  # "it is late, expected at 9:10"
    # each value with its name, as a person says it: "the weight is 12.4 kg and the species is dog"
    counts[:] = [f"there {'is' if counts[0].startswith('1 ') else 'are'} {join(counts, 'en')}"] if counts else []
    said = join([part for part in (said, *marks, *(" ".join(noun) if isinstance(noun, list) else
                                          f"the {noun[0]}{'' if said or i else where} {'are' if _plural(noun[0]) else 'is'} "
                                          f"{noun[1]}" if noun[0] else f"it is {noun[1]}" for i, noun in enumerate(nouns)),
                                   *doing) if part], "en")
    if done:  # what it did, then how or where from: "Sent to Mum by sms.", "Moved 80 from bills"; else "Logged: …"
        return f"{done}{' ' if said.split(' ', 1)[0] in LEADING | {'by'} else ': '}{said}."
    if facts and isinstance(facts[0].value, bool) and question.split()[:1] and question.split()[0].lower() in YES_NO:
        said = f"{'Yes' if facts[0].value else 'No'}, {said}"
    return wording.sentence_end(f"{said[:1].upper()}{said[1:]}", "en")  # "The translation is Wo ist der Bahnhof?"


def _yes_no(name: str, value: bool, language: Language, key: str = "") -> str:
    """ "in stock" / "not in stock", "已确认" / "未确认", "有库存" / "没有库存", "done": "已完成" / "未完成"."""
    if language == "zh":
        name = STATUS_ZH.get(key) or "".join(w for w in name.split() if w not in ("is", "has", "in"))
        if (pair := YES_NO_ZH.get(key.removeprefix("is_"))) or re.search("[A-Za-z]", name):  # 开着 / 没开, 在线 / 不在线
            return pair[not value] if pair else ""
        if name.startswith(("已", "可")):  # 已确认 / 未确认, 可用 / 不可用
            return name if value else ("未" + name[1:] if name.startswith("已") else "不" + name)
        return ("有" if value else "没有") + name
    return name.removeprefix("is ") if value else f"not {name.removeprefix('is ')}"


def _plural(name: str) -> bool:
    """ "the temperatures are", "the status is": a plural English name, not one that only ends in s."""
    name = re.split(r" (?:this|per|in|of|for|on|at|today|last|next|\()", name)[0]  # "the readings this week are"
    return name.endswith("s") and not name.endswith(("ss", "us", "is", "species", "series", "news"))


def how_many(question: str, number: str, language: Language) -> str | None:
    """A count said as the answer to "how many": "That's 7 unread messages." / "一共 7 条。"; None for other questions."""
    asked = HOW_MANY.search(question)
    if asked is None or "." in number:  # a count is whole: "8.5" answers "多少" as a measure, not as "一共"
        return None
    what = (asked.group(2) or asked.group(3) if language == "zh" else asked.group(1)) or ""  # none: "一条都没有"
    said = FIELDS["counted"][language + "_none" * (number == "0")].format(number=number, what=what, measure=asked[2] or "点")
    return said.rstrip() + ("。" if language == "zh" else ".")
