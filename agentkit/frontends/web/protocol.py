"""What the page and the app send each other: the bodies of its requests, and the lines of a turn's stream."""

from __future__ import annotations

import html
import json
import re
from typing import Literal

from pydantic import BaseModel, Field

from agentkit import events
from agentkit.asking import Question
from agentkit.events import CallAnswered, CallEvent, Event, Note, Status, Thinking
from agentkit.frontends.checklist import plan_in
from agentkit.frontends.messages import MESSAGES, person_question, say
from agentkit.frontends.web.conversations import without_lone_surrogates
from agentkit.hardening.visible import marked, readable
from agentkit.streaming import TextDelta

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


PLACE = re.compile(r"\{\{([a-z ]+)\}\}")
"""Where page.html takes one of the page's own words (`{{page send}}`), or all of them for its script (`{{labels}}`)."""


def page_in(template: str, language: str) -> str:
    """page.html with its own words in `language`: each `{{key}}` filled (an unknown key is a bug: KeyError), and
    `{{labels}}` the page's and the statuses' texts as JSON, for what its script writes."""
    labels = {key: text for key, text in MESSAGES[language].items() if key.startswith(("page ", "status ", "plan "))}
    as_json = json.dumps(labels, ensure_ascii=False).replace("</", "<\\/")  # cannot end the <script> it sits in
    return PLACE.sub(lambda place: as_json if place[1] == "labels" else html.escape(say(place[1], language)), template)


def asking(kind: AskKind, key: str, question: Question, language: str = "en") -> dict:
    """The event that puts `question` to the person: `text` is what to show, with every control, bidi and
    invisible character marked (`<U+202E>`) where the event is made, so that any client shows what will run;
    `hidden` counts them; `raw` is the question in the library's English, and a confirmation's `tool` and
    `arguments` (JSON text) the call it asks about: data for a program, never to be shown as they are. `text` is
    in `language`."""
    # A call's confirmation: unusual spaces marked too.
    text, hidden = marked(person_question(question, language), exact=question.call is not None)
    event = {"kind": kind, "id": key, "text": text, "hidden": hidden, "raw": question.text}
    call = question.call
    return event | ({"tool": call.name, "arguments": json.dumps(call.arguments, ensure_ascii=False)} if call else {})


def event_fields(event: Event, shown: str = "") -> dict:
    """One of the loop's events as the page reads it: the same keys for every kind, and every text a person reads
    (the tool's name, the model's arguments, a result, an answer, the line for a call that did not run) with its
    control, bidi and invisible characters marked `<U+202E>`, as a confirmation's are; `hidden` counts them.
    `plan`: a result's steps (`text`, `status`) when it has a plan's shape (`agentkit.frontends.checklist`)."""
    fields: dict = {"kind": event.kind, "name": "", "arguments": "", "content": "", "is_error": False, "text": "",
                    "call_id": "", "shown": shown, "plan": []}
    if isinstance(event, CallEvent):
        fields |= {"name": event.name, "arguments": readable(event.arguments), "call_id": event.call_id}
    if isinstance(event, CallAnswered):
        fields |= {"content": event.content, "is_error": event.is_error}
        if not (shown or event.is_error):  # a result with a plan's shape: its steps, for the page to draw a checklist
            fields["plan"] = [{"text": marked(step.text)[0], "status": step.status} for step in plan_in(event.content) or ()]
    elif isinstance(event, Status):
        fields |= {"text": event.status, "content": str(event.error or "")}  # `shown`: why, in the person's words
    elif isinstance(event, (TextDelta, Thinking, Note, events.Answer)):
        fields["text"] = event.text
    hidden = 0
    for key in ("name", "arguments", "content", "text", "shown"):
        fields[key], count = marked(fields[key], exact=key in ("name", "arguments"))  # what would run: exactly
        hidden += count
    return fields | {"hidden": hidden}


def json_line(event: dict) -> str:
    """One line of the stream; text that UTF-8 cannot encode is replaced, so it cannot break the stream."""
    return without_lone_surrogates(json.dumps(event, ensure_ascii=False)) + "\n"
