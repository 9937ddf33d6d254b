"""Part of step 2: what free text is about, when no quotes, label or "saying" mark it.

"Search the web for hiking trails in Colorado" is about "hiking trails in Colorado", "put buy milk on my todo
list" about "buy milk": the words after "for", "about", "to", or between the verb and "to my list", and never
the tool's own words (they say which tool, not what it works on).
"""

from __future__ import annotations

import re

from agentkit.offline import reading


def key_phrase(text: str, exclude: frozenset[str]) -> str | None:
    """What a search is about: the words after "for", "about", "on" or "to" (the first such phrase that is not
    just the tool's own words, as in "on my to-do list"), or else the words that are not the tool's."""
    item = ITEM.match(text)  # "add milk to my list", "put buy milk on my todo list": what is added
    if item and any(not _is_tool_word(w, exclude) for w in reading.words(item.group(1))):
        return item.group(1).strip("\"'“”")
    for pattern in (r"\b(?:for|about|on|regarding)\s+(?:the\s+|a\s+)?(.+)", r"\b(?:to|that)\s+(.+)"):
        for after in re.finditer(pattern, text, re.IGNORECASE):
            # up to a clause break, and without a trailing "at 17:30", "on Friday" or "under $100": other arguments
            phrase = re.split(r"\s+-+\s+|[,;]\s", after.group(1).strip().rstrip("?.!"))[0]
            phrase = re.sub(r"\s+(?:at|on|by|before|in|tomorrow|today|under|below|over|above|less than|more than)\b[^,]*$",
                            "", phrase)
            if any(not _is_tool_word(w, exclude) for w in reading.words(phrase)):
                return phrase if phrase.lower() not in PRONOUNS else None
    kept = [t for t in re.findall(r"[A-Za-z0-9'-]+", text)
            if t.lower() not in reading.STOP_WORDS and not _is_tool_word(reading.stem(t.lower()), exclude)
            and not t[0].isdigit()]
    while kept and kept[0].lower() in COMMANDS:  # "Put buy milk on my list": the request's verb is not the item
        kept.pop(0)
    return " ".join(kept) or None


ITEM = re.compile(r"\s*(?:please\s+)?(?:add|put|append|include|save|write down)\s+(.+?)\s+(?:to|on|onto|in|into)\s+"
                  r"(?:my|the|our|your)\b", re.IGNORECASE)
PRONOUNS = {"it", "that", "this", "them", "those", "these", "one"}
COMMANDS = {"put", "add", "please", "find", "search", "show", "tell", "give", "look", "get", "make", "define", "check"}


def _is_tool_word(word: str, exclude: frozenset[str]) -> bool:
    return word in exclude or any(reading.related(word, tool_word) for tool_word in exclude)
