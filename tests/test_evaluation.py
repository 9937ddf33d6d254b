"""The evaluation set is well formed, the scorer applies each rule, the runner and report work, and scores keep their floor."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

import agentkit.evaluation
from agentkit.config import connect
from agentkit.evaluation import (
    CATEGORIES,
    Case,
    ExpectedCall,
    Verdict,
    cost,
    evaluate,
    failures,
    load_cases,
    load_functions,
    run_cases,
    score,
    scores,
    table,
)
from agentkit.evaluation.dataset import DATA, case_problems
from agentkit.evaluation.report import class_table
from agentkit.evaluation.runner import messages_for
from agentkit.evaluation.scorer import same_value
from agentkit.frontends.cli import main
from agentkit.offline import ScriptedModel, offline_client
from agentkit.offline.language import is_chinese
from agentkit.offline.scripted import call

FUNCTIONS = load_functions()
CASES = load_cases()


# ---------------------------------------------------------------- the data set
def test_the_set_is_large_and_balanced_enough():
    assert len(CASES) >= 150
    assert len(FUNCTIONS) >= 40
    per_category = Counter(case.category for case in CASES)
    assert set(per_category) == set(CATEGORIES) and min(per_category.values()) >= 25, per_category
    assert len({case.id for case in CASES}) == len(CASES), "case ids are unique"
    assert len({case.question for case in CASES}) == len(CASES), "no question is asked twice"


def test_the_held_out_split_is_every_case_at_index_2_5_8_mod_10():
    assert [case.split for case in CASES] == ["heldout" if i % 10 in (2, 5, 8) else "train" for i in range(len(CASES))]


def test_every_function_schema_is_valid_json_schema():
    for name, tool in FUNCTIONS.items():
        assert tool["type"] == "function" and tool["function"]["description"], name
        parameters = tool["function"]["parameters"]
        jsonschema.Draft202012Validator.check_schema(parameters)
        assert set(parameters["required"]) <= set(parameters["properties"]), name
    types = {spec.get("type") for tool in FUNCTIONS.values() for spec in tool["function"]["parameters"]["properties"].values()}
    assert {"string", "number", "integer", "boolean", "array", "object"} <= types
    assert any("enum" in spec for tool in FUNCTIONS.values() for spec in tool["function"]["parameters"]["properties"].values())


def test_every_function_has_a_name_of_its_own():
    """load_functions keys the schemas by name: a second schema of the same name would silently replace the first."""
    names = [tool["function"]["name"] for tool in json.loads((DATA / "functions.json").read_text(encoding="utf-8"))]
    assert len(names) == len(set(names)) == len(FUNCTIONS), [n for n in names if names.count(n) > 1]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_every_case_agrees_with_the_schemas(case):
    assert case_problems(case, FUNCTIONS) == []
    assert len(set(case.tools)) == len(case.tools)
    if case.category == "choose":
        assert 3 <= len(case.tools) <= 5 and len(case.expected) == 1
    if case.category == "several_calls":
        assert len(case.expected) >= 2 and len({call.name for call in case.expected}) == 1
    if case.category == "several_tools":
        assert len({call.name for call in case.expected}) >= 2


@pytest.mark.parametrize(("change", "problem"), [
    (lambda c: replace(c, tools=("get_current_time",)), "get_current_weather is expected but not offered"),
    (lambda c: replace(c, category="no_tool"), "a no_tool case expects no call"),
    (lambda c: replace(c, expected=(ExpectedCall("get_current_weather", {"location": ["Tokyo"]}),)),
     "list every declared parameter"),
    (lambda c: replace(c, expected=(ExpectedCall("get_current_weather", {"location": [None, "Tokyo"], "unit": [None]}),)),
     "required 'location' needs an acceptable value"),
    (lambda c: replace(c, expected=(ExpectedCall("get_current_weather", {"location": ["Tokyo"], "unit": ["kelvin"]}),)),
     "'kelvin' is not a valid 'unit'"),
])
def test_a_broken_case_is_caught(change, problem):
    sound = next(case for case in CASES if case.id == "single_001")
    assert case_problems(sound, FUNCTIONS) == []
    assert any(problem in line for line in case_problems(change(sound), FUNCTIONS))


# ---------------------------------------------------------------- the scorer, one rule a row
WEATHER = ExpectedCall("get_current_weather", {"location": ["Tokyo", "Tokyo, Japan"], "unit": [None, "celsius"]})
INTEREST = ExpectedCall("calculate_compound_interest", {"principal": [1200], "annual_rate": [3.5], "years": [7],
                                                        "compounds_per_year": [None, 1]})


def _case(*expected, tools=("get_current_weather", "calculate_compound_interest", "get_current_time"), category="single"):
    return Case("t", "train", category, "?", tuple(tools), tuple(expected))


@pytest.mark.parametrize(("calls", "reason"), [
    ([("get_current_weather", '{"location": "Tokyo"}')], None),
    ([("get_current_weather", {"location": " tokyo. "})], None),  # case, spaces, punctuation around do not count
    ([("get_current_weather", '{"location": "Tokyo, Japan", "unit": "celsius"}')], None),  # another acceptable value
    ([("get_current_time", '{"timezone": "Asia/Tokyo"}')], "wrong tool: called get_current_time, expected get_current_weather"),
    ([("get_current_weather", "{}")], "missing argument 'location'"),
    ([("get_current_weather", '{"location": "Kyoto"}')], "bad value for 'location': got 'Kyoto'"),
    ([("get_current_weather", '{"location": "Tokyo", "lang": "en"}')], "unknown argument 'lang'"),
    ([("get_current_weather", '{"location": "Tokyo", "unit": "kelvin"}')], "'unit' does not fit its schema"),  # not in the enum
    ([("get_current_weather", '{"location": 7}')], "'location' does not fit its schema"),
    ([("get_current_weather", '{"location": "Tokyo"')], "arguments are not valid JSON"),
    ([("get_current_weather", "[1]")], "arguments are a list, not an object"),
    ([], "no call"),
    ([("get_current_weather", '{"location": "Tokyo"}')] * 2, "extra call to get_current_weather"),
    ([("get_current_weather", '{"location": "Tokyo"}'), ("send_email", "{}")], "extra call to send_email (not offered)"),
])
def test_one_expected_call(calls, reason):
    verdict = score(_case(WEATHER), calls, FUNCTIONS)
    assert verdict.right == (reason is None), verdict
    if reason:
        assert any(reason in line for line in verdict.reasons), verdict.reasons


@pytest.mark.parametrize(("arguments", "reason"), [
    ({"principal": 1200, "annual_rate": 3.5, "years": 7}, None),
    ({"principal": 1200.0, "annual_rate": 3.5, "years": 7.0}, None),  # 7.0 is integral: the same number as 7
    ({"principal": 1200, "annual_rate": 3.5, "years": 7, "compounds_per_year": 1}, None),  # the default, stated
    ({"principal": 1200, "annual_rate": 3.5, "years": 7.5}, "'years' does not fit its schema"),  # an integer never gets 7.5
    ({"principal": "1200", "annual_rate": 3.5, "years": 7}, "'principal' does not fit its schema"),
    ({"principal": 1200, "annual_rate": 0.035, "years": 7}, "bad value for 'annual_rate': got 0.035, expected [3.5]"),
    ({"principal": 1200, "annual_rate": 3.5, "years": 7, "compounds_per_year": 12}, "bad value for 'compounds_per_year'"),
    ({"principal": True, "annual_rate": 3.5, "years": 7}, "'principal' does not fit its schema"),  # a boolean is not a number
])
def test_numbers_and_optional_arguments(arguments, reason):
    verdict = score(_case(INTEREST), [("calculate_compound_interest", arguments)], FUNCTIONS)
    assert verdict.right == (reason is None), verdict
    if reason:
        assert any(reason in line for line in verdict.reasons), verdict.reasons


def test_several_calls_match_in_any_order_each_call_once():
    paris = ExpectedCall("get_current_weather", {"location": ["Paris"], "unit": [None]})
    case = _case(WEATHER, paris, category="several_calls")
    tokyo_call, paris_call = ("get_current_weather", {"location": "Tokyo"}), ("get_current_weather", {"location": "Paris"})
    assert score(case, [paris_call, tokyo_call], FUNCTIONS).right
    twice = score(case, [tokyo_call, tokyo_call], FUNCTIONS)  # one call cannot answer two expected calls
    assert not twice.right and twice.right_tool
    assert twice.reasons == ("get_current_weather: bad value for 'location': got 'Tokyo', expected ['Paris']",)
    assert score(case, [paris_call], FUNCTIONS).reasons == ("missing call to get_current_weather",)


def test_several_tools_and_the_right_tool_rate():
    case = _case(WEATHER, INTEREST, category="several_tools")
    interest = ("calculate_compound_interest", {"principal": 1200, "annual_rate": 3.5, "years": 7})
    assert score(case, [interest, ("get_current_weather", {"location": "Tokyo"})], FUNCTIONS).right
    half = score(case, [interest, ("get_current_weather", {})], FUNCTIONS)
    assert not half.right and half.right_tool, "the right tools with a missing argument"
    other = score(case, [interest, ("get_current_time", {"timezone": "Asia/Tokyo"})], FUNCTIONS)
    assert not other.right_tool and other.reasons == ("missing call to get_current_weather", "extra call to get_current_time")


def test_no_tool_is_right_only_without_a_call():
    case = _case(category="no_tool")
    assert score(case, [], FUNCTIONS, "Paris is the capital of France.") == Verdict(True, True, ())
    wrong = score(case, [("get_current_time", {"timezone": "Europe/Paris"})], FUNCTIONS)
    assert not wrong.right and wrong.reasons == ("called get_current_time although no offered tool fits",)


def test_values_are_counted_where_the_tool_is_right():
    """`values` is (right, asked) over calls to an expected tool: a value counts when leaving it out is wrong."""
    interest = {"principal": 1200, "annual_rate": 0.035, "years": 7, "compounds_per_year": 12}
    assert score(_case(INTEREST), [("calculate_compound_interest", interest)], FUNCTIONS).values == (2, 3)
    assert score(_case(WEATHER), [("get_current_weather", "{}")], FUNCTIONS).values == (0, 1)  # unit: null is fine
    assert score(_case(WEATHER), [("get_current_time", {"timezone": "Asia/Tokyo"})], FUNCTIONS).values == (0, 0)
    assert score(_case(WEATHER), [("get_current_weather", '{"location": "Tok')], FUNCTIONS).values == (0, 1)
    both = _case(WEATHER, INTEREST, category="several_tools")
    calls = [("calculate_compound_interest", interest), ("get_current_weather", {"location": "tokyo"})]
    assert score(both, calls, FUNCTIONS).values == (3, 4)


def test_values_compare_by_kind():
    assert same_value(3, 3.0) and not same_value(True, 1) and not same_value("3", 3)
    assert same_value(["mean", "median"], ["Mean", "median"]) and not same_value(["median", "mean"], ["mean", "median"])
    assert same_value({"min_stars": 4}, {"min_stars": 4.0}) and not same_value({"min_stars": 4}, {})


# ---------------------------------------------------------------- the runner and the report
def test_the_runner_sends_each_case_with_its_tools_and_scores_the_reply():
    cases = [c for c in CASES if c.id in ("single_001", "none_001")]  # Tokyo's weather; a question no tool fits
    model = ScriptedModel([call("get_current_weather", location="Tokyo, Japan"), "I cannot check the weather."])
    outcomes = asyncio.run(run_cases(offline_client(model), "offline", cases, system_prompt="Be brief.", concurrency=1))
    assert [request["messages"][0] for request in model.requests] == [{"role": "system", "content": "Be brief."}] * 2
    assert [[t["function"]["name"] for t in r["tools"]] for r in model.requests] == [list(c.tools) for c in cases]
    assert [o.verdict.right for o in outcomes] == [True, True]
    assert outcomes[1].verdict.reasons == ()  # no_tool: the right answer is text
    assert all(o.prompt_tokens > 0 and o.completion_tokens > 0 for o in outcomes)


def test_a_failed_request_is_a_wrong_case_not_a_crash():
    (outcome,) = asyncio.run(run_cases(offline_client(ScriptedModel([400])), "offline", CASES[:1]))
    assert not outcome.verdict.right and "the request failed" in outcome.verdict.reasons[0]


def test_the_report_has_a_row_a_category_and_a_column_a_split():
    outcomes = asyncio.run(evaluate(connect(offline=True), "offline"))
    lines = table(outcomes).splitlines()
    assert lines[0] == "| category | train | heldout |"
    assert [line.split(" | ")[0] for line in lines[2:]] == [f"| {c}" for c in (*CATEGORIES, "all", "right tool (single, choose)",
                                                                           "values right (where the tool is)")]
    assert "tokens a case" in cost(outcomes)
    assert failures([o for o in outcomes if o.verdict.right]) == "no failures"


def test_agentkit_eval_prints_the_table(monkeypatch, capsys):
    monkeypatch.setenv("MODEL_API_KEY", "")
    main(["eval", "--split", "heldout", "--category", "no_tool", "--show-failures"])
    out = capsys.readouterr().out
    assert "model: the offline model" in out and "| no_tool |" in out and "| train" not in out


def test_agentkit_eval_scores_each_class_of_case(monkeypatch, capsys):
    monkeypatch.setenv("MODEL_API_KEY", "")
    main(["eval", "--split", "train", "--category", "single"])
    out = capsys.readouterr().out
    assert "| class | train |" in out and "| follow-up |" in out and "| chinese |" in out


def test_classes_cover_issue_25_in_both_splits_and_languages():
    kinds = Counter((case.kind, case.split) for case in CASES if case.kind)
    for kind in ("values-by-structure", "how-people-write", "follow-up", "abstain", "chinese", "everyday-chat"):
        assert kinds[(kind, "train")] >= 1, kind
    assert sum(n for (kind, split), n in kinds.items() if split == "heldout") >= 10
    assert any(is_chinese(case.question) for case in CASES if case.split == "heldout")


CLASSES = {"values-as-said", "values-by-structure", "values-given", "how-people-write", "everyday-chat", "follow-up",
           "pronoun", "two-calls", "two-tools", "lists", "ordinals", "plan", "delegate", "choose", "abstain",
           "yes-no-in-a-word", "whose-title", "dates-as-written", "chinese"}
"""The classes chapter 09's table reports: a new case joins the one its failure is of (how a value is written, where it
sits in the sentence, which tool ...), so that the table stays a score per kind of request, not a row per fix."""


def test_every_class_is_one_the_table_reports():
    unknown = {case.id: case.kind for case in CASES if case.kind and case.kind not in CLASSES}
    assert not unknown, f"classes the table does not report (use one of CLASSES): {unknown}"


def test_a_follow_up_is_asked_after_its_conversation():
    case = next(case for case in CASES if case.history)
    sent = messages_for(case, "Be brief.")
    assert sent[0]["role"] == "system" and sent[1:-1] == list(case.history)
    assert sent[-1] == {"role": "user", "content": case.question}
    assert class_table([]) == ""


# ---------------------------------------------------------------- the floor
FLOORS = json.loads((Path(agentkit.evaluation.__file__).parent / "floors.json").read_text())


@pytest.fixture(scope="module")
def offline_scores():
    return scores(asyncio.run(evaluate(connect(offline=True), "offline")))


@pytest.mark.parametrize("split", ["train", "heldout"])
def test_the_offline_model_keeps_its_recorded_floor(split, offline_scores):
    fallen = {name: f"{offline_scores[split][name]:.3f} < {floor}"
              for name, floor in FLOORS[split].items() if offline_scores[split][name] < floor}
    assert not fallen, f"the offline model's {split} scores fell below agentkit/evaluation/floors.json: {fallen}"


# ---------------------------------------------------------------- the train split, case by case
# The train split asserts exact calls: a case the offline model gets right must stay right. The cases it
# misses today are listed, and strict: fixing one fails its test until it leaves this list. The held-out
# split is only scored (the floor above), never asserted case by case, so nothing is tuned to it.
TRAIN_MISSES = {
    "calls_005", "choose_003", "choose_020",
    "choose_036", "none_016",
    "tools_012", "tools_014", "tools_022", "tools_027", "words_008",
    "agents_007", "agents_011", "when_006", "address_009", "address_011",
    "zhoption_009", "zhoption_012",
    "shared_010", "shared_012", "pattern_005", "trailing_002", "trailing_003", "self_correct_008",
    "zh_enum_dict_007", "zh_enum_dict_008", "zh_enum_dict_017", "names_004", "zh_option_chars_002",
}
TRAIN_CASES = load_cases(split="train")


@pytest.fixture(scope="module")
def train_outcomes():
    outcomes = asyncio.run(evaluate(connect(offline=True), "offline", split="train"))
    return {outcome.case.id: outcome for outcome in outcomes}


@pytest.mark.parametrize("case_id", [case.id for case in TRAIN_CASES])
def test_train_case(case_id, train_outcomes, request):
    if case_id in TRAIN_MISSES:
        request.applymarker(pytest.mark.xfail(strict=True, reason="a known miss of the offline model"))
    outcome = train_outcomes[case_id]
    assert outcome.verdict.right, f"{outcome.case.question!r}: {outcome.verdict.reasons} (calls: {outcome.calls})"
