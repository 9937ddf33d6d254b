"""Free-text arguments (a title, an item, an activity) are read last, from what the other parameters left over."""

from __future__ import annotations

import json

import pytest

from agentkit.offline import OfflineModel


def tool(name, description, required=(), **properties):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": list(required)}}}


def calls(question, tools):
    reply = OfflineModel().respond({"model": "m", "messages": [{"role": "user", "content": question}], "tools": tools})
    return [(call.name, json.loads(call.arguments)) for call in reply.tool_calls]


TEXT, WHOLE = {"type": "string"}, {"type": "integer"}
BAKE = tool("bake_timer", "Start a baking timer.", ["dish", "minutes"], dish={"type": "string", "description": "what is baking"},
            minutes={"type": "integer", "description": "minutes to bake"})
SEATS = tool("reserve_seats", "Reserve seats for a show.", ["show", "seats"], show=TEXT, seats=WHOLE)
MEETING = tool("plan_meeting", "Plan a meeting.", ["topic", "day"], topic=TEXT,
               day={"type": "string", "description": "YYYY-MM-DD"})
STRETCH = tool("log_exercise", "Log an exercise session.", ["sport", "reps"],
               sport={"type": "string", "description": "The sport, e.g. rowing, squats, plank"}, reps=WHOLE)


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # the number and the unit it was counted in went to another parameter: they are not the text
    ("bake the banana bread for 50 minutes", [BAKE], [("bake_timer", {"dish": "banana bread", "minutes": 50})]),
    ("reserve hamilton, 4 seats", [SEATS], [("reserve_seats", {"show": "hamilton", "seats": 4})]),
    # a date the other parameter took is not the topic, even when it comes first in the sentence
    ("plan budget review on 2027-02-03", [MEETING], [("plan_meeting", {"topic": "budget review", "day": "2027-02-03"})]),
    # the value is one of the description's own examples: the tool's words, but named by the learner
    ("did 30 reps of squats, log it", [STRETCH], [("log_exercise", {"sport": "squats", "reps": 30})]),
])
def test_free_text_is_what_the_other_parameters_left(question, tools, expected):
    assert calls(question, tools) == expected


UNITS = ["km", "mi", "m", "ft", "cm"]
LENGTH = tool("length", "Convert a length.", ["amount", "source", "target"], amount={"type": "number"},
              source={"type": "string", "description": "unit to convert from", "enum": UNITS},
              target={"type": "string", "description": "unit to convert into", "enum": UNITS})


@pytest.mark.parametrize(("question", "expected"), [
    # a unit word names the option it abbreviates, even when a wider line ("distance km miles") links it to another
    ("42 kilometres in miles please", {"amount": 42, "source": "km", "target": "mi"}),
    ("6 feet in centimetres", {"amount": 6, "source": "ft", "target": "cm"}),
])
def test_a_unit_word_names_its_abbreviated_option(question, expected):
    assert calls(question, [LENGTH]) == [("length", expected)]


JUICE = tool("pour", "Pour a drink.", ["volume_ml"], volume_ml={"type": "integer", "description": "millilitres to pour"})
RIDE = tool("ride_log", "Log a bike ride.", ["distance_km"], distance_km={"type": "number", "description": "kilometres"})


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # a number written against its unit is still a number ("330ml", "12.5km")
    ("pour 330ml", [JUICE], [("pour", {"volume_ml": 330})]),
    ("log a 12.5km bike ride", [RIDE], [("ride_log", {"distance_km": 12.5})]),
])
def test_a_number_glued_to_its_unit_is_read(question, tools, expected):
    assert calls(question, tools) == expected


NUDGE = tool("set_alarm_note", "Set an alarm with a note to show.", ["note", "time"],
             note={"type": "string", "description": "what to show when it rings"},
             time={"type": "string", "description": "HH:MM"})
