"""A person's name, a code in two parts and an address as people give them: in a clause of their own, after a label,
with a flat or a house's name; one call for one request, however many commas it has."""

from __future__ import annotations

import json

import pytest

from agentkit.offline import OfflineModel
from agentkit.offline.numbers import shaped_like
from agentkit.offline.spans import ADDRESS, find


def tool(name, description, required, **properties):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": required}}}


def S(description="", **more):  # noqa: N802
    return {"type": "string", "description": description, **more}


MASSAGE = tool("book_massage", "Book a sports massage appointment", ["client_name", "day", "start"],
               client_name=S("Client's full name"), day=S("YYYY-MM-DD", format="date"), start=S("HH:MM", pattern=r"^\d\d:\d\d$"),
               focus=S("area to work on, e.g. back, legs"))
REPAIR = tool("track_repair", "Check the status of a repair job", ["job_number", "last_name"],
              job_number=S("repair job number, e.g. RJ-4410"), last_name=S("customer's last name"))
PERMIT = tool("apply_permit", "Apply for a parking permit", ["vehicle_reg"], vehicle_reg=S("vehicle registration"))
LOGS = tool("order_logs", "Order a delivery of logs", ["delivery_address", "bags"], delivery_address=S("where to deliver"),
            bags={"type": "integer"})


def calls(question, *tools):
    reply = OfflineModel().respond({"model": "m", "messages": [{"role": "user", "content": question}], "tools": list(tools)})
    return [(c.name, json.loads(c.arguments)) for c in reply.tool_calls]


@pytest.mark.parametrize(("question", "tools", "name", "value"), [
    ("Any news on repair job RJ-2231? Surname Okafor.", (REPAIR, MASSAGE), "last_name", "Okafor"),  # not "news"; no label
    ("What's happening with my repair RJ-5520, last name Brennan", (REPAIR, MASSAGE), "last_name", "Brennan"),
    ("Please book a massage on 2027-04-16 at 2pm. It's for my daughter, Mia Patel.", (MASSAGE, REPAIR), "client_name",
     "Mia Patel"),
    ("I'd like a massage on 2027-04-19 at 10:30, name's Oliver Grant, focus on the lower back.", (MASSAGE,), "client_name",
     "Oliver Grant"),
    ("Sports massage for Dana Whitfield please, 2027-04-16 16:00, mostly my calves", (MASSAGE,), "client_name", "Dana Whitfield"),
])
def test_a_name_said_in_a_later_clause_completes_the_one_call(question, tools, name, value):
    [(_, arguments)] = calls(question, *tools)
    assert arguments[name] == value


@pytest.mark.parametrize(("question", "value"), [("Any news on repair RJ-2231? It's Okafor.", "Okafor"),
                                               ("Any news on repair RJ-2231? I'm Jo Okafor", "Okafor")])  # a last name's part
def test_a_last_name_is_the_name_s_last_word_without_the_words_that_say_it(question, value):
    assert calls(question, REPAIR) == [("track_repair", {"job_number": "RJ-2231", "last_name": value})]


def test_two_people_named_are_still_two_calls():
    made = calls("Book a massage on 2027-04-16 at 10:00 for Tom Reyes, and at 11:00 for Anna Berg", MASSAGE)
    assert [a["client_name"] for _, a in made] == ["Tom Reyes", "Anna Berg"]


@pytest.mark.parametrize(("text", "code"), [("reg KT19 XPL, zone C", "KT19 XPL"), ("postcode LS6 2QT please", "LS6 2QT")])
def test_a_code_in_two_parts_is_one_value(text, code):
    assert [s.value for s in find(text) if s.kind == "code"] == [code]


def test_a_registration_is_the_code_not_a_guess_from_the_words_before_it():
    assert calls("Parking permit for my car, reg KT19 XPL", PERMIT) == [("apply_permit", {"vehicle_reg": "KT19 XPL"})]


