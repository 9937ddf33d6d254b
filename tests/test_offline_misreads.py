"""Issue 34's misreads of the offline model, each tested as a class in words of our own (not the reported sentence):
"try again" after a failed call repeats it, and a greeting with tools offered says what those tools can do."""

import json

import pytest

from agentkit.offline import OfflineModel


def tool(name, description, **properties):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": list(properties)}}}


NOTE = tool("save_note", "Save a short note for later.", text={"type": "string"})
WEATHER = tool("get_weather", "Get the current weather in a city.", city={"type": "string"})
RATES = tool("exchange_rate", "Get the exchange rate between two currencies.",
             base={"type": "string", "description": "Currency code, e.g. USD"},
             target={"type": "string", "description": "Currency code, e.g. EUR"})


def ask(messages, tools):
    return OfflineModel().respond({"messages": messages, "tools": tools})


def failed(question, tools, error):
    """The conversation after a call that ended in `error` and the model's apology."""
    first = ask([{"role": "user", "content": question}], tools).tool_calls[0]
    return [{"role": "user", "content": question},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": first.name, "arguments": first.arguments}}]},
            {"role": "tool", "tool_call_id": "c1", "content": error},
            {"role": "assistant", "content": "Sorry, the tool failed: " + error}], first


@pytest.mark.parametrize(("question", "tools", "error", "again"), [
    ("What's the weather in Porto?", [WEATHER, NOTE], "Error: the request timed out", "Try again"),
    ("How many euros is one US dollar?", [RATES], "Error: 503 service temporarily unavailable", "could you try that again?"),
    ("杭州天气怎么样？", [WEATHER], "Error: 429 too many requests", "再试一次"),
    ("东京天气如何", [WEATHER, NOTE], "Error: timeout", "请重试"),
])
def test_try_again_after_an_error_repeats_the_last_call_with_the_same_arguments(question, tools, error, again):
    messages, first = failed(question, tools, error)
    reply = ask([*messages, {"role": "user", "content": again}], tools)
    assert [(c.name, json.loads(c.arguments)) for c in reply.tool_calls] == [(first.name, json.loads(first.arguments))]


@pytest.mark.parametrize(("greeting", "tools", "says"), [
    ("hello", [NOTE], "save a short note for later"),
    ("Hi there!", [WEATHER, RATES], "get the current weather in a city and get the exchange rate"),
    ("你好", [NOTE], "我可以用工具"),
])
def test_a_greeting_with_tools_offered_says_what_those_tools_can_do(greeting, tools, says):
    answer = ask([{"role": "user", "content": greeting}], tools).content
    assert says in answer and "offer me a tool" not in answer and "给我一个工具" not in answer
    assert not ask([{"role": "user", "content": greeting}], tools).tool_calls


READ = tool("read_file", "Read a text file from the workspace.", path={"type": "string", "description": "File path."},
            limit={"type": "integer", "description": "Read at most this many lines."})
READ["function"]["parameters"]["required"] = ["path"]


@pytest.mark.parametrize(("question", "paths"), [
    ("读一下 todo.txt 和 guests.txt 这两个文件", ["todo.txt", "guests.txt"]),
    ("把 notes.md 和 plan.md 两个文件都打开", ["notes.md", "plan.md"]),
    ("read the two files a.txt and b.txt", ["a.txt", "b.txt"]),
])
def test_two_paths_counted_as_two_files_are_two_whole_reads(question, paths):
    reply = ask([{"role": "user", "content": question}], [READ])
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [{"path": p} for p in paths]


def test_a_number_of_lines_still_limits_the_read():
    reply = ask([{"role": "user", "content": "read the first 2 lines of a.txt"}], [READ])
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [{"path": "a.txt", "limit": 2}]


@pytest.mark.parametrize(("question", "paths"), [
    ("帮我看看 plan.md 和 notes.md 里都写了什么", ["plan.md", "notes.md"]),
    ("config.yaml 和 README.md 两个文件里写了什么？", ["config.yaml", "README.md"]),
    ("what's inside todo.txt and done.txt?", ["todo.txt", "done.txt"]),
    ("notes.md 里写了什么", ["notes.md"]),
])
def test_asking_what_two_files_say_reads_each_of_them(question, paths):
    """ "里写了什么" once read as "what does it say", and its "it" joined the second file to the first call."""
    reply = ask([{"role": "user", "content": question}], [READ])
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [{"path": p} for p in paths]


