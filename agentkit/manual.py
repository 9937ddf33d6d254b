"""The `FUNCTION:` text protocol: tools described in the system prompt, called by a line of text.

A model only writes text. So we tell it, in the system prompt, to write `FUNCTION: name(args)` when it
needs a tool; our code finds that line, runs the function and replies `RESULT: <value>`. This module
writes the prompt and runs the round trip; the line's grammar (where it may stand, how it is read back,
the mistakes a reply can make) is `agentkit.recovery.function_line`.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from openai import AsyncOpenAI

# parse_reply and FunctionCallError are read as manual.parse_reply, manual.FunctionCallError in chapter 01.
from agentkit.calls import ToolCall
from agentkit.errors import ToolError
from agentkit.recovery.function_line import PREFIX, RESULT_PREFIX, STOP, FunctionCallError, call_line, parse_reply

__all__ = ["FunctionCallError", "ManualResult", "build_system_prompt", "describe_function",
           "manual_round_trip", "parse_reply", "run_call"]


def describe_function(function: Callable[..., Any]) -> str:
    """Two prompt lines: the name with the docstring's first paragraph, then the exact line that calls it."""
    placeholders = []
    for parameter in inspect.signature(function).parameters.values():
        # A quoted placeholder tells the model to write a string there; a bare one, a number.
        text_like = parameter.annotation in (str, "str") or isinstance(parameter.default, str)
        placeholders.append(f'"{parameter.name}"' if text_like else parameter.name)
    doc = " ".join((inspect.getdoc(function) or "").split("\n\n")[0].split())
    heading = f"- {function.__name__}: {doc}" if doc else f"- {function.__name__}"
    return f"{heading}\n  {call_line(function.__name__, placeholders)}"


def build_system_prompt(functions: Sequence[Callable[..., Any]]) -> str:
    """The protocol instructions for any list of plain Python functions."""
    tools = "\n".join(describe_function(function) for function in functions)
    return (
        "You can use these tools. Each is listed with what it does, then the exact line that calls it:\n"
        f"{tools}\n\n"
        f"To use a tool, reply with only its {PREFIX} line, the placeholders replaced by values "
        "(text in double quotes, numbers bare), and write nothing after it.\n"
        f"You will then receive `{RESULT_PREFIX} <value>`; answer the user's question from it.\n"
        f"If no tool fits the question, answer it directly, without a {PREFIX} line."
    )


@dataclass
class ManualResult:
    """What one manual round trip produced."""

    answer: str  # the model's final reply to the user
    messages: list[dict[str, str]]  # the whole conversation, system prompt first, so it can be printed or continued
    call: ToolCall | None = None  # the function the model called, or None when it answered directly


async def run_call(call: ToolCall, functions: Sequence[Callable[..., Any]]) -> str:
    """Run a parsed call; a `ToolError` (a value the model can correct) becomes an `Error: ...` result."""
    function = {function.__name__: function for function in functions}[call.name]
    try:
        # The functions are plain (blocking) Python: run them off the event loop.
        return str(await asyncio.to_thread(function, **call.arguments))
    except ToolError as error:
        return f"Error: {error}"


async def manual_round_trip(
    client: AsyncOpenAI, model: str, question: str, functions: Sequence[Callable[..., Any]]
) -> ManualResult:
    """Ask `question` with the protocol; if the model calls a function, run it and ask again with its result.

    Raises a `FunctionCallError` subclass when the reply has a FUNCTION line that cannot be run.
    """
    messages = [{"role": "system", "content": build_system_prompt(functions)}, {"role": "user", "content": question}]
    reply = await _complete(client, model, messages)
    call = parse_reply(reply, functions)
    if call is None:
        messages.append({"role": "assistant", "content": reply})
        return ManualResult(reply, messages)
    result = await run_call(call, functions)
    messages += [{"role": "assistant", "content": reply}, {"role": "user", "content": f"{RESULT_PREFIX} {result}"}]
    answer = await _complete(client, model, messages)
    messages.append({"role": "assistant", "content": answer})
    return ManualResult(answer, messages, call)


async def _complete(client: AsyncOpenAI, model: str, messages: list[dict[str, str]]) -> str:
    response = await client.chat.completions.create(model=model, messages=messages, stop=STOP)
    return (response.choices[0].message.content or "").strip()
