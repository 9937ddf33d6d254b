"""How the offline model writes values in a sentence, in English or in Chinese: numbers, lists, places, moments.

A person reads "516,092", "a, b and c", "Tokyo" and "22:53 (Friday, 4 December 2026)", not `516092`,
`["a", "b", "c"]`, `Asia/Tokyo` and `2026-12-04T22:53:29+09:00`. Babel (CLDR's data, the tables every
locale-aware program uses) writes numbers, lists, Chinese city names and dates; it is imported on first
use (about 45 ms once), never at import.
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from functools import cache
from typing import Any

from agentkit.offline import lexicon, reading
from agentkit.offline.dates import WEEKDAYS
from agentkit.offline.language import is_chinese
from agentkit.offline.places import zone_names

Language = str
"""'en' or 'zh': the language an answer is written in."""

MOMENT = re.compile(r"\b(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?([+-]\d{2}:?\d{2}|Z)?)?\b")
"""An ISO date or date-time, as APIs write them: 2026-12-04, 2026-12-04T22:53:29+09:00."""

WORDING = lexicon.words("answers")["wording"]
LABELS_ZH, EXPANDED, UNITS, UNITS_ZH, STATUS_ZH, PERIODS_ZH, YES_NO_ZH = (WORDING[table] for table in (
    "labels_zh", "expanded", "units", "units_zh", "status_zh", "periods_zh", "yes_no_zh"))
"""Chinese for the words that name fields and tools (where the reading vocabulary has none or another), short
forms written out (temp -> temperature), a unit at the end of a field's name (temp_c) and how Chinese writes it, a
one-word status in Chinese, a period at the end of a name that Chinese says first (total_today: 今天总计)."""
PLACES, ENDS = frozenset(WORDING["places"]), {end: frozenset(named) for end, named in WORDING["ends"].items()}
"""Words of a parameter's name that make its value a place: said as "in Tokyo" / "东京"; or where a trip starts or ends."""
SAY = lexicon.words("answers")["say"]


def say(key: str, language: Language, **values: Any) -> str:
    """The sentence `key` of answers.toml's [say] table in `language`, its {placeholders} filled from `values`."""
    return SAY[key][language].format(**values)


def label(key: str, language: Language, beside: str = "") -> tuple[str, str]:
    """A field or parameter name as words, and the unit its name ends with: temp_c -> ("temperature", "°C"); `beside`:
    the unit its value has from elsewhere (the currency beside an amount: 金额, not 用量)."""
    words = reading.split_name(key)
    if len(words) == 1 and words[0] in UNITS and words[0] not in ("c", "f"):  # {"km": 1745.2}: the unit is the name
        return "", UNITS[words[0]]
    # the unit is the last word, or one inside the name with a qualifier after it: new_snow_cm_24h -> "new snow (24 h)"
    at = next((i for i, w in enumerate(words) if i and (w in UNITS or w == "min" and words[i - 1] in WORDING["minutes"])
               and words[i - 1] != "per" and (i == len(words) - 1 or len(w) > 1)), None)  # price_per_kwh: a rate
    unit, after = (UNITS.get(words[at], "min"), " ".join(re.sub(r"(\d)([a-z])", r"\1 \2", w) for w in words[at + 1:])) \
        if at else ("", "")
    over = language == "en" and re.fullmatch(r"\d+ [a-z]+", after)  # snow_cm_24h: "the snow over 24 h is 8 cm"
    words = [*words[:at], f"over {after}" if over else f"({after})"] if after else words[:at] if unit else words
    if language == "zh":
        named, period = chinese_names(), next((p for p in PERIODS_ZH if words[-len(p.split()):] == p.split() != words), "")
        words = words[: len(words) - len(period.split())]  # total_today: the period first, 今天总计
        money = re.fullmatch("[A-Z]{3}", beside or unit)  # "amount" is 金额 for money only
        pieces = [next((t[n] for n in (w, EXPANDED.get(w, ""), one(w)) for t in (LABELS_ZH, named) if n in t), w) if w != "amount"
                  else "金额" if money else "用量" for w in words]
        # Chinese words run together ("出发时间"); an English word the table lacks keeps its space ("from unit")
        return PERIODS_ZH.get(period, "") + re.sub(r"(?<![A-Za-z0-9]) +| +(?![A-Za-z0-9])", "", " ".join(pieces)), unit
    return " ".join(EXPANDED.get(w, w) for w in words), unit


