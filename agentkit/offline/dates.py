"""Part of step 2: when and how long, as people write it ("tomorrow at 9", "next Tuesday", "half an hour").

- A clock time is given as HH:MM on 24 hours: "3pm" is 15:00, "at 9" is 09:00, "noon" is 12:00.
- A duration ("for an hour", "90 min", "an hour and a half") is read in seconds, and given to a number
  parameter in the unit its name or description asks for (seconds, minutes or hours).
- A day is given as the learner wrote it ("tomorrow", "next Tuesday"), unless the parameter asks for a
  format (YYYY-MM-DD, ISO): then it is worked out from today's date.

dateparser was measured for this and not used: 90 ms to import, 180 ms for its first answer, and it reads
neither "next Tuesday at 10" nor "明天上午9点" (it returns None), while "tomorrow at 9" loses its hour.
"""

from __future__ import annotations

import datetime as dt
import re

from text_to_num import text2num

from agentkit.offline import lexicon

TABLES = lexicon.words("words")
WEEKDAYS: list[str] = TABLES["dates"]["weekdays"].split()
WEEKDAY = "|".join([*WEEKDAYS, *TABLES["dates"]["weekdays_short"].split()])  # a day's name as a pattern, short ones too
MONTHS: list[str] = TABLES["dates"]["months"].split()
PAST = re.compile(rf"\b(?:{'|'.join(TABLES['dates']['past'].split())})\b", re.IGNORECASE)
"""The names of days and months, the one copy every stage reads (Chinese ones are read as these)."""
UNIT_SECONDS: dict[str, int] = TABLES["unit_seconds"]
WEEK = UNIT_SECONDS["week"]
MONTH = "|".join([*MONTHS, *(rf"{m[:3]}\.?" for m in MONTHS if m != "may"), r"sept\.?"])  # "Oct 9th", "sept. 3"
ENDS = "|".join(["and", "or", "then", *TABLES["lists"]["boundary"].split()])  # words that start another value
_DAY_LEADS = "on by for until till from to before after returning and or it that is of".split()  # or a comma: "蛋糕，25号取"
DAY_OF_MONTH = (r"(?:^|(?<=[,\u2060]\s)|" + "|".join(rf"(?<=\b{w}\s)" for w in _DAY_LEADS) +
                rf")the\s+\d{{1,2}}(?:st|nd|rd|th)\b(?=\s*(?:$|[,.;!?\u4e00-\u9fff]|(?:{ENDS}|till|until|returning)\b))")
"""A day of this month or the next ("on the 14th", "by the 2nd, 10:30", "make it the 27th", "the 27th?"), not a position
("the 3rd step")."""


def said(low: float, high: float) -> str:
    """The number words for `low` to `high` as a pattern ("one|two|...|twelve"); a dozen is not how a time is said."""
    return "|".join(w for w, n in TABLES["number_words"].items() if low <= n <= high and w != "dozen")


_AMOUNT = rf"\d+(?:\.\d+)?|(?:{said(20, 90)})[\s-](?:{said(1, 9)})|an?|{said(1, 100)}|half an?|a half|(?:a )?quarter of an?"
DURATION = re.compile(rf"\b({_AMOUNT})[\s-]*(seconds?|secs?|minutes?|mins?|hours?|hrs?|(?<=\d)h|weeks?|fortnight|months?)\b"
                      r"(\s+and\s+a\s+half)?", re.IGNORECASE)
RATE = re.compile(rf"(?:\d|\b(?:{said(1, 100)}))\s+(?:(?!(?:{ENDS})\b)[a-z]+\s+)?$", re.I)  # "$21 an hour": no duration
CLOCK = re.compile(TABLES["dates"]["clock"], re.IGNORECASE)
RELATIVE = re.compile(rf"\bin\s+(\d+|a|an|{said(1, 100)})\s+(days?|weeks?|months?)\b|"
                      r"\b(?:the\s+)?day\s+after\s+tomorrow\b|\b(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+of\s+next\s+month\b|"
                      rf"\bnext\s+(?:week(?!\s+on\s+(?:{WEEKDAY}))|month)\b", re.IGNORECASE)  # not "next week on tuesday"
EVENING, MORNING, SMALL_HOURS = (re.compile(TABLES["dates"][part], re.IGNORECASE) for part in ("evening", "morning",
                                                                                              "small_hours"))
