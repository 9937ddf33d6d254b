"""How the offline model reads words: content words, light stems, and a small table of synonyms.

No language understanding here, only patterns: that is the point. A real model knows that "invest" is
about interest and that "BMI" is a body mass index; the offline model knows it from the table below
and from the initials of a tool's name, and nothing else.
"""

from __future__ import annotations

import re
from functools import cache

STOP_WORDS = frozenset(
    """a an the is are was were be been am i me my you your we our it its this that these those of in on at to
    for from by with and or but not no do does did what whats which who whom how when where why can could would
    should will shall may might must please tell show give let us some any all each there their them they he she
    his her if then than so as into about over after before also just only very much many more most other
    get use using used call called calls tool tools function functions return returns returned following exactly
    reply answer access given provided available have has had make makes want need like know
    s t d ll m re ve""".split()
)

# Words that say little about which tool fits: they count, but much less than a topical word.
WEAK_WORDS = frozenset(
    """current number value valu amount data info information result name type string text specified specific
    new now today calculate compute find look lookup check retrieve fetch input output list user question
    request set create add item base show display return""".split()
)

KEEP_AS_IS = frozenset("news series species physics mathematics maths lens gas always".split())



def words(text: str) -> list[str]:
    """Lowercase content words, stemmed ("files" and "file" match, "investing" and "invest"), stop words dropped.

    A hyphenated word is also read joined ("to-do" is "todo"): its halves alone are often stop words.
    """
    lowered = text.lower().replace("_", " ")
    lowered = re.sub(r"\b([a-z]+)-([a-z]+)\b", lambda m: f"{m.group(1)} {m.group(2)} {m.group(1)}{m.group(2)}", lowered)
    tokens = re.findall(r"[a-z0-9]+", lowered)
    return [stem(t) for t in tokens if t not in STOP_WORDS]


def split_name(name: str) -> list[str]:
    """A tool or parameter name as lowercase words: getCurrentTime, get_current_time, get-current-time."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    return re.findall(r"[a-z0-9]+", spaced.lower())


@cache
def stem(word: str) -> str:
    """A light stemmer: enough to make inflections meet, not a linguist's one."""
    if word in KEEP_AS_IS or word.endswith(("us", "is", "ss")):
        return word  # "news" is not the plural of "new", nor "status" of "statu"
    for suffix, keep in (("ations", 0), ("ation", 0), ("ments", 0), ("ment", 0), ("ings", 0), ("ing", 0),
                         ("ies", "y"), ("ers", 0), ("er", 0), ("ed", 0), ("es", 0), ("s", 0)):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "es" and word[-3] not in "sxzh":
                continue
            root = word[: -len(suffix)] + (keep or "")
            # "sided" -> "side", "named" -> "name", "riding" -> "ride": a short consonant-vowel-consonant root lost its e
            short = len(root) == 3 and re.fullmatch(r"[^aeiou][aeiou][^aeiouwxy]", root)
            return root + "e" if suffix in ("ed", "ing") and short else root
    return word


@cache
def _synonym_groups() -> dict[str, frozenset[int]]:
    """Stemmed word -> the synonym groups it belongs to; built on first use, not at import."""
    groups: dict[str, set[int]] = {}
    for index, line in enumerate(SYNONYMS):
        for word in line.split():
            groups.setdefault(stem(word), set()).add(index)
    return {word: frozenset(found) for word, found in groups.items()}


def is_weak(word: str) -> bool:
    """A stemmed word that barely says which tool fits (see WEAK_WORDS)."""
    return word in _weak_stems()


@cache
def _weak_stems() -> frozenset[str]:
    return frozenset(stem(w) for w in WEAK_WORDS)


def related(a: str, b: str) -> bool:
    """Two stemmed words mean the same here: equal, one a prefix of the other ("calc"), or synonyms."""
    return a == b or len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a)) or synonyms(a, b)


def synonym_groups(word: str) -> frozenset[int]:
    """The lines of SYNONYMS a stemmed word is in."""
    return _synonym_groups().get(word, frozenset())


def synonyms(a: str, b: str) -> bool:
    """Two stemmed words in one line of SYNONYMS (not merely spelled alike)."""
    groups = _synonym_groups()
    return bool(groups.get(a, frozenset()) & groups.get(b, frozenset()))


def names_option(word: str, option: str, options: list[str]) -> bool:
    """A stemmed word names this option alone, read by its closest synonym line: "miles" is in a line with "km"
    ("distance ... km miles") and in one with "mi" ("mile miles mi"); the shorter line says which unit it is."""
    groups = _synonym_groups()
    lines = [g for g in groups.get(word, frozenset()) if any(g in groups.get(o, frozenset()) for o in options)]
    closest = min(lines, key=lambda g: (len(SYNONYMS[g].split()), g), default=None)
    return closest is not None and closest in groups.get(option, frozenset()) and not any(
        closest in groups.get(o, frozenset()) for o in options if o != option)


