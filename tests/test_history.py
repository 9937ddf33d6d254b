"""trim_history keeps the system prompt and the request at hand, drops whole pieces oldest first, and stays valid."""

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from agentkit.history import estimate_tokens, pieces, trim_history

SYSTEM = {"role": "system", "content": "You keep a list of expenses."}


def user(text):
    return {"role": "user", "content": text}


def answer(text):
    return {"role": "assistant", "content": text}


def calls(*ids):
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": i, "type": "function", "function": {"name": "add", "arguments": "{}"}} for i in ids]}


def result(call_id, text="done"):
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def exchange(n, size=40):
    """One request: a user message, a call and its result, and the answer."""
    return [user(f"request {n} " + "x" * size), calls(f"c{n}"), result(f"c{n}", "y" * size), answer(f"answer {n}")]


def tokens(messages):
    return sum(map(estimate_tokens, messages))


def valid(messages):
    """Every tool result follows the assistant message that made its call, and every call has its result."""
    open_calls: set[str] = set()
    for message in messages:
        if message["role"] == "tool":
            if message["tool_call_id"] not in open_calls:
                return False
            open_calls.discard(message["tool_call_id"])
        else:
            if open_calls:
                return False
            open_calls = {c["id"] for c in message.get("tool_calls") or []}
    return not open_calls


def test_a_short_conversation_is_kept_whole():
    messages = [SYSTEM, *exchange(1), *exchange(2)]
    assert trim_history(messages, 10_000) == messages


def test_old_exchanges_go_first_and_the_system_prompt_stays():
    messages = [SYSTEM, *exchange(1), *exchange(2), *exchange(3)]
    budget = tokens([SYSTEM, *exchange(3)]) + 5
    assert trim_history(messages, budget) == [SYSTEM, *exchange(3)]
    assert len(messages) == 13  # the input is left as it was


def test_a_long_task_loses_its_oldest_calls_with_their_results():
    task = [user("add them all"), calls("a"), result("a", "z" * 400), calls("b", "c"), result("b"), result("c")]
    trimmed = trim_history([SYSTEM, *task], tokens([SYSTEM, *task]) - 50)
    assert trimmed == [SYSTEM, user("add them all"), calls("b", "c"), result("b"), result("c")]


def test_the_request_at_hand_is_never_dropped():
    messages = [SYSTEM, *exchange(1), user("a very long request " * 50)]
    assert trim_history(messages, 10) == [SYSTEM, user("a very long request " * 50)]


def test_a_tool_result_stays_with_its_call():
    assert pieces([user("u"), calls("a", "b"), result("a"), result("b"), answer("ok")]) == [
        [user("u")], [calls("a", "b"), result("a"), result("b")], [answer("ok")]]


def test_a_budget_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        trim_history([SYSTEM], 0)


def test_a_tokenizer_can_be_passed():
    messages = [SYSTEM, *exchange(1), *exchange(2)]
    assert trim_history(messages, 1 + 4, count=lambda message: 1) == [SYSTEM, *exchange(2)]


conversations = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 200)), min_size=1, max_size=8).map(
    lambda shape: [m for n, (tool_calls, size) in enumerate(shape) for m in
                   [user(f"request {n} " + "x" * size),
                    *[m for k in range(tool_calls) for m in (calls(f"c{n}.{k}"), result(f"c{n}.{k}", "y" * size))],
                    answer(f"answer {n}")]])


@given(conversations, st.integers(1, 2_000))
@example([user("u"), calls("a"), result("a", "y" * 300), answer("ok")], 5)
def test_any_trim_is_valid_fits_when_it_can_and_keeps_what_matters(messages, budget):
    trimmed = trim_history([SYSTEM, *messages], budget)
    last_request = max(i for i, m in enumerate(messages) if m["role"] == "user")
    assert trimmed[0] == SYSTEM and trimmed[1]["role"] == "user"
    assert messages[last_request] in trimmed and valid(trimmed[1:])
    original = [json.dumps(m) for m in messages]
    positions = [original.index(json.dumps(m)) for m in trimmed[1:]]
    assert positions == sorted(set(positions))  # what is kept comes in its order, once each
    if tokens(trimmed) > budget:  # over budget only when nothing more can go: the request and its last piece
        remaining = pieces(trimmed[2:])
        assert trimmed[1] == messages[last_request]
        assert len(remaining) <= 1 or not remaining[0][0].get("tool_calls")
