"""`agentkit.offline.explain`: the trace of one request shows the values found, the tools' scores and each slot's pick."""

from agentkit.offline import OfflineModel, Trace, explain


def tool(name: str, description: str, properties: dict, required: list[str] | None = None) -> dict:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": list(properties) if required is None else required}}}


BOOK = tool("book_table", "Reserve a table at a restaurant.", {
    "party_size": {"type": "integer", "description": "How many people"},
    "time": {"type": "string", "description": "Time of the reservation, HH:MM"}})
REMIND = tool("create_reminder", "Create a reminder that notifies the user.", {
    "text": {"type": "string", "description": "What to be reminded of"},
    "when": {"type": "string", "description": "When to remind, e.g. tomorrow 9:00"}})
SMS = tool("send_sms", "Send a text message to a phone number.",
           {"phone_number": {"type": "string"}, "message": {"type": "string"}})


def test_the_trace_names_the_values_the_scores_and_each_slots_pick():
    trace = explain("book a table for 2 at 7pm and remind me to call Sam tomorrow", [BOOK, REMIND, SMS])
    assert isinstance(trace, Trace)
    assert [(s.kind, str(s.value)) for s in trace.spans][:2] == [("number", "2.0"), ("time", "19:00")]
    assert [name for name, _ in trace.scores][-1] == "send_sms" and trace.scores[-1][1] < 2
    assert [call.tool for call in trace.calls] == ["book_table", "create_reminder"]
    party = trace.calls[0].slots[0]
    assert (party.name, party.accepts, party.candidates, party.pick) == ("party_size", "integer", ("2",), 2)
    text = str(trace)
    assert "call book_table, from " in text and "-> 'tomorrow'" in text and "tools:    book_table" in text


def test_the_trace_makes_the_calls_the_model_makes():
    for question in ("What's the capital of Australia?", "remind me to water the plants tomorrow", "text 555-123-4567: hi"):
        request = {"messages": [{"role": "user", "content": question}], "tools": [BOOK, REMIND, SMS]}
        made = [c.name for c in OfflineModel().respond(request).tool_calls]
        assert [c.tool for c in explain(question, [BOOK, REMIND, SMS]).calls if not any(s.missing for s in c.slots)] == made


def test_a_missing_value_and_no_call_are_said():
    asked = explain("send a text message saying hello", [SMS])
    assert [s.name for s in asked.calls[0].slots if s.missing] == ["phone_number"]
    assert "MISSING, ask for it" in str(asked)
    assert explain("Who wrote Hamlet?", [BOOK]).calls == () and "no call" in str(explain("Who wrote Hamlet?", [BOOK]))


def test_a_chinese_request_shows_how_it_was_read():
    trace = explain("帮我订一张4个人的桌子，晚上7点", [BOOK])
    assert trace.read_as != trace.question and "read as:" in str(trace)


def test_a_chapter_shows_the_trace_once_with_its_output():
    """The design asks that a chapter show a learner how the stand-in read a sentence: chapter 00 prints `explain`."""
    import json
    from pathlib import Path

    notebooks = sorted(Path(__file__).parent.parent.joinpath("notebooks").glob("[0-9][0-9]_*.ipynb"))
    showing = [(path.name, cell) for path in notebooks for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
               if cell["cell_type"] == "code" and "explain(" in "".join(cell["source"])]
    assert [name for name, _ in showing] == ["00_setup.ipynb"]
    printed = "".join(text for output in showing[0][1]["outputs"] for text in output.get("text", ""))
    assert "get_current_time" in printed and "Asia/Tokyo" in printed


def test_the_trace_shows_the_reading_the_calls_were_made_from():
    """A Chinese word the bilingual table lacks is read by the dictionary when that reading fits a tool: the trace's
    reading and scores are that reading's, so the tool it calls is not shown scoring below what fits."""
    road = tool("report_road_issue", "Report a problem on a public road to the city.", {
        "issue": {"type": "string", "enum": ["pothole", "graffiti", "fallen_tree"]},
        "location": {"type": "string", "description": "Where it is"}})
    trace = explain("人民路上有个坑洼", [road, BOOK])
    assert "pothole" in trace.read_as and [c.tool for c in trace.calls] == ["report_road_issue"]
    assert trace.scores[0][0] == "report_road_issue" and trace.scores[0][1] >= 2
