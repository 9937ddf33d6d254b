"""The model's arguments, checked against the tool's schema on every call, and each problem told in words.

The attack: a call's arguments are text a model wrote, so they are untrusted input: a wrong type, a missing or
misspelled key, a value outside an enum, a lone surrogate ("\\ud800", half a character), a 15 kB value. Each is
refused before the tool's function runs, as one message that says what is valid and repeats the model's text only as
`echo` cuts it (hardening/echo.py). Proved by tests/test_validation.py (never more lenient than jsonschema, the
reference), tests/test_dispatcher.py and tests/test_error_echo.py.

Most calls fit, so that path must cost little: fastjsonschema (it comes with nbformat) turns a schema into plain
Python code once, which checks a 15 kB argument in a fraction of a millisecond, where interpreting the schema
on every call (jsonschema) takes several. When that quick check says no, jsonschema lists every problem, so the
messages come from one place. The quick check is used only for schemas written in keywords both libraries read
alike; any other schema goes to jsonschema alone, so the two can never disagree about a call being valid.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any

import fastjsonschema
from pydantic import BaseModel
from pydantic import ValidationError as ModelError

from agentkit.hardening.echo import echo, echo_json, echo_names, json_value, python_value


def _import_jsonschema_without_the_iri_grammar() -> None:
    """jsonschema imports rfc3987_syntax where it is installed (Jupyter installs it), which compiles a grammar for
    IRIs at import: a second of CPU in every kernel. No tool schema checks the "iri" format, so it is left out
    (jsonschema then skips that one format, as wherever rfc3987_syntax is not installed). agentkit reaches
    jsonschema only through this module (tests/test_config.py checks it); if jsonschema was imported before, nothing
    changes."""
    if "jsonschema" in sys.modules or "rfc3987_syntax" in sys.modules:
        return
    sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]  # None in sys.modules makes its import fail
    try:
        import jsonschema  # noqa: F401
    finally:
        del sys.modules["rfc3987_syntax"]


_import_jsonschema_without_the_iri_grammar()

from jsonschema import Draft202012Validator, SchemaError, ValidationError  # noqa: E402  (after the workaround above)

__all__ = ["ArgumentsValidator", "CheckedArguments", "Draft202012Validator", "ModelValidator", "SchemaError",
           "allows_null", "decode_arguments", "expected_keys", "problems_in_words"]
"""The registry checks a schema with jsonschema from here; tools/strict.py reads `allows_null`."""

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


class CheckedArguments(dict):
    """A call's arguments as its tool's validator passed them, and as its handler takes them (typed values, for a
    `@tool`): the dispatcher hands these over, so a handler does not check them a second time."""


class ArgumentsValidator:
    """The check of a tool written by hand (chapter 03), built once: jsonschema over its `parameters`.
    `problems(arguments)` is empty when the arguments fit."""

    def __init__(self, parameters: dict[str, Any]) -> None:
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

    def check(self, arguments: Any) -> tuple[CheckedArguments, list[str]]:
        """The arguments, passed as they are (a handler written by hand takes JSON values), or every problem in words."""
        problems = problems_in_words(self.problems(arguments))
        return CheckedArguments({} if problems else arguments), problems


class ModelValidator:
    """A `@tool`'s one check: its pydantic model, which also makes the values its function takes (a nested object
    becomes its model, `5.0` the integer 5).

    The model reads the arguments as JSON, in pydantic's strict mode, so that it accepts what the JSON Schema shown to
    the model accepts, no more: `"5"` is not an integer, nor `true` a number (a lax model would convert both). JSON
    Schema's one leniency is kept: `5.0` is an integer, so a whole number goes to pydantic as one. A refusal is told
    in the words a tool written by hand gets (jsonschema lists the problems against the same schema, only then);
    what only pydantic refuses (a lone surrogate, a check no schema can say) in pydantic's."""

    def __init__(self, model: type[BaseModel], parameters: dict[str, Any], strict_from: dict[str, Any] | None = None) -> None:
        self.model, self.parameters = model, parameters  # `parameters`: the schema the model is shown
        self.strict_from = strict_from  # for a strict tool (chapter 10), the schema before its strict form

    def check(self, arguments: Any) -> tuple[CheckedArguments, list[str]]:
        """The function's keyword arguments, typed, or every problem in words."""
        try:
            sent = arguments if self.strict_from is None else without_unset(arguments, self.strict_from)
            if ".0" in (text := json.dumps(sent)) or "e+" in text:  # maybe a whole float: walk only then
                text = json.dumps(_whole_numbers(sent))
            parsed = self.model.model_validate_json(text, strict=True, extra="forbid")
        except (TypeError, ValueError, RecursionError) as error:  # ModelError is a ValueError; else not JSON data
            return CheckedArguments(), self._in_words(arguments, error)
        return CheckedArguments({name: getattr(parsed, name) for name in type(parsed).model_fields}), []

    @cached_property
    def _schema(self) -> ArgumentsValidator:  # built on the first refusal, to word it
        return ArgumentsValidator(self.parameters)

    def _in_words(self, arguments: Any, error: Exception) -> list[str]:
        if isinstance(error, ModelError) and (lone := _lone_surrogates(arguments)):  # pydantic read none of the text
            return [f"{where}: {LONE_SURROGATE}" for where in lone]
        if described := problems_in_words(self._schema.problems(arguments)):
            return described
        if not isinstance(error, ModelError):
            return [f"the arguments are not JSON data ({echo(str(error))})"]
        return [f"{'.'.join(map(str, item['loc'])) or 'arguments'}: {item['msg']}" for item in error.errors()]


