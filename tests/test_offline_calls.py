"""Issue 25, the call side: the offline model picks the tool and puts each value where it belongs, on a learner's own
wording, in English and in Chinese. One row a class of case, over tools the course never uses."""

from __future__ import annotations

import datetime as dt
import json
import tempfile

import pytest

from agentkit.agent import agent_tools, open_workspace
from agentkit.offline import OfflineModel, code, dates
from agentkit.offline.vocabulary import english, numeral


def tool(name, description, required=(), **properties):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": list(required)}}}


def s(description="", **more):
    return {"type": "string", "description": description, **more}


def n(description="", kind="number", **more):
    return {"type": kind, "description": description, **more}


SHARE = tool("share_cost", "Share a cost equally among a group.", ["cost", "persons"], cost=n("what it cost"),
             persons=n("how many people share", "integer"))
BONES = tool("throw_dice", "Throw dice.", ["dice", "sides"], dice=n("number of dice", "integer"),
             sides=n("sides per die", "integer"), plus=n("added to the total", "integer"))
TRIP = tool("trip_time", "Travel time between two places.", ["origin", "destination"], origin=s(), destination=s())
SERVE = tool("rescale", "Rescale a recipe.", ["made_for", "wanted_for"], made_for=n("servings the recipe makes", "integer"),
             wanted_for=n("servings wanted", "integer"))
SIZE = tool("value_per_litre", "Price per litre of a drink.", ["price", "volume", "unit"], price=n("price paid"),
            volume=n("how much it holds"), unit=s(enum=["ml", "l"]))
TICKET = tool("new_ticket", "Create an issue in a repository.", ["repo", "title"], repo=s("owner/name"), title=s())
QUERY = tool("sql", "Run SQL against the reporting database.", ["statement"], statement=s("SQL statement"))
TERM = tool("terminal", "Run a shell command.", ["cmd"], cmd=s("the command line"))
OVEN = tool("oven_timer", "Start the oven timer.", ["minutes"], minutes=n("minutes", "integer"))
ROOM = tool("reserve_room", "Reserve a meeting room.", ["room", "day", "start"], room=s("room name"), day=s("the day"),
            start=s("start time, HH:MM"), length_minutes=n("length in minutes", "integer"))
WHEN = tool("book_visit", "Book a visit.", ["date"], date=s("date, YYYY-MM-DD"))
CLOCK = tool("clock_in", "Local time in a time zone.", ["zone"], zone=s("IANA time zone"))
SKY = tool("sky", "Weather in a city.", ["place"], place=s("city name"))
MONEY = tool("fx", "Exchange money.", ["amount", "source", "target"], amount=n(), source=s("currency code"),
             target=s("currency code"))
TASKS = tool("add_task", "Add a task to the task list.", ["task"], task=s())
ZH_SKY = tool("tianqi_chaxun", "查询城市天气。", ["chengshi"], chengshi=s("城市名称"))


def calls(question, tools, history=()):
    messages = [*history, {"role": "user", "content": question}]
    reply = OfflineModel().respond({"model": "offline", "messages": messages, "tools": tools})
    return [(c.name, json.loads(c.arguments)) for c in reply.tool_calls]


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # which value goes where, by the sentence and the schema
    ("share a dinner of 90 between 6 of us", [SHARE], [("share_cost", {"cost": 90, "persons": 6})]),
    ("split 47.25 between the 3 of us", [SHARE], [("share_cost", {"cost": 47.25, "persons": 3})]),
    ("throw four eight-sided dice", [BONES], [("throw_dice", {"dice": 4, "sides": 8})]),
    ("throw 2d10+3", [BONES], [("throw_dice", {"dice": 2, "sides": 10, "plus": 3})]),
    ("travel time to malaga from seville", [TRIP], [("trip_time", {"origin": "Seville", "destination": "Malaga"})]),
    ("the recipe makes 5, I want it for 12", [SERVE], [("rescale", {"made_for": 5, "wanted_for": 12})]),
    ("330 ml for 1.20 or 2 l for 3.10?", [SIZE], [("value_per_litre", {"price": 1.2, "volume": 330, "unit": "ml"}),
                                                   ("value_per_litre", {"price": 3.1, "volume": 2, "unit": "l"})]),
    ('open an issue in kit/agentkit called "Docs typo"', [TICKET], [("new_ticket", {"repo": "kit/agentkit",
                                                                                      "title": "Docs typo"})]),
    ("SELECT id, name FROM users WHERE age > 30", [QUERY, TERM],
     [("sql", {"statement": "SELECT id, name FROM users WHERE age > 30"})]),
    ("run du -sh * | sort -h", [TERM, QUERY], [("terminal", {"cmd": "du -sh * | sort -h"})]),
    # how people write
    ("oven timer for an hour and a half", [OVEN], [("oven_timer", {"minutes": 90})]),
    ("reserve the Kepler room tomorrow at 2pm for 45 min", [ROOM],
     [("reserve_room", {"room": "Kepler", "day": "tomorrow", "start": "14:00", "length_minutes": 45})]),
    ("time in lisbon", [CLOCK, SKY], [("clock_in", {"zone": "Europe/Lisbon"})]),
    ("weather in san francisco", [SKY, CLOCK], [("sky", {"place": "San Francisco"})]),
    ("how many dollars is 40 euros", [MONEY], [("fx", {"amount": 40, "source": "EUR", "target": "USD"})]),
    ("£30 in €?", [MONEY], [("fx", {"amount": 30, "source": "GBP", "target": "EUR"})]),  # currencies by their signs
    ("add call the bank and pay rent to my task list", [TASKS],
     [("add_task", {"task": "call the bank"}), ("add_task", {"task": "pay rent"})]),
    # several values and two tools in one question
    ("sky over Quito, Lima or Bogotá?", [SKY], [("sky", {"place": "Quito"}), ("sky", {"place": "Lima"}),
                                                ("sky", {"place": "Bogotá"})]),
    ("weather in Oslo and what's the time there?", [SKY, CLOCK], [("sky", {"place": "Oslo"}),
                                                                   ("clock_in", {"zone": "Europe/Oslo"})]),
    ("time in Zürich", [CLOCK], [("clock_in", {"zone": "Europe/Zurich"})]),
    # Chinese: places, numerals, times, tools described in either language
    ("首尔现在几点？", [CLOCK, SKY], [("clock_in", {"zone": "Asia/Seoul"})]),
    ("广州天气怎么样", [ZH_SKY, CLOCK], [("tianqi_chaxun", {"chengshi": "广州"})]),  # the city as written
    ("掷两个十二面的骰子", [BONES], [("throw_dice", {"dice": 2, "sides": 12})]),
    ("把 80 英镑换成欧元", [MONEY], [("fx", {"amount": 80, "source": "GBP", "target": "EUR"})]),
    ("后天下午两点半预订 Kepler 会议室", [ROOM], [("reserve_room", {"room": "Kepler", "day": "the day after tomorrow",
                                                                 "start": "14:30"})]),
])
def test_the_call_is_read_from_the_learners_words(question, tools, expected):
    assert calls(question, tools) == expected