TELL = tool("message_friend", "Send a message to a friend.", ["friend", "text"], friend=TEXT, text=TEXT)


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # a day the tool has no parameter for says when, it is not what the note says (the day before or after it)
    ("Set an alarm on Saturday at 7am to water the plants", [NUDGE],
     [("set_alarm_note", {"note": "water the plants", "time": "07:00"})]),
    ("Set an alarm to water the plants on Saturday at 7am", [NUDGE],
     [("set_alarm_note", {"note": "water the plants", "time": "07:00"})]),
    ("设个闹钟提醒我后天下午4点去交水费", [NUDGE], [("set_alarm_note", {"note": "交水费", "time": "16:00"})]),
    # but a day inside what is said stays in it
    ("Message Priya that the party moved to Saturday", [TELL],
     [("message_friend", {"friend": "Priya", "text": "the party moved to Saturday"})]),
])
def test_the_day_a_request_is_for_is_not_the_text_to_show(question, tools, expected):
    assert calls(question, tools) == expected


DAILY = tool("remind_daily", "Remind me every day at a time.", ["text", "time"], text=TEXT,
             time={"type": "string", "description": "Time of day, HH:MM"})


@pytest.mark.parametrize("question", ["starting Monday, remind me every day at 7:45 to water the plants",
                                      "从周一开始，每天7点45提醒我浇花"])
def test_a_day_never_fills_a_parameter_whose_format_is_a_clock_time(question):
    """A time of day written HH:MM takes no "Monday" (nor a date YYYY-MM-DD a clock time): the clause that has only the
    day makes no call of its own with it."""
    assert [arguments["time"] for _, arguments in calls(question, [DAILY])] == ["07:45"]


SPENT = tool("log_expense", "Log an expense.", ["amount", "category"], amount={"type": "number"},
             category={"type": "string", "description": "The category, e.g. food, transport, rent"})
SPENT_ZH = tool("记账", "记一笔支出", ["amount", "category"], amount={"type": "number", "description": "金额（元）"},
                category={"type": "string", "description": "类别，如餐饮、交通"})


@pytest.mark.parametrize(("question", "tools", "category"), [
    ("I spent 35 on lunch, log it", [SPENT], "food"),
    ("log 12.50 for a taxi", [SPENT], "transport"),
    ("午饭花了35块，记一下", [SPENT_ZH], "餐饮"),
])
def test_a_thing_of_a_kind_the_description_lists_gives_that_example(question, tools, category):
    """ "e.g. food, transport": lunch is food, as a real model files it; the example as the description writes it (a
    Chinese description's "餐饮"), found through the same meaning table the tool scores use."""
    assert [arguments["category"] for _, arguments in calls(question, tools)] == [category]


POCKET = tool("pocket_money", "Write down an entry of pocket money.", ["amount", "kind"], amount={"type": "number"},
              kind={"type": "string", "description": "The kind of spending, e.g. food, transport, fun"})
WAKE_UP = tool("morning_alarm", "Sets an alarm.", ["at"], at={"type": "string", "description": "HH:MM"})
PING = tool("schedule_ping", "Show a ping on the watch.", ["text", "at"], text={"type": "string"},
            at={"type": "string", "description": "HH:MM"})


@pytest.mark.parametrize(("question", "kind"), [
    ("log 3.20 for the tram", "transport"),  # a way of travelling is transport
    ("note 11 for a subway fare", "transport"),
    ("log 18 for a film tonight", "fun"),  # a show one goes to is fun
    ("write down 45 for the theatre", "fun"),
])
def test_a_way_of_travelling_or_a_show_is_of_its_kind(question, kind):
    """The meaning table links a tram, a subway fare to "transport" and a film, a theatre to "fun" (the examples a
    category's description lists); "log" is writing down an entry."""
    assert [arguments["kind"] for _, arguments in calls(question, [POCKET])] == [kind]


@pytest.mark.parametrize("question", ["please wake me up tomorrow at 6:40", "wake me up tomorrow at 5"])
def test_waking_someone_up_is_an_alarm(question):
    """ "wake me up" is an alarm, though "tomorrow" is a word a scheduling tool is named for too."""
    assert [name for name, _ in calls(question, [PING, WAKE_UP])] == ["morning_alarm"]


