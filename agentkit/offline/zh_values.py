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
from agentkit.offline.options import flags, meant
from agentkit.offline.phrases import PERSON, text_kind
from agentkit.offline.reading import split_name, words
from agentkit.offline.roles import STRICT, hint_of, json_type, role_of
from agentkit.offline.spans import MEASURES, Span
from agentkit.offline.vocabulary import RELATIVE_DAYS, UNREAD, WORDS, by_dictionary, english
from agentkit.offline.zh_numbers import MEASURE_WORDS, NUMERAL, numeral

EDGES = "的了吗呢吧啊，。、！？：；,.!?:; "
"""What a phrase does not start or end with: particles and punctuation around the words of a value."""
MARKS = "，。、！？：；,.!?:; "  # what a value its frame placed does not end with: "取消了" keeps its 了
NUMBERED_PLACE = re.compile(rf"(\d+|{NUMERAL})\s*号\s*(?:{'|'.join(lexicon.words('words')['zh']['numbered'])})")
FRAMES = [(re.compile(pattern), frozenset(fits.split()) | frozenset(words(fits))) for pattern, fits in lexicon.words(
    "words")["zh_frames"].values()]  # each word as written and as a description's words are read ("passeng")
"""Where a Chinese sentence places a value, by the words around it: 让X去接Y (who does it, to whom), 给X发 (who receives),
把X移到Y (the thing moved, where to), 标题是X, 内容是X, 因为X ..., each with the words of the parameters it fits."""
RUNS = lexicon.words("words")["zh_runs"]
QUOTES = re.compile(r'(?<=“)[^”]+(?=”)|(?<=「)[^」]+(?=」)|(?<=")[^"]+(?=")')
CUT, VERB = (re.compile(rf"({RUNS['measured']}|{'|'.join(sorted(cuts, key=len, reverse=True))}|[，。、！？：；,!?:;])")
             for cuts in (RUNS["verbs"] + RUNS["links"], RUNS["verbs"]))
"""What a content run of a person or a place ends at: a verb of the request, a word that links, a number and its measure
word; a run of anything else, at the verb or a measure only ("带猫去打疫苗" is one task)."""
READ_ON = "和跟与周星礼下这本0123456789"  # what is read with the words after it: "和 Lina", "3月", "下周一" (Monday next week)
NAMED = re.compile(RUNS["name_shape"])
PLACE_FIRST = re.compile(rf"(?:在|到|去)?([\u4e00-\u9fff]{{1,7}}?{RUNS['places'].removesuffix('$')})")  # a run's place
SHAPES = {"person": re.compile(rf"{'|'.join(RUNS['persons'])}|{RUNS['name_shape']}"), "place": re.compile(RUNS["places"])}


def in_learners_words(arguments: dict[str, Any], schema: dict, question: str, alone: bool = True) -> dict[str, Any]:
    """The call's free-text values as the learner wrote them, for a question written in Chinese (a day of a month the
    tool asks in no format: "3月14日", not "March 14"; a place no table knows: "体育 Center" is 体育中心); and its options
    meant by Chinese words, when it is the question's one call (`alone`): the words may be another call's."""
    properties = schema.get("properties") or {}
    if not is_chinese(question):
        return arguments
    written = {name: _quoted(value, question, properties.get(name) or {}, name) if isinstance(value, str) and _free(
        name, properties.get(name) or {}, value) else value for name, value in arguments.items()}
    said = {m["zh"] for m in PERSON.finditer(english(question)) if m["zh"]}  # "联系人王女士": a name said so, not framed
    written |= {n: v for n, v in framed(question, properties, set(written)).items() if written.get(n) not in said}  # 让X去接Y
    written = {n: in_run(v, n, properties.get(n) or {}, question) for n, v in written.items()}
    written |= labelled(question, schema, written, said)  # "作者是刘慈欣", "在首都机场T3接张总"
    written |= flags(question, properties, written)  # "需要毛巾" for "是否需要毛巾"
    written |= of_its_kind(question, schema, written)  # "医院名称": 华西医院, not the 我爸要 before 去
    written |= meant(question, schema, written) if alone else {}  # "乌龙茶" names oolong, "兔子" rabbit
    # "奥体中心的羽毛球场": a place written as the learner did is what stands before 的, not the court booked there
    for name in (n for n, v in written.items() if v != arguments.get(n) and isinstance(v, str) and role_of(
            n, properties.get(n) or {})[0] == "place"):  # (a flag of a place's role, "上门取送", is no place)
        written[name] = re.sub(r"^([\u4e00-\u9fff]{2,})的[\u4e00-\u9fff]{2,}$", r"\1", written[name])
    unit = next((n for n, spec in properties.items() if n not in written and _free(n, spec, "") and role_of(n, spec)[0]
                 == "unit"), None)  # "3盒酸奶": the measure word between the number and the thing counted is its unit
    measured = (re.search(rf"(?:\d|{NUMERAL})\s*([\u4e00-\u9fff]{{1,2}}?)\s*{re.escape(v)}", question) for v in written.values()
                if isinstance(v, str) and is_chinese(v))
    said = next((m[1] for m in measured if m and (m[1] in MEASURE_WORDS or WORDS.get(m[1]) in MEASURES)), None) if unit else None
    return written | ({unit: said} if said else {})