def one(word: str) -> str:
    """ "days" -> "day", "entries" -> "entry", "classes" -> "class": an English plural as its singular."""
    return re.sub(r"(?<=ss|ch|sh|.x)es$|(?<![su])s$", "", re.sub(r"ies$", "y", word))


def plural(word: str) -> str:
    """ "bakery" -> "bakeries", "box" -> "boxes", "atm" -> "atms": an English noun in its plural."""
    return re.sub(r"(?<=[^aeiou])y$", "ie", word) + ("es" if re.search(r"(?:s|x|z|ch|sh)$", word) else "s")


@cache
def chinese_names() -> dict[str, str]:
    """An English word -> the first Chinese word the reading vocabulary reads as it ("command" -> "命令")."""
    from agentkit.offline.vocabulary import WORDS  # the one bilingual table, read the other way

    return {english: chinese for chinese, english in reversed(WORDS.items()) if english and " " not in english}  # the first


def number(value: float | int, language: Language = "en") -> str:
    """516092 -> "516,092"; 3.14159265 -> "3.14"; 2026 stays 2026 (a year, a code: not grouped below 10,000)."""
    if isinstance(value, float) and not math.isfinite(value) or abs(value) >= 1e15:
        return str(value)  # infinity, or beyond what a person reads digit by digit: as Python writes it
    if isinstance(value, float):
        value = int(value) if value.is_integer() else round(value, 2 if abs(value) >= 1 else 4)  # 2000.0 is 2000
    if abs(value) < 10_000:
        return str(value)
    from babel.numbers import format_decimal  # here, not at import: babel's data loads on first use

    return format_decimal(value, locale="zh_Hans_CN" if language == "zh" else "en")


def join(items: list[str], language: Language = "en") -> str:
    """ "a, b and c" / "a、b和c": a list as a person writes it."""
    last = "、" if items[-1:] and items[-1].startswith("和") else "和"  # "早会和和老李喝茶" reads twice: "早会、和老李喝茶"
    head = ("、".join(items[:-1]) + last if language == "zh" else ", ".join(items[:-1]) + " and ") if len(items) > 1 else ""
    return head + "".join(items[-1:])  # one item, or none, as it is


def place(value: str, language: Language) -> str:
    """A place as a sentence says it: "Asia/Tokyo" -> "Tokyo" / "东京"; a city the zone database knows, in Chinese."""
    if language == "zh" and value in _places_zh():  # "Osaka" -> "大阪": the name the learner wrote it by
        return _places_zh()[value]
    if (zone := zone_names().get(value.lower().replace("_", " "))) is None:
        return value
    if language != "zh":
        return zone.rsplit("/", 1)[-1].replace("_", " ")  # the zone's city
    from babel.dates import get_timezone_location

    try:
        return get_timezone_location(zone, locale="zh", return_city=True)
    except (LookupError, ValueError):
        return value


def moment(text: str, language: Language) -> tuple[str | None, str] | None:
    """An ISO date-time written for a person, as (clock, date): ("22:53", "Friday, 4 December 2026") /
    ("22:53", "2026年12月4日星期五"); the clock is None for a date alone."""
    if not (found := MOMENT.search(text)):
        return None
    try:
        when = datetime.fromisoformat(found.group(1) + (f"T{found.group(2)}" if found.group(2) else ""))
    except ValueError:
        return None
    return found.group(2), f"{when.year}年{when.month}月{when.day}日星期{'一二三四五六日'[when.weekday()]}" if language == "zh" \
        else f"{when:%A}, {when.day} {when:%B} {when.year}"


@cache
def _places_zh() -> dict[str, str]:
    """English place name -> its Chinese name, from the bilingual vocabulary's places (read on first use)."""
    from agentkit.offline.places import is_known_place
    from agentkit.offline.vocabulary import WORDS

    return {english: chinese for chinese, english in WORDS.items() if english[:1].isupper() and is_known_place(english)}