CHORE = tool("chore_nudge", "Nudge me about a chore every day.", ["chore", "at"], chore={"type": "string"},
             at={"type": "string", "description": "HH:MM"})


@pytest.mark.parametrize(("question", "chore", "at"), [
    ("nudge me every day, starting tomorrow at 18:30, to sweep the porch", "sweep the porch", "18:30"),
    ("nudge me every day, beginning on Sunday at 7:10, to walk the dog", "walk the dog", "07:10"),
    ("nudge me every day, from next Monday at 6:50, to stretch", "stretch", "06:50"),
])
def test_a_lead_into_the_when_is_part_of_the_when(question, chore, at):
    """ "starting tomorrow", "beginning on Sunday", "from next Monday" say when the nudges start: not the chore, and
    no second call with its own text."""
    assert calls(question, [CHORE]) == [("chore_nudge", {"chore": chore, "at": at})]


JOT = tool("jot_spending", "Jot down a spending.", ["amount", "kind", "what"], amount={"type": "number"},
           kind={"type": "string", "description": "The kind, e.g. food, transport, fun"},
           what={"type": "string", "description": "What the money went on"})
PURSE = tool("purse_entry", "Record money spent from the purse.", ["amount", "currency"], amount={"type": "number"},
             currency={"type": "string", "description": "ISO code"},
             kind={"type": "string", "enum": ["food", "transport", "fun", "other"]})


@pytest.mark.parametrize(("question", "expected"), [
    ("I spent 6 on a bus and 14 on lunch", [(6, "transport", "bus"), (14, "food", "lunch")]),
    ("I spent 3 GBP on a tram and 9 GBP on dinner", [(3, "transport", "tram"), (9, "food", "dinner")]),
])
def test_each_amount_takes_the_words_next_to_it(question, expected):
    """Two amounts, each with its own thing: the first call's note is its own word ("bus", freed once the kind took
    its example from it), never the other call's."""
    assert [(a["amount"], a["kind"], a["what"]) for _, a in calls(question, [JOT])] == expected


@pytest.mark.parametrize("question", ["打车15元，晚饭30元", "taxi 9 EUR, lunch 11 EUR"])
def test_a_thing_before_its_amount_is_read_without_the_thing_before(question):
    """ "打车15元，晚饭30元" (taxi 15 yuan, dinner 30 yuan): the second call is dinner's alone, not read with "taxi"."""
    assert [a.get("kind") for _, a in calls(question, [PURSE])] == ["transport", "food"]


DELIVERY = tool("order_meal", "Order a meal to be delivered.", ["shop", "meal"],
                shop={"type": "string", "description": "Name of the shop"},
                meal={"type": "string", "description": "Which meal to bring"}, servings={"type": "integer"})


@pytest.mark.parametrize(("question", "expected"), [
    ("order lamb biryani from Spice Corner", {"shop": "Spice Corner", "meal": "lamb biryani"}),
    ("从川味小馆订三份水煮鱼", {"shop": "川味小馆", "meal": "水煮鱼", "servings": 3}),
])
def test_two_free_texts_each_take_their_own_words(question, expected):
    """A meal and the place it comes from, both free text: the place is the phrase its cue ("from", 从) marks, the meal
    what is left, never the whole sentence twice."""
    assert calls(question, [DELIVERY]) == [("order_meal", expected)]


KILN = tool("kiln_timer", "Start a kiln timer.", ["minutes"], minutes={"type": "integer", "description": "minutes to fire"},
            label={"type": "string", "description": "Optional name shown on the display, e.g. 'glaze'"})


@pytest.mark.parametrize(("question", "expected"), [
    ("start a 40 minute kiln timer for the blue bowls", {"minutes": 40, "label": "blue bowls"}),
    ("kiln timer for the mugs, 25 minutes", {"minutes": 25, "label": "mugs"}),
    ("glaze kiln timer, 30 minutes", {"minutes": 30, "label": "glaze"}),
    ("start a kiln timer for 15 minutes", {"minutes": 15}),  # no words marked for the name: it is left out
])
def test_an_optional_name_is_filled_when_the_sentence_marks_it(question, expected):
    """An optional free text is the phrase after "for" (or an example its description gives), never the words left over."""
    assert calls(question, [KILN]) == [("kiln_timer", expected)]


