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

import re
from typing import Any

from agentkit.offline import lexicon, reading, wording
from agentkit.offline.fields import ASKS_COST, MONEY, STATES, fields, how_many, row, sentence
from agentkit.offline.language import is_chinese
from agentkit.offline.outputs import command_output, course_output, failure, quoted
from agentkit.offline.request import parsed as parsed_json
from agentkit.offline.wording import MOMENT, STATUS_ZH, Language, context, join, label, moment, say, sentence_end, value_text

(GETTING, TOOLISH, SEARCHING, CONVERTED, CONVERTING, ACTIONS, DONE, TO, DOING, LOOKUPS, READING, FAULTS, FAILED, FULL, CLOCK,
 GENERIC, KINDS, MEANINGS, OPENERS, ASKED) = (frozenset(lexicon.words("answers")["results"][table]) for table in (
    "getting", "toolish", "searching", "converted", "converting", "actions", "done", "recipients", "doing", "lookups",
    "reading", "faults", "failed", "full", "clock", "generic", "kinds", "meanings", "openers", "asked"))
"""The words of a tool's name (and of a result's field) that say what its result is: answers.toml's [results] says which."""
NOTHING = {language: (say("nothing_found", language), say("nothing_done", language)) for language in ("en", "zh")}
"""What an empty result says: nothing found by a lookup, or an action done."""
PAIR = re.compile(r"[\"']?([\w -]+?)[\"']?\s*:\s*[\"']?([^,\"']*)[\"']?")
"""A key and its value inside a dict printed in a text result: "'amount': 90"."""


def tell(name: str, arguments: dict[str, Any], result: str, question: str, language: Language, full: bool) -> str:
    """The sentence that says what `result` (the result of `name(**arguments)`) means for the question."""
    if (result := result.strip()).startswith("Error:"):
        return failure(result.removeprefix("Error:").strip(), language, name, tuple(str(v) for v in arguments.values()))
    command = next((v for k, v in arguments.items() if k in ("command", "cmd") and isinstance(v, str)), None)
    if command is not None or result.startswith("exit code:"):
        return command_output(command or "", result, language, full)
    if shaped := course_output(result, language, full):
        return shaped
    words = reading.split_name(name)  # recipes_by_ingredient finds recipes: what comes after "by" is what it is given
    words = words[: next((i for i, w in enumerate(words) if i and w in wording.WORDING["criteria"]), len(words))]
    if (parsed := parsed_json(result) if result[:1] in ("{", "[") else None) is not None:
        return _structured(parsed, words, arguments, question, language, full)
    if words[:1] == ["ask"] and set(words[1:2]) <= ASKED:  # ask_user: what the person answered
        return say("you_answered", language, answer=sentence_end(result, language))
    if _a_sentence(result, language):  # a helper agent's report, a tool that answers in words: said as it is
        return result
    when = moment(result, language) if len(result) <= 80 and set(words) & CLOCK else None
    clock = re.match(r"\d{1,2}:\d{2}\b", result) if set(words) & CLOCK and len(result) <= 40 else None
    if when or clock:  # "It's 22:53 in Tokyo." / "It's 22:53 in Tokyo (Friday, 4 December 2026)." / "东京现在是 22:53。"
        return say("now_dated" if when and when[0] else "today" if when else "now", language, clock=(when or clock)[0],
                   date=when and when[1], where=context(arguments, language, places_only=True))
    if words[:1] and words[0] in READING and "\n" not in result and len(result) <= 200:
        source = next((v for v in arguments.values() if isinstance(v, str) and len(v) <= 60), "")
        return say("reads", language, source=source or "It", of=source and f"{source} 的", text=sentence_end(result, language))
    if "\n" in result or len(result) > 200:
        return quoted(result, say("found_text", language), full)
    rest, echoed = _echoed(result, arguments)
    said = _scalar(words, arguments, rest, language, question)
    return said if all(v.casefold() in said.casefold() for v in echoed) else _scalar(words, arguments, result, language)


