import inspect
import keyword
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentkit.manual import build_system_prompt, describe_function, manual_round_trip, run_call
from agentkit.offline import ScriptedModel, offline_client
from agentkit.recovery.function_line import (
    STOP,
    CodeFenceError,
    FunctionCallError,
    MalformedCallError,
    NotALiteralError,
    ProseAroundCallError,
    SeveralCallsError,
    UnbalancedQuotesError,
    UnknownFunctionError,
    WrongArgumentsError,
    format_call,
    parse_reply,
)
from agentkit.tools.clock import get_current_time


def interest_calc(principal: float, interest_rate: float, years: int) -> str:
    """Compound interest, once a year: the balance after `years`.

    Second paragraph, not shown to the model.
    """
    return f"${principal * (1 + interest_rate / 100) ** years:,.2f}"


FUNCTIONS = [get_current_time, interest_calc]


def by_name(name, *args, **kwargs):
    """What `parse_reply` gives for a call of `name` with these arguments: the name, the arguments by parameter name."""
    function = {function.__name__: function for function in FUNCTIONS}[name]
    return name, dict(inspect.signature(function).bind(*args, **kwargs).arguments)


def made(call):
    return call and (call.name, call.arguments)


# The prompt builder


def test_describe_function_quotes_text_placeholders_and_leaves_numbers_bare():
    assert describe_function(get_current_time).splitlines()[1] == '  FUNCTION: get_current_time("timezone")'
    assert describe_function(interest_calc) == (
        "- interest_calc: Compound interest, once a year: the balance after `years`.\n"
        "  FUNCTION: interest_calc(principal, interest_rate, years)"
    )


def test_describe_function_reads_string_annotations_and_defaults():
    def lookup(city: "str", limit=3, unit="metric"):
        pass

    assert describe_function(lookup) == '- lookup\n  FUNCTION: lookup("city", limit, "unit")'


def test_system_prompt_lists_every_function_and_the_protocol():
    prompt = build_system_prompt(FUNCTIONS)
    assert 'FUNCTION: get_current_time("timezone")' in prompt
    assert "FUNCTION: interest_calc(principal, interest_rate, years)" in prompt
    assert "current time in a time zone" in prompt
    assert "RESULT: <value>" in prompt
    assert "If no tool fits" in prompt
    assert "Second paragraph" not in prompt


# The parser: what it accepts


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("FUNCTION: get_current_time()", by_name("get_current_time")),
        ('FUNCTION: get_current_time("Pacific/Auckland")', by_name("get_current_time", "Pacific/Auckland")),
        ("  FUNCTION: get_current_time('Asia/Tokyo')  \n\n", by_name("get_current_time", "Asia/Tokyo")),
        ('FUNCTION: get_current_time(timezone="UTC")', by_name("get_current_time", timezone="UTC")),
        ("FUNCTION: interest_calc(500, 5, 10)", by_name("interest_calc", 500, 5, 10)),
        ("FUNCTION:interest_calc(500.0, -2.5, 10)", by_name("interest_calc", 500.0, -2.5, 10)),
        # Prose on the lines before the call is allowed: the model says what it is about to do.
        ("Let me look that up.\nFUNCTION: get_current_time()", by_name("get_current_time")),
    ],
)
def test_parse_reply_accepts(reply, expected):
    assert made(parse_reply(reply, FUNCTIONS)) == expected


@pytest.mark.parametrize("reply", ["Green tea has about 30 mg of caffeine per cup.", "", "   ", "function: no"])
def test_a_reply_without_a_function_line_is_a_plain_answer(reply):
    assert parse_reply(reply, FUNCTIONS) is None


# The parser: each way a reply breaks, with its typed error and a message that says what is valid


