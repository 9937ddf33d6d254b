"""A slot's kind read from its whole schema: an identifier takes the code-shaped span, a nationality the demonym."""

from __future__ import annotations

import pytest

from agentkit.offline.fill import fill


def _schema(properties, required=None):
    return {"type": "object", "properties": properties, "required": list(required or properties)}


def _text(description, **extra):
    return {"type": "string", "description": description, **extra}


CLAIM = _schema({"warranty_number": _text("Warranty number."), "problem": _text("What went wrong, in the owner's words.")})
PARCEL = _schema({"consignment_ref": _text("Consignment reference, e.g. 'ZT-40021'."), "note": _text("Note for the driver")})
CASE = _schema({"case_id": _text("Case identifier"), "owner": _text("Who handles it")})


@pytest.mark.parametrize(("schema", "question", "name", "value"), [
    (CLAIM, "claim on warranty WR-88310: the hinge snapped after a week", "warranty_number", "WR-88310"),
    (CLAIM, "the screen went dark again. warranty number is GT-1172-09, please log it", "warranty_number", "GT-1172-09"),
    (PARCEL, "for ZT-40021 please ring the bell twice", "consignment_ref", "ZT-40021"),
    (CASE, "hand case cd-77 over to Farida", "case_id", "cd-77"),
    (CASE, "move 2025-00412 to Jonas", "case_id", "2025-00412"),
])
def test_an_identifier_slot_takes_the_code_shaped_span_as_written(schema, question, name, value):
    assert fill(schema, question)[0][name] == value


def test_a_code_and_a_text_are_two_values_not_one():
    """The text is the sentence, the identifier the code: never the same words for both."""
    values = fill(CLAIM, "claim on warranty WR-88310: the hinge snapped after a week")[0]
    assert values["problem"] == "the hinge snapped after a week"


ENTRY = _schema({"citizenship": _text("Passport held by the traveller"), "country": _text("Where they are going")})


@pytest.mark.parametrize(("question", "citizenship", "country"), [
    ("I'm Peruvian, what do I need to visit Thailand?", "Peruvian", "Thailand"),
    ("can swedes travel to Kenya without a visa", "Swedish", "Kenya"),
    ("Polish passport, going to Mexico in May", "Polish", "Mexico"),
])
def test_a_demonym_is_the_nationality_not_the_destination(question, citizenship, country):
    values = fill(ENTRY, question)[0]
    assert (values["citizenship"], values["country"]) == (citizenship, country)


WARD = _schema({"resident_name": _text("Resident's full name"), "cot": _text("Cot label, e.g. 'C7'", maxLength=3),
                "entry": _text("What the carer observed")}, ["resident_name", "entry"])


def test_a_text_goes_to_one_slot_and_a_short_label_never_takes_a_sentence():
    values = fill(WARD, "log for Ivy Moreau: slept badly, asked for water twice")[0]
    assert values.get("cot") is None and values["entry"] == "slept badly, asked for water twice"


def test_an_example_shaped_like_a_code_makes_the_slot_an_identifier():
    """ "Cot label, e.g. 'C7'": a label by its words, an identifier by its example."""
    from agentkit.offline.roles import role_of
    assert role_of("cot", WARD["properties"]["cot"])[0] == "code"


CLUB = _schema({"member_name": _text("Who is joining"), "sponsor_name": _text("Who vouches for them"),
                "member_id": _text("Membership card")}, ["member_name"])
BOAT = _schema({"boat_name": _text("What the boat is called"), "skipper": _text("Person in charge")})


@pytest.mark.parametrize(("schema", "name", "role"), [
    (CLUB, "member_name", "person"), (CLUB, "member_id", "code"), (BOAT, "boat_name", "title")])
def test_a_name_of_a_person_kind_thing_is_a_person_and_its_id_an_identifier(schema, name, role):
    from agentkit.offline.roles import role_of
    assert role_of(name, schema["properties"][name])[0] == role


