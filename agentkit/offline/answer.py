"""Step 3: answer in sentences, from tool results or, without tools, from a few plain answers.

A result becomes one sentence per call, built from the tool's name and the call's arguments:
get_current_time(timezone="Asia/Tokyo") -> "10:00" reads "The current time in Tokyo is 10:00.", a
conversion reads "5 km is 3.11 mi.", an action "I called send_email for bob@example.com; it says: sent.",
and a result that starts with `Error:` is said to be an error, plainly. A result of several lines is
shown whole under a sentence that says what it is.
"""

from __future__ import annotations

import re
from typing import Any

from agentkit.offline import reading
from agentkit.offline.places import place_name, zone_names

PLAIN_ANSWERS = [
    ({"caffeine", "tea"}, "A cup of green tea (about 240 ml) has roughly 30-50 mg of caffeine, "
                          "about a third of a cup of coffee."),
    ({"time"}, "I can't know the current time: I am a language model, with no clock and no internet. "
               "Give me a tool that reads the clock and I can use it."),
    ({"capital", "france"}, "The capital of France is Paris."),
    ({"hello"}, "Hello! I am the course's offline model. Ask me something, or offer me a tool."),
]
NOT_AN_LLM = ("I am the course's offline model: a small deterministic stand-in for an LLM, used when no "
              "MODEL_API_KEY is set. I can answer a few fixed questions and call the tools you offer me when "
              "your question fits one; for anything else, set MODEL_API_KEY in .env and talk to a real model.")

GETTING = {"get", "fetch", "calculate", "calc", "compute", "find", "lookup", "look", "check", "retrieve", "show",
           "query", "estimate", "measure", "count", "evaluate", "determine", "search"}
TOOLISH = {"calculator", "calc", "tool", "api", "info", "helper", "service", "data", "value"}
CONVERTING = {"convert", "converter", "conversion"}
PLACES = {"city", "location", "place", "country", "region", "where", "town", "area", "zone", "timezone", "tz"}


def plain_answer(question: str) -> str:
    # a greeting answers a greeting ("Hello!", "hi there", "Say hello."), not "Translate hello into Spanish"
    greeted = re.match(r"\s*(?:(?:please\s+)?say\s+)?(?:hello|hi|hey)\b", question, re.IGNORECASE)
    asked = set(reading.words(question)) - {"hello"} | ({"hello"} if greeted else set())
    return next((answer for keys, answer in PLAIN_ANSWERS if keys <= asked), NOT_AN_LLM)


def ask_for(tool: str, missing: list[str]) -> str:
    """What the model says instead of a call with a hole in it."""
    wanted = " and ".join(" ".join(reading.split_name(m)) for m in missing)
    return f"I can use {tool} for that, but I need the {wanted}: what should I use?"


def sentences(results: list[tuple[str, dict[str, Any], str]]) -> str:
    """One sentence per call, in the order of the calls: (tool name, arguments, result) each."""
    said = [sentence(name, arguments, result) for name, arguments, result in results]
    return ("\n\n" if any("\n" in s for s in said) else " ").join(said)


def sentence(name: str, arguments: dict[str, Any], result: str) -> str:
    result = result.strip()
    words = reading.split_name(name)
    context = _context(arguments)
    if result.startswith("Error:"):
        return f"The tool {name} returned an error: {_end(result.removeprefix('Error:').strip())}"
    command = next((v for k, v in arguments.items() if k in ("command", "cmd") and isinstance(v, str)), None)
    if command is not None:
        return f"I ran `{command}`; it says:\n{result}" if "\n" in result else f"I ran `{command}`; it says: {_end(result)}"
    if "\n" in result or len(result) > 200:
        return f"Here is what {name} returned{context}:\n{result}"
    if words[:1] == ["ask"]:
        return f"You answered: {_end(result)}"
    if set(words) & CONVERTING or "to" in words[1:-1]:
        return f"{_conversion(words, arguments)} is {_end(result)}"
    if words and (words[0] in GETTING or len(words) == 1 or not _is_verb(words[0])):
        subject = " ".join(w for w in words[1 if words[0] in GETTING else 0:] if w not in TOOLISH) or name
        return f"The {subject}{context} is {_end(result)}"
    return f"I called {name}{context}; it says: {_end(result)}"


def _context(arguments: dict[str, Any]) -> str:
    """The arguments as a phrase: " in Tokyo", " from Paris to London", " for 16", " for principal 500 and rate 5"."""
    places, ends, others = [], {}, []
    for key, value in arguments.items():
        key_words = set(reading.split_name(key))
        if isinstance(value, (dict, list)) or value is None or value == "":
            continue
        if key_words & PLACES and isinstance(value, str):
            places.append(place_name(value) if value.lower().replace("_", " ") in zone_names() else value)
        elif key_words & {"from", "origin", "source", "departure"}:
            ends["from"] = value
        elif key_words & {"to", "destination", "target", "arrival"}:
            ends["to"] = value
        elif isinstance(value, str):
            if " " not in value.strip() and len(value) <= 40:  # a file name or a unit, not a note's whole text
                others.append(value)
        elif len(arguments) == 1:
            others.append(str(value))
        else:
            others.append(f"{' '.join(reading.split_name(key))} {value}")
    phrase = f" in {_join(places)}" if places else ""
    phrase += "".join(f" {end} {ends[end]}" for end in ("from", "to") if end in ends)
    return phrase + (f" for {_join(others)}" if others else "")


def _conversion(words: list[str], arguments: dict[str, Any]) -> str:
    """ "5 km" for convert(value=5, from_unit="km"), "30 celsius" for celsius_to_fahrenheit(celsius=30)."""
    amount = " ".join(str(v) for v in arguments.values() if isinstance(v, (int, float)) and not isinstance(v, bool))
    source = next((str(v) for k, v in arguments.items() if isinstance(v, str) and
                   set(reading.split_name(k)) & {"from", "source", "unit", "base"}), "")
    if not source and "to" in words:
        source = words[words.index("to") - 1]
    return " ".join(part for part in (amount, source) if part).strip() or "That"


def _is_verb(word: str) -> bool:
    return word in {"send", "write", "create", "add", "set", "save", "delete", "remove", "move", "edit", "book",
                    "schedule", "update", "run", "execute", "post", "upload", "cancel", "make", "start", "stop",
                    "play", "open", "close", "reserve", "order", "buy", "translate", "read", "list", "glob", "bash"}


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _end(text: str) -> str:
    return text if re.search(r"[.!?]$", text) else text + "."
