"""Step 1's fit: how well each offered tool fits a piece of the question, and when it does not fit at all.

A question word that means the same as a word of the tool's name counts 3, of its description or an option 2, of a
parameter's name or description 1 (stems, synonyms and initials decide "means the same"; words like "number" or
"value" count a third). Below `ENOUGH` (slots.py) no tool fits, and the model answers in text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from agentkit.offline import code, numbers, quantities, reading
from agentkit.offline.clauses import clauses
from agentkit.offline.lexicon import words
from agentkit.offline.phrases import ADDING, ONTO
from agentkit.offline.places import is_known_place
from agentkit.offline.roles import HEADS, STRICT, hint_of, json_type, role_of
from agentkit.offline.slots import DESCRIPTION, NAME, Offer, named_only
from agentkit.offline.spans import SAY_IN, find, without_literals
from agentkit.offline.vocabulary import english

_WORDS = words("choose")["choose"]
WHATS_IN, SHOW_FILE, PART_OF_FILE, MEANS, THING, KIND, WANTED = (re.compile("|".join(_WORDS[name]), re.I) for name in (
    "whats_in", "show_file", "part_of_file", "means", "thing_asked", "thing_kind", "thing_wanted"))
"""The words that imply a request ("what's in", "show me", "the first line of"), name its means ("with the shell"),
and what a question asks for."""
INTO = re.compile(rf"\b{ADDING}\s+.+?\s+{ONTO}\s+([a-z]+)", re.I)
"""'put the concert in my calendar': where a thing is added names the tool that adds it, as a means does."""
DONE = re.compile(rf"\b(?:{'|'.join(words('choose')['habits']['done'])})\b", re.I)
WHICH_ONE = frozenset(reading.words(" ".join(_WORDS["which_one"])))
NUMBERED = re.compile(r"\d|\b(?:first|second|third|fourth|fifth|last)\b", re.I)


@lru_cache(maxsize=4096)  # a clause and the whole question are scored again as a request is planned: each pair once
def score(offer: Offer, text: str) -> float:
    """How well a tool fits a piece of the question: each question word counts once, at its best match. Two words in a
    row also count as one ("sun set" is "sunset"), and a value the tool needs, such as a path or a place, adds one point:
    not enough alone, enough with one more word in common; two such values ("from porto to rome") are enough alone."""
    asked, means, done = asking(text)
    if _refuses(offer, text, asked, values := min(2.0, needed_values_present(offer, text))):
        return 0.0
    total = sum(offer.weight_of(word) / (3 if word in reading.WEAK_STEMS else 1) for word in asked)
    # "count the lines with wc": a program named as the means is a tool's that runs commands
    program = any(m in code.COMMANDS for m in means) and any(slot.role == "command" for slot in offer.slots)
    # "with the shell", "using bash": a tool named as the means decides, whatever else the words point at
    total += 8.0 * (program or any(reading.related(m, w) for m in means for w, weight in offer.weighted_words if weight == NAME))
    total += _everyday(offer, text, program) + (_marks_done(offer) if done else 0.0)
    return total + values


def needed_values_present(offer: Offer, text: str) -> float:
    """How many required parameters of a strict kind (a path, an email, a place...) the question has a value for."""
    spans, (required, patterned) = find(text), _required(offer)
    taken: set[int] = set()  # "from porto to rome": two values for two parameters count twice, one value once
    for role, kinds, currency in required:  # a measure's unit is no currency: "12 inches in cm" is no value of convert_currency
        if role in STRICT and role not in ("date", "time"):
            fitting = next((s for s in spans if s.kind in kinds and id(s) not in taken and (s.kind != "proper" or is_known_place(
                s.value)) and not (currency and str(s.value).lower() in quantities.MEASURES)), None)
            taken.update([id(fitting)] if fitting else [])
    # a pasted statement or command is as good as the tool's name, so is a ticker for a symbol ("how's TSLA doing?":
    # capitals a tool takes as they are); one unit alone says little ("70 kg")
    kinds, roles = [s.kind for s in spans if id(s) in taken], {role for role, _, _ in required}
    symbol = "symbol" in roles and any(s.kind == "proper" and re.fullmatch(r"[A-Z]{2,5}", str(s.value)) for s in spans)
    # a day and a clock time for a tool that needs both ("put a review on 2027-05-04 at 14:00"); a code its pattern takes
    when = 2 * ({"date", "time"} <= roles and {"date", "time"} <= {s.kind for s in spans})
    coded = len(numbers.by_pattern(patterned, text)) if patterned else 0
    return len(taken) + kinds.count("sql") + kinds.count("command") - (kinds.count("unit") == 1) + 2 * symbol + when + coded


@lru_cache(maxsize=1024)  # a tool is scored against every clause of every request: read what it requires once
def _required(offer: Offer) -> tuple[list[tuple], dict]:
    """Each required parameter's role, span kinds and whether it takes a currency; and the required ones, by name."""
    properties, names = offer.properties, offer.schema.get("required") or []
    return ([(*role_of(n, p), quantities.takes_currency(hint_of(n, p), p.get("description") or ""))
             for n, p in ((n, properties.get(n) or {}) for n in names)], {n: properties[n] for n in names if n in properties})


