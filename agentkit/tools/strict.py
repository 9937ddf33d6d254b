"""Strict schemas (chapter 10): the form of JSON Schema a provider can enforce while the model writes.

With `"strict": true` the API constrains the model's output to the schema, so a call's arguments always
parse and fit. The price is a narrower schema language. Every object must be closed (`additionalProperties:
false`) and list every property in `required`, so an optional argument becomes a required one that may be
null (null: "use the default"). A schema the API cannot enforce is refused with a 400, so it is refused here,
when the tool is defined, with what to write instead:

- a dict of free keys (`dict[str, int]`): a strict object lists its keys; use a pydantic model or a TypedDict;
- a value of any type (`Any`, or no type): the decoder needs a type to constrain;
- a tuple (`tuple[int, int]`): positional items (`prefixItems`) are not part of the strict subset; use a model.
"""

from __future__ import annotations

import copy
import json
from typing import Any


class NotStrictError(TypeError):
    """A schema with no strict form; the message names the argument and what to write instead."""


def strict_schema(parameters: dict[str, Any]) -> dict[str, Any]:
    """The strict form of an arguments schema: closed objects, every property required, optional ones nullable."""
    schema = copy.deepcopy(parameters)
    for name, definition in (schema.get("$defs") or {}).items():
        _make_strict(definition, f"$defs.{name}")
    _make_strict(schema, "")
    return schema


def _make_strict(node: dict[str, Any], where: str) -> None:
    if "prefixItems" in node:
        raise NotStrictError(f"{_at(where)} is a tuple (positional items); a strict schema has no form for it: use "
                             "list[...] of one type, or a model with named fields.")
    if node.get("type") == "object" or "properties" in node:
        if "properties" not in node or node.get("additionalProperties") not in (None, False):
            raise NotStrictError(f"{_at(where)} is an object of free keys (a dict); a strict schema lists every "
                                 "key: use a pydantic model or a TypedDict with named fields.")
        node["additionalProperties"] = False
        optional = [name for name in node["properties"] if name not in node.get("required", [])]
        node["required"] = list(node["properties"])
        for name, inner in node["properties"].items():
            _make_strict(inner, f"{where}.{name}".lstrip("."))
            if name in optional:
                node["properties"][name] = _nullable(inner)
        return
    if not any(key in node for key in ("type", "anyOf", "$ref", "enum", "const")):
        raise NotStrictError(f"{_at(where)} has no type (Any); a strict schema needs one for every value: give it "
                             "a type such as str, int or a model.")
    for key in ("items", "anyOf"):
        inner = node.get(key)
        for part in inner if isinstance(inner, list) else [inner] if isinstance(inner, dict) else []:
            _make_strict(part, where)


def strict_problem(schema: dict[str, Any], context: tuple[str, ...] = ()) -> str | None:
    """What keeps `schema` from being strict, worded as the API words it; None when it is strict."""
    if schema.get("type") == "object" or "properties" in schema:
        properties = schema.get("properties") or {}
        if schema.get("additionalProperties") is not False:
            return f"In context={context}, 'additionalProperties' is required to be supplied and to be false."
        missing = [name for name in properties if name not in (schema.get("required") or [])]
        if missing:
            return (f"In context={context}, 'required' is required to be supplied and to be an array including every "
                    f"key in properties. Missing '{missing[0]}'.")
    parts = [(("properties", name), inner) for name, inner in (schema.get("properties") or {}).items()]
    parts += [(("$defs", name), inner) for name, inner in (schema.get("$defs") or {}).items()]
    items = schema.get("items")
    parts += [(("items",), items)] if isinstance(items, dict) else []
    parts += [(("anyOf", str(i)), inner) for i, inner in enumerate(schema.get("anyOf") or [])]
    return next((problem for where, inner in parts if isinstance(inner, dict)
                 and (problem := strict_problem(inner, (*context, *where)))), None)


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    """`node` that also takes null, which means "not given": its default, if it had one, goes into its description."""
    node = dict(node)
    default = node.pop("default", None)
    if default is not None:
        text = f"Null for the default, {json.dumps(default)}."
        node["description"] = f"{node['description'].rstrip()} {text}" if node.get("description") else text
    if allows_null(node):
        return _one_type(node)
    kind = node.get("type")
    if isinstance(kind, str):
        node["type"] = [kind, "null"]
        if "enum" in node:
            node["enum"] = [*node["enum"], None]
        return node
    description = node.pop("description", None)
    return {"anyOf": [node, {"type": "null"}], **({"description": description} if description else {})}


def _one_type(node: dict[str, Any]) -> dict[str, Any]:
    """`anyOf: [{"type": "integer"}, {"type": "null"}]` (an `int | None`) written as `"type": ["integer", "null"]`."""
    options = node.get("anyOf") or []
    if len(options) == 2 and all(set(option) == {"type"} and isinstance(option["type"], str) for option in options):
        rest = {key: value for key, value in node.items() if key != "anyOf"}
        return {"type": [option["type"] for option in options], **rest}
    return node


def allows_null(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "null" or isinstance(kind, list) and "null" in kind or any(
        allows_null(option) for option in node.get("anyOf") or [])


def without_unset(value: Any, original: dict[str, Any], defs: dict[str, Any] | None = None) -> Any:
    """Arguments sent for a strict schema, with each null the original schema did not allow left out.

    Such a null means "not given" (only the strict form made it possible), so leaving it out lets the
    function's own default apply, at every depth.
    """
    defs = original.get("$defs", {}) if defs is None else defs
    if isinstance(original.get("$ref"), str):
        original = defs.get(original["$ref"].rsplit("/", 1)[-1], {})
    if isinstance(value, list) and isinstance(original.get("items"), dict):
        return [without_unset(item, original["items"], defs) for item in value]
    if not isinstance(value, dict) or not isinstance(original.get("properties"), dict):
        return value
    properties = original["properties"]
    return {key: without_unset(item, properties.get(key, {}), defs) for key, item in value.items()
            if not (item is None and key in properties and not allows_null(properties[key]))}


def _at(where: str) -> str:
    return f"argument '{where}'" if where else "the arguments"
