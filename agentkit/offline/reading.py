"""How the offline model reads words: content words, light stems, and a small table of synonyms.

No language understanding here, only patterns: that is the point. A real model knows that "invest" is
about interest and that "BMI" is a body mass index; the offline model knows it from its tables (`lexicon/words.toml`)
and from the initials of a tool's name, and nothing else.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from agentkit.offline import lexicon

TABLES = lexicon.words("words")
STOP_WORDS = frozenset(TABLES["stop_words"].split())
WEAK_WORDS = frozenset(TABLES["weak_words"].split())
"""Words that say little about which tool fits: they count, but much less than a topical word."""
KEEP_AS_IS = frozenset(TABLES["keep_as_is"].split())
WHOLE = frozenset(TABLES["whole_words"].split())
"""Nouns whose "-er" is their own, neither stripped ("integer" is no "integ") nor met by their start ("corner" no "corn")."""
SYNONYMS: list[str] = TABLES["synonyms"]
"""Words that mean the same when choosing a tool or an option: a group a line, stemmed when read."""


@lru_cache(maxsize=4096)
def pattern(source: str, flags: int = 0) -> re.Pattern:
    """A pattern built from a tool's own names or options, compiled once: Python's `re` keeps only 512, and one request
    with twenty tools builds more than that."""
    return re.compile(source, flags)


@lru_cache(maxsize=4096)  # a clause is read for every tool offered: each text once
def words(text: str) -> tuple[str, ...]:
    """Lowercase content words, stemmed ("files" and "file" match, "investing" and "invest"), stop words dropped. A
    hyphenated word is also read joined ("to-do" is "todo"): its halves alone are often stop words."""
    lowered = re.sub(r"\b([a-z]+)-([a-z]+)\b", lambda m: f"{m[1]} {m[2]} {m[1]}{m[2]}", text.lower().replace("_", " "))
    tokens = re.findall(r"[a-z0-9]+", lowered)
    # Chinese the vocabulary left unread ("充电桩"): its two-character pieces, so it still meets a Chinese description
    tokens += [run[i:i + 2] for run in re.findall(r"[\u4e00-\u9fff]{2,}", lowered) for i in range(len(run) - 1)]
    return tuple(stem(t) for t in tokens if t not in STOP_WORDS)


@lru_cache(maxsize=256)  # a lowercase text's words, stemmed, and where each starts: read once for all the options
def words_at(lowered: str) -> tuple[tuple[int, str], ...]:
    return tuple((match.start(), stem(match.group(0))) for match in re.finditer(r"[a-z0-9]+", lowered))


def split_name(name: str) -> list[str]:
    """A tool or parameter name as lowercase words: getCurrentTime, get_current_time, get-current-time."""
    return re.findall(r"[a-z0-9]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).lower())  # camelCase parted first


@cache
def stem(word: str) -> str:
    """A light stemmer: enough to make inflections meet, not a linguist's one."""
    if word in KEEP_AS_IS or word.endswith(("us", "is", "ss")):
        return word  # "news" is not the plural of "new", nor "status" of "statu"
    if (whole := word.removesuffix("s")) in WHOLE:
        return whole  # "integers" is "integer"
    for suffix, keep in TABLES["stem_suffixes"]:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "es" and (word[-3] not in "sxzh" or word.endswith("ses") and not word.endswith("sses")):
                continue  # "boxes", "classes"; "roses", "courses": a word in -se, its s only
            root = word[: -len(suffix)] + keep
            # "sided" -> "side", "named" -> "name", "riding" -> "ride": a short consonant-vowel-consonant root lost its e
            short = len(root) == 3 and re.fullmatch(r"[^aeiou][aeiou][^aeiouwxy]", root)
            if suffix in ("ed", "ing") and re.search(r"([^aeioulsfzd])\1$", root):
                return root[:-1]  # "running" -> "run", "shopped" -> "shop"; "called", "added" keep theirs
            return root + "e" if suffix in ("ed", "ing") and short else root
    return word


WEAK_STEMS = frozenset(stem(w) for w in WEAK_WORDS)
"""The stemmed words that barely say which tool fits (see WEAK_WORDS)."""
OPPOSITE = {stem(a): stem(b) for pair in TABLES["opposites"] for a, b in (pair.split(), pair.split()[::-1])}


@cache
def _synonym_groups() -> dict[str, frozenset[int]]:
    """Stemmed word -> the synonym groups it belongs to; built on first use, not at import."""
    groups: dict[str, set[int]] = {}
    for index, word in ((index, word) for index, line in enumerate(SYNONYMS) for word in line.split()):
        groups.setdefault(stem(word), set()).add(index)
    return {word: frozenset(found) for word, found in groups.items()}


def related(a: str, b: str) -> bool:
    """Two stemmed words mean the same here: close (below), or in one line of SYNONYMS (not merely spelled alike)."""
    return close(a, b) or bool(synonym_groups(a) & synonym_groups(b))


def close(a: str, b: str) -> bool:
    """The same word, or one the start of the other ("calc", "humid" and "humidity"): closer than a synonym."""
    return a == b or len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a))


def synonym_groups(word: str) -> frozenset[int]:
    """The lines of SYNONYMS a stemmed word is in."""
    return _synonym_groups().get(word, frozenset())


@lru_cache(maxsize=4096)  # a request is read as several texts with the same words, each against the same options
def names_option(word: str, option: str, options: tuple[str, ...]) -> bool:
    """A stemmed word names this option alone, read by its closest synonym line: "miles" is in a line with "km"
    ("distance ... km miles") and in one with "mi" ("mile miles mi"); the shorter line says which unit it is."""
    lines = [g for g in synonym_groups(word) if any(g in synonym_groups(o) for o in options)]
    closest = min(lines, key=lambda g: (len(SYNONYMS[g].split()), g), default=None)
    return closest is not None and closest in synonym_groups(option) and not any(
        closest in synonym_groups(o) for o in options if o != option)


def acronyms(name_words: list[str]) -> set[str]:
    """Initials of a name's runs of words, so that "bmi" reaches body_mass_index and "gcd" greatest_common_divisor."""
    return {"".join(w[0] for w in name_words[start: start + size])
            for size in range(2, len(name_words) + 1) for start in range(len(name_words) - size + 1)}


def message_text(message: dict) -> str:
    """A message's text: its content, or the text parts of a list of content parts."""
    content = message.get("content") or ""  # of content parts, the text ones
    return " ".join(part.get("text", "") for part in content if isinstance(part, dict)) if isinstance(content, list) else content
