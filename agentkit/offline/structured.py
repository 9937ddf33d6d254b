"""Structured outputs (chapter 10): `response_format`, `strict` schemas and `parallel_tool_calls`, as the API does them.

What a real server does around the model, done here around any model (the offline one, a variant, a scripted
one) by `constrained` after it answers, for `/v1/chat/completions` and `/v1/responses` alike (a schema `strict`
cannot enforce was refused before, by `contract_rules.py`):

- with `response_format={"type": "json_schema", ...}` the answer is JSON filled from the question the way
  tool arguments are (`fill.py`). A required value the question does not give is a refusal when the schema
  is strict (the model says so in `message.refusal`), and is left out when it is not (the client's check fails);
- `parallel_tool_calls=False`: one call per reply, the first.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from agentkit.offline.fill import fill
from agentkit.offline.language import is_chinese
from agentkit.offline.model import Reply
from agentkit.offline.reading import message_text
from agentkit.offline.roles import json_type
from agentkit.offline.wording import join, say


def constrained(request: dict[str, Any], reply: Reply) -> Reply:
    """The reply to a Chat Completions request that passed `contract.py` as the server lets it out, for both endpoints
    (`/v1/responses` converts its request to this shape first): one call if parallel calls are off, JSON of the asked
    shape."""
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
    # a list the message names nothing for is empty, not missing: "new contact: Joe Bloggs" has no tags
    empty = [name for name in missing if json_type((schema.get("properties") or {}).get(name) or {}) == "array"]
    values = {name: [] if name in empty else values.get(name) for name in schema.get("properties") or {}
              if name in values or name in empty}
    missing = [name for name in missing if name not in empty]
    from agentkit.hardening.arguments import Draft202012Validator  # here, not at import: jsonschema takes a while

    # A value of the wrong shape (a list of objects, say) is not one the model could give: treated as not found.
    wrong = {str(error.path[0]) for error in Draft202012Validator(schema).iter_errors(values) if error.path}
    values = {name: value for name, value in values.items() if name not in wrong}
    if (missing := [*missing, *(name for name in wrong if name in schema.get("required", []))]) and spec.get("strict"):
        names, language = [m.replace("_", " ") for m in missing], "zh" if is_chinese(text) else "en"
        listed, be = "、".join(names) if language == "zh" else join(names), "is" if len(names) == 1 else "are"
        return Reply(refusal=say("cannot_fill", language, form=spec["name"], names=listed, be=be))
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
            return {**other, **{k: v for k, v in schema.items() if k != "anyOf"}, "type": [kind, "null"]}
    return {key: (value if key in ("enum", "const", "default", "required") else plain(value, defs))
            for key, value in schema.items() if key != "$defs"}


def _asked(messages: list[dict[str, Any]]) -> str:
    """The text the answer is filled from: the last question, and any tool results after it."""
    start = max(i for i, m in enumerate(messages) if m["role"] == "user")
    return "\n".join(message_text(m) for m in messages[start:] if m["role"] in ("user", "tool"))
