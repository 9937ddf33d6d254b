"""Values by class: lists from enumerations, quantities in the parameter's unit, clock times by a format."""

from __future__ import annotations

import json
import re

import pytest

from agentkit.offline.choose import Offer, plan
from agentkit.offline.fill import fill
from agentkit.offline.quantities import wanted_unit
from agentkit.offline.roles import role_of
from agentkit.offline.spans import ADDRESS, find
from agentkit.offline.vocabulary import english


def _offer(name, description, properties, required=()):
    return Offer(name, description, {"type": "object", "properties": properties, "required": list(required)})


def _list(description=""):
    return {"type": "array", "items": {"type": "string"}, "description": description}


COOK = _offer("find_dishes", "Find dishes that use some ingredients.", {
    "ingredients": _list("what to use"), "max_minutes": {"type": "integer", "description": "cooking time in minutes"}},
    ["ingredients"])
TICKET = _offer("open_ticket", "Open a ticket in a repository.", {
    "repo": {"type": "string", "description": "owner/name"}, "title": {"type": "string"}, "labels": _list()},
    ["repo", "title"])
GATHER = _offer("plan_gathering", "Plan a gathering.", {
    "topic": {"type": "string", "description": "what it is about"}, "guests": _list("who comes")}, ["topic", "guests"])
DRINK = _offer("log_fluid", "Log what you drank.", {"amount_ml": {"type": "integer"}}, ["amount_ml"])
PARCEL = _offer("post_parcel", "Price of posting a parcel.", {
    "weight": {"type": "integer", "description": "parcel weight in grams"},
    "country": {"type": "string", "description": "destination country"}}, ["weight", "country"])
BODY = _offer("body_index", "Body index.", {"mass_kg": {"type": "number"}, "height_cm": {"type": "number"}},
              ["mass_kg", "height_cm"])
WAKE = _offer("alarm_clock", "Set an alarm.", {"at": {"type": "string", "description": "HH:MM"}}, ["at"])
MEET = _offer("book_slot", "Book a calendar slot.", {
    "title": {"type": "string"}, "day": {"type": "string", "description": "YYYY-MM-DD"},
    "begin": {"type": "string", "description": "HH:MM, 24 hours"}}, ["title", "day"])

SAY = _offer("say_in", "Translate a phrase.", {
    "phrase": {"type": "string", "description": "the words to translate"},
    "lang": {"type": "string", "description": "target language, ISO 639-1 code"}}, ["phrase", "lang"])
GLOSS = _offer("gloss", "Dictionary meaning of a word.", {
    "term": {"type": "string", "description": "the word"},
    "language": {"type": "string", "description": "language code of the word"}}, ["term"])

POST = _offer("postage", "Postage for a parcel.", {
    "weight_kg": {"type": "number"}, "sender_country": {"type": "string", "description": "ISO code of the sender's country"},
    "receiver_country": {"type": "string", "description": "ISO code of the receiver's country"}},
    ["weight_kg", "sender_country", "receiver_country"])

FX = _offer("exchange", "Exchange money.", {
    "sum": {"type": "number", "description": "amount of money"},
    "from_ccy": {"type": "string", "description": "ISO 4217 code"},
    "to_ccy": {"type": "string", "description": "ISO 4217 code"}}, ["from_ccy", "to_ccy"])

HAZARD = _offer("hazard_alerts", "Active alerts for a region.", {"region": {"type": "string", "description": "region"}},
                ["region"])


def _calls(question, *offers):
    return [(p.offer.name, p.arguments) for p in plan(question, list(offers)) if not p.missing]


