"""The offline model on everyday questions and tools the course never uses: the class of case, one row each.

Each row is a question, the tools offered (their own words, not the course's), and the exact calls a small
competent model makes, or the text it answers with instead.
"""

import json

import pytest

from agentkit.offline import OfflineModel
from agentkit.offline.answer import DONT_KNOW


def tool(name, description, required=(), **properties):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": list(required)}}}


S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
CLOCK = tool("get_time", "Current local time in a city.", ["timezone"], timezone={**S, "description": "IANA time zone"})
INTEREST = tool("compound_interest", "Future value of an investment with compound interest.",
                ["principal", "rate", "years"], principal=N, rate={**N, "description": "Yearly rate in percent"}, years=INT)
CONVERT = tool("convert_units", "Convert a value from one unit to another.", ["value", "from_unit", "to_unit"],
               value=N, from_unit=S, to_unit=S)
NOTE = tool("create_note", "Save a note.", ["title", "body"], title=S, body=S, pinned={"type": "boolean"})
FLIGHTS = tool("find_flights", "Search flights between two cities on a date.", ["origin", "destination"],
               origin=S, destination=S, date={**S, "description": "YYYY-MM-DD"})
EMAIL = tool("send_email", "Send an email.", ["to", "subject", "body"], to={**S, "description": "email address"},
             subject=S, body=S)
REMIND = tool("set_reminder", "Remind the user of something at a time.", ["text", "time"], text=S, time=S)
BMI = tool("body_mass_index", "Body mass index from weight and height.", ["weight_kg", "height_m"],
           weight_kg=N, height_m=N)
ROOT = tool("square_root", "Square root of a number.", ["x"], x=N)
WEATHER = tool("get_forecast", "Weather forecast for a city.", ["city"], city=S,
               unit={"type": "string", "enum": ["celsius", "fahrenheit"]})
TRIANGLE = tool("triangle_area", "Area of a triangle.", ["base", "height"], base=N, height=N)
EDIT = tool("edit_text", "Replace text in a file.", ["path", "old", "new"], path=S, old=S, new=S,
            replace_all={"type": "boolean", "description": "Replace every occurrence, not only one."})
STATS = tool("average", "The mean of a list of numbers.", ["numbers"], numbers={"type": "array", "items": N})

ROWS = [
    ("times in two cities", "What time is it in Tokyo and in Paris right now?", [CLOCK, ROOT],
     [("get_time", {"timezone": "Asia/Tokyo"}), ("get_time", {"timezone": "Europe/Paris"})]),
    ("an unquoted city", "what's the weather forecast for Lisbon", [WEATHER, CLOCK], [("get_forecast", {"city": "Lisbon"})]),
    ("numbers by the words next to them", "If I invest 1200 at 3.5% for 7 years, what will I have?", [INTEREST, ROOT],
     [("compound_interest", {"principal": 1200, "rate": 3.5, "years": 7})]),
    ("words next to the numbers, in another order", "What is the area of a triangle with a height of 5 and a base of 10?",
     [TRIANGLE, ROOT], [("triangle_area", {"base": 10, "height": 5})]),
    ("from and to", "Convert 5 miles to kilometers", [CONVERT, CLOCK],
     [("convert_units", {"value": 5, "from_unit": "miles", "to_unit": "kilometers"})]),
    ("a note with a title and a body", "Make a note called Groceries saying eggs, milk and bread", [NOTE, EMAIL],
     [("create_note", {"title": "Groceries", "body": "eggs, milk and bread"})]),
    ("flights between two cities", "Find flights from Berlin to Madrid on 2025-07-01", [FLIGHTS, WEATHER],
     [("find_flights", {"origin": "Berlin", "destination": "Madrid", "date": "2025-07-01"})]),
    ("an email", 'Email ann@example.com with the subject "Lunch" saying see you at noon', [EMAIL, NOTE],
     [("send_email", {"to": "ann@example.com", "subject": "Lunch", "body": "see you at noon"})]),
    ("a reminder", "Remind me to water the plants at 18:00", [REMIND, NOTE],
     [("set_reminder", {"text": "water the plants", "time": "18:00"})]),
    ("BMI by initials", "What's my BMI if I weigh 70 kg and I am 1.75 m tall?", [BMI, ROOT],
     [("body_mass_index", {"weight_kg": 70, "height_m": 1.75})]),
    ("one tool, three values", "What are the square roots of 16, 25 and 36?", [ROOT, BMI],
     [("square_root", {"x": 16}), ("square_root", {"x": 25}), ("square_root", {"x": 36})]),
    ("an array", "What is the average of 3, 5 and 10?", [STATS, ROOT], [("average", {"numbers": [3, 5, 10]})]),
    ("two tools", "What's the weather in Oslo and what time is it in Tokyo?", [WEATHER, CLOCK],
     [("get_forecast", {"city": "Oslo"}), ("get_time", {"timezone": "Asia/Tokyo"})]),
    ("a flag needs all its words", 'In notes.txt replace "tea" with "coffee"', [EDIT, NOTE],
     [("edit_text", {"path": "notes.txt", "old": "tea", "new": "coffee"})]),
    ("a flag asked for", 'In notes.txt replace all "tea" with "coffee"', [EDIT, NOTE],
     [("edit_text", {"path": "notes.txt", "old": "tea", "new": "coffee", "replace_all": True})]),
    ("an integer never truncates a float", "Compound interest on 1000 at 5% for 2.5 years", [INTEREST], None),
]
ABSTAIN = [
    ("no tool fits", "Write me a haiku about autumn", [WEATHER, CLOCK, INTEREST]),
    ("no tool fits, though a city is named", "What is the population of Paris?", [CLOCK, ROOT, CONVERT]),
]


