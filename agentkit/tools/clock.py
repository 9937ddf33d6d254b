"""The course's first tool: the current time in a time zone, which a model cannot know on its own."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.dispatcher import echo
from agentkit.tools.schema import tool

EXAMPLE_ZONES = ("Europe/Paris", "Asia/Tokyo", "Pacific/Auckland", "UTC")
"""Valid IANA names quoted in the error for an unknown zone, so the model can correct its call."""

MAX_ZONE_NAME = 64
"""Longest zone name looked up; the longest IANA name has 32 characters (America/Argentina/ComodRivadavia)."""

ZONE_NAME = re.compile(r"[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*")
"""The shape of every IANA name: `Etc/GMT+5`, `America/Port-au-Prince`; no dots, spaces or leading `/`."""


def get_current_time(timezone: str = "UTC") -> str:
    """Return the current time in a time zone, given as an IANA name such as "Pacific/Auckland"."""
    examples = ", ".join(EXAMPLE_ZONES)
    if problem := zone_name_problem(timezone):
        raise ToolError(f"Invalid time zone {echo(timezone)!r}: {problem}; "
                        f"use an IANA time zone name such as {examples}.")
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        # A well-shaped name is still a file lookup: a folder ("Europe") or a non-zone file gives OSError/ValueError.
        raise ToolError(f"Unknown time zone {timezone!r}: use an IANA time zone name such as {examples}.") from None
    return format_time(datetime.now(zone), timezone)


def zone_name_problem(timezone: object) -> str | None:
    """What makes `timezone` impossible as a zone name, checked before the name becomes a path in a file lookup."""
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


def format_time(moment: datetime, zone_name: str) -> str:
    """`2026-12-03 06:40:12+13:00 (Pacific/Auckland)`: one fixed shape, so nbval can sanitize the clock part."""
    return f"{moment.isoformat(sep=' ', timespec='seconds')} ({zone_name})"


def clock_tool() -> ToolDefinition:
    """`get_current_time` as a native tool: its JSON Schema comes from the typed signature, as chapter 03 shows."""

    @tool(name="get_current_time")
    def current_time(timezone: str = "UTC") -> str:
        """Get the current time (date, clock time and UTC offset) in a time zone.

        Use it whenever the user asks what time or what date it is, here or somewhere else.

        Args:
            timezone: IANA time zone name, e.g. Europe/Paris, Asia/Tokyo, Pacific/Auckland.
        """
        return get_current_time(timezone)

    return current_time