def _refuses(offer: Offer, text: str, asked: tuple[str, ...], values: float) -> bool:
    """Not what the tool does: the question asks the opposite of its name's word ("external" for internal_rate_of_return),
    or, with no value it needs, a thing none of its words name and no word but its verb names the tool ("the acceleration of")."""
    if any(offer.weight_of(o) == NAME and not offer.weight_of(w) for w, o in reading.OPPOSITE.items() if w in asked):
        return True
    strong = max((offer.weight_of(w) for w in reading.words(text) if w not in reading.WEAK_STEMS | actions(offer)), default=0)
    return not values and bool(thing := THING.search(text)) and max(
        map(offer.weight_of, reading.words(thing[1])), default=DESCRIPTION) < DESCRIPTION and strong < NAME or (
        _another_thing(offer, text, asked, strong))


def _another_thing(offer: Offer, text: str, asked: tuple[str, ...], strong: float) -> bool:
    """Whatever values it gives, a request about another thing of the tool's kind: "the area of a triangle", "a pet store",
    "the price of a barrel of oil" (the thing's head is a word of the tool's name, another of its words none of the tool's
    words, and a word of the tool's name is unsaid) is not for calculate_circle_area, grocery_store_locate_nearby,
    get_crypto_price; nor "my age" (no word of the thing names the tool, no word but its verb does) for calculate_bmi,
    nor "can you book me a haircut" (a one-clause request for a thing, `WANTED`) for book_hearing_test."""
    if not (read := _thing(text)):
        return False
    thing, common, values, wanted = read
    spans = find(text)
    # "the Dutch word for ..." asks to translate, "... of todo.txt" to read: words implied, not said nor two said joined
    implied = {*asked} - {*reading.words(text)} - {a + b for a, b in pairwise(asked)}
    if common and max([strong, *map(offer.weight_of, implied)]) < NAME and max(map(offer.weight_of, [*common, *implied])) < (
            DESCRIPTION) and all(s.kind != "path" for s in spans) and not (wanted is not None and (  # "the new course": its
            max(map(offer.weight_of, common)) or _takes_a_thing(offer) and (not wanted or set(wanted) & actions(offer)))):
        return True  # a file's request is told by its path ("the first line of todo.txt")
    if wanted is not None:  # "book me a session" for book_tutor_session: a thing the tool names is its own
        return False
    head = set(reading.words(thing.partition(" of ")[0])) - values  # "the area of ...", "the air temperature"
    if all(named_only(offer.name).weight_of(w) < NAME for w in head) or all(map(offer.weight_of, common)):
        return False
    initials = reading.acronyms(re.findall(r"[a-z]+", text.lower()))  # "return of investment" says calculate_roi's "roi"
    # ... and the thing is the text's one request ("what is the capital of Peru, and the largest city in Chile?" asks two)
    return any(n not in initials and not any(reading.related(n, w) for w in asked) for n in _kind_words(offer)) and sum(
        bool(KIND.search(clause)) for clause in clauses(text)) < 2


