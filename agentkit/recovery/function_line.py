"""The `FUNCTION:` line itself: its format, writing one, reading one back out of a reply, and the mistakes a reply can make.

`agentkit.manual` builds the prompt that asks for this line and runs the round trip; this module is the
line's grammar, the first way calls were read back out of text (chapter 01), kept with the other ways
(`agentkit.recovery.text_calls`). Where the line may stand, decided once: prose on lines *before* the FUNCTION line is
allowed (models often say what they are about to do), and so is a ``` fence around it, but the line must
be a line of its own and nothing may follow it. Text after it means the model went on without the
result, usually inventing one: pass `stop=STOP`.
"""

from __future__ import annotations

import ast
import difflib
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from agentkit.calls import ToolCall

PREFIX = "FUNCTION:"
RESULT_PREFIX = "RESULT:"
STOP = ["\n" + RESULT_PREFIX]
"""Stop sequence for the round trip: generation ends where the model would start inventing the result."""


class FunctionCallError(ValueError):
    """The reply has a FUNCTION line we cannot run. The subclass says what kind of mistake it is."""


class SeveralCallsError(FunctionCallError):
    """More than one FUNCTION line: the protocol runs one call per reply."""


class CodeFenceError(FunctionCallError):
    """The FUNCTION line is inside a ``` code fence instead of standing on its own."""


class ProseAroundCallError(FunctionCallError):
    """Text on the FUNCTION line before `FUNCTION:`, or any text after the line."""


class UnbalancedQuotesError(FunctionCallError):
    """A string argument opens a quote it never closes."""


class MalformedCallError(FunctionCallError):
    """The text after `FUNCTION:` is not of the form `name(arg, ...)`."""


class NotALiteralError(FunctionCallError):
    """An argument is an expression or a name; only literals (strings, numbers, ...) are accepted."""


class UnknownFunctionError(FunctionCallError):
    """The name is not one of the functions the prompt offered."""


class WrongArgumentsError(FunctionCallError):
    """The arguments do not fit the function's signature."""


def format_call(name: str, *args: Any, **kwargs: Any) -> str:
    """The line a model should write to call `name` with these literal arguments."""
    parts = [repr(value) for value in args] + [f"{key}={value!r}" for key, value in kwargs.items()]
    return call_line(name, parts)


def call_line(name: str, parts: Sequence[str]) -> str:
    return f"{PREFIX} {name}({', '.join(parts)})"


def parse_reply(reply: str, functions: Sequence[Callable[..., Any]]) -> ToolCall | None:
    """The call in a model reply, its arguments by name, None for a plain answer; a `FunctionCallError` subclass if
    it cannot run. Its `raw_arguments` is the text the model wrote between the parentheses."""
    lines = _unfenced(reply.strip().splitlines())
    found = [number for number, line in enumerate(lines) if PREFIX in line]
    if not found:
        return None
    if len(found) > 1:
        raise SeveralCallsError(f"{len(found)} {PREFIX} lines in one reply; write exactly one and wait for its result.")
    line, after = lines[found[0]].strip(), [text.strip() for text in lines[found[0] + 1:] if text.strip()]
    others = lines[: found[0]] + after
    if line.startswith("```") or line.endswith("```") or any(text.strip().startswith("```") for text in others):
        raise CodeFenceError(f"The {PREFIX} line is inside a ``` code fence; write it as a plain line.")
    if not line.startswith(PREFIX):
        raise ProseAroundCallError(f"Text before {PREFIX} on the same line: {line!r}; start the line with it.")
    if after:
        raise ProseAroundCallError(
            f"Text after the {PREFIX} line: {after[0]!r}. The model went on without the result; "
            f"nothing may follow the line (pass stop={STOP!r})."
        )
    text = line[len(PREFIX):].strip()
    name, args, kwargs = _parse_call(text)
    arguments = _bound(name, args, kwargs, {function.__name__: function for function in functions})
    return ToolCall("", name, text[text.index("(") + 1:text.rindex(")")].strip(), arguments)


def _unfenced(lines: list[str]) -> list[str]:
    """The lines without a ``` fence around the FUNCTION line: models trained on Markdown often write one."""
    fences = [number for number, line in enumerate(lines) if line.strip().startswith("```")]
    calls = [number for number, line in enumerate(lines) if PREFIX in line]
    if len(fences) != 2 or len(calls) != 1 or not fences[0] < calls[0] < fences[1]:
        return lines
    opening, closing = lines[fences[0]].strip()[3:], lines[fences[1]].strip()[3:]
    if (opening and not opening.isalnum()) or closing:  # ```python is a fence; ```FUNCTION: ...``` is not
        return lines
    return [line for number, line in enumerate(lines) if number not in fences]


def _parse_call(text: str) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    node = _as_call(text)
    if node is None:
        _explain_malformed(text)
    if any(keyword.arg is None for keyword in node.keywords):
        raise NotALiteralError(f"{text!r} unpacks arguments with **; write each argument's value.")
    args = tuple(_literal(argument) for argument in node.args)
    kwargs = {keyword.arg: _literal(keyword.value) for keyword in node.keywords}
    return node.func.id, args, kwargs


def _as_call(text: str) -> ast.Call | None:
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError):  # ValueError: a NUL byte in the text
        return None
    return node if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None


def _explain_malformed(text: str) -> None:
    """Raise the most precise error for text that is not a bare `name(args)`."""
    for end, char in enumerate(text):
        if char == ")" and _as_call(text[: end + 1]):
            raise ProseAroundCallError(
                f"Text after the call on the same line: {text[end + 1:].strip()!r}; end the line with the call."
            )
    quote = _unclosed_quote(text)
    if quote:
        raise UnbalancedQuotesError(f"Unbalanced quotes in {text!r}: a {quote} is opened and never closed.")
    raise MalformedCallError(f'{text!r} is not of the form name(arg, ...), e.g. get_current_time("UTC").')


def _literal(node: ast.expr) -> Any:
    try:
        # literal_eval on the parsed argument node: model text is data, never code to evaluate.
        return ast.literal_eval(node)
    except (ValueError, TypeError):  # TypeError: an unhashable set member or dict key
        raise NotALiteralError(
            f"The argument {ast.unparse(node)} is not a literal; write its value (a quoted string, a number, True, None)."
        ) from None


def _unclosed_quote(text: str) -> str | None:
    """The quote character left open at the end of `text`, if any (backslash escapes respected)."""
    open_quote, escaped = None, False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif open_quote and char == open_quote:
            open_quote = None
        elif not open_quote and char in "\"'":
            open_quote = char
    return open_quote


def _bound(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], known: dict[str, Callable[..., Any]]
           ) -> dict[str, Any]:
    """The arguments by parameter name, once they fit the function's signature."""
    function = known.get(name)
    if function is None:
        closest = difflib.get_close_matches(name, list(known), n=1)
        hint = f" Did you mean {closest[0]!r}?" if closest else ""
        raise UnknownFunctionError(
            f"Unknown function {name!r}.{hint} It should be one of: {', '.join(known) or '(none)'}."
        )
    try:
        return dict(inspect.signature(function).bind(*args, **kwargs).arguments)
    except TypeError as error:
        raise WrongArgumentsError(f"{name}{inspect.signature(function)}: {error}.") from None