@pytest.mark.parametrize("question", ["what does a time zone mean?", "how many legs does an ant have?", "什么是汇率？"])
def test_a_general_question_gets_no_call(question):
    assert calls(question, [CLOCK, BONES, MONEY]) == []


def _after(question, name, arguments, result):
    return [{"role": "user", "content": question},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]},
            {"role": "tool", "tool_call_id": "c1", "content": result},
            {"role": "assistant", "content": "Done."}]


@pytest.mark.parametrize(("question", "expected"), [
    ("and in Nairobi?", [("clock_in", {"zone": "Africa/Nairobi"})]),
    ("what about lima", [("clock_in", {"zone": "America/Lima"})]),
    ("那悉尼呢？", [("clock_in", {"zone": "Australia/Sydney"})]),
])
def test_a_follow_up_repeats_the_last_call_with_the_new_value(question, expected):
    history = _after("time in Oslo?", "clock_in", {"zone": "Europe/Oslo"}, "10:00")
    assert calls(question, [CLOCK, SKY], history) == expected


COURSE = [{"type": "function", "function": {"name": name, "description": t.description, "parameters": t.parameters}}
          for name, t in agent_tools(open_workspace(tempfile.mkdtemp()), lambda question: "yes").items()]


@pytest.mark.parametrize(("question", "expected"), [
    ("show me what's in todo.txt", [("read_file", {"path": "todo.txt"})]),
    ("what files do I have?", [("glob", {"pattern": "*"})]),
    ("count the words in essay.md using bash", [("bash", {"command": "wc -w essay.md"})]),
    ('Run the command "echo hi > a.txt" in the shell.', [("bash", {"command": "echo hi > a.txt"})]),  # the quotes, not the rest
    ("in todo.txt replace 'eggs' with 'bread'", [("edit_file", {"path": "todo.txt", "old_text": "eggs", "new_text": "bread"})]),
    ("what time is it in Berlin?", [("get_current_time", {"timezone": "Europe/Berlin"})]),
    ("打开 todo.txt", [("read_file", {"path": "todo.txt"})]),
    ("柏林现在几点？", [("get_current_time", {"timezone": "Europe/Berlin"})]),
])
def test_everyday_requests_with_the_course_tools(question, expected):
    assert calls(question, COURSE) == expected


@pytest.mark.parametrize(("question", "command"), [
    ("run the shell command sleep 5", "sleep 5"),  # the number is part of the command, not the tool's timeout
    ("run sleep 5 in the shell", "sleep 5"),
    ("run the command frobnicate --fast", "frobnicate --fast"),  # "the command X": X need not be a program we know
    ("please execute the bash command seq 3 with the terminal", "seq 3"),
])
def test_a_command_the_request_names_is_taken_whole(question, command):
    assert calls(question, COURSE) == [("bash", {"command": command})]


@pytest.mark.parametrize(("question", "expected"), [
    ("把 你好 写到 hi.txt", {"path": "hi.txt", "content": "你好"}),  # 把: the object before the verb, kept as written
    ("把会议记录保存到 notes.md", {"path": "notes.md", "content": "会议记录"}),
    ("把“早上好”写入 a.txt", {"path": "a.txt", "content": "早上好"}),
])
def test_the_ba_construction_puts_its_object_in_the_file(question, expected):
    assert calls(question, COURSE) == [("write_file", expected)]


def test_run_with_no_command_named_asks_which_command():
    assert [name for name, _ in calls("run the command in the shell", COURSE)] == ["ask_user"]


def test_that_is_the_earlier_result_and_it_is_the_earlier_file():
    history = _after("read todo.txt", "read_file", {"path": "todo.txt"}, "eggs\nmilk")
    assert calls("now write that to copy.txt", COURSE, history) == [
        ("write_file", {"path": "copy.txt", "content": "eggs\nmilk"})]
    assert calls("count its lines with the shell", COURSE, history) == [("bash", {"command": "wc -l todo.txt"})]


def test_chinese_numerals_times_and_durations_read_as_english():
    assert [numeral(w) for w in ("十二", "两", "一百零五", "三万五千", "二十")] == [12, 2, 105, 35000, 20]
    assert english("下周三晚上8点半，一个半小时") == "Wednesday next week at 20:30 , for 90 minutes"  # 下周: next week's


def test_dates_times_and_durations():
    assert [t for *_, t in dates.clock_times("at 9, 3pm, 12:30 am and noon")] == ["09:00", "15:00", "00:30", "12:00"]
    assert [d for *_, d in dates.durations("half an hour, 90 min, two hours")] == [1800, 5400, 7200]
    friday = dt.date(2026, 3, 6)
    assert dates.as_iso("tomorrow", friday) == "2026-03-07" and dates.as_iso("next Tuesday", friday) == "2026-03-10"
    assert dates.as_iso("in two weeks", friday) == "2026-03-20" and dates.as_iso("friday", friday) == "2026-03-13"
    # a weekday of a calendar week (下周三, 这周日, 下下周一: the week starts on Monday), a day of next month (下个月5号)
    assert [dates.as_iso(f"{day} {week}", friday) for day, week in [("wednesday", "next week"), ("sunday", "this week"), (
        "monday", "the week after next"), ("friday", "next week")]] == ["2026-03-11", "2026-03-08", "2026-03-16", "2026-03-13"]
    assert [dates.as_iso(f"the {n} of next month", dt.date(2027, 1, 30)) for n in (5, 31)] == ["2027-02-05", "2027-02-28"]
    monday = dt.date(2027, 2, 15)  # "next tuesday" on a Monday is next week's, not tomorrow; the others say which week
    assert {dates.as_iso(said, monday) for said in ("next tuesday", "tuesday week", "a week on tuesday", "tuesday of next week",
                                                    "next week on tuesday", "tuesday the 23rd")} == {"2027-02-23"}
    assert dates.as_iso("tuesday", monday) == "2027-02-16" and dates.as_iso("next week", monday) == "2027-02-22"
    assert [english(q).split()[:3] for q in ("下周三", "下下周一", "下个月五号")] == [
        ["Wednesday", "next", "week"], ["Monday", "the", "week"], ["the", "5", "of"]]
    assert calls("book a visit on Friday", [WHEN])[0][1]["date"] == dates.as_iso("friday")  # the format it asks for


