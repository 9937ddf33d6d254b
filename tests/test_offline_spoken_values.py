"""Issue 34's values written as people write them, each tested as a class in words of our own (not a reported
sentence): a day without its year for something that happened is the last such day, not the coming one."""

import datetime as dt
import json

import pytest

from agentkit.offline import OfflineModel, dates
from agentkit.offline.vocabulary import english


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


@pytest.mark.parametrize(("written", "day"), [("thurs", "2026-12-10"), ("wed", "2026-12-09"), ("next tues", "2026-12-08"),
                                              ("fri", "2026-12-11"), ("sat", "2026-12-12")])
def test_a_weekday_cut_short_is_that_weekday(written, day):
    assert dates.as_iso(written, dt.date(2026, 12, 5)) == day


@pytest.mark.parametrize(("text", "clock"), [
    ("the vet, ideally around 11", "11:00"), ("call me after 10, then", "10:00"), ("9 in the morning", "09:00"),
    ("8 in the evening", "20:00"), ("sunday afternoon around 4?", "16:00"), ("from 7am", "07:00"),
])
def test_an_hour_said_around_or_with_its_part_of_the_day_is_a_clock_time(text, clock):
    assert [c for *_, c in dates.clock_times(text)] == [clock]


@pytest.mark.parametrize("text", ["around 10 people", "after 5 years", "before 3 more rounds"])
def test_a_number_after_around_or_after_that_counts_something_is_no_clock_time(text):
    assert dates.clock_times(text) == []


KAYAK = tool("hire_kayak", "Hire a kayak at a lake.", ["lake", "day", "start_time", "hours"],
             lake={"type": "string", "description": "Which lake"},
             day={"type": "string", "description": "Day of the hire", "format": "date"},
             start_time={"type": "string", "description": "Start, HH:MM", "format": "time"},
             hours={"type": "integer", "description": "How long to keep it, in hours"})
CABIN = tool("book_cabin", "Book a cabin for a stay.", ["campsite", "arrival", "nights"],
             campsite={"type": "string", "description": "Which campsite"},
             arrival={"type": "string", "description": "Arrival day", "format": "date"},
             nights={"type": "integer", "description": "How many nights"})
BIKE = tool("hire_bike", "Hire a bike.", ["town", "pickup_date", "return_date"],
            town={"type": "string", "description": "Town to hire in"},
            pickup_date={"type": "string", "description": "Day to collect it", "format": "date"},
            return_date={"type": "string", "description": "Day to bring it back", "format": "date"})


def test_a_start_after_from_and_a_length_in_hours_go_to_their_own_parameters():
    args = called("a kayak on Lake Bled wed from 10am for 2 hours", [KAYAK])[0][1]
    assert (args["day"], args["start_time"], args["hours"]) == (dates.as_iso("wednesday", dt.date.today()), "10:00", 2)


@pytest.mark.parametrize(("question", "nights"), [("cabin at Pine Hollow from march 2 for a week", 7),
                                                  ("cabin at Pine Hollow from march 2 for two weeks", 14)])
def test_a_stay_of_weeks_is_counted_in_nights(question, nights):
    assert called(question, [CABIN])[0][1]["nights"] == nights


def test_a_day_after_returning_or_till_is_where_a_hire_ends():
    args = called("hire a bike in Bruges from the 3rd, returning the 9th", [BIKE])[0][1]
    assert (args["pickup_date"], args["return_date"]) == (dates.as_iso("the 3rd"), dates.as_iso("the 9th"))
    assert called("hire a bike in Bruges from the 3rd till the 9th", [BIKE])[0][1]["return_date"] == dates.as_iso("the 9th")


NOTE = tool("leave_note", "Leave a note for later.", ["text", "day", "at"],
            text={"type": "string", "description": "What the note says"},
            day={"type": "string", "description": "Day to show it"},
            at={"type": "string", "description": "Clock time to show it, HH:MM"})


@pytest.mark.parametrize(("question", "day", "clock"), [("note to feed the fish on tuesday morning at 8", "tuesday", "08:00"),
                                                        ("note to feed the fish tomorrow evening around 6", "tomorrow", "18:00")])
def test_a_part_of_the_day_after_a_day_is_when_and_no_part_of_what(question, day, clock):
    assert called(question, [NOTE])[0][1] == {"text": "feed the fish", "day": day, "at": clock}


@pytest.mark.parametrize(("said", "clock"), [
    ("twenty past six", "06:20"), ("ten to five", "16:50"), ("twenty-five to 4", "15:35"), ("half seven", "07:30"),
    ("at seven", "07:00"), ("seven pm", "19:00"), ("at 7ish", "07:00"), ("at six forty-five", "06:45"),
    ("at seven o five", "07:05"), ("6.30pm", "18:30"), ("at seven tonight", "19:00"), ("around eight", "08:00"),
])
def test_a_clock_time_said_in_words(said, clock):
    assert [c for *_, c in dates.clock_times(said)] == [clock]


@pytest.mark.parametrize("words", ["at one point", "half an hour", "half the team", "at two locations", "at three of them",
                                   "ten to fifteen people", "at 6.25%", "half of them"])
def test_words_that_say_no_clock_time(words):
    assert dates.clock_times(words) == []


@pytest.mark.parametrize(("said", "clock"), [
    ("book a pottery class at half past one", "13:30"), ("pick the suit up at 2:45", "14:45"), ("call Ana at 3", "15:00"),
    ("set an alarm for 5:30", "05:30"), ("my flight leaves at 4:50", "04:50"), ("at 4 in the morning", "04:00"),
    ("the bus at 02:45", "02:45"), ("meet at 9", "09:00"), ("周四晚7点半的瑜伽课", "19:30"), ("傍晚7:30上课", "19:30"),
])
def test_an_hour_from_one_to_five_said_bare_is_after_noon_unless_the_small_hours_are_meant(said, clock):
    from agentkit.offline.spans import find

    assert [s.value for s in find(english(said)) if s.kind == "time"] == [clock]


@pytest.mark.parametrize(("said", "minutes"), [
    ("finished in 3h30", 210), ("finished in 3 hours 45 minutes", 225), ("I hope to finish in 1 hour 50", 110),
    ("用时三小时四十五分钟", 225), ("预计4个半小时", 270)])
def test_hours_and_minutes_said_together_are_one_length(said, minutes):
    assert f"{minutes} minutes" in english(said)


def test_hours_then_a_count_of_something_else_are_two_values():
    assert "120 minutes" not in english("book 2 hours 3 people")
