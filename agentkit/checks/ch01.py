"""Checks for chapter 01's exercises: the manual `FUNCTION:` protocol. Each takes the notebook's `globals()`.

Taking the names rather than the answer itself lets a check say "[todo]" when the exercise cell has not
defined its answer yet (as in the student edition), instead of raising a NameError.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentkit.checks import answer, expect, phrase, run_check
from agentkit.manual import describe_function, manual_round_trip
from agentkit.offline import ScriptedModel, offline_client
from agentkit.tools.clock import get_current_time

TEMPERATURE_QUESTION = "What is 30 degrees Celsius in Fahrenheit?"

_evaluated: list[int] = []
"""Stays empty unless an answer evaluates model text as code (exercise 1.2's trap appends to it)."""
_REFUSED = object()


async def check_exercise_1_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 1.1: `celsius_to_fahrenheit`, a new tool for the manual protocol, run in a round trip."""

    async def test() -> None:
        celsius_to_fahrenheit = answer(namespace, "celsius_to_fahrenheit")
        expect(callable(celsius_to_fahrenheit), "celsius_to_fahrenheit should be a function (def celsius_to_fahrenheit...).")
        expect(
            getattr(celsius_to_fahrenheit, "__name__", "") == "celsius_to_fahrenheit",
            "name the function celsius_to_fahrenheit: the model calls it by that name.",
        )
        for celsius, fahrenheit in ((30, "86"), (100, "212"), (-40, "-40")):
            result = str(celsius_to_fahrenheit(celsius))
            expect(fahrenheit in result, f"celsius_to_fahrenheit({celsius}) returned {result!r}; it should contain {fahrenheit}.")
        line = describe_function(celsius_to_fahrenheit)
        expect(line.endswith("FUNCTION: celsius_to_fahrenheit(celsius)"),
               f"the prompt line is {line.splitlines()[-1].strip()!r}; take one number parameter named celsius "
               "(annotate it float, so the placeholder is bare, not quoted).")
        expect(celsius_to_fahrenheit.__doc__, "write a docstring: it is the only description of the tool the model reads.")
        # A scripted model that calls the function: the check tests the student's code, not a model's choices.
        model = ScriptedModel(["FUNCTION: celsius_to_fahrenheit(30)", "30 degrees Celsius is 86 degrees Fahrenheit."])
        result = await manual_round_trip(offline_client(model), "offline", TEMPERATURE_QUESTION,
                                         [get_current_time, celsius_to_fahrenheit])
        system, sent = model.requests[0]["messages"][0]["content"], result.messages[3]["content"]
        expect("FUNCTION: celsius_to_fahrenheit(celsius)" in system, "the system prompt does not offer your function.")
        expect(sent.startswith("RESULT: ") and "86" in sent,
               f"for FUNCTION: celsius_to_fahrenheit(30) the round trip sent {sent!r}; it should contain 86.")
    return await run_check("Exercise 1.1: celsius_to_fahrenheit as a manual tool", test)


async def check_exercise_1_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 1.2: `parse_arguments`, argument text to Python values, literals only, never evaluated."""

    async def test() -> None:
        parse_arguments = answer(namespace, "parse_arguments")
        expect(callable(parse_arguments), "parse_arguments should be a function (def parse_arguments(text): ...).")
        for text, expected in (('"Asia/Tokyo"', ("Asia/Tokyo",)), ("500, 5, 10", (500, 5, 10)), ("", ()),
                               ('"Paris, France", -2.5', ("Paris, France", -2.5)), ("[1, 2], None", ([1, 2], None))):
            try:
                outcome = phrase(f"returned {parse_arguments(text)!r}")
            except NotImplementedError:
                raise
            except Exception as error:  # the student's bug: turn it into a hint
                outcome = phrase(f"raised {type(error).__name__}: {error}")
            right = (phrase(f"{expected!r} (a comma inside quotes is not a separator: let ast parse the text)")
                     if "Paris" in text else repr(expected))
            expect(outcome == f"returned {expected!r}", f"parse_arguments({text!r}) {outcome}; expected {right}.")
        trap = "__import__('agentkit.checks.ch01', fromlist=['_']).__dict__['_evaluated'].append(1)"
        for text in ("5 * 100", "timezone", trap):
            try:
                got = parse_arguments(text)
            except ValueError:
                got = _REFUSED
            expect(not _evaluated, "your function ran the model's text as code: never eval it, use ast.literal_eval.")
            expect(got is _REFUSED, f"parse_arguments({text!r}) returned {got!r}; it should raise ValueError (not a literal).")

    _evaluated.clear()
    return await run_check("Exercise 1.2: parse_arguments, literals only", test)