def test_everyday_commands_and_patterns():
    assert code.command_for("how many lines are in a.txt", "a.txt", None) == "wc -l a.txt"
    assert code.command_for("show the first 5 lines of a.txt", "a.txt", 5) == "head -n 5 a.txt"
    assert code.pattern_for("list the python files") == "*.py" and code.pattern_for("the weather") is None


# ---------------------------------------------------------------- issue 34: two calls, a pronoun, a value already given
TICK = tool("tick_task", "Mark a task of the list as finished.", ["number"], number=n("the task's number", "integer"))
GROCERY = tool("grocery_add", "Put an item on the shopping list.", ["item"], item=s("what to buy"), amount=n("how much"),
               unit=s("unit of the amount"))
SEATS = tool("concert_seats", "Book seats at a concert.", ["artist", "seats"], artist=s("the performer"),
              seats=n("how many seats", "integer"), date=s("the day of the concert"))
SPEND = tool("spend", "Note down money spent.", ["amount", "currency"], amount=n(), currency=s("currency code"),
             note=s("what it was for"))


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # a second clause that brings another number or time for a parameter already filled is a second call
    ("reserve the Kepler room tomorrow at 9 and at 15", [ROOM],
     [("reserve_room", {"room": "Kepler", "day": "tomorrow", "start": "09:00"}),
      ("reserve_room", {"room": "Kepler", "day": "tomorrow", "start": "15:00"})]),
    ("12 pounds and 30 dollars, exchange both to yen", [MONEY],
     [("fx", {"amount": 12, "source": "GBP", "target": "JPY"}), ("fx", {"amount": 30, "source": "USD", "target": "JPY"})]),
    # a clause about what the one before named ("it") goes on with its call
    ("task 3 is finished, tick it off please", [TICK, SKY], [("tick_task", {"number": 3})]),
    # a quantity and its unit are not the item; a colon's text without the values it gave
    ("put 3 kilos of rice on my shopping list", [GROCERY], [("grocery_add", {"item": "rice", "amount": 3, "unit": "kilos"})]),
    ("Muse play in Leeds on Friday, book 2 seats for it", [SEATS],
     [("concert_seats", {"artist": "Muse", "seats": 2, "date": "Friday"})]),
    ("spent: taxi home 18 EUR", [SPEND], [("spend", {"amount": 18, "currency": "EUR", "note": "taxi home"})]),
    ("把2升牛奶加入购物清单", [GROCERY], [("grocery_add", {"item": "牛奶", "amount": 2, "unit": "liters"})]),
])
def test_issue_34_classes(question, tools, expected):
    assert calls(question, tools) == expected


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # a request pasted whole in quotes is read as the request, not as a quoted value
    ('"Please throw four eight-sided dice for me."', [BONES, SKY], [("throw_dice", {"dice": 4, "sides": 8})]),
    ('"Is it raining in Quito right now?"', [SKY, BONES], [("sky", {"place": "Quito"})]),
])
def test_a_request_pasted_in_quotes(question, tools, expected):
    assert calls(question, tools) == expected


DOSE = tool("dose_by_weight", "Work out a medicine dose from body weight.", ["weight_kg", "mg_per_kg"],
            weight_kg=n("body weight in kg"), mg_per_kg=n("milligrams per kilogram"), drug=s("the medicine's name"))
PAINT = tool("paint_needed", "Litres of paint needed for a wall.", ["width_m", "height_m"], width_m=n("wall width in metres"),
             height_m=n("wall height in metres"))


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # several cases told in sentences: a call per case, its own values, the shared ones from the rest
    ("Our vet gives Rimadyl to two dogs. The first dog weighs 12 kg and needs 4 mg per kg. The second dog weighs 30 kg "
     "and needs 2 mg per kg. What dose does each get?", [DOSE, SKY],
     [("dose_by_weight", {"weight_kg": 12, "mg_per_kg": 4, "drug": "Rimadyl"}),
      ("dose_by_weight", {"weight_kg": 30, "mg_per_kg": 2, "drug": "Rimadyl"})]),
    ("Split a bill of 90 between 3 people. Also split one of 140 between 4 people.", [SHARE],
     [("share_cost", {"cost": 90, "persons": 3}), ("share_cost", {"cost": 140, "persons": 4})]),
    # sentences that tell one request at length stay one call
    # the words that say which case it is ("the first wall") are no value of it
    ("How much paint do I need for two walls? The first wall is 4 m wide and 3 m high, the second wall is 6 m wide and 2.5 m "
     "high.", [PAINT, SKY], [("paint_needed", {"width_m": 4, "height_m": 3}), ("paint_needed", {"width_m": 6, "height_m": 2.5})]),
    ("Share a dinner of 90 between 6 of us. It was the first dinner of the year.", [SHARE],
     [("share_cost", {"cost": 90, "persons": 6})]),
])
def test_several_cases_told_in_sentences(question, tools, expected):
    assert calls(question, tools) == expected


FERRY = tool("ferry_status", "Live status of a ferry (on time, delayed). Sailing code like 'SF4471'.", ["sailing"],
             sailing=s("Sailing number."), date=s("Day of the crossing, YYYY-MM-DD."))
GLOSSARY = tool("word_meaning", "Dictionary meaning of one English word.", ["word"], word=s("The word."))
SAY = tool("translate", "Translate a text into another language.", ["text", "target"], text=s("What to translate."),
           target=s("Target language code, e.g. 'de'."))
EBOOK = tool("borrow_ebook", "Borrow an e-book from the library app.", ["title"], title=s("Book title."))
RATE = tool("rate_album", "Give an album a star rating in the listening diary.", ["album", "stars"], album=s("Album title."),
            stars=n("1 to 5.", "integer"))
DOCK = tool("find_toilet", "Public toilets nearby.", ["near"], near=s("Place or address."),
            step_free=dict(type="boolean", description="Only toilets with step-free access (default false)."))
