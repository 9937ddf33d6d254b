"""The offline model's *converse* stage: the conversation's state, and follow-ups and corrections that change one value."""

import datetime as dt
import json
import re

import pytest

from agentkit.offline import OfflineModel
from agentkit.offline.conversation import Conversation, PastCall


def _tool(name, description, properties, required):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": required}}}


LOCKER = _tool("rent_locker", "Rent a luggage locker at a station", {
    "station": {"type": "string"}, "size": {"type": "string", "enum": ["S", "M", "L"]},
    "hours": {"type": "integer", "description": "how many hours"}, "day": {"type": "string", "format": "date"}},
    ["station", "hours"])
FERRY = _tool("ferry_times", "Ferry departures between two ports", {
    "from_port": {"type": "string"}, "to_port": {"type": "string"}}, ["from_port", "to_port"])
SEEDS = _tool("order_seeds", "Order packets of seeds", {"variety": {"type": "string"}, "packets": {"type": "integer"}},
              ["variety", "packets"])
QUIET = _tool("noise_level", "Noise level in a district", {"district": {"type": "string"}}, ["district"])


def _turn(name, *arguments, results=None):
    calls = [{"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(a)}}
             for i, a in enumerate(arguments)]
    results = results or ["ok"] * len(arguments)
    return [{"role": "user", "content": "first request"}, {"role": "assistant", "content": None, "tool_calls": calls},
            *({"role": "tool", "tool_call_id": f"c{i}", "content": r} for i, r in enumerate(results)),
            {"role": "assistant", "content": "Done."}]


def _calls(tools, history, message):
    reply = OfflineModel().respond({"messages": [*history, {"role": "user", "content": message}], "tools": tools})
    return [(c.name, json.loads(c.arguments)) for c in reply.tool_calls]


def test_the_state_is_the_last_turns_calls_with_their_results():
    history = _turn("noise_level", {"district": "Mitte"}, {"district": "Pankow"}, results=["52 dB", "47 dB"])
    state = Conversation.of([*history, {"role": "user", "content": "and Wedding?"}])
    assert state.calls == (PastCall("noise_level", {"district": "Mitte"}, "52 dB"),
                           PastCall("noise_level", {"district": "Pankow"}, "47 dB"))
    assert state.last_result == "47 dB"
    assert Conversation.of([{"role": "user", "content": "hi"}]) == Conversation()


@pytest.mark.parametrize(("message", "changed"), [
    ("actually make it 6 hours", {"hours": 6}),
    ("no, for 5 hours", {"hours": 5}),
    ("make it L instead", {"size": "L"}),
    ("and at Ostbahnhof?", {"station": "Ostbahnhof"}),
    ("换成 8 个小时", {"hours": 8}),
    ("还是 Ostbahnhof 吧", {"station": "Ostbahnhof"}),  # "rather Ostbahnhof": 还是 … 吧 is no word of the value
    ("那就 L 吧", {"size": "L"}),
])
def test_a_correction_changes_only_the_value_it_names(message, changed):
    before = {"station": "Hauptbahnhof", "size": "M", "hours": 3}
    assert _calls([LOCKER], _turn("rent_locker", before), message) == [("rent_locker", {**before, **changed})]


@pytest.mark.parametrize("message", ["the same, but on Tuesday", "改到周二"])
def test_a_new_day_is_written_as_the_last_day_was(message):
    before = {"station": "Hauptbahnhof", "hours": 3, "day": "2026-12-04"}
    [(name, arguments)] = _calls([LOCKER], _turn("rent_locker", before), message)
    assert {k: v for k, v in arguments.items() if k != "day"} == {"station": "Hauptbahnhof", "hours": 3}
    assert dt.date.fromisoformat(arguments["day"]).weekday() == 1


@pytest.mark.parametrize(("message", "expected"), [
    ("what about Naxos?", {"from_port": "Piraeus", "to_port": "Naxos"}),  # a new end is where it goes...
    ("and from Rafina?", {"from_port": "Rafina", "to_port": "Paros"}),  # ...unless it says "from"
])
def test_one_value_of_a_pair_changes_the_side_it_fits(message, expected):
    history = _turn("ferry_times", {"from_port": "Piraeus", "to_port": "Paros"})
    assert _calls([FERRY], history, message) == [("ferry_times", expected)]


def test_a_follow_up_after_two_calls_repeats_the_tool_once():
    history = _turn("noise_level", {"district": "Mitte"}, {"district": "Pankow"})
    assert _calls([QUIET, SEEDS], history, "what about Kreuzberg?") == [("noise_level", {"district": "Kreuzberg"})]


def test_a_word_of_the_correction_is_not_taken_for_a_value():
    history = _turn("order_seeds", {"variety": "basil", "packets": 2})
    assert _calls([SEEDS], history, "不对，要 4 包") == [("order_seeds", {"variety": "basil", "packets": 4})]
    assert _calls([SEEDS], history, "no, 3 packets") == [("order_seeds", {"variety": "basil", "packets": 3})]


def test_a_new_request_for_another_tool_is_not_a_follow_up():
    history = _turn("order_seeds", {"variety": "basil", "packets": 2})
    assert _calls([SEEDS, QUIET], history, "also, what is the noise level in Mitte?") == [("noise_level", {"district": "Mitte"})]


READ = _tool("read_document", "Show a document", {"path": {"type": "string"}}, ["path"])
SAVE = _tool("save_document", "Save a document", {"path": {"type": "string"}, "content": {"type": "string"}},
             ["path", "content"])


def _after_reading(request, shown):
    """The request, its read call, and what the reader showed: the next call the model makes (or its words)."""
    read = {"id": "r", "type": "function", "function": {"name": "read_document", "arguments": '{"path": "todo.md"}'}}
    messages = [{"role": "user", "content": request}, {"role": "assistant", "content": None, "tool_calls": [read]},
                {"role": "tool", "tool_call_id": "r", "content": shown}]
    reply = OfflineModel().respond({"messages": messages, "tools": [READ, SAVE]})
    return [(c.name, json.loads(c.arguments)) for c in reply.tool_calls]


@pytest.mark.parametrize("request_, shown, written", [
    # a reader of its own wording: plain text, numbered lines under a heading, an empty file, no file yet
    ("add a line to todo.md: call Ana", "buy milk\nwater plants", "buy milk\nwater plants\ncall Ana\n"),
    ("add a line to todo.md: call Ana", "todo.md (2 lines)\n1\tbuy milk\n2\twater plants", "buy milk\nwater plants\ncall Ana\n"),
    ("add a line to todo.md: call Ana", "The file is empty (0 lines).", "call Ana\n"),
    ("add a line to todo.md: call Ana", "Error: no such file: todo.md", "call Ana\n"),
    ("add a line at the top of todo.md: call Ana", "buy milk", "call Ana\nbuy milk\n"),
])
def test_a_line_is_added_in_two_steps_read_then_written_back(request_, shown, written):
    assert _calls([READ, SAVE], [], request_) == [("read_document", {"path": "todo.md"})]
    assert _after_reading(request_, shown) == [("save_document", {"path": "todo.md", "content": written})]


@pytest.mark.parametrize("shown", ["1\tbuy milk\n[output truncated: 40 more lines]", "Error: permission denied"])
def test_a_file_shown_in_part_or_not_read_is_never_written_back(shown):
    assert not any(name == "save_document" for name, _ in _after_reading("add a line to todo.md: call Ana", shown))


SPA = _tool("book_spa", "Book a spa treatment", {
    "treatment": {"type": "string"}, "start": {"type": "string", "description": "HH:MM, 24 hours"},
    "hot_stones": {"type": "boolean", "description": "add heated stones"},
    "aromatherapy_oil": {"type": "boolean"}}, ["treatment", "start"])


@pytest.mark.parametrize(("message", "changed"), [
    ("actually make it 8:15", {"start": "20:15"}),          # the same evening as the 20:00 it changes
    ("no wait, 8:15am", {"start": "08:15"}),                # unless it says morning
    ("不对，是九点", {"start": "21:00"}), ("改到上午九点", {"start": "09:00"}),  # in Chinese too
    ("what if I add hot stones?", {"hot_stones": True}),    # a flag named by its first word, switched on
    ("hmm, what if we skip the aromatherapy", {"aromatherapy_oil": False}),
])
def test_a_follow_up_keeps_the_afternoon_and_switches_a_flag_it_names(message, changed):
    history = _turn("book_spa", {"treatment": "massage", "start": "20:00"})
    assert _calls([SPA], history, message) == [("book_spa", {"treatment": "massage", "start": "20:00", **changed})]


@pytest.mark.parametrize("message", ["ok 9 works then", "fine, 9 is fine", "9 will do"])
def test_accepting_the_time_a_failed_call_offered_repeats_it_with_that_time(message):
    """A bare number after a result that offered a clock time is that time, not another parameter's digits."""
    history = _turn("book_spa", {"treatment": "facial", "start": "08:00", "room": "12"},
                    results=['{"booked": false, "reason": "no therapist at 08:00", "earliest": "09:00"}'])
    assert _calls([SPA], history, message) == [("book_spa", {"treatment": "facial", "start": "09:00", "room": "12"})]


CABIN = _tool("book_cabin", "Book a holiday cabin", {
    "lake": {"type": "string"}, "guests": {"type": "integer"}, "nights": {"type": "integer"},
    "arrival": {"type": "string", "enum": ["早上", "下午", "晚上"], "description": "到达时段"}}, ["lake", "guests", "nights"])


@pytest.mark.parametrize(("message", "changed"), [
    ("two more people", {"guests": 6}), ("add one more night", {"nights": 4}), ("one fewer night", {"nights": 2}),
    ("多加一个人", {"guests": 5}), ("少两个人", {"guests": 2}),
    ("那晚上呢？", {"arrival": "晚上"}),  # the option alone changes, never the lake too
])
def test_a_count_said_as_a_change_and_an_option_alone_change_only_their_parameter(message, changed):
    history = _turn("book_cabin", {"lake": "Tahoe", "guests": 4, "nights": 3, "arrival": "下午"})
    assert _calls([CABIN], history, message) == [("book_cabin", {"lake": "Tahoe", "guests": 4, "nights": 3, "arrival": "下午",
                                                                  **changed})]


@pytest.mark.parametrize(("message", "expected"), [
    ("actually make it 6 hours", ("rent_locker", {"station": "Hauptbahnhof", "hours": 6})),
    ("换成 5 包", ("order_seeds", {"variety": "basil", "packets": 5})),
    ("and Pankow?", ("noise_level", {"district": "Pankow"})),  # a value the latest call takes still goes to it
])
def test_a_correction_goes_to_the_latest_call_whose_tool_takes_its_value(message, expected):
    """Two turns back a locker was rented (or seeds ordered), then a noise level asked: "6 hours" is no district."""
    earlier = expected[0] if expected[0] != "noise_level" else "rent_locker"
    first = {"rent_locker": {"station": "Hauptbahnhof", "hours": 3}, "order_seeds": {"variety": "basil", "packets": 2}}[earlier]
    history = [*_turn(earlier, first), *_turn("noise_level", {"district": "Mitte"})]
    assert _calls([LOCKER, SEEDS, QUIET], history, message) == [expected]


@pytest.mark.parametrize(("message", "packets"), [
    ("不是2包，是6包", 6), ("not 2, 7 packets", 7), ("7 packets, not 2", 7), ("种子换成3包", 3), ("不要2包，要5包", 5)])
def test_a_correction_keeps_only_its_new_value_not_the_old_one_or_the_thing_it_names(message, packets):
    """The old value it says no to and the word before 换成 (what is changed) are no values; the noise level came last."""
    history = [*_turn("order_seeds", {"variety": "basil", "packets": 2}), *_turn("noise_level", {"district": "Mitte"})]
    assert _calls([SEEDS, QUIET], history, message) == [("order_seeds", {"variety": "basil", "packets": packets})]



KENNEL = _tool("find_kennels", "Find dog kennels with free places", {
    "town": {"type": "string"}, "from_day": {"type": "string", "format": "date"}, "nights": {"type": "integer"}},
    ["town", "from_day", "nights"])
BOARD = _tool("board_dog", "Board the dog at a kennel found before", {
    "kennel_id": {"type": "string"}, "from_day": {"type": "string", "format": "date"}, "nights": {"type": "integer"}},
    ["kennel_id", "from_day", "nights"])
UNBOARD = _tool("cancel_boarding", "Cancel a dog boarding", {"boarding_id": {"type": "string"}}, ["boarding_id"])


@pytest.mark.parametrize(("message", "kennel"), [
    ("board him at the second one", "k_20"), ("ok, board her at the first one please", "k_13"),
    ("board him at the 2nd one", "k_20"), ("the last one, board him there", "k_20")])
def test_a_call_to_the_next_tool_takes_the_item_named_in_the_last_result_and_the_last_values(message, kennel):
    history = _turn("find_kennels", {"town": "Hove", "from_day": "2026-12-20", "nights": 4}, results=[json.dumps(
        {"kennels": [{"kennel_id": "k_13", "name": "Paws Inn"}, {"kennel_id": "k_20", "name": "Barkley's"}]})])
    assert _calls([KENNEL, BOARD], history, message) == [
        ("board_dog", {"kennel_id": kennel, "from_day": "2026-12-20", "nights": 4})]


@pytest.mark.parametrize("message", ["cancel it", "把它取消了"])
def test_it_after_a_result_with_one_id_is_that_id(message):
    history = _turn("board_dog", {"kennel_id": "k_13", "from_day": "2026-12-20", "nights": 4},
                    results=['{"id": "B-4410", "status": "booked"}'])
    assert _calls([BOARD, UNBOARD], history, message) == [("cancel_boarding", {"boarding_id": "B-4410"})]


TAXI = _tool("book_taxi", "Book a taxi", {"destination": {"type": "string"}, "time": {"type": "string", "description": "HH:MM"}},
             ["destination", "time"])
WAKE = _tool("set_wake_up", "Set a wake-up alarm for a time", {"time": {"type": "string", "description": "HH:MM"}}, ["time"])


@pytest.mark.parametrize(("message", "pickup"), [
    ("时间改成7点", "07:00"), ("change the time to 7:15", "07:15"), ("move it to 7:15", "07:15"), ("改到七点半", "07:30")])
def test_a_correction_changes_the_earlier_call_even_when_another_tool_fits_its_value(message, pickup):
    """An alarm tool takes a time alone, but "change it to" a time corrects the taxi just booked."""
    history = _turn("book_taxi", {"destination": "the airport", "time": "06:30"})
    assert _calls([TAXI, WAKE], history, message) == [("book_taxi", {"destination": "the airport", "time": pickup})]


def test_a_new_request_for_another_tool_does_not_take_the_last_calls_values():
    """Only a message that points back ("it", "the 2nd one") takes what it lacks from the last call: a new alarm asked
    without a readable time is asked for, never set to the taxi's 06:30."""
    history = _turn("book_taxi", {"destination": "the airport", "time": "06:30"})
    assert _calls([TAXI, WAKE], history, "set a wake-up alarm for 6") == []


SHELF = _tool("reserve_book", "Reserve a library book at a branch", {
    "title": {"type": "string"}, "branch": {"type": "string"}, "copies": {"type": "integer"}}, ["title", "branch"])
FAN = _tool("switch_fan", "Switch a ceiling fan", {
    "room": {"type": "string"}, "state": {"type": "string", "enum": ["on", "off"]}}, ["room", "state"])
COURT = _tool("book_court", "Book a tennis court", {
    "court": {"type": "string"}, "day": {"type": "string", "format": "date"},
    "start": {"type": "string", "description": "HH:MM"}}, ["court", "day", "start"])


@pytest.mark.parametrize(("message", "changed"), [
    ("also The Hobbit", {"title": "The Hobbit"}),  # "The" of a title is the title's, "the" before it is no value
    ("纳尼亚也一样", {"title": "纳尼亚"}),  # "X也一样": the same call for X; 一 of 一样 is no count
    ("不对，是西城分馆", {"branch": "西城分馆"}),  # the earlier value it shares its last words with
])
def test_also_x_is_the_last_call_with_the_value_of_its_kind_replaced(message, changed):
    before = {"title": "Dune", "branch": "东城分馆", "copies": 2}
    assert _calls([SHELF], _turn("reserve_book", before), message) == [("reserve_book", {**before, **changed})]


@pytest.mark.parametrize(("message", "changed"), [
    ("书房也开一下", {"room": "书房"}), ("书房也一样", {"room": "书房"}), ("门厅也一样", {"room": "门厅"})])
def test_a_chinese_name_in_a_follow_up_stays_as_written_as_the_earlier_one_was(message, changed):
    before = {"room": "客厅", "state": "on"}
    assert _calls([FAN], _turn("switch_fan", before), message) == [("switch_fan", {**before, **changed})]


@pytest.mark.parametrize("message", ["book another one at the same time on friday", "and another one friday, same time"])
def test_another_one_is_the_last_call_with_the_new_value(message):
    before = {"court": "Court 3", "day": "2026-12-15", "start": "17:30"}
    dated = _calls([COURT], _turn("book_court", before), message)
    assert dated[0][1]["day"] != before["day"] and dated == [("book_court", {**before, "day": dated[0][1]["day"]})]


WALK = _tool("arrange_dog_walk", "安排人遛狗", {"dog": {"type": "string", "description": "狗的名字"},
                                          "walker": {"type": "string", "description": "来遛狗的人"}}, ["dog", "walker"])


@pytest.mark.parametrize("message", ["不对，是姐姐去遛", "不是爸爸，是姐姐来遛"])
def test_who_does_it_goes_to_the_parameter_its_verb_describes(message):
    """"是姐姐去遛": the one before 去/来 + the verb is who does it, the parameter whose description has the verb."""
    history = _turn("arrange_dog_walk", {"dog": "豆豆", "walker": "爸爸"})
    assert _calls([WALK], history, message) == [("arrange_dog_walk", {"dog": "豆豆", "walker": "姐姐"})]


@pytest.mark.parametrize(("message", "nights"), [
    ("and the same in Brighton for the three nights after that", 3), ("then in Brighton for 2 nights right after that", 2)])
def test_the_nights_after_that_start_when_the_last_stay_ends(message, nights):
    history = _turn("find_kennels", {"town": "Hove", "from_day": "2026-12-20", "nights": 4})
    expected = {"town": "Brighton", "from_day": "2026-12-24", "nights": nights}
    assert _calls([KENNEL], history, message) == [("find_kennels", expected)]


BARGE = _tool("book_houseboat", "Book a houseboat on a canal", {
    "canal": {"type": "string", "description": "Which canal"}, "boarding": {"type": "string", "format": "date"},
    "nights": {"type": "integer", "description": "How many nights"}}, ["canal", "boarding", "nights"])


@pytest.mark.parametrize("message", ["and on the Grand Union canal for three nights after that",
                                     "then the Oxford canal, 3 nights, right after it"])
def test_a_stay_after_that_starts_the_day_the_last_one_ended(message):
    history = _turn("book_houseboat", {"canal": "Llangollen", "boarding": "2027-05-03", "nights": 4})
    assert _calls([BARGE], history, message)[0][1]["boarding"] == "2027-05-07"


CRANE = _tool("crane_hire", "Hire a crane at a building site on a day", {
    "location": {"type": "string", "description": "the site's town"}, "day": {"type": "string", "format": "date"}},
    ["location", "day"])
WIND = _tool("wind_speed", "Forecast wind speed in a town", {
    "town": {"type": "string", "description": "the town"}, "day": {"type": "string", "format": "date"}}, ["town", "day"])


@pytest.mark.parametrize("message", ["and the wind speed there?", "what about the wind there that day", "那里那天的风速呢"])
def test_a_follow_up_naming_another_tool_takes_the_last_calls_values_of_its_kind(message):
    history = _turn("crane_hire", {"location": "Harrogate", "day": "2026-12-10"})
    assert _calls([CRANE, WIND], history, message) == [("wind_speed", {"town": "Harrogate", "day": "2026-12-10"})]


POSTCARD = _tool("send_postcard", "Send a printed postcard", {
    "recipient": {"type": "string", "description": "Who receives the card (a contact's name)"},
    "headline": {"type": "string", "description": "Printed on the front"},
    "greeting": {"type": "string", "description": "The handwritten message on the back"},
    "stamp": {"type": "string", "enum": ["standard", "express"]}}, ["recipient", "greeting"])


@pytest.mark.parametrize(("message", "changed"), [
    ("change the headline to Greetings from Oslo", {"headline": "Greetings from Oslo"}),  # a phrase after its name
    ("headline should be Sunny Lisbon", {"headline": "Sunny Lisbon"}),
    ("and add a headline: Harbour at dusk", {"headline": "Harbour at dusk"}),
    ("标题换成新年快乐", {"headline": "新年快乐"}),  # read as a first request reads 标题是…
    ("内容改成：下周见，别忘了带伞", {"greeting": "下周见，别忘了带伞"}),  # the free text as written, to its end
    ("再加一个标题：海边的日落", {"headline": "海边的日落"}),  # a value added, not changed
    ("not Ingrid, Bjorn", {"recipient": "Bjorn"}),  # a name goes to the person the last call named
    ("不是她，是小周", {"recipient": "小周"}),
    ("express one please", {"stamp": "express"}),  # "one" after a word is the thing, no count
    ("express, please", {"stamp": "express"}),  # an option alone, without "actually": the last call with it
])
def test_a_follow_up_gives_each_new_value_to_the_slot_of_its_kind(message, changed):
    before = {"recipient": "Ingrid", "greeting": "miss you all", "stamp": "standard"}
    assert _calls([POSTCARD], _turn("send_postcard", before), message) == [("send_postcard", {**before, **changed})]


SUPPER = _tool("plan_supper_club", "Plan a supper club evening", {
    "title": {"type": "string", "description": "What the evening is called, e.g. 'Nordic Night'"},
    "guest": {"type": "string", "description": "Friend to invite, by first name"}}, ["title"])


@pytest.mark.parametrize("message", ["invite Ragnhild instead", "ok, invite Ragnhild then"])
def test_a_name_after_the_verb_a_parameter_describes_goes_to_that_parameter(message):
    before = {"title": "Nordic night", "guest": "Oskar"}
    assert _calls([SUPPER], _turn("plan_supper_club", before), message) == [
        ("plan_supper_club", {"title": "Nordic night", "guest": "Ragnhild"})]


def test_a_capitalised_word_of_a_descriptions_example_is_no_verb():
    before = {"title": "Nordic night", "guest": "Oskar"}  # "Nordic" is a word of the title's example, not "invite"
    assert _calls([SUPPER], _turn("plan_supper_club", before), "no, Nordic Feast") == [
        ("plan_supper_club", {"title": "Nordic Feast", "guest": "Oskar"})]


TIDES = _tool("tide_table", "High and low tide times at a harbour on a day", {
    "harbour": {"type": "string", "description": "Harbour or port"}, "day": {"type": "string", "format": "date"}},
    ["harbour"])
_TIDES_ASKED = _turn("tide_table", {"harbour": "Whitby", "day": "2026-12-08"}, results=['{"high": "06:12"}'])


POLLEN = _tool("pollen_count", "花粉浓度预报", {"town": {"type": "string", "description": "城镇"},
                                              "day": {"type": "string", "description": "日期 YYYY-MM-DD"}}, ["town"])


@pytest.mark.parametrize("message", [
    "could we look at thursday as well?", "is it any lower on saturday?", "what's it like on the 20th", "我想看看周日的"])
def test_a_message_no_tool_fits_alone_changes_the_value_of_its_kind_in_the_last_call(message):
    asked = _turn("pollen_count", {"town": "Harrogate", "day": "2026-12-08"}, results=['{"grass": "low"}'])
    [(name, arguments)] = _calls([POLLEN, QUIET], asked, message)
    assert name == "pollen_count" and arguments["town"] == "Harrogate" and arguments["day"] != "2026-12-08"


@pytest.mark.parametrize(("message", "harbours"), [
    ("the same for Scarborough and Filey", ["Scarborough", "Filey"]),
    ("so what about Dover and Hull?", ["Dover", "Hull"]),
    ("青岛和大连也查一下", ["青岛", "大连"]),
])
def test_the_same_for_two_values_is_one_call_for_each(message, harbours):
    calls = _calls([TIDES, QUIET], _TIDES_ASKED, message)
    assert [(n, a["harbour"], a["day"]) for n, a in calls] == [("tide_table", h, "2026-12-08") for h in harbours]


@pytest.mark.parametrize("message", [
    "这个港口在哪个省", "thanks a lot!", "那要带外套吗", "should I bring a coat then?", "这个港口有停车场吗",
    "so is that earlier than usual?"])
def test_a_message_after_a_result_that_changes_no_value_is_answered_in_words(message):
    assert _calls([TIDES, QUIET], _TIDES_ASKED, message) == []


def test_not_x_y_drops_the_words_before_the_new_value():
    [(_, arguments)] = _calls([TIDES, QUIET], _TIDES_ASKED, "sorry I meant Filey, not Whitby")
    assert arguments == {"harbour": "Filey", "day": "2026-12-08"}


def test_a_request_that_names_the_last_calls_values_again_is_called_again():
    assert _calls([TIDES, QUIET], _TIDES_ASKED, "tide times at Whitby for 2026-12-08 please") == [
        ("tide_table", {"harbour": "Whitby", "day": "2026-12-08"})]


@pytest.mark.parametrize(("message", "station"), [("其实是体育馆站", "体育馆站"), ("我说的是体育馆站", "体育馆站"),
                                                  ("应该是体育馆站", "体育馆站")])
def test_a_chinese_correction_that_says_what_it_meant_changes_only_that_value(message, station):
    asked = _turn("rent_locker", {"station": "文化宫站", "hours": 3})
    assert _calls([LOCKER, QUIET], asked, message) == [("rent_locker", {"station": station, "hours": 3})]


def _said(tools, history, message):
    reply = OfflineModel().respond({"messages": [*history, {"role": "user", "content": message}], "tools": tools})
    assert not reply.tool_calls
    return reply.content


@pytest.mark.parametrize("message", ["so is that early?", "should I get there before then?", "wait, why is it so early?"])
def test_a_question_that_points_at_the_result_is_answered_with_its_facts(message):
    """A stand-in cannot weigh a result ("is that early?"), but it has the facts: it says them, not "I don't know"."""
    said = _said([TIDES, QUIET], _TIDES_ASKED, message)
    assert said.startswith("I can only go by what the tool returned:") and "06:12" in said


@pytest.mark.parametrize("message", ["那时候潮水高吗？", "要不要早点出发？"])
def test_a_chinese_question_about_the_result_is_answered_in_chinese_with_its_facts(message):
    """A question after a result, asked with 吗 or as "A不A" ("要不要", "贵不贵"), is about it."""
    said = _said([TIDES, QUIET], _TIDES_ASKED, message)
    assert said.startswith("我只能根据工具刚才返回的结果来说：") and "06:12" in said


@pytest.mark.parametrize("message", ["what's the capital of France?", "who painted the Mona Lisa?"])
def test_a_question_about_something_else_after_a_result_is_not_answered_with_it(message):
    """No word points back, or it names a thing the result does not: the result is no answer to it."""
    assert "06:12" not in _said([TIDES, QUIET], _TIDES_ASKED, message)


def test_the_call_just_made_is_not_made_again_by_a_question_that_names_none_of_its_values():
    """ "why is the tide so early?" reads as the tide table again, with the last call's values: its result is there."""
    assert _calls([TIDES, QUIET], _TIDES_ASKED, "hmm, why is the tide so early?") == []


def test_the_same_request_again_is_called_again():
    """ "What time is it in Tokyo?" a second time asks the clock again (the up arrow in `agentkit chat`): the message
    makes the call on its own, though it never writes "Asia/Tokyo"; only a question that leans on the last call is not."""
    clock = _tool("get_current_time", "Current time in a time zone", {"timezone": {"type": "string"}}, ["timezone"])
    history = _turn("get_current_time", {"timezone": "Asia/Tokyo"}, results=['{"time": "21:05"}'])
    assert _calls([clock], history, "What time is it in Tokyo?") == [("get_current_time", {"timezone": "Asia/Tokyo"})]
    assert _calls([clock], history, "wait, why is it so late there?") == []


LIFT = _tool("offer_lift", "Offer a lift in your car", {
    "origin": {"type": "string"}, "destination": {"type": "string"},
    "departure": {"type": "string", "format": "date-time", "description": "when you set off"}},
    ["origin", "destination", "departure"])


@pytest.mark.parametrize(("message", "departure"), [
    ("actually make it quarter past 8", "2027-02-19T08:15:00"),  # the same day, the new time
    ("sorry, can we do 2027-02-20 instead?", "2027-02-20T07:30:00"),  # the new day, the same time
])
def test_a_date_time_corrected_keeps_the_part_not_named(message, departure):
    before = {"origin": "Swansea", "destination": "Cardiff", "departure": "2027-02-19T07:30:00"}
    assert _calls([LIFT], _turn("offer_lift", before), message) == [("offer_lift", {**before, "departure": departure})]


BINS = _tool("bin_day", "Which day a bin is collected", {
    "postcode": {"type": "string", "pattern": "^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$"},
    "kind": {"type": "string", "enum": ["recycling", "compost", "general"]}}, ["postcode"])


@pytest.mark.parametrize("message", ["what about garden waste?", "and glass?", "那厨余垃圾呢？", "and for LS6 2AB?"])
def test_a_follow_up_never_sends_a_value_its_pattern_refuses(message):
    made = _calls([BINS], _turn("bin_day", {"postcode": "M14 5TP", "kind": "recycling"}), message)
    assert all(re.fullmatch(BINS["function"]["parameters"]["properties"]["postcode"]["pattern"], a["postcode"]) for _, a in made)
    assert made or not message.startswith("and for")  # a postcode that fits is a change


@pytest.mark.parametrize(("follow_up", "day"), [
    ("And the Friday after that?", "2027-05-14"), ("Same again a week later", "2027-05-14"),
    ("the following Friday instead", "2027-05-14"), ("and the day after?", "2027-05-08"), ("那下周同一天呢？", "2027年5月14日"),
    ("Book the sauna that same day", "2027-05-07"), ("那天下午三点再订一个", "2027年5月7日"),  # the day itself
    ("What about Saturday instead?", None),  # a weekday alone is the coming one, as before: no day of the last call's
])
def test_a_day_counted_from_the_last_call_s_day_is_that_day(follow_up, day):
    from agentkit.offline.earlier import on_the_last_day

    state = Conversation((PastCall("book_tasting", {"tasting_date": "2027-05-07", "guests": 2}),))
    read = on_the_last_day(follow_up, state)  # written as a Chinese message writes a day, so that "下午三点" still reads
    assert (re.search(r"\d{4}-\d\d-\d\d|\d{4}年\d+月\d+日", read)[0] if day else read) == (day or follow_up)
    assert on_the_last_day(follow_up, Conversation()) == follow_up  # no call before: nothing to count from


def test_a_day_no_calendar_has_in_an_earlier_call_counts_nothing_and_breaks_nothing():  # a ValueError once, on any message
    from agentkit.offline.earlier import on_the_last_day

    written = Conversation((PastCall("book_tasting", {"tasting_date": "2027-02-30", "guests": 2}),))
    assert on_the_last_day("and the day after?", written) == "and the day after?"
    assert on_the_last_day("thanks!", written) == "thanks!"


SAUNA = _tool("book_sauna", "Book a session at the lakeside sauna", {
    "date": {"type": "string", "format": "date"}, "start_time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"},
    "people": {"type": "integer", "minimum": 1}}, ["date", "start_time", "people"])
