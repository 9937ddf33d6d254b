"""Part of step 2: a parameter that takes one of its schema's options (an enum) or a flag (a boolean).

An enum takes the option the question names ("1200 dollars" names USD; for "from X to Y", the one on the parameter's
side); a flag is what the question says of its words ("without tolls": false), or a required flag answered in a word.
"""

from __future__ import annotations

import re
from functools import lru_cache
from os.path import commonprefix
from typing import Any

from agentkit.offline import lexicon, reading
from agentkit.offline.language import is_chinese
from agentkit.offline.places import CURRENCY_CODES
from agentkit.offline.reading import STOP_WORDS, split_name, stem
from agentkit.offline.roles import json_type, side_of
from agentkit.offline.spans import QUOTED, Span, find
from agentkit.offline.vocabulary import cut, english, senses

SYMBOLS = {"°c": " celsius", "°f": " fahrenheit", "°k": " kelvin", "ºc": " celsius", "ºf": " fahrenheit"}
YES, NO, ASKS, VAGUE, GENERIC = (frozenset(lexicon.words("words")["flags"][said].split()) for said in (
    "yes", "no", "asks", "vague", "generic"))
ASKED = re.compile(rf"\b(?:{'|'.join(ASKS)})\s+(?:(?:an?|the|some|my|our|his|her|their)\s+)?(\w+)")  # "with a projector"
YES_NO = re.compile(rf"\b(?:{'|'.join(map(re.escape, YES | NO))})(?![\w'])")
GROUPS = {group: [set(map(reading.stem, line.split())) for line in lines] for group, lines in lexicon.words("words")[
    "options"].items()}
MEANINGS = sum(GROUPS.values(), [])  # each line of words that point at one option, whatever the group
HAN = re.compile(r"[\u4e00-\u9fff]")
ZH_FLAG = lexicon.words("words")["zh_runs"]  # the words that lead a Chinese flag's thing, and that say no to it
DAYPARTS = lexicon.words("words")["dayparts"]
AFTER = re.compile(r"\s*([a-z]*)")  # the word after "any"
ALONE = {"is", "will", "would", "works", "fine", "ok", "okay", "goes", "at", "of", "you", "really", "please"}
NEGATED = re.compile(r"\b(?:not|no|never|without|isn't|wasn't|don't|doesn't)\s+(?:\w+\s+)?$")  # "not urgent", "not too urgent"
REFUSED = re.compile(r"\b(?:no|without|skip|not)\s+(?:(?:the|any|an?)\s+)?(\w+)")  # what follows is not wanted
STATED = re.compile(r"\b(true|false|yes|no)\s+(?:when|if|for)\s+([^.;]+)|([\u4e00-\u9fff]{2,12})为(是|否)")
"""A flag's value as its description states it: "false when guests pay for their own", "自己买菜为否"."""


