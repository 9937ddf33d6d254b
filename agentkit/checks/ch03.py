"""Checks for chapter 03's exercises: tools from typed functions. Each takes the notebook's `globals()`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentkit.checks import answer, expect, run_check
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


async def check_exercise_3_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 3.2: `refusal` holds the message `@tool` gave for an argument `limit` without a type hint."""

    async def test() -> None:
        refusal = answer(namespace, "refusal")
        expect(isinstance(refusal, str), f"`refusal` is a {type(refusal).__name__}; store `str(error)` of the "
                                         "ToolDefinitionError you caught.")
        expect("'limit'" in refusal, f"the message does not name 'limit': {refusal!r}. Leave the hint off `limit`.")
        expect("has no type hint" in refusal,
               f"`tool` refused your function for another reason: {refusal!r}. Document every argument, "
               "give `key` its hint, and leave only `limit` without one.")

    return await run_check("Exercise 3.2: a definition refused for the right reason", test)