@pytest.mark.parametrize(("description", "fits", "misses"), [
    ("vehicle registration, e.g. AB12 CDE", ["KT19 XPL", "A123 BCD"], ["my car", "KT19"]),  # unquoted, each run +-1
    ("postcode e.g. LS6 2QT", ["M14 5TP", "EH1 1YZ"], ["Leeds", "SW1A 1AA"]),  # the example's shape only
])
def test_a_description_s_example_gives_the_shape_of_its_code(description, fits, misses):
    import re

    pattern = re.compile(shaped_like(description))
    assert all(pattern.fullmatch(v) for v in fits) and not any(pattern.fullmatch(v) for v in misses)
    assert shaped_like("the name, e.g. Bob") is None and shaped_like("repair job, e.g. RJ-4410") is None  # a dash: CODED's


@pytest.mark.parametrize(("text", "address"), [
    ("Logs please, 2 bags, to Flat 4, 19 Kingsley Street", "Flat 4, 19 Kingsley Street"),
    ("Deliver 5 bags of logs to Rose Cottage, Low Lane", "Rose Cottage, Low Lane"),
    ("skip at Mill Lane, Hexham please", "Mill Lane, Hexham"),
    ("skip for 14 Meadow View please", "14 Meadow View"), ("6 yard skip at 7 Church Green", "7 Church Green"),  # more kinds
    ("noise from 12 Harbour Terrace every night", "12 Harbour Terrace"),  # what may follow one: "every", "since", ...
])
def test_an_address_keeps_its_flat_or_its_house_name_or_has_no_number(text, address):
    assert [m[0] for m in ADDRESS.finditer(text)] == [address]


def test_a_street_s_words_after_a_verb_are_no_address_and_a_flat_s_address_is_one_value():
    assert not list(ADDRESS.finditer("Deliver Low Lane"))
    made = calls("Logs please, 2 bags, to Flat 4, 19 Kingsley Street", LOGS)
    assert made == [("order_logs", {"delivery_address": "Flat 4, 19 Kingsley Street", "bags": 2})]


def test_a_value_only_the_clause_alone_gives_is_read_without_a_crash():  # KeyError 'group2' once (BFCL simple_python_120)
    ttest = tool("run_two_sample_ttest", "Runs a two sample t-test for two given data groups.", ["group1", "group2"],
                 group1={"type": "array", "items": {"type": "integer"}, "description": "First group of data points."},
                 group2={"type": "array", "items": {"type": "integer"}, "description": "Second group of data points."},
                 equal_variance={"type": "boolean", "description": "Whether the two samples have equal variance."})
    made = calls("Run a two sample T-test to compare the average of Group A [3, 4, 5, 6, 4] and Group B [7, 8, 9, 8, 7] "
                 "assuming equal variance.", ttest)
    assert [name for name, _ in made] == ["run_two_sample_ttest"]


TEE = tool("book_tee_time", "Book a golf tee time", ["date"], date=S("YYYY-MM-DD", format="date"),
           players={"type": "integer", "minimum": 1, "maximum": 4}, green_fee={"type": "number", "description": "fee paid"})


@pytest.mark.parametrize(("question", "players"), [("a tee time on 2027-05-01 for four", 4),
                                                  ("tee time for 2 on 2027-05-01 please", 2)])
def test_for_a_small_number_is_a_party_where_a_count_of_people_is_asked(question, players):
    [(_, arguments)] = calls(question, TEE)
    assert arguments.get("players") == players and "green_fee" not in arguments


@pytest.mark.parametrize(("question", "parts"), [
    ("Book a tee time on Saturday at 9. Then book a wine tasting on Sunday.", 2),  # "Then" after a full stop cuts
    ("Book a tee time on Saturday. Also cancel my physio", 2),
    ("Busy Saturday: book the old course at 9. Then book the links at 3 for two.", 2),  # a colon's text ends there
    ("email Bob: Running late. Start without me.", 1),  # a message of two sentences stays one text
])
def test_a_sentence_that_starts_with_then_or_also_is_a_request_of_its_own(question, parts):
    from agentkit.offline.clauses import clauses

    assert len(clauses(question)) == parts


