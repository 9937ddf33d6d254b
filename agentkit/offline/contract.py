"""What a request may look like, taken from the request types the `openai` SDK ships, checked with pydantic.

The SDK describes every request as TypedDicts (`openai.types.chat.completion_create_params`,
`openai.types.responses.response_create_params`): which fields exist, which are required, their types and their
allowed values. Validating a request against them refuses what the API documents it refuses, without a copy of
the API reference of our own. Four adjustments make pydantic read them as the API does:

- `Iterable[X]` is validated as `list[X]`: pydantic checks an iterable only when it is consumed, too late;
- a union of objects told apart by one field (`role` for messages, `type` for tools and parts) is validated as
  a *discriminated* union, so an error names that member's field, not every member's;
- a field typed `Required[Optional[X]]` may be left out: the API reads it absent as null (a Responses
  function tool without `strict`);
- the API's bounds on one field that the types do not state (a function's name, no empty `messages`, at most 128
  tools, numbers in range) are added to them as constraints, from the lexicon's `[contract.bounds]`.

Unknown fields are ignored, as most OpenAI-compatible servers do (OpenAI's own refuses them); the rules the
types cannot say are `contract_rules.py`. Each refusal is an `ApiError` in the provider's words.
"""

from __future__ import annotations

import collections.abc
import functools
import json
import operator
import re
import types
import typing
from typing import Any

from agentkit.offline.contract_rules import chat_rules, responses_rules
from agentkit.offline.lexicon import words
from agentkit.offline.request import ApiError, json_kind

_CONTRACT = words("answers")["contract"]
_KINDS, _BOUNDS, _FUNCTION_NAME, _SAID = (_CONTRACT[key] for key in ("kinds", "bounds", "function_name", "bounds_said"))
"""pydantic's error types (`string_type`, ...) as the API names JSON's types; the bounds the types do not state, a
function's name's among them; pydantic's error for each bound -> the refusal that says it."""


def check_chat(request: dict[str, Any]) -> None:
    """Refuse a Chat Completions request as the API would: its types first, then the rules types cannot say."""
    _check("chat", request, chat_rules)


def check_responses(request: dict[str, Any]) -> None:
    """Refuse a Responses request as the API would: its types first, then the rules types cannot say."""
    _check("responses", request, responses_rules)


def _check(endpoint: str, request: dict[str, Any], rules: collections.abc.Callable[[dict[str, Any]], None]) -> None:
    from pydantic import ValidationError

    if request.get("model") is None:  # the API's own words for the commonest omission
        raise ApiError(400, "you must provide a model parameter", "model")
    try:
        _adapter(endpoint).validate_python(request, strict=True)
    except ValidationError as invalid:
        raise _api_error(invalid.errors(include_url=False), request) from None
    rules(request)


@functools.cache
def _adapter(endpoint: str) -> Any:
    """The TypeAdapter for one endpoint's request type: built on first use (it takes a few tenths of a second),
    then kept, so each request costs only the validation."""
    import typing_extensions as tx
    from pydantic import TypeAdapter

    if endpoint == "chat":
        from openai.types.chat.completion_create_params import CompletionCreateParamsBase as params
    else:
        from openai.types.responses.response_create_params import ResponseCreateParamsBase as params

    class Streamed(tx.TypedDict, total=False):  # the SDK types `stream` in two subclasses, false and true: one here
        stream: bool | None

    fields = typing.get_type_hints(_eager(params), include_extras=True) | typing.get_type_hints(Streamed)
    return TypeAdapter(tx.TypedDict(params.__name__, fields, total=False))  # type: ignore[operator]


def _eager(hint: Any) -> Any:
    """`hint` rewritten so that pydantic checks all of it now, and names the one member of a union that applies."""
    import typing_extensions as tx
    from pydantic import Field

    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if tx.is_typeddict(hint):
        return _typed_dict(hint)
    if origin is typing.Annotated:
        return typing.Annotated[(_eager(args[0]), *hint.__metadata__)]
    if origin in (collections.abc.Iterable, collections.abc.Sequence, list) or getattr(origin, "__name__", "") == (
            "SequenceNotStr"):
        return list[_eager(args[0])]
    if origin is dict:
        return dict[args[0], _eager(args[1])]
    if origin in (typing.Union, types.UnionType):
        members = [_eager(arg) for arg in args if arg is not type(None)]
        objects = [member for member in members if "type" in getattr(member, "__tag_values__", ())]
        objects = objects if len(objects) > 1 and _tag(objects) else [m for m in members if hasattr(m, "__tag_values__")]
        if len(objects) > 1 and (tag := _tag(objects)):  # those objects as one member, told apart by their tag
            tagged = typing.Annotated[functools.reduce(operator.or_, objects), Field(discriminator=tag)]
            members = [member for member in members if member not in objects] + [tagged]
        union = functools.reduce(operator.or_, members)
        return union | None if type(None) in args else union
    return hint