PART_OF_DAY = r"\s+(?:morning|afternoon|evening|night)\b"  # after a day ("monday morning"): part of that day
WEEK_OF = r"\s+(?:(?:of\s+)?(?:this|next)\s+week|the\s+week\s+after\s+next|week|,?\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b)"
"""After a weekday, which one: of a calendar week ("wednesday next week", 下周三), a week on ("tuesday week"), by its date."""
_WEEKDAY_OF = rf"(?:(?:next|this|a\s+week\s+on|next\s+week\s+on)\s+)?(?:{WEEKDAY})(?:{WEEK_OF})?"
A_DAY = rf"(?:{_WEEKDAY_OF}|{'|'.join(TABLES['days_from_today'])})\b(?:{PART_OF_DAY})?"  # "tmrw", "next tues", "tuesday week"


def clock_times(text: str) -> list[tuple[int, int, str]]:
    """(start, end, "HH:MM") for each clock time in the text."""
    found, evening = [], EVENING.search(text) and not MORNING.search(text)  # "dinner at 8" is 20:00
    daytime = not MORNING.search(text) and not SMALL_HOURS.search(text)  # "a lesson at 2:45" is 14:45
    for match in CLOCK.finditer(text):
        if (written := match.group(0).lower()) in ("noon", "midnight"):
            hour, minute = (12, 0) if written == "noon" else (0, 0)
        elif match.group(1):
            hour, minute = int(match.group(1)) % 12, int(match.group(2) or 0)
            hour += 12 if match.group(3).lower().startswith(("p", "in the a", "in the e", "at")) else 0
        elif match.group(4):
            hour, minute = int(match.group(4)), int(match.group(5))
        else:  # "at 9", "around 10"
            hour, minute = int(match.group(6) or match.group(7)), 0
        if not match.group(3) and (1 <= hour < 12 and evening or 1 <= hour <= 5 and daytime and match[0][0] != "0"):
            hour += 12
        if hour < 24 and minute < 60:
            found.append((match.start(), match.end(), f"{hour:02d}:{minute:02d}"))
    for match in SPOKEN_CLOCK.finditer(text):  # "half past seven", "ten to 5", "half seven", "at seven", "6.30pm"
        if match.group("dot"):
            hour, minute = int(match.group("dot")), int(match.group("dotmin"))
        elif match.group("hour"):
            hour = int(_amount(match.group("hour").lower()))
            part = match.group("part").lower()
            minute = {"half": 30, "quarter": 15}.get(part) or int(_amount(re.sub(r"\s*minutes?|-", " ", part).strip()))
            hour, minute = (hour - 1, 60 - minute) if match.group("way").lower() == "to" else (hour, minute)
        else:  # "half seven" is 7:30, as said in Britain; "at seven", "seven thirty pm"
            hour = int(_amount((match.group("half") or match.group("said")).lower()))
            minute = 30 if match.group("half") else int(_amount(re.sub(r"^o\s", "", (match.group("saidmin") or "0").lower())))
        later = (match.group("pm") or "").lower()
        after_noon = later or (evening and hour < 12 or daytime and hour <= 5) and hour >= 1
        hour = hour % 12 + 12 if after_noon and not later.startswith(("a", "in the m")) else hour
        if 0 <= hour < 24 and minute < 60:  # read whole, it replaces what the plain pattern saw of it ("8 pm")
            found = [f for f in found if not (f[0] < match.end() and match.start() < f[1])]
            found.append((match.start(), match.end(), f"{hour:02d}:{minute:02d}"))
    return sorted(found)


_HOURS = rf"\d{{1,2}}|{said(1, 12)}"
_MINUTES = rf"\d{{1,2}}|(?:twenty|twenty-|twenty\s)(?:{said(1, 9)})|{said(1, 29)}"
_LATER = r"am|pm|a\.m\.|p\.m\.|in the (?:morning|evening|afternoon)|tonight"
_NOT_A_CLOCK = r"(?![\d%]|\s*(?:percent|dollars?|euros?|pounds?|usd|eur|gbp)\b)"  # "at 6.25%", "at 7.30 dollars"
_TIME_NEXT = rf"(?=\s*(?:$|[,.;!?)]|(?:{_LATER}|o'?clock|ish|sharp|on|this|tomorrow|today|and|or|for|to|with|please)\b))"
SPOKEN_CLOCK = re.compile(rf"\b(?:(?P<part>half|quarter|(?:{_MINUTES})(?:\s*minutes?)?)\s+(?P<way>past|to|after)\s+"
                          rf"(?P<hour>{_HOURS})\b|half\s+(?P<half>{said(1, 12)}|\d{{1,2}})\b(?!\s*(?:an?|hours?|past|to|of)\b)|"
                          rf"(?:(?<=\bat\s)|(?<=\baround\s)|(?<=\bby\s)|(?<=\bfrom\s)|(?=(?:{said(1, 12)})\s*(?:{_LATER})))"
                          rf"(?P<said>{said(1, 12)}|\d{{1,2}}(?=ish))"
                          rf"(?:[\s-](?P<saidmin>fifteen|thirty|forty[\s-]five|(?:o\s)?(?:{said(1, 9)})))?(?:ish)?\b{_TIME_NEXT}|"
                          rf"(?:(?<=\bat\s)|(?=\d{{1,2}}\.[0-5]\d\s*(?:{_LATER})))(?P<dot>\d{{1,2}})\.(?P<dotmin>[0-5]\d){_NOT_A_CLOCK})"
                          rf"(?:\s*(?P<pm>{_LATER}))?", re.IGNORECASE)
