"""Asking a person (chapter 07): the `Ask` callable, the answers that stop a task, and the `ask_user` tool.

The policy asks a person to confirm a call; the model asks them a question with `ask_user`. Both go through
one `Ask`, which the front end provides (a terminal, a page, a script in a notebook), and both read
`/cancel` or `/exit` the same way: the task stops.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated

from pydantic import Field

from agentkit.tools.contract import ToolDefinition
from agentkit.tools.schema import tool

Ask = Callable[[str], Awaitable[str]]
"""Asks a person a question and returns their answer: `input()` in a terminal, a button in a page, a script."""

CANCEL, EXIT = "/cancel", "/exit"
CANCEL_ANSWERS = (CANCEL, EXIT)
"""Answers that stop the whole task, given to a confirmation or to `ask_user`."""


class TaskCancelled(BaseException):
    """The person answered `/cancel` or `/exit`: the task stops, reported as cancelled, not failed.

    Like `asyncio.CancelledError`, it derives from `BaseException`, so that no `except Exception` on its
    way (the dispatcher's, which reports a tool's exceptions as bugs, or a tool's own) can swallow it.
    """


def is_cancel(answer: str) -> bool:
    """True for an answer that stops the whole task: /cancel or /exit, in any case."""
    return answer.strip().lower() in CANCEL_ANSWERS


def ask_user_tool(ask: Ask) -> ToolDefinition:
    """The `ask_user` tool: the model asks the person a question through `ask`, and their answer is the result."""
    one_question_at_a_time = asyncio.Lock()  # calls run concurrently, but a person answers one question at a time

    @tool
    async def ask_user(question: Annotated[str, Field(min_length=1)]) -> str:
        """Ask the user a question and wait for their answer.

        Use it when you need something only the user knows or decides (a preference, a missing detail,
        a choice between options), not for anything another tool can find out.

        Args:
            question: The question, as the user will read it: short and specific.
        """
        async with one_question_at_a_time:
            answer = await ask(question)
        if is_cancel(answer):
            raise TaskCancelled(f"the person answered {answer.strip()} to the question {question!r}")
        return answer.strip() or "(the user gave no answer)"

    return ask_user
