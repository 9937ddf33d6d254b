"""The offline model's replies (issue 25): answers after tool results, when not to call, a missing value asked
for, the system prompt honoured, structured outputs; in English and in Chinese, over tools invented here.

Every answer is checked the same way (`assert_answer`): written in the question's language, holding the values
asked for, never the tool's name, never a JSON dump, never the offline disclaimer.
"""

import asyncio
import json
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from agentkit.offline import OfflineModel, offline_client
from agentkit.offline.answer import NOT_AN_LLM, plain_answer

HAN = re.compile(r"[\u4e00-\u9fff]")
JSON_DUMP = re.compile(r"[{\[]\s*\"|\"\w+\"\s*:")


def tool(name, description, properties, required=None):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": list(properties) if required is None else required}}}


S = {"type": "string"}
CONDITIONS = tool("fetch_conditions", "Current weather conditions for a city.", {"city": S})
TICKET = tool("open_ticket", "Open an issue in a repository.", {
    "repo": {"type": "string", "description": "The repository, as owner/name"}, "title": S})
MAIL = tool("dispatch_mail", "Send an email message.", {"to": {"type": "string", "description": "recipient email"},
                                                         "body": S})
RUNNER = tool("run_cmd", "Run a shell command in the workspace.", {"command": S})
SAVER = tool("save_text", "Write text to a file in the workspace.", {"path": S, "content": S})
ASK = tool("ask_user", "Ask the user a question and wait for their answer.", {"question": S})


def after(question, calls, results, system=None, tools=()):
    """The model's answer once the calls were made and their results came back."""
    messages = [{"role": "system", "content": system}] if system else []
    messages += [{"role": "user", "content": question}, {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for i, (n, a) in enumerate(calls)]}]
    messages += [{"role": "tool", "tool_call_id": f"c{i}", "content": r} for i, r in enumerate(results)]
    return OfflineModel().respond({"model": "offline", "messages": messages, "tools": list(tools)}).content


def ask(question, tools, system=None, history=()):
    messages = ([{"role": "system", "content": system}] if system else []) + list(history)
    return OfflineModel().respond({"messages": [*messages, {"role": "user", "content": question}], "tools": tools})


def assert_answer(answer, language, values=(), tool_names=()):
    assert answer, "an answer in words"
    if language == "zh":
        assert len(HAN.findall(answer)) >= 2, f"not in Chinese: {answer!r}"
    else:
        assert not HAN.search(answer), f"not in English: {answer!r}"
    for value in values:
        assert value in answer, f"{value!r} missing from {answer!r}"
    for name in tool_names:
        assert name not in answer, f"names the tool {name}: {answer!r}"
    assert not JSON_DUMP.search(answer), f"a JSON dump: {answer!r}"
    assert "MODEL_API_KEY" not in answer and "offline model" not in answer


WEATHER = json.dumps({"temp_c": 18, "condition": "light rain", "humidity": 82, "wind_kmh": 14, "station_id": "X9"})
BOOKS = json.dumps([{"title": "Dune", "year": 1965}, {"title": "Dune Messiah", "year": 1969}])