def decide(question, tools):
    return OfflineModel().respond({"model": "offline", "messages": [{"role": "user", "content": question}], "tools": tools})


@pytest.mark.parametrize(("question", "tools", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_everyday_calls(question, tools, expected):
    reply = decide(question, tools)
    if expected is None:  # it asks instead of calling with a hole in it
        assert reply.tool_calls == () and reply.content == "How many years should I use?"
    else:
        assert [(c.name, json.loads(c.arguments)) for c in reply.tool_calls] == expected


@pytest.mark.parametrize(("question", "tools"), [r[1:] for r in ABSTAIN], ids=[r[0] for r in ABSTAIN])
def test_abstains_in_text(question, tools):
    reply = decide(question, tools)
    assert reply.tool_calls == () and reply.content == DONT_KNOW["en"]


def after(question, calls, results, tools):
    messages = [{"role": "user", "content": question}, {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for i, (n, a) in enumerate(calls)]}]
    messages += [{"role": "tool", "tool_call_id": f"c{i}", "content": r} for i, r in enumerate(results)]
    return OfflineModel().respond({"model": "offline", "messages": messages, "tools": tools})


@pytest.mark.parametrize(("calls", "results", "answer"), [
    ([("square_root", {"x": 16}), ("square_root", {"x": 25})], ["4.0", "5.0"],
     "The square root of 16 is 4.0. The square root of 25 is 5.0."),
    ([("convert_units", {"value": 5, "from_unit": "km", "to_unit": "mi"})], ["3.11 mi"], "5 km is 3.11 mi."),
    ([("get_forecast", {"city": "Oslo"})], ["Error: the weather service is down"],
     "That didn't work: the weather service is down. Try again in a moment."),
], ids=["one sentence per call", "a conversion", "an error said plainly"])
def test_answers_are_sentences_that_use_the_results(calls, results, answer):
    assert after("the question", calls, results, [ROOT, CONVERT]).content == answer


def test_retry_once_with_the_valid_value_the_error_names():
    reply = after("Convert 5 miles to km", [("convert_units", {"value": 5, "from_unit": "miles", "to_unit": "km"})],
                  ["Error: unknown unit 'miles'; should be one of: km, m, mi, ft"], [CONVERT])
    assert [(c.name, json.loads(c.arguments)) for c in reply.tool_calls] == [
        ("convert_units", {"value": 5, "from_unit": "mi", "to_unit": "km"})]


def test_follow_up_uses_the_tool_of_the_conversation():
    messages = [{"role": "user", "content": "What time is it in Tokyo?"},
                {"role": "assistant", "content": None, "tool_calls": [{"id": "c0", "type": "function", "function": {
                    "name": "get_time", "arguments": '{"timezone": "Asia/Tokyo"}'}}]},
                {"role": "tool", "tool_call_id": "c0", "content": "10:00"},
                {"role": "assistant", "content": "The current time in Tokyo is 10:00."},
                {"role": "user", "content": "And in Paris?"}]
    reply = OfflineModel().respond({"model": "offline", "messages": messages, "tools": [CLOCK]})
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("get_time", '{"timezone": "Europe/Paris"}')]
