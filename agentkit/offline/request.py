"""A request's body as the API reads it, and the error object it answers a bad one with.

A malformed request is the client's mistake, so it gets the API's own error shape, never a 500 or a crash:
the model behind the server only ever sees requests that passed the checks of `contract.py`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from agentkit.hardening.echo import echo

ToolChoiceMode = Literal["auto", "none", "required"]
"""`tool_choice` as a word: the model decides, calls no tool, or must call one."""
ToolChoice = ToolChoiceMode | dict[str, Any]
"""A mode, or one tool named: {"type": "function", "function": {"name": ...}}."""


@dataclass(frozen=True)
class HttpReply:
    status: int
    content_type: str
    chunks: Iterable[bytes] | bytes
    headers: tuple[tuple[str, str], ...] = ()
    """Extra headers, such as `allow` on a 405."""
    steps: int = 1
    """How many chunks the model writes the reply in: a server that paces generation waits this many times."""


class ApiError(Exception):
    """An HTTP error in the API's own format; the openai SDK turns it into BadRequestError and friends."""

    def __init__(self, status: int, message: str, param: str | None = None, code: str | None = None, allow: str | None = None):
        super().__init__(message)
        self.status, self.message, self.param, self.code = status, message, param, code
        self.allow = allow  # the methods a 405 names in its `allow` header

    def reply(self, *headers: tuple[str, str]) -> HttpReply:
        """The error as the API answers it: its status, the error object as JSON, and these headers."""
        kind = "invalid_request_error" if self.status < 500 else "server_error"
        error = {"message": self.message, "type": kind, "param": self.param, "code": self.code}
        allow = (("allow", self.allow),) if self.allow else ()
        return HttpReply(self.status, "application/json", json.dumps({"error": error}).encode(), (*allow, *headers))


def read_json(body: bytes) -> dict[str, Any]:
    """The body as a JSON object, or the ApiError (400) the real API sends for one that is not."""
    try:
        request = json.loads(body)
    except (ValueError, RecursionError) as error:  # ValueError covers bytes that are not UTF-8 too
        raise ApiError(400, f"We could not parse the JSON body of your request: {echo(str(error), 200)}") from None
    if not isinstance(request, dict):
        raise ApiError(400, f"The request body must be a JSON object, but got {json_kind(request)} instead.")
    return request


def json_kind(value: Any) -> str:
    """`an integer`, `a string`, `null`: a JSON value's type as the API names it."""
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array", dict: "an object"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def functions_of(request: dict) -> list[dict]:
    """The functions a request offers as tools ({"name", "description", "parameters"} each), in order."""
    return [t["function"] for t in request.get("tools") or []]


def calls_in(messages: list[dict]) -> list[dict]:
    """Every call the assistant messages among `messages` made, in order: {"id", "type", "function"} each."""
    return [c for m in messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]


def parsed(text: str) -> Any:
    """JSON text as its value (a call's arguments, say); None when it is not JSON."""
    try:
        return json.loads(text)
    except ValueError:
        return None