def choice(spec: dict, hint: set[str], text: str, required: bool, guess: bool, tool: frozenset[str] = frozenset()) -> Any:
    """The option the question names ("1200 dollars" names USD); for "from X to Y", the one on this parameter's side.
    None named, a required option is the one the question's words point at (`_meanings`), when they point at one."""
    options, must = spec["enum"], required and guess
    lowered = re.sub("|".join(SYMBOLS), lambda m: SYMBOLS[m.group(0)], text.lower())  # "68°f": "68 fahrenheit"
    lowered = re.sub(rf"\b(?:{'|'.join(CURRENCY_CODES)})\b", lambda m: f"{m[0]} {CURRENCY_CODES[m[0]].lower()}", lowered)
    found = []
    named = [reading.split_name(str(option)) or [""] for option in options]  # "river_dee" by "dee", not the "river" it shares
    heads = [next((w for w in words if sum(w in other for other in named) == 1), words[0]) for words in named]
    spoken = {word for _, word in reading.words_at(lowered)}
    for option, head, own in zip(options, heads, named, strict=True):
        part = reading.stem(head)
        others = [reading.stem(h) for h in heads if h != head]
        for start, word in reading.words_at(lowered):
            if word in tool and len(own) > 1 and word in own and not {*own} <= spoken:
                continue  # "book a home cook" names the tool, not its home_style ("home-style food" does)
            spelled = word == part or len(word) >= 4 and part.startswith(word) or part == word[:4] or head in (
                f"{word}s", f"{word}es")  # "a rose" for roses
            # a synonym ("ml" for milliliters, "electric" for ev) only when it points at this option alone; not "not urgent"
            if part and (spelled or reading.names_option(word, part, (part, *others))) and not NEGATED.search(
                    lowered[:start]) and (word not in ("any", "all") or not (after := AFTER.match(lowered, start + len(word))[1])
                                          or {after, reading.stem(after)} & (hint | ALONE)):  # "any format", no "any bikes?"
                before = re.findall(r"[a-z0-9]+", lowered[:start])[-2:]
                found.append((start, option, before))
                break
    if not found:  # "not urgent" says nothing of urgent; it is a phrase of its own (low's); "second-hand" is used
        # an optional option by the lines of its own group only ("second-hand" for a condition, no "smashed" for a pick)
        groups = None if required else frozenset(hint & GROUPS.keys())
        table, phrases = _meanings(tuple(options), spec.get("description") or "", groups)
        said = {word for start, word in reading.words_at(lowered) if not NEGATED.search(lowered[:start])} - tool  # not its name's
        said = (said | {joined.replace("-", "") for joined in re.findall(r"[a-z]+(?:-[a-z]+)+", lowered)}) - {
            str(o).lower() for o in options}
        meant = {table[word] for word in {*said, *map(reading.stem, said), *phrases.findall(lowered)} if word in table}
        found = [(0, meant.pop(), [])] if len(meant) == 1 else []  # two or none: ask, as when none is named
    hours = [] if found or not {str(o).lower() for o in options} & DAYPARTS.keys() else [  # only an enum of parts of the day
        int(str(s.value)[:2]) for s in find(text) if s.kind == "time"] + [
        DAYPARTS[w][0] for w in re.findall(r"[a-z]{4,}", lowered.replace("mornings", "morning")) if w in DAYPARTS]
    if hours:  # a part of the day, by a clock time or its word: "at 2pm" and "in the afternoon" are pm
        found = [(0, o, []) for o in options if hours[0] in range(*DAYPARTS.get(str(o).lower(), (0, 0)))][:1]
    if not found:
        return spec.get("default") if must else None  # no default and no option named: ask, rather than pick one blind
    stems = {*map(reading.stem, spoken)}  # an option said whole before one of words said in part:
    found.sort(key=lambda f: (len(own := named[options.index(f[1])]) > 1 and not {*map(reading.stem, own)} <= stems,
                              f[0]))  # "a home cook, Cantonese food": cantonese, not home_style
    towards = [f for f in found if f[2][-1:] and f[2][-1] in {"to", "into", "in"}]
    source = [f for f in found if f[2][-1:] and (f[2][-1] == "from" or re.fullmatch(r"\d+|degrees?", f[2][-1]))]
    if side_of(hint) == "to":  # the unit of "500 ml" is where a conversion starts, never where it goes
        target = towards or [f for f in found if f not in source]
        return target[-1][1] if target else (spec.get("default") if must else None)
    return (source or [f for f in found if f not in towards] or found)[0][1] if side_of(hint) == "from" else found[0][1]


@lru_cache(maxsize=512)  # per enum: a request only looks its words up
def _meanings(options: tuple, described: str, groups: frozenset | None = None) -> tuple[dict[str, Any], re.Pattern[str]]:
    """Word or phrase -> the one option it points at, and the phrases (Chinese, "not urgent"): the option's head word
    (all its words where heads are shared: "everyDay"), their lines in [options], its gloss ("damaged: cracked or torn")."""
    # "x: …", "x = …", "x (…)", "x - …", "small 为小格" (a Chinese gloss, matched as written)
    glosses = dict(re.findall(r"\b([A-Za-z_]\w*)\s*(?:[:=(]|\s-|\s?(?:为|表示|是|指))\s*(?=([^.;:=()，、；。]+))", described))
    heads = [reading.stem((reading.split_name(str(option)) or [""])[0]) for option in options]
    pointed: dict[str, set] = {}
    for option, head in zip(options, heads, strict=True):  # "quick_wash" by "quick", not by "wash"
        own = {head, str(option).lower()} if heads.count(head) == 1 else {*map(reading.stem, reading.split_name(str(option)))}
        gloss = glosses.get(str(option), "").strip()
        lines = MEANINGS if groups is None else [line for group in groups for line in GROUPS[group]]
        for word in own.union(*(line for line in lines if own & line), reading.words(gloss), {gloss} - {""} if HAN.search(
                gloss) else ()):
            pointed.setdefault(word.replace("_", " "), set()).add(option)
    table = {word: found.pop() for word, found in pointed.items() if len(found) == 1}
    phrases = "|".join(re.escape(p) for p in sorted(table, key=len, reverse=True) if not re.fullmatch(r"[a-z0-9]+", p))
    return table, re.compile(rf"(?<![a-z])(?:{phrases or '$^'})(?![a-z])")