TODO = tool("add_todo_item", "Add a task to the user's to-do list.", task={"type": "string", "description": "What to do."},
            due_date={"type": "string", "description": "When the task is due, YYYY-MM-DD."})
CALENDAR = tool("add_calendar_entry", "Add an entry to the calendar.", title={"type": "string", "description": "Its title."},
                date={"type": "string", "description": "The day."})
TODO["function"]["parameters"]["required"] = ["task"]


@pytest.mark.parametrize(("question", "title", "date"), [
    ("add renew passport to my to-do list, then put it on my calendar for May 2", "renew passport", "May 2"),
    ("把交房租加到待办里，然后把它记到日历上，周五", "交房租", "Friday"),
])
def test_it_in_a_later_clause_is_the_thing_of_the_call_before(question, title, date):
    """The calendar call takes its title from "it", the task of the to-do call, instead of asking for one."""
    calls = ask([{"role": "user", "content": question}], [TODO, CALENDAR]).tool_calls
    assert [c.name for c in calls] == ["add_todo_item", "add_calendar_entry"]
    assert json.loads(calls[1].arguments) == {"title": title, "date": date}


METER = tool("top_up_meter", "Top up a prepaid water meter.",
             meter_id={"type": "string", "pattern": "^[0-9]{9}$"}, amount={"type": "number"})
NICK = tool("set_nickname", "Set the player's nickname.", nickname={"type": "string", "pattern": r"^\p{L}{2,12}$"})


@pytest.mark.parametrize(("question", "meter_id", "amount"), [
    ("水表号是300412345，充五十块", "300412345", 50),
    ("put 30 on water meter 123456789", "123456789", 30),
])
def test_a_string_whose_pattern_takes_digits_takes_the_number_that_fits_it(question, meter_id, amount):
    call = ask([{"role": "user", "content": question}], [METER]).tool_calls[0]
    assert json.loads(call.arguments) == {"meter_id": meter_id, "amount": amount}


def test_a_pattern_python_cannot_read_is_no_error():
    """JSON Schema patterns are ECMA 262: "\\p{L}" is a letter there, an error in Python's re."""
    call = ask([{"role": "user", "content": "call me Mira from now on, nickname Mira, I am 12"}], [NICK]).tool_calls[0]
    assert call.name == "set_nickname"


CARD = tool("get_card_balance", "Look up the balance of a library card.", card={"type": "string", "pattern": "^[0-9]{8}$"})


@pytest.mark.parametrize("question", ["查一下借书卡的余额，卡号20261205", "what's left on my library card? it's 20261205"])
def test_words_a_digits_pattern_refuses_are_no_value_for_it(question):
    """The clause before the number ("查一下借书卡的余额") gives no card number of its own: one call, with the number."""
    calls = ask([{"role": "user", "content": question}], [CARD]).tool_calls
    assert [json.loads(c.arguments) for c in calls] == [{"card": "20261205"}]


SNACK = tool("order_snack", "Order a snack from the café counter.",
             snack={"type": "string", "description": "The pastry, e.g. 'croissant', 'muffin' or 'bagel'"},
             size={"type": "string", "enum": ["regular", "large"]})


@pytest.mark.parametrize(("question", "arguments"), [
    ("a large muffin, ty", {"snack": "muffin", "size": "large"}),
    ("regular bagel plz", {"snack": "bagel", "size": "regular"}),
])
def test_a_quoted_example_in_the_description_is_a_value_and_a_filler_word_is_none(question, arguments):
    """Developers quote their examples (e.g. 'croissant'); "plz", "u", "ty" say nothing about what is asked."""
    calls = ask([{"role": "user", "content": question}], [SNACK]).tool_calls
    assert [json.loads(c.arguments) for c in calls] == [arguments]


