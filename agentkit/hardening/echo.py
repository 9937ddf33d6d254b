"""The model's own text, as an error message repeats it: cut to a bounded prefix, with its real length.

The attack: an error that repeats what the model sent (a path, a pattern, a tool name, a key, a value) would
repeat all of it: a 1 MB path would come back as a 1 MB error, ten thousand unexpected keys as ten thousand
names, filling the model's context, the web page and the transcript. Every error that quotes the model goes
through `echo` (a prefix and the length) or one of the helpers below. Proved by tests/test_error_echo.py
(every tool, 1 MB inputs) and tests/test_dispatcher.py.
"""

from __future__ import annotations

import json
from typing import Any

ECHO_CHARS = 60
"""Most characters of the model's own text that an error message repeats back."""

ECHO_NAMES = 10
"""Most names (missing or unexpected keys) one error line lists; the rest are counted."""

_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number"}


def echo(text: str, limit: int = ECHO_CHARS) -> str:
    """Model-supplied text as an error message repeats it: cut to `limit` characters, with its real length shown."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def quoted(text: str) -> str:
    """Model-supplied text in quotes, as Python writes it (a NUL byte, a line break shown escaped), cut by `echo`."""
    return repr(echo(text))


def echo_json(value: Any) -> str:
    """A JSON value as the model wrote it, cut by `echo`."""
    return echo(json.dumps(value, ensure_ascii=False, default=str))


def json_value(value: Any) -> str:
    """`string "ten"`, `array [1, 2]`, `null`: a JSON value with its type, as the model wrote it."""
    return "null" if value is None else f"{_JSON_TYPES.get(type(value), type(value).__name__)} {echo_json(value)}"


def python_value(value: Any) -> str:
    """`int 5`, `bytes b'{}'`, `None`: what a caller passed, as Python names it."""
    return "None" if value is None else f"{type(value).__name__} {echo(repr(value))}"


def echo_names(keys: list[str], parent: str = "") -> str:
    """`'a', 'b'`: keys (the model's own, when unexpected) capped in length and in number."""
    named = [f"'{echo(f'{parent}.{key}' if parent else key)}'" for key in keys[:ECHO_NAMES]]
    return ", ".join(named) + (f" and {len(keys) - ECHO_NAMES} more" if len(keys) > ECHO_NAMES else "")