DESK = _schema({"badge": _text("Short label on the badge", maxLength=6), "remark": _text("Free remark")}, ["remark"])
PAIR = _schema({"guest": _text("Guest"), "cabin": _text("Cabin label"), "remark": _text("Free remark")})


def test_a_sentence_is_no_value_for_a_slot_of_a_few_characters():
    assert "badge" not in fill(DESK, "front desk: visitor waited an hour for the lift")[0]


def test_one_text_is_not_given_to_two_slots():
    values = fill(PAIR, "for Nadia Brook: the lift was out of order all morning")[0]
    assert values["remark"] == "the lift was out of order all morning" and "cabin" not in values


def test_a_country_named_alone_is_where_one_goes_not_a_nationality():
    """ "what about Chile?" after a visa question: Chile is the next destination, the passport stays."""
    values = fill(ENTRY, "what about Chile?")[0]
    assert values.get("country") == "Chile" and values.get("citizenship") != "Chile"


POSTCODE = _schema({"postcode": _text("A UK postcode", pattern="^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$"),
                    "house": {"type": "integer", "description": "house number"}}, ["postcode"])
SLUG = _schema({"slug": _text("The page's slug", pattern="^[a-z0-9-]+$"), "title": _text("The page title")}, ["title"])


@pytest.mark.parametrize(("question", "postcode"), [
    ("which band is 14 Elm Road, LS6 2AB in?", "LS6 2AB"),
    ("band for m14 5tp please", "M14 5TP"),  # typed in small letters: the capitals the pattern asks for
    ("is SW1A1AA in band D?", "SW1A1AA"),
])
def test_a_string_with_a_pattern_takes_the_text_that_fits_it(question, postcode):
    assert fill(POSTCODE, question)[0]["postcode"] == postcode


def test_a_value_its_pattern_refuses_is_asked_for_not_sent():
    """No postcode written: the street is no postcode, so the required value is missing (the model asks)."""
    values, missing = fill(POSTCODE, "which band is 14 Elm Road in?")
    assert "postcode" not in values and missing == ["postcode"]


def test_a_pattern_a_plain_word_fits_says_nothing_of_where_its_value_is():
    """ "^[a-z0-9-]+$" fits any word: the first word of the question is no slug."""
    assert fill(SLUG, "make a page titled 'Opening hours'")[0].get("slug") in (None, "opening-hours")


LIFT = _schema({"origin": _text("Town the lift starts from"), "destination": _text("Town the lift goes to"),
                "departure": _text("When you set off", format="date-time")})


@pytest.mark.parametrize(("question", "values"), [
    ("a lift from Leeds to York on 2026-05-14 at 8am", {"origin": "Leeds", "destination": "York",
                                                       "departure": "2026-05-14T08:00:00"}),
    ("driving Bath to Bristol on 2026-06-02, leaving half past seven", {"origin": "Bath", "destination": "Bristol",
                                                                        "departure": "2026-06-02T07:30:00"}),
])
def test_a_date_time_is_a_day_and_a_clock_time_and_an_origin_stands_before_to(question, values):
    assert fill(LIFT, question)[0] == values


def test_a_date_time_with_no_clock_time_is_asked_for_not_made_up():
    assert fill(LIFT, "a lift from Leeds to York on 2026-05-20")[1] == ["departure"]


PLATE = _schema({"registration": _text("Car registration", pattern="^[A-Z0-9 ]{2,8}$"),
                 "tyres": {"type": "integer", "description": "How many tyres"}}, ["registration"])


@pytest.mark.parametrize(("question", "plate"), [
    ("fit 2 new tyres on AB12 CDE tomorrow", "AB12 CDE"),  # a pattern a word fits takes the longest code, space and all
    ("new tyres for the van, plate is KX67 RTU", "KX67 RTU"),
])
def test_a_loose_pattern_takes_the_code_it_fits_never_a_word(question, plate):
    assert fill(PLATE, question)[0]["registration"] == plate