BUS = tool("next_bus", "When the next bus comes to a stop.", stop={"type": "string", "description": "Stop number on the sign"},
           line={"type": "string", "description": "Bus line"})


@pytest.mark.parametrize(("question", "arguments"), [
    ("and the 31?", {"stop": "2231", "line": "31"}),  # a line is written like the line it replaces
    ("what about 2240", {"stop": "2240", "line": "8"}),
    ("oh wait, stop 2250", {"stop": "2250", "line": "8"}),
])
def test_a_follow_up_in_digits_changes_the_code_it_looks_like(question, arguments):
    """A value in digits for a text parameter (a stop, a line) replaces the earlier value written like it."""
    history = [{"role": "user", "content": "when is the 8 at stop 2231"}, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "next_bus", "arguments": '{"stop": "2231", "line": "8"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"minutes": 4}'}, {"role": "assistant", "content": "In 4 minutes."}]
    calls = ask([*history, {"role": "user", "content": question}], [BUS]).tool_calls
    assert [json.loads(c.arguments) for c in calls] == [arguments]


TUTOR = tool("log_lesson", "Log a private lesson so the tutor gets paid.",
             tutor_name={"type": "string", "description": "The tutor's first name"}, hours={"type": "number"})
ANSWER = tool("answer_invite", "Answer an invitation.", event={"type": "string", "description": "The event"},
              going={"type": "boolean"}, guests={"type": "integer", "description": "How many people the user brings"})


@pytest.mark.parametrize(("question", "tools", "arguments"), [
    ("log 3 hours of tutoring by Ines", [TUTOR], [{"tutor_name": "Ines", "hours": 3}]),
    ("log 1.5 hours with Marco, the tutor", [TUTOR], [{"tutor_name": "Marco", "hours": 1.5}]),
    ("yes to the gala, I'm bringing 2 guests", [ANSWER], [{"event": "the gala", "going": True, "guests": 2}]),
])
def test_a_person_named_for_their_role_and_i_am_is_no_name(question, tools, arguments):
    """A name parameter of someone's role (a tutor, a sitter) takes the person's name, not the words around it;
    "I'm" starts a clause, it is nobody's name."""
    calls = ask([{"role": "user", "content": question}], tools).tool_calls
    assert [json.loads(c.arguments) for c in calls] == arguments


@pytest.mark.parametrize(("question", "arguments"), [
    ("and 1.5 more too", {"tutor_name": "Marco", "hours": 1.5}),  # "too" is no tutor
    ("and for Ines?", {"tutor_name": "Ines", "hours": 2}),
])
def test_a_follow_up_keeps_the_person_unless_it_names_another(question, arguments):
    made = {"id": "c1", "type": "function",
            "function": {"name": "log_lesson", "arguments": '{"tutor_name": "Marco", "hours": 2}'}}
    history = [{"role": "user", "content": "log 2 hours with Marco, the tutor"}, {"role": "assistant", "content": None,
               "tool_calls": [made]}, {"role": "tool", "tool_call_id": "c1", "content": '{"ok": true}'},
               {"role": "assistant", "content": "Logged."}]
    calls = ask([*history, {"role": "user", "content": question}], [TUTOR]).tool_calls
    assert [json.loads(c.arguments) for c in calls] == [arguments]


SHIFT = tool("log_shift", "Log a shift worked.", worker={"type": "string", "description": "Who worked"},
             hours={"type": "number", "description": "Hours worked"},
             hourly_rate={"type": "number", "description": "Pay per hour"})


@pytest.mark.parametrize("question", ["Kim worked 6 hours at $21 an hour", "6 hours for Kim, 21 dollars an hour"])
def test_an_amount_an_hour_is_a_rate_not_one_more_hour(question):
    calls = ask([{"role": "user", "content": question}], [SHIFT]).tool_calls
    assert [json.loads(c.arguments) for c in calls] == [{"worker": "Kim", "hours": 6, "hourly_rate": 21}]


AREA = tool("rectangle_area", "Area of a rectangle.", length={"type": "number"}, width={"type": "number"})
SEATS = tool("book_seats", "Book seats for a show.", show={"type": "string"}, seats={"type": "integer"})