HOUSE_CHORE = tool("add_chore", "Add a chore to the house list.", ["chore"], chore=TEXT,
             importance={"type": "string", "enum": ["low", "normal", "urgent"]})


@pytest.mark.parametrize("question", ["add a chore: clean the gutters, urgent importance",
                                      "add a chore: clean the gutters, importance urgent",
                                      "onto the house list: clean the gutters, urgent importance"])
def test_a_text_ends_where_a_comma_brings_another_parameter(question):
    """ "…, urgent importance": the other parameter's word, a word before it or not, ends the text."""
    assert calls(question, [HOUSE_CHORE]) == [("add_chore", {"chore": "clean the gutters", "importance": "urgent"})]


WHO = {"type": "string", "description": "the person to page"}
PAGER = tool("page_colleague", "Page someone at work.", ["colleague", "note"], colleague=WHO,
             note={"type": "string", "description": "the message"})
PAGER_AT = tool("page_later", "Page someone at work at a set time.", ["colleague", "note"], colleague=WHO,
                note={"type": "string", "description": "the message"}, at={"type": "string", "description": "HH:MM"})


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # what is said after "that" is the message whole, its own "by 4" and "on monday" too
    ("page Omar that the report is due by 4", [PAGER], {"colleague": "Omar", "note": "the report is due by 4"}),
    ("page Lin that we meet on monday", [PAGER], {"colleague": "Lin", "note": "we meet on monday"}),
    # a time a parameter of its own takes is no part of the message
    ("page Omar at 16:00 that the van is here", [PAGER_AT], {"colleague": "Omar", "note": "the van is here", "at": "16:00"}),
])
def test_a_when_inside_what_is_said_belongs_to_it(question, tools, expected):
    assert calls(question, tools) == [(tools[0]["function"]["name"], expected)]


RECORD = tool("stream_record", "Stream a record on the hi-fi.", ["record"],
              record={"type": "string", "description": "Record title"},
              band={"type": "string", "description": "The artist who made it"})
PRINT = tool("order_print", "Order a framed print.", ["print_name"], print_name={"type": "string", "description": "Which print"},
             painter={"type": "string", "description": "The artist, if said"})


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # "by" and a name after what is asked for: who made it, not more of its title
    ("stream blue train by john coltrane", [RECORD], {"record": "blue train", "band": "John Coltrane"}),
    ("order a print of the water lilies by monet", [PRINT], {"print_name": "water lilies", "painter": "Monet"}),
    ("stream kind of blue", [RECORD], {"record": "kind of blue"}),  # no "by": no artist made up
])
def test_who_made_it_is_the_name_after_by(question, tools, expected):
    assert calls(question, tools) == [(tools[0]["function"]["name"], expected)]


STOPWATCH = tool("kitchen_countdown", "Run a kitchen countdown.", ["seconds"], seconds=WHOLE,
                 label={"type": "string", "description": "optional name shown when it ends"})
NAG = tool("nag_me", "A nag notification at a time.", ["at"], at={"type": "string", "description": "HH:MM"},
           caption={"type": "string", "description": "Title of the nag"})


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # the word before the tool's own word names this one ("a rice countdown", "gym nag"): the optional label
    ("rice countdown 900 seconds", [STOPWATCH], {"seconds": 900, "label": "rice"}),
    ("start a steak countdown of 240 seconds", [STOPWATCH], {"seconds": 240, "label": "steak"}),
    ("gym nag at 17:30", [NAG], {"at": "17:30", "caption": "gym"}),
    ("countdown 60 seconds", [STOPWATCH], {"seconds": 60}),  # none said: none made up
])
def test_the_word_before_the_tools_own_word_is_its_label(question, tools, expected):
    assert calls(question, tools) == [(tools[0]["function"]["name"], expected)]


