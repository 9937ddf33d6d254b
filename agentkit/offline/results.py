"""What one tool result says, in a sentence a person reads: the values they asked for, never the tool or its JSON.

The result's shape decides the sentence, tried in this order:

1. an `Error:` result        -> what went wrong, in plain words, and what to try ("errors" below);
2. a command's output        -> what the command printed, or how it failed;
3. a file read, a listing    -> "notes.txt has 3 lines: …", "2 files match: a.txt and b.md";
4. JSON (an object, a list)  -> the fields the question asks about, as words: "the temperature is 21 °C";
5. a date-time               -> "It's 22:53 in Tokyo (Friday, 4 December 2026)";
6. anything else             -> one sentence built from what the call was for ("The population of Lyon is 516,092").
"""

from __future__ import annotations

import json
import re
from typing import Any

from agentkit.offline import reading
from agentkit.offline.outputs import command_output, course_output, quoted
from agentkit.offline.wording import MOMENT, Language, join, label, moment, number, place, sentence_end, value_text

GETTING = {"get", "fetch", "calculate", "calc", "compute", "find", "lookup", "look", "check", "retrieve", "show",
           "query", "estimate", "measure", "count", "evaluate", "determine", "search", "current", "list"}
TOOLISH = {"calculator", "calc", "tool", "api", "info", "helper", "service", "data", "value", "by", "for", "of"}
SEARCHING = {"search", "query", "find", "lookup", "look"}
CONVERTING = {"convert", "converter", "conversion"}
PLACES = {"city", "location", "place", "country", "region", "where", "town", "area", "zone", "timezone", "tz"}
ACTIONS = {"send", "write", "create", "add", "set", "save", "delete", "remove", "move", "edit", "book", "schedule",
           "update", "run", "execute", "post", "upload", "cancel", "make", "start", "stop", "play", "open", "close",
           "reserve", "order", "buy", "log", "record", "register", "submit", "publish", "assign", "invite", "rename"}
READING = {"read", "open", "view", "cat", "load", "download"}
"""First words of a tool that hands back a text as it is: its answer quotes the text."""
CLOCK = {"time", "clock", "now", "date", "today", "day", "datetime"}
"""Words of a tool's name that make a date-time result "now": "It's 22:53 in Tokyo (…)"."""
NAMING = ("name", "title", "label", "city", "symbol", "id")
"""Fields that say which item of a list a row is, in this order of preference."""


def tell(name: str, arguments: dict[str, Any], result: str, question: str, language: Language, full: bool) -> str:
    """The sentence that says what `result` (the result of `name(**arguments)`) means for the question."""
    result = result.strip()
    zh = language == "zh"
    if result.startswith("Error:"):
        return error(result.removeprefix("Error:").strip(), language, name)
    command = next((v for k, v in arguments.items() if k in ("command", "cmd") and isinstance(v, str)), None)
    if command is not None or result.startswith("exit code:"):
        return command_output(command or "", result, language, full)
    shaped = course_output(result, language, full)
    if shaped:
        return shaped
    words = reading.split_name(name)
    parsed = _json(result)
    if parsed is not None:
        return _structured(parsed, words, arguments, question, language, full)
    if words[:1] == ["ask"]:
        return f"你的回答是：{sentence_end(result, language)}" if zh else f"You answered: {sentence_end(result, language)}"
    when = moment(result, language) if len(result) <= 80 and set(words) & CLOCK else None
    clock = re.match(r"\d{1,2}:\d{2}\b", result) if set(words) & CLOCK and len(result) <= 40 else None
    if clock and not when:
        where = _context(arguments, language, places_only=True)
        return f"{where}现在是 {clock.group(0)}。" if zh else f"It's {clock.group(0)}{where}."
    if words[:1] and words[0] in READING and "\n" not in result and len(result) <= 200:
        source = next((v for v in arguments.values() if isinstance(v, str) and len(v) <= 60), "")
        if zh:
            return f"{source + ' 的' if source else ''}内容是：{sentence_end(result, 'zh')}"
        return f"{source or 'It'} says: {sentence_end(result, 'en')}"
    if when:
        return _now(when, _context(arguments, language, places_only=True), language)
    if "\n" in result or len(result) > 200:
        return quoted(result, "结果如下：" if zh else "Here is what I found:", full)
    return _scalar(words, arguments, result, language)