@pytest.mark.parametrize(("question", "tools", "arguments"), [
    ("area for a length of 3 metres and a width of 2.5 metres", [AREA], {"length": 3, "width": 2.5}),
    ("book a seat for Hamlet", [SEATS], {"show": "Hamlet", "seats": 1}),
])
def test_a_thing_counts_one_unless_it_names_a_value_after_of(question, tools, arguments):
    """ "a seat" is one seat; "a length of 3 metres" names the parameter whose value follows, and is one call."""
    calls = ask([{"role": "user", "content": question}], tools).tool_calls
    assert [json.loads(c.arguments) for c in calls] == [arguments]


def tools_called_with_the_course_file_tools(question, root):
    """The names of the tools the model calls for `question`, offered the course's own file tools over `root`."""
    from agentkit.tools.filesystem import file_tools
    from agentkit.tools.workspace import Workspace

    tools = [definition.to_openai() for definition in file_tools(Workspace(root))]
    return [c.name for c in ask([{"role": "user", "content": question}], tools).tool_calls]


@pytest.mark.parametrize("question", ["看一下 plan.md，帮我总结内容", "读 report.md，分析一下内容", "看看 todo.txt，概括一下"])
def test_reading_then_asking_for_a_summary_is_one_read_not_a_write(question, tmp_path):
    """Summing up, analysing or explaining what was read is the model's own work: no write_file with the verb as content."""
    assert tools_called_with_the_course_file_tools(question, tmp_path) == ["read_file"]


WISH = tool("add_to_wishlist", "Add a book to the wish list.", title={"type": "string", "description": "The book's title"},
            author={"type": "string", "description": "The author's name"})
WISHED_BY = tool("wishlist_by", "The books on the wish list by one author.",
                 author={"type": "string", "description": "The author's name"})


@pytest.mark.parametrize("question", ["把《三体》加到我的阅读清单里，作者是刘慈欣", "把《活着》加到阅读清单，作者是余华"])
def test_a_chinese_name_beside_a_parameter_word_does_not_pull_towards_another_tool(question):
    """The pieces of an unread name ("刘慈", "慈欣") are never joined to the English word before them ("author刘慈"),
    which matched the other tool's parameter as if the request were about the author."""
    calls = ask([{"role": "user", "content": question}], [WISH, WISHED_BY]).tool_calls
    assert [c.name for c in calls] == ["add_to_wishlist"]


@pytest.mark.parametrize("question", ["找出 notes 里所有 .md 文件", "找到 drafts 里所有的 .txt 文件"])
def test_finding_files_by_kind_is_a_glob(question, tmp_path):
    """找出/找到 are "find": unread, the course's file tools all scored alike and the read_file asked for a path."""
    assert tools_called_with_the_course_file_tools(question, tmp_path) == ["glob"]


ROOM = tool("book_meeting_room", "预订会议室", building={"type": "string", "description": "大楼名称"},
            date={"type": "string", "description": "日期"})
SHOW = tool("buy_show_ticket", "买演出门票", theatre={"type": "string", "description": "剧院名称"},
            date={"type": "string", "description": "日期"})


@pytest.mark.parametrize(("question", "tools", "name", "value"), [
    ("明天在科技大厦订个会议室", [ROOM], "building", "科技大厦"),
    ("今晚在星光剧院订票", [SHOW], "theatre", "星光剧院"),
    ("周五在海天大楼预订一间会议室", [ROOM], "building", "海天大楼")])
def test_a_chinese_place_before_the_verb_is_the_value_without_the_verb(question, tools, name, value):
    call = ask([{"role": "user", "content": question}], tools).tool_calls[0]
    assert json.loads(call.arguments)[name] == value


FUEL = tool("log_fuel", "Log a fuel fill-up.", liters={"type": "number"}, price_per_liter={"type": "number"},
            odometer_km={"type": "integer"})
DELI = tool("buy_cheese", "Order cheese at the deli counter.", weight_grams={"type": "integer"},
            price_per_kg={"type": "number"})
