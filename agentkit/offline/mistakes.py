"""The unruly mode (chapter 04): the mistakes real models make in a tool call, made on purpose, one a model.

Switched on with `OfflineModel(unruly=...)` (or `connect_offline(unruly=...)`), the model makes the named mistake
on a question's first tool call, so that the dispatcher has something to catch.
"""

from __future__ import annotations

import json
from typing import Literal, get_args

from agentkit.offline.reply import EmittedCall

Mistake = Literal["unknown_tool", "broken_json", "not_an_object", "missing_argument", "wrong_type",
                  "extra_argument", "path_outside_workspace"]
"""Each mistake the unruly mode can make."""

MISTAKES: tuple[Mistake, ...] = get_args(Mistake)
"""The same, as values: what `unruly=` accepts."""


def make_mistake(calls: list[EmittedCall], mistake: Mistake) -> list[EmittedCall]:
    """`calls` with the first one made wrong in the way `mistake` names."""
    first, arguments = calls[0], json.loads(calls[0].arguments)
    key = next(iter(arguments), "value")
    path = next((k for k in arguments if "path" in k or "file" in k), key)  # the path argument, to climb out of its folder
    value = arguments.get(key)
    parts = first.name.split("_")
    renamed = "_".join(parts[::len(parts) - 1] if len(parts) > 2 else parts[::-1])  # get_current_time -> get_time
    name, written = {
        "unknown_tool": (renamed if renamed != first.name else f"{renamed}_tool", first.arguments),
        "broken_json": (first.name, first.arguments[:-1]),
        "not_an_object": (first.name, json.dumps(list(arguments.values()))),
        "missing_argument": (first.name, json.dumps({k: v for k, v in arguments.items() if k != key})),
        "wrong_type": (first.name, json.dumps({**arguments, key: str(value) if isinstance(value, (int, float)) else 42})),
        "extra_argument": (first.name, json.dumps({**arguments, "verbose": True})),
        "path_outside_workspace": (first.name, json.dumps({**arguments, path: "../" + str(arguments.get(path, "secret.txt"))})),
    }[mistake]
    return [EmittedCall(name, written), *calls[1:]]
