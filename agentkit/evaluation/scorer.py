"""Scoring tool calls by AST match, as public function-calling leaderboards do.

A call is right when it names the expected function, every argument it gives is a declared parameter of
the right type, every required argument is there, and each value is one of the acceptable ones. Several
calls are matched in any order, each call to one expected call at most. For a question no offered tool
fits, the right answer is no call at all.
"""

from __future__ import annotations

import json
import math
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentkit.evaluation.dataset import Case, ExpectedCall
from agentkit.hardening.arguments import Draft202012Validator, ValidationError

ModelCall = tuple[str, str | dict[str, Any]]
"""A call as the model made it: the function's name and its arguments (the JSON text, or already parsed)."""

_EDGES = string.whitespace + string.punctuation


@dataclass(frozen=True)
class Verdict:
    right: bool
    """Every expected call made, right, and nothing else called."""
    right_tool: bool
    """The model called exactly the expected functions (arguments aside); for no_tool: it called nothing."""
    reasons: tuple[str, ...] = ()
    """Why it is wrong, one line each ("missing argument 'city'", ...); empty when right."""
    values: tuple[int, int] = (0, 0)
    """(right, asked) over the calls that name an expected tool: the values it must be given (leaving them out is
    wrong), and how many of them the call gave right, whether or not the whole answer is right (partial progress
    shows here before it shows in `right`)."""


def normalized(text: str) -> str:
    """Case, surrounding whitespace and punctuation, and runs of spaces do not count: "Tokyo." == " tokyo"."""
    return " ".join(text.casefold().strip(_EDGES).split())


def same_value(got: Any, want: Any) -> bool:
    """Equal as an argument: strings after `normalized`, numbers across int/float, lists in order, objects by key."""
    if isinstance(got, bool) or isinstance(want, bool):
        return got is want
    if isinstance(got, (int, float)) and isinstance(want, (int, float)):
        return math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(got, str) and isinstance(want, str):
        return normalized(got) == normalized(want)
    if isinstance(got, list) and isinstance(want, list):
        return len(got) == len(want) and all(map(same_value, got, want))
    if isinstance(got, dict) and isinstance(want, dict):
        return got.keys() == want.keys() and all(same_value(got[key], want[key]) for key in got)
    return got == want


def call_problem(name: str, arguments: str | dict[str, Any], expected: ExpectedCall,
                 schema: Mapping[str, Any] | None) -> str | None:
    """What is wrong with one call measured against one expected call, or None when it matches."""
    if name != expected.name:
        return f"wrong tool: called {name}, expected {expected.name}"
    if schema is None:
        return f"called {name}, which was not offered"
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except json.JSONDecodeError:
            return f"{name}: arguments are not valid JSON: {arguments[:60]!r}"
    if not isinstance(arguments, dict):
        return f"{name}: arguments are a {type(arguments).__name__}, not an object"
    declared = schema["parameters"].get("properties", {})
    for argument, value in arguments.items():
        if argument not in declared:
            return f"{name}: unknown argument {argument!r} (declared: {', '.join(declared)})"
        try:
            Draft202012Validator(declared[argument]).validate(value)
        except ValidationError as error:
            return f"{name}: {argument!r} does not fit its schema: {error.message}"
    for argument, acceptable in expected.arguments.items():
        if argument not in arguments:
            if None not in acceptable:
                return f"{name}: missing argument {argument!r}"
        elif not any(want is not None and same_value(arguments[argument], want) for want in acceptable):
            wanted = [want for want in acceptable if want is not None] or "left out"
            return f"{name}: bad value for {argument!r}: got {arguments[argument]!r}, expected {wanted!r}"
    return None


def values_right(arguments: str | dict[str, Any], expected: ExpectedCall) -> tuple[int, int]:
    """(right, asked) for one call to the expected tool: an argument is asked when leaving it out is wrong."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except json.JSONDecodeError:
            arguments = {}
    given = arguments if isinstance(arguments, dict) else {}
    asked = {name: acceptable for name, acceptable in expected.arguments.items() if None not in acceptable}
    return sum(name in given and any(same_value(given[name], want) for want in asked[name]) for name in asked), len(asked)


def _matching(fits: list[list[bool]]) -> list[int | None]:
    """For each expected call, the index of the model call matched to it (a maximum bipartite matching)."""
    owner: dict[int, int] = {}  # model call -> expected call

    def place(expected: int, seen: set[int]) -> bool:
        for call, fit in enumerate(fits[expected]):
            if fit and call not in seen:
                seen.add(call)
                if call not in owner or place(owner[call], seen):
                    owner[call] = expected
                    return True
        return False

    for expected in range(len(fits)):
        place(expected, set())
    by_expected: list[int | None] = [None] * len(fits)
    for call, expected in owner.items():
        by_expected[expected] = call
    return by_expected


def score(case: Case, calls: Sequence[ModelCall], functions: Mapping[str, Mapping[str, Any]], text: str | None = None) -> Verdict:
    """Score the calls a model made for `case` (and its text, quoted when it made no call)."""
    offered = {name: functions[name]["function"] for name in case.tools}
    right_tool = sorted(name for name, _ in calls) == sorted(call.name for call in case.expected)
    if not case.expected:
        reasons = tuple(f"called {name} although no offered tool fits" for name, _ in calls)
        return Verdict(not reasons, right_tool, reasons)
    if not calls:
        return Verdict(False, False, (f"no call; it answered {(text or '')[:80]!r}",))
    problems = [[call_problem(name, arguments, expected, offered.get(name)) for name, arguments in calls]
                for expected in case.expected]
    matched = _matching([[problem is None for problem in row] for row in problems])
    unused = [i for i in range(len(calls)) if i not in matched]
    reasons, paired = [], list(matched)  # paired: the call each expected call is measured against, for its values
    for index, call in enumerate(matched):
        if call is None:  # explain it by the nearest unused call: same name first, any call when one was expected
            expected = case.expected[index]
            nearest = [i for i in unused if calls[i][0] == expected.name] or (unused if len(case.expected) == 1 else [])
            if nearest:
                explaining = nearest[0]
                unused.remove(explaining)
                reasons.append(problems[index][explaining])
                paired[index] = explaining
            else:
                reasons.append(f"missing call to {expected.name}")
    reasons += [f"extra call to {calls[i][0]}" + ("" if calls[i][0] in offered else " (not offered)") for i in unused]
    counts = [values_right(calls[call][1], expected) for expected, call in zip(case.expected, paired, strict=True)
              if call is not None and calls[call][0] == expected.name]  # values are scored where the tool is right
    return Verdict(not reasons, right_tool, tuple(reasons), (sum(r for r, _ in counts), sum(a for _, a in counts)))
