import ast
import asyncio

import pytest

from agentkit.checks import ch01


def celsius_to_fahrenheit(celsius: float) -> str:
    """Convert a temperature from degrees Celsius to degrees Fahrenheit."""
    return f"{celsius * 9 / 5 + 32:.1f} °F"


def parse_arguments(text: str) -> tuple:
    call = ast.parse(f"f({text})", mode="eval").body
    return tuple(ast.literal_eval(argument) for argument in call.args)


def last_line(capsys) -> str:
    return capsys.readouterr().out.strip().splitlines()[-1]


@pytest.mark.anyio
async def test_1_1_passes_with_a_right_answer(capsys):
    assert await ch01.check_exercise_1_1({"celsius_to_fahrenheit": celsius_to_fahrenheit}) is True
    assert last_line(capsys) == "[pass] Exercise 1.1: celsius_to_fahrenheit as a manual tool"


@pytest.mark.anyio
async def test_1_1_says_todo_for_the_stub(capsys):
    def celsius_to_fahrenheit(celsius: float) -> str:
        raise NotImplementedError

    assert await ch01.check_exercise_1_1({"celsius_to_fahrenheit": celsius_to_fahrenheit}) is False
    assert last_line(capsys).startswith("[todo] Exercise 1.1")


@pytest.mark.anyio
async def test_1_1_fails_on_a_wrong_formula(capsys):
    def celsius_to_fahrenheit(celsius: float) -> str:
        """Convert a temperature from degrees Celsius to degrees Fahrenheit."""
        return str(celsius * 1.8)

    assert await ch01.check_exercise_1_1({"celsius_to_fahrenheit": celsius_to_fahrenheit}) is False
    assert last_line(capsys) == (
        "[fail] Exercise 1.1: celsius_to_fahrenheit as a manual tool: "
        "celsius_to_fahrenheit(30) returned '54.0'; it should contain 86."
    )


@pytest.mark.anyio
async def test_1_1_fails_when_the_placeholder_is_quoted(capsys):
    def celsius_to_fahrenheit(celsius: str) -> str:
        """Convert a temperature from degrees Celsius to degrees Fahrenheit."""
        return f"{float(celsius) * 9 / 5 + 32:.1f} °F"

    assert await ch01.check_exercise_1_1({"celsius_to_fahrenheit": celsius_to_fahrenheit}) is False
    assert "the prompt line is 'FUNCTION: celsius_to_fahrenheit(\"celsius\")'" in last_line(capsys)


@pytest.mark.anyio
async def test_1_1_fails_when_the_model_cannot_tell_what_the_tool_is_for(capsys):
    def celsius_to_fahrenheit(celsius: float) -> str:
        """Do the conversion."""
        return f"{celsius * 9 / 5 + 32:.1f}"

    # the name alone says Celsius and Fahrenheit
    assert await ch01.check_exercise_1_1({"celsius_to_fahrenheit": celsius_to_fahrenheit}) is True

    def convert(celsius: float) -> str:
        """Do the conversion."""
        return f"{celsius * 9 / 5 + 32:.1f}"

    assert await ch01.check_exercise_1_1({"celsius_to_fahrenheit": convert}) is False
    assert "name the function celsius_to_fahrenheit" in last_line(capsys)


def test_1_2_passes_with_ast(capsys):
    assert asyncio.run(ch01.check_exercise_1_2({"parse_arguments": parse_arguments})) is True
    assert last_line(capsys) == "[pass] Exercise 1.2: parse_arguments, literals only"


def test_1_2_catches_eval(capsys):
    def parse_arguments(text):
        return eval(f"({text},)") if text else ()

    assert asyncio.run(ch01.check_exercise_1_2({"parse_arguments": parse_arguments})) is False
    assert last_line(capsys) == (
        "[fail] Exercise 1.2: parse_arguments, literals only: "
        "parse_arguments('5 * 100') returned (500,); it should raise ValueError (not a literal)."
    )


def test_1_2_catches_eval_even_when_the_arithmetic_is_refused(capsys):
    def parse_arguments(text):
        if "*" in text or text == "timezone":
            raise ValueError("no")
        return eval(f"({text},)") if text else ()

    assert asyncio.run(ch01.check_exercise_1_2({"parse_arguments": parse_arguments})) is False
    assert "ran the model's text as code" in last_line(capsys)


def test_1_2_catches_splitting_on_commas(capsys):
    def parse_arguments(text):
        return tuple(ast.literal_eval(part) for part in text.split(",")) if text else ()

    assert asyncio.run(ch01.check_exercise_1_2({"parse_arguments": parse_arguments})) is False
    assert "a comma inside quotes is not a separator" in last_line(capsys)


def test_1_2_says_todo_for_the_stub(capsys):
    def parse_arguments(text):
        raise NotImplementedError

    assert asyncio.run(ch01.check_exercise_1_2({"parse_arguments": parse_arguments})) is False
    assert last_line(capsys).startswith("[todo] Exercise 1.2")


@pytest.mark.anyio
async def test_checks_say_todo_when_the_answer_is_not_defined_yet(capsys):
    assert await ch01.check_exercise_1_1({}) is False
    assert last_line(capsys).startswith("[todo] Exercise 1.1")
    assert await ch01.check_exercise_1_2({"celsius_to_fahrenheit": celsius_to_fahrenheit}) is False
    assert last_line(capsys).startswith("[todo] Exercise 1.2")


def test_1_2_fails_when_the_answer_is_not_a_function(capsys):
    assert asyncio.run(ch01.check_exercise_1_2({"parse_arguments": parse_arguments("1, 2")})) is False
    assert last_line(capsys).endswith("parse_arguments should be a function (def parse_arguments(text): ...).")


@pytest.mark.anyio
@pytest.mark.parametrize("habit", ["fenced", "prose", "arithmetic"])
async def test_1_1_judges_the_function_not_the_models_habits(capsys, monkeypatch, habit):
    # Whatever model the check could reach (a fence, a sentence, the model doing the sum itself), a right answer passes.
    from agentkit.offline import ScriptedModel, offline_client, variant

    model = ScriptedModel(["30 °C is 86 °F."]) if habit == "arithmetic" else variant(habit)
    monkeypatch.setattr(ch01, "offline_client", lambda given=None, **options: offline_client(given or model, **options))
    assert await ch01.check_exercise_1_1({"celsius_to_fahrenheit": celsius_to_fahrenheit}) is True, capsys.readouterr().out