FIND_SAUNA = _tool("find_sauna_sessions", "List the free sauna sessions on a day", {
    "date": {"type": "string", "format": "date"}}, ["date"])
CANCEL_SAUNA = _tool("cancel_sauna", "Cancel a sauna booking", {
    "booking_ref": {"type": "string", "pattern": "^SA-[0-9]{4}$"}}, ["booking_ref"])
SAUNAS = [SAUNA, FIND_SAUNA, CANCEL_SAUNA]


def _asked_back(request, reply):
    return [{"role": "user", "content": request}, {"role": "assistant", "content": reply}]


@pytest.mark.parametrize(("history", "message", "arguments"), [
    (_asked_back("Book the sauna for 3 of us on 2027-03-19 at 18:00", "So: 3 people, 19 March at 18:00. Shall I book it?"),
     "Actually make it 4 people.", {"date": "2027-03-19", "start_time": "18:00", "people": 4}),
    (_asked_back("Book the sauna for 3 of us on 2027-03-19 at 18:00", "So: 3 people, 19 March at 18:00. Is that right?"),
     "yes please", {"date": "2027-03-19", "start_time": "18:00", "people": 3}),
    (_asked_back("Book the sauna for two people on 2027-03-20", "What time would you like?"),
     "10am", {"date": "2027-03-20", "start_time": "10:00", "people": 2}),
    (_asked_back("帮我订2027年3月20日晚上七点的桑拿，两个人", "好的：3月20日19:00，两位。确认预订吗？"),
     "改成三个人吧", {"date": "2027-03-20", "start_time": "19:00", "people": 3}),
])
def test_a_request_answered_in_words_is_completed_or_corrected_by_the_next_message(history, message, arguments):
    """The model read the details back or asked for one, so no call was made: the next message confirms, completes or
    corrects that request, as a person would expect of a real model."""
    assert _calls(SAUNAS, history, message) == [("book_sauna", arguments)]


