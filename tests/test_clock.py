import asyncio
import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agentkit.calls import ToolCall
from agentkit.tools.clock import clock_tool, format_time, get_current_time
from agentkit.tools.contract import ToolError
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry

SHAPE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2} \((?P<zone>[^)]+)\)$")


def test_format_time_has_the_shape_the_sanitizer_expects():
    moment = datetime(2026, 12, 3, 6, 40, 12, 987_654, tzinfo=ZoneInfo("Pacific/Auckland"))
    assert format_time(moment, "Pacific/Auckland") == "2026-12-03 06:40:12+13:00 (Pacific/Auckland)"


def test_format_time_negative_and_half_hour_offsets():
    moment = datetime(2026, 1, 15, 9, 5, 0, tzinfo=ZoneInfo("America/St_Johns"))
    assert format_time(moment, "America/St_Johns") == "2026-01-15 09:05:00-03:30 (America/St_Johns)"
    moment = datetime(2026, 1, 15, 9, 5, 0, tzinfo=ZoneInfo("Asia/Kolkata"))
    assert format_time(moment, "Asia/Kolkata") == "2026-01-15 09:05:00+05:30 (Asia/Kolkata)"


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris", "Asia/Tokyo", "Pacific/Auckland", "America/New_York"])
def test_get_current_time_is_now_in_that_zone(zone):
    before = datetime.now(UTC).replace(microsecond=0)
    text = get_current_time(zone)
    after = datetime.now(UTC)
    match = SHAPE.match(text)
    assert match and match["zone"] == zone
    moment = datetime.fromisoformat(text.split(" (")[0])
    assert moment.utcoffset() == datetime.now(ZoneInfo(zone)).utcoffset()
    assert before <= moment <= after


def test_default_zone_is_utc():
    assert get_current_time().endswith("+00:00 (UTC)")


@pytest.mark.parametrize("bad", ["Mars/Olympus_Mons", "Tokyo", "Europe", "UTC/x", "leapseconds", "+VERSION"])
def test_unknown_zone_is_a_tool_error_naming_valid_examples(bad):
    with pytest.raises(ToolError) as caught:
        get_current_time(bad)
    message = str(caught.value)
    assert message.startswith(f"Unknown time zone {bad!r}")
    for zone in ("Europe/Paris", "Asia/Tokyo", "Pacific/Auckland", "UTC"):
        assert zone in message


def test_clock_tool_schema_the_model_sees():
    tool = clock_tool()
    entry = tool.to_openai()
    assert entry["type"] == "function"
    function = entry["function"]
    assert function["name"] == "get_current_time"
    assert "current time" in function["description"] and "time zone" in function["description"]
    # Made by @tool from `timezone: str = "UTC"`: optional (not required), with its default stated.
    assert function["parameters"] == {
        "type": "object",
        "properties": {"timezone": {"type": "string", "description": "IANA time zone name, e.g. Europe/Paris, "
                                    "Asia/Tokyo, Pacific/Auckland.", "default": "UTC"}},
        "additionalProperties": False,
    }
    assert "handler" not in str(entry)


@pytest.mark.anyio
async def test_clock_tool_handler_is_async_and_uses_the_zone():
    handler = clock_tool().handler
    assert SHAPE.match(await handler({"timezone": "Asia/Tokyo"}))["zone"] == "Asia/Tokyo"
    assert (await handler({})).endswith("(UTC)")
    with pytest.raises(ToolError):
        await handler({"timezone": "Atlantis"})


def test_utc_offset_matches_wall_clock_difference():
    text = get_current_time("Asia/Tokyo")
    moment = datetime.fromisoformat(text.split(" (")[0])
    assert moment.utcoffset() == timedelta(hours=9)


EXAMPLES = "use an IANA time zone name such as Europe/Paris, Asia/Tokyo, Pacific/Auckland, UTC."


@pytest.mark.parametrize(("bad", "message"), [
    ("", "Invalid time zone '': the name is empty"),
    ("x" * 256, f"Invalid time zone '{'x' * 60}… (256 characters)': the name has 256 characters, "
                "more than any time zone (64 at most)"),
    ("Europe/" * 600, f"Invalid time zone '{('Europe/' * 9)[:60]}… (4200 characters)': the name has 4200 characters, "
                      "more than any time zone (64 at most)"),
    ("../../etc/localtime", "Invalid time zone '../../etc/localtime': a time zone is a name, not a file path"),
    ("/etc/localtime", "Invalid time zone '/etc/localtime': a time zone is a name, not a file path"),
    ("Europe/./Paris", "Invalid time zone 'Europe/./Paris': a time zone is a name, not a file path"),
    ("Europe/Paris\x00", "Invalid time zone 'Europe/Paris\\x00': a name has only letters, digits, '_', '-', '+' and "
                          "'/' between its parts"),
    ("New Zealand", "Invalid time zone 'New Zealand': a name has only letters, digits, '_', '-', '+' and '/' between "
                    "its parts"),
    ("Europe//Paris", "Invalid time zone 'Europe//Paris': a name has only letters, digits, '_', '-', '+' and '/' "
                      "between its parts"),
    ("UTC\n", "Invalid time zone 'UTC\\n': a name has only letters, digits, '_', '-', '+' and '/' between its parts"),
], ids=["empty", "256 bytes", "long path", "relative path", "absolute path", "dot", "NUL", "space", "double slash",
        "newline"])
def test_an_impossible_zone_name_is_a_tool_error_naming_the_problem(bad, message):
    with pytest.raises(ToolError) as caught:
        get_current_time(bad)
    assert str(caught.value) == f"{message}; {EXAMPLES}"


@pytest.mark.parametrize(("bad", "shown"), [(5, "5"), (None, "None"), (["UTC"], "['UTC']")])
def test_a_zone_that_is_not_a_string_is_a_tool_error_not_a_crash(bad, shown):
    """Called directly (chapter 01's protocol passes what the model wrote), not through @tool's type check."""
    with pytest.raises(ToolError) as caught:
        get_current_time(bad)
    assert str(caught.value) == f"Invalid time zone {shown}: a time zone is a string, got {type(bad).__name__}; {EXAMPLES}"


CLOCK = build_registry([clock_tool()])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(max_size=80) | st.text(alphabet="abcEU/._-+\x00", max_size=300) | st.sampled_from(["Europe", "UTC"]))
@example("x" * 256)
@example("a/" * 3000)
def test_any_string_gives_a_time_or_an_error_never_an_exception(zone):
    try:
        text = get_current_time(zone)
    except ToolError as error:
        assert str(error).endswith(EXAMPLES)
    else:
        assert SHAPE.match(text)
    result = asyncio.run(execute_tool(CLOCK, ToolCall.parse("", "get_current_time", {"timezone": zone})))
    assert result.error is None or isinstance(result.error, ToolError)  # never reported as a bug in the tool