HOUSEWORK = tool("add_chore", "Add a household chore.", ["chore"], chore={"type": "string", "description": "What to do"},
                 day={"type": "string", "description": "Day it is due, YYYY-MM-DD"})


@pytest.mark.parametrize(("question", "chore"), [
    # a word and a dash lead the text as a colon does: all of it, its "for" and "about" too
    ("chores - ring the garage about the mot", "ring the garage about the mot"),
    ("chore -- fix the gate for mum", "fix the gate for mum"),
])
def test_a_dash_after_a_word_leads_the_text_as_a_colon_does(question, chore):
    assert calls(question, [HOUSEWORK]) == [("add_chore", {"chore": chore})]


# a free text is a span of the sentence: it starts after its kind's cue and ends by structure
POSTCARD = tool("send_postcard", "Mail a postcard.", ["friend", "topic", "message"], friend=TEXT,
                topic={"type": "string", "description": "What the picture side shows"},
                message={"type": "string", "description": "Handwritten text on the back"})
ABSENCE = tool("report_absence", "Report a pupil absent from school.", ["pupil", "day", "reason"], pupil=TEXT,
               day={"type": "string", "description": "YYYY-MM-DD"}, reason=TEXT)
FREEZER = tool("add_reminder", "Remind the user of a chore.", ["text"], text={"type": "string", "description": "the chore"},
             date={"type": "string", "description": "YYYY-MM-DD"})
INTERPRET = tool("interpret", "Put a sentence into another language.", ["text", "target_language"], text=TEXT,
                 target_language={"type": "string", "description": "e.g. Italian"})


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # the cue of each text decides which is which; a when inside the message is part of what is said
    ("send a postcard to Nana about our trip to Crete, saying we land at 5 on sunday", [POSTCARD],
     {"friend": "Nana", "topic": "our trip to Crete", "message": "we land at 5 on sunday"}),
    # "because" starts a reason, the sentence's end ends it; the day went to its own parameter
    ("report Tom absent on 2027-03-02 because he has the flu", [ABSENCE],
     {"pupil": "Tom", "day": "2027-03-02", "reason": "he has the flu"}),
    # "remind ... to" is the object of the request; the day another parameter takes and "pls" end it
    ("remind me on 2027-01-09 to defrost the freezer pls", [FREEZER], {"text": "defrost the freezer", "date": "2027-01-09"}),
    # the object of "translate" ends where the language another parameter takes begins, "into" with it
    ("translate how much is the ferry into Italian", [INTERPRET],
     {"text": "how much is the ferry", "target_language": "Italian"}),
])
def test_a_free_text_is_a_span_chosen_by_its_cue_and_the_sentences_structure(question, tools, expected):
    assert calls(question, tools) == [(tools[0]["function"]["name"], expected)]


HUNT = tool("search_recipes", "Search a recipe site.", ["query"], query=TEXT)
DIARY = tool("log_energy", "Log today's energy level.", ["level"], level={"type": "string", "enum": ["high", "low"]},
             comment=TEXT)


MEMO = tool("jot_down", "Jot down a memo.", ["memo"], memo=TEXT, details=TEXT)
RADIO = tool("radio_base", "Radio a message to the base.", ["message"], message=TEXT)


def test_without_a_cue_a_required_text_is_the_object_of_the_requests_verb():
    """ "jot down that ...": the statement after "that" is the required text, whole, numbers and when included."""
    assert calls("jot down that the boiler code is 4471", [MEMO]) == [
        ("jot_down", {"memo": "the boiler code is 4471"})]
    assert calls("radio base that we dock at 6", [RADIO]) == [("radio_base", {"message": "we dock at 6"})]


MEAL = tool("rate_meal", "Rate a meal you ate.", ["dish", "stars"], dish=TEXT, stars=WHOLE, comment=TEXT)


def test_a_dash_after_what_is_rated_starts_the_comment():
    """ "3 stars for the green curry - far too salty": what follows " - " is a remark, an optional text marked by it."""
    assert calls("3 stars for the green curry - far too salty", [MEAL]) == [
        ("rate_meal", {"dish": "green curry", "stars": 3, "comment": "far too salty"})]