def test_a_yes_that_asks_for_more_is_no_bare_confirmation_and_small_talk_calls_nothing():
    history = _asked_back("Book the sauna for 3 of us on 2027-03-19 at 18:00", "Shall I book it?")
    assert _calls(SAUNAS, history, "Yes, but for 5 people") == [
        ("book_sauna", {"date": "2027-03-19", "start_time": "18:00", "people": 5})]
    assert _calls(SAUNAS, _asked_back("What is a sauna good for?", "It helps you relax."), "Thanks!") == []
    assert _calls(SAUNAS, [], "yes") == []  # a yes with nothing before it confirms nothing


FOUND = [{"role": "user", "content": "Which sauna sessions are free on 19 March 2027? There will be 3 of us."},
         {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
             "name": "find_sauna_sessions", "arguments": json.dumps({"date": "2027-03-19"})}}]},
         {"role": "tool", "tool_call_id": "c1", "content": json.dumps([
             {"start": "14:00", "quiet_session": False}, {"start": "18:00", "quiet_session": True}])},
         {"role": "assistant", "content": "Free at 14:00 and 18:00 (the later one is a quiet session)."}]


@pytest.mark.parametrize("message", ["the 18:00 one please", "ok book the second one", "the quiet one", "18点的那个"])
def test_an_item_of_a_search_s_result_picked_by_its_place_or_its_own_value_is_acted_on(message):
    """Picked by its place, a word only it has, a flag true of it only ("quiet_session") or its time: the tool that acts on
    it (not the search again), with what the item, the search and the person's earlier words give ("3 of us")."""
    assert _calls(SAUNAS, FOUND, message) == [("book_sauna", {"date": "2027-03-19", "start_time": "18:00", "people": 3})]


