"""Strict schemas (chapter 10): the form of JSON Schema a provider can enforce while the model writes.

With `"strict": true` the API constrains the model's output to the schema, so a call's arguments always parse
and fit. The price is a narrower schema language: every object is closed (`additionalProperties: false`) and
lists every property in `required`, so an optional argument becomes a required one that may be null (null:
"use the default"). The API refuses a schema it cannot enforce with a 400, so it is refused here, when the
tool is defined, with what to write instead: a dict of free keys, a value of any type, a tuple.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from agentkit.hardening.arguments import allows_null


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
    if problem := _no_strict_form(node):
        raise NotStrictError(f"{f'argument {where!r}' if where else 'the arguments'} {problem}")
    if "properties" in node:
        optional = [name for name in node["properties"] if name not in node.get("required", [])]
        node["additionalProperties"], node["required"] = False, list(node["properties"])
        for name, inner in node["properties"].items():
            _make_strict(inner, f"{where}.{name}".lstrip("."))
            if name in optional:
                node["properties"][name] = _nullable(inner)
        return
    items = [node["items"]] if isinstance(node.get("items"), dict) else []
    for part in items + list(node.get("anyOf") or []):
        _make_strict(part, where)


def _no_strict_form(node: dict[str, Any]) -> str | None:
    """The three schemas a strict schema cannot express, each with what to write instead."""
    if "prefixItems" in node:
        return ("is a tuple (positional items); a strict schema has no form for it: use list[...] of one type, "
                "or a model with named fields.")
    if node.get("type") == "object" or "properties" in node:
        if "properties" not in node or node.get("additionalProperties") not in (None, False):
            return ("is an object of free keys (a dict); a strict schema lists every key: use a pydantic model or "
                    "a TypedDict with named fields.")
    elif not any(key in node for key in ("type", "anyOf", "$ref", "enum", "const")):
        return "has no type (Any); a strict schema needs one for every value: give it a type such as str, int or a model."
    return None


def strict_problem(schema: dict[str, Any], context: tuple[str, ...] = ()) -> str | None:
    """What keeps `schema` from being strict, worded as the API words it; None when it is strict."""
    if schema.get("type") == "object" or "properties" in schema:
        if schema.get("additionalProperties") is not False:
            return f"In context={context}, 'additionalProperties' is required to be supplied and to be false."
        if missing := [name for name in schema.get("properties") or {} if name not in (schema.get("required") or [])]:
            return (f"In context={context}, 'required' is required to be supplied and to be an array including every "
                    f"key in properties. Missing '{missing[0]}'.")
    parts = [(("properties", name), inner) for name, inner in (schema.get("properties") or {}).items()]
    parts += [(("$defs", name), inner) for name, inner in (schema.get("$defs") or {}).items()]
    parts += [(("items",), schema["items"])] if isinstance(schema.get("items"), dict) else []
    parts += [(("anyOf", str(i)), inner) for i, inner in enumerate(schema.get("anyOf") or [])]
    return next((problem for where, inner in parts if isinstance(inner, dict)
                 and (problem := strict_problem(inner, (*context, *where)))), None)


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    """`node` that also takes null, which means "not given": its default, if it had one, goes into its description."""
    node = dict(node)
    if (default := node.pop("default", None)) is not None:
        text = f"Null for the default, {json.dumps(default)}."
        node["description"] = f"{node['description'].rstrip()} {text}" if node.get("description") else text
    if allows_null(node):  # `int | None = 5`: pydantic's anyOf of two types, written as the API writes them
        options = node.get("anyOf") or []
        if len(options) == 2 and all(set(o) == {"type"} and isinstance(o["type"], str) for o in options):
            return {"type": [option["type"] for option in options]} | {k: v for k, v in node.items() if k != "anyOf"}
        return node
    if isinstance(node.get("type"), str):
        return node | {"type": [node["type"], "null"]} | ({"enum": [*node["enum"], None]} if "enum" in node else {})
    description = node.pop("description", None)
    return {"anyOf": [node, {"type": "null"}], **({"description": description} if description else {})}
