"""Structured outputs (chapter 10): `response_format`, `strict` schemas and `parallel_tool_calls`, as the API does them.

Three things a real server does around the model, so they are done here around any model (the offline one,
a variant, a scripted one) by `check` before it answers and `constrained` after (`answered` does both, for
`/v1/chat/completions` and `/v1/responses` alike):

- a `strict: true` schema must be one the API can enforce: every object closed (`additionalProperties:
  false`) and every property required (optional ones are nullable). Anything else is a 400, like the real API;
- with `response_format={"type": "json_schema", ...}` the answer is JSON filled from the question the way
  tool arguments are (`fill.py`). A required value the question does not give is a refusal when the schema
  is strict (the model says so in `message.refusal`), and is left out when it is not (the client's check fails);
- `parallel_tool_calls=False`: one call per reply, the first.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from agentkit.offline.fill import fill
from agentkit.offline.model import Reply
from agentkit.offline.reading import message_text
from agentkit.offline.request import ApiError
from agentkit.tools.strict import strict_problem

if TYPE_CHECKING:
    from agentkit.offline.protocol import Model


def answered(model: Model, request: dict[str, Any]) -> Reply:
    """The model's reply to a parsed Chat Completions request, checked before and constrained after, as the API
    does: the one path of both endpoints (`/v1/responses` converts its request to this shape first)."""
    check(request)
    return constrained(request, model.respond(request))


def check(request: dict[str, Any]) -> None:
    """The 400 the real API sends for a strict schema it cannot enforce, or a response_format it does not know."""
    for i, tool in enumerate(request.get("tools") or []):
        function = tool["function"]
        if function.get("strict"):
            _check_strict(function.get("parameters") or {}, f"function '{function['name']}'", f"tools[{i}].function.parameters")
    response_format = request.get("response_format")
    if response_format is None:
        return
    kind = response_format.get("type") if isinstance(response_format, dict) else None
    if kind == "json_schema":
        spec = response_format.get("json_schema")
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not isinstance(spec.get("schema"), dict):
            raise ApiError(400, "Invalid 'response_format.json_schema': expected an object with a 'name' (string) and "
                                "a 'schema' (a JSON Schema object).", "response_format.json_schema")
        if spec.get("strict"):
            _check_strict(spec["schema"], f"response_format '{spec['name']}'", "response_format.json_schema.schema")
    elif kind == "json_object":
        if "json" not in json.dumps(request["messages"]).lower():  # the real API's rule, against endless whitespace
            raise ApiError(400, "'messages' must contain the word 'json' in some form, to use 'response_format' of "
                                "type 'json_object'.", "messages")
    elif kind != "text":
        raise ApiError(400, f"Invalid value for 'response_format.type': {json.dumps(kind)}; should be one of: text, "
                            "json_object, json_schema.", "response_format.type")


def _check_strict(schema: dict[str, Any], owner: str, param: str) -> None:
    problem = strict_problem(schema)
    if problem:
        raise ApiError(400, f"Invalid schema for {owner}: {problem}", param, code="invalid_function_parameters")


def constrained(request: dict[str, Any], reply: Reply) -> Reply:
    """The reply as the server lets it out: one call if parallel calls are off, JSON of the asked shape."""
    if request.get("parallel_tool_calls") is False and len(reply.tool_calls) > 1:
        reply = replace(reply, tool_calls=reply.tool_calls[:1])
    response_format = request.get("response_format") or {}
    if reply.tool_calls or response_format.get("type") not in ("json_schema", "json_object"):
        return reply
    text = _asked(request["messages"])
    if response_format["type"] == "json_object":
        return Reply(content=json.dumps({"answer": reply.content or ""}))
    spec = response_format["json_schema"]
    schema = plain(spec["schema"], spec["schema"].get("$defs") or {})
    values, missing = fill(schema, text)
    from jsonschema import Draft202012Validator  # here, not at import: importing jsonschema takes most of a second

    # A value of the wrong shape (a list of objects, say) is not one the model could give: treated as not found.
    wrong = {str(error.path[0]) for error in Draft202012Validator(schema).iter_errors(values) if error.path}
    values = {name: value for name, value in values.items() if name not in wrong}
    missing = [*missing, *(name for name in wrong if name in schema.get("required", []))]
    if missing and spec.get("strict"):
        names = [m.replace("_", " ") for m in missing]
        what = f"{names[0]} is" if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]} are"
        return Reply(refusal=f"I cannot fill in {spec['name']}: the message does not say what {what}.")
    return Reply(content=json.dumps(values, ensure_ascii=False))


def plain(schema: Any, defs: dict[str, Any]) -> Any:
    """The schema with `$ref`s inlined and `anyOf: [X, null]` written as X with a nullable type, as `fill` reads it."""
    if isinstance(schema, list):
        return [plain(item, defs) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if isinstance(schema.get("$ref"), str):
        referenced = defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
        return plain({**referenced, **{k: v for k, v in schema.items() if k != "$ref"}}, defs)
    options = schema.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        other = plain(next(o for o in options if o != {"type": "null"}), defs)
        kind = other.get("type")
        if isinstance(kind, str):
            rest = {k: v for k, v in schema.items() if k != "anyOf"}
            return {**other, **rest, "type": [kind, "null"]}
    return {key: (value if key in ("enum", "const", "default", "required") else plain(value, defs))
            for key, value in schema.items() if key != "$defs"}


def _asked(messages: list[dict[str, Any]]) -> str:
    """The text the answer is filled from: the last question, and any tool results after it."""
    start = max(i for i, m in enumerate(messages) if m["role"] == "user")
    return "\n".join(message_text(m) for m in messages[start:] if m["role"] in ("user", "tool"))
