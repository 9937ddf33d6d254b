"""`@tool`: a typed, documented function becomes a ToolDefinition; a bad one is refused when it is defined."""

import asyncio
import threading
from typing import Annotated, Literal

import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel, Field, create_model

from agentkit.tools.contract import ToolDefinition, ToolError
from agentkit.tools.schema import ToolDefinitionError, clean_schema, tool


class Point(BaseModel):
    x: float
    y: float


def walk(node):
    """Every dict inside a JSON Schema, including the schema itself."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from walk(item)


def test_simple_function_gives_the_schema_one_would_write_by_hand():
    @tool
    def get_current_time(timezone: str) -> str:
        """Current date and time in a time zone.

        Args:
            timezone: IANA time zone name, e.g. "Europe/Paris".
        """
        return timezone

    assert isinstance(get_current_time, ToolDefinition)
    assert get_current_time.name == "get_current_time"
    assert get_current_time.description == "Current date and time in a time zone."
    assert get_current_time.parameters == {
        "type": "object",
        "properties": {"timezone": {"type": "string", "description": 'IANA time zone name, e.g. "Europe/Paris".'}},
        "required": ["timezone"],
        "additionalProperties": False,
    }
    assert get_current_time.needs_confirmation is False


def test_types_literal_lists_optional_and_defaults():
    @tool
    def search(query: str, limit: int, score: float, exact: bool, mode: Literal["fast", "deep"] = "fast",
               tags: list[str] | None = None) -> str:
        """Search notes.

        Args:
            query: Words to look for.
            limit: Most results to return.
            score: Lowest score kept.
            exact: Match whole words only.
            mode: How hard to search.
            tags: Only notes with these tags.
        """
        return ""

    props = search.parameters["properties"]
    assert props["query"]["type"] == "string"
    assert props["limit"]["type"] == "integer"
    assert props["score"]["type"] == "number"
    assert props["exact"]["type"] == "boolean"
    assert props["mode"] == {"type": "string", "description": "How hard to search.", "default": "fast",
                             "enum": ["fast", "deep"]}
    assert props["tags"]["anyOf"] == [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]
    assert props["tags"]["default"] is None
    assert search.parameters["required"] == ["query", "limit", "score", "exact"]


def test_nested_models_are_closed_and_no_title_noise_is_left():
    @tool
    def draw(points: list[Point], title: str) -> str:
        """Draw a polyline.

        Args:
            points: Corners, in order.
            title: Caption under the drawing.
        """
        return ""

    schema = draw.parameters
    Draft202012Validator.check_schema(schema)
    assert schema["$defs"]["Point"]["additionalProperties"] is False
    assert schema["properties"]["points"]["items"] == {"$ref": "#/$defs/Point"}
    # An argument called "title" is data and stays; pydantic's "title" annotations go.
    assert "title" in schema["properties"]
    assert all("title" not in node or node is schema["properties"] for node in walk(schema))


def test_clean_schema_keeps_title_inside_values():
    schema = {"title": "X", "type": "object", "properties": {"a": {"title": "A", "default": {"title": "kept"}}}}
    assert clean_schema(schema) == {
        "type": "object", "properties": {"a": {"default": {"title": "kept"}}}, "additionalProperties": False,
    }


def test_docstring_forms_continuations_and_other_sections():
    @tool
    def convert(amount: float, unit: str = "C") -> str:
        """Convert a temperature.

        Works for Celsius and Fahrenheit.

        Args:
            amount (float): The value
                to convert.
            unit (str): Unit of `amount`.

        Returns:
            The converted value.
        """
        return ""

    assert convert.description == "Convert a temperature.\n\nWorks for Celsius and Fahrenheit."
    assert convert.parameters["properties"]["amount"]["description"] == "The value to convert."
    assert convert.parameters["properties"]["unit"]["description"] == "Unit of `amount`."


def test_options_name_and_needs_confirmation():
    @tool(name="remove-note", needs_confirmation=True)
    def remove(path: str) -> str:
        """Delete a note.

        Args:
            path: Note to delete.
        """
        return ""

    assert (remove.name, remove.needs_confirmation) == ("remove-note", True)


def test_function_without_arguments():
    @tool
    def ping() -> str:
        """Answer pong."""
        return "pong"

    assert ping.parameters == {"type": "object", "properties": {}, "additionalProperties": False}
    assert asyncio.run(ping.handler({})) == "pong"


def test_missing_docstring_is_refused_with_what_to_add():
    def now(zone: str) -> str:
        return zone

    with pytest.raises(ToolDefinitionError) as caught:
        tool(now)
    assert str(caught.value) == (
        "Tool 'now' has no description: add a docstring whose first line says what the tool does, for the model, "
        "and an `Args:` section with one line per argument."
    )
    assert isinstance(caught.value, TypeError)


def test_missing_hint_is_refused():
    def now(zone) -> str:
        """Time now.

        Args:
            zone: Time zone.
        """

    with pytest.raises(ToolDefinitionError, match=r"^Tool 'now': argument 'zone' has no type hint; add one "
                                                  r"\(e\.g\. `zone: str`\)"):
        tool(now)


def test_undocumented_argument_is_refused():
    def now(zone: str, fmt: str = "iso") -> str:
        """Time now.

        Args:
            zone: Time zone.
        """

    with pytest.raises(ToolDefinitionError) as caught:
        tool(now)
    assert str(caught.value) == (
        "Tool 'now': argument 'fmt' is not described; add a line `fmt: <what it means>` under `Args:` "
        "in the docstring, for the model."
    )


def test_documented_argument_that_does_not_exist_is_refused():
    def now(zone: str) -> str:
        """Time now.

        Args:
            zone: Time zone.
            format: Output format.
        """

    with pytest.raises(ToolDefinitionError, match="describes 'format', which the function does not take; "
                                                  "its arguments are: zone"):
        tool(now)


def test_star_arguments_and_unsupported_types_are_refused():
    def many(*names: str) -> str:
        """Greet.

        Args:
            names: People.
        """

    with pytest.raises(ToolDefinitionError, match="argument 'names' is variadic positional"):
        tool(many)

    class Opaque:
        pass

    def odd(thing: Opaque) -> str:
        """Odd.

        Args:
            thing: A thing.
        """

    with pytest.raises(ToolDefinitionError, match="^Tool 'odd': its arguments cannot become a JSON Schema"):
        tool(odd)


def test_sync_handler_runs_off_the_event_loop_thread():
    @tool
    def where(label: str) -> str:
        """Say which thread runs this.

        Args:
            label: Prefix.
        """
        return f"{label}:{threading.get_ident()}"

    async def main():
        return await where.handler({"label": "t"}), threading.get_ident()

    content, loop_thread = asyncio.run(main())
    assert content.startswith("t:") and content != f"t:{loop_thread}"


def test_async_handler_gets_typed_values_and_defaults():
    seen = {}

    @tool
    async def plot(points: list[Point], scale: int = 2) -> int:
        """Plot points.

        Args:
            points: Where.
            scale: Zoom.
        """
        seen.update(points=points, scale=scale)
        return len(points)

    assert asyncio.run(plot.handler({"points": [{"x": 1, "y": 2}]})) == "1"
    assert seen == {"points": [Point(x=1.0, y=2.0)], "scale": 2}


def test_handler_turns_arguments_it_cannot_convert_into_a_tool_error():
    @tool
    def square(n: int) -> int:
        """Square a number.

        Args:
            n: The number.
        """
        return n * n

    # In the words the dispatcher uses: a handler called directly checks with the tool's one validator too.
    with pytest.raises(ToolError, match="^invalid arguments: argument 'n' should be of type integer, got string \"seven\"$"):
        asyncio.run(square.handler({"n": "seven"}))


def test_a_lone_surrogate_in_a_string_is_named_for_what_it_is():
    # JSON may spell half a character ("\ud800"); the JSON Schema check lets it through, and pydantic cannot
    # read it as soon as it checks a constraint on the string (a length, a pattern).
    @tool
    def shout(text: Annotated[str, Field(min_length=1)], words: list[Annotated[str, Field(pattern="^[a-z]+$")]]) -> str:
        """Shout.

        Args:
            text: What to shout.
            words: More to shout.
        """
        return text.upper()

    lone = "holds a lone surrogate (half of a character, such as \\ud800), which is not text; send real characters"
    with pytest.raises(ToolError) as caught:
        asyncio.run(shout.handler({"text": "a\ud800", "words": ["ok", "\udcff"]}))
    assert str(caught.value) == f"invalid arguments: text: {lone}; words.1: {lone}"


def test_the_arguments_model_is_built_once_when_the_tool_is_defined(monkeypatch):
    import agentkit.tools.schema as schema

    built = []
    monkeypatch.setattr(schema, "create_model", lambda *args, **kwargs: built.append(1) or create_model(*args, **kwargs))

    @tool
    def double(n: int) -> int:
        """Double a number.

        Args:
            n: The number.
        """
        return 2 * n

    assert built == [1]
    assert [asyncio.run(double.handler({"n": n})) for n in range(3)] == ["0", "2", "4"]
    assert built == [1]  # calls validate with the model made at definition time
