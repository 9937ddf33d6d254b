"""Stage 3, slots: a tool as the model reads it, once: its weighted words, and what each parameter accepts.

A tool is offered again on every turn and scored against every clause, so what its schema says is read once
per tool and kept: the words of its name (weight 3), description and options (2), parameters (1), indexed for the
question's words; and for each parameter a `Slot`: its role (a place, a date, a body...), the span kinds that
can fill it, best first (`roles.py`), its JSON type and whether it is required.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from agentkit.offline import reading
from agentkit.offline.roles import Role, json_type, role_of
from agentkit.offline.spans import SpanKind
from agentkit.offline.vocabulary import english

NAME, DESCRIPTION, PARAMETER = 3.0, 2.0, 1.0  # the weight of a tool's word: in its name, its description, a parameter's
ENOUGH = DESCRIPTION  # one description word, or one name word, that means what the question says: a tool fits


@dataclass(frozen=True)
class Slot:
    """One parameter, as far as filling it goes."""

    name: str
    role: Role | None  # what it is for ("place", "date", "body"...), None for a plain value
    kinds: tuple[SpanKind, ...]  # the kinds of span that can fill it, best first
    type: str | None  # its JSON type, null aside
    required: bool


@dataclass(frozen=True, eq=False)  # one tool is one object (offer_of keeps them): its readings are cached by it
class Offer:
    """A tool as the model sees it, from `tools=` or from a `FUNCTION:` system prompt."""

    name: str
    description: str = ""
    schema: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def weighted_words(self) -> list[tuple[str, float]]:
        """(stemmed word, weight) for the tool's name, description and parameters: read once per tool, not once per clause."""
        name_words = [reading.stem(w) for w in reading.split_name(self.name) if w not in reading.STOP_WORDS]
        found = [(w, NAME) for w in name_words] + [(a, NAME) for a in reading.acronyms(name_words)]
        found += [(w, DESCRIPTION) for w in reading.words(english(self.description))]
        for param, spec in self.properties.items():
            found += [(reading.stem(w), PARAMETER) for w in reading.split_name(param) if w not in reading.STOP_WORDS]
            found += [(w, PARAMETER) for w in reading.words(english(spec.get("description", "")))]
            enum = spec.get("enum") or (spec.get("items") or {}).get("enum") or []
            found += [(reading.stem(w), DESCRIPTION) for v in map(str, enum) for w in [*reading.split_name(v), *reading.words(v)]]
        return found

    @property
    def properties(self) -> dict[str, dict]:
        """Its parameters by name, as its schema declares them."""
        return self.schema.get("properties") or {}

    @property
    def asks_the_person(self) -> bool:
        """ask_user(question): the tool a model uses to ask for what it lacks, never the answer to a request."""
        return self.name.lower().startswith("ask") and "question" in self.properties

    @cached_property
    def name_words(self) -> frozenset[str]:
        """The words of its name ("book", "home", "cook"): said, they name the tool, not one of its options."""
        return frozenset(reading.split_name(self.name))

    @cached_property
    def options(self) -> tuple[tuple[str, ...], ...]:
        """Each enum's options as said ("seasoned_hardwood": "seasoned hardwood"): one corrects another of its enum."""
        return tuple(said for spec in self.properties.values() if len(said := tuple(dict.fromkeys(
            " ".join(reading.split_name(o)).lower() for o in spec.get("enum") or [] if isinstance(o, str) and o.strip()))) > 1)

    @cached_property
    def words(self) -> frozenset[str]:
        return frozenset(w for w, _ in self.weighted_words)

    def weight_of(self, word: str) -> float:
        """The weight of the tool's word that best means `word` (`reading.related`), 0 when none does."""
        exact, groups, starts, known = self._index
        if word not in known:  # the same words come back clause after clause: each is looked up once per tool
            best = max([exact.get(word, 0.0), *(groups.get(g, 0.0) for g in reading.synonym_groups(word))])
            if word[:4] in starts and word not in reading.WHOLE:  # "calc", "calculate": one the start of the other
                best = max([best, starts.get(word, 0.0), *(exact.get(word[:end], 0.0) for end in range(4, len(word) + 1))])
            known[word] = best
        return known[word]

    @cached_property
    def _index(self) -> tuple[dict[str, float], dict[int, float], dict[str, float], dict[str, float]]:
        """The tool's words by spelling, by synonym line and by their starts of four letters or more, best weight each."""
        ranked = sorted(self.weighted_words, key=lambda e: e[1])  # by weight: the best one is kept
        exact, groups = dict(ranked), {g: weight for w, weight in ranked for g in reading.synonym_groups(w)}
        starts = {w[:end]: weight for w, weight in ranked if w not in reading.WHOLE for end in range(4, len(w) + 1)}
        return exact, groups, starts, {}

    @cached_property
    def slots(self) -> tuple[Slot, ...]:
        """What each parameter accepts, in the schema's order."""
        required = set(self.schema.get("required") or [])
        return tuple(Slot(name, *role_of(name, spec), json_type(spec), name in required)
                     for name, spec in self.properties.items())


def offer_of(tool: dict) -> Offer:
    """A tool as given to `tools=` (or a bare function definition): offered on every turn, its words and slots are
    read once, not once per request."""
    return _offer(json.dumps(tool.get("function", tool)))  # in the schema's order, which fills the parameters


@lru_cache(maxsize=1024)
def _offer(function: str) -> Offer:
    return Offer((found := json.loads(function))["name"], found.get("description") or "", found.get("parameters") or {})


@lru_cache(maxsize=1024)
def named_only(name: str) -> Offer:
    """A tool known by its name alone: what the name's words say, whatever the description adds."""
    return Offer(name)