TEXT = tool("text_friend", "Send a text to a friend.", ["friend", "message"], friend=s("Friend's name."), message=s("The text."))
CHORE = tool("add_chore", "Add a chore to the household list.", ["chore"], chore=s("What to do."),
             priority=s("How urgent.", enum=["low", "high"]))
BASKET = tool("add_to_basket", "Add a product to the shopping basket.", ["product"], product=s("What to buy."),
              quantity=n("How many.", "integer"))
SLEEP = tool("log_sleep", "Record a night's sleep.", ["hours"], hours=n("Hours slept, e.g. 7.5."))
WORKOUT = tool("log_workout", "Record a workout.", ["sport", "minutes"], sport=s("Kind of workout."),
               minutes=n("How long it took, in minutes.", "integer"))
TRAM = tool("next_tram", "When the next trams leave a stop.", ["stop"], stop=s("Stop name."), line=s("Only this line, e.g. '4'."))


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # a code of letters and digits fills a parameter no word names as a code ("the sailing number")
    ("is SF4471 on time?", [FERRY, SKY], [("ferry_status", {"sailing": "SF4471"})]),
    ("are SF4471 and SF4490 on time tomorrow?", [FERRY, SKY],
     [("ferry_status", {"sailing": "SF4471", "date": (dt.date.today() + dt.timedelta(days=1)).isoformat()}),
      ("ferry_status", {"sailing": "SF4490", "date": (dt.date.today() + dt.timedelta(days=1)).isoformat()})]),
    # "what does X mean" asks a tool that gives meanings, for the one word X; "say it" is that word again
    ("what does hygge mean?", [GLOSSARY, SAY], [("word_meaning", {"word": "hygge"})]),
    ("what does hygge mean, and how would you say it in Spanish?", [GLOSSARY, SAY],
     [("word_meaning", {"word": "hygge"}), ("translate", {"text": "hygge", "target": "es"})]),
    ("what's the meaning of hygge?", [GLOSSARY, SAY], [("word_meaning", {"word": "hygge"})]),
    # "a dozen" is 12, its "a" no part of what is counted
    ("add a dozen bagels to my basket", [BASKET, SKY], [("add_to_basket", {"product": "bagels", "quantity": 12})]),
    # "N and a half", "an hour and a half": the number and a half, one value
    ("slept seven and a half hours", [SLEEP, WORKOUT], [("log_sleep", {"hours": 7.5})]),
    ("log a pilates workout, an hour and a half", [WORKOUT, SLEEP], [("log_workout", {"sport": "pilates", "minutes": 90})]),
    # "tmrw", "tomorow": tomorrow as people type it
    ("book a visit tmrw", [WHEN, SKY], [("book_visit", {"date": (dt.date.today() + dt.timedelta(days=1)).isoformat()})]),
    # "The" inside a sentence, capitalised, starts a title
    ("borrow The Hobbit and Dracula", [EBOOK, SKY], [("borrow_ebook", {"title": "The Hobbit"}),
                                                    ("borrow_ebook", {"title": "Dracula"})]),
    # "X gets 4 stars": the verb is no part of the title
    ("Blue gets 4 stars, Rumours five", [RATE, SKY], [("rate_album", {"album": "Blue", "stars": 4}),
                                                      ("rate_album", {"album": "Rumours", "stars": 5})]),
    # a place written in lower case after "to" ("nearest ... to euston square")
    ("closest toilet to euston square?", [DOCK, SKY], [("find_toilet", {"near": "Euston Square"})]),
    # a number for an optional text whose description shows a number ("e.g. '4'")
    ("when's the next 4 at Bahnhof Mitte", [TRAM, SKY], [("next_tram", {"stop": "Bahnhof Mitte", "line": "4"})]),
    # "..., high priority": an option and the word of its parameter end a text, as the word alone does
    ("on the chores list: clean the gutters, high priority", [CHORE, SKY], [("add_chore", {"chore": "clean the gutters",
                                                                                   "priority": "high"})]),
    # a name in lower case is the person's, the text after "saying" the message's ("message ana saying ...")
    ("message ana saying on my way", [TEXT, SKY], [("text_friend", {"friend": "Ana", "message": "on my way"})]),
    # a word that only acknowledges ("great, ...") is no request of its own
    ('great, text Ana "on my way"', [TEXT, SKY], [("text_friend", {"friend": "Ana", "message": "on my way"})]),
])
def test_issue_48_two_calls_and_everyday_values(question, tools, expected):
    assert calls(question, tools) == expected


def test_any_x_ones_narrows_the_last_call_by_its_flag():
    history = _after("toilets near Euston", "find_toilet", {"near": "Euston"}, '[{"name": "Euston Rd", "steps": 4}]')
    assert calls("any step-free ones?", [DOCK, SKY], history) == [("find_toilet", {"near": "Euston", "step_free": True})]


@pytest.mark.parametrize("question, tools, expected", [
    # "and one near ...": "one" stands for the thing the first clause asked for, the value after it is the second call's
    ("toilets near the bus depot, and one near the old harbour", [DOCK, SKY],
     [("find_toilet", {"near": "Bus Depot"}), ("find_toilet", {"near": "Old Harbour"})]),
    ("a toilet near the pier and another near the castle", [DOCK, SKY],
     [("find_toilet", {"near": "Pier"}), ("find_toilet", {"near": "Castle"})]),
])
def test_one_or_another_stands_for_the_first_clauses_thing(question, tools, expected):
    assert calls(question, tools) == expected


NEWS = tool("news_stories", "Recent news stories: look up a topic.", ["topic"], topic=s("What the news is about."))
NOW = tool("weather_now", "Current weather conditions for a city.", ["city"], city=s("City name."))


@pytest.mark.parametrize("question, tools, expected", [
    # the second clause says again only the verb of the first ("look up", "查一下"): the same tool, for its new value
    ("look up the weather in Lima, then look up Quito's", [SKY, NEWS], [("sky", {"place": "Lima"}), ("sky", {"place": "Quito"})]),
    ("查一下成都的天气，再查一下重庆的", [NOW, NEWS],
     [("weather_now", {"city": "成都"}), ("weather_now", {"city": "重庆"})]),  # as written
    # a word of the other tool still names it
    ("look up the weather in Lima and look up news about Quito", [SKY, NEWS],
     [("sky", {"place": "Lima"}), ("news_stories", {"topic": "Quito"})]),
])
def test_a_verb_said_again_names_no_other_tool(question, tools, expected):
    assert calls(question, tools) == expected


