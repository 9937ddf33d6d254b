"""A required option said in other words: by its own words, a line of [options], the parameter's description, negation."""

from __future__ import annotations

import pytest

from agentkit.offline.fill import fill
from agentkit.offline.reading import stem
from agentkit.offline.vocabulary import english


def _schema(options, description="", required=True, **more):
    option = {"type": "string", "enum": options, "description": description}
    return {"type": "object", "properties": {"label": {"type": "string", "description": "item label"}, "pick": option,
                                             **more}, "required": ["pick"] if required else []}


@pytest.mark.parametrize(("options", "description", "said", "meant"), [
    (["gutter_clean", "tyre_swap", "window_wash"], "job", "the van needs new tires", "tyre_swap"),  # spelling
    (["pristine", "damaged", "missing"], "state", "the vase arrived smashed", "damaged"),  # a line of [options]
    (["ok", "faulty", "gone"], "state. faulty: sparks, buzzes or smells of smoke.", "the kettle buzzes", "faulty"),  # gloss
    (["basic", "premium"], "plan: basic (ads, one screen) or premium (no ads, four screens)", "four screens please", "premium"),
    (["basic", "premium"], "plan: basic (ads, one screen) or premium (no ads, four screens)", "just one screen", "basic"),
    (["onceOnly", "everyWeek", "everyYear"], "cadence", "water the ferns each week", "everyWeek"),  # camelCase, shared head
    (["low", "high"], "urgency", "fix the hinge, not urgent", "low"),  # negated: not high, a phrase of low's
    (["low", "urgent"], "urgency", "fix the hinge, it is not urgent at all", "low"),  # negation beats the spelled option
    (["warm_white", "cool_white"], "tone", "书房的灯要暖一点", "warm_white"),  # Chinese, as written
    (["rinse", "delicate_cycle", "spin"], "program", "my silk scarf please", "delicate_cycle"),  # "delicate" by its line
    (["on", "off"], "power", "dim the porch lamp a little", "on"),  # a lamp dimmed is on
])
def test_a_required_option_said_in_other_words_is_taken(options, description, said, meant):
    assert fill(_schema(options, description), said)[0].get("pick") == meant


@pytest.mark.parametrize(("options", "said"), [
    (["pristine", "damaged", "missing"], "log the vase for me"),  # none said
    (["low", "high"], "not urgent, but also important"),  # two: low and high
    (["express_wash", "wool_wash"], "wash it"),  # the shared word names neither
])
def test_a_required_option_said_by_none_or_by_two_is_asked_for(options, said):
    values, missing = fill(_schema(options), said)
    assert "pick" not in values and missing == ["pick"]


def test_an_optional_option_is_not_read_by_meaning():
    assert "pick" not in fill(_schema(["pristine", "damaged"], required=False), "the vase arrived smashed")[0]


def _dated_with_flags(**flags):
    """A tool that takes a date and yes/no flags (name -> description)."""
    return {"type": "object", "required": ["date"], "properties": {"date": {"type": "string", "format": "date"}} | {
        name: {"type": "boolean", "description": described} for name, described in flags.items()}}


def _flags_said(schema, question):
    """The flags the question sets, and to what: every argument fill gives but the date."""
    return {name: value for name, value in fill(schema, question)[0].items() if name != "date"}


SPACE = _dated_with_flags(projector="Whether a projector is needed", catering="Add tea and coffee for the group",
                          extra_driver="A second named driver on the policy")


@pytest.mark.parametrize(("question", "flags"), [
    ("the room on 2026-03-11 with coffee for everyone", {"catering": True}),  # a thing of its description, asked for
    ("2026-03-05 please, we'll need tea and coffee but no projector", {"catering": True, "projector": False}),
    ("on 2026-06-07, and I'll bring a second driver", {"extra_driver": True}),
    ("on 2026-03-08 we won't need the projector", {"projector": False}),
    ("the room on 2026-03-09 with a view of the park", {}),  # a thing no flag has: none said
])
def test_a_flag_is_said_by_asking_for_its_thing(question, flags):
    assert _flags_said(SPACE, question) == flags