def test_a_question_about_an_item_of_the_result_makes_no_call():
    assert _calls(SAUNAS, FOUND, "is the second one a quiet session?") == []


BREAD = {"type": "function", "function": {"name": "book_bread_class", "description": "Book a place on a bread-making class.",
         "parameters": {"type": "object", "required": ["course", "date", "attendee_name"], "properties": {
             "course": {"type": "string", "enum": ["sourdough", "focaccia", "bagels"]},
             "date": {"type": "string", "format": "date"},
             "attendee_name": {"type": "string"}, "places": {"type": "integer"}, "note": {"type": "string"}}}}}


@pytest.mark.parametrize(("said", "changed"), [
    ("Sorry, can you make that the 27th instead?", {"date": "2027-03-27"}),  # "the 27th" alone is a day
    ("Hmm, the 13th rather than the 20th please", {"date": "2027-03-13"}),  # what follows "rather than" is the old value
    ("the 13th, not the 20th", {"date": "2027-03-13"}),
    ("Oh wait, I meant the focaccia class, not sourdough.", {"course": "focaccia"}),  # "I meant": a correction
])
def test_a_request_read_back_is_corrected_by_the_value_said_not_the_one_it_replaces(said, changed):
    history = [{"role": "user", "content": "Book me on the sourdough class on 2027-03-20, name Harriet Vane"},
               {"role": "assistant", "content": "Just to confirm: sourdough on 20 March 2027 for Harriet Vane. Shall I book it?"}]
    reply = OfflineModel().respond({"model": "m", "messages": [*history, {"role": "user", "content": said}], "tools": [BREAD]})
    [(name, arguments)] = [(c.name, json.loads(c.arguments)) for c in reply.tool_calls]
    assert arguments == {"course": "sourdough", "date": "2027-03-20", "attendee_name": "Harriet Vane"} | changed