def _a_sentence(result: str, language: Language) -> bool:
    """Whether a text result is a whole sentence someone says, in the learner's language: it opens as a sentence does
    ("I didn't do that: ...", "There are three steps ...", "我已经写好了。") and ends as one, with four words at least."""
    zh = language == "zh"
    first = next((o for o in OPENERS if result.startswith(o)), "") if zh else re.match(r"[\w']*", result)[0].lower()
    long_enough = len(result) >= 6 if zh else len(result.split()) >= 4
    return first in OPENERS and long_enough and result[-1:] in ("。！？" if zh else ".!?") and is_chinese(result) == zh


def _acts(words: list[str]) -> str:
    """The verb of a tool that does something ("book_table", "order_pizza", "calendar_add": its verb first or last), not
    of one that looks up its state ("order_status"); "" for a lookup."""
    last = words[-1] if words and words[0] not in GETTING else ""  # "check_order" looks up; "calendar_add" adds
    verb = words[0] if words and words[0] in ACTIONS else last if last in ACTIONS else ""
    return verb if verb and words[-1] not in LOOKUPS else ""


def _echoed(result: str, arguments: dict[str, Any]) -> tuple[str, list[str]]:
    """The result without the argument it starts by repeating, and that argument: ("sunny, 21 C", ["Lisbon"]) for
    "Lisbon: sunny, 21 C" and city=Lisbon; a sentence that names the city already says it once, not twice."""
    head, separator, rest = result.partition(":")
    echoed = [v for v in arguments.values() if isinstance(v, str) and separator and rest.strip()
              and head.strip().casefold() == v.strip().casefold()][:1]
    return (rest.strip() if echoed else result), echoed


def _structured(value: Any, words: list[str], arguments: dict, question: str, language: Language, full: bool) -> str:
    """A JSON result as words: an object by the fields asked about, a list by its items."""
    zh = language == "zh"
    given = tuple(v for v in arguments.values() if isinstance(v, (str, int, float)))
    if isinstance(value, dict) and (said := _failed(value, words, given, question, language) or _means(value, given, language)):
        return said  # what went wrong, or what a word means
    lists = [k for k, v in value.items() if isinstance(v, list)] if isinstance(value, dict) else []
    # {"count": 3, "tides": [...]}: the list is the answer (beside it counts, the call's input); a sum, if cost is asked, after
    if len(lists) == 1 and all(isinstance(v, (int, float)) or v in given for k, v in value.items() if k not in lists):
        summed = {k: v for k, v in value.items() if ASKS_COST.search(question) and set(reading.split_name(k)) & MONEY}
        total = f"{'' if zh else ' '}{sentence(fields(summed, '', language, True), '', '', language, '')}" if summed else ""
        return _items(value[lists[0]], [*words, lists[0]], arguments, question, language, full) + total
    if isinstance(value, dict) and len(value) == 1 and isinstance(next(iter(value.values())), dict):
        value = next(iter(value.values()))  # {"person": {...}}: the object inside is the answer
    if isinstance(value, list):
        return _items(value, words, arguments, question, language, full)
    if not isinstance(value, dict):
        return _scalar(words, arguments, value_text(value, language), language, question)
    acting = _acts(words)  # what an action made: every field says something (its number, state)
    # what it did: a status or a flag that says so ({"status": "sent"}: "Sent to Mum", {"saved": true}), else its own
    # verb's past where answers.toml's status table has it: log -> "Logged" / "已记录"
    past = next((p for p in STATUS_ZH if acting and re.fullmatch(rf"{acting}{acting[-1]}?e?d", p)), "")
    flag = "" if past else next((k for k, v in value.items() if acting and (v is True and k in DONE or k in STATES
                                                                           and str(v).lower() in DONE)), "")
    past = past or (str(value[flag]).lower() if flag in STATES else flag)
    done = (STATUS_ZH[past] if zh else past.capitalize()) + _given(arguments, language) if past else \
        NOTHING[language][1].rstrip(".。") if acting else ""
    facts = {k: v for k, v in value.items()  # "Done" says it, a status "cancelled" beside "Cancelled", a flag "saved": true
             if k != flag and not ((v is True or v in given) and k in ("ok", "success", "done", past) or str(v).lower() == past
                                   or acting and v is True and k in DONE)}
    if not facts:  # {"ok": true}: done; {"deleted": true}: "Deleted."
        return sentence_end(done, language) if done else NOTHING[language][bool(value)]
    value = facts
    where = "" if re.fullmatch(r" (?:to|from) .+", where := context(arguments, language, True)) else where  # not "to the pier"
    topic = "".join(label(w, "zh")[0] for w in words)  # "天气" asks about the weather as a whole, not one field
    chosen = fields(value, question, language, full or acting, given, topic)[: None if full else 5]
    converted_names = CONVERTED | {label(w, "zh")[0] for w in CONVERTED}  # the field's name as the sentence labels it
    converted = next((f.said for f in chosen if not f.name or f.name.split()[0] in converted_names), None)
    if set(words) & CONVERTING and converted:  # {"converted": 92.31}: "100 USD is 92.31 EUR" / "100 USD 是 92.31 EUR"
        target = next((str(v) for k, v in arguments.items() if set(reading.split_name(k)) & {"to", "target"}), "")
        said = f"{_conversion(words, arguments)} {'是' if zh else 'is'} {converted} {target}".rstrip()  # "500 元 是 70.25 美元"
        named = wording.UNITS_ZH if zh else {}  # a currency's code in Chinese words: 美元, 欧元
        return sentence_end(re.sub(r"\b[A-Z]{3}(?![A-Za-z])", lambda m: named.get(m[0], m[0]), said), language)
    return sentence(chosen, question, where, language, done) if chosen else sentence_end(done, language) if done else \
        NOTHING[language][0]


