"""The offline model reads everyday Chinese requests: numbers with units and measure words, titles in the learner's
own words, Chinese words for English options, and general questions that are not requests."""

import json
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agentkit.offline import OfflineModel, dates
from agentkit.offline.general import asks_in_general
from agentkit.offline.vocabulary import english
from agentkit.offline.zh_numbers import as_digits, numeral
from agentkit.offline.zh_values import as_written


def tool(name, description, required, **properties):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": required}}}


def S(description="", **more):  # noqa: N802
    return {"type": "string", "description": description, **more}


def N(description=""):  # noqa: N802
    return {"type": "number", "description": description}


def I(description=""):  # noqa: N802, E743
    return {"type": "integer", "description": description}


SPENDING = tool("log_spending", "记一笔开销。", ["amount", "category"], amount=N("金额"),
                category=S("类别", enum=["food", "transport", "shopping", "fun"]), note=S("备注"))
HOTEL = tool("hotel_search", "Find hotels in a city.", ["city"], city=S("city name"), nights=I("number of nights"))
EVENT = tool("drop_event", "Cancel a calendar event by its title.", ["title"], title=S("event title"))
CLOCK = tool("clock", "查询某个时区的当前时间。", ["zone"], zone=S("IANA 时区名"))
ROOM = tool("room_heat", "Set a room's target temperature.", ["room", "celsius"],
            room=S("", enum=["bedroom", "kitchen", "living_room"]), celsius=N("degrees Celsius"))
TIP = tool("tip", "Work out a tip.", ["bill", "percent"], bill=N("bill total"), percent=N("tip percent"),
           people=I("people sharing"))
WATER = tool("water_log", "Log water you drank.", ["ml"], ml=I("amount in millilitres"))


def calls(question, *tools):
    reply = OfflineModel().respond({"model": "m", "messages": [{"role": "user", "content": question}], "tools": list(tools)})
    return [(c.name, json.loads(c.arguments)) for c in reply.tool_calls], reply.content


@pytest.mark.parametrize(("written", "number"), [
    ("三百六", 360), ("两千五", 2500), ("一万二", 12000), ("一百零五", 105), ("三十五", 35), ("十", 10), ("两", 2)])
def test_a_chinese_numeral_is_read_as_people_say_prices(written, number):
    assert numeral(written) == number


@pytest.mark.parametrize(("text", "read"), [
    ("百分之十五", "15%"), ("二十点五度", "20.5 度"), ("三张票", "3 票"), ("租一辆车", "租 a 车"), ("九点五分", "9 点 5 分"),
    ("一等座", "first class")])
def test_percentages_decimals_and_measure_words(text, read):
    assert " ".join(as_digits(text).split()) == read


@settings(derandomize=True, max_examples=60)
@given(st.integers(min_value=1, max_value=99))
@example(20)
@example(11)
def test_every_number_below_a_hundred_said_with_a_unit_is_read_back(n):
    tens, ones = divmod(n, 10)
    digits = "零一二三四五六七八九"
    written = (f"{digits[tens] if tens > 1 else ''}十" if tens else "") + (digits[ones] if ones else "")
    assert f"{n} ml" in english(f"喝了{written}毫升水")


def test_a_single_character_word_inside_an_unknown_word_is_left_whole():
    assert "周会" in english("取消周会")  # the weekly meeting, not "weeks" and "会"
    assert "next week" in english("下周开会") and "tomorrow" in english("明天的牙医")


@pytest.mark.parametrize(("value", "question", "written"), [
    ("cancel 周会", "取消周会", "取消周会"), ("周会", "取消周会", "周会"), ("取 package", "下午四点提醒我取快递", "取快递"),
    ("Osaka", "在大阪租车", "大阪"), ("nothing here", "取消周会", "nothing here")])
def test_a_value_goes_back_to_the_words_the_learner_wrote(value, question, written):
    assert as_written(value, question) == written


@pytest.mark.parametrize(("question", "general"), [
    ("什么是股票代码？", True), ("多喝水有什么好处？", True), ("为什么天空是蓝色的？", True), ("复利是什么意思？", True),
    ("纽约现在是什么时间？", False), ("notes.txt 里是什么？", False), ("上海天气怎么样", False), ("北京有什么酒店", False),
    ("What is a ticker?", False), ("serendipity是什么意思？", False), ("请问 ubiquitous 什么意思", False)])
def test_a_general_question_is_told_from_a_request(question, general):
    assert asks_in_general(question) is general


@pytest.mark.parametrize(("question", "tools", "expected"), [
    ("我今天喝了三百毫升水", [WATER], [("water_log", {"ml": 300})]),
    ("北京有什么酒店，住两晚", [HOTEL], [("hotel_search", {"city": "北京", "nights": 2})]),  # the city as written
    ("午饭花了三十五块，记一笔餐饮支出", [SPENDING, HOTEL], [("log_spending", {"amount": 35, "category": "food"})]),
    ("打车花了二十八块", [SPENDING], [("log_spending", {"amount": 28, "category": "transport"})]),
    ("取消周会", [EVENT, CLOCK], [("drop_event", {"title": "周会"})]),
    ("把卧室温度调到二十二度", [ROOM, CLOCK], [("room_heat", {"room": "bedroom", "celsius": 22})]),
    ("账单一百二十元，给百分之十五的小费", [TIP, SPENDING], [("tip", {"bill": 120, "percent": 15})]),
    ("首尔和悉尼现在几点", [CLOCK], [("clock", {"zone": "Asia/Seoul"}), ("clock", {"zone": "Australia/Sydney"})]),
])
def test_everyday_chinese_requests(question, tools, expected):
    made, _ = calls(question, *tools)
    assert [(name, {k: v for k, v in arguments.items() if k != "note"}) for name, arguments in made] == expected


