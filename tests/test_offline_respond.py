"""The offline model's *respond* stage: a tool's result said as a person says it, by its shape, in the learner's language."""

import json
import re

import pytest

from agentkit.offline import OfflineModel
from agentkit.offline.answer import small_talk


def _answer(question, name, arguments, result):
    schema = {"type": "object", "properties": {k: {"type": "string"} for k in arguments}, "required": list(arguments)}
    messages = [{"role": "user", "content": question},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]},
                {"role": "tool", "tool_call_id": "c1",
                 "content": result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)}]
    tools = [{"type": "function", "function": {"name": name, "description": name.replace("_", " "), "parameters": schema}}]
    return OfflineModel().respond({"messages": messages, "tools": tools}).content


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("any ferries from Split to Hvar?", "list_ferries", {"origin": "Split", "destination": "Hvar"}, {"ferries": []},
     "I found no ferries from Split to Hvar."),
    ("which plays are on?", "find_plays", {}, {"total": 2, "plays": ["Hamlet", "Medea"]}, "I found 2 plays: Hamlet and Medea."),
    ("is the ramp clear?", "ramp_status", {"ramp": "B"}, {"blocked": False, "reopens_at": "14:00"},
     "No, it is not blocked and it reopens at 14:00."),
    ("where is crate 7?", "locate_crate", {"crate": "7"}, {"state": "Loading", "dock": "D4"},
     "It is loading and the dock is D4."),
    ("how many pallets are left?", "count_pallets", {}, {"pallets": 14}, "That's 14 pallets."),
    ("who reviews it?", "reviewer", {}, {"reviewer": {"name": "Ines Duarte", "team": "infra"}},
     "It is Ines Duarte and the team is infra."),
])
def test_an_answer_is_a_sentence_that_says_what_was_asked(question, name, arguments, result, said):
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "result", "said"), [
    ("货架 7 上有货吗？", {"in_stock": False, "restock_date": "2026-12-10"}, "没有库存，补货日期是 2026年12月10日星期四。"),
    ("还有几个托盘？", {"pallets": 14}, "一共 14 个。"),
    ("有哪些航班？", {"flights": []}, "没有找到航班。"),
])
def test_a_chinese_answer_has_no_english_field_names(question, result, said):
    answer = _answer(question, "warehouse_lookup", {}, result)
    assert answer == said and not re.search(r"[A-Za-z]{3,}", answer)


def test_no_answer_is_a_field_list_or_json():
    answer = _answer("status of order 12?", "order_status", {"order": "12"},
                     {"status": "shipped", "carrier": "DHL", "date": "2026-12-03", "weight_kg": 2.5})
    assert not re.search(r"\bthe \w+ (?:is|are) [^,]+, the \w+ (?:is|are)\b|[{}\"]|order_status", answer)
    assert answer.startswith("It is shipped")


@pytest.mark.parametrize(("message", "reply"), [
    ("thanks!", "You're welcome."), ("great, thank you so much", "You're welcome."), ("谢谢！", "不客气。"),
    ("ok", "Good. What would you like to do next?"), ("好的", "好的。接下来想做什么？"), ("bye", "Goodbye!"),
    ("thanks, what is the capital of Peru?", None), ("ok, book it for Monday", None),
    ("thanks, that's all!", "You're welcome."), ("bye, see you tomorrow, I'm off", "Goodbye!"),
])
def test_small_talk_is_answered_as_a_person_would(message, reply):
    assert small_talk(message) == reply