def _given(arguments: dict[str, Any], language: Language) -> str:
    """ " 28 for groceries", " to Mum", "给小王": what an action was given, as a person repeats it ("Logged 28 for
    groceries", "Sent to Mum", "已发送给小王"); a Chinese sentence repeats no English."""
    zh = language == "zh"
    told = [("给" if zh else "to ") * (k in TO) + value_text(v, language) for k, v in arguments.items()
            if type(v) in (int, float) or isinstance(v, str) and len(v) <= 30
            and not re.search(r"[\n@A-Za-z]" if zh else r"[\n@]", v) and not moment(v, language)]
    pair = not zh and len(told) > 1 and re.fullmatch(r"[a-z]+", told[1]) and told[0][:1].isdigit()  # "28 for groceries"
    said = " for ".join(told[:2] if pair else told[:1])  # Chinese runs into a Chinese object: "已预订绿茶餐厅", "已记录 28"
    return ("" if zh and is_chinese(said[:1]) else " ") + said if said else ""


def _says_failed(key: str, value: Any, acted: str) -> bool:
    """A field that says the action failed: an error, "ok": false, {"booked": false} from book_room (`acted` is the
    stem "book"), "failed": true, a status "rejected" (or "full", "sold out" for a tool that acts)."""
    if value is False:
        return key in ("ok", "success") or bool(acted) and reading.stem(key).startswith(acted)
    if key in ("status", "state") and isinstance(value, str):
        return value.lower().replace("_", " ") in (FAILED | FULL if acted else FAILED)
    return key in FAULTS and bool(value) or key == "failed" and value is True