def boolean(name: str, text: str, required: bool, guess: bool, spans: list[Span], used: set[int],
             description: str = "", siblings: tuple[str, ...] = ()) -> bool | None:
    if (stated := stated_by(description, text)) is not None:  # "the guests will pay for their own": the host does not
        return stated
    topic = [w for w in reading.split_name(re.split(r"_(?:as|by|via|in)_", name)[-1]) if w not in GENERIC | YES | NO]
    # "birthday_package" is said by "birthday"; "refund_as_credit", "pay_by_card" by what follows "as", "by": "credit"
    lowered = QUOTED.sub(lambda quote: " " * len(quote.group(0)), text).lower()  # every word of the flag asked, unquoted
    said = reading.words_at(lowered)  # each word of the flag, or one of its synonyms ("bringing a friend" for a guest)
    matches = [reading.pattern(rf"\b{re.escape(reading.stem(word)[:5])}\w*").search(lowered) or next((re.compile(r"\S+").search(
        lowered, at) for at, w in said if reading.related(w, reading.stem(word))), None) for word in topic]
    if not (topic and all(matches)):  # or the verb its description says: "True if the tank was filled" for "filled it up"
        said = [re.search(rf"\b{verb}\b", lowered) for verb in re.findall(r"\b[a-z]{3,}ed\b", description.lower())]
        # or a thing of its name or description asked for ("bring a ladder" for needs_ladder), no other parameter's
        things = {reading.stem(w)[:5] for w in [*topic, *reading.words(english(description))] if len(w) > 2} - VAGUE - {
            reading.stem(w)[:5] for n in siblings if n != name for w in reading.split_name(n)}
        said += [m for m in ASKED.finditer(lowered) if reading.stem(m[1])[:5] in things] + [  # or refused: "no weed killer"
            re.compile(r"\w+").search(lowered, m.start(1)) for m in REFUSED.finditer(lowered) if reading.stem(m[1])[:5] in things]
        matches = [match for match in said if match][:1]
    if matches:
        first = min(match.start() for match in matches)
        return not re.search(r"\b(?:no|not|without|don't|won't|doesn't|exclude|skip|never)\b[\w\s]{0,20}$", lowered[:first])
    said = YES_NO.search(lowered) if required else None  # "RSVP yes", "switch it off": a required flag answered in a word
    if not said:
        return False if required and guess else None  # a required flag not answered: a guess says no
    spans.append(Span(said.start(), said.end(), "named", said.group(0)))  # the answer, no part of a name ("decline the gala")
    used.add(id(spans[-1]))
    return said.group(0) in YES


def stated_by(description: str, question: str) -> bool | None:
    """The value a flag's description gives for what the question says: most of the words of its "false when ..."
    (its first two, who and what, among them), or every character of a Chinese "...为否" and its first word."""
    stated = STATED.findall(description)  # most flags state none: the question is read only for one that does
    said = {reading.stem(w)[:5] for w in reading.words(question.lower())} if stated else set()
    for value, clause, zh_clause, zh_value in stated:
        if zh_clause and zh_clause[:2] in question and set(zh_clause) <= set(question):  # "菜我们自己买"
            return zh_value == "是"
        stems = dict.fromkeys(reading.stem(w)[:5] for w in reading.words(clause.lower()) if len(w) > 2)
        wanted = [w for w in stems if w not in VAGUE]
        if set(wanted[:2]) <= said and len(said.intersection(wanted)) >= max(2, len(wanted) / 2):  # who does what, and most
            return value.lower() in ("true", "yes")
    return None


