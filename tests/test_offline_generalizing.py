"""The offline model on tools the course never uses: each row is a class of case a small model gets right."""

from __future__ import annotations

import pytest

from agentkit.offline.choose import Offer, plan
from agentkit.offline.model import plain_answer


def _offer(name, description, properties, required=()):
    return Offer(name, description, {"type": "object", "properties": properties, "required": list(required)})


UNITS = ["liters", "milliliters", "gallons", "cups", "fluid_ounces"]
VOLUME = _offer("convert_volume", "Convert a volume between units.", {
    "amount": {"type": "number"}, "from_unit": {"type": "string", "enum": UNITS},
    "to_unit": {"type": "string", "enum": UNITS}}, ["amount", "from_unit", "to_unit"])
DICE = _offer("roll_dice", "Roll one or more dice.", {
    "sides": {"type": "integer", "description": "Number of sides on each die."},
    "count": {"type": "integer", "description": "How many dice to roll.", "minimum": 1, "maximum": 10}})
COIN = _offer("get_crypto_price", "Get the current price of a cryptocurrency.", {
    "coin": {"type": "string", "enum": ["bitcoin", "ethereum", "solana"]}}, ["coin"])
SLACK = _offer("send_slack_message", "Post a message to a Slack channel.", {
    "channel": {"type": "string", "description": "Channel name."}, "text": {"type": "string"}}, ["channel", "text"])
TODO = _offer("add_todo_item", "Add a task to the user's to-do list.", {"task": {"type": "string"}}, ["task"])
DEFINE = _offer("lookup_word_definition", "Look up the dictionary definition of a word.", {"word": {"type": "string"}}, ["word"])
SYNONYMS = _offer("find_synonyms", "Find synonyms of an English word.", {"word": {"type": "string"}}, ["word"])
THERMOSTAT = _offer("set_thermostat", "Set the temperature of the home thermostat.",
                    {"temperature": {"type": "number"}}, ["temperature"])
TRAINS = _offer("get_train_times", "Find train departures between two stations.", {
    "from_station": {"type": "string"}, "to_station": {"type": "string"}}, ["from_station", "to_station"])


def _calls(question, *offers):
    return [(p.offer.name, p.arguments) for p in plan(question, list(offers)) if not p.missing]


@pytest.mark.parametrize(("question", "offer", "expected"), [
    ("heat the house to twenty two degrees", THERMOSTAT, {"temperature": 22}),  # a compound number in words
    ("roll 3 twelve-sided dice", DICE, {"sides": 12, "count": 3}),  # "sided" is "side"; 12 is over count's maximum
    ("convert three gallons to litres", VOLUME, {"amount": 3, "from_unit": "gallons", "to_unit": "liters"}),
    ("500 ml in fluid ounces", VOLUME, {"amount": 500, "from_unit": "milliliters", "to_unit": "fluid_ounces"}),
    ("Post 'deploy finished' in #releases", SLACK, {"channel": "releases", "text": "deploy finished"}),
    ("Put buy milk on my todo list", TODO, {"task": "buy milk"}),  # not the verb, not the tool's own words
    ("Define serendipity", DEFINE, {"word": "serendipity"}),
    ("When are the trains from Leeds to York?", TRAINS, {"from_station": "Leeds", "to_station": "York"}),
])
def test_arguments_are_read_from_the_question(question, offer, expected):
    assert _calls(question, offer) == [(offer.name, expected)]


def test_a_required_option_nobody_named_is_asked_for_not_guessed():
    (planned,) = plan("What's the price of the coin?", [COIN])  # "of gold" names another thing: no call (choose_fit)
    assert planned.missing == ("coin",)


@pytest.mark.parametrize(("question", "offers", "expected"), [
    ("Prices of bitcoin and ethereum?", [COIN], [("get_crypto_price", {"coin": "bitcoin"}),
                                                  ("get_crypto_price", {"coin": "ethereum"})]),
    ("Synonyms for fast, and for slow", [SYNONYMS], [("find_synonyms", {"word": "fast"}), ("find_synonyms", {"word": "slow"})]),
    ("Check the bitcoin price and post it to #crypto saying 'done'", [COIN, SLACK],
     [("get_crypto_price", {"coin": "bitcoin"}), ("send_slack_message", {"channel": "crypto", "text": "done"})]),
    ("Define 'laconic' and give me synonyms for it", [DEFINE, SYNONYMS],
     [("lookup_word_definition", {"word": "laconic"}), ("find_synonyms", {"word": "laconic"})]),
    ("Roll a die and add 'buy dice' to my to-do list", [DICE, TODO],
     [("roll_dice", {}), ("add_todo_item", {"task": "buy dice"})]),
])
def test_several_calls(question, offers, expected):
    assert _calls(question, *offers) == expected


