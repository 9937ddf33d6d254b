"""Asking a person (chapter 07): a confirmation before a tool runs, or the model's own question.

The library never assumes a terminal: a person is reached only through the `Ask` the caller passes (a terminal's
input, a page's button, a notebook's `scripted_answers(...)`); without one, a call that needs a yes is refused.
An `Ask` is given a `Question`, not a sentence: a confirmation carries the call, so each front end words it in
its person's language (`agentkit.frontends.messages`), and `str(question)` is the library's English.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from agentkit.calls import ToolCall
from agentkit.errors import TaskCancelled


@dataclass(frozen=True)
class Question:
    """What a person is asked: may `call` run (a confirmation), or the model's own question (`ask_user`)."""

    text: str  # the question in the library's English: "Allow bash {"command": "ls"}? [y/N]", or the model's words
    call: ToolCall | None = None
    """For a confirmation, the call it asks about, its arguments parsed; None for the model's own question."""

    @classmethod
    def confirm(cls, call: ToolCall) -> Question:
        return cls(f"Allow {call.name} {json.dumps(call.arguments, ensure_ascii=False)}? [y/N]", call)

    def __str__(self) -> str:
        return self.text


Ask = Callable[[Question], Awaitable[str]]
"""Asks a person a question and returns their answer: `input()` in a terminal, a button in a page, a script."""

CANCEL, EXIT = "/cancel", "/exit"
CANCEL_ANSWERS = (CANCEL, EXIT)  # stop the whole task, given to a confirmation or to `ask_user`
YES_ANSWERS = ("y", "yes")  # confirm a call; anything else is a no, passed on to the model in the person's words
NO_PERSON = ("no person is connected to say yes to this call, so it did not run. (For the developer: pass "
             "`ask=` to run_task or ToolExecutor, for example `ask=terminal_ask` in a script or "
             "`ask=scripted_answers('y')` in a notebook; or leave the tool out of ToolPolicy(confirm=...).)")
"""What the model is told when a call needs a yes and the task was given no `ask`."""

__all__ = ["CANCEL", "EXIT", "NO_PERSON", "YES_ANSWERS", "Ask", "Cancelled", "Question", "TaskCancelled", "is_cancel",
           "scripted_answers", "terminal_ask"]


@dataclass(frozen=True)
class Cancelled:
    """Why a task is cancelled: a person answered `answer` (/cancel or /exit) to `question`, or stopped it another
    way, which `by` names (a front end's Ctrl-C or Stop button: each front end words its own)."""

    answer: str = ""
    question: Question | None = None
    by: str = ""

    @classmethod
    def of(cls, stopped: TaskCancelled) -> Cancelled:
        """Why `stopped` stopped the task: the `Cancelled` it carries, or the words of the `Ask` that raised it."""
        return stopped.args[0] if stopped.args and isinstance(stopped.args[0], Cancelled) else cls(by=str(stopped))

    def __str__(self) -> str:  # the library's English, as the logs and the notebooks show it
        if self.question is None:
            return f"stopped by {self.by}"
        asked = (f"when asked to allow {self.question.call.name}" if self.question.call
                 else f"to the question {self.question.text!r}")
        return f"the person answered {self.answer} {asked}"


def is_cancel(answer: str) -> bool:
    """True for an answer that stops the whole task: /cancel or /exit, in any case."""
    return answer.strip().lower() in CANCEL_ANSWERS


def scripted_answers(*answers: str, word: Callable[[Question], str] = str) -> Ask:
    """An `Ask` that gives `answers` in order and prints each question (as `word` puts it) and answer, for notebooks."""
    remaining = list(answers)

    async def ask(question: Question) -> str:
        if not remaining:
            raise RuntimeError(f"scripted_answers() has no answer left for the question {str(question)!r}; add one")
        print(f"[asked] {word(question)}\n[answer] {remaining[0]}")
        return remaining.pop(0)

    return ask


async def terminal_ask(question: Question) -> str:
    """Ask on the terminal; `input()` blocks, so it waits on a thread. End of input (Ctrl-D) means `/exit`."""
    try:
        return await asyncio.to_thread(input, f"{question} ")
    except EOFError:
        return EXIT
