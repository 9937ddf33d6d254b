"""Part of step 2, for Chinese: a free-text value is given in the learner's own words, not in the model's English.

The model reads a Chinese question through its bilingual vocabulary ("取消周会" is read "cancel weeks 会"), so the
title it finds for `cancel_event` is "weeks 会". A person wants "周会": the words they wrote that read as that value.
Only free text goes back (a title, a message, a note, a search, a place: "北京", not "Beijing"): an option stays the
schema's ("food"), a time zone "Asia/Tokyo", a time "09:00".
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agentkit.offline import lexicon
from agentkit.offline.language import is_chinese
from agentkit.offline.phrases import text_kind
from agentkit.offline.reading import split_name, words
from agentkit.offline.roles import STRICT, hint_of, json_type, role_of
from agentkit.offline.spans import MEASURES, Span
from agentkit.offline.vocabulary import RELATIVE_DAYS, UNREAD, WORDS, english
from agentkit.offline.zh_numbers import MEASURE_WORDS, NUMERAL, numeral

EDGES = "的了吗呢吧啊，。、！？：；,.!?:; "
"""What a phrase does not start or end with: particles and punctuation around the words of a value."""
MARKS = "，。、！？：；,.!?:; "  # what a value its frame placed does not end with: "取消了" keeps its 了
ENDS = lexicon.words("words")["zh_function_words"]
PERSON = re.compile(rf"(?:{'|'.join(ENDS['before_person'])})?(.+?(?:{'|'.join(ENDS['person_titles'])})|.+?(?="
                    rf"(?:{'|'.join(ENDS['after_person'])}))|.+)")
"""Who a person value names, as written: after 跟 or 给, up to a title ("Tony老师") or the verb done to them ("老婆|发个短信")."""
NUMBERED_PLACE = re.compile(rf"(\d+|{NUMERAL})\s*号\s*(?:{'|'.join(lexicon.words('words')['zh']['numbered'])})")
FRAMES = [(re.compile(pattern), frozenset(fits.split()) | frozenset(words(fits))) for pattern, fits in lexicon.words(
    "words")["zh_frames"].values()]  # each word as written and as a description's words are read ("passeng")
"""Where a Chinese sentence places a value, by the words around it: 让X去接Y (who does it, to whom), 给X发 (who receives),
把X移到Y (the thing moved, where to), 标题是X, 内容是X, 因为X ..., each with the words of the parameters it fits."""


def in_learners_words(arguments: dict[str, Any], schema: dict, question: str) -> dict[str, Any]:
    """The call's free-text values as the learner wrote them, for a question written in Chinese (a day of a month the
    tool asks in no format: "3月14日", not "March 14"; a place no table knows: "体育 Center" is 体育中心)."""
    properties = schema.get("properties") or {}
    if not is_chinese(question):
        return arguments
    written = {name: _quoted(value, question, properties.get(name) or {}, name) if isinstance(value, str) and _free(
        name, properties.get(name) or {}, value) else value for name, value in arguments.items()}
    written |= framed(question, properties, set(written))  # "让奶奶去接小明": who picks up, who is picked up
    # "奥体中心的羽毛球场": a place written as the learner did is what stands before 的, not the court booked there
    for name in (n for n in written if written[n] != arguments.get(n) and role_of(n, properties.get(n) or {})[0] == "place"):
        written[name] = re.sub(r"^([\u4e00-\u9fff]{2,})的[\u4e00-\u9fff]{2,}$", r"\1", written[name])
    unit = next((n for n, spec in properties.items() if n not in written and _free(n, spec, "") and role_of(n, spec)[0]
                 == "unit"), None)  # "3盒酸奶": the measure word between the number and the thing counted is its unit
    measured = (re.search(rf"(?:\d|{NUMERAL})\s*([\u4e00-\u9fff]{{1,2}}?)\s*{re.escape(v)}", question) for v in written.values()
                if isinstance(v, str) and is_chinese(v))
    said = next((m[1] for m in measured if m and (m[1] in MEASURE_WORDS or WORDS.get(m[1]) in MEASURES)), None) if unit else None
    return written | ({unit: said} if said else {})


def framed(question: str, properties: dict, found: set[str]) -> dict[str, str]:
    """The values the sentence's frames place, for each free-text parameter whose words fit a frame: by its name's
    words on every frame first ("to: who receives the message" is a receiver, not a message), then its description's.
    A value fills one parameter; a path or an address only when none was `found` ("收件人" of a parcel is a person), but
    a path's name always ("folder_name")."""
    placed: dict[str, str] = {}
    counted = any(json_type(spec) in ("number", "integer") for spec in properties.values())  # "5克盐": 5 is the amount's
    for by_name in (True, False):
        for name, spec in properties.items():
            own = set(split_name(name)) | {name, role_of(name, spec)[0]} if by_name else hint_of(name, spec)
            named = text_kind(name) == "title"  # "文件夹叫发票": a folder's name, not a path found ("1 folder")
            if name not in placed and (_free(name, spec, "") or (name not in found or named) and json_type(spec) == "string"
                                       and role_of(name, spec)[0] in ("email", "path") and "mail" not in name):
                values = (m["v"].strip(MARKS) for pattern, fits in FRAMES if own & fits for m in pattern.finditer(question))
                if value := next((v for v in values if v and v not in placed.values()), None):
                    value = re.sub(rf"^(?:\d+|{NUMERAL}+)[\u4e00-\u9fff](?=.)", "", value) if counted else value
                    placed[name] = _numbered(_without_own_noun(value, hint_of(name, spec)), question)
    return placed