@pytest.mark.parametrize("greeting", ["Hello!", "hi there", "Hey.", "Say hello.", "please say hi"])
def test_a_greeting_is_answered_with_one(greeting):
    assert plain_answer(greeting).startswith("Hello")


@pytest.mark.parametrize("mention", ["Translate hello into Spanish", "What does hello mean in French?",
                                     "How do I say hi in Japanese?"])
def test_a_greeting_word_in_another_request_is_not_a_greeting(mention):
    assert not plain_answer(mention).startswith("Hello")


ROUND = _offer("round_number", "Round a decimal number to the nearest integer.", {"x": {"type": "number"}}, ["x"])
TOWING = _offer("book_tow_truck", "Book a tow truck for a car that broke down.", {"address": {"type": "string"}}, ["address"])
CORN = _offer("corn_price", "Get the market price of corn.", {"market": {"type": "string"}})
CARE = _offer("find_care_home", "Find a care home for an elderly relative.", {"city": {"type": "string"}}, ["city"])


@pytest.mark.parametrize(("question", "offer"), [
    ("What's the integral of 2x from 0 to 3?", ROUND),  # "integer" is not "integ", the start of "integral"
    ("How tall is the tallest tower in Europe?", TOWING),  # "tower" is no "tow"
    ("Where is the nearest corner shop?", CORN),  # nor "corner" "corn"
    ("Which career suits a shy person?", CARE),  # nor "career" "care"
])
def test_a_noun_whose_er_is_its_own_does_not_meet_its_stems_other_words(question, offer):
    assert plan(question, [offer]) == []


MONEY = _offer("exchange_money", "Exchange an amount of money into another currency.", {
    "amount": {"type": "number"}, "from_currency": {"type": "string", "description": "ISO 4217 code"},
    "to_currency": {"type": "string", "description": "ISO 4217 code"}}, ["amount", "from_currency", "to_currency"])


@pytest.mark.parametrize("question", ["How many centimeters are in 12 inches?", "what is 3 miles in km"])
def test_a_measures_units_are_no_values_for_a_tool_that_takes_currencies(question):
    assert plan(question, [MONEY]) == []


def test_currencies_still_are():
    assert _calls("30 euros in yen?", MONEY) == [("exchange_money", {"amount": 30, "from_currency": "EUR", "to_currency": "JPY"})]


RULERS = _offer("list_monarchs", "List the monarchs of a country in a century.", {
    "country": {"type": "string"}, "century": {"type": "integer"}}, ["country", "century"])
EVENTS = _offer("list_events", "List the major events of a country in a century.", {
    "country": {"type": "string"}, "century": {"type": "integer"}}, ["country", "century"])
DOCTOR = _offer("find_doctor", "Find a doctor by specialty and city.", {
    "city": {"type": "string"}, "specialty": {"type": "string"}}, ["city"])
LAWYER = _offer("find_lawyer", "Find a lawyer by specialty and city.", {
    "city": {"type": "string"}, "specialty": {"type": "string"}}, ["city"])


@pytest.mark.parametrize(("question", "offers", "called"), [
    ("Which queens ruled Spain in the 16th century?", [EVENTS, RULERS], "list_monarchs"),  # a ruler by title
    ("Who was emperor of Russia in the 19th century?", [EVENTS, RULERS], "list_monarchs"),
    ("I need an attorney in Boston", [DOCTOR, LAWYER], "find_lawyer"),  # a lawyer by another name
    ("Find a solicitor in Leeds", [DOCTOR, LAWYER], "find_lawyer"),
])
def test_a_role_by_another_name_picks_the_tool_named_for_it(question, offers, called):
    assert [p.offer.name for p in plan(question, offers)] == [called]


HEIGHT = _offer("calculate_max_height", "Calculate the maximum height a ball reaches when thrown straight up at a given speed.",
                {"initial_speed": {"type": "number", "description": "Speed in m/s."}}, ["initial_speed"])


def test_a_question_for_a_thing_the_tool_does_not_compute_is_no_call_for_it():
    assert plan("What is the air resistance on a ball thrown straight up?", [HEIGHT]) == []  # the words of its description


@pytest.mark.parametrize("question", ["What is the maximum height of a ball thrown straight up at 12 m/s?",
                                      "How high does a ball go if thrown straight up at 12 m/s?"])
def test_the_thing_it_computes_or_the_value_it_needs_still_calls_it(question):
    assert _calls(question, HEIGHT) == [("calculate_max_height", {"initial_speed": 12})]


FLOOR = _offer("calculate_floor_area", "Calculate the floor area of a room given its length and width.", {
    "length": {"type": "number", "description": "Length in meters."},
    "width": {"type": "number", "description": "Width in meters."}}, ["length", "width"])