def flags(question: str, properties: dict, found: dict[str, Any]) -> dict[str, bool]:
    """A yes/no flag described in Chinese, said by its thing: "是否需要毛巾" by "要两条毛巾" (true), "不用毛巾" (false); an aside
    in brackets is no part of it ("是否学生（凭学生证半价）": "我是学生")."""
    said = {}
    for name, spec in properties.items():
        described = re.sub(r"[（(][^）)]*[）)]", "", spec.get("description") or "").split("是否")[-1]  # "家里是否有钢琴": 有钢琴
        thing = re.sub(rf"^(?:{ZH_FLAG['flag_leads']})+|[？?。.吗]+$", "", described)
        # "是否需要烧制作品" is said by "不用烧制" (its first word), "是否开发票" by "要发票" (its last)
        thing = next((t for t in (thing, thing[:2], thing[-2:]) if t in question), thing)
        if json_type(spec) != "boolean" or name in found:
            continue
        if (stated := stated_by(spec.get("description") or "", question)) is not None:  # "自己买菜为否": "我们自己买菜"
            said[name] = stated
        elif HAN.search(thing) and 1 < len(thing) < 7 and thing in question:
            said[name] = not re.search(rf"(?:{ZH_FLAG['flag_no']})[^，。,]{{0,3}}$", question[:question.index(thing)])
    return said


def meant(question: str, schema: dict, found: dict[str, Any]) -> dict[str, Any]:
    """The English option a Chinese word means, for an enum the question names no other way: "乌龙茶" (oolong tea) names
    oolong, "夏威夷披萨" hawaiian, "兔子" (hare, rabbit) rabbit, "全套美容" (complete set, beauty) a full_groom. The question
    is cut into CC-CEDICT's longest words; an option is meant by the most of its words their senses say, the larger share
    of its words breaking a tie; a word of one character ("薄" for a thin crust) only for a required option, and never a
    word after a "no" ("不要辣"). A Chinese option is meant when the question has its characters ("剪头发": 剪发), the
    longest of several. One option meant, or none is given."""
    open_ = {n: s for n, s in (schema.get("properties") or {}).items() if n not in found and s.get("enum")}
    said = [(len(w), {stem(x) for x in re.findall(r"[a-z]+", rest.lower().replace("'", ""))})  # CC-CEDICT is read (0.4 s,
            for at, w, known in cut(question, senses()) if known and not re.search(  # once) only for an option to find
                f"(?:{ZH_FLAG['flag_no']})$", question[max(0, at - 2):at]) for rest in senses()[w].split("/")] if open_ else []
    given = {}
    for name, spec in open_.items():
        options = [o for o in spec["enum"] if isinstance(o, str) and o.isascii()]
        pool = {w for size, sense in said if size > 1 or name in schema.get("required", ()) for w in sense}
        scored = sorted(((len(hits), len(hits) / len(ws), o) for o in options if (ws := [stem(w) for w in split_name(o)
                         if w not in STOP_WORDS] or [stem(o)]) and (hits := [w for w in ws if any(_alike(w, x) or any(
                             w in line and x in line for line in MEANINGS) for x in pool)])), reverse=True)
        written = sorted(((len(o), o) for o in spec["enum"] if isinstance(o, str) and is_chinese(o) and all(
            c in question for c in o)), reverse=True)  # a Chinese option by its characters: "剪头发" says 剪发
        scored = scored or [(n, 1, o) for n, o in written]
        given |= {name: scored[0][2]} if scored and (len(scored) == 1 or scored[0][:2] > scored[1][:2]) else {}
    return given


def _alike(word: str, other: str) -> bool:
    """One word in two forms: "tea" and "tea", "hawaii" and "hawaiian", "luxury" and "luxurious" (a start of 5 letters,
    all but one of the shorter's); not "compact" and "company"."""
    return word == other or len(same := commonprefix([word, other])) >= 5 and len(same) >= min(len(word), len(other)) - 1