@pytest.mark.parametrize(
    ("reply", "error", "message"),
    [
        ("Sure! FUNCTION: get_current_time()", ProseAroundCallError, "Text before FUNCTION: on the same line"),
        ("FUNCTION: get_current_time() -- checking now", ProseAroundCallError, "Text after the call on the same line"),
        ("FUNCTION: get_current_time() I'll wait.", ProseAroundCallError, "\"I'll wait.\""),
        ("FUNCTION: get_current_time() + 1", ProseAroundCallError, "'+ 1'"),
        (
            'FUNCTION: get_current_time("Pacific/Auckland")\nRESULT: 2024-01-01 10:00',
            ProseAroundCallError,
            "Text after the FUNCTION: line: 'RESULT: 2024-01-01 10:00'",
        ),
        ("FUNCTION: get_current_time()\nI hope this helps!", ProseAroundCallError, "pass stop=['\\nRESULT:']"),
        ("```text\nFUNCTION: get_current_time()```", CodeFenceError, "write it as a plain line"),
        ("FUNCTION: get_curent_time()", UnknownFunctionError, "Did you mean 'get_current_time'?"),
        (
            "FUNCTION: send_email('x')",
            UnknownFunctionError,
            "Unknown function 'send_email'. It should be one of: get_current_time, interest_calc.",
        ),
        ('FUNCTION: get_current_time("Pacific/Auckland)', UnbalancedQuotesError, 'a " is opened and never closed'),
        ("FUNCTION: get_current_time('Asia/Tokyo\")", UnbalancedQuotesError, "a ' is opened and never closed"),
        ("FUNCTION: interest_calc(500, 5 / 100, 10)", NotALiteralError, "The argument 5 / 100 is not a literal"),
        ("FUNCTION: get_current_time(tz)", NotALiteralError, "The argument tz is not a literal"),
        ("FUNCTION: get_current_time(__import__('os').getcwd())", NotALiteralError, "is not a literal"),
        ("FUNCTION: interest_calc(**{'years': 1})", NotALiteralError, "unpacks arguments with **"),
        ("FUNCTION: interest_calc(*[1, 2, 3])", NotALiteralError, "The argument *[1, 2, 3] is not a literal"),
        ("FUNCTION: get_current_time({[1]: 2})", NotALiteralError, "is not a literal"),
        (
            "FUNCTION: get_current_time()\nFUNCTION: interest_calc(500, 5, 10)",
            SeveralCallsError,
            "2 FUNCTION: lines in one reply",
        ),
        ("FUNCTION: get_current_time", MalformedCallError, "e.g. get_current_time(\"UTC\")"),
        ("FUNCTION: os.system('ls')", MalformedCallError, "is not of the form"),
        ("FUNCTION: get_current_time(\x00)", MalformedCallError, "is not of the form"),
        ("FUNCTION: interest_calc(500, 5)", WrongArgumentsError, "missing a required argument: 'years'"),
        ("FUNCTION: get_current_time(zone='UTC')", WrongArgumentsError, "unexpected keyword argument 'zone'"),
    ],
)
def test_parse_reply_refuses(reply, error, message):
    with pytest.raises(error) as caught:
        parse_reply(reply, FUNCTIONS)
    assert isinstance(caught.value, FunctionCallError) and isinstance(caught.value, ValueError)
    assert message in str(caught.value)


def test_the_model_text_is_never_executed(tmp_path):
    marker = tmp_path / "pwned"
    with pytest.raises(NotALiteralError):
        parse_reply(f"FUNCTION: get_current_time(open({str(marker)!r}, 'w').write('x'))", FUNCTIONS)
    assert not marker.exists()


def test_stop_sequence_is_where_an_invented_result_would_start():
    assert STOP == ["\nRESULT:"]


# Running a call


@pytest.mark.anyio
async def test_run_call_returns_the_result_as_text():
    assert await run_call(parse_reply("FUNCTION: interest_calc(500, 5, 10)", FUNCTIONS), FUNCTIONS) == "$814.45"


@pytest.mark.anyio
async def test_run_call_turns_a_tool_error_into_an_error_result():
    result = await run_call(parse_reply('FUNCTION: get_current_time("Middle/Earth")', FUNCTIONS), FUNCTIONS)
    assert result.startswith("Error: Unknown time zone 'Middle/Earth'") and "Europe/Paris" in result


# Property: build the line from a name and literal arguments, parse it back

names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,20}", fullmatch=True).filter(lambda name: not keyword.iskeyword(name))
scalars = (
    st.text(max_size=30)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.none()
)
literals = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)


@given(names, st.lists(literals, max_size=4), st.dictionaries(names, literals, max_size=3))
def test_format_then_parse_gives_back_the_call(name, args, kwargs):
    def any_function(*args, **kwargs):
        pass

    any_function.__name__ = name
    call = parse_reply(format_call(name, *args, **kwargs), [any_function])
    assert (call.name, call.arguments) == (name, dict(inspect.signature(any_function).bind(*args, **kwargs).arguments))


@given(literals)
def test_any_literal_survives_surrounding_prose_lines(value):
    reply = f"I will call the tool now.\n{format_call('get_current_time', value)}\n"
    call = parse_reply(reply, [interest_calc, get_current_time])
    assert call.name == "get_current_time" and call.arguments == {"timezone": value}


@given(st.text(max_size=60))
def test_the_parser_never_fails_with_anything_but_its_own_errors(text):
    try:
        parse_reply("FUNCTION: " + text, FUNCTIONS)
    except FunctionCallError:
        pass