@pytest.mark.parametrize(("question", "offer", "expected"), [
    # lists: after "with", after the parameter's own word, or a run of items; never the next argument's words
    ("what dishes can I make with rice, beans and corn in under 30 minutes", COOK,
     {"ingredients": ["rice", "beans", "corn"], "max_minutes": 30}),
    ("dishes with lentils", COOK, {"ingredients": ["lentils"]}),
    ('open a ticket in acme/app titled "Login fails" with labels auth and backend', TICKET,
     {"repo": "acme/app", "title": "Login fails", "labels": ["auth", "backend"]}),
    ('open a ticket in acme/app titled "Login fails" with label auth', TICKET,
     {"repo": "acme/app", "title": "Login fails", "labels": ["auth"]}),
    ("plan a gathering about the launch with Ines and Karl", GATHER, {"topic": "launch", "guests": ["Ines", "Karl"]}),
    # quantities: converted into the unit the parameter names, by its name or its description
    ("log half a litre", DRINK, {"amount_ml": 500}),
    ("log 1.5 l", DRINK, {"amount_ml": 1500}),
    ("post 2.5 kg to Peru", PARCEL, {"weight": 2500, "country": "Peru"}),
    ("post a 400 g parcel to Peru", PARCEL, {"weight": 400, "country": "Peru"}),
    ("my index: 1.75 m and 70 kg", BODY, {"mass_kg": 70, "height_cm": 175}),
    # clock times and days by the format a description writes
    ("alarm at 6:05", WAKE, {"at": "06:05"}),
    ("book a slot called Review on 2027-02-03 at 9:30", MEET, {"title": "Review", "day": "2027-02-03", "begin": "09:30"}),
    # languages: as an ISO 639-1 code where the parameter asks for a code, the text to say as written
    ("how do you say good luck in Japanese?", SAY, {"phrase": "good luck", "lang": "ja"}),
    ("how would I write happy birthday in swedish", SAY, {"phrase": "happy birthday", "lang": "sv"}),
    ("what's the Dutch word for bicycle?", SAY, {"phrase": "bicycle", "lang": "nl"}),
    ("meaning of the Portuguese word coração", GLOSS, {"term": "coração", "language": "pt"}),
    ("look up Straße, a German word", GLOSS, {"term": "Straße", "language": "de"}),
    # a text after a colon ends where a comma brings another parameter's word
    ("open a ticket in acme/app: login fails on mobile, labels auth and ui", TICKET,
     {"repo": "acme/app", "title": "login fails on mobile", "labels": ["auth", "ui"]}),
    # a currency named with its country ("swiss francs") is counted by the number before both words
    ("how many pounds for 70 australian dollars", FX, {"sum": 70, "from_ccy": "AUD", "to_ccy": "GBP"}),
    ("change 50 canadian dollars into euros", FX, {"sum": 50, "from_ccy": "CAD", "to_ccy": "EUR"}),
    # a place no table knows, as people write it: lowercase, after its preposition
    ("any flood warnings for kerala?", HAZARD, {"region": "Kerala"}),
    ("hazard advisories in the lake district", HAZARD, {"region": "Lake District"}),
    # a direction read past an article: "to the US from the UK"
    ("post 2 kg to the Netherlands from the UK", POST, {"weight_kg": 2, "sender_country": "GB", "receiver_country": "NL"}),
    ("post 1 kg from the US to the UK", POST, {"weight_kg": 1, "sender_country": "US", "receiver_country": "GB"}),
])
def test_values_by_class(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


def test_a_list_item_after_a_comma_is_not_another_call():
    calls = _calls('open a ticket in acme/app titled "Crash" with labels bug, ui, p1', TICKET)
    assert calls == [("open_ticket", {"repo": "acme/app", "title": "Crash", "labels": ["bug", "ui", "p1"]})]


def test_a_clause_that_fits_the_current_tool_as_well_as_another_stays_in_its_call():
    other = _offer("create_issue", "Open a new issue in a GitHub repository.",
                   {"repository": {"type": "string", "description": "owner/name"}, "title": {"type": "string"}},
                   ["repository", "title"])
    labels = _offer("add_labels", "Adds labels to an issue in a GitHub repository.", {
        "repo": {"type": "string", "description": "owner/name"}, "number": {"type": "integer"}, "labels": _list()},
        ["repo", "number", "labels"])
    assert _calls("add the labels bug and ui to issue 7 in acme/web", labels, other) == [
        ("add_labels", {"repo": "acme/web", "number": 7, "labels": ["bug", "ui"]})]


@pytest.mark.parametrize(("name", "description", "unit"), [
    ("volume_ml", "", "ml"), ("weight", "Weight in grams.", "grams"), ("height_cm", "in metres", "cm"),
    ("weight", "kilograms for metric, pounds for imperial", None),  # two units name none
    ("count", "how many, in total", None),  # "in" is a word here, not inches
])
def test_the_unit_a_parameter_asks_for(name, description, unit):
    assert wanted_unit(name, description) == unit


def test_a_format_in_the_description_gives_the_role():
    assert role_of("start", {"type": "string", "description": "HH:MM"})[0] == "time"
    assert role_of("on", {"type": "string", "description": "YYYY-MM-DD"})[0] == "date"


def test_a_list_never_takes_a_tool_word_or_a_verb():
    schema = {"type": "object", "properties": {"title": {"type": "string"}, "tags": _list("tags for the note")},
              "required": ["title"]}
    values, _ = fill(schema, "Jot down a note called Ideas")
    assert "tags" not in values


@pytest.mark.parametrize(("written", "day"), [
    ("march 3rd 2027", "2027-03-03"), ("12 may 2027", "2027-05-12"), ("1st of june", "2026-06-01"),
    ("march 3", "2027-03-03"),  # without a year: the coming one
    ("november 20", "2026-11-20"), ("february 30", None),
    ("dec 1st", "2026-12-01"), ("sept. 3", "2026-09-03"),  # a month's short name
    ("the 14th", "2026-03-14"), ("the 3rd", "2026-04-03"),  # a day of this month, or of the next once it has passed
])
def test_a_day_by_its_month_name(written, day):
    import datetime as dt

    from agentkit.offline.dates import as_iso
    assert as_iso(written, dt.date(2026, 3, 5)) == day


@pytest.mark.parametrize(("text", "clock"), [
    ("half past seven", "07:30"), ("quarter to 8 pm", "19:45"), ("at 7.30", "07:30"), ("at 12.45pm", "12:45"),
    ("half past six in the evening", "18:30"),
])
def test_clock_times_as_people_say_them(text, clock):
    from agentkit.offline.dates import clock_times
    assert [c for *_, c in clock_times(text)] == [clock]


@pytest.mark.parametrize("text", ["a loan at 6.25%", "sell at 7.30 dollars", "it costs 7.30"])
def test_a_rate_or_a_price_is_no_clock_time(text):
    from agentkit.offline.dates import clock_times
    assert clock_times(text) == []


@pytest.mark.parametrize(("text", "seconds"), [("a timer for eleven minutes", 660), ("wait sixty-five minutes", 3900)])
def test_a_duration_said_in_any_number_word(text, seconds):
    from agentkit.offline.dates import durations
    assert [s for *_, s in durations(text)] == [seconds]  # the lexicon's number words, not a shorter list of its own


def test_a_day_counted_in_any_number_word():
    from agentkit.offline.spans import find
    assert [s.value for s in find("remind me in twenty days") if s.kind == "date"] == ["in twenty days"]


FLIGHTS = _offer("find_flights", "Find flights between two airports.", {
    "origin": {"type": "string", "description": "IATA code of departure airport"},
    "destination": {"type": "string", "description": "IATA code of arrival airport"},
    "date": {"type": "string", "description": "YYYY-MM-DD"}}, ["origin", "destination", "date"])


@pytest.mark.parametrize(("question", "expected"), [
    ("flight SFO to NRT on 2027-03-03", {"origin": "SFO", "destination": "NRT", "date": "2027-03-03"}),
    ("to NRT from SFO on 2027-03-03, find flights", {"origin": "SFO", "destination": "NRT", "date": "2027-03-03"}),
])
def test_codes_written_x_to_y(question, expected):
    assert _calls(question, FLIGHTS) == [("find_flights", expected)]


PARKING = _offer("pay_parking", "Pay for parking.", {
    "plate": {"type": "string", "description": "licence plate"}, "hours": {"type": "number", "description": "in hours"}},
    ["plate", "hours"])
QUOTE = _offer("share_price", "Latest price of a share.", {"symbol": {"type": "string", "description": "ticker, e.g. MSFT"}},
               ["symbol"])
TIMER = _offer("countdown", "Start a countdown.", {"minutes": {"type": "integer", "description": "length in minutes"}},
               ["minutes"])


@pytest.mark.parametrize(("question", "offer", "expected"), [
    ("pay parking for plate KX42ZZT for 90 minutes", PARKING, {"plate": "KX42ZZT", "hours": 1.5}),  # an identifier
    ("how is NVDA doing today", QUOTE, {"symbol": "NVDA"}),  # a ticker is enough to choose the tool
    ("countdown of thirty five minutes", TIMER, {"minutes": 35}),  # a number in two words
])
def test_identifiers_tickers_and_number_words(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


RATE = _offer("fx_rate", "Exchange rate between two currencies.", {
    "base": {"type": "string", "description": "ISO 4217 code to convert from"},
    "quote": {"type": "string", "description": "ISO 4217 code to convert to"}}, ["base", "quote"])


@pytest.mark.parametrize(("question", "expected"), [
    ("fx rate from gbp to chf", {"base": "GBP", "quote": "CHF"}),  # a format named in the description: ISO 4217
    ("how many yen is one dollar, exchange rate", {"base": "USD", "quote": "JPY"}),
])
def test_currencies_by_their_iso_code(question, expected):
    assert _calls(question, RATE) == [("fx_rate", expected)]


def test_tonight_makes_a_clock_time_evening():
    from agentkit.offline.dates import clock_times
    assert [c for *_, c in clock_times("tonight at 7:30")] == ["19:30"]
    assert [c for *_, c in clock_times("at 7:30")] == ["07:30"]


def test_a_follow_up_that_changes_one_side_keeps_the_other():
    import json

    from agentkit.offline import OfflineModel
    tool = {"type": "function", "function": {"name": "fx", "description": "Convert money.", "parameters": {
        "type": "object", "required": ["amount", "from_ccy", "to_ccy"], "properties": {
            "amount": {"type": "number"}, "from_ccy": {"type": "string", "description": "ISO code"},
            "to_ccy": {"type": "string", "description": "ISO code"}}}}}
    call = {"id": "c1", "type": "function", "function": {"name": "fx", "arguments": json.dumps(
        {"amount": 10, "from_ccy": "USD", "to_ccy": "EUR"})}}
    messages = [{"role": "user", "content": "convert 10 usd to eur"},
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "c1", "content": "9.2"},
                {"role": "assistant", "content": "10 USD is 9.20 EUR."}, {"role": "user", "content": "and to yen?"}]
    reply = OfflineModel().respond({"model": "m", "messages": messages, "tools": [tool]})
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [{"amount": 10, "from_ccy": "USD", "to_ccy": "JPY"}]


CART = _offer("add_to_basket", "Add products to the basket.", {
    "products": _list("product names"), "express": {"type": "boolean", "description": "express delivery"}}, ["products"])


@pytest.mark.parametrize(("question", "expected"), [
    ("put pears, rice and green tea in my basket", {"products": ["pears", "rice", "green tea"]}),  # one call, a list
    ("add soap and a towel to the basket with express delivery", {"products": ["soap", "towel"], "express": True}),
])
def test_items_for_a_tool_that_takes_a_list_are_one_call(question, expected):
    assert _calls(question, CART) == [("add_to_basket", expected)]


RIDE = _offer("call_cab", "Call a cab.", {"pickup": {"type": "string", "description": "where to collect"},
                                          "dropoff": {"type": "string", "description": "where to go"}}, ["pickup", "dropoff"])
SHOP = _offer("basket_add", "Add a product to the basket.", {"product": {"type": "string"}, "qty": {"type": "integer"}},
              ["product"])


@pytest.mark.parametrize(("question", "offer", "expected"), [
    ("call a cab from the station to Grand Hotel Europa", RIDE, {"pickup": "station", "dropoff": "Grand Hotel Europa"}),
    ("call a cab to the museum from Central Park", RIDE, {"pickup": "Central Park", "dropoff": "museum"}),
    ("add 4 lemons to my basket", SHOP, {"product": "lemons", "qty": 4}),  # a number before a noun counts it
])
def test_places_no_table_knows_and_counts_of_things(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


HOURS = _offer("get_opening_hours", "When a gallery, a shop or another venue is open.", {
    "venue": {"type": "string", "description": "The venue's name"}, "day": {"type": "string"}}, ["venue"])


@pytest.mark.parametrize(("question", "offer", "expected"), [
    ("opening hours of the Royal Museum of Fine Arts on Sunday", HOURS, {"venue": "Royal Museum of Fine Arts", "day": "Sunday"}),
    ("call a cab from the Natural History Museum of Vienna to the station", RIDE,
     {"pickup": "Natural History Museum of Vienna", "dropoff": "station"}),
])
def test_a_place_named_with_its_kind_goes_on_through_of(question, offer, expected):
    """ "the Museum of Modern Art", "Union Station of Leeds": the name after "of" is the place's own, not a second place."""
    assert _calls(question, offer) == [(offer.name, expected)]


OUTSIDE = _offer("outdoor_conditions", "How it is outside at a spot: the temperature and the wind.", {
    "spot": {"type": "string", "description": "Where, e.g. a town or a landmark"}}, ["spot"])


@pytest.mark.parametrize(("question", "spot"), [
    ("the temperature and the wind at Bondi beach today", "Bondi beach"),
    ("outdoor conditions in the Gobi desert", "Gobi desert"),
    ("is it cold at Lake Louise", "Lake Louise"),  # the kind first: a name as any other
])
def test_a_natural_place_is_named_with_its_kind(question, spot):
    """A desert, a beach, a forest is named as a street or a station is: "the Gobi desert" is the place, not "Gobi"."""
    assert _calls(question, OUTSIDE) == [(OUTSIDE.name, {"spot": spot})]


DINE = _offer("restaurant_search", "Find restaurants in a town.", {
    "town": {"type": "string"}, "cuisine": {"type": "string", "description": "Which kind of food"}}, ["town", "cuisine"])


@pytest.mark.parametrize(("question", "cuisine"), [
    ("find restaurants serving Thai cuisine in Leeds", "Thai"),
    ("restaurants in Leeds with Greek cuisine", "Greek"),
    ("any good places for Korean cuisine in Leeds?", "Korean"),
])
def test_a_cuisine_is_named_by_its_people(question, cuisine):
    """ "Thai cuisine" is Thai, not "serving Thai" or "with Greek": the adjective a language is also named by."""
    assert _calls(question, DINE) == [(DINE.name, {"town": "Leeds", "cuisine": cuisine})]


RAIN = _offer("rain_outlook", "Expected rainfall in a town over the coming days.", {
    "town": {"type": "string"}, "days": {"type": "integer", "description": "How many days ahead"},
    "unit": {"type": "string", "description": "mm or inches"}}, ["town", "days"])


@pytest.mark.parametrize(("question", "expected"), [
    ("rainfall in Leeds for the next 4 days in inches", {"town": "Leeds", "days": 4, "unit": "inches"}),
    ("expected rainfall in Leeds over 10 days", {"town": "Leeds", "days": 10}),
    ("rainfall in Leeds in mm for the next 2 days", {"town": "Leeds", "days": 2, "unit": "mm"}),
])
def test_the_unit_of_a_count_its_parameter_is_named_for_is_no_unit_parameters(question, expected):
    """ "for 4 days" fills `days`: "days" is that number's word, not the answer's unit."""
    assert _calls(question, RAIN) == [(RAIN.name, expected)]


ROAD = _offer("road_distance", "How far apart two cities are by road.", {
    "from_city": {"type": "string", "description": "The first city"},
    "to_city": {"type": "string", "description": "The second city"}}, ["from_city", "to_city"])


@pytest.mark.parametrize("question", ["road distance from Boston to Washington D.C.",
                                      "road distance between Boston and Washington D.C."])
def test_a_city_written_with_initials_keeps_them(question):
    """ "Washington D.C." is the city as written, its initials and their full stops too, not "Washington"."""
    assert _calls(question, ROAD) == [(ROAD.name, {"from_city": "Boston", "to_city": "Washington D.C."})]


def test_francs_and_rupees_are_money():
    from agentkit.offline.spans import find
    assert [s.kind for s in find("200 swiss francs in rupees") if s.kind == "unit"] == ["unit", "unit"]


def _after(question, name, arguments, correction, offer):
    from agentkit.offline.conversation import Conversation, follow_up
    messages = [{"role": "user", "content": question},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "ok"}, {"role": "assistant", "content": "Done."},
                {"role": "user", "content": correction}]
    return [(p.offer.name, p.arguments) for p in follow_up(Conversation.of(messages), correction, [offer])]


@pytest.mark.parametrize(("correction", "expected"), [
    ("make it 9:45 instead", {"title": "Review", "day": "2027-02-03", "begin": "09:45"}),
    ("no, I meant 2027-02-04", {"title": "Review", "day": "2027-02-04", "begin": "09:30"}),
    ("actually at 11:00", {"title": "Review", "day": "2027-02-03", "begin": "11:00"}),
])
def test_a_correction_repeats_the_last_call_with_the_value_changed(correction, expected):
    before = {"title": "Review", "day": "2027-02-03", "begin": "09:30"}
    assert _after("book a slot called Review on 2027-02-03 at 9:30", "book_slot", before, correction, MEET) == [
        ("book_slot", expected)]


TICKET_FIELDS = {"repo": {"type": "string", "description": "The repository, as owner/name"},
          "title": {"type": "string", "description": "Issue title"}}


@pytest.mark.parametrize("question, expected", [
    ("Open an issue titled 'Crash on start'", ({"title": "Crash on start"}, ["repo"])),
    ('file a bug called "Login loops" please', ({"title": "Login loops"}, ["repo"])),
    ("开一个标题为 'Crash' 的 issue", ({"title": "Crash"}, ["repo"])),
    ("Open an issue in psf/requests titled 'Timeout ignored'", ({"repo": "psf/requests", "title": "Timeout ignored"}, [])),
])
def test_a_quoted_title_is_no_repository(question, expected):
    """A repository is owner/name: a quoted title must not fill it, so the model asks for the repository."""
    assert fill({"type": "object", "properties": TICKET_FIELDS, "required": ["repo", "title"]}, question) == expected


@pytest.mark.parametrize("hint, amount", [({"duration", "seconds"}, 5400), ({"hrs"}, 1.5), ({"days"}, 0.0625),
                                          ({"timer"}, 90), ({"duration", "mins"}, 90), ({"weeks"}, 5400 / 604800)])
def test_a_duration_is_given_in_the_unit_its_parameter_names_by_the_one_table_of_units(hint, amount):
    from agentkit.offline.dates import in_unit

    assert in_unit(5400, hint) == pytest.approx(amount)


@pytest.mark.parametrize(("text", "found"), [
    ("the 3rd step", [("number", 3.0)]), ("the twenty-first item", [("number", 21.0)]),
    ("the first step", [("number", 1.0)]), ("the fifth floor", [("number", 5.0)]),
    ("First, read the file", []), ("wait a second", [("duration", 1.0)]),  # not positions: no "the" before them
    ("on December 3rd at 9", [("date", "December 3rd"), ("time", "09:00")]),  # a date keeps its day
    ("north and month", []),
])
def test_an_ordinal_is_a_position_read_as_a_number(text, found):
    from agentkit.offline import spans
    assert [(span.kind, span.value) for span in spans.find(text)] == found


RENEW = _offer("renew_permit", "Renew a parking permit.", {
    "area": {"type": "string"}, "start": {"type": "string", "format": "date"}, "note": {"type": "string"}}, ["area", "start"])


@pytest.mark.parametrize(("question", "days"), [
    ("renew my permit for area C starting tomorrow", 1), ("续一下C区的停车证，明天开始", 1),
    ("renew the area C permit from the day after tomorrow", 2), ("C区停车证续期，后天开始", 2)])
def test_a_date_whose_schema_format_is_date_is_written_yyyy_mm_dd(question, days):
    """JSON Schema's `"format": "date"` asks for RFC 3339's full-date, with no word of it in a description: a day said
    in words is worked out from today, in either language, as a real model writes it."""
    import datetime as dt

    [(name, arguments)] = _calls(question, RENEW)
    assert arguments["start"] == (dt.date.today() + dt.timedelta(days=days)).isoformat()


@pytest.mark.parametrize(("question", "about", "description"), [
    ("hire the sauna for 2 hours", "Book the sauna.", "Length of the booking (30 minutes minimum)"),
    ("预订桑拿，2个小时", "预订桑拿。", "使用时长（小时），最少 1 小时"),
])
def test_a_duration_is_given_in_the_unit_the_parameters_name_says_before_its_description(question, about, description):
    """`hours` asks for hours, though its description names minutes, or says "1 小时" (read as "60 minutes")."""
    sauna = _offer("book_sauna", about, {"hours": {"type": "integer", "description": description}}, ["hours"])
    assert _calls(question, sauna) == [("book_sauna", {"hours": 2})]


def _number(description=""):
    return {"type": "number", "description": description}


FILTER = _offer("rc_cutoff", "Cutoff frequency of an RC low-pass filter.", {
    "resistance": _number("Resistance in ohms."), "capacitance": _number("Capacitance, in farads.")},
    ["resistance", "capacitance"])
COIL = _offer("coil_energy", "Energy stored in a coil.", {
    "inductance": _number("The inductance in henries."), "current": _number("The current in amperes.")},
    ["inductance", "current"])
TUNER = _offer("tune_string", "Tune a guitar string to a pitch.", {
    "pitch": {"type": "integer", "description": "Target pitch in Hz."}, "string": {"type": "integer"}}, ["pitch"])
ROLL = _offer("cart_speed", "Speed of a cart from rest.", {
    "acceleration": _number("Acceleration of the cart."), "distance": _number("How far it rolled, in metres.")},
    ["acceleration", "distance"])
CHARGES = _offer("coulomb_force", "Force between two point charges.", {
    "q1": _number("First charge in coulombs."), "q2": _number("Second charge in coulombs."),
    "gap": _number("Separation in metres.")}, ["q1", "q2", "gap"])
MOLES = _offer("count_moles", "Moles from a count of particles.", {"particles": _number("How many particles.")},
               ["particles"])
PLANK = _offer("plank_stress", "Stress on a plank.", {
    "length_m": _number(), "width_cm": _number(), "load_kg": _number()}, ["length_m", "width_cm", "load_kg"])


@pytest.mark.parametrize(("question", "offer", "expected"), [
    # a number glued to a unit with an SI prefix, in the unit the description asks for
    ("cutoff of a filter with a 2200 ohm resistor and a 47nF capacitor", FILTER,
     {"resistance": 2200, "capacitance": 4.7e-08}),
    ("how much energy is in a coil of 20mH carrying 3 amperes", COIL, {"inductance": 0.02, "current": 3}),
    ("cutoff of an RC filter with a 330µF capacitor and 1000 ohms", FILTER, {"resistance": 1000, "capacitance": 0.00033}),
    ("tune the second string to 247Hz", TUNER, {"pitch": 247, "string": 2}),
    # an exponent belongs to its unit ("m/s^2"), it is no number of its own
    ("a cart accelerating at 3 m/s^2 rolls 12 metres", ROLL, {"acceleration": 3, "distance": 12}),
    ("a cart pushed at 1.5 m/s² that rolled 8m", ROLL, {"acceleration": 1.5, "distance": 8}),
    # scientific notation is one number
    ("force between 3e-6 and 5.5e-6 coulombs held 0.2 m apart", CHARGES, {"q1": 3e-06, "q2": 5.5e-06, "gap": 0.2}),
    ("how many moles are 1.2 x 10^24 particles", MOLES, {"particles": 1.2e24}),
    ("how many moles are 3×10⁸ particles", MOLES, {"particles": 3e8}),
    # glued metres, centimetres and kilos
    ("stress on a 2.4m plank, 15cm wide, holding 80kg", PLANK, {"length_m": 2.4, "width_cm": 15, "load_kg": 80}),
])
def test_numbers_as_written_in_technical_requests(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


def test_five_m_after_a_currency_sign_is_millions_not_metres():
    assert english("raise $5m by May") == "raise $5m by May"


def _pollen(description):
    return _offer("pollen_level", "Pollen level in a city on a day.", {
        "city": {"type": "string", "description": "The city."}, "day": {"type": "string", "description": description}},
        ["city", "day"])


@pytest.mark.parametrize(("question", "description", "day"), [
    # a day written with its year, in the format the description shows, else YYYY-MM-DD
    ("pollen level in Leeds on March 4, 2021", "The day, format MM-DD-YYYY.", "03-04-2021"),
    ("what was the pollen level in Leeds 2021/05/03?", "The day (month-day-year).", "05-03-2021"),
    ("pollen in Leeds on Sept.9, 2020", "The day, e.g. 2024-01-31.", "2020-09-09"),
    ("pollen count for Leeds, 7th Jun 2019", "Which day.", "2019-06-07"),
    ("pollen count for Leeds, 7th Jun 2019", "Which day, dd/mm/yyyy.", "07/06/2019"),
    ("pollen count for Leeds tomorrow", "Which day.", "tomorrow"),  # no year and no format: as written
])
def test_a_day_is_given_in_the_format_its_description_shows(question, description, day):
    assert _calls(question, _pollen(description)) == [("pollen_level", {"city": "Leeds", "day": day})]


def _growth(rate_description, rate="rate"):
    return _offer("project_savings", "Project what savings grow to.", {
        "deposit": {"type": "integer", "description": "The sum put in."},
        rate: _number(rate_description), "years": {"type": "integer", "description": "How many years."}},
        ["deposit", rate, "years"])


def _growth_at_most_one():
    offer = _growth("How fast it grows each year.")
    offer.schema["properties"]["rate"]["maximum"] = 1
    return offer


RESULT = _offer("trade_return", "Return on a trade.", {
    "stake": _number("What was put in."), "outcome": _number("The gain or loss on it (a loss is negative).")},
    ["stake", "outcome"])


@pytest.mark.parametrize(("question", "offer", "expected"), [
    # a percentage in the form the description asks for: a decimal, or the percent as written
    ("project $1500 saved at 4.5% for 6 years", _growth("Yearly rate as a decimal."),
     {"deposit": 1500, "rate": 0.045, "years": 6}),
    ("project $1500 saved at 4% for 6 years", _growth("Yearly rate, e.g. 0.03."), {"deposit": 1500, "rate": 0.04, "years": 6}),
    ("project $1500 saved at 4% for 6 years", _growth("Yearly rate in percent."), {"deposit": 1500, "rate": 4, "years": 6}),
    # a rate whose description names no scale is a fraction, as a real model gives it; and so is one at most 1
    ("project $1500 saved at 4% for 6 years", _growth("The yearly rate it earns."), {"deposit": 1500, "rate": 0.04, "years": 6}),
    ("project $1500 saved at 2.5% for 6 years", _growth("The yearly yield of the account."),
     {"deposit": 1500, "rate": 0.025, "years": 6}),
    ("project $1500 saved at 4% for 6 years", _growth("The yearly rate as a percentage."),
     {"deposit": 1500, "rate": 4, "years": 6}),
    ("project $1500 saved at 3% for 6 years", _growth_at_most_one(), {"deposit": 1500, "rate": 0.03, "years": 6}),
    # a percentage goes to a return or a yield, not to the years said just before those words
    ("what will $1500 grow to in 6 years with an expected return of 4%?", _growth("The return expected each year.", "gain"),
     {"deposit": 1500, "gain": 0.04, "years": 6}),
    # a loss is a negative outcome where the parameter takes a gain or a loss
    ("return on a trade where I put in $800 and took a loss of $120", RESULT, {"stake": 800, "outcome": -120}),
    ("return on a trade where I put in $800 and made a gain of $120", RESULT, {"stake": 800, "outcome": 120}),
    ("return on a trade where I put in $800, outcome -$75", RESULT, {"stake": 800, "outcome": -75}),
])
def test_percentages_and_losses_in_the_form_the_parameter_asks_for(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


SPLIT = _offer("growth_rate", "Yearly growth rate between two values.", {
    "start_value": {"type": "integer", "description": "The value at the start."},
    "end_value": {"type": "integer", "description": "The value at the end."},
    "years": {"type": "integer", "description": "How many years passed."}}, ["start_value", "end_value", "years"])


@pytest.mark.parametrize(("question", "expected"), [
    # a comma after a sum ends it: the words after it speak of the next value
    ("growth rate from a start value of $1500, end value of $2400 over 6 years",
     {"start_value": 1500, "end_value": 2400, "years": 6}),
    ("growth rate with a start value of 1,500, an end value of 2,400, over 6 years",
     {"start_value": 1500, "end_value": 2400, "years": 6}),
])
def test_a_comma_after_a_number_ends_what_speaks_of_it(question, expected):
    assert _calls(question, SPLIT) == [("growth_rate", expected)]


@pytest.mark.parametrize(("text", "numbers"), [("$2,000, then 3", [2000.0, 3.0]), ("for 1,5 and 10 years", [1.0, 5.0, 10.0]),
                                               ("48,200 km", [48200.0]), ("-$100 and $40", [-100.0, 40.0])])
def test_a_thousands_comma_has_three_digits_after_it(text, numbers):
    from agentkit.offline import spans
    assert [s.value for s in spans.find(text) if s.kind == "number"] == numbers


def _numbers(**described):
    return {name: {"type": "number", "description": text} for name, text in described.items()}


BOX = _offer("crate_volume", "Volume of a crate.", _numbers(
    length="The length of the crate, its longest side", width="How wide the crate is, shorter than its length",
    depth="The depth, measured from the width edge"), ["length", "width", "depth"])
LCM = _offer("least_multiple", "Least common multiple.", {
    "number1": {"type": "integer", "description": "The first number"},
    "number2": {"type": "integer", "description": "The second number"}}, ["number1", "number2"])
SIDES = _offer("triangle_facts", "Facts about a triangle.", {
    f"side{i}": {"type": "number", "description": f"Length of side {i}"} for i in (1, 2, 3)}, ["side1", "side2", "side3"])
BMI = _offer("body_mass_index", "Body mass index from weight and height.", _numbers(
    weight="Weight in kilograms", height="Height in centimetres"), ["weight", "height"])


@pytest.mark.parametrize(("offer", "question", "expected"), [
    (BOX, "what's the volume of a crate with length 9, width 4 and depth 2?", {"length": 9, "width": 4, "depth": 2}),
    (BOX, "a crate of depth 3, width 5 and length 12", {"length": 12, "width": 5, "depth": 3}),
    (LCM, "Find the least common multiple of the two numbers 8 and 14.", {"number1": 8, "number2": 14}),
    (SIDES, "my triangle's three sides measure 7, 5 and 6 cm", {"side1": 7, "side2": 5, "side3": 6}),
    (BMI, "Work out the Body Mass Index (BMI) of someone with a weight of 85 kilograms and a height of 180 cm.",
     {"weight": 85, "height": 180}),
])
def test_each_number_goes_to_the_parameter_its_words_name(offer, question, expected):
    """A description's word that is another parameter's name ("shorter than its length") points at that one, and a
    word after a comma is no label of the number before it ("depth 3, width 5"); how many values a numbered family takes
    ("the two numbers 8 and 14") is none of them; "the Body Mass Index" is a name, no message's body."""
    values, missing = fill(offer.schema, question)
    assert (values, missing) == (expected, [])


STANDING = _offer("club_standing", "Where a club stands in its league table.", {
    "club": {"type": "string", "description": "The club's name"},
    "league": {"type": "string", "description": "The league it plays in"}}, ["club", "league"])


@pytest.mark.parametrize(("question", "club"), [
    ("How are the Denver Nuggets doing in the Western Conference?", "Denver Nuggets"),
    ("where is Leeds United in the Championship table", "Leeds United"),
])
def test_a_place_followed_by_capitalised_words_is_part_of_a_longer_name(question, club):
    """ "Denver Nuggets", "Leeds United": a city that more capitalised words follow starts a name, it is no place."""
    assert fill(STANDING.schema, question)[0]["club"] == club


PACE = _offer("average_speed", "Average speed of a trip.", {
    "distance": {"type": "number", "description": "Distance travelled, in kilometres"},
    "hours": {"type": "number", "description": "Time taken in hours"},
    "unit": {"type": "string", "description": "Unit of the speed to return, e.g. km/h or mph. Optional."}}, ["distance", "hours"])


@pytest.mark.parametrize(("question", "expected"), [
    ("how fast did I go if I cycled 42 kilometers in 2 hours?", {"distance": 42, "hours": 2}),
    ("average speed for 42 kilometers in 2 hours, in mph please", {"distance": 42, "hours": 2, "unit": "mph"}),
])
def test_an_optional_unit_is_not_the_unit_a_number_was_written_with(question, expected):
    """ "42 kilometers" is the distance in the unit its parameter takes: the unit of the answer stays out unless it is
    asked ("3 kilos of rice" for an amount with no unit of its own gives its unit)."""
    assert fill(PACE.schema, question) == (expected, [])


def _dial(hour_description):
    return _offer("hands_angle", "Angle between the hands of a watch.", {
        "hours": {"type": "integer", "description": hour_description},
        "minutes": {"type": "integer", "description": "The minute shown."}}, ["hours", "minutes"])


@pytest.mark.parametrize(("question", "offer", "expected"), [
    # a clock time for integer hours and minutes: the hour as written, or on 24 hours where the description says so
    ("what angle do the hands of my watch make at 4:20 pm?", _dial("The hour shown on the dial."), {"hours": 4, "minutes": 20}),
    ("what angle do the hands of my watch make at 4:20 pm?", _dial("Hour of the day, 0-23 (24 hours)."),
     {"hours": 16, "minutes": 20}),
    ("angle between the watch hands at 11:05", _dial("The hour shown on the dial."), {"hours": 11, "minutes": 5}),
])
def test_a_clock_time_gives_integer_hours_and_minutes(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


COULOMB = _offer("coulomb_force", "Force between two point charges.", _numbers(
    charge_a="The first charge, in coulombs.", charge_b="The second charge, in coulombs.",
    distance="How far apart the charges are, in metres."), ["charge_a", "charge_b", "distance"])
GAS = _offer("gas_density", "Density of a gas.", {
    "temperature": {"type": "integer", "description": "The temperature of the gas in kelvin."},
    "pressure": _number("The pressure in pascals.")}, ["temperature", "pressure"])


@pytest.mark.parametrize(("question", "offer", "expected"), [
    # a fraction with two decimals below 1 is no sum of money ("for 2.30" is): it goes to the parameter its word names
    ("force between charges of 3e-6 and 4e-6 with distance 0.25", COULOMB,
     {"charge_a": 3e-06, "charge_b": 4e-06, "distance": 0.25}),
    # a capital K against a number is kelvin: "310K" is 310 for a temperature
    ("density of a gas at 310K and 101325 pascals", GAS, {"temperature": 310, "pressure": 101325}),
    # a scale word after digits multiplies them: "40 million" is 40000000
    ("dividend per share with 40 million shares and 12 million paid out", _offer(
        "dividend_per_share", "Dividend per share.", {"paid_out": _number("The total paid out."),
                                                      "shares": {"type": "integer", "description": "Shares issued."}},
        ["paid_out", "shares"]), {"paid_out": 12000000, "shares": 40000000}),
])
def test_small_fractions_kelvin_and_millions_as_written(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


SLOPE = _offer("slope_at", "Slope of a curve at a point.", {
    "function": {"type": "string", "description": "The curve, in terms of its variable."},
    "variable": {"type": "string", "description": "The variable of the function, e.g. x."},
    "at": _number("Where to take the slope.")}, ["function", "at"])


@pytest.mark.parametrize(("question", "offer", "expected"), [
    # a formula with a power goes whole, as Python writes it, to the parameter named for it; its numbers are no values
    ("what is the slope of 4t^3 - t + 2 at t = 5", SLOPE, {"function": "4t**3 - t + 2", "at": 5}),
    ("slope of the function y**2 + 7 at 0.5 please", SLOPE, {"function": "y**2 + 7", "at": 0.5}),
])
def test_a_formula_is_a_value_as_python_writes_it(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


KEPT = _offer("deposit_growth", "What a deposit grows to.", {
    "present_value": {"type": "integer", "description": "What is put in now."},
    "years": {"type": "integer", "description": "The time in years for which the deposit is made."}}, ["present_value", "years"])


def test_a_sum_of_money_is_no_count_of_years():
    # "$4000 deposit made": the words after the sum are the years' description's, yet a sum is never a length of time
    assert _calls("what does a $4000 deposit made today grow to in 8 years", KEPT) == [
        ("deposit_growth", {"present_value": 4000, "years": 8})]


SAMPLES = {"type": "array", "items": {"type": "number"}}
TRIAL = _offer("compare_trials", "Compare two trials.", {
    "before": dict(SAMPLES, description="first trial"), "after": dict(SAMPLES, description="second trial")}, ["before", "after"])
SPREAD = _offer("spread_of", "How spread out some numbers are.", {"values": SAMPLES}, ["values"])


@pytest.mark.parametrize(("question", "offer", "expected"), [
    ("Compare my 2 trials: before [4, 7, 9] and after [5, 8, 12]", TRIAL, {"before": [4, 7, 9], "after": [5, 8, 12]}),
    ("Over 3 weeks I logged [31.5, 29.8, 30.2], how spread out is that?", SPREAD, {"values": [31.5, 29.8, 30.2]}),
])
def test_a_list_written_in_brackets_is_one_array_parameters_whole(question, offer, expected):
    assert fill(offer.schema, question)[0] == expected



FERRY = _offer("ferry_departures", "Live departure board for one sailing.", {
    "sailing": {"type": "string", "description": "Sailing code, e.g. SF204"}}, ["sailing"])
LOCKER = _offer("open_locker", "Open a parcel locker.", {
    "locker_code": {"type": "string", "description": "the code on the locker"}}, ["locker_code"])


@pytest.mark.parametrize(("question", "offer", "expected"), [
    ("has ferry sf 204 left yet", FERRY, {"sailing": "SF204"}),  # typed with a space, in lower case
    ("is the SF-88 sailing on time", FERRY, {"sailing": "SF88"}),  # with a hyphen, four characters in all
    ("open locker qd 5510 please", LOCKER, {"locker_code": "QD5510"}),
])
def test_an_identifier_typed_loosely_is_one_value(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


@pytest.mark.parametrize("question", ["at 5 pm", "go 2 blocks", "up 3 floors", "the pH 7 buffer", "we're 4 people"])
def test_a_word_before_a_number_is_no_identifier(question):
    from agentkit.offline.spans import find
    assert not [s for s in find(question) if s.kind == "code"]


@pytest.mark.parametrize(("name", "description", "role"), [
    ("recipient", "Contact name", "person"),  # a word of two roles: its description says which
    ("recipient", "Who gets the money, a friend's name", "person"),
    ("recipient", "Email address to send to", "email"),
    ("recipient", "", "email"),  # said nowhere: an email, as before
])
def test_a_name_word_of_two_roles_is_read_by_its_description(name, description, role):
    assert role_of(name, {"type": "string", "description": description})[0] == role


@pytest.mark.parametrize(("question", "amount", "code"), [("what's 40 quid in euros", 40, "GBP"),
                                                          ("how much is 500 rmb in yen", 500, "CNY")])
def test_a_currency_called_as_people_talk_is_its_code(question, amount, code):
    offer = _offer("worth_in", "What an amount is worth in another currency.", {
        "amount": {"type": "number"}, "source": {"type": "string", "description": "ISO 4217 code it is in"},
        "target": {"type": "string", "description": "ISO 4217 code to convert to"}}, ["amount", "source", "target"])
    assert _calls(question, offer)[0][1] == {"amount": amount, "source": code, "target": "EUR" if "euros" in question else "JPY"}


FORWARD = _offer("message_colleague", "Send a text message to a colleague.", {
    "colleague": {"type": "string", "description": "The person it goes to"},
    "note": {"type": "string", "description": "The text"}}, ["colleague", "note"])


@pytest.mark.parametrize(("question", "expected"), [
    ("message ravi that the build is red", {"colleague": "Ravi", "note": "the build is red"}),  # lower case, after the verb
    ("text jo saying lunch is on me", {"colleague": "Jo", "note": "lunch is on me"}),
    ("message Ravi Shah that the build is red", {"colleague": "Ravi Shah", "note": "the build is red"}),  # in capitals
])
def test_who_a_message_is_for_is_the_word_after_its_verb(question, expected):
    assert _calls(question, FORWARD) == [("message_colleague", expected)]


RETURNS = _offer("collect_return", "Have a courier collect a parcel you are sending back.", {
    "pickup_address": {"type": "string", "description": "Where the courier collects it"},
    "parcel": {"type": "string", "description": "What goes back"}}, ["pickup_address", "parcel"])
SHIP = _offer("ship_gift", "Ship a gift.", {"to_name": {"type": "string", "description": "Who gets it"},
                                            "street_address": {"type": "string"}}, ["to_name", "street_address"])
FIX = _offer("book_plumber", "预约水管工上门。", {"address": {"type": "string", "description": "上门地址"},
                                          "issue": {"type": "string", "description": "哪里坏了"}}, ["address", "issue"])


@pytest.mark.parametrize("question, offer, expected", [
    # a street address is one value: its number, its street in any case, and the town and postcode after a comma
    ("collect the broken blender from 9 Larch Crescent, Bristol BS8 2QT", RETURNS,
     {"pickup_address": "9 Larch Crescent, Bristol BS8 2QT", "parcel": "broken blender"}),
    ("pick up my faulty kettle at 31 harbour road tomorrow", RETURNS,  # a place written in lower case is capitalised
     {"pickup_address": "31 Harbour Road", "parcel": "faulty kettle"}),
    ("ship a scarf to Ines, 4 Via Garibaldi, Torino", SHIP, {"to_name": "Ines", "street_address": "4 Via Garibaldi, Torino"}),
    ("浦东新区世纪大道100号，厨房水管漏水，派个人来修", FIX, {"address": "浦东新区世纪大道100号", "issue": "厨房水管漏水"}),
])
def test_a_street_address_is_one_place(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


@pytest.mark.parametrize("text", ["book 2 tennis court slots", "4 nights either way", "buy 3 blue place mats",
                                  "2 people on the street"])
def test_a_number_before_words_is_no_address(text):
    assert not [s for s in find(text) if s.kind == "proper" and re.match(r"\d", str(s.value))]
    assert not ADDRESS.search(text)


@pytest.mark.parametrize("text", ["帮我查查幸福路的店", "滨江花园的店几点开"])
def test_a_chinese_street_without_its_number_is_no_address(text):
    assert '"' not in english(text)  # an address is kept aside as written, in quotes; these are read word by word


@pytest.mark.parametrize(("text", "street"), [("解放路上有个大坑洼", "解放路"), ("和平街那面墙被人涂鸦了", "和平街"),
                                            ("到中山北路那边接我", "中山北路"), ("走了很多路。", None), ("在马路边等我", None),
                                            ("这条路上有坑", None)])
def test_a_chinese_street_named_alone_where_a_clause_starts_is_kept_as_written(text, street):
    """ "解放路上": a street named alone (two or three characters and its kind, before 上/边/那/的 or the clause's end) is
    a place as written, not 解 + "play" + 路; a road in general ("马路", "这条路", "很多路") is no street."""
    assert (f'"{street}"' in english(text)) if street else '"' not in english(text)


@pytest.mark.parametrize("text, address", [("drop it at 17 Orchard Way tomorrow", "17 Orchard Way"),
                                           ("pick up from 3 Kings Court, Bath", "3 Kings Court, Bath")])
def test_a_street_whose_kind_is_also_a_word_is_one_with_capitals(text, address):
    assert ADDRESS.search(text)[0] == address


@pytest.mark.parametrize("question, address", [("翠湖小区5号楼2单元301，水管漏水了，找人来修", "翠湖小区5号楼2单元301"),
                                               ("阳光花园三栋一单元，厨房水管堵了，约个水管工", "阳光花园三栋一单元")])
def test_a_chinese_estate_and_its_building_is_one_address(question, address):
    assert _calls(question, FIX)[0][1]["address"] == address


FAMILY = {"type": "object", "required": ["adults"], "properties": {
    "adults": {"type": "integer", "description": "Number of adults"},
    "children": {"type": "integer", "description": "Number of children"}}}
LIFT_SEATS = {"type": "object", "required": ["origin"], "properties": {
    "origin": {"type": "string"}, "seats": {"type": "integer", "description": "Free seats"}}}


@pytest.mark.parametrize(("schema", "question", "expected"), [
    (FAMILY, "tickets for 2 adults and 3 kids", {"adults": 2, "children": 3}),  # kids are children
    (LIFT_SEATS, "I can take 3 people from Leeds", {"origin": "Leeds", "seats": 3}),  # people fill seats
    (LIFT_SEATS, "from Leeds with space for 2 passengers", {"origin": "Leeds", "seats": 2}),
])
def test_a_count_of_people_goes_to_the_parameter_that_counts_them(schema, question, expected):
    assert fill(schema, question)[0] == expected


METER = {"type": "object", "required": ["reading_m3"], "properties": {
    "meter_id": {"type": "string", "description": "Meter serial number"},
    "reading_m3": {"type": "number", "description": "The reading in m3"}}}


@pytest.mark.parametrize(("question", "reading"), [
    ("submit my water meter reading: 1234.5", 1234.5),  # "reading" before a number is the thing read, not "saying"
    ("the reading is 1234", 1234),
    ("reading of 456 for meter WM-2231", 456),
    ("my water meter shows 845.2m³", 845.2),  # a power written after its unit
])
def test_a_reading_is_a_number_not_a_text_that_reads(question, reading):
    assert fill(METER, english(question))[0]["reading_m3"] == reading


def test_a_sign_reading_a_text_still_reads_it():
    sign = {"type": "object", "required": ["text"], "properties": {"text": {"type": "string", "description": "What it says"}}}
    assert fill(sign, "make a sign reading Closed for lunch")[0] == {"text": "Closed for lunch"}


@pytest.mark.parametrize("question", ["alarm at 7 tomorrow labelled gym", "set an alarm for 7am labeled gym"])
def test_a_name_given_by_labelled_is_the_label(question):
    alarm = {"type": "object", "required": ["time"], "properties": {"time": {"type": "string", "description": "HH:MM"},
                                                                     "label": {"type": "string"}}}
    assert fill(alarm, question)[0] == {"time": "07:00", "label": "gym"}


@pytest.mark.parametrize(("said", "medicine", "store"), [
    ("have my eczema cream ready at 4:15pm in Esher", "eczema cream", "Esher"),
    ("I need my inhaler ready to collect at Boots in Tolworth", "inhaler", "Boots"),
])
def test_a_name_after_in_or_at_is_the_places_when_the_tool_has_one_not_a_titles(said, medicine, store):
    offer = _offer("collect_prescription", "Have a repeat prescription ready to collect.", {
        "medicine": {"type": "string", "description": "Medicine name"},
        "store": {"type": "string", "description": "Store or town, e.g. 'Kingston'"}}, ["medicine", "store"])
    assert [call.arguments for call in plan(said, [offer])] == [{"medicine": medicine, "store": store}]


@pytest.mark.parametrize(("question", "month"), [("My bag never showed up, I landed on the 10th on BA117", -1),
                                                ("Vegan meal on BA117 on the 10th please", 0)])
def test_a_day_of_the_month_after_a_verb_of_a_past_trip_is_the_last_one(question, month):
    import datetime as dt

    day = {"type": "string", "format": "date"}
    values, _ = fill({"type": "object", "properties": {"flight": {"type": "string"}, "flight_date": day}}, question)
    today, last = dt.date.today(), dt.date.fromisoformat(values["flight_date"])
    assert last.day == 10 and (last <= today if month < 0 else last >= today)


_CLOCK = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"}
STUDIO = {"type": "object", "required": ["date", "start_time", "hours", "people"], "properties": {
    "date": {"type": "string", "format": "date"}, "start_time": _CLOCK,
    "hours": {"type": "integer", "enum": [1, 2, 3, 4], "description": "录几个小时"},
    "people": {"type": "integer", "minimum": 1, "description": "人数"}}}
ROOM = {"type": "object", "required": ["date", "start_time", "hours"], "properties": {
    "date": {"type": "string", "format": "date"}, "start_time": _CLOCK,
    "hours": {"type": "integer", "minimum": 1, "maximum": 4, "description": "How many hours the room is needed."}}}


@pytest.mark.parametrize(("schema", "question", "hours", "start"), [
    (STUDIO, "后天上午十点订录音棚，录两个小时，三个人", 2, "10:00"),  # an integer enum takes a length said, not the count 3
    (STUDIO, "明天晚上8点到11点订录音棚，3个人", 3, "20:00"),  # 8点到11点: the same evening
    (ROOM, "Hire a rehearsal room tomorrow at 10am for two hours", 2, "10:00"),  # no clock's hour: "How many hours"
    (ROOM, "rehearsal room on Friday, 7pm-10pm", 3, "19:00"),
    (ROOM, "the rehearsal room on Friday at 7pm, and keep it until 10pm", None, "19:00"),  # a comma ends a range
    (ROOM, "rehearsal room on Friday at 7pm and keep it until 10pm", 3, "19:00"),
])
def test_a_length_of_time_is_said_or_spanned_by_two_clock_times_never_read_off_the_clock(schema, question, hours, start):
    arguments, _ = fill(schema, english(question))
    assert (arguments.get("hours"), arguments["start_time"]) == (hours, start)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", str(arguments["date"]))  # a chosen option "2" cuts no "2" off "2027-03-12"


@pytest.mark.parametrize(("question", "flags"), [
    ("后天约个陶艺课，我是学生", {"student": True}), ("后天约个陶艺课，我不是学生", {"student": False}),
    ("后天约个陶艺课，作品不用烧制", {"kiln_firing": False}), ("后天约个陶艺课，要烧制", {"kiln_firing": True}),
])
def test_a_chinese_flag_is_said_by_its_thing_without_the_aside_in_brackets_or_by_its_first_word(question, flags):
    schema = {"type": "object", "required": ["date"], "properties": {"date": {"type": "string", "format": "date"},
              "student": {"type": "boolean", "description": "是否学生（凭学生证打八折）。"},
              "kiln_firing": {"type": "boolean", "description": "是否需要烧制作品。"}}}
    call = plan(question, [Offer("book_pottery_class", "预约陶艺课。", schema)])[0]
    assert {n: v for n, v in call.arguments.items() if n != "date"} == flags


@pytest.mark.parametrize(("question", "postcode"), [
    ("Hire a marquee for Saturday, postcode BS6 5QR", "BS6 5QR"), ("a marquee on Saturday, postcode LS6 2QT please", "LS6 2QT"),
    ("a marquee for Saturday, postcode KT19 8XP, a large one", "KT19 8XP"),
])
def test_a_code_in_two_parts_after_its_label_is_one_value(question, postcode):
    schema = {"type": "object", "required": ["date", "postcode"], "properties": {
        "date": {"type": "string", "format": "date"}, "postcode": {"type": "string", "description": "Where to put it up."}}}
    assert fill(schema, english(question))[0]["postcode"] == postcode  # not "BS6" alone


@pytest.mark.parametrize(("question", "days"), [
    ("Book the sauna for 2 on the 15th and the 22nd of March 2027, 9am each", ["2027-03-15", "2027-03-22"]),
    ("Book the sauna for 2 on Monday 15th and Monday 22nd March 2027 at 9am", ["2027-03-15", "2027-03-22"]),
    ("Book the sauna for 2 on Friday 14th May 2027 at 9am", ["2027-05-14"]),  # the weekday is no day of its own
])
def test_days_of_a_month_listed_are_a_call_each_with_the_month_said_after_the_last(question, days):
    schema = {"type": "object", "required": ["date", "start_time", "people"], "properties": {
        "date": {"type": "string", "format": "date"}, "start_time": _CLOCK, "people": {"type": "integer"}}}
    calls = plan(question, [Offer("book_sauna", "Book a sauna session", schema)])
    assert [c.arguments["date"] for c in calls] == days and all(c.arguments["start_time"] == "09:00" for c in calls)


def test_the_person_is_the_name_by_marks_and_a_format_in_capitals_is_no_part_of_a_name():
    schema = {"type": "object", "required": ["artist"], "properties": {
        "artist": {"type": "string", "description": "Artist or band name."},
        "title": {"type": "string", "description": "Album title."}}}
    arguments, _ = fill(schema, english("Any copies of Hounds of Love by Kate Bush on LP?"))
    assert (arguments["artist"], arguments.get("title")) == ("Kate Bush", "Hounds of Love")
    assert [str(s.value) for s in find("from Newcastle upon Tyne") if s.kind == "proper"] == ["Newcastle upon Tyne"]
