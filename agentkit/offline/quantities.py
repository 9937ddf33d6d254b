"""Part of step 2: a quantity is given in the unit its parameter asks for.

"half a litre" is 500 for `volume_ml`, "2.5 kg" is 2500 for `weight_grams`, "1.8 m" is 180 for `height_cm`:
the parameter's name (or, failing that, its description) names one unit, the question writes the number with
another unit of the same kind, and the number is converted. A number written with a unit of another kind
("3 people", "20 minutes") is not a quantity for that parameter at all. Lengths of time are `dates.py`'s.
"""

from __future__ import annotations

import re
from typing import Protocol

from agentkit.offline import lexicon, reading
from agentkit.offline.places import CURRENCY_CODES


class Span(Protocol):
    """What this module reads of a span (spans.py's, which reads its unit words from this table: no import back)."""

    value: object
    after: tuple[str, ...]

UNITS: dict[str, tuple[str, float]] = {word: (kind, factor) for kind, table in lexicon.words("words")["units"].items()
                                       for words, factor in table.items() for word in words.split()}
"""Unit word -> (kind, how many of the kind's base unit it is): grams, millilitres, metres, farads, henries, hertz."""
MEASURES = frozenset(UNITS.keys() - CURRENCY_CODES.keys())  # the measure words that are no currency ("inch")


def wanted_unit(name: str, description: str) -> str | None:
    """The one unit a parameter asks for: by its name ("volume_ml", "weight_g") first, then its description ("in
    grams"). A description's one-letter words and "in" are words, not units; two units ("kilograms for metric,
    pounds for imperial") name none."""
    named = [w for w in reading.split_name(name) if w in UNITS and w not in ("in", "t")]
    described = [w for w in re.findall(r"[a-z]+", description.lower()) if w in UNITS and len(w) > 1 and w != "in"]
    return found[0] if (found := named or described) and len({UNITS[w] for w in found}) == 1 else None


def takes_currency(hint: frozenset[str], description: str) -> bool:
    """A unit parameter that takes a currency ("from_currency", "an ISO 4217 code"), not a measure's unit ("inch")."""
    return bool(hint & {"currency", "ccy"} or re.search(r"4217|currenc", description, re.I))


def written_unit(span: Span) -> str | None:
    """The unit a number is written with: "2.5 kg", "half a litre"."""
    after = span.after[1:2] if span.after[:1] in (("a",), ("an",)) else span.after[:1]
    return after[0] if after and after[0] in UNITS else None


def converted(span: Span, unit: str | None, whole: bool = False) -> float:
    """The span's number in `unit`, when it is written with another unit of the same kind; else as written. `whole`
    rounds a converted number for an integer parameter: "2 stone" is 12701 grams, the fraction is the conversion's, not
    the learner's. Twelve significant digits, not decimals: 47 nF is 4.7e-08 farads."""
    if unit is None or (written := written_unit(span)) is None or UNITS[written][0] != UNITS[unit][0]:
        return float(span.value)  # type: ignore[arg-type]
    amount = float(f"{float(span.value) * UNITS[written][1] / UNITS[unit][1]:.12g}")  # type: ignore[arg-type]
    return float(round(amount)) if whole and written != unit else amount


def fits_kind(span: Span, unit: str | None) -> float:
    """+3 when the number is written in a unit of the parameter's kind, -3 in a unit of another kind, else 0."""
    return 0.0 if unit is None or (w := written_unit(span)) is None else 3.0 if UNITS[w][0] == UNITS[unit][0] else -3.0