def _without_own_noun(value: str, hint: frozenset[str]) -> str:
    """A value without the noun that names its own parameter ("联系人王大锤" is the contact 王大锤)."""
    noun = next((w for w in WORDS if value.startswith(w) and len(w) < len(value) and hint & set(WORDS[w].split())), "")
    return value[len(noun):]


def _free(name: str, spec: dict, value: str) -> bool:
    strict = STRICT - {"place"} - ({"date"} if re.fullmatch(r"[A-Z][a-z]+ \d+", value) else set())  # 北京, not "Beijing"
    return json_type(spec) == "string" and "enum" not in spec and role_of(name, spec)[0] not in strict - {"unit"}


def _quoted(value: str, question: str, spec: dict, name: str) -> str:
    """A value quoted from the question as written. It is one clause's words ("pay rent , 之前" is 交房租: the day
    before which it is due is another part of the request), but for a message (its frame finds where it ends) or a
    search; a person ends where the verb done to them starts; a unit is the one written ("jin" is 斤) for a tool in
    Chinese."""
    role = role_of(name, spec)[0]
    pieces = [piece for piece in value.split(",") if piece.strip(EDGES)] if role not in ("body", "query") else []
    written = as_written(pieces[0].strip() if pieces else value, question)
    written = written if "numb" in hint_of(name, spec) else _numbered(written, question)  # "the room's number": 3
    if role == "unit":  # "jin" is 斤 for a tool that names its units in Chinese, "liters" stays for one in English
        return written if is_chinese(written) and is_chinese(spec.get("description") or "") else value
    return PERSON.match(written)[1] if role == "person" and is_chinese(written) else written


def _numbered(written: str, question: str) -> str:
    """A place named by its number as written: "二号会议室" (read "meeting room #2", so the value found is "2"), "3楼会议室"
    (found as "会议室")."""
    if is_chinese(written) and (glued := re.search(rf"(?:\d+|{NUMERAL})\s*[楼层栋]\s*{re.escape(written)}", question)):
        return glued[0]  # not 号 alone: "5号开会" is a day's
    numbers = ((p[0], str(p[1] if p[1].isdigit() else numeral(p[1]))) for p in NUMBERED_PLACE.finditer(question))
    return next((place for place, number in numbers if written == number or written and place.endswith(written)), written)


def as_written(value: str, question: str) -> str:
    """The shortest stretch of the question that reads as `value` ("周会" for "weeks 会"); `value` if none does."""
    if not (wanted := _plain(value)) or value in question:
        return value
    first, last = wanted.split()[0], wanted.split()[-1]
    starts = [i for i in range(len(question)) if _reads_from(question, i, first)]
    ends = [j for j in range(1, len(question) + 1) if _reads_to(question, j, last)]
    found = [(j - i, i, j) for i in starts for j in ends if j > i and _plain(english(question[i:j])) == wanted]
    # a word only CC-CEDICT read ("开心的近义词": "feel happy"), which it reads only where the vocabulary left Chinese unread;
    # its reading may hold more than the value, whose other words named the tool ("取消周会": "weekly meeting")
    if not found and value.isascii() and not value.isdigit() and UNREAD.search(english(question)):
        found = [(j - i, i, j) for i in range(len(question)) for j in range(i + 2, min(i + 9, len(question) + 1))
                 if re.search(rf"\b{re.escape(wanted)}\b", _plain(english(question[i:j], lambda _: -1.0)))]
    _, i, j = min(found, default=(0, 0, 0))
    return question[i:j].strip(EDGES) or value


def _reads_from(question: str, at: int, word: str) -> bool:
    """The question, from `at`, starts with `word` as written or with a Chinese word the vocabulary reads as it."""
    return question.casefold().startswith(word, at) or any(question.startswith(c, at) for c in _chinese_for(word)) \
        or question[at] in "和跟与周星礼0123456789" and english(question[at:]).casefold().startswith(word)  # "和 Lina", "3月"


def _reads_to(question: str, end: int, word: str) -> bool:
    return question.casefold().endswith(word, 0, end) or any(question.endswith(c, 0, end) for c in _chinese_for(word)) \
        or question[end - 1] in "日号一二三四五六天" and _plain(english(question[:end])).endswith(word)  # "5月2日" reads "May 2"


@cache
def _chinese_for(word: str) -> tuple[str, ...]:
    """The Chinese words the vocabulary reads as something that starts or ends with `word`."""
    read = WORDS | RELATIVE_DAYS  # "周末" is the weekend
    return tuple(c for c, e in read.items() if e and word in (e.split()[0].casefold(), e.split()[-1].casefold()))


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip(" ,.?!\"'").casefold()


def glossed(spec: dict, text: str, spans: list[Span], used: set[int]) -> Any:
    """The option a Chinese description glosses ("large 大杯", "no_ice 去冰") or a Chinese option ("怡宝") that the
    question names; both read through the vocabulary as the question was, so "去冰" meets "去冰". The words that
    named it are the option's (a span in `used`): "拿铁，燕麦奶" orders a latte, not an "燕麦奶", with oat milk."""
    glosses = dict(re.findall(r"([\w%]+)\s*[（(：:=]?\s*([\u4e00-\u9fff]+)", spec.get("description") or ""))
    named = ((o, english(w)) for o in spec["enum"] for w in (glosses.get(str(o)), is_chinese(str(o)) and str(o)) if w)
    option, said = next(((o, s) for o, s in named if s in text), (None, ""))
    if said:
        spans.append(Span(text.index(said), text.index(said) + len(said), "named", said))
        used.add(id(spans[-1]))
    return option
