"""Chapter 03's checks pass the right answers and say what is wrong with wrong ones."""

import asyncio
import inspect
from functools import partial
from types import UnionType
from typing import Literal, Union, get_args, get_origin

from agentkit.checks.ch03 import check_exercise_3_1, check_exercise_3_2
from agentkit.tools.schema import tool


def right_word_count():
    @tool
    def word_count(text: str, unique: bool = False) -> int:
        """Count the words in a text.

        Args:
            text: The text to count words in.
            unique: Count each distinct word once, ignoring case.
        """
        words = text.split()
        return len({w.lower() for w in words}) if unique else len(words)

    return word_count


def test_word_count_right_answer(capsys):
    assert asyncio.run(check_exercise_3_1({"word_count": right_word_count()})) is True
    assert capsys.readouterr().out == "[pass] Exercise 3.1: a tool from a typed function\n"


def test_word_count_not_written_yet(capsys):
    assert asyncio.run(check_exercise_3_1({})) is False
    assert capsys.readouterr().out.startswith("[todo] Exercise 3.1: a tool from a typed function: not written yet.")


def test_word_count_plain_function(capsys):
    def word_count(text: str, unique: bool = False) -> int:
        return len(text.split())

    assert asyncio.run(check_exercise_3_1({"word_count": word_count})) is False
    assert capsys.readouterr().out == (
        "[fail] Exercise 3.1: a tool from a typed function: `word_count` is a function; put `@tool` above "
        "`def word_count(...)` so that it becomes a ToolDefinition.\n"
    )


def test_word_count_ignoring_unique(capsys):
    @tool
    def word_count(text: str, unique: bool = False) -> int:
        """Count words.

        Args:
            text: Text.
            unique: Distinct words only.
        """
        return len(text.split())

    assert asyncio.run(check_exercise_3_1({"word_count": word_count})) is False
    assert "returned '5'; expected '4'" in capsys.readouterr().out


def test_word_count_unique_required(capsys):
    @tool
    def word_count(text: str, unique: bool) -> int:
        """Count words.

        Args:
            text: Text.
            unique: Distinct words only.
        """
        return 0

    assert asyncio.run(check_exercise_3_1({"word_count": word_count})) is False
    assert capsys.readouterr().out.endswith("only `text` should be required: give `unique` the default False.\n")


BASIC = {str: "string", int: "integer", float: "number", bool: "boolean"}


def property_schema(name, hint):
    """The reference answer to exercise 3.2, one argument's part, as the notebook's solution cell writes it."""
    if hint in BASIC:
        return {"type": BASIC[hint]}
    values = get_args(hint)
    if get_origin(hint) is Literal and len({type(v) for v in values}) == 1 and type(values[0]) in BASIC:
        return {"type": BASIC[type(values[0])], "enum": list(values)}
    if get_origin(hint) in (Union, UnionType) and len(values) == 2 and type(None) in values:
        inner = next(v for v in values if v is not type(None))
        if inner in BASIC:
            return {"type": [BASIC[inner], "null"]}
    raise TypeError(f"argument {name!r} has the type {hint}, which has no schema here")


def parameters_schema(fn, property_schema=property_schema, default_if=lambda p: p.default is not p.empty):
    properties, required = {}, []
    for p in inspect.signature(fn).parameters.values():
        if p.annotation is p.empty:
            raise TypeError(f"argument {p.name!r} has no type hint")
        properties[p.name] = property_schema(p.name, p.annotation)
        if p.default is p.empty:
            required.append(p.name)
        if default_if(p):
            properties[p.name]["default"] = p.default
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def schema_check(answer, capsys):
    passed = asyncio.run(check_exercise_3_2({"parameters_schema": answer}))
    return passed, capsys.readouterr().out


def test_schema_right_answer(capsys):
    assert schema_check(parameters_schema, capsys) == (True, "[pass] Exercise 3.2: a schema from a signature\n")


def test_schema_not_written(capsys):
    passed, out = asyncio.run(check_exercise_3_2({})), capsys.readouterr().out
    assert not passed and out.startswith("[todo] Exercise 3.2: a schema from a signature: not written yet.")


def test_schema_the_chapters_four_types_only(capsys):
    def simple_schema(fn):  # section 5's teaching-size version
        params = inspect.signature(fn).parameters.values()
        return {"type": "object", "properties": {p.name: {"type": BASIC[p.annotation]} for p in params},
                "required": [p.name for p in params if p.default is p.empty], "additionalProperties": False}

    assert schema_check(simple_schema, capsys) == (False, (
        "[fail] Exercise 3.2: a schema from a signature: for `def greet(name: str, times: int = 1, loud: bool = False) "
        "-> str` the property 'times' is {'type': 'integer'}; expected {'type': 'integer', 'default': 1}\n"))


def test_schema_dropping_falsy_defaults(capsys):
    passed, out = schema_check(partial(parameters_schema, default_if=lambda p: p.default is not p.empty and p.default),
                               capsys)
    assert not passed and "the property 'loud' is {'type': 'boolean'}; expected {'type': 'boolean', 'default': False}" in out


def test_schema_every_literal_a_string(capsys):
    def strings_only(name, hint):
        if get_origin(hint) is Literal:
            return {"type": "string", "enum": list(get_args(hint))}
        return property_schema(name, hint)

    passed, out = schema_check(partial(parameters_schema, property_schema=strings_only), capsys)
    assert out == ("[fail] Exercise 3.2: a schema from a signature: for `def open_page(number: Literal[1, 2, 3]) -> str` "
                   "the property 'number' is {'type': 'string', 'enum': [1, 2, 3]}; expected {'type': 'integer', "
                   "'enum': [1, 2, 3]}\n")


def test_schema_only_the_typing_union(capsys):
    def typing_union_only(name, hint):
        if get_origin(hint) is UnionType:
            raise TypeError(f"argument {name!r}: unsupported")
        return property_schema(name, hint)

    passed, out = schema_check(partial(parameters_schema, property_schema=typing_union_only), capsys)
    assert out.startswith("[fail] Exercise 3.2: a schema from a signature: for `def search(query: str, limit: int | None "
                          "= None) -> str` your function raised TypeError: argument 'limit': unsupported; expected {")


def test_schema_guessing_a_type_for_a_missing_hint(capsys):
    def guessing(fn):  # a missing hint taken for `str`
        signature = inspect.signature(fn)
        hinted = [p.replace(annotation=str) if p.annotation is p.empty else p for p in signature.parameters.values()]

        def same_but_hinted(): ...
        same_but_hinted.__signature__ = signature.replace(parameters=hinted)
        return parameters_schema(same_but_hinted)

    passed, out = schema_check(guessing, capsys)
    assert out == ("[fail] Exercise 3.2: a schema from a signature: for `def forecast(city, days: int = 1) -> str` your "
                   "function returned {'type': 'object', 'properties': {'city': {'type': 'string'}, 'days': {'type': "
                   "'integer', 'default': 1}}, 'required': ['city'], 'additionalProperties': False}; expected a "
                   "TypeError that names the argument 'city', since no schema can be made for it.\n")


def test_schema_refusing_without_naming_the_argument(capsys):
    def vague(fn):
        try:
            return parameters_schema(fn)
        except TypeError:
            raise TypeError("unsupported function") from None

    passed, out = schema_check(vague, capsys)
    assert out == ("[fail] Exercise 3.2: a schema from a signature: for `def forecast(city, days: int = 1) -> str` your "
                   "TypeError says 'unsupported function'; name the argument 'city' in it, so the author knows what "
                   "to fix.\n")