MOW = _tool("book_mowing", "Book a lawn mowing visit", {
    "address": {"type": "string"}, "day": {"type": "string", "format": "date"}, "litres_of_feed": {"type": "integer"}},
    ["address", "day"])
NANNY = _tool("book_nanny", "预约育儿嫂", {"address": {"type": "string", "description": "上门地址"}, "hours": {
    "type": "integer", "description": "小时数"}}, ["address", "hours"])
LESSON = _tool("book_lesson", "Book a private ski lesson", {"day": {"type": "string", "format": "date"}, "start": {
    "type": "string", "description": "Start time, HH:MM"}, "name": {"type": "string", "description": "Who is booking"}},
    ["day", "start", "name"])


@pytest.mark.parametrize(("tools", "previous", "message", "changed"), [
    ([MOW], {"address": "7 Birch Lane, Penrith CA11 8QR", "day": "2027-11-23"},
     "Sorry, wrong number - it's 17 Birch Lane, not 7. Everything else the same.",
     {"address": "17 Birch Lane, Penrith CA11 8QR"}),
    ([NANNY], {"address": "徐汇区漕溪北路88弄2号301", "hours": 3}, "不好意思，地址说错了，应该是6号，不是2号，其他都一样。",
     {"address": "徐汇区漕溪北路88弄6号301"}),
    ([MOW], {"address": "2 Elm Row", "day": "2027-11-23", "litres_of_feed": 800}, "Make that 1,200 litres of feed actually.",
     {"litres_of_feed": 1200}),  # a thousands comma is no list
])
def test_a_part_of_a_value_said_anew_changes_that_part_only(tools, previous, message, changed):
    name = tools[0]["function"]["name"]
    assert _calls(tools, _turn(name, previous), message) == [(name, {**previous, **changed})]