LONE_SURROGATE = "holds a lone surrogate (half of a character, such as \\ud800), which is not text; send real characters"


def allows_null(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "null" or isinstance(kind, list) and "null" in kind or any(map(allows_null, node.get("anyOf") or []))


def without_unset(value: Any, original: dict[str, Any], defs: dict[str, Any] | None = None) -> Any:
    """Arguments sent for a strict schema, without the nulls only the strict form allowed: such a null means
    "not given", so leaving it out lets the function's own default apply, at every depth. A key left out is not
    such a null: the strict form requires every key, as the API does (ValueError; the problems are told after)."""
    defs = original.get("$defs", {}) if defs is None else defs
    if isinstance(original.get("$ref"), str):
        original = defs.get(original["$ref"].rsplit("/", 1)[-1], {})
    if isinstance(value, list) and isinstance(original.get("items"), dict):
        return [without_unset(item, original["items"], defs) for item in value]
    if not isinstance(value, dict) or not isinstance(original.get("properties"), dict):
        return value
    properties = original["properties"]
    if any(key not in value for key in properties):
        raise ValueError("a key of the strict form is missing")
    return {key: without_unset(item, properties.get(key, {}), defs) for key, item in value.items()
            if not (item is None and key in properties and not allows_null(properties[key]))}


def _whole_numbers(value: Any) -> Any:
    """`value` with each whole float (`5.0`) an int: JSON Schema counts it as an integer, pydantic's strict mode not."""
    kind = type(value)  # not isinstance: this walks every value of every call, and JSON makes exactly these types
    if kind is float:
        return int(value) if value.is_integer() else value
    if kind is dict:
        return {key: _whole_numbers(item) for key, item in value.items()}
    return [_whole_numbers(item) for item in value] if kind is list else value


def _lone_surrogates(value: Any, where: str = "", depth: int = 0) -> list[str]:
    """Where in `value` a string holds half a character (JSON can spell one: "\\ud800"), as `words.1`."""
    if depth > 100:  # deeper than pydantic reads JSON: its own message says so
        return []
    if isinstance(value, str):
        return [where or "arguments"] if any("\ud800" <= char <= "\udfff" for char in value) else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return [found for key, item in items for found in _lone_surrogates(item, f"{where}.{key}".lstrip("."), depth + 1)]


def decode_arguments(raw_arguments: Any) -> tuple[dict[str, Any], str | None]:
    """JSON text (or a dict a framework already parsed) as a dict, or what is wrong with it, to follow "arguments"."""
    if isinstance(raw_arguments, Mapping):  # already parsed: checked exactly as its JSON text would be
        try:
            raw_arguments = json.dumps(dict(raw_arguments))
        except (TypeError, ValueError, RecursionError) as error:
            return {}, f"are a dict that is not JSON data ({echo(str(error))})"
    if not isinstance(raw_arguments, str):
        return {}, f"must be a JSON object, as text (str) or already parsed (dict), got {python_value(raw_arguments)}"
    try:
        arguments = json.loads(raw_arguments if raw_arguments.strip() else "{}")  # some models send "" for no arguments
    except (ValueError, RecursionError) as error:
        # The decoder's own message may end in "at" ("Unterminated string starting at"): its position follows a colon.
        reason = f"{error.msg}: line {error.lineno} column {error.colno}" if hasattr(error, "msg") else str(error)
        return {}, f"are not valid JSON ({reason}). Send them again as one JSON object with double-quoted keys"
    if not isinstance(arguments, dict):
        return {}, f"must be a JSON object like {{\"key\": value}}, got {json_value(arguments)}"
    return arguments, None


def problems_in_words(errors: Iterable[ValidationError]) -> list[str]:
    """Each problem once, in words the model can act on (jsonschema reports each missing key on its own)."""
    return list(dict.fromkeys(_describe(error) for error in errors))


def expected_keys(parameters: dict[str, Any]) -> str:
    """`city (required), unit`: the keys a schema takes, for an error that cannot say more."""
    required = set(parameters.get("required", []))
    keys = [f"{key} (required)" if key in required else key for key in parameters.get("properties", {})]
    return ", ".join(keys) or "(none)"


def _describe(error: ValidationError) -> str:
    """One problem in words the model can act on, from jsonschema's structured error."""
    path, schema, value = _path(error.absolute_path), error.schema, error.instance
    where = f"argument '{echo(path)}'" if path else "the arguments"
    if error.validator == "required":
        missing = [key for key in error.validator_value if key not in value]
        return f"missing required argument{'s' * (len(missing) > 1)}: {echo_names(missing, path)}"
    if error.validator == "additionalProperties" and isinstance(value, dict):
        extra = sorted(set(value) - set(schema.get("properties", {})))
        valid = "arguments" if not path else f"keys in {where}"
        return (f"unexpected argument{'s' * (len(extra) > 1)}: {echo_names(extra, path)}; "
                f"valid {valid}: {', '.join(schema.get('properties', {}))}")
    if error.validator == "enum":
        return f"{where} is {echo_json(value)}; should be one of: {', '.join(map(json.dumps, error.validator_value))}"
    if error.validator in ("anyOf", "oneOf") and (inside := _errors_in_options_of_its_type(error)):
        return "; ".join(dict.fromkeys(_describe(inner) for inner in inside))
    types = error.validator_value if error.validator == "type" else _any_of_types(schema)
    if types:
        return f"{where} should be of type {' or '.join(types) if isinstance(types, list) else types}, got {json_value(value)}"
    return f"{where}: {echo(error.message, 200)}"


def _path(parts: Iterable[str | int]) -> str:
    """`points[0].x`: where in the arguments a problem is, written as a programmer would."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts).lstrip(".")


def _errors_in_options_of_its_type(error: ValidationError) -> list[ValidationError]:
    """`limit: int >= 1 | None` sent 0: the problems in the options of the value's type (0 < 1), not "int or null"."""
    wrong_type = {e.relative_schema_path[0] for e in error.context or [] if e.validator == "type" and not e.relative_path}
    return [e for e in error.context or [] if e.relative_schema_path[0] not in wrong_type]


def _any_of_types(schema: dict[str, Any]) -> list[str]:
    """`["integer", "null"]` for an optional integer: its error then says what types are valid."""
    options = schema.get("anyOf", [])
    return [option["type"] for option in options] if all("type" in option for option in options) else []


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
