"""A question about the world gets no call, even when it shares a tool's words; a request with a value does."""

from __future__ import annotations

import pytest

from agentkit.offline.choose import Offer, plan
from agentkit.offline.general import is_general
from agentkit.offline.results import _without_brackets


@pytest.mark.parametrize("question", [
    "what is a stock split?", "how does the stock market work?", "why do planes fly so high?",
    "what makes a password strong?", "who invented the airplane?", "is french hard to learn?",
    "how much water should I drink a day?", "what does an API key do?", "what's the difference between a lake and a sea?",
    "which languages are the hardest to learn?", "which sport is the most popular?",
    "what are the most common mistakes in a chess opening?", "what is the least spoken language of the Alps?",  # "the most ..."
])
def test_a_question_about_the_world_is_general(question):
    assert is_general(question)


@pytest.mark.parametrize("question", [
    "what is the weather in Paris?",  # a request, not of the general forms
    "why is my build failing in build.log?",  # a file to look at
    "what is a good price for AAPL?",  # a symbol a tool takes
    "how many days until 2027-01-01?",  # a date
    "how many words does 'hello there' have?",  # quoted text
    "is it raining in Oslo?",  # "is it": about now, somewhere
    "how do I get from porto to rome",  # "how do I" asks for directions
    "what's the most recent news on electric cars?",  # "most recent" asks for news a tool finds
    "what is the most expensive hotel in Rome?",  # a place
])
def test_a_request_with_a_value_is_not_general(question):
    assert not is_general(question)


@pytest.mark.parametrize(("text", "said"), [
    ("ok: kindle, {'amount': 90, 'currency': 'USD'}", "ok: kindle, amount 90, currency USD"),
    ('saved {"id": 7}', "saved id 7"),
    ("tags: ['a', 'b']", "tags: a, b"),
])
def test_a_printed_dict_or_list_is_said_in_words(text, said):
    assert _without_brackets(text) == said


@pytest.mark.parametrize(("question", "tools", "calls"), [
    # a fact about a place is answered in words by a model whose tools take no place...
    ("what language do they speak in Peru?", ["say_in"], []),
    ("which currency is used in Denmark?", ["say_in"], []),
    ("what is the capital of Kenya?", ["say_in"], []),
    # ...and is a request for a tool that does take one
    ("what is the capital of Kenya?", ["say_in", "country_facts"], ["country_facts"]),
])
def test_a_fact_about_a_place_is_for_a_tool_that_takes_a_place(question, tools, calls):
    offers = {"say_in": Offer("say_in", "Translate a phrase into another language.", {"type": "object", "properties": {
                  "phrase": {"type": "string"}, "lang": {"type": "string", "description": "target language"}},
                  "required": ["phrase", "lang"]}),
              "country_facts": Offer("country_facts", "Facts about a country: capital, languages, currency.", {
                  "type": "object", "properties": {"country": {"type": "string"}}, "required": ["country"]})}
    assert [p.offer.name for p in plan(question, [offers[name] for name in tools])] == calls


@pytest.mark.parametrize(("question", "about_the_clock"), [
    ("what time is it?", True), ("what's the time in Rome?", True),
    ("is the 8:15 train on time?", False), ("do I have any free time on Friday?", False),
    ("is this the first time you run?", False),
])
def test_only_a_question_about_the_clock_gets_the_no_clock_answer(question, about_the_clock):
    from agentkit.offline.answer import plain_answer
    assert ("can't know the current time" in plain_answer(question)) == about_the_clock


def _tool(name, description, **numbers):
    properties = {slot: {"type": "number", "description": text} for slot, text in numbers.items()}
    return Offer(name, description, {"type": "object", "properties": properties, "required": list(numbers)})


SQUARE = _tool("calculate_square_perimeter", "Perimeter of a square from its side.", side="Length of one side.")
SHOE_SHOP = Offer("shoe_shop_search", "Find shoe shops in a town.", {"type": "object", "properties": {
    "town": {"type": "string", "description": "The town."}}, "required": ["town"]})
SALARY = _tool("get_salary_median", "Look up the median salary of a profession.", years="Years of experience.")


@pytest.mark.parametrize(("question", "offer", "called"), [
    # the thing asked is of the tool's kind (its head is a word of the tool's name) but another one: no call...
    ("what's the perimeter of a hexagon with sides of 4?", SQUARE, False),
    ("find a flower shop in Bath", SHOE_SHOP, False),
    ("what is the top-band salary of a plumber with 10 years?", SALARY, False),
    # ...and the tool's own thing, said in its words or in others, is a call
    ("what's the perimeter of a square with sides of 4?", SQUARE, True),
    ("find a shoe shop in Bath", SHOE_SHOP, True),
    ("find the nearest shop for shoes in Bath", SHOE_SHOP, True),  # "nearest" picks which one, not what kind
    ("what is the median salary of a plumber with 10 years?", SALARY, True),
])
def test_a_thing_of_the_tools_kind_but_another_one_is_no_call(question, offer, called):
    assert bool(plan(question, [offer])) == called



FUEL = _tool("calculate_fuel_cost", "Compute the fuel cost of a trip.", distance_km="Trip length in km.",
             price="Price per litre.")
READER = Offer("read_file", "Read a text file.", {"type": "object", "properties": {
    "path": {"type": "string", "description": "Path of the file."}}, "required": ["path"]})


@pytest.mark.parametrize(("question", "offer", "called"), [
    # the thing asked is named by none of the tool's words, and no word but its verb names the tool: no call, values or not
    ("calculate my pension if I retire in 2040", FUEL, False),
    ("calculate my grade if I scored 78 and 91", FUEL, False),
    # ...but the tool's own thing is a call, and so is a file's request, told by its path
    ("calculate the fuel for 300 km at 1.9 a litre", FUEL, True),
    ("what's the last line of build.log?", READER, True),
])
def test_a_thing_no_word_of_the_tool_names_is_no_call_whatever_its_values(question, offer, called):
    assert bool(plan(question, [offer])) == called