@pytest.mark.parametrize(("message", "changed"), [
    ("Make it 10 rather than 9, otherwise all good.", {"start": "10:00"}),  # an hour alone, for the one time
    ("Actually could we make it Sunday the 22nd instead? Same time.", {"day": "2027-08-22"}),  # "Same time" is no name
])
def test_a_correction_of_details_read_back_is_the_call_with_that_value(message, changed):
    asked = [{"role": "user", "content": "Book a private ski lesson for 2027-08-21 at 9am. Name Mia Holt."},
             {"role": "assistant", "content": "To confirm: a private ski lesson on Saturday 21 August at 09:00 for Mia Holt. "
                                              "Shall I go ahead?"}]
    expected = {"day": "2027-08-21", "start": "09:00", "name": "Mia Holt"} | changed
    assert _calls([LESSON], asked, message) == [("book_lesson", expected)]


BOAT_TRIPS = _tool("find_boat_trips", "Find boat trips from a harbour on a date.", {
    "harbour": {"type": "string"}, "date": {"type": "string", "format": "date"}, "passengers": {"type": "integer"}},
    ["harbour", "date"])
BOAT = _tool("book_boat_trip", "Book a boat trip.", {
    "harbour": {"type": "string"}, "date": {"type": "string", "format": "date"}, "trip_type": {
        "type": "string", "enum": ["seal_watching", "sunset", "fishing"]}, "passengers": {"type": "integer"},
    "lead_name": {"type": "string"}, "email": {"type": "string"}},
    ["harbour", "date", "trip_type", "passengers", "lead_name", "email"])