LOCKER = tool("open_locker", "Open a gym locker.", ["locker_code"], locker_code=TEXT)


def test_a_search_drops_evaluative_lead_words_and_a_text_never_repeats_a_chosen_option():
    assert calls("any good lentil soup recipes?", [HUNT]) == [("search_recipes", {"query": "lentil soup"})]
    assert calls("energy: low. slept badly", [DIARY]) == [("log_energy", {"level": "low", "comment": "slept badly"})]
    # a code after its label's word keeps the hyphen between its letters and digits: no free text's words
    assert calls("open locker GY-4410", [LOCKER]) == [("open_locker", {"locker_code": "GY-4410"})]


SHARE = tool("make_share", "Make a new directory on the team share.", ["directory_name"],
             directory_name={"type": "string", "description": "what to call it"})
ISSUE = tool("open_issue", "Open a maintenance issue.", ["topic"], topic=TEXT)
MINUTES = tool("file_minutes", "File the minutes of a meeting.", ["title", "body"], title=TEXT, body=TEXT)


def test_a_name_the_sentence_marks_is_found_whatever_kind_its_parameter_reads_as():
    """ "a directory named quarterly reports 2026": `directory_name` reads as a path, but its name's word says it is a name, and
    "named" marks one. It is taken, not asked for; "re" (no colon) marks what an issue is about, up to a clause break."""
    assert calls("make a directory named quarterly reports 2026", [SHARE]) == [
        ("make_share", {"directory_name": "quarterly reports 2026"})]
    assert calls("open an issue re lift on level 2 stuck again", [ISSUE]) == [
        ("open_issue", {"topic": "lift on level 2 stuck again"})]
    # "re" names a title too, and a colon ends it: what follows is another text
    assert calls("minutes re the fire drill: everyone out in 4 minutes", [MINUTES]) == [
        ("file_minutes", {"title": "the fire drill", "body": "everyone out in 4 minutes"})]


TAB = tool("add_to_tab", "Add a charge to the bar tab.", ["amount", "note"], amount={"type": "number"},
           note={"type": "string", "description": "what the charge was for"})


def test_a_required_body_with_no_cue_runs_to_the_end_of_its_clause():
    """ "charge 18, nachos with the band": a note is said, not named: it runs on through "with" to its
    clause's end, where a title would stop at the first word no name runs through."""
    assert calls("charge 18, nachos with the band", [TAB]) == [
        ("add_to_tab", {"amount": 18, "note": "nachos with the band"})]


ALIAS = tool("set_alias", "Give a saved contact an alias.", ["contact", "alias"],
             contact={"type": "string", "description": "the contact's name"}, alias={"type": "string", "description": "alias"})


def test_a_person_named_as_whose_is_the_person_not_the_possessive():
    """ "change Marguerite's alias to Daisy": the contact is Marguerite; her "'s" says whose alias, it is no name."""
    assert calls("change Marguerite's alias to Daisy", [ALIAS]) == [
        ("set_alias", {"contact": "Marguerite", "alias": "Daisy"})]


KEYS = tool("lend_out", "Note who borrowed a shared thing.", ["thing", "holder"],
            thing={"type": "string", "description": "what was handed over"},
            holder={"type": "string", "description": "the person who has it now"})


@pytest.mark.parametrize(("question", "expected"), [
    ("Priya borrowed the spare keys", {"thing": "spare keys", "holder": "Priya"}),
    ("Lena borrowed my tripod", {"thing": "tripod", "holder": "Lena"}),
    ("my tripod was borrowed by Lena", {"thing": "tripod", "holder": "Lena"}),
    ("那把雨伞借给了老李", {"thing": "雨伞", "holder": "老李"}),
])
def test_two_free_texts_take_two_phrases_the_name_first(question, expected):
    """A person and a thing, both free text: the name reads first (by its capitals), and the thing is
    read from the words it left, never the same phrase twice ("Priya borrowed the spare keys": not Priya twice)."""
    assert calls(question, [KEYS]) == [("lend_out", expected)]


