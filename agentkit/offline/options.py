"""Part of step 2: a parameter that takes one of its schema's options (an enum) or a flag (a boolean).

An enum takes the option the question names ("1200 dollars" names USD; for "from X to Y", the one on the parameter's
side); a flag is what the question says of its words ("without tolls": false), or a required flag answered in a word.
"""

from __future__ import annotations

import re
from typing import Any

from agentkit.offline import lexicon, reading
from agentkit.offline.places import CURRENCY_CODES
from agentkit.offline.roles import side_of
from agentkit.offline.spans import QUOTED, Span

SYMBOLS = {"°c": " celsius", "°f": " fahrenheit", "°k": " kelvin", "ºc": " celsius", "ºf": " fahrenheit"}
YES, NO = (frozenset(lexicon.words("words")["flags"][said].split()) for said in ("yes", "no"))
YES_NO = re.compile(rf"\b(?:{'|'.join(map(re.escape, YES | NO))})(?![\w'])")


def choice(options: list, hint: set[str], text: str, default: Any, must: bool) -> Any:
    """The option the question names ("1200 dollars" names USD); for "from X to Y", the one on this parameter's side."""
    lowered = re.sub("|".join(SYMBOLS), lambda m: SYMBOLS[m.group(0)], text.lower())  # "68°f": "68 fahrenheit"
    lowered = re.sub(rf"\b(?:{'|'.join(CURRENCY_CODES)})\b", lambda m: f"{m[0]} {CURRENCY_CODES[m[0]].lower()}", lowered)
    found = []
    heads = [(reading.split_name(str(option)) or [""])[0] for option in options]
    for option, head in zip(options, heads, strict=True):
        part = reading.stem(head)
        others = [reading.stem(h) for h in heads if h != head]
        for start, word in reading.words_at(lowered):
            spelled = word == part or len(word) >= 4 and part.startswith(word) or part == word[:4]
            # a synonym ("ml" for milliliters, "electric" for ev) only when it points at this option alone
            if part and (spelled or reading.names_option(word, part, (part, *others))):
                before = re.findall(r"[a-z0-9]+", lowered[:start])[-2:]
                found.append((start, option, before))
                break
    if not found:
        return default if must else None  # no default and no option named: ask, rather than pick one blind
    found.sort(key=lambda f: f[0])
    towards = [f for f in found if f[2][-1:] and f[2][-1] in {"to", "into", "in"}]
    source = [f for f in found if f[2][-1:] and (f[2][-1] == "from" or re.fullmatch(r"\d+|degrees?", f[2][-1]))]
    if side_of(hint) == "to":  # the unit of "500 ml" is where a conversion starts, never where it goes
        target = towards or [f for f in found if f not in source]
        return target[-1][1] if target else (default if must else None)
    return (source or [f for f in found if f not in towards] or found)[0][1] if side_of(hint) == "from" else found[0][1]


def boolean(name: str, text: str, required: bool, guess: bool, spans: list[Span], used: set[int],
             description: str = "") -> bool | None:
    topic = [w for w in reading.split_name(name) if w not in {"is", "include", "use", "show", "with", "has", "only"} | YES | NO]
    lowered = QUOTED.sub(lambda quote: " " * len(quote.group(0)), text).lower()  # every word of the flag asked, unquoted
    matches = [re.search(rf"\b{re.escape(reading.stem(word)[:5])}\w*", lowered) for word in topic]
    if not (topic and all(matches)):  # or the verb its description says: "True if the tank was filled" for "filled it up"
        said = [re.search(rf"\b{verb}\b", lowered) for verb in re.findall(r"\b[a-z]{3,}ed\b", description.lower())]
        matches = [match for match in said if match][:1]
    if matches:
        first = min(match.start() for match in matches)
        return not re.search(r"\b(?:no|not|without|don't|exclude|skip|never)\b[\w\s]{0,20}$", lowered[:first])
    said = YES_NO.search(lowered) if required else None  # "RSVP yes", "switch it off": a required flag answered in a word
    if not said:
        return False if required and guess else None  # a required flag not answered: a guess says no
    spans.append(Span(said.start(), said.end(), "named", said.group(0)))  # the answer, no part of a name ("decline the gala")
    used.add(id(spans[-1]))
    return said.group(0) in YES