WORKOUT = tool("log_workout", "Log a workout.", activity={"type": "string"}, duration_minutes={"type": "integer"})


@pytest.mark.parametrize(("question", "tools", "arguments"), [
    ("put in 30 litres at 1.65/litre, odometer at 48,200km", [FUEL],
     {"liters": 30, "price_per_liter": 1.65, "odometer_km": 48200}),
    ("topped up 22.5L at 1.71/L, 61,040km on the clock", [FUEL],
     {"liters": 22.5, "price_per_liter": 1.71, "odometer_km": 61040}),
    ("300g of brie at 24.90/kg", [DELI], {"weight_grams": 300, "price_per_kg": 24.9}),
    ("log a 45min swim", [WORKOUT], {"activity": "swim", "duration_minutes": 45}),
    ("log a 1h20m bike ride", [WORKOUT], {"activity": "bike ride", "duration_minutes": 80}),
    ("log a hike of 2 hours 10 minutes", [WORKOUT], {"activity": "hike", "duration_minutes": 130}),
])
def test_a_unit_glued_to_its_number_is_one_quantity_and_a_price_per_unit_is_a_price(question, tools, arguments):
    call = ask([{"role": "user", "content": question}], tools).tool_calls
    assert [json.loads(c.arguments) for c in call] == [arguments]


CAFE = tool("order_drink", "Order drinks at the café.", drink={"type": "string"}, cups={"type": "integer"})


@pytest.mark.parametrize(("question", "arguments"), [
    ("order 2 americanos", {"drink": "americanos", "cups": 2}),
    ("order 4 amaretto lattes", {"drink": "amaretto lattes", "cups": 4})])
def test_a_word_that_starts_with_am_or_pm_after_a_number_is_no_clock_time(question, arguments):
    call = ask([{"role": "user", "content": question}], [CAFE]).tool_calls
    assert [json.loads(c.arguments) for c in call] == [arguments]


PRESSURE = {"type": "function", "function": {"name": "record_blood_pressure", "description": "Record a blood pressure reading.",
            "parameters": {"type": "object", "required": ["systolic", "diastolic"], "properties": {
                "systolic": {"type": "integer", "description": "Systolic (upper) pressure in mmHg"},
                "diastolic": {"type": "integer", "description": "Diastolic (lower) pressure in mmHg"},
                "pulse": {"type": "integer", "description": "Heart rate in beats per minute"}}}}}


@pytest.mark.parametrize(("question", "arguments"), [
    ("量了血压，135/88，脉搏70", {"systolic": 135, "diastolic": 88, "pulse": 70}),
    ("my blood pressure this morning was 118/76", {"systolic": 118, "diastolic": 76}),
    ("BP 90/60, pulse 58", {"systolic": 90, "diastolic": 60, "pulse": 58}),
    ("高压一百四十低压九十五", {"systolic": 140, "diastolic": 95}),
    ("收缩压142，舒张压91", {"systolic": 142, "diastolic": 91})])
def test_a_reading_written_high_over_low_is_two_numbers_for_two_parameters(question, arguments):
    call = ask([{"role": "user", "content": question}], [PRESSURE]).tool_calls
    assert [json.loads(c.arguments) for c in call] == [arguments]


TENNIS = {"type": "function", "function": {"name": "book_tennis_court", "description": "预订网球场地", "parameters": {
    "type": "object", "required": ["venue", "date"], "properties": {"venue": {"type": "string", "description": "场馆名称"},
                                                               "date": {"type": "string", "description": "日期"}}}}}
COURT = {"type": "function", "function": {"name": "book_sports_court", "description": "Book a sports court at a venue.",
                                          "parameters": {"type": "object", "required": ["venue", "sport"], "properties": {
                                              "venue": {"type": "string", "description": "The venue's name"},
                                              "sport": {"type": "string", "enum": ["tennis", "basketball"]}}}}}
BATH = {"type": "function", "function": {"name": "book_pet_bath", "description": "Book a bath for a pet at the groomer's.",
                                         "parameters": {"type": "object", "required": ["pet_name", "date"], "properties": {
                                             "pet_name": {"type": "string", "description": "The pet's name"},
                                             "date": {"type": "string", "description": "Day of the visit"}}}}}