def _failed(value: dict, words: list[str], given: tuple, question: str, language: Language) -> str | None:
    """{"error": …}, "ok": false, a status "rejected": what went wrong ("I couldn't book it: no court is free at 09:00."),
    then what else the result offers ("The alternatives are 10:00 and 11:30."); None for a result that did not fail."""
    acted = reading.stem(_acts(words))[:4] if words and _acts(words) else ""
    if not (wrong := [k for k, v in value.items() if _says_failed(k, v, acted)]):
        return None
    why = next((k for k in (*FAULTS, "message", "reason", "detail") if value.get(k) and isinstance(value[k], str | list)), None)
    what = ("：" if language == "zh" else ": ") + value_text(value[why], language).rstrip(".。") if why else ""
    said = say("couldnt" if _acts(words) else "didnt_work", language, verb=_acts(words) or "".join(words[:1]),
                what=what)
    rest = {k: v for k, v in value.items() if k not in {*wrong, why, "ok", "success", "status", "state"} and v not in ([], "")}
    chosen = fields(rest, question, language, False, given) if rest else []
    return f"{said}{'' if language == 'zh' else ' '}{sentence(chosen, question, '', language, '')}" if chosen else said


def _means(value: dict, given: tuple, language: Language) -> str | None:
    """{"word": "sonder", "definitions": […]}: "Sonder means …; it can also mean …" / "“塞翁失马”的意思是：…"; else None."""
    senses = next(([v] if isinstance(v, str) else v for k, v in value.items() if k in MEANINGS and v), [])
    if not (senses and all(isinstance(s, str) for s in senses) and (term := next(
            (v for v in (*value.values(), *given) if isinstance(v, str) and v not in senses), ""))):
        return None
    senses = [s.strip().rstrip(".。") for s in senses]
    others = say("also_means", language, others=join(senses[1:], language)) if senses[1:] else ""
    return sentence_end(say("means", language, term=term[:1].upper() + term[1:], sense=senses[0]) + others, language)


def _items(value: list, words: list[str], arguments: dict, question: str, language: Language, full: bool) -> str:
    """ "I found 2 books for Le Guin: A (1974) and B (1971).", "I found no flights from Oslo to Rome." """
    thing = next((wording.EXPANDED.get(w, w) for w in reversed(words) if w not in GETTING | TOOLISH and len(w) > 2), "")  # atms
    kinds = [k for k, v in arguments.items() if set(reading.split_name(k)[-1:]) & KINDS and isinstance(v, str) and v]
    if kinds and wording.one(thing) in GENERIC | {""}:  # find_places(kind="bakery"), (place_type=…): it finds bakeries
        thing, arguments = arguments[kinds[0]].replace("_", " "), {k: v for k, v in arguments.items() if k != kinds[0]}
    zh, where = language == "zh", context(arguments, language)
    thing_zh = next((t for t in (thing, label(thing, "zh")[0]) if is_chinese(t) and not re.search("[A-Za-z]", t)), "结果")
    many = thing if thing.endswith("s") or not value and thing.endswith("ing") else wording.plural(thing) if thing else "results"
    if not value:  # what was searched for, when no place says it: "I found no recipes for chicken and leek", "… near the park"
        asked = join([value_text(v, language) for v in arguments.values() if isinstance(v, list | str) and len(v) <= 40])
        by = next((k for k in arguments if k in wording.WORDING["criteria"]), "for")  # a parameter named by its preposition
        return say("found_none", language, many=many, thing_zh=thing_zh, where=where or f" {by} {asked}" * bool(asked))
    items = [row(v, question, language) for v in value[: 3 if not full else len(value)]]  # the first few, then how many more
    items += [say("more", language, count=len(value) - len(items))] * (len(value) > len(items))
    if len(value) == 1 and not zh:
        return f"I found one{' ' + wording.one(thing) if thing else ''}{where}: {items[0]}."
    return say("found", language, count=len(value), many=many, thing_zh=thing_zh, where=where, items=join(items, language))


