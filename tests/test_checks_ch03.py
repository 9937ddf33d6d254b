"""Chapter 03's checks pass the right answers and say what is wrong with wrong ones."""

import asyncio

from agentkit.checks.ch03 import check_exercise_3_1, check_exercise_3_2
from agentkit.tools.schema import ToolDefinitionError, tool


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


def refusal_for(fn) -> str:
    try:
        tool(fn)
    except ToolDefinitionError as error:
        return str(error)
    raise AssertionError("tool() accepted the function")


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


def test_refusal_right_answer(capsys):
    def lookup(key: str, limit) -> str:
        """Look a key up.

        Args:
            key: What to look up.
            limit: Most results.
        """

    assert asyncio.run(check_exercise_3_2({"refusal": refusal_for(lookup)})) is True
    assert capsys.readouterr().out == "[pass] Exercise 3.2: a definition refused for the right reason\n"


def test_refusal_for_another_reason(capsys):
    def lookup(key: str, limit: int) -> str:
        """Look a key up.

        Args:
            key: What to look up.
        """

    assert asyncio.run(check_exercise_3_2({"refusal": refusal_for(lookup)})) is False
    out = capsys.readouterr().out
    assert out.startswith("[fail] Exercise 3.2: a definition refused for the right reason: `tool` refused your "
                          "function for another reason:")


def test_refusal_stored_as_the_exception(capsys):
    assert asyncio.run(check_exercise_3_2({"refusal": ToolDefinitionError("x")})) is False
    assert "`refusal` is a ToolDefinitionError; store `str(error)`" in capsys.readouterr().out
