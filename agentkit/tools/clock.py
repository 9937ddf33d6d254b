"""The course's first tool: the current time in a time zone, which a model cannot know on its own."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from agentkit.tools.contract import ToolDefinition, ToolError

EXAMPLE_ZONES = ("Europe/Paris", "Asia/Tokyo", "Pacific/Auckland", "UTC")
"""Valid IANA names quoted in the error for an unknown zone, so the model can correct its call."""


def get_current_time(timezone: str = "UTC") -> str:
    """Return the current time in a time zone, given as an IANA name such as "Pacific/Auckland"."""
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        # ValueError/TypeError: zoneinfo refuses non-keys such as "" or "../x" before looking them up.
        examples = ", ".join(EXAMPLE_ZONES)
        raise ToolError(
            f"Unknown time zone {timezone!r}: use an IANA time zone name such as {examples}."
        ) from None
    return format_time(datetime.now(zone), timezone)


def format_time(moment: datetime, zone_name: str) -> str:
    """`2026-12-03 06:40:12+13:00 (Pacific/Auckland)`: one fixed shape, so nbval can sanitize the clock part."""
    return f"{moment.isoformat(sep=' ', timespec='seconds')} ({zone_name})"


def clock_tool() -> ToolDefinition:
    """`get_current_time` as a native tool: the JSON Schema the model sees plus the async handler."""

    async def handler(arguments: dict) -> str:
        return get_current_time(arguments.get("timezone", "UTC"))

    return ToolDefinition(
        name="get_current_time",
        description=(
            "Get the current time (date, clock time and UTC offset) in a time zone. "
            "Use it whenever the user asks what time or what date it is, here or somewhere else."
        ),
        parameters={
            "type": "object",
            "properties": {
                "timezone": {
                    "type": "string",
                    "description": "IANA time zone name, e.g. Europe/Paris, Asia/Tokyo, Pacific/Auckland. Default: UTC.",
                },
            },
            "required": [],
            "additionalProperties": False,
        },
        handler=handler,
    )