def of_its_kind(question: str, schema: dict, found: dict[str, Any]) -> dict[str, str]:
    """A required place no table knows (a place's parameter, or one named for a kind of place: "museum" is 博物馆), named as
    its description says its kind ("医院名称": 华西医院, "门店名称": 五道口店): the start of a run of the request up to that
    kind's last character, past the day and time before it; with no kind said in Chinese, the run shaped as a place
    (`_place_run`) in place of a value that is none ("开始", "证号": words read past; not 西单 nor Rome, no address)."""
    placed = {}
    for name, spec in ((n, s) for n, s in (schema.get("properties") or {}).items() if n in (schema.get("required") or ())):
        kind = re.sub(r"(?:名称|名字|名)$", "", (re.findall(r"[\u4e00-\u9fff]+", spec.get("description") or "") or [""])[0])
        if "enum" in spec or (role := role_of(name, spec)[0]) != "place" and (role == "room" or not any(
                SHAPES["place"].search(zh) for word in split_name(name) for zh in _chinese_for(word))):
            continue
        if len(kind) < 2 or not SHAPES["place"].search(kind):
            was = str(found.get(name, ""))
            misread = is_chinese(was) and ("的" in was or len(was) > 6 or not (UNREAD.search(read := english(was)) or re.search(
                r"[A-Z]", read)))  # read whole as common words, no name (Rome, Zhongguancun)
            if misread and not (SHAPES["place"].search(was) or "address" in name) and (run := _place_run(question, found)):
                placed[name] = run
            continue
        runs = (re.sub(RUNS["when_first"], "", run.strip(EDGES)) for run in CUT.split(question)[::2])
        named = next((m[0] for run in runs if (m := re.match(rf"[\u4e00-\u9fff]{{1,6}}?{kind[-1]}", run))), "")
        if named and named != (was := str(found.get(name, ""))) and (named.endswith(was) or not was.endswith(kind[-1])):
            placed[name] = named  # "五道口店" of a "道口店" read past a number
    return placed


def _place_run(question: str, found: dict[str, Any]) -> str | None:
    """The request's first run shaped as a place and no other value, past the day and time before it and before its 的
    ("周六上午十点故宫博物院的票": 故宫博物院), one the table cannot read whole first ("订羽毛球场，在奥体中心": 奥体中心)."""
    runs = [re.sub(RUNS["when_first"], "", part.strip(EDGES)) for run in CUT.split(question)[::2]
            for part in re.split("[的和]", run)]
    shaped = [m[1] for run in runs if (m := PLACE_FIRST.match(run)) and m[1] not in found.values()]  # "在奥体中心租"
    return next((run for run in shaped if UNREAD.search(english(run))), shaped[0] if shaped else None)


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
                    placed[name] = _numbered(value, question)
    return placed