COACH = tool("book_coach", "Book a lesson with a sports coach.", ["sport", "coach"],
             sport={"type": "string", "description": "The sport to practise"},
             coach={"type": "string", "description": "The coach's name"})


@pytest.mark.parametrize(("question", "expected"), [
    ("Tobias Lind coaches me in fencing", {"sport": "fencing", "coach": "Tobias Lind"}),
    ("Marek coaches me in judo", {"sport": "judo", "coach": "Marek"}),
])
def test_a_name_that_starts_the_sentence_is_its_subject_with_its_verb(question, expected):
    """ "Tobias Lind coaches me in fencing": a capitalised first word followed by a name and a verb with its object is
    the name's first word, not a request's verb; the person takes the name, and the verb goes with it (the sport is
    "fencing", not "coaches")."""
    assert calls(question, [COACH]) == [("book_coach", expected)]


PRESENT = tool("note_present", "Keep a present idea for someone.", ["present", "person"],
               present={"type": "string", "description": "The present"},
               person={"type": "string", "description": "Who it is for"})


def test_a_text_ends_before_the_value_another_slot_took():
    """ "present idea: a kite for Leo": Leo is the person's; the present ends before "for Leo", its lead with it."""
    assert calls("present idea: a kite for Leo", [PRESENT]) == [("note_present", {"present": "a kite", "person": "Leo"})]


LESSON = tool("book_lesson", "Book a music lesson.", ["instrument", "teacher"],
              instrument={"type": "string", "description": "The instrument"},
              teacher={"type": "string", "description": "The teacher's name"})


@pytest.mark.parametrize(("question", "expected"), [
    ("book a cello lesson with Ms. Varga", {"instrument": "cello", "teacher": "Ms. Varga"}),
    ("Prof. Hanna Berg teaches me violin, book a lesson", {"instrument": "violin", "teacher": "Prof. Hanna Berg"}),
])
def test_a_title_before_a_name_is_the_names_and_the_name_is_the_persons(question, expected):
    """ "Ms. Varga": the dot after a title ends no sentence, the name is whole; after "with" (or opening the sentence)
    the name is the person's, never the title text of the slot beside it."""
    assert calls(question, [LESSON]) == [("book_lesson", expected)]


CARD = tool("add_card", "Add a card to a kanban board.", ["card_title"],
            card_title={"type": "string", "description": "What the card says"},
            board={"type": "string", "description": "Which board"})


@pytest.mark.parametrize("question", ["add a card: descale the kettle", "new card - descale the kettle"])
def test_an_optional_text_never_repeats_the_required_ones(question):
    """ "add a card: descale the kettle": the colon's text is the card's; the optional board is not given, and is left
    out rather than given the same words."""
    assert calls(question, [CARD]) == [("add_card", {"card_title": "descale the kettle"})]


PANTRY = tool("restock_pantry", "Restock something in the pantry.", ["product"],
              product={"type": "string", "description": "What ran out"},
              vendor={"type": "string", "description": "Supplier to reorder from, optional"})
LAMP = tool("buy_lamp", "Order a lamp.", ["style"], style={"type": "string", "description": "What the lamp looks like"},
            maker={"type": "string", "description": "Brand of the lamp"})


@pytest.mark.parametrize(("question", "tools", "expected"), [
    ("restock basmati rice from bulkbarn", [PANTRY], ("restock_pantry", {"product": "basmati rice", "vendor": "Bulkbarn"})),
    ("restock olive oil at Grocerio please", [PANTRY], ("restock_pantry", {"product": "olive oil", "vendor": "Grocerio"})),
    ("buy something art deco from Lumora", [LAMP], ("buy_lamp", {"style": "something art deco", "maker": "Lumora"})),
    ("restock the coffee beans", [PANTRY], ("restock_pantry", {"product": "coffee beans"})),
])
def test_an_optional_seller_takes_the_words_after_from_or_at_though_no_table_knows_them(question, tools, expected):
    """A slot for who sells the thing (a shop, a brand, a supplier) takes "from X"/"at X" though X is no known place;
    the thing bought is then what is left ("basmati rice", not "basmati rice from bulkbarn")."""
    assert calls(question, tools) == [expected]