CAFE = tool("cafes_nearby", "Find cafes around a spot.", ["spot"], spot=s("landmark or area"))
PARK = tool("car_parks", "Where to park close to a place.", ["area"], area=s("the area"))
RAIL = tool("departures", "Next trains leaving a station.", ["station"], station=s("station name"), to=s("where to"))
CAB = tool("order_cab", "Order a cab.", ["to"], to=s("where to go"), at=s("pick-up time HH:MM"))
CHORE = tool("new_chore", "Put a chore on the house chore list.", ["chore"], chore=s())
HYDRATE = tool("hydrate", "Log a drink: how much I drank.", ["ml"], ml=n("millilitres", "integer"))
SPENT = tool("spent", "Log money I spent or paid.", ["amount", "what"], amount=n("how much"), what=s("what it was for"))
TRAINING = tool("training_log", "Log a training session.", ["sport", "minutes"], sport=s("e.g. running, rowing"),
                minutes=n("how long", "integer"))
KITCHEN = tool("kitchen_timer", "Start a kitchen timer.", ["minutes"], minutes=n(kind="integer"), label=s("what it is for"))
SPORT = tool("sport_diary", "Log a sport session.", ["kind", "minutes"], kind=s("Kind of sport, e.g. running, swimming"),
             minutes=n(kind="integer"))
SPOT = tool("reserve_spot", "Reserve a table at a restaurant.", ["place", "at", "guests"], place=s("restaurant"),
            at=s("time HH:MM"), guests=n(kind="integer"))
FLIGHT = tool("flight_state", "Live status of a flight.", ["code"], code=s("flight number, e.g. AF1234"))
PING = tool("ping_me", "Set an alert that pings me at a time.", ["what", "time"], what=s("what about"), time=s("HH:MM"))


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # "there" is the place a clause before named, a city or any name after "near", "to", "at"...: a second call
    ("any cafes near Marble Arch? and is there parking there", [CAFE, PARK],
     [("cafes_nearby", {"spot": "Marble Arch"}), ("car_parks", {"area": "Marble Arch"})]),
    ("cab to Euston at 6pm, then what trains leave from there", [CAB, RAIL],
     [("order_cab", {"to": "Euston", "at": "18:00"}), ("departures", {"station": "Euston"})]),
    # a count announces the requests after a colon or a dash: one call per item, each with its own values
    ("two chores for the list - hoover the stairs and clean the oven", [CHORE, PING],
     [("new_chore", {"chore": "hoover the stairs"}), ("new_chore", {"chore": "clean the oven"})]),
    ("a couple of alerts: stretch at 11am, and drink some water at 3pm", [PING, CHORE],
     [("ping_me", {"what": "stretch", "time": "11:00"}), ("ping_me", {"what": "drink some water", "time": "15:00"})]),
    # "each" multiplies: one call with the whole, not a call per number
    ("drank three mugs of coffee this morning, about 250 ml each", [HYDRATE, CHORE], [("hydrate", {"ml": 750})]),
    ("spent money on 4 cinema tickets, 9.50 dollars each", [SPENT, HYDRATE],
     [("spent", {"amount": 38, "what": "cinema tickets"})]),
    # a part that only measures or names the thing of the part before goes with it: one call
    ("went rowing this morning, took me 35 minutes", [TRAINING, HYDRATE], [("training_log", {"sport": "rowing", "minutes": 35})]),
    ("start a 25 minute timer and name it pasta", [KITCHEN, PING], [("kitchen_timer", {"minutes": 25, "label": "pasta"})]),
    # a clause with no verb is a request when its noun names a tool's example: "a 25 minute run" for "e.g. running"
    ("log 2 litres of water and a 25 minute run", [HYDRATE, SPORT],
     [("hydrate", {"ml": 2000}), ("sport_diary", {"kind": "running", "minutes": 25})]),
    # an hour without am or pm, for a dinner or a table, is in the evening, in whichever clause it is said
    ("a table at Roka for 3, quarter past 8", [SPOT, PING], [("reserve_spot", {"place": "Roka", "at": "20:15", "guests": 3})]),
    ("dinner for 2 at Ottolenghi, 8 o'clock", [SPOT, PING],
     [("reserve_spot", {"place": "Ottolenghi", "at": "20:00", "guests": 2})]),
    # a flight number typed with a space is one code
    ("has flight tk 1980 landed", [FLIGHT, PING], [("flight_state", {"code": "tk1980"})]),
])
def test_a_second_request_is_read_with_what_the_first_said(question, tools, expected):
    assert calls(question, tools) == expected


SEASON = tool("season_dish", "Add seasoning to the dish being cooked.", ["seasoning"], seasoning=s("what to season it with"))
CARTOON = tool("stream_title", "Stream a film or series on the living-room TV.", ["title"], title=s("what to watch"))
ARTIST = tool("play_artist", "Play songs by a band or singer.", ["artist"], artist=s("band or singer"))
WRAP = tool("order_wrap", "Order a wrap from the deli.", ["fillings"], fillings=s("fillings, as the customer lists them"),
            wraps=n("how many wraps", "integer"))


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # "and" inside one value (a dish, a title, a band) joins it: one call, the value whole
    ("season the dish with salt and pepper", [SEASON, ARTIST], [("season_dish", {"seasoning": "salt and pepper"})]),
    ("stream Tom and Jerry please", [CARTOON, ARTIST], [("stream_title", {"title": "Tom and Jerry"})]),
    ("play some Simon and Garfunkel songs", [ARTIST, CARTOON], [("play_artist", {"artist": "Simon and Garfunkel"})]),
    # a parameter named in the plural takes the things "and" lists as its one value
    ("two wraps with falafel and hummus", [WRAP, SEASON], [("order_wrap", {"fillings": "falafel and hummus", "wraps": 2})]),
])
def test_and_inside_one_value_is_no_second_call(question, tools, expected):
    assert calls(question, tools) == expected


BLINDS = tool("move_blinds", "Open or close the window blinds in a room.", ["room", "position"], room=s("which room"),
              position=s(enum=["open", "closed"]))
KETTLE = tool("boil_water", "Boil the kettle.", [])
ZH_BLINDS = tool("chuanglian", "开关某个房间的窗帘。", ["fangjian", "dongzuo"], fangjian=s("房间"),
                 dongzuo=s("动作", enum=["open", "close"]))