def in_run(value: Any, name: str, spec: dict, question: str) -> Any:
    """A free-text value as one content run of the request: cut where a function word or the request's verb starts
    ("王老师留言：明天..." is 王老师, "南站接爷爷" a person's 爷爷, "小王一个蓝牙音箱" a thing's 蓝牙音箱: the run after a
    number's measure), or the whole run it stands in when that ends as a place does ("南京" of "去南京南站接")."""
    role = role_of(name, spec)[0]
    if isinstance(value, str) and value not in question and role in SHAPES:  # "capital 机场 T3 接张总": 接张总
        value = next((v for v in re.findall(r"[\u4e00-\u9fff]+", value)[::-1] if v in question and SHAPES[role].search(v)), value)
    if not isinstance(value, str) or value not in question or role in STRICT - {"place", "email"} or {
            role, *hint_of(name, spec)} & set(RUNS["whole"]) or any(value in q for q in QUOTES.findall(question)):
        return value  # a value the learner quoted ends at the quotes, not at its own commas
    parts = (CUT if role in SHAPES else VERB).split(value)
    runs = [(run.strip(EDGES), bool(re.fullmatch(RUNS["measured"], parts[at - 1])) if at else False)
            for at, run in enumerate(parts) if not at % 2 and run.strip(EDGES)]
    if len(runs) > 1 or runs and runs[0][0] != value.strip(EDGES) and role in SHAPES:  # "送小王": the person sent to
        shaped = [run for run, _ in runs if role in SHAPES and SHAPES[role].search(run)]
        return next(iter(shaped or [run for run, measured in runs if measured] or [runs[0][0]]))
    around = next((run for run in re.split(f"{CUT.pattern}|的", question)[::2] if run.startswith(value) and run != value), "")
    once = question.count(value) == 1  # "杭州" of "杭州去南京", not the 杭州东站 of another clause
    return around if role == "place" and once and len(around) <= len(value) + 3 and SHAPES["place"].search(around) else value


def labelled(question: str, schema: dict, found: dict[str, Any], said: set[str]) -> dict[str, str]:
    """The values the request labels with their parameter's word: "作者是刘慈欣" (an author), "联系人写张伟" (a contact):
    the run after a word that reads as the parameter's name or is one of its description's Chinese words, in place of
    a value `found` when a marker (是, 写, ：) says it is labelled ("客厅" reads "living room": a room, no label) or when
    a person's is none ("提交" read as one; a name the request `said` is one: "女儿朵朵"). A required person or place none
    was found for is the last run shaped as one ("在首都机场T3接张总")."""
    parts = CUT.split(question)
    runs = [run.strip(EDGES) for run in parts[::2] if run.strip(EDGES)]
    things = [run.strip(EDGES) for at, run in enumerate(parts)
              if at % 2 == 0 and at and re.fullmatch(RUNS["measured"], parts[at - 1])]  # what a measure word counts
    placed: dict[str, str] = {}
    required = schema.get("required") or ()
    for name, spec in (schema.get("properties") or {}).items():
        role = role_of(name, spec)[0]
        own = {name, role, *split_name(name)} | {w for w in hint_of(name, spec) if is_chinese(w)}
        labels = (at + size for at in range(len(question)) for size in (2, 3) if question[at:at + size] in WORDS and (
            question[at:at + size] in own or set(WORDS[question[at:at + size]].split() or [""]) <= own))
        cut = re.compile("[，。！？；,!?;]") if {role, *hint_of(name, spec)} & set(RUNS["whole"]) else CUT
        marked = (re.match(r"(?:是|为|写成|写|叫|[：:])?", question[end:]) for end in labels)
        values = ((m[0], cut.split(m.string[m.end():])[0].strip(EDGES)) for m in marked)
        was = str(found.get(name, ""))  # none, none as written ("09:00 to 停 water"), a person's that is none ("提交")
        weak = not was or was not in question or role == "person" and not SHAPES[role].search(was) and was not in said
        if _free(name, spec, "") and (value := next((v for k, v in values if is_chinese(v) and (k or weak)), None)):
            placed[name] = value
        elif role in SHAPES and name in required and (shape := SHAPES[role] if name not in found else NAMED if weak and (
                role == "person") else None) and (value := next((  # a name said as one (李娜) for a person's misread
                run for run in runs[::-1] if shape.search(run) and run not in found.values()), None)):
            placed[name] = value
        elif _free(name, spec, "") and role not in SHAPES and cut is CUT and (any(  # "地铁" of 中关村地铁站 is the place's:
                was in run != was and SHAPES["place"].search(run) for run in runs) if was else name in required) and (
                value := next((run for run in things if run and run not in found.values()), None)):  # the thing: 一把黑色雨伞
            placed[name] = value
    return placed