SAILINGS = [{"role": "user", "content": "Any boat trips from Padstow on 2027-07-10 for three of us?"},
         {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
             "name": "find_boat_trips",
             "arguments": json.dumps({"harbour": "Padstow", "date": "2027-07-10", "passengers": 3})}}]},
         {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"trips": [
             {"trip_type": "seal_watching", "departs": "10:00"}, {"trip_type": "sunset", "departs": "19:30"}]})},
         {"role": "assistant", "content": "Seal watching at 10:00 or a sunset cruise at 19:30. Shall I book one?"}]


@pytest.mark.parametrize("message", [
    "Lovely, the sunset one please for all three of us. Olivia Grant, olivia@example.com.",  # "for all three of us": no harbour
    "Great, the sunset one please, Olivia Grant. Email olivia@example.com.",
])
def test_an_item_picked_from_a_search_is_booked_with_the_searchs_values(message):
    assert _calls([BOAT_TRIPS, BOAT], SAILINGS, message) == [("book_boat_trip", {
        "harbour": "Padstow", "date": "2027-07-10", "trip_type": "sunset", "passengers": 3, "lead_name": "Olivia Grant",
        "email": "olivia@example.com"})]


def test_an_item_picked_without_a_value_its_booking_needs_is_asked_for_not_searched_again():
    message = {"role": "user", "content": "Great, the sunset one please. Olivia Grant."}
    reply = OfflineModel().respond({"messages": [*SAILINGS, message], "tools": [BOAT_TRIPS, BOAT]})
    assert not reply.tool_calls and "email" in reply.content


