"""The argument check: built once per tool, and never more lenient than jsonschema, the reference."""

import asyncio
import json

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from agentkit.calls import ToolCall
from agentkit.hardening import arguments as validation
from agentkit.hardening.arguments import ArgumentsValidator
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry


async def echo(arguments: dict) -> str:
    return json.dumps(arguments, sort_keys=True)


ITEM = {"type": "object", "properties": {"id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"},
        "uniqueItems": True}, "kind": {"enum": ["a", 1, None]}}, "required": ["id"], "additionalProperties": False}
SCHEMA = {
    "type": "object",
    "properties": {
        "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}, "maxItems": 3},
        "name": {"type": "string", "pattern": "^[a-z]+$", "default": "x"},
        "size": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}], "default": None},
        "flag": {"const": False},
    },
    "required": ["items"],
    "additionalProperties": False,
    "$defs": {"Item": ITEM},
}

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-3, 3, allow_nan=False) | st.sampled_from(["", "a", "ab", "A\n"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["id", "tags", "kind", "x"]), inner, max_size=3),
    max_leaves=12,
)
ARGUMENTS = (
    st.dictionaries(st.sampled_from(["items", "name", "size", "flag", "other"]), JSON_VALUES, max_size=4)
    | st.fixed_dictionaries({"items": st.lists(
        st.fixed_dictionaries({"id": JSON_VALUES}, optional={"tags": JSON_VALUES, "kind": JSON_VALUES}), max_size=4)})
)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(ARGUMENTS)
def test_the_quick_check_agrees_with_the_reference(arguments):
    assert ArgumentsValidator(SCHEMA)._quick is not None  # this schema takes the quick path
    expected = [error.message for error in jsonschema.Draft202012Validator(SCHEMA).iter_errors(arguments)]
    assert sorted(error.message for error in ArgumentsValidator(SCHEMA).problems(arguments)) == sorted(expected)


def test_the_validator_is_built_once_at_registration_not_on_every_call(monkeypatch):
    built = []
    monkeypatch.setattr(validation.ArgumentsValidator, "__init__",
                        lambda self, parameters, build=validation.ArgumentsValidator.__init__: built.append(1)
                        or build(self, parameters))
    registry = build_registry([ToolDefinition("bench", "A tool.", SCHEMA, echo)])
    assert built == [1]
    for _ in range(3):
        assert not asyncio.run(execute_tool(registry, ToolCall.parse("", "bench", '{"items": [{"id": 1}]}'))).is_error
        assert asyncio.run(execute_tool(registry, ToolCall.parse("", "bench", '{"items": 1}'))).is_error
    assert built == [1]


def test_no_default_is_written_into_the_arguments():
    registry = build_registry([ToolDefinition("bench", "A tool.", SCHEMA, echo)])
    assert asyncio.run(execute_tool(registry, ToolCall.parse("", "bench", '{"items": []}'))).content == '{"items": []}'


def test_keywords_read_differently_by_draft_7_are_checked_by_the_reference_alone():
    sibling = {"type": "object", "properties": {"a": {"$ref": "#/$defs/S", "maxLength": 2}},
               "$defs": {"S": {"type": "string"}}}
    assert ArgumentsValidator(sibling)._quick is None  # 2020-12 applies a $ref's siblings, draft 7 ignores them
    assert [error.validator for error in ArgumentsValidator(sibling).problems({"a": "long"})] == ["maxLength"]
    tuple_ = {"type": "object", "properties": {"a": {"type": "array", "prefixItems": [{"type": "integer"}]}}}
    assert ArgumentsValidator(tuple_)._quick is None  # prefixItems does not exist in draft 7
    assert [error.validator for error in ArgumentsValidator(tuple_).problems({"a": ["x"]})] == ["type"]
    remote = {"type": "object", "properties": {"a": {"$ref": "http://example.invalid/schema"}}}
    assert ArgumentsValidator(remote)._quick is None  # fastjsonschema would fetch it


def test_a_declared_draft_is_still_checked_as_2020_12():
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
              "properties": {"n": {"type": "integer"}}}
    assert ArgumentsValidator(schema)._quick is not None
    assert [error.message for error in ArgumentsValidator(schema).problems({"n": "1"})] == ["'1' is not of type 'integer'"]


TREE = {"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}, "label": {"$ref": "#/$defs/Label"}},
        "$defs": {"Node": {"type": "object", "properties": {"value": {"type": "integer"}, "children": {
                      "type": "array", "items": {"$ref": "#/$defs/Node"}}}, "required": ["value"]},
                  "Label": {"type": "string", "minLength": 1, "default": {"$ref": "#/$defs/Node"}}}}


def test_the_quick_check_inlines_refs_except_recursive_ones():
    inlined = validation._inline_refs(TREE, TREE["$defs"])
    label, root = inlined["properties"]["label"], inlined["properties"]["root"]
    assert label == TREE["$defs"]["Label"]  # inlined; a default is data, so its "$ref" key is left as it was
    assert root["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}  # a Node holds Nodes: kept as a $ref
    assert ArgumentsValidator(TREE)._quick is not None


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.fixed_dictionaries({}, optional={"root": JSON_VALUES | st.fixed_dictionaries(
    {"value": JSON_VALUES}, optional={"children": st.lists(st.fixed_dictionaries({"value": JSON_VALUES}), max_size=3)}),
    "label": JSON_VALUES}))
def test_the_quick_check_of_a_recursive_model_agrees_with_the_reference(arguments):
    expected = [error.message for error in jsonschema.Draft202012Validator(TREE).iter_errors(arguments)]
    assert sorted(error.message for error in ArgumentsValidator(TREE).problems(arguments)) == sorted(expected)