@pytest.mark.parametrize(("question", "tools"), [
    ("什么是股票代码？", [tool("quote", "股票的最新价格。", ["ticker"], ticker=S("股票代码"))]),
    ("多喝水有什么好处？", [WATER]), ("小费一般给多少比较合适？", [TIP])])
def test_a_general_chinese_question_gets_words_in_chinese_not_a_call(question, tools):
    made, said = calls(question, *tools)
    assert made == [] and said and any("\u4e00" <= c <= "\u9fff" for c in said) and "MODEL_API_KEY" not in said


def answer_after(question, name, arguments, result, *tools):
    messages = [{"role": "user", "content": question},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]},
                {"role": "tool", "tool_call_id": "c1", "content": result}]
    return OfflineModel().respond({"model": "m", "messages": messages, "tools": list(tools)}).content


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("大阪的空气质量怎么样", "air", {"city": "Osaka"}, '{"aqi": 85}', "大阪"),  # the place as the learner named it
    ("三十五摄氏度是多少华氏度", "convert_temperature", {"value": 35, "from_unit": "C", "to_unit": "F"}, '{"result": 95}',
     "35 C 是 95 F。"),
    ("取消周会", "drop_event", {"title": "周会"}, "Cancelled.", "已取消。"),
    ("今晚七点订位", "reserve_table", {"time": "19:00"}, '{"confirmed": true, "table": 12}', "已预留 19:00：桌号是 12"),
])
def test_an_answer_in_chinese_says_the_values_in_chinese(question, name, arguments, result, said):
    answer = answer_after(question, name, arguments, result)
    assert said in answer and "{" not in answer and name not in answer


def workspace_tools():
    from pathlib import Path

    import agentkit.evaluation  # the course's eval schemas: the same file tools `agentkit chat` offers
    functions = json.loads((Path(agentkit.evaluation.__file__).parents[2] / "notebooks/data/eval/functions.json").read_text())
    return [f for f in functions if f["function"]["name"] in ("read_file", "glob", "bash", "edit_file", "write_file")]


@pytest.mark.parametrize(("question", "expected"), [
    ('把 todo.txt 里的 "buy milk" 改成 "buy oat milk"',
     [("edit_file", {"path": "todo.txt", "old_text": "buy milk", "new_text": "buy oat milk"})]),
    ("看看 report.md 里写了什么", [("read_file", {"path": "report.md"})]),
    ("report.md 里有什么？", [("read_file", {"path": "report.md"})]),
    ("把 hello 写进 hi.txt", [("write_file", {"path": "hi.txt", "content": "hello"})]),
    ("用 shell 数一下 notes.txt 有几行", [("bash", {"command": "wc -l notes.txt"})]),
])
def test_everyday_workspace_requests_in_chinese(question, expected):
    made, _ = calls(question, *workspace_tools())
    assert made == expected


def test_a_quoted_title_is_kept_as_written_and_everyday_words_are_read():
    book = tool("borrow_book", "Borrow a book from the library.", ["title"], title=S("book title"), weeks=I("loan weeks"))
    assert calls("帮我借《三体》这本书，借三周", book)[0] == [("borrow_book", {"title": "三体", "weeks": 3})]
    coffee = tool("order_coffee", "点咖啡。", ["drink", "cups"], drink=S("饮品名称"), cups=I("杯数"),
                  size=S("杯型", enum=["small", "medium", "large"]))
    assert calls("来两杯大杯拿铁", coffee)[0] == [("order_coffee", {"drink": "拿铁", "cups": 2, "size": "large"})]


def test_a_missing_value_is_asked_for_in_chinese_by_its_chinese_description():
    from agentkit.offline.answer import ask_for
    schema = {"properties": {"from_unit": {"type": "string", "description": "原单位"}, "to_unit": {"type": "string"}}}
    asked = ask_for("convert", ["from_unit", "to_unit"], "zh", schema)
    assert asked.startswith("请问原单位和") and "fromunit" not in asked and "tounit" not in asked


def test_a_follow_up_that_changes_one_value_repeats_the_last_call():
    fx = tool("fx", "Convert money.", ["amount", "from_ccy", "to_ccy"], amount=N(), from_ccy=S("ISO code"), to_ccy=S("ISO code"))
    messages = [{"role": "user", "content": "把 100 美元换成欧元"},
                {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
                    "name": "fx", "arguments": '{"amount": 100, "from_ccy": "USD", "to_ccy": "EUR"}'}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "92.3"},
                {"role": "assistant", "content": "100 USD 是 92.3 EUR。"},
                {"role": "user", "content": "换成日元呢？"}]
    reply = OfflineModel().respond({"model": "m", "messages": messages, "tools": [fx]})
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [{"amount": 100, "from_ccy": "USD", "to_ccy": "JPY"}]


@pytest.mark.parametrize(("said", "read"), [
    ("12月25日", "December 25"), ("3月5号", "March 5"), ("三天后", "in 3 days"), ("两周以后", "in 2 weeks"),
    ("这周五", "Friday this week"), ("下个星期三", "Wednesday next week"), ("下个星期", "next week"), ("大后天", "in 3 days")])
def test_chinese_dates_read_as_english_a_date_parameter_understands(said, read):
    assert english(said) == read