@pytest.mark.parametrize(("question", "tools", "name", "value"), [
    ("订明天上午九点体育中心的网球场", [TENNIS], "venue", "体育中心"),
    ("周六下午在大学城体育馆的网球场订两个小时", [COURT], "venue", "大学城体育馆"),
    ("给旺财约个洗澡，周六", [BATH], "pet_name", "旺财"),
    ("给小白预约周日洗澡", [BATH], "pet_name", "小白")])
def test_a_chinese_venue_before_what_is_booked_and_a_name_after_gei_are_the_values(question, tools, name, value):
    call = ask([{"role": "user", "content": question}], tools).tool_calls[0]
    assert json.loads(call.arguments)[name] == value


THEATRE = {"type": "function", "function": {"name": "buy_theatre_ticket", "description": "Buy tickets for a show at a theatre.",
                                            "parameters": {"type": "object", "required": ["theatre"], "properties": {
                                                "theatre": {"type": "string", "description": "Name of the theatre"},
                                                "date": {"type": "string", "description": "Date"}}}}}
ROOMS = {"type": "function", "function": {"name": "reserve_discussion_room", "description": "在图书馆预约讨论室", "parameters": {
    "type": "object", "required": ["library"], "properties": {"library": {"type": "string", "description": "图书馆名称"}}}}}


@pytest.mark.parametrize(("question", "tools", "name", "value"), [
    ("帮我在星光剧院买张周六的票", [THEATRE], "theatre", "星光剧院"),
    ("周五去东区图书馆约个讨论室", [ROOMS], "library", "东区图书馆")])
def test_a_chinese_place_ends_where_the_request_verb_begins(question, tools, name, value):
    call = ask([{"role": "user", "content": question}], tools).tool_calls[0]
    assert json.loads(call.arguments)[name] == value


CONTACT = tool("add_contact", "Add a person to the address book.",
               full_name={"type": "string", "description": "The person's full name."},
               city={"type": "string", "description": "The city they live in."})
LIVING_IN = tool("contacts_in", "The people in the address book who live in one city.",
                 city={"type": "string", "description": "The city."})


@pytest.mark.parametrize("tools", [[CONTACT, LIVING_IN], [LIVING_IN, CONTACT]])
@pytest.mark.parametrize(("request_", "called", "asks"), [
    ("add Ana Silva, the city is Lisbon", [("add_contact", {"full_name": "Ana Silva", "city": "Lisbon"})], None),
    ("add a contact, the city is Lisbon", [], "full name"),  # the name is missing: it asks, it does not look people up
    ("add someone from Porto to my address book", [], "full name"),
])
def test_between_tools_that_fit_about_as_well_the_one_whose_action_is_the_requests_verb_wins(tools, request_, called, asks):
    """A tie, or a word apart, is not decided by the order the tools were offered in: the tool whose action (its name's or
    its description's first word) is the request's verb is the one to call, and asks for what it lacks."""
    reply = ask([{"role": "user", "content": request_}], tools)
    assert [(c.name, json.loads(c.arguments)) for c in reply.tool_calls or []] == called
    assert asks is None or asks in reply.content


GROWTH = tool("future_value", "Future value of a savings deposit.", deposit={"type": "number"},
              rate={"type": "number", "description": "Yearly rate in percent."}, years={"type": "integer"})
CONTRACT = tool("draft_contract", "Draft a contract between parties.",
                parties={"type": "array", "items": {"type": "string"}, "description": "Names of the parties."})
FORECAST = tool("forecast", "Weather forecast for a city.", city={"type": "string"}, days={"type": "integer"})
MEAN = tool("mean", "The mean of a set of numbers.", values={"type": "array", "items": {"type": "number"}})


