"""What the page and the app send each other: the bodies of its requests, and the lines of a turn's stream."""

from __future__ import annotations

import json
import re
from typing import Literal

from pydantic import BaseModel, Field

from agentkit.visible import marked
from agentkit.web.conversations import without_lone_surrogates

AskKind = Literal["confirm", "question"]
"""The two events that wait for the person: a tool's confirmation (Approve/Deny), and the model's `ask_user`."""


class Turn(BaseModel):
    """One message from the page."""

    conversation: str = Field(min_length=1, max_length=64)
    """The page's conversation id: turns with the same id continue the same task."""
    message: str = Field(min_length=1)
    """What the person typed."""


class Answer(BaseModel):
    """The person's reply to a confirm or question event."""

    conversation: str = Field(min_length=1, max_length=64)
    """The conversation the event came in: an id is answered only there."""
    question: str
    """The event's id."""
    answer: str
    """"y" or "n" from the buttons, the text box's text, or /cancel."""


class Stop(BaseModel):
    """The Stop button: which conversation's turn to stop."""

    conversation: str = Field(min_length=1, max_length=64)


CONFIRMATION = re.compile(r"Allow (?P<tool>\S+) (?P<arguments>\{.*\})\? \[y/N\]", re.S)
"""How the policy asks about a call (`ToolExecutor._confirm`): its tool and its arguments (JSON) are read back out."""


def asking(kind: AskKind, key: str, question: str) -> dict:
    """The event that puts `question` to the person: `text` is what to show, with every control, bidi and
    invisible character marked (`<U+202E>`) where the event is made, so that any client shows what will run;
    `hidden` counts them; `raw` is the question as asked, and a confirmation's `tool` and `arguments` (JSON text)
    the call it asks about: data for a program, never to be shown as they are."""
    text, hidden = marked(question, exact=kind == "confirm")  # a call's confirmation: unusual spaces too
    event = {"kind": kind, "id": key, "text": text, "hidden": hidden, "raw": question}
    call = CONFIRMATION.fullmatch(question) if kind == "confirm" else None
    return event | ({"tool": call["tool"], "arguments": call["arguments"]} if call else {})


def json_line(event: dict) -> str:
    """One line of the stream; text that UTF-8 cannot encode is replaced, so it cannot break the stream."""
    return without_lone_surrogates(json.dumps(event, ensure_ascii=False)) + "\n"
