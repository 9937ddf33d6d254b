"""Chapter 09's checks pass the right answers and say what is wrong with wrong ones."""

import asyncio
from dataclasses import replace

import pytest

from agentkit.checks.ch09 import check_exercise_9_1, check_exercise_9_2
from agentkit.evaluation import Case, ExpectedCall

MY_TOOL = {"type": "function", "function": {
    "name": "bmi", "description": "Compute it.",
    "parameters": {"type": "object", "properties": {"weight": {"type": "number", "description": "Weight."},
                                                    "height": {"type": "number", "description": "Height."}},
                   "required": ["weight", "height"]}}}


def bmi(weight, height):
    return ExpectedCall("bmi", {"weight": [weight], "height": [height]})


MY_CASES = [
    Case("bmi_1", "train", "single", "What's my BMI? 70 kg, 1.75 m.", ("bmi",), (bmi(70, 1.75),)),
    Case("bmi_2", "train", "single", "Body mass index for 90 kilograms and 1.9 meters", ("bmi",), (bmi(90, 1.9),)),
    Case("bmi_3", "train", "choose", "I am 1.62 m and weigh 55 kg: BMI?", ("bmi", "get_current_time", "is_prime"),
         (bmi(55, 1.62),)),
    Case("bmi_4", "train", "no_tool", "What is a healthy breakfast?", ("bmi",), ()),
]
HARDER = [Case("bmi_5", "train", "choose", "My body mass index, please: 1.75 m, 70 kg", ("bmi", "get_current_time"),
                (bmi(70, 1.75),))]
BETTER = {"type": "function", "function": {**MY_TOOL["function"], "description": "Body mass index (BMI) from weight and height.",
                                           "parameters": MY_TOOL["function"]["parameters"]}}


def test_sound_answers_pass(capsys):
    assert asyncio.run(check_exercise_9_1({"my_tool": MY_TOOL, "my_cases": MY_CASES}))
    assert asyncio.run(check_exercise_9_2({"my_tool": MY_TOOL, "better_tool": BETTER, "harder_cases": HARDER}))
    assert capsys.readouterr().out.count("[pass]") == 2


@pytest.mark.parametrize(("answers", "hint"), [
    ({}, "[todo]"),
    ({"my_tool": {"name": "bmi"}, "my_cases": MY_CASES}, "is not a tool object"),
    ({"my_tool": MY_TOOL, "my_cases": MY_CASES[:2]}, "write at least 3"),
    ({"my_tool": MY_TOOL, "my_cases": MY_CASES[:3] + [replace(MY_CASES[3], id="bmi_1")]}, "share an id"),
    ({"my_tool": MY_TOOL, "my_cases": [*MY_CASES, replace(MY_CASES[0], id="x", tools=("is_prime", "get_current_time"))]},
     "does not offer bmi"),
    ({"my_tool": MY_TOOL,
      "my_cases": [*MY_CASES, replace(MY_CASES[0], id="x", expected=(ExpectedCall("bmi", {"weight": [70]}),))]},
     "list every declared parameter"),
    ({"my_tool": MY_TOOL, "my_cases": [*MY_CASES, replace(MY_CASES[0], id="x", expected=(bmi("seventy", 1.75),))]},
     "is not a valid 'weight'"),
    ({"my_tool": MY_TOOL, "my_cases": [*MY_CASES[:3], replace(MY_CASES[0], id="x")]}, "add a no_tool case"),
    ({"my_tool": MY_TOOL, "my_cases": [replace(c, id=f"n{i}", category="no_tool", expected=()) for i, c in enumerate(MY_CASES)]},
     "0 cases expect a call to bmi"),
])
def test_exercise_9_1_says_what_is_wrong(answers, hint, capsys):
    assert not asyncio.run(check_exercise_9_1(answers))
    assert hint in capsys.readouterr().out


def _with(**function):
    return {"type": "function", "function": {**MY_TOOL["function"], **function}}


@pytest.mark.parametrize(("better", "hint"), [
    (MY_TOOL, "the same descriptions"),
    (_with(name="body_mass_index", description="BMI."), "keep the name 'bmi'"),
    (_with(description="BMI.", parameters={**MY_TOOL["function"]["parameters"], "required": ["weight"]}),
     "changes the parameters"),
    (_with(description="BMI.", parameters={"type": "object",
                                           "properties": {"weight": {"type": "integer"}, "height": {"type": "number"}},
                                           "required": ["weight", "height"]}), "changes the parameters"),
])
def test_exercise_9_2_says_what_is_wrong(better, hint, capsys):
    assert not asyncio.run(check_exercise_9_2({"my_tool": MY_TOOL, "better_tool": better, "harder_cases": HARDER}))
    assert hint in capsys.readouterr().out


def test_a_parameter_description_alone_is_a_better_description(capsys):
    parameters = {**MY_TOOL["function"]["parameters"],
                  "properties": {**MY_TOOL["function"]["parameters"]["properties"],
                                 "weight": {"type": "number", "description": "Body weight in kilograms."}}}
    assert asyncio.run(check_exercise_9_2({"my_tool": MY_TOOL, "better_tool": _with(parameters=parameters),
                                           "harder_cases": HARDER}))


@pytest.mark.parametrize(("harder", "hint"), [
    ([], "harder_cases must be a list of at least 1 Case"),
    ("bmi_5", "harder_cases must be a list of at least 1 Case"),
    ([replace(HARDER[0], id="bmi_1")], "my_cases uses that id already"),
    ([replace(HARDER[0], tools=("get_current_time",))], "does not offer bmi"),
    ([replace(HARDER[0], expected=(bmi(70, "tall"),))], "is not a valid 'height'"),
    ([replace(HARDER[0], category="no_tool", expected=())], "should expect a call to bmi"),
])
def test_harder_cases_must_be_sound_cases_for_the_tool(harder, hint, capsys):
    answers = {"my_tool": MY_TOOL, "my_cases": MY_CASES, "better_tool": BETTER, "harder_cases": harder}
    assert not asyncio.run(check_exercise_9_2(answers))
    assert hint in capsys.readouterr().out
