"""Transcripts: calls paired with their results by id, errors and refusals marked, untrusted text kept as text."""

import re

import mistune
import pytest

from agentkit.frontends.transcript import SHOWN_CHARS, task_transcript, transcript
from agentkit.loop import Task
from agentkit.policy import Decision


def call(call_id, name, arguments="{}"):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def result(call_id, content):
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def html_of(shown):
    """The HTML a Markdown renderer makes of the transcript, raw HTML let through as a notebook front end would."""
    return mistune.create_markdown(escape=False)(shown._repr_markdown_())


HISTORY = [
    {"role": "user", "content": "Read a.txt and b.txt"},
    {"role": "assistant", "content": None,
     "tool_calls": [call("c1", "read_file", '{"path": "a.txt"}'), call("c2", "read_file", '{"path": "b.txt"}')]},
    result("c2", "Error: file 'b.txt' does not exist"),  # results in another order than the calls
    result("c1", "alpha"),
    {"role": "assistant", "content": "a.txt says alpha; b.txt does not exist."},
]


def test_each_result_is_shown_under_the_call_it_answers_by_id_not_by_position():
    text = str(transcript(HISTORY))
    assert text.index('call 1: read_file {"path": "a.txt"}') < text.index("alpha") < text.index("call 2")
    assert text.index("call 2") < text.index("does not exist") < text.index("a.txt says alpha")


def test_error_results_are_marked_and_others_are_not():
    text = str(transcript(HISTORY))
    assert "result 2 · error" in text
    assert re.search(r"result 1\n", text)


def test_the_task_decisions_mark_refused_denied_and_confirmed_calls():
    history = [{"role": "user", "content": "clean up"},
               {"role": "assistant", "content": None,
                "tool_calls": [call("c1", "bash", '{"command": "rm -r ."}'), call("c2", "glob"), call("c3", "bash")]},
               result("c1", "Error: refused by rule 'confirmation': the user did not allow this call"),
               result("c2", "Error: refused by rule 'max_tool_calls_per_turn': at most 1 call"),
               result("c3", "done")]
    decisions = [Decision("c1", "bash", "denied", "confirmation", "the person answered 'n'"),
                 Decision("c2", "glob", "refused", "max_tool_calls_per_turn"),
                 Decision("c3", "bash", "confirmed", "confirmation"), Decision("c3", "bash", "allowed", "every check")]
    text = str(transcript(history, decisions))
    assert "result 1 · error · denied by the person" in text
    assert "result 2 · error · refused by the policy (rule 'max_tool_calls_per_turn')" in text
    assert "result 3 · confirmed by the person\n" in text


def test_a_call_without_result_and_a_result_without_call_are_both_shown():
    history = [{"role": "assistant", "content": None, "tool_calls": [call("c1", "get_current_time")]},
               result("c9", "12:00")]
    text = str(transcript(history))
    assert "result 1 · missing" in text
    assert "tool result for no call: tool_call_id 'c9'" in text and "12:00" in text


def test_an_empty_history_displays_as_nothing():
    assert str(transcript([])) == ""
    assert transcript([])._repr_markdown_() == ""


HOSTILE = [
    "</details><script>alert('x')</script>",
    "[click me](https://evil.example) ![img](https://evil.example/a.png)",
    "```\n# not a heading\n```\n<b>bold</b>",
    "`````\n<img src=x onerror=alert(1)>",
    "a\n\n<script>after a blank line</script>",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_untrusted_text_in_any_place_renders_as_text_never_as_markup(text):
    history = [{"role": "user", "content": text},
               {"role": "assistant", "content": text, "tool_calls": [call("c1", text, text)]},
               result("c1", text), result(text, text), {"role": text, "content": text}]
    html = html_of(transcript(history))
    assert not re.search(r"<(script|img|a|details|b|h1)\b", html), html
    assert html.count("<pre>") == 5  # every message body stayed inside its own code block


def test_a_long_result_is_cut_and_says_how_much_was_cut():
    long = "x" * (SHOWN_CHARS + 1234)
    shown = transcript([{"role": "assistant", "content": None, "tool_calls": [call("c1", "read_file")]},
                        result("c1", long)])
    assert "x" * SHOWN_CHARS + "\n" in str(shown) and "x" * (SHOWN_CHARS + 1) not in str(shown)
    assert "(1,234 more characters not shown)" in str(shown)
    assert "(1,234 more characters not shown)" in shown._repr_markdown_()


def test_a_task_displays_its_status_and_its_conversation_in_jupyter_and_as_text():
    task = Task("Read a.txt and b.txt", messages=HISTORY, turns=2, tool_calls=2, status="completed")
    shown = task_transcript(task)  # the core's Task knows no front end: a notebook shows task_transcript(task)
    markdown = shown._repr_markdown_()
    assert markdown.startswith("**task completed · 2 turns · 2 tool calls**")
    assert "a.txt says alpha" in markdown

    class Printer:
        text = str

    printed = []
    Printer.text = lambda self, value: printed.append(value)
    shown._repr_pretty_(Printer(), cycle=False)
    assert printed[0].startswith("task completed") and "result 2 · error" in printed[0]


def test_sdk_message_objects_and_content_parts_are_shown_like_dicts():
    from openai.types.chat import ChatCompletionMessage

    message = ChatCompletionMessage(role="assistant", content="from the SDK")
    parts = {"role": "user", "content": [{"type": "text", "text": "look at this"}, {"type": "image_url"}]}
    text = str(transcript([parts, message]))
    assert "look at this\n  [image_url]" in text and "from the SDK" in text


def test_ids_are_shown_only_when_asked_for():
    assert "[c1]" not in str(transcript(HISTORY))
    assert 'call 1: read_file {"path": "a.txt"} [c1]' in str(transcript(HISTORY, show_ids=True))


def test_an_assistant_turn_with_calls_and_no_text_is_still_labelled_as_the_assistant_s():
    assert str(transcript(HISTORY)).splitlines()[2:4] == ["assistant", '  call 1: read_file {"path": "a.txt"}']