def test_a_relative_chinese_date_becomes_a_date_when_the_schema_asks_for_one():
    import datetime as dt
    flight = tool("flights", "Search flights.", ["origin", "destination", "date"], origin=S("from city"),
                  destination=S("to city"), date=S("YYYY-MM-DD"))
    made, _ = calls("三天后从上海飞东京的航班", flight)
    assert made[0][1]["date"] == (dt.date.today() + dt.timedelta(days=3)).isoformat()


def test_news_about_a_topic_takes_the_topic_in_chinese():
    news = tool("search_news", "Search recent news about a topic.", ["topic"], topic=S("topic"))
    assert calls("搜一下关于人工智能的新闻", news)[0] == [("search_news", {"topic": "人工智能"})]
    assert calls("最近有什么 AI 新闻", news)[0] == [("search_news", {"topic": "AI"})]


@pytest.mark.parametrize("question", ["查一下快递 1Z999AA10123456784，是 UPS 的", "where's my ups package 1Z999AA10123456784"])
def test_an_identifier_of_letters_and_digits_goes_to_a_tracking_number(question):
    parcel = tool("track_parcel", "Track a parcel by its tracking number.", ["tracking_number"],
                  tracking_number=S("carrier tracking number"), carrier=S("", enum=["ups", "fedex", "dhl"]))
    assert calls(question, parcel)[0] == [("track_parcel", {"tracking_number": "1Z999AA10123456784", "carrier": "ups"})]
    made, asked = calls("track my parcel", parcel)
    assert made == [] and "tracking number" in asked  # no identifier: asked for, not made up


@pytest.mark.parametrize("question", ["加了四十升油，花了三百二十元", "I put in 40 liters of fuel, and spent 320"])
def test_a_clause_that_completes_the_call_before_is_not_a_call_of_another_tool(question):
    fuel = tool("log_fuel", "记录一次加油。", ["liters", "cost"], liters=N("加油量（升）"), cost=N("花费金额（元）"))
    assert calls(question, fuel, SPENDING)[0] == [("log_fuel", {"liters": 40, "cost": 320})]


def test_a_parameter_described_as_hh_mm_takes_the_time():
    movie = tool("buy_movie_tickets", "Buy cinema tickets for a film.", ["movie", "count"], movie=S("film title"),
                 count=I("number of tickets"), showtime=S("HH:MM"))
    assert calls("买两张《沙丘》的电影票，晚上八点那场", movie)[0] == [
        ("buy_movie_tickets", {"movie": "沙丘", "count": 2, "showtime": "20:00"})]


def test_a_foreign_name_joined_by_a_middle_dot_is_not_read_word_by_word():
    read = english("把《沙丘》加到我的阅读清单里，作者是弗兰克·赫伯特")
    assert "弗兰克·赫伯特" in read and "grams" not in read
    assert "grams" in english("五克")  # a unit after a number is still one


@pytest.mark.parametrize(("question", "arguments"), [
    ("把《沙丘》加到我的阅读清单里，作者是弗兰克·赫伯特", {"title": "沙丘", "author": "弗兰克·赫伯特"}),
    ('Add "Dune" to my reading list, the author is Frank Herbert', {"title": "Dune", "author": "Frank Herbert"}),
])
def test_a_clause_that_only_gives_a_value_by_its_role_completes_the_call_before_it(question, arguments):
    """"…, the author is X" / "…，作者是X" is not a second request: one call, X as the author, the name kept whole."""
    book = {"type": "function", "function": {"name": "add_book", "description": "Add a book to the reading list.",
            "parameters": {"type": "object", "properties": {"title": {"type": "string", "description": "The title."},
                           "author": {"type": "string", "description": "Who wrote it."}},
                           "required": ["title", "author"]}}}
    assert calls(question, book)[0] == [("add_book", arguments)]


@pytest.mark.parametrize("question", ["Add a task to pay rent, the priority is high", "加一条待办：交房租，优先级是高"])
def test_a_value_given_by_its_role_does_not_bleed_into_the_free_text_before_it(question):
    todo = {"type": "function", "function": {"name": "add_todo_item", "description": "Add a task to the to-do list.",
            "parameters": {"type": "object", "properties": {
                "task": {"type": "string", "description": "What needs to be done."},
                "priority": {"type": "string", "enum": ["low", "medium", "high"], "description": "How urgent."}},
                "required": ["task"]}}}
    [(name, arguments)] = calls(question, todo)[0]
    assert name == "add_todo_item" and arguments["priority"] == "high"
    assert arguments["task"] in ("pay rent", "交房租")


@pytest.mark.parametrize(("question", "unit"), [
    ("大米加入购物清单", None), ("购物清单加上大米", None), ("克隆仓库", None), ("米饭加到清单里", None),
    ("把分享照片加到待办", None), ("秒杀活动提醒我", None), ("升级系统", None),
    ("5克盐", "grams"), ("购物清单加上 2 升牛奶", "liters"), ("五百克面粉", "grams"), ("一英里是多少米", "meters"),
])
def test_a_unit_character_is_a_unit_after_a_number_or_alone_and_a_word_inside_a_word(question, unit):
    """ "大米" is rice and "克隆" clone; "5克", "2 升" and "多少米" are units (issue 34/37: "大 meters")."""
    read = english(question).split()
    assert [w for w in read if w in ("grams", "meters", "liters")] == ([unit] if unit else [])


DESK = tool("book_room", "Book a meeting room.", ["room", "day"], room=S("the room's number or name"),
            day=S("YYYY-MM-DD"), hours=I("how many hours"))


