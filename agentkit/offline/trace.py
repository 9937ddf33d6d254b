"""Why the offline model read a request the way it did: the values it found, each tool's score, each slot's pick.

`explain(question, tools)` runs the same stages as a reply (the question read as English words, its values found
as typed spans, the tools scored, the calls planned and their arguments filled) and keeps what each stage saw, so
a learner can see that a rule-based stand-in matches words and patterns: it does not understand the sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agentkit.offline.choose import ENOUGH, plan, read
from agentkit.offline.choose_fit import score
from agentkit.offline.slots import Offer, offer_of
from agentkit.offline.spans import Span, find


@dataclass(frozen=True)
class SlotTrace:
    """One parameter of a planned call."""

    name: str
    accepts: str  # what it takes: a role ("place", "date") or a JSON type
    candidates: tuple[str, ...]  # the values found that it could take
    pick: Any  # the value it got (None: left out, or missing when required)
    missing: bool = False  # required and not found: the model asks for it


@dataclass(frozen=True)
class CallTrace:
    tool: str
    clause: str  # the part of the question its values were read from
    slots: tuple[SlotTrace, ...]


@dataclass(frozen=True)
class Trace:
    """What the offline model saw in one request; `print()` it."""

    question: str
    read_as: str  # the question as the stages read it (Chinese as English words, units parted): `choose.read`
    spans: tuple[Span, ...]  # the typed values found, in order
    scores: tuple[tuple[str, float], ...]  # each tool's score, best first; below ENOUGH no tool fits
    calls: tuple[CallTrace, ...]  # the calls it would make (none: it answers in words)

    def __str__(self) -> str:
        lines = [f"question: {self.question}"]
        if self.read_as != self.question:
            lines.append(f"read as:  {self.read_as}")
        lines.append("values:   " + (", ".join(f"{s.kind} {self.read_as[s.start:s.end]!r}" for s in self.spans) or "none"))
        lines.append("tools:    " + ", ".join(f"{name} {points:g}" for name, points in self.scores)
                     + f"   (a tool fits from {ENOUGH:g})")
        for call in self.calls:
            lines.append(f"call {call.tool}, from {call.clause!r}:")
            rows = [(slot.name, slot.accepts, ", ".join(slot.candidates) or "-",
                     "MISSING, ask for it" if slot.missing else "(left out)" if slot.pick is None else repr(slot.pick))
                    for slot in call.slots]
            widths = [max(len(row[i]) for row in rows) for i in range(3)]
            lines += [f"  {name:<{widths[0]}}  takes {accepts:<{widths[1]}}  candidates: {seen:<{widths[2]}}  -> {pick}"
                      for name, accepts, seen, pick in rows]
        if not self.calls:
            lines.append("no call: it answers in words")
        return "\n".join(lines)


def explain(question: str, tools: list[dict]) -> Trace:
    """The trace of one request: `tools` as given to `tools=` (or bare function definitions)."""
    offers = [offer_of(tool) for tool in tools]
    read_as = read(question, offers)[1]
    spans = tuple(find(read_as))
    scores = sorted(((o.name, round(score(o, read_as), 2)) for o in offers), key=lambda s: -s[1])
    calls = tuple(CallTrace(p.offer.name, p.clause, _slots(p.offer, p.arguments, p.missing, p.clause))
                  for p in plan(question, offers))
    return Trace(question, read_as, spans, tuple(scores), calls)


def _slots(offer: Offer, arguments: dict, missing: tuple[str, ...], text: str) -> tuple[SlotTrace, ...]:
    spans, found = find(text), []
    for slot in offer.slots:
        if "enum" in offer.properties[slot.name]:
            accepts, fitting = "choice", [str(option) for option in offer.properties[slot.name]["enum"]]
        elif slot.type in ("number", "integer"):
            accepts, fitting = slot.type, [text[s.start:s.end] for s in spans if s.kind in ("number", "duration")]
        elif slot.type == "boolean":
            accepts, fitting = slot.type, []
        else:
            accepts, fitting = slot.role or slot.type or "text", [text[s.start:s.end] for s in spans if s.kind in slot.kinds]
        found.append(SlotTrace(slot.name, accepts, tuple(fitting), arguments.get(slot.name), slot.name in missing))
    return tuple(found)
