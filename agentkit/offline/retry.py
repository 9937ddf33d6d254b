"""Part of step 1, after an `Error:` result: the failed calls again, each wrong value swapped for one the error lists,
or for the question's value of the argument the error names ("start must be HH:MM") or the schema shows wrong.

A real model reads the error it caused and tries again once, keeping every other argument; a call the same as the
failed one is never made again: the error is said instead.
"""

from __future__ import annotations

import json
import re

from agentkit.offline.choose import Offer, Planned
from agentkit.offline.reply import EmittedCall


def corrected(results: list[tuple[str, dict, str]], offers: list[Offer]) -> list[EmittedCall]:
    """The failed calls again, with each wrong value swapped for the valid one the error names, if it names one."""
    calls = []
    for name, arguments, content in results:
        valid = _valid_values(content) if content.startswith("Error:") else []
        fixed = dict(arguments)
        for key, value in arguments.items():
            ranked = sorted((_likeness(value, v), v) for v in valid if isinstance(value, str) and v != value
                        and ("*" not in v or "pattern" in key))  # a glob pattern is no file's path
            if better := ranked[-1][1] if ranked and ranked[-1][0] > 0 else None:
                fixed[key] = better
        if fixed == arguments and content.startswith("Error:"):
            return []  # nothing this error says can fix this call
        calls.append(EmittedCall(name, json.dumps(fixed)))
    return calls if any(o.name in {c.name for c in calls} for o in offers) else []


def _valid_values(error: str) -> list[str]:
    """The values an error message lists as valid: "should be one of: a, b", "such as Asia/Tokyo", "e.g. km"."""
    listed = re.search(r"(?:one of|valid (?:values|options|units)(?: are)?|such as|e\.g\.|for example)\s*:?\s*(.+)", error, re.I)
    if not listed:
        return []
    quoted = [a or b for a, b in re.findall(r"'([^']+)'|`([^`]+)`", listed.group(1))]  # "(for example 'a/*') to list"
    return quoted or [v.strip(" '\"`.()") for v in re.split(r",|\bor\b|\band\b", listed.group(1)) if v.strip(" '\"`.()")]


def _likeness(wrong: str, valid: str) -> int:
    """How surely a valid value is the one meant: "Celsius" is "celsius", "Tokyo" "Asia/Tokyo", "miles" "mi"."""
    a, b = wrong.lower().replace(" ", "_"), valid.lower()
    if a == b or b.endswith("/" + a):
        return 100
    if len(b) >= 2 and a.startswith(b) or len(a) >= 2 and b.startswith(a):
        return min(len(a), len(b))  # the longest shared beginning wins: "miles" is "mi" rather than "m"
    return 0


def reread(results: list[tuple[str, dict, str]], offers: list[Offer], planned: list[Planned]) -> list[EmittedCall]:
    """The calls again, each failed one with what its error names, or the schema shows wrong, read from the question
    (`planned`, its calls); [] when that changes none of them."""
    calls = []
    for name, arguments, content in results:
        offer = next((o for o in offers if o.name == name), None)
        read = next((p for p in planned if p.offer.name == name), None if offer else next(iter(planned), None))
        if not content.startswith("Error:") or read is None:
            calls.append((name, arguments))
            continue
        properties = offer.schema.get("properties") or {} if offer and arguments else {}  # else: the call read anew
        wrong = {k for k in properties if _names(content, k) or k in arguments and not _fits(arguments[k], properties[k])
                 or _quotes(content, arguments.get(k))}
        take = {k for k in read.arguments if not properties or k in wrong or k not in arguments and k in (
            offer.schema.get("required") or [])}  # the question's value, in its order
        calls.append((read.offer.name, {k: read.arguments[k] if k in take else arguments[k] for k in [*read.arguments, *arguments]
                                        if k in take or k in arguments and k in properties}))
    return [EmittedCall(name, json.dumps(arguments)) for name, arguments in calls] if calls != [r[:2] for r in results] else []


def _names(error: str, key: str) -> bool:
    """Whether an error names a parameter: "time must be HH:MM" names `time`, "invalid from_account" `from_account`."""
    return bool(re.search(rf"(?<![A-Za-z]){re.escape(key).replace('_', '[_ ]')}(?![A-Za-z])", error, re.I))


def _quotes(error: str, value: object) -> bool:
    """Whether an error quotes a value it refuses: "'../notes.txt' leads outside the workspace" is about that path."""
    return isinstance(value, str) and len(value) > 2 and any(f"{q}{value}{q}" in error for q in "'\"`")


def _fits(value: object, spec: dict) -> bool:
    """Whether a value is one its parameter's schema takes: of its type, among its values if it lists them."""
    from agentkit.hardening.arguments import Draft202012Validator  # here, not at import: jsonschema takes a while

    return Draft202012Validator(spec).is_valid(value)