@pytest.mark.parametrize(("question", "room"), [("帮我订明天的3号会议室，两个小时", "3"), ("明天的12号会议室帮我订一下", "12"),
                                                ("订后天的7号房间", "7")])
def test_a_number_before_hao_names_the_thing_after_it(question, room):
    """ "3号会议室" is meeting room number 3 (a table of what such a number names, lexicon `zh.numbered`); "5号" with no
    such word after it stays a day of the month."""
    reply = OfflineModel().respond({"messages": [{"role": "user", "content": question}], "tools": [DESK]})
    assert [json.loads(c.arguments)["room"] for c in reply.tool_calls] == [room]
    assert "#" not in english("12月5号见") and "December 5" in english("12月5号见")


RING = tool("ring_clock", "Set a wake-up alarm.", ["at"], at=S("HH:MM, 24-hour"))
PING = tool("push_notice", "Push a notification to the phone at a given time.", ["text", "at"],
            text=S("what the notification says"), at=S("HH:MM, 24-hour"))


@pytest.mark.parametrize("question", ["后天早上6点叫醒我", "周日8点叫我起来去爬山", "wake me at 6 the day after tomorrow"])
def test_wake_me_up_said_in_chinese_reaches_the_alarm_not_the_notification(question):
    made, _ = calls(question, PING, RING)
    assert [name for name, _ in made] == ["ring_clock"]


@pytest.mark.parametrize(("question", "text"), [("提醒我明天下午三点交电费", "交电费"),
                                                 ("remind me tomorrow at 3pm to pay the power bill", "pay the power bill")])
def test_remind_me_reaches_a_notification_tool(question, text):
    made, _ = calls(question, PING)
    assert made == [("push_notice", {"text": text, "at": "15:00"})]


TRAINING = tool("log_training", "Log a training session in my sports diary.", ["sport", "minutes"],
                sport=S("which sport"), minutes=I("how long, in minutes"))


@pytest.mark.parametrize(("question", "sport", "minutes"), [
    ("记一下：骑车 45 分钟", "骑车", 45), ("记一下：跑步 1 小时", "跑步", 60)])
def test_a_duration_after_a_colon_leaves_no_word_of_its_own_in_the_text(question, sport, minutes):
    made, _ = calls(question, TRAINING)
    assert made == [("log_training", {"sport": sport, "minutes": minutes})]


@pytest.mark.parametrize(("question", "text"), [("提醒我晚上9点给奶奶打电话", "奶奶打电话"),
                                                 ("提醒我下午4点半给张老师打电话", "张老师打电话")])
def test_a_to_that_holds_only_the_time_gives_way_to_the_next_to(question, text):
    """ "提醒我晚上9点给奶奶打电话" reads "remind me to at 21:00 to 奶奶 call": the first "to" holds only the time, so the
    text is what follows the next one, the act with whom (not 奶奶 alone, "call" being a word of no meaning here)."""
    made, _ = calls(question, PING)
    assert [arguments["text"] for _, arguments in made] == [text]


SPOTS = tool("places_near", "Find places near a spot.", ["spot", "kind"], spot=S("an address or an area"),
             kind=S("what kind of place", enum=["bank", "pharmacy", "cafe", "gym"]))


@pytest.mark.parametrize(("question", "kind"), [("附近有几家银行？我在南京新街口", "bank"),
                                                 ("附近有几家咖啡馆？我在武汉光谷", "cafe")])
def test_how_many_of_a_kind_is_what_is_asked_not_where(question, kind):
    """ "附近有几家银行" (how many banks are near): "几家银行" is what is asked, no place; "我在 X" says where, and
    the two sentences are one request."""
    made, _ = calls(question, SPOTS)
    assert len(made) == 1 and made[0][1]["kind"] == kind and not re.search("几|多少|how", made[0][1]["spot"], re.I)
REST = tool("note_rest", "记录一晚的睡眠。", ["length_hours"], length_hours=N("睡了几个小时"),
            how_well=S("睡眠质量（可选）", enum=["poor", "ok", "good"]))


@pytest.mark.parametrize(("question", "arguments"), [
    ("昨晚只睡了5个小时，睡得不好", {"length_hours": 5, "how_well": "poor"}),
    ("昨晚睡了六个半小时，睡得很好", {"length_hours": 6.5, "how_well": "good"})])
def test_sleep_logged_in_chinese_reaches_a_sleep_tool_described_in_chinese(question, arguments):
    assert calls(question, REST, TRAINING, WATER)[0] == [("note_rest", arguments)]


def test_a_night_of_sleep_and_a_glass_of_water_are_two_calls():
    assert calls("昨晚睡了8个小时，今天喝了500毫升水", REST, WATER, TRAINING)[0] == [
        ("note_rest", {"length_hours": 8}), ("water_log", {"ml": 500})]


STOCK = tool("stock_up", "把一样东西加入采购清单。", ["item"], item=S("东西的名称"), quantity=N("数量，默认 1"),
             unit=S("单位（可选）"))


@pytest.mark.parametrize(("question", "item", "count", "unit"), [
    ("采购清单加两袋面粉", "面粉", 2, {"unit": "袋"}), ("采购清单里加6个鸡蛋", "鸡蛋", 6, {})])
def test_a_number_before_a_chinese_word_counts_it(question, item, count, unit):  # 袋 is its unit, as written; 个 only counts
    assert calls(question, STOCK, SPENDING)[0] == [("stock_up", {"item": item, "quantity": count} | unit)]