@pytest.mark.parametrize(("text", "phone"), [("call me on 07700 900123", "07700 900123"), ("ring 0113 496 0123", "0113 496 0123"),
                                            ("电话13812345678", "13812345678"), ("020 7946 0018", "020 7946 0018")])
def test_a_national_phone_number_is_a_phone_not_numbers(text, phone):
    from agentkit.offline.vocabulary import english

    assert [s.value for s in find(english(text)) if s.kind == "phone"] == [phone]
    assert not [s for s in find("order 0012345678") if s.kind == "phone"]  # two zeros lead no national number


def test_a_capital_letter_after_its_parameter_s_word_is_its_value():
    zoned = tool("apply_permit", "Apply for a parking permit", ["vehicle_reg"], vehicle_reg=S("vehicle registration"),
                 zone=S("permit zone letter"))
    assert calls("permit for KT19 XPL in zone C please", zoned) == [("apply_permit", {"vehicle_reg": "KT19 XPL", "zone": "C"})]
    assert "zone" not in calls("permit for KT19 XPL, which zone a person needs?", zoned)[0][1]  # a word, not a letter


@pytest.mark.parametrize(("question", "name"), [
    ("Can I book the Thai street food class on 2027-03-16? The name's Tom Okoro.", "Tom Okoro"),  # not "Thai street"
    ("sourdough class on 2027-03-20 please, booking name Lucy Fenn", "Lucy Fenn"),
    ("a class on 2027-03-20. My name is Ana Lima and my email is ana@example.com", "Ana Lima"),
    ("Joe Bloggs here - a class on 2027-03-20 please", "Joe Bloggs"),
    ("a class on 2027-03-20 under the name Morris", "Morris"),
    ("book a class on 2027-03-20 for my daughter Mia Chen", "Mia Chen"),
])
def test_a_name_the_request_says_is_the_persons_is_taken_whatever_else_is_capitalised(question, name):
    book = tool("book_class", "Book a place on a class.", ["date", "learner_name"], date={"type": "string", "format": "date"},
                learner_name={"type": "string"}, email={"type": "string", "format": "email"})
    [(_, arguments)] = calls(question, book)
    assert arguments["learner_name"] == name


@pytest.mark.parametrize(("question", "postcode"), [
    ("a magician on 2027-03-20, the party is at SE15 4QL", "SE15 4QL"), ("magician 2027-03-20, postcode is m14 5tp", "M14 5TP"),
    ("book the magician on 2027-03-20 for zip 94105", "94105")])
def test_a_postcode_is_read_by_its_shape(question, postcode):
    visit = tool("book_party_magician", "Book a magician for a party.", ["date", "postcode"],
                 date={"type": "string", "format": "date"}, postcode={"type": "string"})
    [(_, arguments)] = calls(question, visit)
    assert arguments["postcode"] == postcode


@pytest.mark.parametrize(("question", "price"), [
    ("road bikes under £400", 400), ("a hybrid, budget up to €350", 350), ("road bikes under 400 pounds", 400)])
def test_a_sum_in_pounds_or_euros_is_a_price(question, price):
    search = tool("search_bikes", "Search bikes.", ["bike_type"], bike_type={"type": "string", "enum": ["road", "hybrid"]},
                  max_price={"type": "number"})
    [(_, arguments)] = calls(question, search)
    assert arguments["max_price"] == price


@pytest.mark.parametrize(("text", "names"), [
    ("Enrol me on the beginners course please. Nadia Brook, nadia.brook@example.com", ["Nadia Brook"]),  # a name alone
    ("Book it for Friday. Tomas Vega.", ["Tomas Vega"]),
    ("Can I get a large latte for Sam?", ["Sam"]),  # "I" after a word that starts the sentence names nobody
    ("Please call Mum. Thanks a lot.", ["Mum"]),  # one word opening a sentence is still no name
])
def test_a_sentence_that_is_a_name_alone_keeps_its_first_word(text, names):
    assert [s.value for s in find(text) if s.kind == "proper"] == names