TIP = _schema({"site": _text("Which recycling centre"), "date": _text("the day", format="date")})
PAGE = _schema({"site": _text("The website to check, e.g. example.com")})


@pytest.mark.parametrize(("question", "site"), [
    ("I've got a sofa to take to Northfield tomorrow", "Northfield"),  # a site is a place, never "I"
    ("can I take a fridge to the Hollow Lane site tomorrow?", "Hollow Lane"),
])
def test_a_site_is_a_place_by_its_name(question, site):
    assert fill(TIP, question)[0]["site"] == site


def test_a_site_described_as_a_website_is_an_address_on_the_web():
    assert fill(PAGE, "is https://example.com up?")[0]["site"] == "https://example.com"


@pytest.mark.parametrize(("name", "description", "role"), [
    ("zone", "Garden zone.", None),  # a zone alone is no time zone
    ("zone", "Time zone, e.g. Europe/London", "zone"),
    ("drop_zone", "Drop zone (airfield), e.g. 'Langar'.", "place"),
    ("lead_name", "Name the booking is under.", "person"),
    ("hospital", "医院名称。", "place"),
    ("reason", "Why the booking is being cancelled.", None),  # no booking code
    ("occasion", "What the display is for, e.g. a wedding or a birthday.", None),  # no day
])
def test_a_parameter_is_read_by_what_its_name_says_before_the_words_of_its_description(name, description, role):
    from agentkit.offline.roles import role_of
    assert role_of(name, {"type": "string", "description": description})[0] == role


def test_a_place_said_as_whose_it_is_is_no_address():
    visit = {"properties": {"address": {"type": "string"}, "day": {"type": "string"}}, "required": ["address", "day"]}
    assert fill(visit, "Can someone come round to my flat on Friday?")[1] == ["address"]
    assert fill(visit, "Can someone come round to 4 Mill Lane, York on Friday?")[0]["address"] == "4 Mill Lane, York"


@pytest.mark.parametrize(("question", "value"), [
    ("an ice cream van for 80 guests, the guests will pay for their own", False),
    ("an ice cream van for 80 guests, my treat", None),
    ("上门厨师，6个人，菜我们自己买", False),
])
def test_a_flag_takes_the_value_its_description_states_for_what_the_request_says(question, value):
    van = {"properties": {"host_pays": {"type": "boolean", "description": "The host pays for everything; false when guests "
                                        "pay for their own ice creams. 自己买菜为否"}}}
    assert fill(van, question)[0].get("host_pays") is value


@pytest.mark.parametrize(("question", "value"), [("pressure wash the patio, no weed killer please", False),
                                                 ("pressure wash the patio and treat the weeds", True),
                                                 ("pressure wash the patio", None)])
def test_a_flag_whose_thing_is_refused_is_false(question, value):
    wash = {"properties": {"weed_treatment": {"type": "boolean", "description": "Treat the joints with weed killer."},
                           "surface": {"type": "string", "enum": ["patio", "driveway"]}}}
    assert fill(wash, question)[0].get("weed_treatment") is value


@pytest.mark.parametrize("address", [
    "Unit 4, Riverside Business Park, Leeds LS10 1AB", "The Old Forge, Church Street, Ludlow",
    "Flat 12, Building 3, Lotus Garden, Minhang, Shanghai", "8C Lakeside Apartments, Haidian, Beijing",
    "Apartment 5, Riverside Court, Norwich", "The Granary, Mill Lane, Ripon"])
@pytest.mark.parametrize("said", ["Can someone come to {} on Friday?", "Friday please. The address is {}.",
                                  "For Friday, at my work: {}"])
def test_an_address_of_several_parts_is_one_value_wherever_it_is_said(address, said):
    visit = {"properties": {"address": {"type": "string", "description": "Where the job is."},
                            "date": {"type": "string", "format": "date"}}, "required": ["address", "date"]}
    assert fill(visit, said.format(address))[0].get("address") == address