def value_text(value: Any, language: Language, unit: str = "") -> str:
    """One JSON value for a sentence: numbers grouped, booleans as yes/no, lists joined, dates in words."""
    if isinstance(value, bool):
        return ("是" if value else "否") if language == "zh" else ("yes" if value else "no")
    if isinstance(value, (int, float)):
        said, unit = number(value, language), UNITS_ZH.get(unit, unit) if language == "zh" else unit
        return f"{said}{unit}" if unit in ("%", "°C", "°F") else f"{said} {unit}".rstrip()
    if isinstance(value, list):
        return join([value_text(v, language) for v in value if not isinstance(v, (dict, list))], language)
    if value is None:
        return "无" if language == "zh" else "none"
    text = str(value).strip()
    when = moment(text, language) if MOMENT.fullmatch(text) else None
    if when:  # "22:53 (Friday, 4 December 2026)" / "22:53（2026年12月4日星期五）"
        return (f"{when[0]}（{when[1]}）" if language == "zh" else f"{when[0]} ({when[1]})") if when[0] else when[1]
    text = text.replace("_", " ") if re.fullmatch(r"[a-z]+(?:_[a-z]+){1,3}", text) else text  # an enum: "on_time" -> "on time"
    day = text.lower() in WEEKDAYS and "星期" + "一二三四五六日"[WEEKDAYS.index(text.lower())]
    if language == "zh" and (day or text.islower()):  # "food" 餐饮, "Friday" 星期五: the vocabulary's word; "Lina" stays
        text = day or STATUS_ZH.get(text) or chinese_names().get(text, text)
    return f"{text} {unit}".rstrip() if unit and unit not in text else framed(text, language)


def framed(text: str, language: Language) -> str:
    """An English phrase in a Chinese answer in quotes (“high normal”), as Chinese quotes words said in another
    language; a name ("The Hobbit", "KX21 ZTB"), a word, a Chinese text and an English answer as they are."""
    english = language == "zh" and not is_chinese(text) and len(re.findall(r"[A-Za-z]+", text)) > 1
    return f"“{text.rstrip('.')}”" if english and re.search(r"\b[a-z]{2,}\b", text) else text


def sentence_end(text: str, language: Language) -> str:
    """The text with the full stop its language uses, unless it already ends a sentence."""
    text = text.rstrip()
    ended = re.search(r"[.!?。！？…]$", text) or text.endswith(("```", ":"))
    return text if ended else text + ("。" if language == "zh" else ".")


def context(arguments: dict[str, Any], language: Language, places_only: bool = False) -> str:
    """The arguments as a phrase: " in Tokyo" / "东京", " from Paris to London" / "从巴黎到伦敦", " for 16"."""
    places, ends, others, day = [], {}, [], ""
    for key, value in arguments.items():
        key_words = set(reading.split_name(key))
        if isinstance(value, (dict, list)) or value is None or value == "" or isinstance(value, bool):
            continue
        if isinstance(value, str) and (said := moment(value, language)) and not places_only:  # "on Wednesday, 9 December 2026"
            day = said[1] if language == "zh" else f" on {said[1]}"
        elif end := next((end for end, named in ENDS.items() if key_words & named), None):  # "from Paris to London"
            ends[end] = place(str(value), language)
        elif key_words & PLACES and isinstance(value, str):
            places.append(place(value, language))
        elif places_only:
            continue
        elif key in WORDING["criteria"] and isinstance(value, str) and language == "en":  # near="me": " near me"
            ends[key] = value
        elif isinstance(value, str):
            if " " not in value.strip() and len(value) <= 40:  # a file name or a unit, not a note's whole text
                others.append(place(value, language))
        elif len(arguments) == 1:
            others.append(number(value, language))
        elif key.endswith("s") or key == "people":  # a count of things: "4 people", "3 nights"
            others.append(f"{number(value, language)} {label(key, language)[0]}")
        else:  # several numbers say which is which: "principal 500, interest rate 5"
            others.append(f"{label(key, language)[0]} {number(value, language)}")
    if language == "zh":
        phrase = "、".join(places)
        phrase += f"从{ends['from']}到{ends['to']}" if "from" in ends and "to" in ends else ""
        return day + phrase + (f"（{join(others, 'zh')}）" if others and not places_only else "")
    phrase = f" in {join(places, 'en')}" if places else ""
    phrase += "".join(f" {end} {ends[end]}" for end in sorted(ends, key=[*ENDS, *WORDING["criteria"]].index))
    # "the square root of 16", but "the tip for 50 and 15", "the books for Herbert"
    alone = len(arguments) == 1 and not phrase and not isinstance(next(iter(arguments.values())), str)
    return phrase + (f"{' of' if alone else ' for'} {join(others, 'en')}" if others else "") + day