# (id, question, tool name, arguments, result, language, values the answer must state)
SHAPES = [
    ("a JSON object, every field", "What's the weather like in Oslo?", "fetch_conditions", {"city": "Oslo"}, WEATHER,
     "en", ["Oslo", "18", "light rain", "82"]),
    ("a JSON object, the field asked about", "How humid is it in Oslo?", "fetch_conditions", {"city": "Oslo"},
     WEATHER, "en", ["82"]),
    ("a JSON object, in Chinese", "奥斯陆天气怎么样？", "fetch_conditions", {"city": "Oslo"}, WEATHER, "zh",
     ["奥斯陆", "18", "湿度"]),
    ("a list of objects", "Which books did Frank Herbert write?", "lookup_books", {"author": "Frank Herbert"}, BOOKS,
     "en", ["2", "Dune", "Dune Messiah"]),
    ("a list of objects, in Chinese", "赫伯特写过哪些书？", "lookup_books", {"author": "Frank Herbert"}, BOOKS, "zh",
     ["2", "Dune", "Dune Messiah"]),
    ("a list of strings", "What labels are there?", "list_labels", {}, '["bug", "docs", "urgent"]', "en",
     ["bug, docs and urgent"]),
    ("a list of strings, in Chinese", "有哪些标签？", "list_labels", {}, '["bug", "docs", "urgent"]', "zh",
     ["bug、docs和urgent"]),
    ("a number, grouped", "What's the population of Lyon?", "city_population", {"city": "Lyon"}, "516092", "en",
     ["516,092", "Lyon"]),
    ("a number, in Chinese", "里昂有多少人口？", "city_population", {"city": "Lyon"}, "516092", "zh", ["516,092", "人口"]),
    ("a date-time", "What time is it in Tokyo?", "zone_clock", {"tz": "Asia/Tokyo"}, "2026-03-05T14:05:00+09:00",
     "en", ["14:05", "Tokyo", "Thursday"]),
    ("a date-time, in Chinese", "东京现在几点？", "zone_clock", {"tz": "Asia/Tokyo"}, "2026-03-05T14:05:00+09:00", "zh",
     ["14:05", "东京", "星期四"]),
    ("an error", "Quote APPL for me", "ticker_quote", {"symbol": "APPL"},
     "Error: unknown symbol 'APPL'; did you mean AAPL?", "en", ["unknown symbol 'APPL'", "check the name"]),
    ("an error, in Chinese", "查一下 APPL 的股价", "ticker_quote", {"symbol": "APPL"},
     "Error: the quote service is down", "zh", ["没能完成", "稍后再试"]),
    ("an action's result", "Email bob@example.com saying hi", "dispatch_mail", {"to": "bob@example.com", "body": "hi"},
     "Message queued for delivery", "en", ["queued for delivery"]),
    ("what an action made", "Open an issue in a/b titled 'Crash'", "open_ticket", {"repo": "a/b", "title": "Crash"},
     '{"number": 42, "state": "open"}', "en", ["Done", "42"]),
    ("a file read", "Read notes.txt", "read_file", {"path": "notes.txt"},
     "notes.txt, lines 1-2:\n     1\tbuy milk\n     2\tcall Ana\n[end of file]", "en",
     ["notes.txt has 2 lines", "buy milk", "call Ana"]),
    ("a file read, in Chinese", "读一下 notes.txt", "read_file", {"path": "notes.txt"},
     "notes.txt, lines 1-2:\n     1\tbuy milk\n     2\tcall Ana\n[end of file]", "zh", ["共有 2 行", "buy milk"]),
    ("a listing", "Which files are in the workspace?", "glob", {"pattern": "*"},
     "2 paths matching '*', sorted:\na.txt\nb.md", "en", ["2 files", "a.txt and b.md"]),
    ("a listing, in Chinese", "工作区里有哪些文件？", "glob", {"pattern": "*"},
     "2 paths matching '*', sorted:\na.txt\nb.md", "zh", ["2 个文件", "a.txt和b.md"]),
    ("a command's output", "Count the lines of notes.txt", "run_cmd", {"command": "wc -l notes.txt"},
     "exit code: 0\nstdout:\n3 notes.txt\nstderr: (empty)", "en", ["notes.txt has 3 lines."]),  # the count, said
    ("a command's printout", "Run ls", "run_cmd", {"command": "ls"},
     "exit code: 0\nstdout:\na.txt\nb.md\nstderr: (empty)", "en", ["`ls` printed:", "a.txt"]),
    ("a failed command, in Chinese", "运行 false", "run_cmd", {"command": "false"},
     "exit code: 1\nstdout: (empty)\nstderr:\nsomething broke", "zh", ["退出码 1", "something broke"]),
    ("a file written", "Save hello to out.txt", "save_text", {"path": "out.txt", "content": "hello"},
     "Wrote 5 bytes to out.txt (new file)", "en", ["out.txt", "5 bytes"]),
    ("a search's rows", "Which customers bought white sunglasses?", "query_database", {"color": "white"},
     "Alice Martin (1); Dana Kowalski (3)", "en", ["I found 2", "Alice Martin (1) and Dana Kowalski (3)"]),
    ("a refusal by the person", "Clean up the folder", "run_cmd", {"command": "rm -rf ./*"},
     "Error: refused by rule 'confirmation': the user did not allow this call of 'run_cmd' (they answered 'n'). "
     "It did not run. Do not try it again; ask the user what they want instead, or answer without it.", "en",
     ["you said no", "did not run"]),
    ("a refusal by a rule, in Chinese", "清理一下文件夹", "run_cmd", {"command": "ls"},
     "Error: refused by rule 'allowlist': 'run_cmd' is not one of the allowed tools (read_file). Use one of those.",
     "zh", ["我没有执行", "allowlist"]),
    ("a bug in the tool", "Initials of Ada Lovelace?", "initials", {"name": "Ada Lovelace"},
     "Error: tool 'initials' failed with an internal error (IndexError). This is a bug in the tool, not a mistake "
     "in your call; calling it again will not help. Tell the user the tool is broken.", "en", ["IndexError", "won't help"]),
    ("a list of objects inside an object", "What's the forecast for Oslo this week?", "get_forecast", {"city": "Oslo"},
     json.dumps({"city": "Oslo", "days": [{"day": "Mon", "high_c": 20}, {"day": "Tue", "high_c": 18}]}), "en",
     ["Oslo", "Mon (20°C)", "Tue (18°C)"]),
    ("fields named by their unit", "How far is Rome from Porto?", "get_distance", {"origin": "Porto", "destination": "Rome"},
     '{"km": 1745.2, "miles": 1084.4}', "en", ["1745.2 km", "1084.4 miles"]),
    ("what a conversion came to", "Convert 100 USD to EUR", "convert_currency",
     {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}, '{"converted": 92.31, "rate": 0.9231}', "en",
     ["100 USD is 92.31 EUR"]),
    ("a sum, not an action", "Add 0.1 and 0.2", "add_numbers", {"a": 0.1, "b": 0.2}, "0.30000000000000004", "en",
     ["0.3"]),
    ("nothing found", "Find user 7", "get_user", {"id": 7}, "null", "en", ["nothing"]),
    ("nothing found, in Chinese", "查找用户 7", "get_user", {"id": 7}, "[]", "zh", ["没有找到"]),
    ("a yes or no", "Is 17 a prime number?", "prime_check", {"n": 17}, "true", "en", ["Yes"]),
]