@pytest.mark.parametrize("question", [
    "Calculate the volume of a box given the width is 3 meters and the length is 4 meters.",  # "calculate" is only its verb
    "Calculate the volume of a box given its height is 2 meters, and its width is 3 meters.",  # nor is a later clause for it
])
def test_the_tools_verb_alone_does_not_make_a_thing_it_does_not_compute_its_own(question):
    assert plan(question, [FLOOR]) == []


def test_the_thing_it_computes_with_its_verb_still_calls_it():
    assert _calls("Calculate the floor area of a room given the width is 3 meters and the length is 4 meters.", FLOOR) == [
        ("calculate_floor_area", {"length": 4, "width": 3})]


SUMMARY = _offer("summarize_numbers", "Summarize a list of numbers.", {
    "numbers": {"type": "array", "items": {"type": "number"}},
    "measures": {"type": "array", "items": {"type": "string", "enum": ["mean", "median", "mode", "range"]}}}, ["numbers"])
RETURNS = _offer("calculate_yield", "Calculate the return on a deposit at a yearly rate over some years.", {
    "deposit": {"type": "number"}, "rate": {"type": "number"}, "years": {"type": "integer"}}, ["deposit", "rate", "years"])


@pytest.mark.parametrize(("question", "offer", "called"), [
    ("What's the median and the mode of 3, 8, 8 and 12?", SUMMARY, "summarize_numbers"),  # its options: what it computes
    ("Calculate the return of a deposit of $500 at 2% for 3 years.", RETURNS, "calculate_yield"),  # "return": no word to judge
])
def test_a_thing_one_of_its_options_names_or_no_word_names_is_not_refused(question, offer, called):
    assert [p.offer.name for p in plan(question, [offer])] == [called]


PEAK = _offer("find_highest_fare", "Find the highest fare of a train route in a month.", {
    "route": {"type": "string"}, "month": {"type": "string"}}, ["route", "month"])
UPLOAD = _offer("upload_file", "Upload a local file to the shared drive.", {"path": {"type": "string"}}, ["path"])
CONTRAST = _offer("complementary_shade", "The paint shade that contrasts with a given one.", {"shade": {"type": "string"}},
                  ["shade"])


@pytest.mark.parametrize(("question", "offer"), [
    ("What is the lowest fare from Leeds to York in May?", PEAK),  # the opposite of what its name says
    ("download budget.xlsx from the shared drive", UPLOAD),
    ("Which shade should I mix for a similar shade of teal on my wall?", CONTRAST),  # alike, not complementary
])
def test_a_request_for_the_opposite_of_what_a_tool_is_named_for_is_no_call_for_it(question, offer):
    assert plan(question, [offer]) == []


EYE_TEST = _offer("book_eye_test", "Book an eye test at the optician's.", {
    "date": {"type": "string", "format": "date"}, "time": {"type": "string", "description": "HH:MM"},
    "name": {"type": "string", "description": "Full name of the patient."}}, ["date", "time", "name"])
KAYAK = _offer("book_kayak_tour", "Book a guided kayak tour.", {
    "date": {"type": "string", "format": "date"}, "paddlers": {"type": "integer"}}, ["date", "paddlers"])
KIT = _offer("hire_kit", "Hire camping kit from the outdoor shop.", {
    "item": {"type": "string", "description": "What to hire"}, "date": {"type": "string", "format": "date"}}, ["item", "date"])


@pytest.mark.parametrize(("question", "offer"), [
    ("Can you book me a massage for 2027-05-04 at 15:00, under Jo Park?", EYE_TEST),  # every value, another thing
    ("Book a table for four at an Italian place on 2027-05-04.", KAYAK),
    ("I need a plumber on 2027-05-04, two of us will be in.", KAYAK),  # a thing wanted, no verb of the tool's
])
def test_a_request_for_a_thing_no_word_of_the_tool_names_is_no_call_for_it(question, offer):
    assert plan(question, [offer]) == []


@pytest.mark.parametrize(("question", "offer", "called"), [
    ("Can you book me an eye test on 2027-05-04 at 15:00? Name's Jo Park.", EYE_TEST, "book_eye_test"),
    ("Please book us a tour on 2027-05-04 for 3 paddlers.", KAYAK, "book_kayak_tour"),  # a word of its name
    ("Could you hire me a tent for 2027-05-04?", KIT, "hire_kit"),  # a tool whose `item` takes any thing
])
def test_the_thing_the_tool_names_or_takes_still_calls_it(question, offer, called):
    assert [p.offer.name for p in plan(question, [offer])] == [called]