def test_a_day_of_the_month_is_no_item_picked_from_the_last_result():
    history = _turn("find_boat_trips", {"harbour": "Padstow", "date": "2027-07-10"}, results=['{"status": "ok", "ref": "B-1"}'])
    assert _calls([BOAT_TRIPS, BOAT], history, "Oh no, I got the date wrong, it's Sunday the 11th. Can you change it?") == [
        ("find_boat_trips", {"harbour": "Padstow", "date": "2027-07-11"})]


DAY, CLOCK_TIME = {"type": "string", "format": "date"}, {"type": "string", "description": "HH:MM"}
EYES = _tool("book_eye_test", "Book an eye test at the optician.", {"date": DAY, "time": CLOCK_TIME, "patient_name": {
    "type": "string"}}, ["date", "time", "patient_name"])
FEET = _tool("book_podiatrist", "Book a podiatrist (foot care) appointment.", {"date": DAY, "time": CLOCK_TIME, "patient_name": {
    "type": "string"}}, ["date", "time", "patient_name"])
CLIMB = _tool("book_climbing", "Book an indoor climbing session.", {"date": DAY, "start_time": CLOCK_TIME, "climbers": {
    "type": "integer"}}, ["date", "start_time", "climbers"])
ARCHERY = _tool("book_archery", "Book an archery session for a group.", {"date": DAY, "session": {
    "type": "string", "enum": ["morning", "afternoon"]}, "archers": {"type": "integer"}}, ["date", "session", "archers"])


@pytest.mark.parametrize(("tools", "before", "message", "expected"), [
    ([EYES, FEET], {"date": "2027-11-26", "time": "09:30", "patient_name": "Joan Pike"},
     "Thanks. Can you also get my husband, Graham Pike, in with the podiatrist the same morning at 11?",
     ("book_podiatrist", {"date": "2027-11-26", "time": "11:00", "patient_name": "Graham Pike"})),
    ([CLIMB, ARCHERY], {"date": "2027-11-27", "start_time": "11:00", "climbers": 8},
     "Brilliant. Now sort out archery for the same group the day after - afternoon session.",  # the one count for the one count
     ("book_archery", {"date": "2027-11-28", "session": "afternoon", "archers": 8})),
])
def test_a_request_for_another_tool_named_takes_the_last_calls_values_it_says_are_the_same(tools, before, message, expected):
    name = tools[0]["function"]["name"]
    assert _calls(tools, _turn(name, before), message) == [expected]