@pytest.mark.parametrize(("question", "address"), [
    ("courier a card to Mr Okoro, 45 Victoria Road, Leeds LS6 1AB", "45 Victoria Road, Leeds LS6 1AB"),  # from its first place
    ("at Mill House, Low Lane, Keswick, Saturday please", "Mill House, Low Lane, Keswick"),  # up to the day
])
def test_an_address_starts_at_its_first_part_of_a_place_and_ends_before_a_day(question, address):
    from agentkit.offline.places import addresses
    assert [question[start:end] for start, end in addresses(question)] == [address]
    assert addresses("flights to Paris, Rome and Madrid, Friday") == [], "places listed are no address"


def test_a_word_that_is_an_option_is_no_other_parameters_name():
    chef = {"properties": {"address": {"type": "string"}, "cuisine": {"type": "string", "enum": ["sichuan", "cantonese"]}},
            "required": ["address", "cuisine"]}
    assert fill(chef, "a chef at 3 Oak Way, Leeds, Cantonese food") == (
        {"address": "3 Oak Way, Leeds", "cuisine": "cantonese"}, [])


def test_a_postcodes_second_half_is_no_length_glued_to_its_unit():
    from agentkit.offline.vocabulary import english
    assert english("at Kingsway Trading Estate, Derby DE22 3FT") == "at Kingsway Trading Estate, Derby DE22 3FT"
    assert english("a shelf 3FT wide") == "a shelf 3 FT wide"


def test_the_words_of_the_tools_name_name_none_of_its_options():
    from agentkit.offline.slots import offer_of
    cook = offer_of({"name": "book_home_cook", "parameters": {"properties": {"cuisine": {
        "type": "string", "enum": ["sichuan", "cantonese", "home_style"]}}, "required": ["cuisine"]}})
    assert fill(cook.schema, "book a home cook", guess=False, named=cook.name_words) == ({}, ["cuisine"])
    assert fill(cook.schema, "book a home cook, home-style food", named=cook.name_words)[0] == {"cuisine": "home_style"}
    assert fill(cook.schema, "a home cook, Cantonese food", named=cook.name_words)[0] == {"cuisine": "cantonese"}


@pytest.mark.parametrize(("question", "count"), [
    ("a session for me and two friends", 3), ("my wife and I want a session", 2), ("a session, just me", 1),
    ("a session for me, my husband and our 2 kids", 4), ("a session for me and 3 others", 4),
    ("a session for 5 people, me and my family", 5),  # a count said is the count
    ("a session for my dog and me", None),  # no one counted by the party's words alone
])
def test_a_party_said_by_who_is_in_it_is_counted(question, count):
    session = {"properties": {"participants": {"type": "integer", "minimum": 1}}}
    assert fill(session, question)[0].get("participants") == count


@pytest.mark.parametrize("said", ["Reg WU17 ABC", "registration is WU17 ABC", "my number plate is WU17 ABC"])
def test_an_identifier_is_the_code_its_label_says_not_a_road_said_before_it(said):
    tow = {"properties": {"registration": {"type": "string", "description": "Vehicle registration (number plate)."},
                          "pickup_location": {"type": "string"}}, "required": ["registration"]}
    assert fill(tow, f"Broken down on the A38 near Exeter, {said}, please tow it")[0]["registration"] == "WU17 ABC"


@pytest.mark.parametrize(("question", "place"), [("下周三上午九点我爸要去华西医院看病，帮我约个陪诊", "华西医院"),
                                                 ("明天去协和医院，需要陪诊员", "协和医院"),
                                                 ("明天下午国贸店还有位子吗", "国贸店")])
def test_a_chinese_place_is_named_as_its_description_says_its_kind(question, place):
    from agentkit.offline.zh_values import of_its_kind
    schema = {"properties": {"place": {"type": "string", "description": "医院名称。" if "医院" in place else "门店名称。"}},
              "required": ["place"]}
    assert of_its_kind(question, schema, {"place": "爸要"}) == {"place": place}
    assert of_its_kind(question, {**schema, "required": []}, {}) == {}, "an optional place named by its kind alone: none"
