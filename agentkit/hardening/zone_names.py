"""A time zone name the model sent, checked before it becomes a path in a file lookup (chapter 01's clock).

The attack: `ZoneInfo(name)` reads the file `name` below the time zone folders, so a name is a path:
`../../etc/localtime`, `/etc/passwd`, `Europe/./Paris`, a NUL byte or a name of a megabyte would reach the file
system, and an error repeating it whole would flood the context. A name is refused unless it has the shape of
every IANA name (`Etc/GMT+5`, `America/Port-au-Prince`), and the error quotes it cut by `echo`.
Proved by tests/test_clock.py (each shape, and any string: a time or a `ToolError`, never a crash).
"""

from __future__ import annotations

import re

from agentkit.errors import ToolError
from agentkit.hardening.echo import echo, quoted

MAX_ZONE_NAME = 64
"""Longest zone name looked up; the longest IANA name has 32 characters (America/Argentina/ComodRivadavia)."""

ZONE_NAME = re.compile(r"[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*")
"""The shape of every IANA name: no dots, spaces or leading `/`."""


def check_zone_name(timezone: object, advice: str) -> None:
    """Raise a `ToolError` naming the problem (and then `advice`) if `timezone` cannot be a zone name."""
    if problem := zone_name_problem(timezone):
        shown = quoted(timezone) if isinstance(timezone, str) else echo(repr(timezone))
        raise ToolError(f"Invalid time zone {shown}: {problem}; {advice}")


def zone_name_problem(timezone: object) -> str | None:
    """What makes `timezone` impossible as a zone name, or None."""
    if not isinstance(timezone, str):
        return f"a time zone is a string, got {type(timezone).__name__}"
    if not timezone:
        return "the name is empty"
    if len(timezone) > MAX_ZONE_NAME:
        return f"the name has {len(timezone)} characters, more than any time zone ({MAX_ZONE_NAME} at most)"
    if timezone.startswith("/") or any(part in (".", "..") for part in timezone.split("/")):
        return "a time zone is a name, not a file path"
    if not ZONE_NAME.fullmatch(timezone):
        return "a name has only letters, digits, '_', '-', '+' and '/' between its parts"
    return None
