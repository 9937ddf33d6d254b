"""The `ask_user` tool (chapter 07): the model asks the person a question, and their answer is the result.

It asks through the same `Ask` as the policy's confirmations, and `/cancel` or `/exit` stops the task the same way.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from pydantic import Field

from agentkit.asking import Ask, Cancelled, Question, TaskCancelled, is_cancel
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.schema import tool


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
            answer = await ask(asked := Question(question))
        if is_cancel(answer):
            raise TaskCancelled(Cancelled(answer.strip(), asked))
        return answer.strip() or "(the user gave no answer)"

    return ask_user