"""Clock times said in words or with a dot: "half past seven", "quarter to 8 pm", "at 7.30"."""


def durations(text: str) -> list[tuple[int, int, float]]:
    """(start, end, seconds) for each length of time: "for an hour", "90 min", "two and a half hours"."""
    found = []
    for match in DURATION.finditer(text):
        amount, unit, half = match.group(1).lower(), match.group(2).lower(), match.group(3)
        if amount in ("a", "an") and RATE.search(text[: match.start()]):
            continue  # "$21 an hour", "20 dollars a day": a rate, not a length of time
        a_length = re.search(r"\b(?:for|next|coming)\s+$", text[: match.start()], re.I)  # "for the next 2 weeks"
        if unit.startswith(("week", "fortnight", "month")) and not a_length:
            continue  # weeks and months are a stay's length only after "for" ("for a week"), else a count and a unit
        base = unit.rstrip("s") if len(unit) > 1 else unit
        seconds = UNIT_SECONDS.get(base, UNIT_SECONDS.get(base[:3], 60))
        found.append((match.start(), match.end(), (_amount(amount) + (0.5 if half else 0)) * seconds))
    return found


def in_unit(seconds: float, hint: set[str], own: set[str] = frozenset()) -> float:
    """A duration in the unit a parameter's words ask for: its name's first ("hours"), then its description's ("at
    least 2 h": 120 minutes), else minutes. Of two units named, the finer: a count of seconds stays exact."""
    for words in (own, hint):
        if named := units_named(words):
            return seconds / min(named)
    return seconds / 60


def units_named(words: set[str]) -> list[int]:
    """The lengths in seconds of the units of time among a parameter's words ("nights", "hours")."""
    return [UNIT_SECONDS[w.removesuffix("s")] for w in words if len(w) > 2 and w.removesuffix("s") in UNIT_SECONDS]


def as_asked(written: str, description: str, schema_format: str | None = None, past: bool = False) -> str:
    """A day in the format its parameter shows ("MM-DD-YYYY", "e.g. 2022-03-11", "format": "date"), as YYYY-MM-DD when
    it is written with its year ("March 11, 2022"), else as written ("tomorrow")."""
    shown = re.search(r"\b(mm|dd|month|day)([-/.])(?:dd|mm|day|month)\2(?:yyyy?|year)\b", description, re.I)
    asked = shown or schema_format == "date" or re.search(r"\b\d{4}\b|yyyy|\biso\b|format", f"{written} {description}", re.I)
    if not (iso := asked and as_iso(written, past=past)) or not shown:
        return iso or written
    year, month, day = iso.split("-")
    return shown[2].join([month, day, year] if shown[1].lower().startswith("m") else [day, month, year])


_MONTH_DAY = re.compile(r"(?:(?P<m1>[a-z]+)\s*(?P<d1>\d{1,2})(?:st|nd|rd|th)?|(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
                        r"(?P<m2>[a-z]+))(?:,?\s+(?P<year>\d{4}))?")


def date_time(spans: list, used: set[int]) -> str | None:
    """ "on 2026-05-14 at 8am" for a JSON Schema "date-time": the day and the clock time the spans hold, as one ISO value
    (none without both: a time is asked for, never made up)."""
    day = next((s for s in spans if s.kind == "date" and id(s) not in used and as_iso(str(s.value))), None)
    clock = next((s for s in spans if s.kind == "time" and id(s) not in used), None)
    used.update({id(day), id(clock)} if day and clock else ())
    return f"{as_iso(str(day.value))}T{clock.value}:00" if day and clock else None


def moved(before: str, spans: list) -> str | None:
    """ "make it quarter past 8" after 2027-02-19T07:30:00: the same day at the new time, or the new day at the same time."""
    day = next((iso for s in spans if s.kind == "date" and (iso := as_iso(str(s.value)))), None)
    clock = next((str(s.value) for s in spans if s.kind == "time"), None)
    same_day, same_time = before.split("T", 1)
    return f"{day or same_day}T{clock + ':00' if clock else same_time}" if day or clock else None