HOLD = tool("hold_table", "在餐厅订座。", ["restaurant", "day", "time", "guests"], restaurant=S("餐厅名称"),
            day=S("日期 YYYY-MM-DD", format="date"), time=S("到店时间 HH:MM"), guests=I("人数"))
DIARY = tool("put_on_calendar", "在日历里加一个日程。", ["title", "day", "time"], title=S("日程标题"),
             day=S("日期 YYYY-MM-DD", format="date"), time=S("开始时间 HH:MM"))


@pytest.mark.parametrize(("question", "time", "guests"), [
    ("明天晚上7点半订个位子，外婆家，5个人", "19:30", 5), ("后天中午订个桌子，外婆家，12点，3个人", "12:00", 3)])
def test_values_listed_after_commas_complete_the_one_request(question, time, guests):
    made = calls(question, DIARY, HOLD, SPENDING)[0]
    assert [(name, {k: v for k, v in arguments.items() if k != "day"}) for name, arguments in made] == [
        ("hold_table", {"restaurant": "外婆家", "time": time, "guests": guests})]


FX = tool("fx_rate", "把一笔钱换算成另一种货币。", ["amount", "from_code", "to_code"], amount=N("金额"),
          from_code=S("原货币代码，如 USD"), to_code=S("目标货币代码，如 EUR"))
SAY = tool("say_in", "把一句话翻译成另一种语言。", ["text", "to_lang"], text=S("原文"), to_lang=S("目标语言代码，如 en、ja"))


def test_a_sum_changed_into_two_currencies_is_two_calls_from_the_same_currency():
    assert calls("50欧元换成英镑和美元", FX, SPENDING)[0] == [
        ("fx_rate", {"amount": 50, "from_code": "EUR", "to_code": "GBP"}),
        ("fx_rate", {"amount": 50, "from_code": "EUR", "to_code": "USD"})]


@pytest.mark.parametrize(("question", "first", "second"), [
    ("“谢谢”翻译成英文和法文", "en", "fr"), ("把“早上好”翻译成日文和韩语", "ja", "ko")])
def test_languages_named_with_wen_or_yu_are_languages(question, first, second):
    text = question.split("“")[1].split("”")[0]
    assert calls(question, SAY, SPENDING)[0] == [("say_in", {"text": text, "to_lang": first}),
                                                 ("say_in", {"text": text, "to_lang": second})]


DRUGSTORE = tool("drugstore_near", "查找附近的药店。", ["where"], where=S("地址或地标"))


@pytest.mark.parametrize("question", ["中关村附近的药店", "中山公园附近有药店吗"])
def test_a_place_whose_first_character_alone_links_words_keeps_it(question):
    assert calls(question, DRUGSTORE, SPENDING)[0][0][1]["where"] in ("中关村", "中山公园")


@pytest.mark.parametrize(("text", "read"), [("在家中", "in 家"), ("在文件中查找", "in files 查找")])
def test_that_character_still_links_after_a_word(text, read):
    assert english(text) == read


CLINIC = tool("clinic_near", "查找附近的诊所。", ["where"], where=S("地址或地标"),
              open_now={"type": "boolean", "description": "只显示正在营业的，默认 false"})


@pytest.mark.parametrize("question", ["国贸附近还开着的诊所", "望京附近现在开门的诊所", "西单附近营业中的诊所"])
def test_a_place_said_to_be_open_now_in_chinese_sets_open_now(question):
    assert calls(question, CLINIC, SPENDING)[0][0][1]["open_now"] is True


HOLD_BOOK = tool("hold_book", "在图书馆预约一本书。", ["title"], title=S("书名"), branch=S("取书的分馆（可选）"))


@pytest.mark.parametrize(("question", "title"), [("帮我预约一本百年孤独", "百年孤独"), ("图书馆借一本三国演义", "三国演义")])
def test_a_book_named_after_yi_ben_is_its_title_as_written(question, title):
    assert calls(question, HOLD_BOOK, SPENDING)[0] == [("hold_book", {"title": title})]


def test_a_book_that_is_only_a_book_is_no_title():
    assert english("帮我在图书馆借一本书") == "in library borrow a book"


GATHERING = tool("plan_event", "在日历中添加一个日程。", ["title", "time"], title=S("日程标题"), time=S("开始时间 HH:MM"),
                 location=S("地点，可选"))


@pytest.mark.parametrize(("question", "arguments"), [
    ("明天下午3点打羽毛球，地点在体育馆", {"title": "羽毛球", "time": "15:00", "location": "体育馆"}),
    ("后天下午2点半体检，地点是社区医院", {"title": "体检", "time": "14:30", "location": "社区医院"})])
def test_a_place_given_by_its_role_after_a_comma_is_the_events_place(question, arguments):
    assert calls(question, GATHERING, SPENDING)[0] == [("plan_event", arguments)]


@pytest.mark.parametrize(("question", "place"), [("万达广场附近的药店", "万达广场"), ("千禧广场附近有药店吗", "千禧广场")])
def test_a_power_of_ten_alone_is_a_character_of_a_name_not_a_number(question, place):
    assert calls(question, DRUGSTORE, SPENDING)[0] == [("drugstore_near", {"where": place})]
    assert as_digits("两百块") == " 200 块" and as_digits("一万二").strip() == "12000"


MEETING = tool("hold_meeting", "Put a meeting in the calendar.", ["topic", "when"], topic=S("what it is about"),
               when=S("start time HH:MM"), minutes=I("length in minutes"), where=S("room"))