def test_floats_round_trip_exactly():
    call = parse_reply(format_call("interest_calc", 0.1, math.pi, 10**30), FUNCTIONS)
    assert list(call.arguments.values()) == [0.1, math.pi, 10**30]


# Full round trips, through the real openai client: the offline model, and a scripted one for exact control

ZONED_TIME = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2} \((?P<zone>[^)]+)\)")


@pytest.mark.anyio
async def test_round_trip_with_a_time_zone_argument():
    result = await manual_round_trip(offline_client(), "offline", "What time is it in New Zealand?", FUNCTIONS)
    assert made(result.call) == by_name("get_current_time", "Pacific/Auckland")
    assert [message["role"] for message in result.messages] == ["system", "user", "assistant", "user", "assistant"]
    assert result.messages[0]["content"] == build_system_prompt(FUNCTIONS)
    # The stop sequence cut the invented result off: the model's line is the call alone.
    assert result.messages[2]["content"] == 'FUNCTION: get_current_time("Pacific/Auckland")'
    assert ZONED_TIME.fullmatch(result.messages[3]["content"].removeprefix("RESULT: "))["zone"] == "Pacific/Auckland"
    assert result.answer.startswith("It's ") and result.answer == result.messages[4]["content"]


@pytest.mark.anyio
async def test_round_trip_with_number_arguments():
    question = "What is 500 dollars at 5% interest after 10 years?"
    result = await manual_round_trip(offline_client(), "offline", question, FUNCTIONS)
    assert made(result.call) == by_name("interest_calc", 500, 5, 10)
    assert result.messages[3] == {"role": "user", "content": "RESULT: $814.45"}
    assert result.answer == "The interest for principal 500, interest rate 5 and 10 years is $814.45."


@pytest.mark.anyio
async def test_round_trip_without_a_fitting_tool_is_one_plain_answer():
    result = await manual_round_trip(offline_client(), "offline", "How much caffeine is in green tea?", FUNCTIONS)
    assert result.call is None
    assert "caffeine" in result.answer and "FUNCTION:" not in result.answer
    assert len(result.messages) == 3


@pytest.mark.anyio
async def test_without_stop_the_model_invents_a_result_and_the_parser_refuses_it():
    client = offline_client()
    messages = [{"role": "system", "content": build_system_prompt(FUNCTIONS)},
                {"role": "user", "content": "What time is it in Japan?"}]
    reply = (await client.chat.completions.create(model="offline", messages=messages)).choices[0].message.content
    assert reply.startswith('FUNCTION: get_current_time("Asia/Tokyo")\nRESULT: ')
    with pytest.raises(ProseAroundCallError):
        parse_reply(reply, FUNCTIONS)


@pytest.mark.anyio
async def test_round_trip_sends_the_stop_sequence_and_raises_on_a_bad_line():
    model = ScriptedModel(["FUNCTION: get_curent_time()"])
    with pytest.raises(UnknownFunctionError, match="Did you mean 'get_current_time'"):
        await manual_round_trip(offline_client(model), "scripted", "What time is it?", FUNCTIONS)
    assert model.requests[0]["stop"] == ["\nRESULT:"]
    assert len(model.requests) == 1


@pytest.mark.anyio
async def test_round_trip_sends_a_tool_error_back_as_the_result():
    model = ScriptedModel(['Let me check.\nFUNCTION: get_current_time("Mars/Olympus")', "Mars has no time zone."])
    result = await manual_round_trip(offline_client(model), "scripted", "What time is it on Mars?", FUNCTIONS)
    sent = model.requests[1]["messages"]
    assert sent[2] == {"role": "assistant", "content": 'Let me check.\nFUNCTION: get_current_time("Mars/Olympus")'}
    assert sent[3]["content"].startswith("RESULT: Error: Unknown time zone 'Mars/Olympus': use an IANA")
    assert result.answer == "Mars has no time zone."


@pytest.mark.parametrize("reply", [
    '```\nFUNCTION: get_current_time("Asia/Tokyo")\n```',
    'Let me check.\n```python\nFUNCTION: get_current_time("Asia/Tokyo")\n```',
])
def test_a_fence_around_the_line_is_taken_off(reply):
    # Models trained on Markdown fence the line; a variant of the offline model does (offline/fenced).
    assert made(parse_reply(reply, [get_current_time])) == by_name("get_current_time", "Asia/Tokyo")


def test_a_fence_around_more_than_the_line_is_still_refused():
    with pytest.raises(ProseAroundCallError):
        parse_reply('```\nFUNCTION: get_current_time("Asia/Tokyo")\nprint(result)\n```', [get_current_time])