FANS = tool("ceiling_fan", "Switch the ceiling fan in a room.", ["room", "state"], room=s(), state=s(enum=["on", "off"]))
PILLS = tool("pill_alarm", "每天定时提醒吃药。", ["time"], time=s("提醒时间 HH:MM"), pills=n("几粒", "integer"))


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # a value named before the request, "and"-joined to the one the request names, is a call of its own with the rest
    ("the study and the kitchen blinds closed please", [BLINDS, KETTLE],
     [("move_blinds", {"room": "study", "position": "closed"}), ("move_blinds", {"room": "kitchen", "position": "closed"})]),
    ("书房和卧室的窗帘都拉开", [ZH_BLINDS, KETTLE],
     [("chuanglian", {"fangjian": "书房", "dongzuo": "open"}), ("chuanglian", {"fangjian": "卧室", "dongzuo": "open"})]),
    ("书房、客厅的窗帘都关上", [ZH_BLINDS, KETTLE],  # 、 lists as 和 does; 都 before the verb is "both", no word of a value
     [("chuanglian", {"fangjian": "书房", "dongzuo": "close"}), ("chuanglian", {"fangjian": "客厅", "dongzuo": "close"})]),
    ("卧室和书房的风扇都关掉", [FANS, KETTLE], [("ceiling_fan", {"room": "卧室", "state": "off"}),
                                        ("ceiling_fan", {"room": "书房", "state": "off"})]),
    # 和 between two times joins them ("and"), as it does two rooms; after a time before a person it is "with"
    ("早上8点和晚上9点各提醒我吃药", [PILLS, KETTLE], [("pill_alarm", {"time": "08:00"}), ("pill_alarm", {"time": "21:00"})]),
])
def test_a_value_named_before_the_request_is_a_call_of_its_own(question, tools, expected):
    assert calls(question, tools) == expected


LODGE = tool("reserve_cabin", "Reserve a cabin in a national park.", ["park", "arrive", "depart"], park=s("park name"),
             arrive=s("arrival day", format="date"), depart=s("departure day", format="date"))
KAYAK = tool("hire_kayak", "Hire a kayak.", ["park", "from_day", "to_day"], park=s("park name"),
             from_day=s("first day", format="date"), to_day=s("last day", format="date"))
FERRY = tool("ferry_times", "Ferry sailings by route number.", ["route"], route=s("route, e.g. 'R12'"),
             day=s("day of sailing", format="date"))
FLAT = tool("rent_flat", "Rent a holiday flat.", ["town", "start"], town=s("town"), start=s("first night", format="date"),
            guests=n("how many guests", "integer"))
PASS = tool("check_entry_rules", "Entry rules a country sets for its guests.", ["citizenship", "destination"],
            citizenship=s("passport country"), destination=s("country or town"))
FORECAST = tool("city_forecast", "Weather forecast for a city.", ["city"], city=s("city"), day=s("day", format="date"))
LODGING = tool("book_lodging", "Book a hotel room in a city.", ["city", "arrive", "leave"], city=s("city"),
               arrive=s("check-in day", format="date"), leave=s("check-out day", format="date"))


def test_a_clause_takes_the_values_of_its_kind_the_call_before_gave():
    """The second clause's call lacks values the first gave: it takes the call before's of their kind, the first day for
    the first day ("there for the same days"), a day it leaves out when it says "too", a place where it holds only its
    tool's own word ("那边的酒店"); a clause naming no word of its tool's name adds to the call before ("four guests")."""
    day = (dt.date.today() + dt.timedelta(days=1)).isoformat()
    cabin, kayak = calls("reserve a cabin in Yosemite from the 3rd to the 5th and hire a kayak there for the same days",
                         [LODGE, KAYAK])
    assert kayak == ("hire_kayak", {"park": "Yosemite", "from_day": cabin[1]["arrive"], "to_day": cabin[1]["depart"]})
    assert calls("ferry times for R12 tomorrow and R14 too", [FERRY]) == [
        ("ferry_times", {"route": "R12", "day": day}), ("ferry_times", {"route": "R14", "day": day})]
    assert calls("rent a flat in Bergen from tomorrow, four guests", [FLAT, PASS]) == [
        ("rent_flat", {"town": "Bergen", "start": day, "guests": 4})]
    assert calls("后天杭州天气怎么样？顺便订一间那边的酒店，后天入住大后天退房", [FORECAST, LODGING])[1][1]["city"] == "杭州"


COURT = tool("book_court", "Book a court at the sports centre.", ["sport", "date", "time"],
             sport=s("which court", enum=["tennis", "squash", "padel"]), date=s("the day", format="date"), time=s("start, HH:MM"))
GEAR = tool("hire_gear", "Hire sports equipment from the desk.", ["item", "date"], item=s("what to hire"),
            date=s("the day", format="date"), time=s("when to collect it, HH:MM"))
NOTE_TO_SELF = tool("remind", "Set a reminder.", ["message", "time"], message=s("what to remind"), time=s("HH:MM"),
                    date=s("the day", format="date"))


@pytest.mark.parametrize(("question", "expected"), [
    # a when before a colon leads the requests after it: no text to keep whole
    ("for 2026-07-01: book a padel court at 5pm and hire a racket",
     [("book_court", {"sport": "padel", "date": "2026-07-01", "time": "17:00"}),
      ("hire_gear", {"item": "racket", "date": "2026-07-01"})]),
    # "both for 6pm", "each at 7:30": the value of every request before it
    ("on 2026-05-10, book a tennis court and hire a ball machine, both for 6pm",
     [("book_court", {"sport": "tennis", "time": "18:00"}), ("hire_gear", {"item": "ball machine", "time": "18:00"})]),
    ("book a squash court on 2026-09-03 and a padel court on 2026-09-04, each at 7:30am",
     [("book_court", {"sport": "squash", "date": "2026-09-03", "time": "07:30"}),
      ("book_court", {"sport": "padel", "date": "2026-09-04", "time": "07:30"})]),
    # "for then" is the time said before, not a cut and no item
    ("at 8pm on 2026-08-14 book a squash court, and hire a racket for then too",
     [("book_court", {"sport": "squash", "time": "20:00"}),
      ("hire_gear", {"item": "racket", "date": "2026-08-14", "time": "20:00"})]),
])
def test_a_value_said_once_for_two_requests_is_each_ones(question, expected):
    made = calls(question, [COURT, GEAR])
    assert len(made) == len(expected)
    for (name, arguments), (want, values) in zip(made, expected, strict=True):
        assert name == want and {k: arguments.get(k) for k in values} == values