BROADBAND = tool("pay_provider", "缴纳网费、话费等账单。", ["provider", "yuan"], provider=S("收款公司"), yuan=N("金额（元）"))
SLEEP = tool("sleep_diary", "Record how long you slept.", ["hours"], hours=N("hours slept"))
COUNTDOWN = tool("countdown", "Start a countdown timer.", ["minutes"], minutes=I("minutes"))
TABLE = tool("reserve_table", "Reserve a table at a restaurant.", ["time"], time=S("HH:MM"), guests=I("people"))


@pytest.mark.parametrize(("question", "said"), [
    ("周四上午十点季度复盘，在2号会议室，开一个小时", {"when": "10:00", "minutes": 60}),
    ("下午4点跟设计组过稿子，在大会议室，四十分钟", {"when": "16:00", "minutes": 40})])
def test_a_chinese_clause_after_a_comma_with_no_request_of_its_own_fills_the_same_call(question, said):
    made = calls(question, MEETING, COUNTDOWN)[0]
    assert len(made) == 1 and made[0][0] == "hold_meeting" and said.items() <= made[0][1].items()
    made = calls("交网费，中国联通，一百二十块", BROADBAND, SPENDING)[0]
    assert len(made) == 1 and made[0][0] == "pay_provider" and made[0][1]["yuan"] == 120


def test_a_chinese_clause_that_is_a_request_of_its_own_or_opens_with_zai_is_another_call():
    made = calls("今天喝了500毫升水，昨晚睡了6个小时", WATER, SLEEP)[0]
    assert [name for name, _ in made] == ["water_log", "sleep_diary"]
    made = calls("明天中午12点订个桌子，顺便定个20分钟的计时器", TABLE, COUNTDOWN)[0]
    assert [name for name, _ in made] == ["reserve_table", "countdown"] and made[1][1] == {"minutes": 20}


SALON = tool("salon_booking", "Book a haircut at the salon.", ["time"], time=S("HH:MM"), stylist=S("who cuts"))


def test_a_second_chinese_request_with_zai_inside_is_one_call_of_the_tool_its_own_verb_names():
    made = calls("上午9点加个体检的日程，下午2点再约个理发", GATHERING, SALON, SPENDING)[0]
    assert [name for name, _ in made] == ["plan_event", "salon_booking"] and made[1][1] == {"time": "14:00"}


EXCHANGE = tool("swap_currency", "Exchange money from one currency to another.", ["amount", "source", "target"],
                amount=N("how much"), source=S("currency code paid in"), target=S("currency code received"))
DISHES = tool("dishes_from", "Suggest dishes to cook with what is in the kitchen.", ["foods"],
              foods={"type": "array", "items": {"type": "string"}, "description": "ingredients at hand"})
FLIGHT = tool("flight_live", "航班动态：是否晚点、登机口。", ["number"], number=S("航班号"))


@pytest.mark.parametrize(("question", "source", "target"), [
    ("800块人民币能换多少英镑", "CNY", "GBP"), ("30英镑兑多少美元", "GBP", "USD"), ("50美元可以兑多少欧元呢", "USD", "EUR")])
def test_the_currency_asked_for_after_huan_is_the_one_wanted(question, source, target):
    made = calls(question, EXCHANGE, SPENDING)[0]
    assert [(name, arguments["source"], arguments["target"]) for name, arguments in made] == [("swap_currency", source, target)]


@pytest.mark.parametrize(("question", "name"), [
    ("家里只剩白菜和豆腐，能做点什么", "dishes_from"), ("冰箱里还有西兰花和鸡胸肉，可以做啥菜", "dishes_from"),
    ("MU2451今天准点吗", "flight_live"), ("CZ3101能不能准时起飞", "flight_live")])
def test_a_chinese_question_shape_does_not_hide_the_request(question, name):
    assert [made for made, _ in calls(question, DISHES, FLIGHT, SPENDING)[0]] == [name]


@pytest.mark.parametrize("said", ["好的，辛苦啦", "哈哈，太好了，谢谢", "行，没问题", "收到，麻烦你了"])
def test_chinese_thanks_and_okays_after_a_call_ask_for_nothing(said):
    history = [{"role": "user", "content": "交网费，中国联通，一百块"},
               {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
                   "name": "pay_provider", "arguments": json.dumps({"provider": "中国联通", "yuan": 100})}}]},
               {"role": "tool", "tool_call_id": "c1", "content": '{"paid": true}'}, {"role": "assistant", "content": "已缴费。"}]
    reply = OfflineModel().respond({"model": "m", "messages": [*history, {"role": "user", "content": said}],
                                    "tools": [BROADBAND, SPENDING]})
    assert not reply.tool_calls and reply.content


HEATER = tool("heater_power", "控制暖气开关。", ["room", "power"], room=S("房间"), power=S("开或关", enum=["on", "off"]))
SHED = tool("shed_door", "Open or shut the shed door.", ["move"], move=S("what the door does", enum=["open", "close"]))
COACH = tool("coach_ticket", "订长途汽车票。", ["from_city", "to_city"], from_city=S("出发城市"), to_city=S("到达城市"),
             riders=I("人数"))


@pytest.mark.parametrize(("question", "expected"), [
    ("把书房的暖气关了", ("heater_power", {"room": "书房", "power": "off"})),
    ("书房暖气开一下", ("heater_power", {"room": "书房", "power": "on"})),
    ("把棚屋门打开", ("shed_door", {"move": "open"})), ("棚屋门关上", ("shed_door", {"move": "close"}))])