def as_iso(written: str, today: dt.date | None = None, past: bool = False) -> str | None:
    """ "tomorrow" -> "2026-03-06" (from `today`); None for what is not a day this can work out. A day named without
    its year or week is the coming one, or with `past` (a day something was lost or done) the last one."""
    today = today or dt.date.today()
    words = written.lower().strip()
    if numeric := re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", words):  # "2022-08-16", "2022/8/16"
        return f"{numeric[1]}-{int(numeric[2]):02d}-{int(numeric[3]):02d}"
    if words in (days := TABLES["days_from_today"]):
        return (today + dt.timedelta(days=days[words])).isoformat()
    dated = rf"(?:the\s+)?\d{{1,2}}(?:(?:st|nd|rd|th)$|(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTH}))"  # "the 23rd", "14th may"
    words = re.sub(rf"^(?:on\s+)?(?:{WEEKDAY}),?\s+(?={dated})", "", words)  # "tuesday the 23rd", "friday 14th may 2027"
    for before, after in ((r"a\s+week\s+on", "week"), (r"next\s+week\s+on", "next week")):  # "a week on tuesday"
        words = re.sub(rf"^{before}\s+({WEEKDAY})$", rf"\1 {after}", words)
    words = re.sub(rf"^(?:on\s+)?({WEEKDAY})\s+of\s+", r"\1 ", words)  # "tuesday of next week"
    if week := re.fullmatch(rf"(?:on )?({WEEKDAY})\s+(?:(this|next|the)\s+week(\s+after\s+next)?|(week))", words):  # from Monday
        day = next(i for i, d in enumerate(WEEKDAYS) if d.startswith(week[1][:3]))
        if week[4]:  # "tuesday week", "a week on tuesday": a week after the coming one
            return (today + dt.timedelta(days=(day - today.weekday()) % 7 + 7)).isoformat()
        return (today + dt.timedelta(days=day - today.weekday() + 7 * ((week[2] != "this") + bool(week[3])))).isoformat()
    if (month_day := re.fullmatch(r"(?:the )?(\d{1,2})(?:st|nd|rd|th)? of next month", words)) and 0 < int(month_day[1]) <= 31:
        first = (today.replace(day=1) + dt.timedelta(days=31)).replace(day=1)  # 下个月5号
        last = ((first + dt.timedelta(days=31)).replace(day=1) - dt.timedelta(days=1)).day
        return first.replace(day=min(int(month_day[1]), last)).isoformat()  # "the 31st" of a shorter month: its last day
    if (named := re.fullmatch(rf"(next |this |on )?({WEEKDAY})", words)):  # "thurs" is thursday; "next tuesday" is next
        day = next(i for i, d in enumerate(WEEKDAYS) if d.startswith(named[2][:3]))  # week's, on a Monday not tomorrow
        ahead = day - today.weekday() + 7 if named[1] == "next " and not past else (day - today.weekday()) % 7 or 7
        return (today + dt.timedelta(days=ahead - 7 * past)).isoformat()
    if relative := re.fullmatch(r"in (\w+) (day|week|month)s?", words):
        step = {"day": 1, "week": 7, "month": 30}[relative.group(2)]
        return (today + dt.timedelta(days=int(_amount(relative.group(1)) * step))).isoformat()
    day = re.fullmatch(r"(?:the )?(\d{1,2})(?:st|nd|rd|th)", words)  # "the 3rd": this month's, or next month's once past
    shift = (-(int(day[1]) > today.day) if past else int(day[1]) < today.day) if day else 0  # last month's, or next's
    words = f"{MONTHS[(today.month - 1 + shift) % 12]} {day[1]}" if day else words
    # "march 3rd 2027", "12 may 2027", "1st of june": the day; without a year, the coming one (or the last one)
    if not (match := _MONTH_DAY.fullmatch(words.replace(".", ""))):
        return None
    month_word, number = (match.group("m1"), match.group("d1")) if match.group("m1") else (match.group("m2"), match.group("d2"))
    month = next((i for i, name in enumerate(MONTHS, 1) if name.startswith(month_word[:3]) and len(month_word) >= 3), None)
    year = int(match.group("year") or today.year)
    try:
        day_asked = dt.date(year, month, int(number))
        if not match.group("year") and (day_asked > today if past else day_asked < today):
            day_asked = dt.date(year - 1 if past else year + 1, month, int(number))
    except (TypeError, ValueError):  # "february 30", or no month of that name (None)
        return None
    return day_asked.isoformat()


def _amount(written: str) -> float:
    if "half" in written or "quarter" in written:  # "half an", "a half", "a quarter of an"
        return 0.5 if "half" in written else 0.25
    try:  # "90", "ninety"; "a", "an" and what is no number: one
        return float(written) if written[0].isdigit() else float(text2num(written, "en"))
    except ValueError:
        return 1.0