def test_what_to_be_reminded_of_follows_its_to_after_a_when():
    """ "remind me at 9am on 2026-06-02 to pay rent": the message is "pay rent", not "to pay rent"."""
    [(_, arguments)] = calls("remind me at 9am on 2026-06-02 to pay rent", [NOTE_TO_SELF])
    assert arguments == {"message": "pay rent", "time": "09:00", "date": "2026-06-02"}


TRIPS = tool("find_kayak_trips", "Find guided kayak trips from a launch site on a date.", ["site", "date"], site=s(),
             date=s(format="date"), people=n(kind="integer"))
PORTRAIT = tool("book_portrait", "Book a portrait session at the studio.", ["session", "date", "time", "client_name"],
                session=s(enum=["family", "headshot", "newborn"]), date=s(format="date"), time=s("HH:MM"), client_name=s())


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # the word before the first item said again before the next: still one call each
    ("Can you compare kayak trips from Keswick and from Ambleside for 2027-06-05? Two of us.", [TRIPS, PORTRAIT],
     [("find_kayak_trips", {"site": "Keswick", "date": "2027-06-05", "people": 2}),
      ("find_kayak_trips", {"site": "Ambleside", "date": "2027-06-05", "people": 2})]),
    # a count ("two sessions", "a family one") is nobody's name: the name said once, after both, is each call's
    ("I need two portrait sessions please. A family one on 2027-06-05 at 10am, and a headshot one on 2027-06-07 at 3pm. "
     "My name's Omar Haddad.", [PORTRAIT, TRIPS],
     [("book_portrait", {"session": "family", "date": "2027-06-05", "time": "10:00", "client_name": "Omar Haddad"}),
      ("book_portrait", {"session": "headshot", "date": "2027-06-07", "time": "15:00", "client_name": "Omar Haddad"})]),
])
def test_two_calls_said_with_their_words_repeated_or_counted(question, tools, expected):
    assert calls(question, tools) == expected


def test_a_pronoun_that_opens_the_request_is_nobodys_name():
    question = ("We'd like two portrait sessions. A newborn one on 2027-06-12 at 11am, and a family one on 2027-06-19 at 2pm. "
                "Booking name is Priya Nair.")
    assert [a["client_name"] for _, a in calls(question, [PORTRAIT, TRIPS])] == ["Priya Nair", "Priya Nair"]


INDUCTION = tool("book_fitness_intro", "Book an introductory session at a climbing gym.", ["member_name", "gym", "date", "time"],
                 member_name=s("Name of the member"), gym=s("Gym location"), date=s("YYYY-MM-DD", format="date"),
                 time=s("HH:MM"))
PIE = tool("order_pie", "Order a pie from the bakery for collection.", ["filling", "size", "pickup_date", "for_whom"],
           filling=s(enum=["apple", "cherry", "pecan"]), size=n("diameter in cm", "integer"),
           pickup_date=s("day of collection", format="date"), for_whom=s("whose party it is"))
TABLE = tool("hold_table", "Hold a restaurant table.", ["guests", "date"], guests=n("number of guests", "integer"),
             date=s("YYYY-MM-DD", format="date"), phone=s("contact phone"), booking_name=s("booking name"))


@pytest.mark.parametrize(("question", "tools", "expected"), [
    ("Can you book intro sessions at the Harbour gym on Saturday at 10:00: one for me, Ada Lowe, and one for my brother Tom Lowe",
     [INDUCTION, TABLE], [{"member_name": "Ada Lowe"}, {"member_name": "Tom Lowe"}]),
    ("I need two pies. A 20 cm apple one for Rosa to collect on Friday, and a 24 cm pecan one for Milo on Sunday.",
     [PIE, TABLE], [{"filling": "apple", "size": 20, "for_whom": "Rosa"}, {"filling": "pecan", "size": 24, "for_whom": "Milo"}]),
    ("intro sessions on Monday at the Harbour gym: Ada Lowe at 09:00; Tom Lowe at 11:00",
     [INDUCTION], [{"member_name": "Ada Lowe", "time": "09:00"}, {"member_name": "Tom Lowe", "time": "11:00"}]),
])
def test_a_request_told_once_with_a_part_for_each_call(question, tools, expected):
    """A head (up to a colon or a question mark) says what is shared; each part after it is one call's."""
    got = calls(question, tools)
    assert len(got) == len(expected)
    for (_, arguments), wanted in zip(got, expected, strict=True):
        assert {k: arguments.get(k) for k in wanted} == wanted


def test_a_part_said_for_every_call_goes_to_each():
    got = calls("Two pies please: a 20 cm apple one for Rosa and a 24 cm pecan one for Milo, both to collect on Saturday", [PIE])
    assert [(a["filling"], a["for_whom"]) for _, a in got] == [("apple", "Rosa"), ("pecan", "Milo")]
    assert got[0][1]["pickup_date"] == got[1][1]["pickup_date"] == dates.as_iso("Saturday")


def test_a_request_told_in_sentences_after_a_question_is_one_call():
    """Sentences after a question that each add a value of their own are one call's details, no part per call."""
    got = calls("Could you hold a table on Friday? It's for 4 people. My number is 07700 900555, name is Reyes.", [TABLE])
    assert got == [("hold_table", {"guests": 4, "date": got[0][1]["date"], "phone": "07700 900555", "booking_name": "Reyes"})]


def test_whose_party_it_is_names_a_person_not_a_day():
    """ "Whose birthday it is" describes a person: the day said is the pickup's, the name the person's."""
    [(_, arguments)] = calls("a 20 cm cherry pie for Dana, pick it up on Friday", [PIE])
    assert arguments["for_whom"] == "Dana" and arguments["pickup_date"].count("-") == 2


def test_two_postcodes_go_to_their_sides_and_no_postcode_is_read_from_a_phone_number():
    van = tool("book_van", "Book a van between two postcodes.", ["pickup_postcode", "dropoff_postcode", "phone"],
               pickup_postcode=s("Postcode to collect from"), dropoff_postcode=s("Postcode to deliver to"), phone=s("phone"))
    for question in ("a van to E8 3RL from N1 9GU, call me on 07400 555210",
                     "van from N1 9GU over to E8 3RL, any time is fine. my mobile is 07400 555210"):
        assert calls(question, [van]) == [("book_van", {"pickup_postcode": "N1 9GU", "dropoff_postcode": "E8 3RL",
                                                        "phone": "07400 555210"})]