def test_small_talk_calls_no_tool_even_when_one_is_offered():
    tool = {"type": "function", "function": {"name": "pollen", "description": "Pollen in a city", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
    reply = OfflineModel().respond({"messages": [{"role": "user", "content": "thanks!"}], "tools": [tool]})
    assert reply.tool_calls == () and reply.content == "You're welcome."


@pytest.mark.parametrize(("question", "message", "reply"), [
    ("weather in Oslo?", "ok great", "Good. What would you like to do next?"),
    ("weather in Oslo?", "nice one", "Good. What would you like to do next?"),
    ("weather in Oslo?", "good", "Good. What would you like to do next?"),
    ("weather in Oslo?", "thank u", "You're welcome."),
    ("weather in Oslo?", "okay cool thanks", "You're welcome."),
    ("weather in Oslo?", "that is great, thanks!", "You're welcome."),
    ("奥斯陆天气怎么样？", "太好了", "好的。接下来想做什么？"),
    ("奥斯陆天气怎么样？", "嗯嗯", "好的。接下来想做什么？"),
    ("奥斯陆天气怎么样？", "太好了，谢谢！", "不客气。"),
])
def test_small_talk_after_a_tool_answer_is_answered_in_the_askers_language_with_no_call(question, message, reply):
    """After an answer from a tool, a thank-you or an "ok" is answered as a person would: no second call with "great" as
    the city, never "I don't know that one"."""
    tool = {"type": "function", "function": {"name": "get_weather", "description": "Weather in a city", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}
    messages = [{"role": "user", "content": question}, {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "c1", "content": '{"temp_c": 3}'},
                {"role": "assistant", "content": "The temperature in Oslo is 3°C."}, {"role": "user", "content": message}]
    said = OfflineModel().respond({"messages": messages, "tools": [tool]})
    assert said.tool_calls == () and said.content == reply, said


@pytest.mark.parametrize("greeting", ["Hello!", "Say hello.", "hi there"])
def test_a_greeting_is_answered_with_what_the_model_is(greeting):
    reply = OfflineModel().respond({"messages": [{"role": "user", "content": greeting}]})
    assert reply.content.startswith("Hello! I am the course's offline model")


def _asked(system, question, tools):
    messages = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    return OfflineModel().respond({"messages": messages, "tools": tools})


def _agent_tools():
    from agentkit.agent import agent_tools, open_workspace

    return [{"type": "function", "function": {"name": n, "description": t.description, "parameters": t.parameters}}
            for n, t in agent_tools(open_workspace("."), None).items()]


def test_what_can_you_do_says_the_role_and_what_the_tools_let_it_do_in_one_sentence():
    from agentkit.agent import system_prompt

    said = _asked(system_prompt("/tmp/w"), "What can you do?", _agent_tools())
    assert not said.tool_calls and said.content.startswith("I am a coding agent: with my tools I can ")
    assert all(done in said.content for done in ("read a UTF-8 text file", "edit a text file", "run a bash command"))
    assert "bash," not in said.content and "read_file" not in said.content  # what it does, not the tools' names
    assert said.content.count(". ") == 0 and said.content.endswith(".")  # one sentence: brevity keeps it whole
    assert _asked(system_prompt("/tmp/w"), "Who are you?", _agent_tools()).content == "I am a coding agent."


def test_what_can_you_do_in_chinese_is_said_in_chinese_with_tools_described_in_either_language():
    said = _asked("You are Ada, a helper.", "你能做什么？", _agent_tools()).content
    assert said.startswith("我是 Ada") and "读取文件" in said and "运行命令" in said and said.endswith("。"), said
    assert not re.search(r"[A-Za-z]{2,}[\s,]+[A-Za-z]{2,}[\s,]+[A-Za-z]{2,}", said.replace("a helper", "")), said
    chinese = [{"type": "function", "function": {"name": "book_room", "description": "预订会议室，按时间段。",
                                                 "parameters": {"type": "object", "properties": {}}}}]
    assert _asked("You are Ada.", "你可以做什么", chinese).content == "我是 Ada：我可以用工具预订会议室。"


def test_a_role_described_in_english_is_quoted_in_a_chinese_answer_not_mixed_into_it():
    said = _asked("You are a coding agent that helps with Python projects.", "你是谁？", []).content
    assert said == "系统提示给我的角色是“a coding agent that helps with Python projects”。", said


@pytest.mark.parametrize(("result", "said", "english"), [
    ('{"status": "in transit", "eta": "2026-03-07"}', "运输中", "in transit"),
    ('{"status": "confirmed", "order": "A-1182"}', "已确认", "confirmed"),
    ('{"status": "sold out"}', "已售完", "sold out"),
])
def test_a_status_in_a_chinese_answer_is_said_in_chinese(result, said, english):
    call = {"id": "c1", "type": "function", "function": {"name": "check_order", "arguments": "{}"}}
    messages = [{"role": "user", "content": "我的订单怎么样了？"}, {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "c1", "content": result}]
    tools = [{"type": "function", "function": {"name": "check_order", "description": "Status of an order.",
                                               "parameters": {"type": "object", "properties": {}}}}]
    answer = OfflineModel().respond({"messages": messages, "tools": tools}).content
    assert said in answer and english not in answer, answer


@pytest.mark.parametrize(("question", "name", "result", "said"), [
    ("Start the kettle.", "start_kettle", {"success": True}, "Done."),
    ("烧一壶水。", "start_kettle", {"ok": True}, "已完成。"),
    ("How much is in my wallet?", "get_wallet", {"owner": "Li", "total": {"amount": 12.5, "currency": "CHF"}},
     "The total is 12.5 CHF."),
    ("钱包里还有多少钱？", "get_wallet", {"total": 12.5, "currency": "CHF"}, "总计是 12.5 CHF。"),
    ("How were my laps?", "list_laps", [{"lap": "first", "seconds": 62.1}, {"lap": "second", "seconds": 60.4}],
     "I found 2 laps: first (62.1 s) and second (60.4 s)."),
    ("Which gates are open?", "find_gates", {"terminal": "B", "gates": [{"gate": "B4", "closes": "18:20"}]},
     "I found one gate for B: B4 (18:20)."),
])
def test_a_result_is_said_by_its_shape_never_by_its_keys(question, name, result, said):
    """An object that only says it worked is "Done."; an amount is said with the currency beside it; a list of objects
    with no naming field is said by its values, and the fields beside a list that only say back the call's input are
    not the answer."""
    arguments = {"terminal": "B"} if "terminal" in result else {}
    assert _answer(question, name, arguments, result) == said


def test_a_chinese_answer_leaves_out_a_yes_no_field_it_cannot_name_in_chinese():
    said = _answer("蘑菇能吃吗？", "get_mushroom", {}, {"edible_when_cooked": True, "season": "autumn"})
    assert not re.search("[A-Za-z]{3,} ?[A-Za-z]", said.replace("autumn", "")), said


@pytest.mark.parametrize(("result", "said"), [
    ({"minutes": 27, "distance_km": 8.3}, "27 分钟，距离是 8.3 km。"),
    ({"weight_kg": 4.2, "breed_group": "terrier", "chip_code": "9X"}, "重量是 4.2 kg。"),
    ({"breed_group": "terrier"}, "结果是 terrier。"),
])
def test_a_chinese_answer_says_units_in_chinese_and_no_value_without_its_name(result, said):
    """ "27 分钟", not "27 min"; a value whose field the table cannot name in Chinese is left out where others are said
    ("terrier" alone, beside "重量是 4.2 kg", says nothing), and said alone where it is all the result has."""
    assert _answer("怎么样？", "get_profile", {}, result) == said


@pytest.mark.parametrize(("question", "said"), [
    ("open my plans and budget memos",
     "That didn't work: memo 'plans' does not exist; memo 'budget' does not exist. Could you check the name?"),
    ("打开 plans 和 budget 备忘录", "没能完成：不认识或找不到 plans和budget。能确认一下名称吗？"),
])
def test_calls_that_failed_alike_are_said_in_one_sentence(question, said):
    from agentkit.offline.answer import sentences

    failed = [("open_memo", {"name": name}, f"Error: memo '{name}' does not exist") for name in ("plans", "budget")]
    assert sentences(failed, question) == said
    answer = sentences([failed[0], ("open_memo", {"name": "budget"}, "Buy a bike")], question)
    assert answer.count("plans") == 1 and "budget" in answer and "budget和" not in answer, answer


@pytest.mark.parametrize(("question", "errors", "said"), [
    ("加两条日程", ["title is required", "date is required"], "没能完成：缺少需要的值。应该换成什么值？"),
    ("quotes for AAPL and MSFT", ["the quote service is down"] * 2,
     "That didn't work: the quote service is down. Try again in a moment."),
    ("zorblax 和 qux 要做多久", ["no recipe named 'zorblax'", "no recipe named 'qux'"],
     "没能完成：工具报告了一个错误（与 zorblax、qux 有关）。要换个说法或换个值再试吗？"),
    ("read a and then b", ["'a' is a directory", "file 'b' not found"],
     "That didn't work: 'a' is a directory; file 'b' not found. Could you check the name?"),
    ("读一下 a 和 b", ["'a' is a directory", "file 'b' not found"],
     "没能完成：a 是文件夹，不是文件；不认识或找不到 b。能确认一下名称吗？"),
    ("读一下 a 和 b", ["user declined", "file 'b' not found"],
     "我没有执行：你没有同意，所以它没有运行。你想换成什么做法？没能完成：不认识或找不到 b。能确认一下名称吗？"),
])
def test_failed_calls_are_grouped_by_their_kind_and_each_kind_said_once(question, errors, said):
    """Calls that failed alike (to be tried again the same way) are one sentence, each kind of error said once in it:
    the same words once ("缺少需要的值", not twice), the names the kind is about together ("与 zorblax、qux 有关"); an
    error said its own way (a person's no) stays alone."""
    from agentkit.offline.answer import sentences

    calls = [("get_it", {"name": (re.findall(r"'(\w+)'", e) or [f"n{i}"])[0]}, f"Error: {e}") for i, e in enumerate(errors)]
    assert sentences(calls, question) == said


@pytest.mark.parametrize(("question", "name", "result", "said"), [
    ("book me a massage at 5pm", "book_massage", {"error": "no therapist free at 17:00", "alternatives": ["18:00", "19:30"]},
     "I couldn't book it: no therapist free at 17:00. The alternatives are 18:00 and 19:30."),
    ("pay the gas bill", "pay_invoice", {"success": False, "message": "card declined"}, "I couldn't pay it: card declined."),
    ("order the groceries", "order_groceries", {"status": "rejected", "reason": "address outside delivery area"},
     "I couldn't order it: address outside delivery area."),
    ("tides at Porthleven?", "get_tides", {"ok": False, "errors": ["station not found"]}, "That didn't work: station not found."),
    ("帮我选个靠窗的座位", "choose_seat", {"error": "seat map unavailable"}, "没能完成：“seat map unavailable”。"),
    # the action's own word false ("reserved" for reserve_table), or a status that stops an action, with empty fields left out
    ("reserve a table for 6 at 8", "reserve_table", {"reserved": False, "tables": [], "message": "no table for 6 tonight"},
     "I couldn't reserve it: no table for 6 tonight."),
    ("订两张周六的话剧票", "buy_theatre_tickets", {"status": "sold_out", "message": "该场次已售罄"}, "没能完成：该场次已售罄。"),
])
def test_a_result_that_says_it_failed_is_said_as_a_failure_never_done(question, name, result, said):
    """An error field, "ok"/"success" false, a failed or rejected status: what went wrong, then anything else it offers."""
    assert _answer(question, name, {"when": "today"}, result) == said


@pytest.mark.parametrize(("question", "name", "result", "said"), [
    ("how much rain fell?", "get_rainfall", {"rain_mm_1h": 2.5}, "The rain over 1 h is 2.5 mm."),
    ("order me a pot of tea", "order_tea", {"ok": True, "ready_in_minutes": 4}, "Ordered: it will be ready in 4 min."),
    ("where's my parcel?", "track_parcel", {"delivered_on": "2026-12-03"}, "It was delivered on Thursday, 3 December 2026."),
    ("how's the train?", "train_status", {"state": "out_for_service"}, "It is out for service."),
    ("is the car park full?", "car_park_status", {"status": "full"}, "It is full."),  # a lookup's status is a fact
    ("log my water", "log_water", {"ok": True, "entries_today": 3, "level": "above_target"},
     "Logged: there are 3 entries today and the level is above target."),
])
def test_a_key_with_a_unit_or_a_verb_and_an_enum_value_read_as_words(question, name, result, said):
    """A unit inside a key goes with the value ("2.5 mm"), a key that is a verb phrase reads as one ("it will be ready
    in 4 min"), an enum value is words ("out for service"), and "ok": true beside other facts is the "Done"."""
    assert _answer(question, name, {}, result) == said


@pytest.mark.parametrize(("question", "name", "result", "said"), [
    ("How often should I water my monstera?", "get_plant_care", {"water": {"every_days": 7, "amount_ml": 250}, "light": "bright"},
     "Water every 7 days and the water amount is 250 ml."),
    ("how often does the cat eat?", "get_pet_care", {"feed_every_hours": 12, "dose_each_days": 1},
     "Feed every 12 hours and dose each day."),
    ("how's the snow at Whistler", "get_ski_conditions", {"new_snow_cm_24h": 8}, "The new snow over 24 h is 8 cm."),
    ("are the lifts running?", "get_ski_conditions", {"lifts_open": 21, "lifts_total": 25},
     "There are 21 lifts open and 25 lifts total."),
    ("log my bp 128 over 84", "log_blood_pressure", {"ok": True, "category": "high normal", "readings_this_week": 4},
     "Logged: the category is high normal and there are 4 readings this week."),
    ("how often do I go?", "get_gym_stats", {"visits_per_week": 1, "classes_left": 3},
     "There is 1 visit per week and 3 classes left."),
])
def test_a_key_of_words_and_a_period_or_a_count_reads_as_a_phrase(question, name, result, said):
    """ "water every 7 days", "there are 4 readings this week", "the new snow over 24 h": a key made of words and a
    period, a count of a plural noun or a unit and its period, with its number where a person says it, never "the
    water every days are 7"."""
    assert _answer(question, name, {}, result) == said


@pytest.mark.parametrize(("question", "result", "said"), [
    ("G12 今天准点吗", {"status": "on_time"}, "准点。"),
    ("这双鞋英码多少？", {"size": 7.5}, "大小是 7.5。"),
])
def test_a_chinese_answer_says_an_enum_in_chinese_and_a_measure_is_not_a_total(question, result, said):
    assert _answer(question, "get_info", {}, result) == said


@pytest.mark.parametrize(("question", "name", "result", "said"), [
    ("我的包裹 ZX99 到哪了？", "check_package", "Out for delivery, expected by 18:00",
     "结果是“Out for delivery, expected by 18:00”。"),
    ("记一下血压128/85", "log_blood_pressure", {"saved": True, "category": "high_normal"},
     "已记录：类别是“high normal”。"),
    ("丢了一把雨伞", "report_lost_item", {"error": "phone is required for this item category"},
     "没能完成：“phone is required for this item category”。"),
    ("龟背竹多久浇一次水？", "get_plant_care", {"water": {"amount_ml": 250}, "light": "bright"}, "浇水用量是 250 ml。"),
    ("这笔转账多少钱？", "get_transfer", {"amount": 90, "currency": "USD"}, "金额是 90 美元。"),
])
def test_a_chinese_answer_frames_english_text_and_says_amount_in_the_right_sense(question, name, result, said):
    """An English text a tool answers with is quoted in a Chinese answer, never pasted as if it were Chinese; an amount
    is 金额 only where it is money (a currency beside it), else 用量."""
    assert _answer(question, name, {}, result) == said


def test_a_place_the_call_went_to_is_not_pinned_on_a_field_and_yuan_is_said_in_chinese():
    """ "the driver to the station is Ana" says the trip, not the driver; "in Tokyo" still goes with what it is of."""
    said = _answer("get me a cab to the pier", "request_cab", {"destination": "the pier"}, {"driver": "Ana", "eta_minutes": 4})
    assert said == "The driver is Ana and the expected arrival is 4 min.", said
    said = _answer("how warm is it in Oslo?", "get_weather", {"city": "Oslo"}, {"temp_c": 3})
    assert said == "The temperature in Oslo is 3°C.", said
    assert _answer("卡里还有多少钱？", "get_card", {}, {"balance": 12.5, "currency": "CNY"}) == "余额是 12.5 元。"


@pytest.mark.parametrize(("question", "said"), [
    ("which gyms are open?", "I found 2 gyms: Pulse (free 4) and Core (free 0)."),
    ("附近有健身房吗", "找到 2 个结果：Pulse（空余 4）和Core（空余 0）。"),
])
def test_a_bare_number_in_a_list_row_is_said_with_its_name(question, said):
    rows = [{"name": "Pulse", "free": 4, "distance_m": 300}, {"name": "Core", "free": 0, "distance_m": 900}]
    assert _answer(question, "find_gyms", {}, {"gyms": rows}) == said


@pytest.mark.parametrize(("question", "said"), [
    ("When does my ferry ZK4 sail and what did it cost?",
     "The ferry is Blue Star 2, the departure is 06:30 (Friday, 18 December 2026) and the price is 42.5 EUR."),
    ("我的渡轮 ZK4 什么时候开，花了多少钱？", "出发是 06:30（2026年12月18日星期五），价格是 42.5 欧元。"),
])
def test_a_question_that_asks_when_or_what_it_cost_gets_the_time_and_the_money(question, said):
    result = {"ferry": "Blue Star 2", "departure": "2026-12-18T06:30:00", "deck": "upper",
              "price": {"amount": 42.5, "currency": "EUR"}}
    assert _answer(question, "get_ferry_booking", {"reference": "ZK4"}, result) == said
    said = _answer("when does it sail?", "get_ferry_booking", {}, {"ferry": "Blue Star 2", "sails": "2026-12-18T06:30:00"})
    assert said == "It sails at 06:30 (Friday, 18 December 2026).", said


@pytest.mark.parametrize(("arguments", "said"), [
    ({"area": "Soho", "date": "2026-12-18", "guests": 4},
     "I found no restaurants in Soho for 4 guests on Friday, 18 December 2026."),
    ({"area": "Soho", "seats": 2}, "I found no restaurants in Soho for 2 seats."),
])
def test_what_a_search_was_for_is_said_as_a_phrase_not_a_list_of_fields(arguments, said):
    """A day is "on <the day in words>", a count of things is "4 guests" (never "2026-12-18 and guests 4")."""
    assert _answer("any tables?", "find_restaurants", arguments, {"restaurants": []}) == said


@pytest.mark.parametrize(("arguments", "result", "said"), [
    ({"city": "北京"}, {"city": "Beijing", "condition": "sunny", "temperature_c": 3}, "北京：晴，温度是 3°C。"),
    ({"city": "Beijing"}, {"location": "Beijing", "conditions": "light rain", "temp_c": 8}, "北京：小雨，温度是 8°C。"),
])
def test_a_weather_condition_in_a_chinese_answer_is_said_in_chinese_and_the_place_once(arguments, result, said):
    """The condition a weather tool answers with is a state like "confirmed" (the same table says it in Chinese), and
    the place the learner named in Chinese is the one the tool echoed in English: said once."""
    answer = _answer("天气怎么样？", "get_weather", arguments, result)
    assert answer == said and not re.search(r"[A-Za-z]{3,}", answer)


@pytest.mark.parametrize(("question", "name", "result", "said"), [
    ("how humid is the greenhouse?", "read_greenhouse", {"humidity": 0.45}, "The humidity is 45%."),
    ("大棚湿度多少？", "read_greenhouse", {"humidity": 0.45}, "湿度是 45%。"),
    ("will it rain on the match?", "get_match_forecast", {"rain_probability": 0.7}, "The rain probability is 70%."),
    ("how far along is the backup?", "backup_status", {"progress": 0.125, "state": "running"},
     "It is running and the progress is 12.5%."),
    ("how humid is the cellar?", "read_cellar", {"humidity": 62}, "The humidity is 62%."),
])
def test_a_share_written_as_a_fraction_is_said_as_a_percentage(question, name, result, said):
    """A humidity, a probability, a progress of 0.45 is what a person calls 45% (and 62 is 62%), never "0.45"."""
    assert _answer(question, name, {}, result) == said


@pytest.mark.parametrize(("question", "name", "result", "said"), [
    ("note my 12 km ride", "log_ride", {"id": 4, "rides_this_week": 3}, "Logged: there are 3 rides this week."),
    ("drop draft d7", "delete_draft", {"deleted": True}, "Deleted."),
    ("删掉草稿 d7", "delete_draft", {"deleted": True}, "已删除。"),
    ("记一下今天骑了 12 公里", "log_ride", {"id": 4, "distance_today": 20}, "已记录：今天距离是 20。"),
    ("pin the note", "pin_note", {"ok": True}, "Done."),
])
def test_an_action_done_is_said_with_its_own_verb_and_a_chinese_period_first(question, name, result, said):
    """log_ride says "Logged", delete_draft "Deleted" / "已删除" (a true "deleted" says nothing more, never "已完成：。"),
    a verb without a known past "Done"; a period in a Chinese name comes first (今天距离, not 距离今天)."""
    assert _answer(question, name, {}, result) == said


@pytest.mark.parametrize(("question", "result", "said"), [
    ("what tasks are left?", {"tasks": [{"title": "Sweep", "done": False}, {"title": "Dishes", "done": True}]},
     "I found 2 tasks: Sweep (not done) and Dishes (done)."),
    ("还有哪些任务？", {"tasks": [{"title": "Sweep", "done": False}, {"title": "Dishes", "done": True}]},
     "找到 2 个任务：Sweep（未完成）和Dishes（已完成）。"),
    ("罗马有酒店吗？", {"hotels": []}, "没有找到酒店。"),
    ("罗马有什么酒店？", {"hotels": [{"name": "Arco", "price": 95}]}, "找到 1 个酒店：Arco（价格 95）。"),
])
def test_a_list_says_its_things_and_a_yes_no_field_of_a_row_by_its_name(question, result, said):
    """A true/false field of a row is said by what it is ("not done", "未完成"), never "(no)" / "（否）"; a list's things
    named by a plural key ("hotels") are said in Chinese by its singular (酒店), never "结果"."""
    assert _answer(question, "lookup", {}, result) == said


@pytest.mark.parametrize(("question", "said"), [
    ("我有几封新邮件？", "一共 5 封。"), ("附近有几家药店？", "一共 5 家。"), ("这周记了几笔账？", "一共 5 笔。")])
def test_a_chinese_count_is_said_with_the_measure_word_it_was_asked_by(question, said):
    """几封, 几家, 几笔 ask a count as 几个 does: "一共 5 封。", never "数量是 5"."""
    assert _answer(question, "lookup", {}, {"count": 5}) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("note 28 for groceries", "log_spending", {"amount": 28, "category": "groceries"}, {"amount": 28, "total_today": 40},
     "Logged 28 for groceries: the total today is 40."),
    ("put oat milk on the list", "add_item", {"item": "oat milk"}, {"ok": True, "items": 5},
     "Added oat milk: there are 5 items."),
    ("drop draft d7", "delete_draft", {"draft": "d7"}, {"deleted": True}, "Deleted d7."),
    ("记一笔 28 元", "log_spending", {"amount": 28}, {"total_today": 40}, "已记录 28：今天总计是 40。"),
])
def test_an_action_done_says_what_it_did_with_the_calls_own_values(question, name, arguments, result, said):
    """What an action did is said with what it was given, as a person repeats it ("Logged 28 for groceries"), never a
    bare "Logged:" that leaves out what was logged."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "said"), [
    ("what did the trip cost me?", "I found 2 costs: train (price 30) and hotel (price 90). The total is 120."),
    ("这趟一共花了多少钱？", "找到 2 个费用：火车（价格 30）和酒店（价格 90）。总计是 120。"),
])
def test_a_sum_beside_a_list_is_said_when_the_cost_is_asked(question, said):
    """ "What did it cost?" is answered by the total a result gives beside its rows, never by the rows alone."""
    rows = [{"item": "train", "price": 30}, {"item": "hotel", "price": 90}]
    assert _answer(question, "list_costs", {}, {"costs": rows, "total": 120}) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("is the ferry on time?", "ferry_status", {"ferry": "F9"},
     {"status": "late", "planned": "09:10", "expected": "09:40", "berth": "3"},
     "It is late, planned at 09:10, expected at 09:40 and the berth is 3."),
    ("has the coach left yet?", "coach_status", {"coach": "C4"}, {"status": "boarding", "planned": "17:05", "bay": "7"},
     "It is boarding, planned at 17:05 and the bay is 7."),
    ("move 80 to the rainy day fund", "move_cash", {"amount": 80, "to": "rainy day fund"},
     {"moved": 80, "from_pot": "bills", "to_pot": "rainy day fund", "balance_after": 512.4},
     "Moved 80 from bills and the balance is now 512.4."),
    ("how long is the wait at the clinic?", "clinic_queue", {}, {"wait_min": 35}, "The wait is 35 min."),
    ("next ferry?", "ferry_times", {}, [{"ferry": "F9", "leaves_in_min": 6}], "I found one time: F9 (leaves in 6 min)."),
    ("how cold was it at night?", "night_low", {}, {"temp_min": 3}, "The temperature minimum is 3."),
])
def test_a_field_named_by_a_participle_a_preposition_or_minutes_is_said_as_a_phrase(question, name, arguments, result, said):
    """ "scheduled", "from_account", "balance_after", "due_in_min" are no nouns: "planned at 09:10", "from bills", "the
    balance is now 512.4", "leaves in 6 min" (min after "in" is minutes, temp_min a minimum), never "the planned is
    09:10", "the from pot is bills" or "in minimum 6"; a yes/no question hears the status first."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("ping Jo that I'm outside", "message_friend", {"contact": "Jo", "text": "I'm outside"}, {"status": "sent", "to": "Jo"},
     "Sent to Jo."),
    ("告诉小李我到了", "message_friend", {"contact": "小李", "text": "我到了"},
     {"status": "sent", "to": "小李", "channel": "sms"}, "已发送给小李。"),
    ("hold 2 tickets for the quiz", "hold_tickets", {"count": 2}, {"status": "held", "expires": "18:30"},
     "Held 2: it expires at 18:30."),
    ("bookmark this recipe", "add_bookmark", {"page": "pho"}, {"saved": True, "folder": "Soups"},
     "Added pho: the folder is Soups."),
    ("star the repo", "star_repo", {"repo": "ada/notes"}, {"ok": True}, "Done."),
])
def test_an_actions_status_that_says_it_was_done_is_said_as_done(question, name, arguments, result, said):
    """{"status": "sent", "to": "Jo"} is "Sent to Jo." / "已发送给小李。", {"status": "held"} "Held 2: …", never "it is sent",
    "the channel is sms" or "已完成：已发送"; a tool's own verb's past still comes first ("Added pho")."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("40 dollars in yen?", "exchange_money", {"amount": 40, "from": "USD", "to": "JPY"}, {"result": 6012.4, "rate": 150.31},
     "40 USD is 6012.4 JPY."),
    ("100英镑能换多少欧元", "fx_rates", {"amount": 100, "base": "GBP", "target": "EUR"}, {"result": 116.2, "rate": 1.162},
     "100 英镑 是 116.2 欧元。"),
])
def test_an_exchange_is_said_as_a_conversion_and_a_currency_code_in_chinese_words(question, name, arguments, result, said):
    """A tool that exchanges money converts, whatever its name says ("exchange", "fx" are answers.toml's converting
    words): "40 USD is 6012.4 JPY.", never "the result is 6012.4 and the rate is 150.31"; a Chinese answer names the
    currencies in Chinese (英镑, 欧元), never USD."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "result", "said"), [
    ("what can I bake with apples?", "find_cakes_by_fruit", [{"title": "Apple crumble", "minutes": 50}],
     "I found one cake: Apple crumble (50 min)."),
    ("any cash machines near here?", "nearest_atms", [{"name": "Co-op, Mill Rd", "distance_m": 80}],
     "I found one cash machine: Co-op, Mill Rd (80 m)."),
])
def test_a_list_is_said_by_what_it_finds_never_by_what_it_was_given(question, name, result, said):
    """find_cakes_by_fruit finds cakes (after "by" comes what it is given), an "atms" tool cash machines: never "I
    found one fruit" or "one atm"."""
    assert _answer(question, name, {}, result) == said


