"""Asking is the last resort: a required slot takes the best value the request has left for its kind, and the model asks
only when nothing of that kind is left."""

from __future__ import annotations

import pytest

from agentkit.offline.fill import fill


def _schema(properties, required=None):
    return {"type": "object", "properties": properties, "required": list(required or properties)}


def _text(description, **extra):
    return {"type": "string", "description": description, **extra}


PING = _schema({"recipient": _text("The recipient."), "body": _text("What to say.")})
SHARE = _schema({"total": {"type": "number", "description": "Amount of the bill."},
                 "diners": {"type": "integer", "description": "How many people share it."}})
NEAR = _schema({"location": _text("Where to look.")})
BADGE = _schema({"visitor_id": _text("Identifier printed on the visitor's badge.")})


@pytest.mark.parametrize(("schema", "question", "name", "value"), [
    (PING, "text Ravi stuck in traffic", "recipient", "Ravi"),
    (PING, "message Tomasz the gate code is 4411", "body", "gate code is 4411"),
    (BADGE, "visitor badge please: QZX", "visitor_id", "QZX"),
    (SHARE, "lunch was 48 euros and there were three of us", "diners", 3),
    (SHARE, "seven of us had pizza, 93.50 all in", "diners", 7),
    (SHARE, "a couple of us had curry, 38 in total", "diners", 2),
])
def test_a_required_slot_takes_what_is_left_of_its_kind(schema, question, name, value):
    values, missing = fill(schema, question, exclude=frozenset({"text", "message"}))  # the tool's own words
    assert values.get(name) == value and not missing


@pytest.mark.parametrize(("schema", "question", "missing"), [
    (PING, "text Ravi", ["body"]),
    (SHARE, "split the bill please", ["total", "diners"]),
    (SHARE, "lunch was 48 euros, split it", ["diners"]),
    (BADGE, "check in a visitor", ["visitor_id"]),
    (BADGE, "check in Margot", ["visitor_id"]),  # a name is no identifier
    (NEAR, "is Quellwater Brewing any good", ["location"]),  # nor a name no table knows a place
])
def test_a_request_without_the_value_still_asks_for_it(schema, question, missing):
    assert fill(schema, question, exclude=frozenset({"text", "message"}))[1] == missing