def _now(when: tuple[str | None, str], where: str, language: Language) -> str:
    """ "It's 22:53 in Tokyo (Friday, 4 December 2026)." / "东京现在是 22:53（2026年12月4日星期五）。" """
    clock, date = when
    if language == "zh":
        return f"{where}现在是 {clock}（{date}）。" if clock else f"{where}是{date}。"
    return f"It's {clock}{where} ({date})." if clock else f"It's {date}{where}."


def error(message: str, language: Language, name: str = "") -> str:
    """An error in plain words, then what to try: the message says what was wrong, and often what is valid."""
    refused = re.match(r"refused by rule '([\w ]+)': (.*)", message, re.S)
    if refused:
        return _refused(refused.group(1), refused.group(2), language, name)
    lowered = message.lower()
    bug = re.search(r"internal error \((\w+)\)", message)
    if bug:  # a bug in the tool: the dispatcher's words are for the model; the person needs to know it is broken
        if language == "zh":
            return f"没能完成：这个工具本身有错误（内部错误 {bug.group(1)}），再试也没有用，需要修好工具。"
        return f"That didn't work: the tool itself is broken (an internal error, {bug.group(1)}), so trying again won't help."
    if re.search(r"not found|does not exist|no such|unknown|no match", lowered):
        advice = ("请检查名称是否正确，再试一次。", "Check the name and try again.")
    elif re.search(r"time(d)? ?out|unavailable|down|busy|rate limit|try again|503|502|500|429", lowered):
        advice = ("请稍后再试。", "Try again in a moment.")
    elif re.search(r"denied|not allowed|permission|forbidden|refused|outside", lowered):
        advice = ("这个操作在这里不被允许。", "That isn't allowed here.")
    elif re.search(r"should be|must be|one of|expected|invalid|valid", lowered):
        advice = ("请给我一个有效的值，我再试一次。", "Give me a valid value and I'll try again.")
    else:
        advice = ("请换个说法或换个值再试。", "You could try again with other details.")
    if language == "zh":
        return f"没能完成：{sentence_end(message, 'zh')}{advice[0]}"
    return f"That didn't work: {sentence_end(message, 'en')} {advice[1]}"


def _refused(rule: str, reason: str, language: Language, name: str) -> str:
    """A call the policy (chapter 07) stopped: the person's no, or a rule, said without the tool's name."""
    zh = language == "zh"
    if rule == "confirmation" and "did not allow" in reason:
        return "我没有执行：你没有同意，所以它没有运行。你想换成什么做法？" if zh else \
            "I didn't do that: you said no, so it did not run. What would you like me to do instead?"
    why = re.split(r"(?<=[.;])\s|\s\(", reason, maxsplit=1)[0].rstrip(".;")
    why = why.replace(f"'{name}'", "这个工具" if zh else "this tool") if name else why
    return f"我没有执行：规则“{rule}”不允许（{why}）。" if zh else f"I didn't do that: the {rule} rule does not allow it ({why})."


def _json(result: str) -> Any:
    if not result or result[0] not in "{[":
        return None
    try:
        return json.loads(result)
    except ValueError:
        return None


def _structured(value: Any, words: list[str], arguments: dict, question: str, language: Language, full: bool) -> str:
    """A JSON result as words: an object by the fields asked about, a list by its items."""
    zh = language == "zh"
    where = _context(arguments, language)
    if isinstance(value, dict) and len(value) == 1 and isinstance(next(iter(value.values())), (list, dict)):
        value = next(iter(value.values()))  # {"results": [...]}: the list is the answer
    if isinstance(value, list):
        if not value:
            return "没有找到结果。" if zh else "I found nothing."
        items = [_row(v, question, language) for v in value[: 12 if not full else len(value)]]
        items += [f"另外 {len(value) - len(items)} 个" if zh else f"{len(value) - len(items)} more"] * (len(value) > len(items))
        if zh:
            return f"找到 {len(value)} 个结果：{join(items, 'zh')}。"
        return f"I found {len(value)}{where}: {join(items, 'en')}." if len(value) > 1 else f"I found one{where}: {items[0]}."
    if not isinstance(value, dict):
        return _scalar(words, arguments, value_text(value, language), language)
    if not value:
        return "没有找到结果。" if zh else "I found nothing."
    where = _context(arguments, language, places_only=True)
    given = tuple(v for v in arguments.values() if isinstance(v, (str, int, float)))
    acting = bool(words) and words[0] in ACTIONS  # what an action made: every field says something (its number, state)
    topic = "".join(label(w, "zh")[0] for w in words)  # "天气" asks about the weather as a whole, not one field
    chosen = fields(value, question, language, full or acting, given, topic)[: None if full else 5]
    parts = [f"{name}{'为' if zh else ' is'} {said}" for name, said in chosen]
    if zh:
        lead = "已完成：" if acting else (where.strip() + "：" if where else "")
        return f"{lead}{'，'.join(parts)}。"
    said = join([f"the {p}" for p in parts], "en")
    if acting:
        return f"Done: {said}."
    return f"{where.strip()[0].upper()}{where.strip()[1:]}, {said}." if where else sentence_end(said[0].upper() + said[1:], "en")