@pytest.mark.parametrize(("question", "name", "result", "said"), [
    ("我的快递到哪了", "courier_status", {"status": "out for delivery", "eta": "18:00"}, "正在派送，预计送达是 18:00。"),
    ("暖气开了吗", "heater_state", {"mode": "heat", "current": 19}, "模式是制热，当前是 19。"),
    ("看看待办清单", "todo_overview", {"list_size": 6}, "清单大小是 6。"),
])
def test_a_chinese_answer_says_a_status_and_a_mode_in_chinese(question, name, result, said):
    """ "out for delivery" is 正在派送 and "heat" 制热 in a Chinese answer, never quoted English; list_size is 清单 (a
    list), never 列出 (to list)."""
    assert _answer(question, name, {}, result) == said


@pytest.mark.parametrize(("question", "arguments", "said"), [
    ("any cakes with quince and fig?", {"fruit": ["quince", "fig"]}, "I found no cakes for quince and fig."),
    ("cakes for a vegan party?", {"diet": "vegan party"}, "I found no cakes for vegan party."),
    ("cakes in Lyon?", {"city": "Lyon"}, "I found no cakes in Lyon."),
])
def test_an_empty_search_says_what_was_searched_for(question, arguments, said):
    """Nothing found is said with what was looked for ("for quince and fig"), a list or a phrase as much as a place."""
    assert _answer(question, "find_cakes_by_fruit", arguments, []) == said
