"""The course's first tool: the current time in a time zone, which a model cannot know on its own."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from agentkit.errors import ToolError
from agentkit.hardening.zone_names import check_zone_name
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.schema import tool

USE_A_ZONE_NAME = "use an IANA time zone name such as Europe/Paris, Asia/Tokyo, Pacific/Auckland, UTC."  # ends each error


def get_current_time(timezone: str = "UTC") -> str:
    """Return the current time in a time zone, given as an IANA name such as "Pacific/Auckland"."""
    check_zone_name(timezone, USE_A_ZONE_NAME)  # the name becomes a file path below: no "../", no 1 MB name
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # no such zone, or a folder such as "Europe"
        raise ToolError(f"Unknown time zone {timezone!r}: {USE_A_ZONE_NAME}") from None
    return format_time(datetime.now(zone), timezone)


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