def acronyms(name_words: list[str]) -> set[str]:
    """Initials of a name's runs of words, so that "bmi" reaches body_mass_index and "gcd" greatest_common_divisor."""
    found = set()
    for size in range(2, len(name_words) + 1):
        for start in range(len(name_words) - size + 1):
            found.add("".join(w[0] for w in name_words[start: start + size]))
    return found


def message_text(message: dict) -> str:
    """A message's text: its content, or the text parts of a list of content parts."""
    content = message.get("content") or ""
    if isinstance(content, list):  # content parts: keep the text ones
        return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content


SYNONYMS = [  # words that mean the same when choosing a tool or an option: a group a line, stemmed when read
    "weather temperature forecast rain raining sunny snow wind humid humidity climate hot cold degrees storm storms",
    "warning warnings advisory advisories alert alerts",
    "time clock hour hours timezone zone o'clock",
    "date day today tomorrow calendar",
    "convert conversion converter unit units",
    "interest invest investment compound principal savings deposit",
    "loan mortgage borrow repayment installment",
    "email mail e-mail inbox",
    "message text sms",
    "note notes memo jot",
    "reminder remind alarm alert wake",
    "flight flights fly flying plane airline airport",
    "hotel hotels stay room accommodation lodging",
    "search find lookup look google query",
    "file files document documents",
    "folder directory dir",
    "translate translation translator",
    "distance far km kilometers kilometres miles mile",
    "price cost costs cheap cheaper cheapest expensive",
    "stock stocks share shares ticker",
    "currency currencies exchange money dollars dollar euros euro yen pounds",
    "event meeting appointment schedule",
    "sum add addition plus total",
    "multiply multiplication product times",
    "divide division quotient",
    "subtract subtraction minus difference",
    "root sqrt square",
    "population inhabitants people",
    "news headlines headline article articles",
    "recipe recipes cook cooking",
    "drink drinks drank drinking drunk hydration",
    "parcel parcels package packages shipment delivery courier",
    "ship shipping postage",
    "book booking reserve reservation",
    "restaurant restaurants dinner lunch eat food",
    "movie movies film films cinema",
    "song songs music play track",
    "directions route navigate navigation",
    "random dice roll",
    "dice die",
    "side sides sided face faces",
    "split divide share splitting",
    "bill check tab invoice",
    "bug issue issues bugs ticket",
    "sql database query warehouse db",
    "glob list listing ls",
    "route directions trip journey",
    "transit train trains bus metro subway tram",
    "driving drive car",
    "walking walk foot",
    "cycling cycle bike bicycle",
    "password passwords passphrase",
    "age old birthday born",
    "tip gratuity",
    "discount sale off",
    "tax vat",
    "length meters metres feet inches",
    "weight kg kilograms pounds lb lbs mass",
    "speed fast velocity",
    "shell command terminal bash",
    "definition define meaning dictionary",
    "average mean",
    "percentage percent",
    "bmi body mass index",
    "area surface",
    "volume capacity",
    "write save",
    "read open contents inside",
    "delete remove erase",
    "edit change replace modify update",
    "list show",
    "todo task tasks",
    "contact contacts phone",
    "wiki wikipedia encyclopedia",
    "word words",
    "count many",
    "timer countdown",
    "kilo kilos kg kilogram kilograms",
    "guest guests people persons adults travelers travellers passengers diners diner friends us",
    "uppercase upper caps capitals capitalize case",
    "lowercase lower case",
    "sunset sunrise",
    "spell spelling typo typos",
    "prime primes",
    "milliliter milliliters millilitre millilitres ml",
    "liter liters litre litres l",
    "ounce ounces oz",
    "kilometer kilometers kilometre kilometres km",  # lengths: a unit option is often its abbreviation
    "centimeter centimeters centimetre centimetres cm",
    "meter meters metre metres m",
    "mile miles mi",
    "foot feet ft",
    "inch inches",
    "electric ev",
    "bitcoin btc",
    "ethereum eth ether",
    "outdoor outdoors outside terrace",
    "celsius c centigrade",  # a temperature scale is often its letter
    "fahrenheit f",
    "kelvin k",
    "expense expenses spending spend spent",
    "fuel gas gasoline petrol refuel",
    "night nights stay",
    "ticket tickets",
    "rent rental hire",
    "focus pomodoro concentrate",
    "shopping shop clothes clothing",
    "entertainment fun leisure",
    "transport transportation taxi cab commute",
    "health medical medicine doctor pharmacy",
]