@pytest.mark.parametrize(("question", "result", "said"), [
    ("面包店现在开着吗？", {"open": True}, "开着。"),
    ("药房还开着吗？", {"is_open": False, "opens_at": "08:00"}, "没开"),
    ("小李在线吗？", {"online": True}, "在线。"),
    ("打印机在线吗？", {"is_online": False}, "不在线。"),
])
def test_a_chinese_yes_no_says_the_state_as_chinese_says_it(question, result, said):
    """Open and online are states Chinese says with their own words (开着 / 没开, 在线 / 不在线): not "有打开", and never
    an empty "结果是 。" where the field's English name has no Chinese label."""
    answer = _answer(question, "place_status", {}, result)
    assert answer.startswith(said) and "有" not in answer and "结果是" not in answer, answer


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("let Omar know the gate changed", "notify_friend", {"contact": "Omar", "text": "gate changed"},
     {"status": "sent", "to": "Omar", "channel": "whatsapp"}, "Sent to Omar by whatsapp."),
    ("send the receipt to Bea", "send_receipt", {"to": "Bea"}, {"status": "sent", "medium": "email"}, "Sent to Bea by email."),
    ("move 30 into the holiday pot", "move_funds", {"amount": 30}, {"moved": 30, "from_pot": "spare"}, "Moved 30 from spare."),
])
def test_how_an_action_went_continues_what_it_did(question, name, arguments, result, said):
    """A channel is how a thing was sent ("Sent to Omar by whatsapp"), never "the channel is whatsapp"; a phrase that
    starts with a preposition ("from spare", "by email") goes on from what was done, with no colon between."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("帮我预留外婆家", "reserve_table", {"restaurant": "外婆家"}, {"confirmation": "WP-3", "guests": 2},
     "已预留外婆家：确认号是 WP-3。"),
    ("删掉备忘录 购物", "delete_memo", {"title": "购物"}, {"deleted": True}, "已删除购物。"),
    ("取消周六的瑜伽课", "cancel_class", {"course": "瑜伽课"}, {"status": "cancelled", "refund": True}, "已取消瑜伽课：有退款。"),
    ("cancel my 6pm spin class", "cancel_class", {"course": "spin"}, {"status": "cancelled"}, "Cancelled spin."),
])
def test_a_chinese_action_done_runs_into_its_object_and_a_status_that_repeats_it_is_said_once(question, name, arguments,
                                                                                               result, said):
    """ "已预订外婆家", never "已预订 外婆家" (Chinese puts no space between a verb and its object); a status "cancelled"
    beside "已取消" is not said again ("已取消瑜伽课：已取消")."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("how many parcels are waiting for me?", "count_parcels", {}, {"parcels": 0}, "There are no parcels."),
    ("how many open tickets are there", "count_tickets", {}, "0", "There are no open tickets."),
    ("书架上还有几本书？", "count_books", {}, {"books": 0}, "一本都没有。"),
    ("还剩多少流量", "data_left", {}, "0", "一点都没有。"),
    ("how many parcels are waiting for me?", "count_parcels", {}, {"parcels": 3}, "That's 3 parcels."),
])
def test_a_count_of_none_is_said_as_none(question, name, arguments, result, said):
    """Zero things is "There are no parcels." / "一本都没有。" (by the measure word asked with), never "That's 0 parcels"
    or "一共 0 本"."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "arguments", "said"), [
    ("any bike racks around the museum?", "find_racks", {"around": "the museum"}, "I found no racks around the museum."),
    ("vets near the old mill?", "search_vets", {"near": "the old mill"}, "I found no vets near the old mill."),
    ("soups with lentils", "find_soups", {"ingredient": "lentils"}, "I found no soups for lentils."),
])
def test_an_empty_search_says_what_it_was_near_by_its_own_preposition(question, name, arguments, said):
    """A parameter named by its preposition ("near", "around") says the place with it: "no vets near the old mill",
    never "for the old mill"."""
    assert _answer(question, name, arguments, []) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("rate Arrival 4 stars", "rate_movie", {"movie": "Arrival", "stars": 4}, {"saved": True, "average": 4.2},
     "Rated Arrival: the average is 4.2."),
    ("给《三体》打5星", "rate_book", {"book": "三体", "stars": 5}, {"saved": True, "average": 4.6}, "已评分三体：平均值是 4.6。"),
    ("add milk to the list", "add_item", {"item": "milk"}, {"added": True, "saved": True}, "Added milk."),
])
def test_a_flag_that_repeats_what_was_done_is_not_said_again(question, name, arguments, result, said):
    """ "saved": true beside "Rated Arrival" says nothing more: "Rated Arrival: the average is 4.2.", never "Rated
    Arrival: it is saved and …" / "已评分三体：已保存，…"."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("any bakeries near the station?", "search_nearby", {"type": "bakery", "near": "the station"},
     [{"name": "Crumbs", "distance_m": 120}, {"name": "Loaf & Co", "distance_m": 400}],
     "I found 2 bakeries near the station: Crumbs (120 m) and Loaf & Co (400 m)."),
    ("is there a laundry open near me", "find_places", {"kind": "laundry", "near": "me"},
     [{"name": "Suds", "distance_m": 90}], "I found one laundry near me: Suds (90 m)."),
    ("galleries near me?", "find_places", {"kind": "gallery", "near": "me"}, [], "I found no galleries near me."),
    ("is there a library in Leeds", "find_nearby_places", {"location": "Leeds", "place_type": "library"}, [],
     "I found no libraries in Leeds."),
    ("附近有洗衣店吗", "find_places", {"kind": "洗衣店", "near": "附近"}, [], "没有找到洗衣店。"),
])
def test_a_search_for_places_of_a_kind_says_the_kind_in_its_plural(question, name, arguments, result, said):
    """A tool that finds places (venues, results) of the kind it is given names them by that kind, in the plural a
    person writes: "2 bakeries", "no galleries", never "2 places for bakery" or "pharmacys"."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("what's left on the mortgage?", "get_balance", {"account": "mortgage"},
     {"account": "mortgage", "balance": -182400.0, "currency": "EUR"}, "You owe 182,400 EUR."),
    ("房贷还欠多少", "get_balance", {"account": "房贷"}, {"balance": -5200.5, "currency": "CNY"}, "还欠 5200.5 元。"),
    ("pay the plumber", "pay_bill", {"payee": "plumber"}, {"status": "paid", "balance_after": -12.5},
     "Paid plumber: you now owe 12.5."),
])
def test_a_negative_balance_is_money_owed(question, name, arguments, result, said):
    """A balance below zero is what the person owes, said as such: "You owe 182,400 EUR." / "还欠 5200.5 元。", never
    "the balance is -182400.0"."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("what does petrichor mean", "lookup_word", {"word": "petrichor"},
     {"word": "petrichor", "definitions": ["the smell of rain on dry earth"], "note": "coined in 1964"},
     "Petrichor means the smell of rain on dry earth."),
    ("meaning of 'bank'", "dictionary", {"term": "bank"},
     {"meanings": ["the land beside a river", "a place that keeps money"]},
     "Bank means the land beside a river; it can also mean a place that keeps money."),
    ("“画蛇添足”是什么意思", "lookup_word", {"word": "画蛇添足"},
     {"word": "画蛇添足", "definitions": ["比喻做了多余的事，反而不恰当"]},
     "“画蛇添足”的意思是：比喻做了多余的事，反而不恰当。"),
])
def test_definitions_are_said_as_what_the_word_means(question, name, arguments, result, said):
    """A dictionary's definitions say what the word means, first the first sense, then the others: never "The
    definitions are …" or "I found 2 definitions"."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("where's my noodle order", "get_order_status", {}, {"order_id": "T-88", "status": "on_the_way", "driver": "Ana"},
     "It is on the way and the driver is Ana."),
    ("book the Ritz", "book_table", {"restaurant": "Ritz"}, {"confirmation": "R-1", "restaurant": "The Ritz London"},
     "Booked Ritz: the confirmation is R-1."),
    ("订一下全聚德", "book_table", {"restaurant": "全聚德"}, {"confirmation": "Q-7", "restaurant": "全聚德（前门店）"},
     "已预订全聚德：确认号是 Q-7。"),
])
def test_a_name_said_back_or_an_id_not_asked_for_is_not_the_answer(question, name, arguments, result, said):
    """A question names what the call was given ("my takeaway" is an order): the result's order id, or its longer
    form of the name given ("The Ritz London" for "Ritz"), is not what it asks; the status and the rest are."""
    assert _answer(question, name, arguments, result) == said


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    ("how much is in the ISA?", "get_balance", {"account": "ISA"}, {"balance": 2000.0, "currency": "GBP"},
     "The balance is 2000 GBP."),
    ("股价多少", "get_share_price", {"symbol": "0700"}, {"price": 388.0, "currency": "HKD"}, "价格是 388 港元。"),
])
def test_a_whole_number_written_with_a_point_zero_is_said_whole(question, name, arguments, result, said):
    """JSON writes 2000.0 for a float that is whole; a person says 2000, not "2000.0"."""
    assert _answer(question, name, arguments, result) == said


def test_a_chinese_list_whose_last_item_starts_with_he_is_not_joined_by_a_second_he():
    """"和小王吃午饭" after "和" reads "和和小王吃午饭": the last item is joined by "、" instead."""
    events = [{"title": "早会", "start": "09:00"}, {"title": "和老李喝茶", "start": "15:00"}]
    said = _answer("明天有什么事", "list_events", {}, events)
    assert "和和" not in said and "早会（09:00）、和老李喝茶（15:00）" in said


@pytest.mark.parametrize(("name", "arguments", "result", "said"), [
    ("delegate", {"task": "write hello to notes.txt"}, "I didn't do that: you said no, so it did not run.",
     "I didn't do that: you said no, so it did not run."),
    ("ask_researcher", {"question": "who wrote Dune?"}, "It was written by Frank Herbert in 1965.",
     "It was written by Frank Herbert in 1965."),
    ("consult_planner", {"goal": "tidy the docs"}, "There are three steps: list, sort, merge!",
     "There are three steps: list, sort, merge!"),
    ("get_weather", {"city": "Oslo"}, "Sunny, 21 C.", "The weather in Oslo is Sunny, 21 C."),  # a value, no sentence
    ("ask_user", {"question": "Which file?"}, "The one on the left, please.", "You answered: The one on the left, please."),
])
def test_a_result_that_is_already_a_sentence_is_said_as_it_is(name, arguments, result, said):
    """A helper agent's report, or any tool that answers in a whole sentence, is relayed, never "The delegate is I…"."""
    assert _answer("go on", name, arguments, result) == said
    assert _answer("让助手写个文件", "delegate", {"task": "写 notes.txt"}, "我已经把 hello 写进 notes.txt 了。") == (
        "我已经把 hello 写进 notes.txt 了。")