PRESENCE = tool("update_presence", "Update my presence line in the team chat.", ["presence"],
                presence={"type": "string", "description": "Text shown next to my name"})
LOOKUP = tool("look_up", "Look something up on the web.", ["query"], query={"type": "string", "description": "What to look up"})
HEADLINES = tool("headlines", "Latest headlines on a subject.", ["subject"], subject={"type": "string", "description": "Subject"},
                 region={"type": "string", "description": "Region code, e.g. US"})


@pytest.mark.parametrize(("question", "tools", "expected"), [
    ("set my presence to buried in paperwork", [PRESENCE], ("update_presence", {"presence": "buried in paperwork"})),
    ("update my presence to out at the dentist", [PRESENCE], ("update_presence", {"presence": "out at the dentist"})),
    ("search for vegan bakeries in Leeds", [LOOKUP], ("look_up", {"query": "vegan bakeries in Leeds"})),
    ("search for vegan bakeries open on sunday", [LOOKUP], ("look_up", {"query": "vegan bakeries open"})),
    ("headlines on solar panels in UK", [HEADLINES], ("headlines", {"subject": "solar panels", "region": "GB"})),
])
def test_a_text_keeps_a_phrase_of_its_own_and_ends_before_a_when(question, tools, expected):
    """ "buried in paperwork", "vegan bakeries in Leeds": a text's "in", "on", "at" phrase is its own words; only a when
    ("on sunday", "at 5pm", "in the morning") or a price ("under $20") at its end is another value, left out."""
    assert calls(question, tools) == [expected]


STOCK = tool("gear_stock", "Check whether an instrument is in stock in a city.", ["instrument", "city"],
             instrument={"type": "string", "description": "The instrument"}, city={"type": "string", "description": "City"})


def test_a_place_another_slot_took_ends_the_text_at_its_lead():
    """ "a cello in Vienna's music stores": Vienna is the city's; its "in" and the rest of its clause are the place's
    words too, not the instrument's."""
    assert calls("check stock for a cello in Vienna's music stores", [STOCK]) == [
        ("gear_stock", {"instrument": "cello", "city": "Vienna"})]


BOARD_CARD = tool("add_board_card", "Add a card to a project board.", ["card_title"],
            card_title={"type": "string", "description": "What the card says"},
            column={"type": "string", "description": "The column to put it in (optional)"})
POTTERY = tool("book_lesson", "Book a lesson.", ["subject"], subject={"type": "string", "description": "What the lesson is in"},
               student={"type": "string", "description": "The pupil's name"})
READING = tool("add_paper", "Add a paper to the reading queue.", ["title"],
               title={"type": "string", "description": "Paper title."}, author={"type": "string", "description": "Who wrote it."})


@pytest.mark.parametrize(("question", "tools", "expected"), [
    # a colon after "the Doing column" opens the card's text: the column is what names it, not what follows
    ("add a card to the Doing column: fix login bug", [BOARD_CARD],
     [("add_board_card", {"card_title": "fix login bug", "column": "Doing"})]),
    # beside a person, a name after "for" or "by" is the person's, and the title is the words left
    ("book a pottery lesson for Mia", [POTTERY], [("book_lesson", {"subject": "pottery", "student": "Mia"})]),
    ("queue Attention Is All You Need by Vaswani", [READING],
     [("add_paper", {"title": "Attention Is All You Need", "author": "Vaswani"})]),
    # "for both Mia and Leo": a call for each, the rest shared
    ("book a pottery lesson for both Mia and Leo", [POTTERY], [("book_lesson", {"subject": "pottery", "student": "Mia"}),
                                                             ("book_lesson", {"subject": "pottery", "student": "Leo"})]),
])
def test_a_value_named_by_its_parameter_or_its_person_goes_to_it(question, tools, expected):
    assert calls(question, tools) == expected
