"""Checks for chapter 03's exercises: tools from typed functions. Each takes the notebook's `globals()`.

No `from __future__ import annotations` here: exercise 3.2's hidden functions need real type hints, not strings.
"""

import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal, Optional

from agentkit.checks import CheckFailed, answer, expect, phrase, run_check
from agentkit.tools.contract import ToolDefinition


async def check_exercise_3_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 3.1: `word_count(text, unique=False)` declared with `@tool`. Await it: it runs the handler."""

    async def test() -> None:
        word_count = answer(namespace, "word_count")
        expect(isinstance(word_count, ToolDefinition),
               f"`word_count` is a {type(word_count).__name__}; put `@tool` above `def word_count(...)` "
               "so that it becomes a ToolDefinition.")
        expect(word_count.name == "word_count", f"the tool is named {word_count.name!r}; name the function word_count.")
        properties = word_count.parameters.get("properties", {})
        expect(set(properties) == {"text", "unique"},
               f"the arguments are {sorted(properties)}; they should be exactly text and unique.")
        expect(properties["text"].get("type") == "string", "`text` should be typed `str`.")
        expect(properties["unique"].get("type") == "boolean", "`unique` should be typed `bool`.")
        expect(word_count.parameters.get("required") == ["text"],
               "only `text` should be required: give `unique` the default False.")
        expect(all(p.get("description") for p in properties.values()),
               "describe both arguments under `Args:` in the docstring.")
        for arguments, expected in [({"text": "the cat saw the dog"}, "5"), ({"text": "  "}, "0"),
                                    ({"text": "The cat saw the dog", "unique": True}, "4")]:
            got = await word_count.handler(arguments)
            expect(got == expected, f"for {arguments} the tool returned {got!r}; expected {expected!r} "
                                    "(split on whitespace; with unique, count each word once, ignoring case).")

    return await run_check("Exercise 3.1: a tool from a typed function", test)


# Exercise 3.2's hidden functions. Each stands for a kind of signature a tool can have; bodies do not matter.
def greet(name: str, times: int = 1, loud: bool = False) -> str: ...
def convert(amount: float, currency: Literal["EUR", "USD", "JPY"] = "EUR") -> str: ...
def open_page(number: Literal[1, 2, 3]) -> str: ...
def search(query: str, limit: int | None = None) -> str: ...
def measure(depth: Optional[float] = None) -> str: ...  # noqa: UP045 - the older spelling must work too
def count_from(start: int = 0, prefix: str = "", strict: bool = False) -> str: ...
def ping() -> str: ...
def forecast(city, days: int = 1) -> str: ...
def tag_all(tags: list[str], label: str) -> str: ...


def _schema(properties: dict[str, dict], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


SCHEMA_CASES: list[tuple[Callable[..., Any], dict[str, Any] | str]] = [
    (greet, _schema({"name": {"type": "string"}, "times": {"type": "integer", "default": 1},
                     "loud": {"type": "boolean", "default": False}}, ["name"])),
    (convert, _schema({"amount": {"type": "number"},
                       "currency": {"type": "string", "enum": ["EUR", "USD", "JPY"], "default": "EUR"}}, ["amount"])),
    (open_page, _schema({"number": {"type": "integer", "enum": [1, 2, 3]}}, ["number"])),
    (search, _schema({"query": {"type": "string"}, "limit": {"type": ["integer", "null"], "default": None}}, ["query"])),
    (measure, _schema({"depth": {"type": ["number", "null"], "default": None}}, [])),
    (count_from, _schema({"start": {"type": "integer", "default": 0}, "prefix": {"type": "string", "default": ""},
                          "strict": {"type": "boolean", "default": False}}, [])),
    (ping, _schema({}, [])),
    (forecast, "city"),  # no type hint: refused, naming the argument
    (tag_all, "tags"),  # a hint the exercise does not cover: refused, naming the argument
]
"""Exercise 3.2's hidden cases: a function, and the schema expected for it or the argument a TypeError must name."""


async def check_exercise_3_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 3.2: `parameters_schema(fn)`, the JSON Schema of a function's arguments, on hidden functions."""

    async def test() -> None:
        parameters_schema = answer(namespace, "parameters_schema")
        expect(callable(parameters_schema), f"`parameters_schema` is a {type(parameters_schema).__name__}; make it a "
                                            "function: def parameters_schema(fn) -> dict.")
        for fn, expected in SCHEMA_CASES:
            case = f"def {fn.__name__}{inspect.signature(fn)}"
            if isinstance(expected, str):
                _expect_refusal(parameters_schema, fn, case, expected)
                continue
            try:
                got = parameters_schema(fn)
            except Exception as error:  # the learner's bug: name the case it broke on
                raise CheckFailed(f"for `{case}` your function raised {type(error).__name__}: {error}; "
                                  f"expected {expected}") from None
            expect(got == expected, f"for `{case}` {_first_difference(got, expected)}")

    return await run_check("Exercise 3.2: a schema from a signature", test)


def _expect_refusal(parameters_schema: Callable[..., Any], fn: Callable[..., Any], case: str, argument: str) -> None:
    try:
        got = parameters_schema(fn)
    except TypeError as error:
        expect(re.search(rf"\b{argument}\b", str(error)),
               f"for `{case}` your TypeError says {str(error)!r}; name the argument {argument!r} in it, so the "
               "author knows what to fix.")
        return
    except Exception as error:
        raise CheckFailed(f"for `{case}` your function raised {type(error).__name__}: {error}; expected a TypeError "
                          f"that names the argument {argument!r}.") from None
    raise CheckFailed(f"for `{case}` your function returned {got}; expected a TypeError that names the argument "
                      f"{argument!r}, since no schema can be made for it.")


def _first_difference(got: object, expected: dict[str, Any]) -> str:
    """One sentence on where `got` first differs from `expected`: a property, `required`, or the outer shape."""
    if not isinstance(got, dict):
        return phrase(f"your function returned a {type(got).__name__}; expected the dict {expected}")
    got_properties = got.get("properties")
    if isinstance(got_properties, dict):
        for name, schema in expected["properties"].items():
            if got_properties.get(name) != schema:
                return phrase(f"the property {name!r} is {got_properties.get(name)}; expected {schema}")
        extra = sorted(set(got_properties) - set(expected["properties"]))
        if extra:
            return phrase(f"the properties include {extra}, which are not arguments of the function")
    for key, value in expected.items():
        if got.get(key) != value:
            return phrase(f"{key!r} is {got.get(key)!r}; expected {value!r}")
    return phrase(f"the schema has extra keys {sorted(set(got) - set(expected))}; expected exactly {sorted(expected)}")