def _scalar(words: list[str], arguments: dict[str, Any], result: str, language: Language, question: str = "") -> str:
    """A short result said with what the call was for: a conversion, a value looked up, or an action done."""
    result = _without_brackets(result)
    if re.fullmatch(r"-?\d+(\.\d+)?", result) or MOMENT.fullmatch(result):
        result = value_text(result if MOMENT.fullmatch(result) else (float if "." in result else int)(result), language)
    low = result.lower()
    counted = how_many(question, result, language) if re.fullmatch(r"-?[\d,]+(\.\d+)?", result) else None
    if counted and not (_acts(words) or words[:1] and words[0] in DOING):
        return counted
    if low in ("", "null", "none"):
        return NOTHING[language][bool(_acts(words))]
    if low in ("true", "yes", "false", "no"):
        return say("yes" if low in ("true", "yes") else "no", language)
    subject_words = [w for w in words[1 if words and words[0] in GETTING else 0:] if w not in TOOLISH]
    if words and words[0] in DOING or re.fullmatch(r"-?[\d,]+(\.\d+)?", result) and _acts(words):
        subject_words = ["result"]  # translate_text, add_numbers: the name says what is done, not what comes out
    acting = _acts(words) and subject_words != ["result"]
    if words and words[0] in SEARCHING:  # what a search or a query found: "I found 3: A, B and C."
        if items := [i.strip() for i in result.split("; ")] if "; " in result else []:
            return sentence_end(say("found_several", language, count=len(items), where=context(arguments, "en"),
                                    items=join(items, language)), language)
        return say("found_said", language, result=sentence_end(result, language))
    if language == "zh":
        if result.strip().rstrip(".!").lower() in STATUS_ZH:  # "Cancelled." -> "已取消。"
            return f"{STATUS_ZH[result.strip().rstrip('.!').lower()]}。"
        result = wording.framed(result, "zh")
        if acting:
            return f"已完成：{sentence_end(result, 'zh')}"
        subject = "".join(label(w, "zh")[0] for w in subject_words if w in wording.LABELS_ZH) or "结果"
        where = context(arguments, "zh", places_only=True) if subject_words != ["result"] else ""
        where = f"{where}{' ' if re.search(r'[A-Za-z0-9]$', where) else ''}的" if where else ""
        return f"{where}{subject}是{'' if result[:1] == '“' else ' '}{sentence_end(result, 'zh')}"
    if set(words) & CONVERTING or "to" in words[1:-1]:
        return sentence_end(f"{_conversion(words, arguments)} is {result}", "en")
    if acting:  # "Done: it is paid", never "Done: done: …"
        said = result[:1].lower() + result[1:] if result[1:2].islower() else result
        return sentence_end(result if low.startswith("done") else f"Done: {said}", "en")
    subject = " ".join(label(w, "en")[0] for w in subject_words) or "answer"
    if subject_words == ["result"]:  # said of what went in, when one thing did: "the result for laconic"
        given = [v for v in arguments.values() if isinstance(v, (str, int, float)) and len(str(v)) <= 40]
        return sentence_end(f"The result{f' for {given[0]}' if len(given) == 1 else ''} is {result}", "en")
    return sentence_end(f"The {subject}{context(arguments, 'en')} is {result}", "en")


def _without_brackets(text: str) -> str:
    """ "ok: kindle, {'amount': 90, 'currency': 'USD'}" -> "ok: kindle, amount 90, currency USD": a dict or a list
    printed inside a text result is said in words, never pasted with its braces and quotes."""
    text = re.sub(r"\{([^{}]*)\}", lambda m: ", ".join(f"{k.strip()} {v.strip()}" for k, v in PAIR.findall(m.group(1)))
                  or m.group(1), text)
    return re.sub(r"\[([^\[\]]*)\]", lambda m: re.sub(r"[\"']", "", m.group(1)), text)


def _conversion(words: list[str], arguments: dict[str, Any]) -> str:
    """ "5 km" for convert(value=5, from_unit="km"), "30 celsius" for celsius_to_fahrenheit(celsius=30)."""
    amount = " ".join(str(v) for v in arguments.values() if isinstance(v, (int, float)) and not isinstance(v, bool))
    source = next((str(v) for k, v in arguments.items() if isinstance(v, str) and
                   set(reading.split_name(k)) & {"from", "source", "unit", "base"}), "")
    source = source or (words[words.index("to") - 1] if "to" in words else "")  # celsius_to_fahrenheit: "30 celsius"
    return " ".join(part for part in (amount, source) if part).strip() or "That"
