"""Checking a call's arguments against its tool's schema: built once per tool, cheap when the call is right.

Most calls fit their schema, so that path must cost little: fastjsonschema (it comes with nbformat) turns a
schema into plain Python code once, which checks a 15 kB argument in a fraction of a millisecond, where
interpreting the schema on every call (jsonschema) takes several. When that quick check says no, jsonschema,
the reference, lists every problem, so the messages the model reads come from one place. The quick check
is used only for schemas written in keywords both libraries read alike; any other schema goes to
jsonschema alone, so the two can never disagree about a call being valid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import fastjsonschema

if TYPE_CHECKING:  # importing jsonschema takes most of a second: it waits for the first validator
    from jsonschema import ValidationError

_ANNOTATIONS = {"title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly",
                "format"}
"""Keywords neither library checks a value against (formats are not checked: jsonschema's default)."""

_SAME_IN_BOTH = {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf",
                 "allOf", "oneOf", "not", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
                 "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
                 "patternProperties", "$defs", "definitions", "$ref"}
"""Keywords fastjsonschema (draft 7) checks as JSON Schema 2020-12 does; `prefixItems`, `unevaluated*` and
the like are not among them."""


_VALUES = {"enum", "const", "default", "examples"}
"""Keywords whose content is data, not a schema: a `$ref` inside is left alone."""


class ArgumentsValidator:
    """One tool's argument check, built once: `problems(arguments)` is empty when the arguments fit."""

    def __init__(self, parameters: dict[str, Any]) -> None:
        from jsonschema import Draft202012Validator

        self._reference = Draft202012Validator(parameters)
        self._quick = _compile(parameters) if _same_in_both(parameters) else None

    def problems(self, arguments: Any) -> list[ValidationError]:
        """Every way `arguments` does not fit, whole-object problems first, then each argument in schema order."""
        if self._quick is not None:
            try:
                self._quick(arguments)
                return []
            except fastjsonschema.JsonSchemaException:
                pass  # jsonschema says what exactly is wrong (and has the last word on whether anything is)
        return sorted(self._reference.iter_errors(arguments), key=lambda error: len(error.absolute_path))


def _compile(parameters: dict[str, Any]) -> Any:
    """The quick check, or None if fastjsonschema cannot compile this schema (jsonschema then does it all)."""
    schema = {key: value for key, value in parameters.items() if key != "$schema"}  # checked as 2020-12, always
    schema = _inline_refs(schema, schema.get("$defs", {}))
    try:
        # No defaults written into the caller's dict, no format checks.
        return fastjsonschema.compile(schema, use_default=False, use_formats=False)
    except Exception:  # any schema it cannot turn into code: the reference validator is always there
        return None


def _inline_refs(node: Any, defs: dict[str, Any], inside: frozenset[str] = frozenset()) -> Any:
    """`node` with each `{"$ref": "#/$defs/X"}` replaced by X itself, except in X itself (a recursive model).

    fastjsonschema makes each `$ref` a function call per value: on 200 nested models (what @tool makes of
    `list[Item]`), the inlined check is about 1.7x faster. The reference validator keeps the `$ref`s.
    """
    if isinstance(node, list):
        return [_inline_refs(item, defs, inside) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    name = ref.removeprefix("#/$defs/") if isinstance(ref, str) else None
    if len(node) == 1 and name in defs and name not in inside:
        return _inline_refs(defs[name], defs, inside | {name})
    return {key: value if key in _VALUES else _inline_refs(value, defs, inside) for key, value in node.items()}


def _same_in_both(node: Any, root: bool = True) -> bool:
    """True when every keyword in the schema is one both libraries read alike, and every `$ref` is local."""
    if isinstance(node, bool):
        return True
    if not isinstance(node, dict):
        return False
    keys = set(node) - _ANNOTATIONS - ({"$schema"} if root else set())
    if not keys <= _SAME_IN_BOTH:
        return False
    if "$ref" in node:  # draft 7 ignores a $ref's siblings and may fetch a remote one: local and alone only
        return isinstance(node["$ref"], str) and node["$ref"].startswith("#/") and keys == {"$ref"}
    children = [node[key] for key in ("items", "additionalProperties", "not") if key in node]
    for key in ("properties", "patternProperties", "$defs", "definitions"):
        children += list(node.get(key, {}).values())
    for key in ("anyOf", "allOf", "oneOf"):
        children += node.get(key, [])
    return all(_same_in_both(child, root=False) for child in children)
