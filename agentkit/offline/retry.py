"""Part of step 1, after an `Error:` result: the failed calls again, each wrong value swapped for one the error lists.

A real model reads the error it caused and tries again; this one does so once, and only when the error
names a valid value close to the wrong one ("should be one of: celsius, fahrenheit" after "Celsius").
"""

from __future__ import annotations

import json
import re

from agentkit.offline.choose import Offer
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