def _free(name: str, spec: dict, value: str) -> bool:
    strict = STRICT - {"place"} - ({"date"} if re.fullmatch(r"[A-Z][a-z]+ (?:\d+|\D*week\D*)", value) else set())  # 北京, 下周一
    return json_type(spec) == "string" and "enum" not in spec and role_of(name, spec)[0] not in strict - {"unit"}


def _quoted(value: str, question: str, spec: dict, name: str) -> str:
    """A value quoted from the question as written. It is one clause's words ("pay rent , 之前" is 交房租: the day
    before which it is due is another part of the request), but for a message (its frame finds where it ends) or a
    search; a unit is the one written ("jin" is 斤) for a tool in Chinese."""
    role = role_of(name, spec)[0]
    pieces = [piece for piece in value.split(",") if piece.strip(EDGES)] if role not in ("body", "query") else []
    written = as_written(pieces[0].strip() if pieces else value, question)
    written = written if "numb" in hint_of(name, spec) else _numbered(written, question)  # "the room's number": 3
    if role == "unit":  # "jin" is 斤 for a tool that names its units in Chinese, "liters" stays for one in English
        return written if is_chinese(written) and is_chinese(spec.get("description") or "") else value
    return written


def _numbered(written: str, question: str) -> str:
    """A place named by its number as written: "二号会议室" (read "meeting room #2", so the value found is "2"), "3楼会议室"
    (found as "会议室")."""
    if is_chinese(written) and re.search("[楼层栋]", question) and (glued := re.search(
            rf"(?:\d+|{NUMERAL})\s*[楼层栋]\s*{re.escape(written)}", question)):
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
        or question[at] in READ_ON and english(question[at:]).casefold().startswith(word)


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
    """The option a Chinese description glosses ("large 大杯", "no_ice 去冰", or its gloss's head where glosses share an
    end: "中老年" for senior=中老年套餐) or a Chinese option ("怡宝") that the question names; both read through the
    vocabulary as the question was, so "去冰" meets "去冰". The words that named it are the option's (a span in `used`):
    "拿铁，燕麦奶" orders a latte, not an "燕麦奶", with oat milk."""
    described = spec.get("description") or ""  # "large 大杯", "large=大杯", or "大杯(large)", "大杯 large"
    after = re.findall(r"([\u4e00-\u9fff]+)\s*[（(：:=＝]?\s*([A-Za-z_][\w%-]*)", described)
    glosses = {option: chinese for chinese, option in after if option in map(str, spec["enum"])} | dict(
        re.findall(r"([\w%]+)\s*[（(：:=＝]?\s*([\u4e00-\u9fff]+)", described))  # the option first where both read
    ends = {g[-k:] for g in glosses.values() for k in (2, 3) if sum(h.endswith(g[-k:]) for h in glosses.values()) > 1}
    heads = {o: g[:-len(e)] for o, g in glosses.items()  # 中老年(套餐): without the longest end it shares
             if (e := max((e for e in ends if g.endswith(e) and len(g) - len(e) > 1), key=len, default=""))}
    named = ((o, r) for o in spec["enum"] for w in (glosses.get(str(o)), is_chinese(str(o)) and str(o), heads.get(str(o))) if w
             for r in (english(w), w, *[by_dictionary(w).strip()] * is_chinese(text)))  # as the vocabulary reads it, or as
    # written inside a word it does not know ("草莓味"), or as the dictionary read it in a Chinese request (进阶: advanced)
    option, said = next(((o, s) for o, s in named if s in text), (None, ""))
    if said:
        spans.append(Span(text.index(said), text.index(said) + len(said), "named", said))
        used.add(id(spans[-1]))
    return option
