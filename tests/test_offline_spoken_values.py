"""Issue 34's values written as people write them, each tested as a class in words of our own (not a reported
sentence): a day without its year for something that happened is the last such day, not the coming one."""

import datetime as dt
import json

import pytest

from agentkit.offline import OfflineModel, dates


def tool(name, description, required=None, **properties):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": required or list(properties)}}}


def called(question, tools):
    reply = OfflineModel().respond({"messages": [{"role": "user", "content": question}], "tools": tools})
    return [(c.name, json.loads(c.arguments)) for c in reply.tool_calls]


@pytest.mark.parametrize(("written", "coming", "last"), [
    ("the 28th", "2026-12-28", "2026-11-28"),
    ("the 5th", "2026-12-05", "2026-12-05"),
    ("the 2nd", "2027-01-02", "2026-12-02"),
    ("Dec 1st", "2027-12-01", "2026-12-01"),
    ("january 9", "2027-01-09", "2026-01-09"),
    ("friday", "2026-12-11", "2026-12-04"),
])
def test_a_day_without_its_year_is_the_coming_one_or_for_what_happened_the_last_one(written, coming, last):
    today = dt.date(2026, 12, 5)  # a Saturday
    assert dates.as_iso(written, today) == coming
    assert dates.as_iso(written, today, past=True) == last


REFUND = tool("claim_refund", "Claim back a ticket for a trip that was cancelled.", ["route", "travel_date"],
              route={"type": "string", "description": "The line or route"},
              travel_date={"type": "string", "description": "Day the trip was meant to happen, YYYY-MM-DD"})
DEADLINE = tool("add_deadline", "Put a deadline on the planner.", ["task", "due"],
                task={"type": "string"}, due={"type": "string", "description": "Due day, YYYY-MM-DD"})


@pytest.mark.parametrize("day", [1, 9, 17, 26])
def test_a_day_of_the_month_is_in_the_past_when_the_description_says_it_happened(day):
    today = dt.date.today()
    ordinal = f"{day}{'st' if day in (1, 21, 31) else 'th'}"
    last = today.replace(day=day) if day <= today.day else (today.replace(day=1) - dt.timedelta(days=1)).replace(day=day)
    coming = dates.as_iso(f"the {ordinal}", today)
    assert called(f"the 8:15 route 14 bus never came on the {ordinal}, claim it back", [REFUND])[0][1]["travel_date"] == \
        last.isoformat()
    assert called(f"put the tax return on the planner for the {ordinal}", [DEADLINE])[0][1]["due"] == coming


@pytest.mark.parametrize(("question", "numbers"), [
    ("pressure 117/76 after the walk", [117, 76]),
    ("it read one thirty two over eighty four", [132, 84]),
    ("one fifty over ninety, pulse sixty eight", [150, 90, 68]),
    ("roll two twenty-sided dice", [2, 20]),
    ("two hundred and five grams", [205]),
])
def test_two_numbers_beside_a_slash_or_said_as_a_digit_and_its_tens_are_read_as_people_say_them(question, numbers):
    from agentkit.offline.spans import find

    assert [s.value for s in find(question) if s.kind == "number"] == numbers


LAMPS = tool("set_lamps", "Set how bright the lamps of one room are.", ["room", "brightness"],
             room={"type": "string", "description": "Room name, e.g. 'kitchen', 'study'"},
             brightness={"type": "integer", "description": "Brightness in percent", "minimum": 1, "maximum": 100})


@pytest.mark.parametrize(("question", "room"), [
    ("dim the playroom lamps to 40%", "playroom"),
    ("set the hallway lamps to 25 percent", "hallway"),
    ("living room lamps at 80%", "living room"),
])
def test_a_room_parameter_takes_the_room_word_and_not_the_verb_before_it(question, room):
    assert called(question, [LAMPS])[0][1]["room"] == room


LOST = tool("report_lost_item", "File a report for something the user lost.", ["item"],
            item={"type": "string", "description": "What was lost"},
            date_lost={"type": "string", "description": "Day it was lost, YYYY-MM-DD"})


@pytest.mark.parametrize(("question", "item"), [
    ("I left my blue umbrella, can you report it", "blue umbrella"),
    ("forgot my yellow raincoat, please report it", "yellow raincoat"),
    ("I dropped my house keys, report them for me", "house keys"),
])
def test_a_verb_of_losing_before_the_thing_lost_is_no_part_of_it(question, item):
    assert called(question, [LOST])[0][1]["item"] == item


FUEL = tool("note_refuel", "Note a refuelling stop.", ["litres"],
            litres={"type": "number", "description": "Litres put in"},
            topped_off={"type": "boolean", "description": "True if the tank was filled right up"})


@pytest.mark.parametrize(("question", "full"), [
    ("note 38 litres, filled it right up", True),
    ("38 litres in, tank not filled", False),
])
def test_a_flag_is_read_from_the_verb_its_description_says(question, full):
    assert called(question, [FUEL])[0][1].get("topped_off") == full


LIGHT = tool("set_light", "Control the lights of one room.", ["room", "on"],
             room={"type": "string", "description": "Room name, e.g. 'kitchen'"},
             on={"type": "boolean", "description": "Lights on (true) or off (false)"},
             level={"type": "integer", "description": "Brightness 1-100"})


@pytest.mark.parametrize("question", ["dim the landing lights to 20%", "brighten the attic lights to 90 percent"])
def test_dimming_or_brightening_a_light_leaves_it_on(question):
    assert called(question, [LIGHT])[0][1]["on"] is True


@pytest.mark.parametrize(("written", "clock"), [
    ("dinner for four at 8", "20:00"),
    ("a table at Rosa's, half past 7", "19:30"),
    ("two seats at the cinema at quarter to 9", "20:45"),
    ("drinks after work at 6:15", "18:15"),
    ("breakfast table at 8", "08:00"),  # the morning said: as written
    ("dentist at 9", "09:00"),  # nothing says evening: as written
])
def test_a_bare_hour_is_in_the_evening_when_what_happens_then_says_so(written, clock):
    assert [value for _, _, value in dates.clock_times(written)] == [clock]
