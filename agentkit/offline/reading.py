"""How the offline model reads a message: content words, and the values a tool's arguments can take.

No language understanding here, only patterns: that is the point. A real model does this part well;
the offline model does just enough of it for the course's examples to behave like a real model's.
"""

from __future__ import annotations

import re
import zoneinfo
from functools import cache

STOP_WORDS = frozenset(
    """a an the is are was were be been am i me my you your we our it its this that these those of in on at to
    for from by with and or but not no do does did what whats which who whom how when where why can could would
    should will shall may might must please tell show give let us some any all each there their them they he she
    his her if then than so as into about over after before also just only very much many more most other
    get use using used call called calls tool tools function functions return returns returned following exactly
    reply answer access given provided one two available have has had make makes""".split()
)

COUNTRY_ZONES = {
    "new zealand": "Pacific/Auckland", "japan": "Asia/Tokyo", "france": "Europe/Paris",
    "united kingdom": "Europe/London", "uk": "Europe/London", "england": "Europe/London",
    "germany": "Europe/Berlin", "spain": "Europe/Madrid", "italy": "Europe/Rome", "china": "Asia/Shanghai",
    "india": "Asia/Kolkata", "korea": "Asia/Seoul", "australia": "Australia/Sydney",
    "brazil": "America/Sao_Paulo", "canada": "America/Toronto", "mexico": "America/Mexico_City",
    "united states": "America/New_York", "usa": "America/New_York", "egypt": "Africa/Cairo",
    "kenya": "Africa/Nairobi", "singapore": "Asia/Singapore", "utc": "UTC", "gmt": "UTC",
}

QUOTED = re.compile(r'"([^"]*)"|“([^”]*)”')
_NUMBER = re.compile(r"(?<![\w./])-?\d[\d,]*(?:\.\d+)?(?![\w/])")
_PATH = re.compile(r"(?<![\w])(?:[\w.-]*/[\w./-]*|[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,4})(?![\w/])")
_PATTERN = re.compile(r"[\w./-]*\*[\w.*/?-]*")


def words(text: str) -> list[str]:
    """Lowercase content words, lightly stemmed ("files" and "file" match), stop words dropped."""
    tokens = re.findall(r"[a-z0-9]+", text.lower().replace("_", " "))
    return [_stem(t) for t in tokens if t not in STOP_WORDS]


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("es") and word[-3] in "sxz":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def quoted_strings(text: str) -> list[str]:
    return [a or b for a, b in QUOTED.findall(text)]


def without_quotes(text: str) -> str:
    return QUOTED.sub(" ", text)


def numbers(text: str) -> list[float]:
    """Numbers in order of appearance ("5%" is 5), leaving out those inside quotes and paths."""
    plain = _PATH.sub(" ", without_quotes(text))
    return [float(n.replace(",", "")) for n in _NUMBER.findall(plain)]


def paths(text: str) -> list[str]:
    """Tokens that look like file paths: they contain a `/` or end in an extension."""
    found = [p.rstrip(".,;:") for p in _PATH.findall(without_quotes(text))]
    return [p for p in found if not re.fullmatch(r"[\d.]+", p) and "*" not in p]


def patterns(text: str) -> list[str]:
    """Glob patterns: tokens with a `*` in them."""
    return _PATTERN.findall(without_quotes(text))


def time_zones(text: str) -> list[str]:
    """IANA time zones named in the text, directly or by a city or country, in order of appearance.

    A city counts only when capitalised, so that "wake" or "christmas" in a sentence is not a place.
    """
    tokens = re.findall(r"[A-Za-z_]+(?:/[A-Za-z_]+)*", text)
    found: list[str] = []
    i = 0
    while i < len(tokens):
        for size in (3, 2, 1):  # longest name first: "New York" before "York"
            phrase = " ".join(tokens[i : i + size]).lower().replace("_", " ")
            zone = COUNTRY_ZONES.get(phrase) or (tokens[i][0].isupper() and _zone_names().get(phrase))
            if zone and i + size <= len(tokens):
                found += [zone] if zone not in found else []
                i += size
                break
        else:
            i += 1
    return found


@cache
def _zone_names() -> dict[str, str]:
    """Lowercase "area/city" or "city" -> IANA zone; built on first use, not at import."""
    names: dict[str, str] = {}
    for zone in sorted(zoneinfo.available_timezones()):
        area, _, city = zone.partition("/")
        if area not in {"Africa", "America", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"}:
            continue
        names[zone.lower().replace("_", " ")] = zone
        if "/" not in city:  # America/Indiana/Knox is reachable by its full name only
            names.setdefault(city.lower().replace("_", " "), zone)
    return names


def key_phrase(text: str, exclude: set[str]) -> str:
    """The words of the text that are neither stop words nor words of the tool: a search query, say."""
    kept = [t for t in re.findall(r"[A-Za-z0-9]+", text) if t.lower() not in STOP_WORDS and _stem(t.lower()) not in exclude]
    return " ".join(kept)