@pytest.mark.parametrize(("question", "address"), [
    ("帮我约清洗空调，地址在丰台区方庄芳古园一区3号楼，两台", "丰台区方庄芳古园一区3号楼"),
    ("从朝阳区望京西园三区搬到通州区", "朝阳区望京西园三区"),
    ("送到番禺区市桥街光明北路2号", "番禺区市桥街光明北路2号"),
])
def test_a_chinese_address_is_kept_whole_with_its_estate_part_and_numbers(question, address):
    """An estate's part (一区, 三区) and its building, and a street after a town's, are one address, read as written."""
    assert f'"{address}"' in english(question)


TASTER = tool("book_pottery_taster", "Book a pottery taster session at a studio.", ["studio", "date", "people", "booking_name"],
              studio=s("Studio location"), date=s("YYYY-MM-DD", format="date"), people=n("Number of people", "integer"),
              booking_name=s("Name for the booking"), phone=s("Contact number"))


@pytest.mark.parametrize(("question", "tools", "name", "value"), [
    ("a 22 cm apple pie for my son Theo's party, pickup on Saturday", [PIE], "for_whom", "Theo"),
    ("need a cherry pie, 20 cm, for auntie rose. collecting on saturday", [PIE], "for_whom", "Auntie Rose"),
    ("I'd love a pottery taster for two. Could you book Lewes studio on Friday? My name is Omar Haddad.", [TASTER],
     "booking_name", "Omar Haddad"),
    ("Pottery taster for 2 at Lewes on Friday. It's for Jamal Reed.", [TASTER], "booking_name", "Jamal Reed"),
    ("订一个20厘米的苹果派，给小红过生日，周六来取", [PIE], "for_whom", "小红"),
    ("给我儿子乐乐约一节陶艺体验课，周五在Lewes工作室，一个人，上两个小时", [TASTER], "booking_name", "乐乐"),
])
def test_a_persons_name_is_the_name_said_not_a_word_around_it(question, tools, name, value):
    """A possessive, the sentence after a name, a pronoun ("I'd"), a place after "at" and a Chinese word shaped like a
    name (小时) are no part of anyone's name."""
    [(_, arguments)] = calls(question, tools)
    assert arguments[name] == value


@pytest.mark.parametrize(("question", "studio"), [
    ("book the pottery taster, Lewes studio, 2 people, Saturday, under Patel", "Lewes"),
    ("pottery taster at Hove on Friday for 3, name Ines Duarte", "Hove"),
])
def test_a_place_is_read_before_its_own_word_or_a_day(question, studio):
    [(_, arguments)] = calls(question, [TASTER])
    assert arguments["studio"] == studio


@pytest.mark.parametrize(("name", "description"), [
    ("booking_name", "Name for the booking"), ("order_name", ""), ("recipient_name", "Name of the recipient"),
    ("name", "Full name"), ("donor_name", "Name of the donor"), ("for_whom", "Whose birthday it is"),
])
def test_a_name_parameter_is_a_persons_whatever_its_first_word(name, description):
    from agentkit.offline.roles import role_of
    assert role_of(name, {"type": "string", "description": description})[0] == "person"


BOARD = tool("hire_board", "Hire paddleboards.", ["location", "date", "boards"],
             location=s("Where to hire, e.g. a lake or beach"), date=s("YYYY-MM-DD", format="date"),
             boards=n("how many boards", "integer"))
GALLERY = tool("book_gallery_entry", "Book timed entry to a gallery or museum.", ["museum", "date"],
               museum=s("Name of the museum"), date=s("YYYY-MM-DD", format="date"), visitors=n("number of visitors", "integer"))


@pytest.mark.parametrize(("question", "tools", "name", "place"), [
    ("我想租三块桨板，明天下午一点开始，在千岛湖，玩两个小时", [BOARD], "location", "千岛湖"),
    ("明天在奥体中心租两块桨板", [BOARD], "location", "奥体中心"),
    ("帮我订周日下午两点上海博物馆的票，三个人", [GALLERY], "museum", "上海博物馆"),
])
def test_a_chinese_place_no_table_knows_is_the_run_shaped_as_one(question, tools, name, place):
    """For an English-described place, the Chinese request's run that ends as a place does (湖, 中心, 博物馆), past the
    day and time before it, not the words read past it ("开始")."""
    [(_, arguments)] = calls(question, tools)
    assert arguments[name] == place


def test_a_known_city_said_in_chinese_stays_the_place():
    [(_, arguments)] = calls("周六在罗马租两块桨板", [BOARD])
    assert arguments["location"] in ("Rome", "罗马")


CURTAIN = tool("book_blind_fitting", "预约上门安装窗帘或百叶窗。", ["product", "count", "address", "date"],
               product=s("安装的产品", enum=["窗帘", "百叶窗"]), count=n("数量", "integer"), address=s("上门地址"),
               date=s("日期", format="date"))


def test_a_chinese_request_with_a_part_per_listed_item_is_a_call_per_item():
    got = calls("窗帘和百叶窗都要装：窗帘三幅，百叶窗两个，都约周六，地址海淀区学院路30号", [CURTAIN])
    assert [(a["product"], a["count"], a["address"]) for _, a in got] == [
        ("窗帘", 3, "海淀区学院路30号"), ("百叶窗", 2, "海淀区学院路30号")]


def test_an_address_after_its_label_without_a_verb_leaves_the_label_out():
    [(_, arguments)] = calls("约周六装三幅窗帘，地址朝阳区建国路88号", [CURTAIN])
    assert arguments["address"] == "朝阳区建国路88号"


WHEEL = tool("book_wheel_session", "Book a pottery wheel session at a studio.", ["studio", "date", "people", "booking_name"],
             studio=s("Studio location"), date=s("YYYY-MM-DD", format="date"), people=n("Number of people", "integer"),
             booking_name=s("Name for the booking"), notes=s("Anything the teacher should know"))


@pytest.mark.parametrize("question", [
    "Could you book the wheel at Lewes studio on Friday for 2? Name's Ada Cole. Mostly we want to try glazing.",
    "Book a wheel session at Lewes on Friday for 2 people. I'm Ada Cole, and I've been before.",
])
def test_a_request_told_in_several_sentences_is_one_call(question):
    """A sentence that adds a detail and opens with no word of the tool's name is no other call; nor is a second call
    that, once the values said once are shared, is the first again."""
    [(_, arguments)] = calls(question, [WHEEL])
    assert (arguments["studio"], arguments["people"], arguments["booking_name"]) == ("Lewes", 2, "Ada Cole")