@lru_cache(maxsize=256)  # the same for every tool
def _thing(text: str) -> tuple[str, tuple[str, ...], set[str], tuple[str, ...] | None] | None:
    """The thing a text asks about (`KIND`) or for (`WANTED`, in one clause); its words but the values the text gives,
    names written capitalised and what was done to it ("the distance covered", "the offenses he committed"); the words
    of those values; and, for a thing wanted, the words of the request before it ("book": a tool that takes any thing
    takes a thing booked only if it books; "I need a": no verb to tell)."""
    found = KIND.search(text)
    if not (found or (wanted := WANTED.search(text)) and len(clauses(text)) == 1):
        return None
    values = {w for span in find(text) for w in reading.words(text[span.start:span.end])} | reading.WEAK_STEMS | WHICH_ONE
    thing = found[1] if found else next(filter(None, wanted.groups()))
    return thing, tuple(w for w in reading.words(" ".join(w for w in thing.split() if not w[:1].isupper() and not w.endswith((
        "ed", "ing")))) if w not in values), values, None if found else reading.words(text[:wanted.start(1)]) if wanted[1] else ()


def _takes_a_thing(offer: Offer) -> bool:
    """Whether a required parameter takes any thing asked for as it is said ("hire a racket" for an `item`, "order a
    latte" for a `drink`): a plain string, no option, format or pattern, no role but a title, no name of a model's."""
    return any(slot.required and slot.type == "string" and slot.role in (None, "title") and not {"enum", "format", "pattern"} & {
        *offer.properties[slot.name]} and reading.split_name(slot.name)[-1] not in HEADS for slot in offer.slots)


@lru_cache(maxsize=1024)
def _kind_words(offer: Offer) -> frozenset[str]:
    """The words of a tool's name that say what kind of thing it is about: those its description says again past its
    verb ("shoe" and "shop" of shoe_shop_search, "Find shoe shops"; not "search", "solve" or "book")."""
    described = reading.words(" ".join(english(offer.description).split()[1:]))
    return frozenset(n for n in reading.words(" ".join(reading.split_name(offer.name)))
                     if n not in reading.WEAK_STEMS and any(reading.related(n, w) for w in described))


@lru_cache(maxsize=256)  # a clause is scored against every tool: read its words once
def asking(text: str) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """The words a piece of the question asks with (and each two in a row joined), the means it names, and whether it
    says a numbered item is done ("the first item is done", "第三项完成了")."""
    plain = without_literals(text)
    asked = [*reading.words(plain), *(["content"] if WHATS_IN.search(plain) else [])]  # "what's in notes.txt?" asks to read
    # "show me config.yaml", "print notes.txt", "the first line of a.txt": show what it says
    asked += ["read"] if SHOW_FILE.search(text) or PART_OF_FILE.search(text) else []
    asked += ["translate"] if SAY_IN.search(text) else []  # "how do you say thank you in Italian?"
    asked += [a + b for a, b in pairwise(asked) if (a + b).isascii() and a not in reading.WHOLE]  # no "author弗兰", "cornershop"
    means = [reading.stem((a or b).lower()) for a, b in MEANS.findall(plain)] + [reading.stem(w) for w in INTO.findall(plain)]
    return tuple(dict.fromkeys(asked)), tuple(means), bool(DONE.search(plain) and NUMBERED.search(plain))


def _everyday(offer: Offer, text: str, program: bool) -> float:
    """ "how big is notes.txt?", "rename a.md to b.md": a request about a file that a shell command answers counts
    for a tool that runs commands as a name word does; reading a part of a file ("its first line") a little less,
    since a tool that reads files does that without a shell."""
    if program or not any(slot.role == "command" for slot in offer.slots):
        return 0.0
    file = next((str(s.value) for s in find(text) if s.kind == "path"), None)
    if not file or not (command := code.command_for(text, file, None)) or file not in command:  # none, or not the file's (`ls`)
        return 0.0
    return 2.0 if command.startswith(("head", "tail")) else 6.0 if command.startswith("wc") else 4.0


def _marks_done(offer: Offer) -> float:
    """A numbered item said done is for a tool that marks one done (a whole number parameter, and "done" in its
    description or among its options), not for one that adds items."""
    properties = (offer.schema.get("properties") or {}).values()
    marks = DONE.search(offer.description) or any(DONE.search(str(p.get("enum", ""))) for p in properties)
    return 4.0 if marks and any(json_type(p) == "integer" for p in properties) else 0.0


@lru_cache(maxsize=1024)
def actions(offer: Offer) -> frozenset[str]:
    """What a tool does: its name's and its description's first words ("add a book, ..." is add_book's to do)."""
    first = [reading.split_name(offer.name)[:1], english(offer.description).split()[:1]]
    return frozenset(word for part in first for word in reading.words(" ".join(part)))
