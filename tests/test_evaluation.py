"""The evaluation set is well formed, the scorer applies each rule, the runner and report work, and scores keep their floor."""

from __future__ import annotations

from collections import Counter

import jsonschema
import pytest

from agentkit.evaluation import CATEGORIES, load_cases, load_functions

FUNCTIONS = load_functions()
CASES = load_cases()


# ---------------------------------------------------------------- the data set
def test_the_set_is_large_and_balanced_enough():
    assert len(CASES) >= 150
    assert len(FUNCTIONS) >= 40
    per_category = Counter(case.category for case in CASES)
    assert set(per_category) == set(CATEGORIES) and min(per_category.values()) >= 25, per_category
    assert len({case.id for case in CASES}) == len(CASES), "case ids are unique"
    assert len({case.question for case in CASES}) == len(CASES), "no question is asked twice"


def test_the_held_out_split_is_every_case_at_index_2_5_8_mod_10():
    assert [case.split for case in CASES] == ["heldout" if i % 10 in (2, 5, 8) else "train" for i in range(len(CASES))]


def test_every_function_schema_is_valid_json_schema():
    for name, tool in FUNCTIONS.items():
        assert tool["type"] == "function" and tool["function"]["description"], name
        parameters = tool["function"]["parameters"]
        jsonschema.Draft202012Validator.check_schema(parameters)
        assert set(parameters["required"]) <= set(parameters["properties"]), name
    types = {spec.get("type") for tool in FUNCTIONS.values() for spec in tool["function"]["parameters"]["properties"].values()}
    assert {"string", "number", "integer", "boolean", "array", "object"} <= types
    assert any("enum" in spec for tool in FUNCTIONS.values() for spec in tool["function"]["parameters"]["properties"].values())


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_every_case_agrees_with_the_schemas(case):
    assert all(name in FUNCTIONS for name in case.tools), case.tools
    assert len(set(case.tools)) == len(case.tools)
    assert (case.expected == ()) == (case.category == "no_tool")
    if case.category == "choose":
        assert 3 <= len(case.tools) <= 5 and len(case.expected) == 1
    if case.category == "several_calls":
        assert len(case.expected) >= 2 and len({call.name for call in case.expected}) == 1
    if case.category == "several_tools":
        assert len({call.name for call in case.expected}) >= 2
    for call in case.expected:
        assert call.name in case.tools, f"{call.name} is expected but not offered"
        parameters = FUNCTIONS[call.name]["function"]["parameters"]
        assert set(call.arguments) == set(parameters["properties"]), "every declared parameter is listed"
        for name, acceptable in call.arguments.items():
            assert acceptable, f"{name} has no acceptable value"
            if name in parameters["required"]:
                assert None not in acceptable, f"required {name} may not be left out"
            for value in acceptable:
                if value is not None:
                    jsonschema.validate(value, parameters["properties"][name])
