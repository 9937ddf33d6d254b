"""Part of step 2: what the conversation so far adds to the question, as a person reads a chat.

- A follow-up ("and in Montevideo?", "what about madrid?", "same for b.txt", "那巴黎呢？") repeats the call made
  last, with the values the new question changes.
- "that", "it", "the result" in a request to write ("now save that to summary.md") is the result the tools
  gave before: the content to write, not the words of the request.
"""

from __future__ import annotations

import json
import re

from agentkit.offline.choose import Offer, Planned
from agentkit.offline.fill import fill
from agentkit.offline.places import is_known_place, zone_names
from agentkit.offline.reading import message_text
from agentkit.offline.roles import role_of
from agentkit.offline.spans import QUOTED, find
from agentkit.offline.vocabulary import english

LEAD = re.compile(r"^\s*(?:and|but|also|now|ok|okay|then)?\s*(?:what about|how about|same for|same with|the same for|"
                  r"do the same for|and for|for|in|at|with)?\s*(?:the|my)?\s*", re.IGNORECASE)
BACK = re.compile(r"\b(?:that|it|this|those|them|the (?:result|results|output|answer|text|list))\b|上面|这个|那个|它|结果",
                  re.IGNORECASE)


def follow_up(messages: list[dict], offers: list[Offer]) -> list[Planned]:
    """ "And in Paris?" after a call: the tool used last, its arguments, with the values this question changes."""
    question = english(message_text(messages[-1]))
    last = _last_call(messages, offers)
    if last is None or not _reads_as_follow_up(question):
        return []
    offer, previous = last
    question = CORRECTION.sub(" ", question).strip(" ,")  # "no, I meant Friday": the value, without the words around it
    found, _ = fill(offer.schema, question, exclude=offer.words, guess=False)
    found = {name: value for name, value in found.items() if value is not None} or _bare_value(offer, previous, question)
    if not found:
        return []
    arguments = {**previous, **found}
    missing = [name for name in offer.schema.get("required") or [] if name not in arguments]
    return [Planned(offer, arguments, tuple(missing))] if not missing else []


def with_earlier_result(planned: list[Planned], messages: list[dict]) -> list[Planned]:
    """A text to write that the question calls "that" or "it" is the last tool result of the conversation."""
    question = message_text(messages[-1])
    earlier = next((message_text(m) for m in reversed(messages[:-1]) if m["role"] == "tool"), None)
    if earlier is None or not BACK.search(QUOTED.sub(" ", question)):
        return planned
    changed = []
    for call in planned:
        properties = call.offer.schema.get("properties") or {}
        body = [n for n, spec in properties.items()
                if role_of(n, spec)[0] == "body" and not _quoted(call.arguments.get(n), question)]
        if not body:
            changed.append(call)
            continue
        arguments = {**call.arguments, body[0]: earlier}
        changed.append(Planned(call.offer, arguments, tuple(m for m in call.missing if m != body[0])))
    return changed


def with_earlier_file(question: str, messages: list[dict]) -> str:
    """ "count its lines", "edit that file": "it" is the file the last call worked on, when the question names none."""
    if any(s.kind == "path" for s in find(question)):
        return question
    for message in reversed(messages[:-1]):
        for call in reversed(message.get("tool_calls") or []):
            try:
                arguments = json.loads(call["function"].get("arguments") or "{}")
            except ValueError:
                continue
            path = next((v for k, v in arguments.items() if isinstance(v, str) and role_of(k, {})[0] == "path"), None)
            if path:
                return IT_FILE.sub(lambda m, path=path: f"{m.group(1)} {path}" if m.group(1) else path, question, count=1)
    return question


IT_FILE = re.compile(r"\b(?:that file|this file|the same file|its)\b|\b(read|open|edit|count|show|copy|check|delete|"
                     r"search|print|in|of|does|from|into)\s+it\b", re.IGNORECASE)
"""'count its lines', 'open it', 'how many lines does it have', 'what's in it'; not 'what time is it'."""


def _reads_as_follow_up(question: str) -> bool:
    """ "and in Lima?", "what about rome", "same for b.txt", or a short question of a few words."""
    starts = re.match(r"\s*(?:and|what about|how about|same|do the same|also|now|then)\b", question, re.IGNORECASE)
    return bool(starts or CORRECTION.search(question)) or len(re.findall(r"\w+", question)) <= 3


CORRECTION = re.compile(r"\b(?:instead|rather)\b|^\s*(?:(?:no|sorry|oops),?\s+)?(?:make it|change it to|switch (?:it )?to|"
                        r"actually|i meant)\b", re.IGNORECASE)
"""'make it 7:15 instead', 'actually, Porto', 'no, I meant Friday': the last call again, with this value changed."""


def _last_call(messages: list[dict], offers: list[Offer]) -> tuple[Offer, dict] | None:
    for message in reversed(messages[:-1]):
        for call in reversed(message.get("tool_calls") or []):
            offer = next((o for o in offers if o.name == call["function"]["name"]), None)
            if offer:
                try:
                    previous = json.loads(call["function"].get("arguments") or "{}")
                except ValueError:
                    previous = {}
                return offer, previous if isinstance(previous, dict) else {}
    return None


def _bare_value(offer: Offer, previous: dict, question: str) -> dict:
    """ "what about bergen?": the words left after the lead, for the text parameter the last call was about."""
    rest = LEAD.sub("", question, count=1).strip(" ?.!,")
    if not rest or len(rest.split()) > 3:
        return {}
    properties = offer.schema.get("properties") or {}
    for name, value in previous.items():
        spec = properties.get(name) or {}
        if isinstance(value, str) and "enum" not in spec:
            role = role_of(name, spec)[0]
            if role == "zone":
                zone = zone_names().get(rest.lower())
                return {name: zone} if zone else {}
            if role == "place" or is_known_place(rest):
                return {name: rest}
            return {name: rest} if role in (None, "query", "title", "path", "symbol") else {}
    return {}


def _quoted(value: object, question: str) -> bool:
    return isinstance(value, str) and any(value in (m.group(0)) for m in QUOTED.finditer(question))