def _close(a: str, b: str) -> bool:
    """The same word, or one the start of the other ("humid", "humidity"): closer than a synonym."""
    return a == b or len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a))


def fields(value: dict, question: str, language: Language, full: bool, given: tuple = (),
           topic: str = "") -> list[tuple[str, str]]:
    """(label, value as words) for the fields a person asked about: those whose name or value the question names,
    else the first few; every field when the system prompt asks for detail. Fields that only say back the call's
    own input (`given`) are left out; `topic`, the tool's subject in Chinese, names no field in particular."""
    flat: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, dict):  # one level down: {"main": {"temp": 21}} -> "main temp"
            flat.update({f"{key}_{k}": v for k, v in item.items() if not isinstance(v, (dict, list))})
        elif not isinstance(item, list) or all(not isinstance(v, (dict, list)) for v in item):
            flat[key] = item
    asked = set(reading.words(question))
    identifying = {k for k in flat if reading.split_name(k)[-1] in ("id", "uuid", "url", "href", "timestamp")}
    echoed = {k for k, v in flat.items() if v in given and not isinstance(v, bool)}  # the call's own input, said back

    def named(key: str, loosely: bool) -> bool:
        key_words = {reading.stem(w) for w in label(key, "en")[0].split() + reading.split_name(key)}
        key_words |= set(reading.words(str(flat[key]))) if key not in echoed else set()
        near = reading.related if loosely else _close
        zh_label = label(key, "zh")[0]
        return any(near(a, k) for a in asked for k in key_words) or (zh_label in question and zh_label not in topic)

    chosen = [k for k in flat if named(k, False)] or [k for k in flat if named(k, True)]
    if full or not chosen:
        chosen = [k for k in flat if k not in identifying | echoed or k in chosen][: len(flat) if full else 4]
    shown = []
    for key in chosen:
        name, unit = label(key, language)
        shown.append((name, value_text(flat[key], language, unit)))
    return shown


def _row(item: Any, question: str, language: Language) -> str:
    """One item of a list: a value, or an object by its name and one more field ("Dune (1965)")."""
    if not isinstance(item, dict):
        return value_text(item, language)
    key = next((k for n in NAMING for k in item if reading.split_name(k)[-1:] == [n]), None)
    if key is None:
        return ", ".join(f"{label(k, language)[0]} {v}" for k, v in fields(item, question, language, False))
    rest = [v for k, v in fields({k: v for k, v in item.items() if k != key}, question, language, False)][:1]
    return f"{item[key]} ({rest[0]})" if rest else str(item[key])