EXTRAS = _dated_with_flags(birthday_package="Add the birthday package (cake and decorations)",
                           bringing_guest="The member brings a guest", rush="Rush job for an extra fee")


@pytest.mark.parametrize(("question", "flags"), [
    ("on 2026-04-02, it's my son's birthday", {"birthday_package": True}),  # the name's word that says what it is
    ("on 2026-04-02, and I'm bringing a friend", {"bringing_guest": True}),  # a synonym of its word
    ("2026-04-02 please, it's urgent", {"rush": True}),
    ("on 2026-04-02 please", {}),
])
def test_a_flag_is_said_by_its_distinctive_word_or_a_synonym(question, flags):
    assert _flags_said(EXTRAS, question) == flags



@pytest.mark.parametrize(("said", "am_pm", "window"), [
    ("at 2pm", "pm", "afternoon"), ("around 9:30", "am", "morning"), ("after 7pm", "pm", "evening"),
    ("in the afternoon", "pm", "afternoon"), ("mornings are best", "am", "morning"), ("tonight", "pm", "evening"),
])
def test_a_part_of_the_day_is_named_by_a_clock_time_or_its_word(said, am_pm, window):
    schema = {"type": "object", "properties": {"day": {"type": "string", "format": "date"}, "slot": {"type": "string", "enum": [
        "am", "pm"]}, "window": {"type": "string", "enum": ["morning", "afternoon", "evening"]}}, "required": ["day"]}
    arguments = fill(schema, f"gutter clean on 2027-06-02, {said}")[0]
    assert (arguments.get("slot"), arguments.get("window")) == (am_pm, window)


def _condition(required=False):
    condition = {"type": "string", "enum": ["new", "used", "any"]}
    return {"type": "object", "properties": {"bike": {"type": "string"}, "condition": condition},
            "required": ["condition"] if required else []}


@pytest.mark.parametrize(("said", "meant"), [
    ("any second-hand road bikes?", "used"),  # a line of its own group ("condition"), a hyphenated word
    ("a pre-owned hybrid", "used"),
    ("road bikes in any condition", "any"),  # "any" before the parameter's word is the option
    ("a hybrid, any is fine", "any"),
    ("have you got any folding bikes?", None),  # "any" before another word asks for bikes: no option
])
def test_an_optional_option_is_read_by_its_own_group_and_any_only_alone(said, meant):
    assert fill(_condition(), said)[0].get("condition") == meant


@pytest.mark.parametrize(("said", "meant"), [
    ("the River Dee on Saturday", "river_dee"), ("the Thames trail", "river_thames"), ("the Wye", "wye_valley")])
def test_options_that_share_a_word_are_told_apart_by_the_words_they_do_not_share(said, meant):
    trail = {"type": "string", "enum": ["wye_valley", "river_thames", "river_dee"]}
    assert fill({"type": "object", "properties": {"trail": trail}, "required": ["trail"]}, said)[0]["trail"] == meant


@pytest.mark.parametrize(("said", "meant"), [
    ("cancel it and just give me account credit", True), ("cancel it, I'd rather have credit than a refund", True),
    ("cancel it, money back to my card please", None)])
def test_a_flag_named_for_how_is_said_by_what_follows_as_or_by(said, meant):
    credit = {"type": "boolean", "description": "Take the refund as account credit instead of money back to the card."}
    assert fill({"type": "object", "properties": {"refund_as_credit": credit}}, said)[0].get("refund_as_credit") == meant


@pytest.mark.parametrize(("options", "said", "meant"), [
    (["roses", "lilies", "tulips"], "a single red rose for Friday", "roses"),  # one of them, for the option said in plural
    (["upright", "grand", "digital"], "a baby grand", "grand"),
])
def test_an_option_said_in_the_singular_is_taken(options, said, meant):
    assert fill({"properties": {"kind": {"type": "string", "enum": options}}, "required": ["kind"]}, english(said)) == (
        {"kind": meant}, [])


def test_a_word_in_se_keeps_its_e_when_its_plural_is_stemmed():
    assert [stem(w) for w in ("roses", "courses", "cases", "classes", "boxes", "dishes")] == [
        "rose", "course", "case", "class", "box", "dish"]