def test_a_chinese_verb_of_turning_on_or_off_names_the_action_option(question, expected):
    assert calls(question, HEATER, SHED)[0] == [expected]


@pytest.mark.parametrize(("question", "origin", "destination"), [
    ("买两张成都到重庆的汽车票", "成都", "重庆"), ("从西安去武汉的大巴，一个人", "西安", "武汉")])
def test_a_chinese_place_is_given_as_the_learner_wrote_it(question, origin, destination):
    [(name, arguments)] = calls(question, COACH, HEATER)[0]
    assert (arguments["from_city"], arguments["to_city"]) == (origin, destination)


def test_a_chinese_follow_up_names_its_room_as_written():
    history = [{"role": "user", "content": "书房暖气打开"}, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "heater_power", "arguments": '{"room": "书房", "power": "on"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"ok": true}'}, {"role": "assistant", "content": "已打开。"}]
    reply = OfflineModel().respond({"model": "m", "messages": [*history, {"role": "user", "content": "卧室也开一下"}],
                                    "tools": [HEATER, SHED]})
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [{"room": "卧室", "power": "on"}]


BINS = tool("bin_day", "查询某个地址哪天收垃圾。", ["address"], address=S("街道地址或小区名"),
            kind=S("垃圾类型", enum=["recycling", "compost", "glass"]))
SHARE = tool("share_cost", "Split a cost evenly.", ["total", "people"], total=N("total"), people=I("how many people"),
             payer=S("name of who paid"))


@pytest.mark.parametrize(("question", "address"), [
    ("我住和平街22号，周几收垃圾？", "和平街22号"), ("玻璃瓶哪天收？地址是金色家园", "金色家园"),
    ("我住在东风小区，哪天收厨余", "东风小区")])
def test_an_address_after_dizhi_or_wozhu_is_given_as_written(question, address):
    [(name, arguments)] = calls(question, BINS, HEATER)[0]
    assert (name, arguments["address"]) == ("bin_day", address)


def test_aa_says_the_cost_is_split_evenly_and_names_no_payer():
    assert calls("午饭一共240块，三个人AA", SHARE, BINS)[0] == [("share_cost", {"total": 240, "people": 3})]


LICENSE = tool("renew_license", "Renew a driver's license before it runs out.", [])
INSPECTION = tool("book_inspection", "Book the annual inspection of a car at a test centre.", [])
BLOOD = tool("donate_blood", "Sign up at a clinic to donate blood.", [])
FAULT = tool("report_fault", "Report a broken fixture to the landlord.", ["fixture"], fixture=S("what is broken"))


@pytest.mark.parametrize(("question", "expected"), [
    ("我的驾照下个月过期，帮我续一下", "renew_license"),
    ("车子该年检了，约个时间", "book_inspection"),
    ("我想去献血", "donate_blood"),
])
def test_a_word_the_vocabulary_lacks_is_read_through_the_dictionary(question, expected):
    """驾照, 年检, 献血 are not in the vocabulary: CC-CEDICT's first sense ("driver's license") meets the description."""
    made, _ = calls(question, LICENSE, INSPECTION, BLOOD, FAULT)
    assert [name for name, _ in made] == [expected]



RINGTONE = tool("change_ringtone", "Change the ringtone of the phone.", ["tune"], tune=S("the song to ring with"))
SCREENSAVER = tool("set_screensaver", "Set the screensaver of the computer.", ["picture"], picture=S("the picture"))
CREDIT = tool("recharge_phone", "给手机充话费。", ["amount"], amount=N("金额"))
PC_REPAIR = tool("book_pc_repair", "预约上门修电脑。", ["day"], day=S("日期"))


@pytest.mark.parametrize(("question", "expected"), [
    ("换个手机铃声", "change_ringtone"), ("电脑屏保换成星空", "set_screensaver"), ("手机铃声太吵了，换一个", "change_ringtone")])
def test_the_dictionary_reading_wins_where_it_meets_a_tool_far_better(question, expected):
    """手机 alone meets a tool described in Chinese (给手机充话费); 铃声 and 屏保, which the vocabulary lacks, read through
    CC-CEDICT as "ringtone" and "screensaver", meet another by far more: the two readings are weighed, not the first kept."""
    made, _ = calls(question, RINGTONE, SCREENSAVER, CREDIT, PC_REPAIR)
    assert [name for name, _ in made] == [expected]


SYNONYMS = tool("find_synonyms", "List synonyms of a word.", ["word"], word=S("the word"))


@pytest.mark.parametrize(("question", "word"), [("开心的近义词", "开心"), ("帮我找几个勇敢的近义词", "勇敢")])
def test_a_value_the_dictionary_read_is_quoted_as_written(question, word):
    """The dictionary reads 开心 as "feel happy" to choose the tool; the value is the learner's word, not the gloss."""
    assert calls(question, SYNONYMS, FAULT)[0] == [("find_synonyms", {"word": word})]


SPEAKER = tool("speaker_play", "Play audio on the kitchen speaker.", [], what=S("song or station"))
BALLOT = tool("submit_ballot", "Vote for an option in a club poll.", ["choice"], choice=S("the option"))
MEMO = tool("keep_memo", "Save a short memo.", ["memo"], memo=S("memo text"))
RIDE = tool("ride", "Book a taxi ride.", ["to"], to=S("destination"))
TRANSLATE = tool("trans", "Translate text.", ["text", "lang"], text=S("text"), lang=S("target language"))
REMOVE = tool("rm", "Delete a file.", ["path"], path=S("file path"))