@pytest.mark.parametrize(("question", "name", "arguments", "result", "said"), [
    # the question's words the call already used ("travel") point at no field: "how much" asks for the money
    ("how much is in my travel wallet", "get_wallet", {"wallet": "travel"}, {
        "wallet": "travel", "balance": 212.5, "currency": "EUR", "travel_insurance": "active", "wallet_id": "wl_77"},
     "The balance is 212.5 EUR."),
    # a timestamp, a link, a confidence: for a machine, not said unless asked
    ("did my parcel arrive", "parcel_status", {"tracking": "RX88"}, {
        "status": "delivered", "signed_by": "J. Okafor", "proof_url": "https://p.example/RX88.jpg",
        "last_updated": "2026-12-07T06:00:00Z", "confidence": 0.93}, "It is delivered and it was signed by J. Okafor."),
    # an action's reference is said, its other ids not
    ("book the 8:30 ferry to Hvar", "book_ferry", {"destination": "Hvar", "sailing": "08:30"}, {
        "booking_id": "FRY-2291", "sailing": "08:30", "deck": "upper", "session_uuid": "5f2a-77"},
     "Booked Hvar: the deck is upper and the booking id is FRY-2291."),
    # an action's link is how the person uses what it made: said, its timestamps not
    ("book me into the 7pm pottery class", "book_class", {"class_name": "pottery", "time": "19:00"}, {
        "booking_id": "POT-118", "join_url": "https://class.example/118", "teacher": "Mina",
        "created_at": "2026-12-07T09:00:00Z"},
     "Booked pottery: the teacher is Mina, the booking id is POT-118 and the join url is https://class.example/118."),
    # a list: how many, the first few, how many more
    ("which museums are open in Porto", "find_museums", {"city": "Porto"}, [{"name": n} for n in (
        "Serralves", "Soares dos Reis", "World of Discoveries", "Casa do Infante", "Museu do Carro")],
     "I found 5 museums in Porto: Serralves, Soares dos Reis, World of Discoveries and 2 more."),
    # a tool named noun first, verb last (calendar_add, workout_log) still acts: what it did, never "I found nothing"
    ("add dentist on friday to my calendar", "calendar_add", {"title": "dentist", "date": "2026-12-11"},
     {"created": True, "id": "evt_81"}, "Added dentist."),
    ("log 20 minutes of yoga", "workout_log", {"activity": "yoga"}, {"ok": True}, "Logged yoga."),
    # an error already in Chinese is said as it is
    ("周五晚上订两张票", "book_tickets", {"date": "2026-12-11"}, "Error: 周五晚场已售罄",
     "没能完成：周五晚场已售罄。要换个说法或换个值再试吗？"),
])
def test_a_result_is_said_by_the_fields_a_person_needs(question, name, arguments, result, said):
    """A field's salience: the question's own words (not those the call already used), a state, an action's
    reference; never a timestamp, a link or a score nobody asked for; a list as a count and its first items."""
    assert _answer(question, name, arguments, result) == said