class TestAnswersAfterToolResults:
    @pytest.mark.parametrize(("question", "name", "arguments", "result", "language", "values"),
                             [s[1:] for s in SHAPES], ids=[s[0] for s in SHAPES])
    def test_each_shape_is_said_in_words(self, question, name, arguments, result, language, values):
        assert_answer(after(question, [(name, arguments)], [result]), language, values, [name])

    def test_several_results_make_one_answer(self):
        answer = after("Time in Tokyo and the weather in Oslo?", [("zone_clock", {"tz": "Asia/Tokyo"}),
                       ("fetch_conditions", {"city": "Oslo"})], ["2026-03-05T14:05:00+09:00", WEATHER])
        assert_answer(answer, "en", ["14:05", "Tokyo", "18", "Oslo"], ["zone_clock", "fetch_conditions"])
        assert answer.index("14:05") < answer.index("18"), "in the order of the calls"

    def test_several_results_in_chinese(self):
        answer = after("东京和巴黎现在几点？", [("zone_clock", {"tz": "Asia/Tokyo"}), ("zone_clock", {"tz": "Europe/Paris"})],
                       ["2026-03-05T14:05:00+09:00", "2026-03-05T06:05:00+01:00"])
        assert_answer(answer, "zh", ["东京", "14:05", "巴黎", "06:05"], ["zone_clock"])

    def test_a_mixed_language_request_keeps_the_learners_language(self):
        answer = after("帮我看看 Oslo 的 weather", [("fetch_conditions", {"city": "Oslo"})], [WEATHER])
        assert_answer(answer, "zh", ["18"], ["fetch_conditions"])

    def test_an_echo_of_the_calls_input_is_not_an_answer(self):
        answer = after("Book a table for 4", [("book_table", {"guests": 4})],
                       ['{"confirmation": "ABC123", "guests": 4}'])
        assert "ABC123" in answer and "guests" not in answer

    @settings(derandomize=True, max_examples=40, deadline=None)
    @given(name=st.from_regex(r"[a-z]{3,8}(_[a-z]{3,8}){1,2}", fullmatch=True),
           fields=st.dictionaries(st.from_regex(r"[a-z]{3,8}(_[a-z]{1,5})?", fullmatch=True),
                                  st.one_of(st.integers(-10**6, 10**6), st.text("abcdef ", min_size=1, max_size=12),
                                            st.booleans(), st.lists(st.sampled_from(["x", "y", "z"]), max_size=3)),
                                  min_size=1, max_size=6),
           chinese=st.booleans())
    @example(name="get_widget_info", fields={"info": {"nested": 1}}, chinese=False)
    def test_any_object_from_any_tool_is_words(self, name, fields, chinese):
        question = "这个怎么样？" if chinese else "How does it look?"
        answer = after(question, [(name, {})], [json.dumps(fields)])
        assert answer and name not in answer and not JSON_DUMP.search(answer) and "{" not in answer
        assert bool(HAN.search(answer)) == chinese


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                          max_size=4), max_leaves=12)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(name=st.text(max_size=12), arguments=st.dictionaries(st.text(max_size=8), st.one_of(
           st.text(max_size=10), st.integers(), st.floats(), st.booleans(), st.none()), max_size=3),
       result=st.one_of(st.text(max_size=200), JSON_VALUES.map(json.dumps)),
       question=st.sampled_from(["what?", "这是什么？", ""]))
