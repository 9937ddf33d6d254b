"""Part of step 2: a list parameter takes the items the question enumerates.

"what can I cook with eggs, spinach and feta", "with label bug", "tags admin and travel", "with Priya and Tom":
a list of words is introduced by the parameter's own word ("labels", "tags") or by "with", and runs until a
word that starts another part of the sentence ("in under 20 minutes", "to issue 12", "due Friday"). The items
are split on commas, "and" and "or" (the question may already have been cut and joined again with "and").
"""

from __future__ import annotations

import re

from agentkit.offline import lexicon, reading
from agentkit.offline.roles import STRICT, json_type, role_of
from agentkit.offline.spans import Span

TABLES = lexicon.words("words")["lists"]
BOUNDARY = frozenset(TABLES["boundary"].split())
"""Words that end a list: what follows them is another argument, not one more item."""
VERBS = frozenset(TABLES["verbs"].split())
"""Verbs that start a request before its first item ("put apples, bread and oil in my cart")."""
ARTICLES = frozenset(TABLES["articles"].split())  # "labels: bug", "tag it urgent"
MAX_WORDS = 4  # an item longer than this is a sentence, not a list item
_WORD = re.compile(r"[\w'’-]+|[,.;:!?()\"“”]")


def enumerated(text: str, name: str, blocked: list[tuple[int, int]], required: bool,
               others: frozenset[str] = frozenset()) -> tuple[int, list[tuple[int, int, str]]]:
    """(start, end, item) for each item the question lists for the parameter `name`, and where the list starts with the
    word that introduced it ("with eggs and feta": the other parameters skip all of it). The list after the parameter's
    own word comes first ("labels bug and ui"), then the one after "with"; a required list takes, failing both, the
    first run of two or more items ("anna, ben and chloe"). Text in `blocked` (values other parameters took) is never an
    item, and a list that names another parameter (`others`, stems of their names: "with express delivery" for
    `express`) is not this one's."""
    tokens = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text) if not any(s <= m.start() < e for s, e in blocked)]
    cues = {reading.stem(w) for w in reading.split_name(name) if w not in reading.STOP_WORDS}
    verb = any(word.lower() == "with" for *_, word in tokens[1:])  # "tag the pics with beach": the opening word is the verb
    for wanted in (lambda i, word: reading.stem(re.sub(r"(\w)\1?ed$", r"\1", word)) in cues and not (verb and i == 0),
                   lambda i, word: word == "with"):  # "tags a, b", "tagged a", then "with a and b"
        for i, (_, _, word) in enumerate(tokens):
            if wanted(i, word.lower()):
                items = _items(tokens[i + 1:])
                if items and not any(reading.stem(w.lower()) in others for *_, item in items for w in item.split()):
                    return tokens[i][0], items
    if required:
        for i in range(len(tokens)):
            items = _items(tokens[i:])
            if len(items) >= 2:  # "invite anna, ben and chloe": the first item is as long as the others
                items = _trimmed(text, items)
                return items[0][0], items
    return 0, []


def _trimmed(text: str, items: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The first item cut to as many words as the longest of the others: the words before it are the request."""
    longest = max(len(item[2].split()) for item in items[1:])
    first_words = [m for m in re.finditer(r"[\w'’-]+", text[items[0][0]: items[0][1]])][-longest:]
    while len(first_words) > 1 and first_words[0].group(0).lower() in VERBS:  # "put apples": the item is "apples"
        first_words.pop(0)
    start = items[0][0] + first_words[0].start()
    return [(start, items[0][1], text[start: items[0][1]]), *items[1:]]


def _items(tokens: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The items at the start of `tokens`, up to a word that ends a list."""
    items: list[list[tuple[int, int, str]]] = [[]]
    for token in tokens:
        if (word := token[2].lower()) in (",", "and", "or", "&", "plus"):
            if items[-1]:
                items.append([])
            continue
        if word in BOUNDARY or not re.match(r"[\w'’]", word) or word[0].isdigit():
            break
        if not items[-1] and word in ARTICLES:
            continue
        items[-1].append(token)
    found = [group for group in items if group]
    return [] if not found or any(len(group) > MAX_WORDS for group in found) else [
        (group[0][0], group[-1][1], " ".join(t[2] for t in group)) for group in found]


def phrase_after(text: str, leads: set[str], blocked: list[tuple[int, int]]) -> tuple[int, int, str] | None:
    """The words after the first of `leads` ("from the airport to …" -> "airport"), up to a word that ends a phrase."""
    tokens = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text) if not any(s <= m.start() < e for s, e in blocked)]
    lead = next((i for i, (_, _, word) in enumerate(tokens) if word.lower() in leads), None)
    items = _items(tokens[lead + 1:]) if lead is not None else []
    return items[0] if items else None


def made_by(text: str, blocked: list[tuple[int, int]]) -> tuple[int, int, str] | None:
    """ "play hey jude by the beatles": who made it, the words right after "by", its article too ("by friday": a day)."""
    found = phrase_after(text, {"by"}, blocked)
    lead = found and re.search(r"\bby\s+((?:the\s+)?)$", text[:found[0]], re.IGNORECASE)
    return (found[0] - len(lead[1]), found[1], text[found[0] - len(lead[1]):found[1]]) if lead else None


def listed_first(properties: dict, text: str, spans: list[Span], used: set[int]) -> dict[str, list[str]]:
    """ "put a review on Friday with Priya and Tom": a list of names after "with" (or the list's own word) is the
    list's, read before a title or a topic could take one of its names; a list that has values of its own kind
    (quoted, emails) is read in its turn."""
    found = {}
    for name, spec in properties.items():
        items, (role, kinds) = spec.get("items") or {}, role_of(name, spec)
        own = any(s.kind in kinds and s.kind != "proper" and id(s) not in used for s in spans)  # "…, tags 'a', 'b'"
        if (json_type(spec), json_type(items)) == ("array", "string") and "enum" not in items and not own and (
                role not in STRICT or role == "email"):
            found[name] = enumerated_items(name, text, spans, used, False, tuple(properties))
    return {name: listed for name, listed in found.items() if listed}


def enumerated_items(name: str, text: str, spans: list[Span], used: set[int], required: bool,
                     siblings: tuple[str, ...]) -> list[str]:
    """The items a list parameter takes ("with eggs, spinach and feta"), kept as spans the other parameters skip; a list
    ends at a word of another parameter's name (`siblings`)."""
    blocked = [(s.start, s.end) for s in spans if id(s) in used or s.kind not in ("proper", "unit", "language", "colon")]
    others = frozenset(reading.stem(w) for p in siblings if p != name for w in reading.split_name(p))
    start, items = enumerated(text, name, blocked, required, others)
    if items:  # the names in it ("Priya") are the list's now, not another parameter's
        used.update(id(s) for s in spans if start <= s.start < items[-1][1])
        spans.append(Span(start, items[-1][1], "named", text[start: items[-1][1]]))
        used.add(id(spans[-1]))
    return [item for _, _, item in items]