@functools.cache
def _typed_dict(kind: type) -> Any:
    import typing_extensions as tx

    fields, tags, where = {}, {}, f"{kind.__module__.rpartition('.')[2]}.{kind.__qualname__}"
    for name, hint in typing.get_type_hints(kind, include_extras=True).items():
        # Read from the hint: with postponed annotations, `__required_keys__` does not see `Required[...]`.
        required = name in kind.__required_keys__ or typing.get_origin(hint) in (tx.Required, typing.Required)
        while typing.get_origin(hint) in (tx.Required, tx.NotRequired, typing.Required, typing.NotRequired):
            hint = typing.get_args(hint)[0]  # the type inside `Required[...]` / `NotRequired[...]`
        if required and typing.get_origin(hint) is typing.Literal:
            tags[name] = typing.get_args(hint)
        required = required and type(None) not in typing.get_args(hint)  # absent reads as null
        named = name == "name" and where in _FUNCTION_NAME["types"]
        hint = _bounded(_eager(hint), _FUNCTION_NAME["bounds"] if named else _BOUNDS.get(f"{where}.{name}"))
        fields[name] = tx.Required[hint] if required else tx.NotRequired[hint]
    eager = tx.TypedDict(kind.__name__, fields, total=False)  # type: ignore[operator]
    eager.__tag_values__ = tags  # type: ignore[attr-defined]
    return eager


def _bounded(hint: Any, bounds: dict[str, Any] | None) -> Any:
    """`hint` with the API's bounds on it as pydantic constraints: on each member of a union but None, a length on
    its lists only (`stop` may be a string of any length)."""
    from pydantic import Field

    if not bounds:
        return hint
    members = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    lists = [member for member in members if typing.get_origin(member) is list]
    bounded = [typing.Annotated[member, Field(**bounds)] if member in (lists or members) and member is not type(None)
               else member for member in members]
    return functools.reduce(operator.or_, bounded)


def _tag(members: list[Any]) -> str | None:
    """The field whose literal value tells these objects apart (`role`, `type`), if every one of them has it."""
    tags = [getattr(member, "__tag_values__", None) for member in members]
    if not all(tags):
        return None
    for name in ("role", "type"):
        values = [value for tag in tags for value in tag.get(name, ())]  # type: ignore[union-attr]
        if all(name in tag for tag in tags) and len(values) == len(set(values)):  # type: ignore[operator]
            return name
    return None


def _api_error(errors: list[dict[str, Any]], request: dict[str, Any]) -> ApiError:
    """pydantic's most specific error as the API words it: `Invalid type for 'messages[0].content': ...`. A union that
    no member accepts gives one error per member: the one that reached deepest into the value is about the member the
    value was meant to be."""
    located = [(error, *_located(error["loc"], request, missing=error["type"] == "missing")) for error in errors]
    first, where, value, _ = max(located, key=lambda found: (found[1].count(".") + found[1].count("["), found[3],
                                                            found[0]["type"] in _SAID))  # a bound over a member's type
    kind = first["type"]
    if said := _SAID.get(kind):  # a bound of [contract.bounds], in the API's words
        bound = first["ctx"].get("ge", first["ctx"].get("le"))
        context = first["ctx"] | {"got": json.dumps(value), "length": len(value) if isinstance(value, str | list) else 0,
                                  "number": "decimal" if isinstance(bound, float) else "integer"}
        context |= {key: text.format(**context) for key, text in said.items()}
        return ApiError(400, _CONTRACT["refusals"][said["refusal"]].format(where=where, **context), where, context["code"])
    if kind in ("missing", "union_tag_not_found"):
        name = f"{where}.{first['ctx']['discriminator'].strip(chr(39))}" if kind == "union_tag_not_found" else where
        return ApiError(400, _CONTRACT["refusals"]["missing"].format(where=name), name, "missing_required_parameter")
    if kind in ("literal_error", "union_tag_invalid"):
        if kind == "union_tag_invalid":
            where, value = f"{where}.{first['ctx']['discriminator'].strip(chr(39))}", first["ctx"]["tag"]
        allowed = re.findall(r"'[^']*'", first["ctx"].get("expected") or first["ctx"].get("expected_tags", ""))
        listed = allowed[0] if len(allowed) == 1 else f"{', '.join(allowed[:-1])}{',' * (len(allowed) > 2)} and {allowed[-1]}"
        shown = repr(value) if isinstance(value, str) else json.dumps(value)  # a string in quotes, any other value as JSON
        return ApiError(400, f"Invalid value: {shown}. Supported values are: {listed}.", where, "invalid_value")
    expected = sorted({_KINDS.get(error["type"].removesuffix("_type"), "an object") for error, at, _, _ in located
                       if error["type"].endswith("_type") and at == where})
    wanted = expected[0] if len(expected) == 1 else f"one of {', '.join(expected[:-1])} or {expected[-1]}"
    if expected:
        return ApiError(400, f"Invalid type for '{where}': expected {wanted}, but got {json_kind(value)} instead.", where,
                        "invalid_type")
    return ApiError(400, f"Invalid value for '{where}': {first['msg']}.", where, "invalid_value")


def _located(loc: tuple[Any, ...], request: Any, missing: bool = False) -> tuple[str, Any, int]:
    """pydantic's location as the API's param (`messages[1].tool_calls[0].function`), the value found there, and how
    many of the union members it went through are the ones the value's own tag names. A location also names the union
    member it tried (`list[...]`, a tag such as `user`): only the keys and indexes that exist in the request are kept,
    and a missing key at the end."""
    where, value, tagged = "", request, 0
    for step, part in enumerate(loc):
        if isinstance(value, list) and isinstance(part, int) and part < len(value):
            where, value = f"{where}[{part}]", value[part]
        elif isinstance(value, dict) and isinstance(part, str) and (part in value or missing and step == len(loc) - 1):
            where, value = f"{where}.{part}".lstrip("."), value.get(part)
        elif isinstance(value, dict) and part in (value.get("type"), value.get("role")):
            tagged += 1
    return where, value, tagged