@example(name="", arguments={"": 1e25}, result="0", question="what?")  # a number too large for babel's decimals
@example(name="", arguments={}, result='{"":null}', question="what?")  # a field with an empty name
def test_any_result_of_any_call_gets_an_answer(name, arguments, result, question):
    from agentkit.offline.answer import sentences

    assert isinstance(sentences([(name or "x", arguments, result)], question), str)


class TestKnowingWhenNotToCall:
    @pytest.mark.parametrize(("question", "language"), [
        ("What does an API key do?", "en"), ("How many legs does a spider have?", "en"),
        ("Write me a poem about the sea", "en"), ("蜘蛛有几条腿？", "zh"), ("给我讲个笑话", "zh")])
    def test_a_general_question_gets_a_short_honest_reply(self, question, language):
        reply = ask(question, [TICKET, CONDITIONS])
        assert reply.tool_calls == ()
        assert_answer(reply.content, language)
        assert len(reply.content) < 120 and "?" not in reply.content

    def test_asked_who_it_is_it_says_what_it_really_is(self):
        assert ask("Who are you?", []).content == NOT_AN_LLM
        assert "离线模型" in ask("你是谁？", []).content

    def test_a_missing_value_is_asked_for_by_its_meaning(self):
        reply = ask("Send an email saying hello", [MAIL])
        assert reply.tool_calls == () and reply.content == "Which recipient email should I use?"

    def test_a_missing_value_is_asked_for_in_chinese(self):
        from agentkit.offline.answer import ask_for

        question = ask_for("open_ticket", ["repo"], "zh", TICKET["function"]["parameters"])
        assert question.endswith("？") and "仓库" in question and "open_ticket" not in question

    @pytest.mark.parametrize(("description", "asked"), [
        ("花园的名字，例如 东园。", "请问花园的名字是什么？"), ("收件人（邮箱地址）", "请问收件人是什么？"),
        ("出发车站：可选", "请问出发车站是什么？")])
    def test_a_chinese_description_is_asked_for_by_its_first_clause_not_its_example(self, description, asked):
        """ "城市名称，例如 北京。" asks "请问城市名称是什么？", never with the example and a full stop inside the question."""
        from agentkit.offline.answer import ask_for

        schema = {"type": "object", "properties": {"garden": {"type": "string", "description": description}}}
        assert ask_for("water_garden", ["garden"], "zh", schema) == asked

    def test_a_missing_value_is_asked_through_ask_user_when_offered(self):
        reply = ask("Send an email saying hello", [MAIL, ASK])
        assert [c.name for c in reply.tool_calls] == ["ask_user"]
        assert json.loads(reply.tool_calls[0].arguments) == {"question": "Which recipient email should I use?"}

    def test_the_answer_to_ask_user_completes_the_call(self):
        history = [{"role": "user", "content": "Send an email saying hello"}]
        asked = {"question": "Which recipient email should I use?"}
        reply = OfflineModel().respond({"messages": [*history, {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c0", "type": "function", "function": {"name": "ask_user", "arguments": json.dumps(asked)}}]},
            {"role": "tool", "tool_call_id": "c0", "content": "bob@example.com"}], "tools": [MAIL, ASK]})
        assert [(c.name, json.loads(c.arguments)) for c in reply.tool_calls] == [
            ("dispatch_mail", {"to": "bob@example.com", "body": "hello"})]


class TestTheSystemPromptCounts:
    @pytest.mark.parametrize(("system", "question", "language"), [
        ("Answer in Chinese.", "What's the weather in Oslo?", "zh"), ("用中文回答。", "What's the weather in Oslo?", "zh"),
        ("Always reply in English.", "奥斯陆天气如何？", "en"), ("请用英文回答。", "奥斯陆天气如何？", "en")])
    def test_the_answer_language(self, system, question, language):
        answer = after(question, [("fetch_conditions", {"city": "Oslo"})], [WEATHER], system=system)
        assert_answer(answer, language, ["18"], ["fetch_conditions"])

    @pytest.mark.parametrize("system", ["Never use the shell tool.", "Do not call run_cmd.", "不要使用 run_cmd。"])
    def test_a_tool_it_must_not_use(self, system):
        assert ask("Run wc -l notes.txt", [RUNNER]).tool_calls, "without the rule it runs the command"
        reply = ask("Run wc -l notes.txt", [RUNNER], system)
        assert reply.tool_calls == () and "run_cmd" not in reply.content

    def test_the_course_prompts_conditional_rule_forbids_nothing(self):
        system = "Do not use bash to reach outside the folder either."
        assert ask("Run the shell command 'ls'", [tool("bash", "Run a shell command.", {"command": S})], system).tool_calls

    @pytest.mark.parametrize(("system", "question", "language", "yes"), [
        ("Ask before writing any file.", "Write hello to out.txt", "en", "yes"),
        ("写文件之前先问我。", "Write hello to out.txt", "en", "好的"),
        ("Always ask for confirmation before you change a file.", "Write hello to out.txt", "en", "ok")])
    def test_ask_before_writing_then_write_on_yes(self, system, question, language, yes):
        first = ask(question, [SAVER], system)
        assert first.tool_calls == () and "out.txt" in first.content
        assert_answer(first.content, language, tool_names=["save_text"])
        history = [{"role": "user", "content": question}, {"role": "assistant", "content": first.content}]
        second = ask(yes, [SAVER], system, history)
        assert [c.name for c in second.tool_calls] == ["save_text"]
        assert ask(question, [SAVER]).tool_calls, "without the rule it writes at once"

    def test_the_confirmation_is_asked_in_chinese(self):
        from agentkit.offline.answer import confirm_first

        asked = confirm_first([("save_text", {"path": "out.txt", "content": "hello"})], "zh")
        assert_answer(asked, "zh", ["out.txt", "可以继续吗？"], ["save_text"])

    def test_short_and_detailed_answers_differ(self):
        calls, results = [("fetch_conditions", {"city": "Oslo"})], [WEATHER]
        short = after("How humid is it in Oslo?", calls, results, system="Keep your answers short.")
        plain = after("How humid is it in Oslo?", calls, results)
        detailed = after("How humid is it in Oslo?", calls, results, system="Explain in detail.")
        assert "82" in short and len(short) <= len(plain) < len(detailed) and "light rain" in detailed

    def test_caution_leaves_a_loose_fit_for_an_answer_in_words(self):
        currency = tool("convert_currency", "Convert money between currencies.", {
            "amount": {"type": "number"}, "from_currency": S, "to_currency": S})
        system = "Call a tool only when it does exactly what the user asks; otherwise answer in words."
        assert ask("Convert 10 miles to kilometers", [currency], system).tool_calls == ()
        assert ask("Convert 10 dollars to euros", [currency], system).tool_calls


class Meeting(BaseModel):
    title: str
    day: str
    attendees: list[str]
    room: str | None


class Task(BaseModel):
    task: str
    tags: list[str]


def parsed(model, text):
    client = offline_client()
    reply = asyncio.run(client.chat.completions.parse(model="offline", messages=[{"role": "user", "content": text}],
                                                      response_format=model))
    return reply.choices[0].message


class TestStructuredOutputs:
    @pytest.mark.parametrize(("text", "attendees"), [
        ("Schedule 'Budget review' on Friday with Priya and Tom", ["Priya", "Tom"]),
        ("Set up 'Sync' on Monday with Ana, Bo and Chen", ["Ana", "Bo", "Chen"])])
    def test_a_list_as_people_write_it(self, text, attendees):
        message = parsed(Meeting, text)
        assert message.parsed.attendees == attendees and message.parsed.room is None

    def test_a_list_after_its_own_word(self):
        assert parsed(Task, "Remind me to call the bank, tag it finance and urgent").parsed.tags == ["finance", "urgent"]

    def test_a_refusal_only_when_a_required_value_is_absent_and_in_the_learners_language(self):
        class Contact(BaseModel):
            name: str
            email: str

        assert parsed(Contact, "Add Maria Lopez, maria@example.com").parsed.email == "maria@example.com"
        assert "email" in parsed(Contact, "Add Maria Lopez").refusal
        assert HAN.search(parsed(Contact, "添加联系人 Maria Lopez").refusal)


@pytest.mark.parametrize(("said", "expected"), [("thanks!", "You're welcome."), ("Thank you so much", "You're welcome."),
                                                 ("谢谢", "不客气。"), ("ok", "Good. What would you like to do next?"),
                                                 ("好的", "好的。接下来想做什么？")])
def test_a_thank_you_or_an_ok_on_its_own_is_answered_as_a_person_would(said, expected):
    assert plain_answer(said) == expected


def test_a_question_after_a_thank_you_is_still_the_question():
    assert plain_answer("thanks, what is the capital of France?") == "The capital of France is Paris."
    assert plain_answer("谢谢，法国的首都是哪里？") == "法国的首都是巴黎。"


def test_a_result_that_repeats_its_argument_is_said_with_the_argument_once():
    from agentkit.offline.answer import sentences

    said = sentences([("get_forecast", {"city": "Lisbon"}, "Lisbon: sunny, 21 C")], "What is the forecast for Lisbon?")
    assert said.count("Lisbon") == 1 and "sunny, 21 C" in said, said
    kept = sentences([("lookup", {"word": "http"}, "http: a protocol")], "what is http?")
    assert "http" in kept and "a protocol" in kept, "where the sentence does not name the argument, the result keeps it"


@pytest.mark.parametrize("error, meaning", [
    # each worded as another tool might word it, never as agentkit's own tools do
    ("the text 'foo' is not present in 'notes.md'", "在 notes.md 里没有找到"),
    ("could not open 'data.csv': no such file or directory", "找不到 data.csv"),
    ("path 'C:/secrets' escapes the sandbox (outside the allowed root)", "C:/secrets 在工作区之外"),
    ("'photos' is a directory", "photos 是文件夹"),
    ("'pic.png' looks binary", "pic.png 不是文本文件"),
    ("the request took too long and was abandoned", "运行超时了"),
    ("permission denied for '/etc/shadow'", "不被允许"),
    ("argument 'count' expected an integer, got 'many'", "不符合要求"),
    ("the match 'TODO' occurs 3 times in 'a.py'", "出现了不止一次"),
])
def test_an_error_worded_otherwise_is_understood_by_its_meaning_and_said_in_chinese(error, meaning):
    from agentkit.offline.outputs import failure

    said = failure(error, "zh")
    assert said.startswith("没能完成：") and meaning in said and not re.search(r"[a-z]{3,} [a-z]{3,}", said), said


@pytest.mark.parametrize("path, error", [
    ("../secret.txt", "'../secret.txt' leads outside the workspace; paths must stay inside the workspace root, for "
                      "example 'notes.txt' or 'src/app.py'"),
    ("/etc/hosts", "absolute paths are outside the sandbox; use a relative one such as 'notes.txt'"),
    ("草稿/旧.md", "no such file; try a name like 'README.md'"),
])
def test_a_chinese_error_names_the_path_the_call_gave_never_the_messages_example(path, error):
    """Issue 34/37: "notes.txt 在工作区之外" for a call on ../secret.txt. The example is the tool's, the path the user's."""
    from agentkit.offline.results import tell

    said = tell("read_file", {"path": path}, f"Error: {error}", f"读一下 {path}", "zh", False)
    assert path in said and not re.search(r"notes\.txt|README\.md|app\.py", said), said


@pytest.mark.parametrize("name, arguments, result, question, chinese, english", [
    ("log_expense", {"amount": 35}, '{"amount": 35, "category": "food"}', "午饭花了多少，算哪一类？", "餐饮", "food"),
    ("get_order", {"order_id": "A1"}, '{"order_id": "A1", "eta": "Friday"}', "订单 A1 哪天到？", "星期五", "Friday"),
    ("get_task", {"task_id": 3}, '{"task_id": 3, "priority": "high", "owner": "Lina"}', "任务 3 的优先级和负责人？",
     "高", "high"),
])
def test_a_chinese_answer_says_a_word_the_vocabulary_has_in_chinese_and_keeps_names(name, arguments, result, question,
                                                                                      chinese, english):
    """Issue 34/37: "预计送达为 Friday". A value the bilingual table knows is said in Chinese; a name stays as written."""
    from agentkit.offline.results import tell

    said = tell(name, arguments, result, question, "zh", False)
    assert chinese in said and english not in said, said
    assert "Lina" in said or "Lina" not in result, said


@pytest.mark.parametrize(("result", "said"), [
    ({"item": "bagel", "left": 3}, "there are 3 left"),
    ({"part": "chain", "in_stock": 1, "price": "£6.50"}, "there is 1 in stock"),
    ({"job": "R-1", "estimated_ready": "2027-01-13"}, "it should be ready on Wednesday, 13 January 2027"),
    ({"copies": 0, "due_back": "2027-03-01"}, "it is due back on Monday, 1 March 2027"),
    ({"show": "Morning Mix", "approx_time": "10:15"}, "it is at about 10:15"),
    ({"rental": "KY-19", "return_by": "11:40"}, "return it by 11:40"),
    ({"status": "received", "decision_by": "2027-01-19"}, "the decision is due by Tuesday, 19 January 2027"),
    ({"lane": 4, "shoe_hire_included": True}, "shoe hire is included"),  # a flag named by a participle
    ({"order": "SK-1", "permit_needed": False}, "no permit is needed"),
    ({"item": "stickers", "in_stock": 0, "restock_date": None}, "there are 0 in stock"),  # null: not "the ... is none"
])
def test_a_field_named_by_a_state_or_a_deadline_is_said_as_one(result, said):
    """ "left": 3 is "there are 3 left", never "the left is 3"; a date a thing is ready, due back, or must be returned by
    is said with its verb ("it is due back on ...", "return it by 11:40"), never "the ready is ..."."""
    answer = after("how is it going?", [("check_item", {"item": "x"})], [json.dumps(result)])
    assert said in answer and " the left is" not in answer and "the ready is" not in answer and " none" not in answer, answer


def test_a_field_named_only_by_a_leading_word_is_not_the_whole_answer():
    """ "resize the ring to size T" names from_size and to_size ("size"): "From R." alone says nothing of the job."""
    answer = after("resize the ring to size T", [("resize_ring", {"ring": "gold band", "new_size": "T"})],
                   [json.dumps({"job": "RS-207", "from_size": "R", "to_size": "T", "price": 45})])
    assert "the job is RS-207" in answer and "the price is 45" in answer, answer