@pytest.mark.parametrize(("question", "tools", "expected"), [
    ("What does a 1200 deposit grow to at 3% over 2, 4 and 8 years?", [GROWTH],
     [{"deposit": 1200, "rate": 3, "years": y} for y in (2, 4, 8)]),
    ("the 4-day forecast for Ghent, Bruges and Leuven", [FORECAST],
     [{"city": c, "days": 4} for c in ("Ghent", "Bruges", "Leuven")]),
    ("forecast for Cork and Galway, 2 and 6 days respectively", [FORECAST],
     [{"city": "Cork", "days": 2}, {"city": "Galway", "days": 6}]),
    ("Draft a contract between Mira and Tomas", [CONTRACT], [{"parties": ["Mira", "Tomas"]}]),  # the list is one array
    ("the 3-day forecast for Austin, Texas", [FORECAST], [{"city": "Austin", "days": 3}]),  # a place, not a list
    ("the mean of [2, 4] and [6, 8, 10]", [MEAN], [{"values": [2, 4]}, {"values": [6, 8, 10]}]),  # a group is a value
    ("the mean of 2, 4 and 9", [MEAN], [{"values": [2, 4, 9]}]),
])
def test_a_list_of_values_is_a_call_each_unless_the_tool_takes_the_list(question, tools, expected):
    reply = ask([{"role": "user", "content": question}], tools)
    assert [json.loads(c.arguments) for c in reply.tool_calls] == expected


PARCEL = tool("track_parcel", "Where a parcel is on its way.", parcel_id={"type": "string", "description": "The parcel's ID."})
VARIANT = tool("variant_effect", "What a genetic variant does.", variant_id={"type": "string"})


@pytest.mark.parametrize(("question", "tools", "arguments"), [
    ("Where is my parcel? Its tracking ID is ZX40917.", [PARCEL], {"parcel_id": "ZX40917"}),
    ("Look up the effect of variant rs99172.", [VARIANT], {"variant_id": "rs99172"}),
])
def test_an_identifier_before_the_full_stop_is_read(question, tools, arguments):
    """A code of letters and digits that ends the sentence is still the code: its full stop is no part of it."""
    calls = ask([{"role": "user", "content": question}], tools).tool_calls
    assert [json.loads(c.arguments) for c in calls] == [arguments]


RENTALS = tool("forecast_rent", "Forecast the average rent in a city.", city={"type": "string"},
               months={"type": "integer", "description": "How many months ahead to forecast."})
TIDES = tool("tide_times", "High and low tides at a harbour town.", city={"type": "string"},
             days={"type": "integer", "description": "Number of days to list."})


@pytest.mark.parametrize(("question", "tools", "arguments"), [
    ("forecast the rent in Leeds for the next month", [RENTALS], {"city": "Leeds", "months": 1}),
    ("tides at Whitby over the next day", [TIDES], {"city": "Whitby", "days": 1}),
])
def test_the_next_month_counts_one_month(question, tools, arguments):
    """ "the next month" for a count of months is one month, as "a month" is."""
    calls = ask([{"role": "user", "content": question}], tools).tool_calls
    assert [json.loads(c.arguments) for c in calls] == [arguments]


HALLS = tool("hall_of_fame", "The record holders of a chess federation, FIDE for example.",
             federation={"type": "string", "description": "The chess federation to look in. In this case, 'FIDE'."})


def test_an_example_the_description_gives_in_this_case_is_the_value_named():
    """ "In this case, 'FIDE'": a description's one example, named in the question, is the value (not asked for)."""
    calls = ask([{"role": "user", "content": "who holds the highest FIDE rating ever?"}], [HALLS]).tool_calls
    assert [json.loads(c.arguments) for c in calls] == [{"federation": "FIDE"}]


CLOCKS = tool("compare_clocks", "How many hours apart the clocks of two cities are.",
              city1={"type": "string", "description": "The first city for the time comparison."},
              city2={"type": "string", "description": "The second city for the time comparison."})


def test_a_numbered_parameter_takes_the_role_its_name_says():
    """ "city1" is a city whatever its description's words ("time comparison"): the number is no part of the word."""
    calls = ask([{"role": "user", "content": "what's the time gap between Lisbon and Nairobi?"}], [CLOCKS]).tool_calls
    assert [json.loads(c.arguments) for c in calls] == [{"city1": "Lisbon", "city2": "Nairobi"}]