def test_a_bare_name_parameter_is_a_persons_when_its_description_says_so():
    from agentkit.offline.roles import role_of
    assert role_of("name", {"type": "string", "description": "Full name of the patient."})[0] == "person"
    assert role_of("name", {"type": "string", "description": "The playlist's new name."})[0] == "title"
    assert role_of("reason", {"type": "string", "description": "Why: routine, hearing_aid_check."})[0] != "date"


HALL = _offer("hire_village_hall", "Hire the village hall for an event.", {
    "date": {"type": "string", "format": "date"}, "start_time": {"type": "string", "description": "HH:MM"},
    "hours": {"type": "integer", "description": "Length of the hire in hours."},
    "purpose": {"type": "string", "description": "What the room is for, e.g. 'quiz night'."},
    "guests": {"type": "integer", "description": "Expected number of people."},
    "kitchen": {"type": "boolean", "description": "Include use of the kitchen."}}, ["date", "start_time", "hours", "purpose"])
BOUNCY = _offer("hire_bouncy_castle", "Hire a bouncy castle delivered to a venue.", {
    "date": {"type": "string", "format": "date"}, "start_time": {"type": "string", "description": "HH:MM"},
    "venue": {"type": "string", "description": "Where to set it up."}}, ["date", "start_time"])
DISPLAY = _offer("order_flower_display", "Order a flower display for an event.", {
    "date": {"type": "string", "format": "date"}, "colours": {"type": "string"}}, ["date", "colours"])


@pytest.mark.parametrize("question", [
    "For the 2027-05-08 party: book the hall from 14:00 for 4 hours for a birthday party, and hire a bouncy castle too.",
    "For 2027-05-08: can you hire the hall from 14:00 for 4 hours for a birthday party? And a bouncy castle from 15:00.",
])
def test_a_colon_after_what_the_requests_are_for_starts_them_not_a_text(question):
    assert [p.offer.name for p in plan(question, [HALL, BOUNCY, DISPLAY])] == ["hire_village_hall", "hire_bouncy_castle"]


def test_a_clause_naming_another_tool_starts_its_call_though_it_would_complete_the_one_before():
    calls = plan("Hire the hall on 2027-05-08 for a quiz night, and a bouncy castle from 15:00 for 4 hours", [HALL, BOUNCY])
    assert [p.offer.name for p in calls] == ["hire_village_hall", "hire_bouncy_castle"]


@pytest.mark.parametrize("question", [
    "Hire the hall on 2027-05-08 from 18:00 for 3 hours for Mum's retirement party (about 60 guests, and we want the kitchen).",
    "Book the hall on 2027-05-08 from 18:00 for 3 hours for a quiz night; we need the kitchen as well"])
def test_a_clause_that_adds_a_flag_is_the_same_call_whatever_text_it_reads_as(question):
    (call,) = plan(question, [HALL])  # (its purpose is read as "kitchen", a room's word: the purpose "is for" a room)
    assert call.arguments["kitchen"] is True and (call.arguments["date"], call.arguments["hours"]) == ("2027-05-08", 3)


def test_a_tool_that_takes_any_thing_takes_a_thing_booked_only_if_it_books():
    assert plan("Can you book me a haircut on 2027-05-04 at 15:00?", [HALL]) == []  # `purpose` takes any text; hire it does not
    assert [p.offer.name for p in plan("Could you hire me a tent for 2027-05-04?", [KIT])] == ["hire_kit"]


@pytest.mark.parametrize(("text", "follows"), [
    ("For 2027-05-08: book the hall", True), ("For my dad: can you hire a van", True),
    ("new to-do: book the vet", False), ("gift idea: a yoga mat for Priya", False), ("all caps: please handle with care", False)])
def test_a_colon_leads_to_requests_or_to_a_text(text, follows):
    from agentkit.offline.spans import requests_follow
    assert requests_follow(text, text.index(":") + 2) is follows


SCREEN = _offer("book_tablet_repair", "Book a tablet screen repair.", {
    "tablet_model": {"type": "string", "description": "Tablet model, e.g. 'iPad Air 5', 'Galaxy Tab S9'."},
    "date": {"type": "string", "format": "date"}, "owner_phone": {"type": "string", "description": "Contact number."}},
    ["tablet_model", "date"])


@pytest.mark.parametrize(("question", "model"), [
    ("My iPad 9 screen cracked, can you fix it on 2027-05-04? My number is 07700 900123.", "iPad 9"),
    ("Book a repair for my Surface Pro 8 on 2027-05-04", "Surface Pro 8"),
    ("Galaxy S9 screen repair on 2027-05-04 please", "Galaxy S9"),
])
def test_a_model_is_named_as_its_examples_are_and_its_name_is_no_phone(question, model):
    (call,) = plan(question, [SCREEN])
    assert call.arguments["tablet_model"] == model and call.arguments.get("owner_phone") in (None, "07700 900123")