def _scalar(words: list[str], arguments: dict[str, Any], result: str, language: Language) -> str:
    """A short result said with what the call was for: a conversion, a value looked up, or an action done."""
    if re.fullmatch(r"-?\d+(\.\d+)?", result) or MOMENT.fullmatch(result):
        result = value_text(_number(result) if not MOMENT.fullmatch(result) else result, language)
    low = result.lower()
    if language == "en" and low in ("true", "yes", "false", "no"):
        return "Yes." if low in ("true", "yes") else "No."
    if language == "zh" and low in ("true", "yes", "false", "no"):
        return "是的。" if low in ("true", "yes") else "不是。"
    subject_words = [w for w in words[1 if words and words[0] in GETTING else 0:] if w not in TOOLISH]
    acting = bool(words) and words[0] in ACTIONS
    if words and words[0] in SEARCHING:  # what a search or a query found: "I found 3: A, B and C."
        items = [i.strip() for i in result.split("; ")] if "; " in result else []
        if language == "zh":
            return f"找到 {len(items)} 个结果：{join(items, 'zh')}。" if items else f"找到的结果：{sentence_end(result, 'zh')}"
        found = f"I found {len(items)}{_context(arguments, 'en')}: {join(items, 'en')}" if items else f"I found: {result}"
        return sentence_end(found, "en")
    if language == "zh":
        if acting:
            return f"已完成：{sentence_end(result, 'zh')}"
        subject = "".join(label(w, "zh")[0] for w in subject_words if w in _zh_known()) or "结果"
        where = _context(arguments, "zh")
        where = f"{where}{' ' if re.search(r'[A-Za-z0-9]$', where) else ''}的" if where else ""
        return f"{where}{subject}是 {sentence_end(result, 'zh')}"
    if set(words) & CONVERTING or "to" in words[1:-1]:
        return sentence_end(f"{_conversion(words, arguments)} is {result}", "en")
    if acting:
        return sentence_end(f"Done: {result[:1].lower() + result[1:] if result[1:2].islower() else result}", "en")
    subject = " ".join(label(w, "en")[0] for w in subject_words) or "answer"
    return sentence_end(f"The {subject}{_context(arguments, 'en')} is {result}", "en")


def _zh_known() -> set[str]:
    from agentkit.offline.wording import LABELS_ZH

    return set(LABELS_ZH)


def _number(text: str) -> float | int:
    return float(text) if "." in text else int(text)


def _context(arguments: dict[str, Any], language: Language, places_only: bool = False) -> str:
    """The arguments as a phrase: " in Tokyo" / "东京", " from Paris to London" / "从巴黎到伦敦", " for 16"."""
    places, ends, others = [], {}, []
    for key, value in arguments.items():
        key_words = set(reading.split_name(key))
        if isinstance(value, (dict, list)) or value is None or value == "" or isinstance(value, bool):
            continue
        if key_words & PLACES and isinstance(value, str):
            places.append(place(value, language))
        elif key_words & {"from", "origin", "source", "departure", "start"}:
            ends["from"] = place(str(value), language)
        elif key_words & {"to", "destination", "target", "arrival", "end"}:
            ends["to"] = place(str(value), language)
        elif places_only:
            continue
        elif isinstance(value, str):
            if " " not in value.strip() and len(value) <= 40:  # a file name or a unit, not a note's whole text
                others.append(place(value, language))
        elif len(arguments) == 1:
            others.append(number(value, language))
        else:  # several numbers say which is which: "principal 500, interest rate 5 and years 10"
            others.append(f"{label(key, language)[0]} {number(value, language)}")
    if language == "zh":
        phrase = "、".join(places)
        phrase += f"从{ends['from']}" if "from" in ends else ""
        phrase += f"到{ends['to']}" if "to" in ends else ""
        return phrase + (f"（{join(others, 'zh')}）" if others and not places_only else "")
    phrase = f" in {join(places, 'en')}" if places else ""
    phrase += "".join(f" {end} {ends[end]}" for end in ("from", "to") if end in ends)
    # "the square root of 16", but "the tip for 50 and 15", "the books for Herbert"
    alone = len(arguments) == 1 and not phrase and not isinstance(next(iter(arguments.values())), str)
    lead = " of" if alone else " for"
    return phrase + (f"{lead} {join(others, 'en')}" if others else "")


def _conversion(words: list[str], arguments: dict[str, Any]) -> str:
    """ "5 km" for convert(value=5, from_unit="km"), "30 celsius" for celsius_to_fahrenheit(celsius=30)."""
    amount = " ".join(str(v) for v in arguments.values() if isinstance(v, (int, float)) and not isinstance(v, bool))
    source = next((str(v) for k, v in arguments.items() if isinstance(v, str) and
                   set(reading.split_name(k)) & {"from", "source", "unit", "base"}), "")
    if not source and "to" in words:
        source = words[words.index("to") - 1]
    return " ".join(part for part in (amount, source) if part).strip() or "That"
