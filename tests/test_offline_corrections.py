"""A value corrected in the same breath ("at 7pm, no wait, 8pm", "晚上7点，不对，8点") is read as the value meant, and
words that only look like a correction ("make it for 15", "no smoking", "wait for me") change nothing. In words of our
own, with tools of our own: the class, not a reported sentence."""

import json

import pytest

from agentkit.offline import OfflineModel
from agentkit.offline.corrections import corrected, zh_marked
from agentkit.offline.vocabulary import english


def tool(name, description, required=None, **properties):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": required if required is not None else list(properties)}}}


def called(question, tools):
    reply = OfflineModel().respond({"messages": [{"role": "user", "content": question}], "tools": tools})
    return [(c.name, json.loads(c.arguments)) for c in reply.tool_calls]


TEXT, WHOLE = {"type": "string"}, {"type": "integer"}
KAYAK = tool("hire_kayak", "Hire a kayak at the lake.", ["day", "start", "people"], day={"type": "string", "format": "date"},
             start={"type": "string", "description": "Start time, HH:MM"}, people=WHOLE, colour=TEXT)
PARCEL = tool("redirect_parcel", "Send a parcel on to another address.", ["reference", "city"], reference={
    "type": "string", "pattern": "^[A-Z]{2}[0-9]{4}$"}, city=TEXT)
SEATS = tool("book_seats", "Book seats at the cinema.", ["film", "seats"], film=TEXT, seats=WHOLE)


@pytest.mark.parametrize(("question", "tools", "expected"), [
    ("hire a kayak on 2027-05-02 at 10am for 2 people, no wait, 11am", [KAYAK], {"start": "11:00", "people": 2}),
    ("hire a kayak on 2027-05-02 at 3pm for 2 people - sorry, 4", [KAYAK], {"start": "15:00", "people": 4}),
    ("hire a kayak on 2027-05-02 at 2pm for 3 people, oops, I meant 2027-05-03", [KAYAK], {"day": "2027-05-03"}),
    ("hire a kayak on 2027-05-02 for 2 at 6pm, scratch that, 7", [KAYAK], {"start": "19:00", "people": 2}),  # the evening still
    ("hire a kayak on 2027-05-02 at 6pm for 2, scratch that, 3", [KAYAK], {"start": "18:00", "people": 3}),  # the value nearest
    ("redirect parcel KT4410 to Derby, sorry, I mean Leicester", [PARCEL], {"city": "Leicester"}),
    ("redirect parcel KT4410, sorry, 4401, to Derby", [PARCEL], {"reference": "KT4401"}),  # the code's digits again
    ("两个人明天下午两点租皮划艇，不对，三点", [KAYAK], {"start": "15:00", "people": 2}),
    ("两个人明天下午两点租皮划艇…算了，改成四点吧", [KAYAK], {"start": "16:00"}),
])
def test_the_value_after_a_correction_takes_the_place_of_the_one_it_corrects(question, tools, expected):
    ((name, arguments),) = called(question, tools)
    assert name == tools[0]["function"]["name"]
    assert {key: arguments.get(key) for key in expected} == expected, arguments


@pytest.mark.parametrize(("text", "meant"), [
    ("book the morning slot on Friday, sorry, the afternoon slot", "book the afternoon slot on Friday"),  # a head shared
    ("order a small tea, no wait, a mocha", "order a small mocha"),  # the last words of the phrase "a" opens
])
def test_a_correction_without_a_value_found_by_pattern_replaces_the_words_it_restates(text, meant):
    assert corrected(text) == meant


@pytest.mark.parametrize("text", [
    "I have a recipe for 6, make it for 15",  # "make it" asks for something new
    "book a table for 2, no smoking please",
    "sorry to bother you, book a table for 2 at 7pm",
    "meet Sam at 6 and wait for me at 7",
    "I actually need a taxi at 7",
    "book 2 seats, sorry, what films are on?",  # nothing of its kind before: left as it is
])
def test_words_that_only_look_like_a_correction_change_nothing(text):
    assert corrected(english(zh_marked(text))) == english(text)


def test_a_chinese_correction_is_written_in_the_words_the_reader_knows():
    assert zh_marked("晚上7点，不对，8点") == "晚上7点, no wait, 8点"
    assert zh_marked("周四…算了，改成周五") == "周四, no wait, 周五"
    assert zh_marked("我不对劲") == "我不对劲"  # 不对 with no comma or dash before it says nothing of a correction


@pytest.mark.parametrize(("question", "expected"), [
    ("book 2 seats for Dune and 3 seats for Alien", [("Dune", 2), ("Alien", 3)]),
])
def test_each_item_of_a_list_keeps_its_own_count(question, expected):
    assert [(a["film"], a["seats"]) for _, a in called(question, [SEATS])] == expected


def test_the_last_item_of_a_list_keeps_its_own_word():
    order = tool("order_part", "Order parts for the workshop.", ["part", "quantity"], part=TEXT, quantity=WHOLE)
    assert [(a["part"], a["quantity"]) for _, a in called("order 4 hinges and 6 brackets", [order])] == [
        ("hinges", 4), ("brackets", 6)]


COFFEE = tool("order_coffee", "Order a coffee to collect.", ["drink", "size"], drink={
    "type": "string", "enum": ["latte", "cappuccino", "flat_white", "mocha"]}, size={
    "type": "string", "enum": ["small", "medium", "large"]}, customer=TEXT)
TABLE = tool("book_table", "Book a table at the restaurant.", ["day", "time", "people"], day={"type": "string", "format": "date"},
             time={"type": "string", "description": "HH:MM"}, people=WHOLE)
STORE = tool("rent_storage", "Rent a storage unit.", ["size_sqft", "months"], size_sqft=WHOLE, months=WHOLE)


@pytest.mark.parametrize(("question", "expected"), [
    ("Can I get a large latte? Actually make that a mocha instead.", {"drink": "mocha", "size": "large"}),
    ("a medium cappuccino - sorry, make it a large", {"drink": "cappuccino", "size": "large"}),
    ("a large flat white for Sam, sorry, a small one", {"drink": "flat_white", "size": "small", "customer": "Sam"}),
])
def test_another_option_of_the_same_enum_takes_the_place_of_the_one_it_corrects(question, expected):
    assert called(question, [COFFEE, TABLE]) == [("order_coffee", expected)]


@pytest.mark.parametrize(("question", "expected"), [
    ("book a table on 2027-05-02 at 7pm, no wait, 8 for four", {"time": "20:00", "people": 4}),  # the hour, then a count
    ("table on 2027-05-02 at 7.30pm, sorry, 8.15pm — three of us", {"time": "20:15", "people": 3}),  # the words after it
])
def test_the_words_after_a_corrected_value_are_still_read(question, expected):
    ((name, arguments),) = called(question, [TABLE, COFFEE])
    assert name == "book_table" and {key: arguments.get(key) for key in expected} == expected, arguments


def test_a_reason_between_the_correction_and_its_value_is_passed_over():
    question = "a storage unit for 3 months, 25 square feet... no wait, that won't fit the piano, make it 60"
    assert called(question, [STORE]) == [("rent_storage", {"size_sqft": 60, "months": 3})]
