"""Chinese numbers as people write them, read as digits before the rest of a Chinese question is read.

"三百毫升" is 300 ml, "三十五块" 35 yuan, "三百六" 360 (a digit after 百, 千 or 万 counts the next lower power,
as people say prices), "二十点五度" 20.5 degrees, "百分之十五" 15%, "两晚" 2 nights. A measure word after a number
(三张票, 五位客人, 两辆车) only says what is counted, so it is dropped; "一" before one (一辆车, 记一笔) is the article
"a", not the number 1 a parameter would take.

Read here, in a few lines, rather than with cn2an: cn2an costs 190 ms to import (measured), more than this whole
reading of a question, for the numbers a learner writes in one.
"""

from __future__ import annotations

import re

from agentkit.offline import lexicon

TABLES = lexicon.words("words")
DIGITS: dict[str, int] = TABLES["zh_digits"]
POWERS: dict[str, int] = TABLES["zh_powers"]
NUMERAL = f"[{''.join(DIGITS)}{''.join(POWERS)}]+"

MEASURE_WORDS = TABLES["zh_numbers"]["measure_words"]
"""Words that count things ("三张票": three tickets): dropped after a number, "a" after 一."""
ARTICLE_AFTER, COUNTING_VERBS = TABLES["zh_numbers"]["article_after"], TABLES["zh_numbers"]["counting_verbs"]
"""Measure words after which 一 is "a" (一辆车; not 张, 间, 位: 一张票 is 1); verbs after which one alone is (买张票)."""
WITH_NUMERALS: dict[str, str] = TABLES["zh_with_numerals"]
"""Words written with a numeral that are not numbers: read before the numerals are."""
DECIMAL_UNITS = TABLES["zh_numbers"]["decimal_units"]
"""What may follow a decimal written with 点 ("二十点五度"); otherwise 点 is o'clock ("九点五分")."""


def numeral(written: str) -> int:
    """A Chinese numeral as a number: "十二" 12, "两" 2, "一百零五" 105, "三万" 30000, "三百六" 360, "两千五" 2500."""
    total, section, digit, last_power = 0, 0, 0, 0
    for char in written:
        if char in DIGITS:
            digit = DIGITS[char]
        elif char == "万":
            total, section, digit, last_power = (total + section + digit) * 10000, 0, 0, 10000
        else:
            section += (digit or 1) * POWERS[char]  # "十二": a ten with no digit before it is one ten
            digit, last_power = 0, POWERS[char]
    if digit and written[-1] in DIGITS and len(written) > 1 and written[-2] in "百千万" and last_power >= 100:
        digit *= last_power // 10  # "三百六" is 360, "一万二" 12000: the power below the last one is implied
    return total + section + digit


def as_digits(text: str) -> str:
    """The text with its Chinese numbers written in digits, and measure words after numbers dropped."""
    for words, english in WITH_NUMERALS.items():
        text = text.replace(words, english)
    text = re.sub(rf"一\s*[{ARTICLE_AFTER}]|(?<=[{COUNTING_VERBS}])[{MEASURE_WORDS}]", " a ", text)  # "租一辆车", "买张票"
    text = re.sub(rf"百分之\s*({NUMERAL}|\d+(?:\.\d+)?)(?:点({NUMERAL}))?",
                  lambda m: f" {_number(m.group(1))}{_fraction(m.group(2))}% ", text)
    text = re.sub(rf"({NUMERAL}|\d+)点({NUMERAL}|\d+)(?=\s*(?:{DECIMAL_UNITS}))",
                  lambda m: f" {_number(m.group(1))}{_fraction(m.group(2))} ", text)
    text = re.sub(r"[零〇一二三四五六七八九幺]{5,}", lambda m: "".join(str(DIGITS.get(c, 1)) for c in m[0]), text)  # a phone's
    text = re.sub(NUMERAL, lambda m: m[0] if m[0] in "百千万" else f" {numeral(m[0])} ", text)  # digits; 万达, 百度: a name
    units = DECIMAL_UNITS.replace("|小时", "")  # "一个半小时" is read as minutes elsewhere
    text = re.sub(rf"(\d+)\s*({units})半", r" \1.5 \2", text)  # "一公斤半": 1.5 kg
    text = re.sub(rf"(?<![\d个])半\s*(?=(?:{units}))", " 0.5 ", text)  # "半公斤": 0.5 kg
    text = re.sub(r"(\d)\s*[个位]?人(?!民)", r"\1 people ", text)  # "三个人打球", "3人": people, whatever word follows
    return re.sub(rf"(\d)\s*[{MEASURE_WORDS}](?!之)", r"\1 ", text)


def _number(written: str) -> str:
    return written if written[0].isdigit() else str(numeral(written))


def _fraction(written: str | None) -> str:
    """ "五" after 点 is ".5": the digits after the point, each read alone."""
    return "." + (written if written.isdigit() else "".join(str(DIGITS.get(c, 0)) for c in written)) if written else ""