@pytest.mark.parametrize(("question", "expected"), [
    ("帮我放一首晴天", "speaker_play"), ("听一下新闻", "speaker_play"), ("能不能放首歌", "speaker_play"),
    ("我投票给方案二", "submit_ballot"), ("存一下：周日去看外婆", "keep_memo"), ("叫辆车去机场", "ride"),
    ("把这段翻成法语：早上好", "trans"), ("删掉旧照片.jpg", "rm")])
def test_a_short_everyday_verb_reaches_its_tool(question, expected):
    """放, 听, 存, 投票, 叫辆车, 翻成, 删掉: the short verbs people type to an assistant are read (a single character
    never reaches the dictionary), so the request meets its tool and is not declined."""
    made, _ = calls(question, SPEAKER, BALLOT, MEMO, PC_REPAIR, RIDE, TRANSLATE, REMOVE)
    assert [name for name, _ in made] == [expected]


def test_ye_before_a_verb_after_a_comma_asks_for_the_same_again():
    """ "…，午饭也记一笔，25元": 也 before a verb opens a second request of the same kind, with its own values."""
    assert calls("打车记一笔18元，午饭也记一笔，25元", SPENDING, TIP)[0] == [
        ("log_spending", {"amount": 18, "category": "transport"}), ("log_spending", {"amount": 25, "category": "food"})]


SMS = tool("send_sms", "发短信。", ["recipient", "message"], recipient=S("收信人"), message=S("短信内容"))
SHOPPING = tool("add_shopping_item", "Add an item to the shopping list.", ["item"], item=S("the item"), quantity=I("how many"))
NOTE = tool("create_note", "新建笔记。", ["title", "body"], title=S("标题"), body=S("内容"))
INVITE = tool("invite", "邀请人参加会议。", ["people"], people={"type": "array", "items": S("名字"), "description": "被邀请的人"})


@pytest.mark.parametrize(("question", "tools", "expected"), [
    ("给小王和小李都发个短信，说会议改到三点", [SMS], [("send_sms", "recipient", "小王"), ("send_sms", "recipient", "小李")]),
    ("帮我把牛奶和面包加到购物清单里", [SHOPPING, SMS], [("add_shopping_item", "item", f) for f in ("牛奶", "面包")]),
    ("把苹果、香蕉和橙子加到购物清单", [SHOPPING], [("add_shopping_item", "item", f) for f in ("苹果", "香蕉", "橙子")]),
])
def test_a_chinese_list_of_what_each_call_is_for_is_a_call_per_item(question, tools, expected):
    made = calls(question, *tools)[0]
    assert len(made) == len(expected)
    assert [(name, slot, arguments[slot]) for (name, arguments), (_, slot, _) in zip(made, expected, strict=True)] == expected


@pytest.mark.parametrize(("question", "tools", "count"), [
    ("新建一条笔记，名字是周末购物清单，内容是鸡蛋和牛奶", [NOTE], 1),  # one note's text holds the list
    ("邀请小王和小李参加周会", [INVITE], 1),  # a list parameter takes both
    ("我住和平街22号，周几收垃圾？", [BINS], 1),  # 和 of a street's name joins nothing
])
def test_a_chinese_list_one_value_holds_is_one_call(question, tools, count):
    assert len(calls(question, *tools)[0]) == count


HAIRCUT = tool("book_haircut", "预约理发。", ["date"], date=S("日期", format="date"), time=S("时间，HH:MM"))


@pytest.mark.parametrize(("question", "day"), [
    ("帮我约下周三下午三点半理发", "wednesday next week"),  # 下周三: next week's Wednesday, not the coming one
    ("下下周一上午九点约个理发", "monday the week after next"),
    ("这周日约理发", "sunday this week"),
    ("下个月5号帮我约理发", "the 5 of next month"),
])
def test_a_chinese_day_is_the_day_of_the_week_or_month_it_names(question, day):
    [(_, arguments)] = calls(question, HAIRCUT)[0]
    assert arguments["date"] == dates.as_iso(day)


SAUNA = tool("book_sauna", "预约桑拿房。", ["date"], date=S("日期", format="date"),
             towels={"type": "boolean", "description": "是否需要毛巾"}, receipt={"type": "boolean", "description": "是否开发票"})


@pytest.mark.parametrize(("question", "flags"), [
    ("明天订桑拿，要两条毛巾", {"towels": True}),
    ("明天下午订桑拿，不用毛巾", {"towels": False}),
    ("明天订桑拿，需要发票", {"receipt": True}),  # 开发票 is said by its last word, 发票
    ("明天订桑拿", {}),  # neither said: neither sent
])
def test_a_flag_described_in_chinese_is_said_by_its_thing(question, flags):
    [(_, arguments)] = calls(question, SAUNA)[0]
    assert {name: arguments[name] for name in ("towels", "receipt") if name in arguments} == flags


LOCKER = tool("reserve_locker", "预约智能快递柜的格口。", ["site", "size"], site=S("快递柜所在位置，例如小区名或地铁站名"),
              size=S("格口大小：small 为小格，medium 为中格，large 为大格", enum=["small", "medium", "large"]))


def test_an_option_glossed_in_chinese_is_named_by_its_gloss_and_a_place_before_de_is_the_place():
    [(_, arguments)] = calls("帮我在阳光小区的快递柜订一个中格", LOCKER)[0]
    assert arguments == {"site": "阳光小区", "size": "medium"}
