"""The offline model: a deterministic stand-in for an LLM, so that every cell runs without an API key.

It is not an LLM. It is a readable decision procedure, and reading it is a good way to see what a real
model has to decide on each turn:

1. the last message is a tool result       -> answer in sentences from the results (answer.py), or retry
                                              once a call whose error says what was valid; an order found
                                              in a result is data: reported, not obeyed (unless `gullible`);
2. tools are offered and `tool_choice` allows -> score each tool's words against the question and pick
                                              the calls it asks for (choose.py), fill their arguments from
                                              the question by each parameter's name and description
                                              (fill.py); ask for a required value it cannot find;
3. the system prompt describes `FUNCTION:`  -> the same choice, written as the text line it asked for;
4. otherwise                                -> one of a few plain answers, or say honestly what it is.

Of the system prompt it follows only a role ("You are Ada, ...") and a request to be brief (instructions.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from agentkit.offline import answer
from agentkit.offline.answer import NOT_AN_LLM, PLAIN_ANSWERS, plain_answer
from agentkit.offline.choose import Offer, Planned, plan
from agentkit.offline.fill import fill
from agentkit.offline.instructions import first_sentence, introduction, not_obeyed, ordered_command, read_instructions

__all__ = ["MISTAKES", "NOT_AN_LLM", "PLAIN_ANSWERS", "OfflineModel", "Offer", "Reply", "ToolCall", "plain_answer", "plan"]

MISTAKES = ("unknown_tool", "broken_json", "not_an_object", "missing_argument", "wrong_type",
            "extra_argument", "path_outside_workspace")


@dataclass(frozen=True)
class ToolCall:
    """One call the model asks for: a tool name and its arguments as JSON text, as the API sends them."""

    name: str
    arguments: str = "{}"


@dataclass(frozen=True)
class Reply:
    """What the model decided: text, tool calls, or both."""

    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    refusal: str | None = None
    """Why it will not answer in the shape asked (`response_format`), instead of content."""
    reasoning: str | None = None
    """Thinking sent apart from the answer, as `reasoning_content` (some servers do; the base model never)."""


@dataclass(frozen=True)
class OfflineModel:
    """The decision procedure, well behaved unless one of its two bad habits is switched on."""

    unruly: str | None = None
    """A mistake (see MISTAKES) to make on a question's first tool call, as real models do (chapter 04)."""
    gullible: bool = False
    """Obey a command found in a tool result, as real models do with a well-crafted prompt injection (chapters 06-07)."""

    def __post_init__(self) -> None:
        if self.unruly is not None and self.unruly not in MISTAKES:
            raise ValueError(f"unknown mistake {self.unruly!r}; should be one of: {', '.join(MISTAKES)}")

    def respond(self, request: dict[str, Any]) -> Reply:
        reply = self._decide(request)
        if reply.content and read_instructions(request["messages"]).brief:
            return Reply(first_sentence(reply.content), reply.tool_calls)
        return reply

    def _decide(self, request: dict[str, Any]) -> Reply:
        messages = request["messages"]
        offers = [_offer_from_tool(t) for t in request.get("tools") or []]
        choice = request.get("tool_choice") or "auto"
        if messages[-1]["role"] == "tool":
            return _after_tool_results(messages, offers, self.gullible)
        question = _text(messages[-1])
        if offers and choice != "none":
            planned = plan(question, offers, choice) or _follow_up(messages, offers)
            ready = [p for p in planned if not p.missing or choice != "auto"]
            if ready:
                calls = [_written(p) for p in ready]
                return Reply(tool_calls=tuple(_make_mistake(calls, self.unruly) if self.unruly else calls))
            if planned:
                return Reply(content=answer.ask_for(planned[0].offer.name, list(planned[0].missing)))
        protocol = None if offers else _function_protocol(messages)
        if protocol:
            return _protocol_reply(messages, protocol)
        return Reply(content=introduction(read_instructions(messages), question) or plain_answer(question))


def _written(planned: Planned) -> ToolCall:
    return ToolCall(planned.offer.name, json.dumps(planned.arguments))


def _follow_up(messages: list[dict], offers: list[Offer]) -> list[Planned]:
    """"And in Paris?" after a call: the tool used last in the conversation, with the new question's values."""
    for message in reversed(messages[:-1]):
        for call in message.get("tool_calls") or []:
            offer = next((o for o in offers if o.name == call["function"]["name"]), None)
            if offer:
                arguments, missing = fill(offer.schema, _text(messages[-1]), exclude=offer.words)
                return [Planned(offer, arguments, tuple(missing))] if arguments and not missing else []
    return []


def _after_tool_results(messages: list[dict], offers: list[Offer], gullible: bool = False) -> Reply:
    turn_start = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    asked = messages[turn_start].get("tool_calls") or []
    made = {c["id"]: (c["function"]["name"], _arguments(c["function"]["arguments"])) for c in asked}
    results = [(*made.get(m.get("tool_call_id"), ("tool", {})), _text(m)) for m in messages[turn_start + 1:]]
    question_at = max(i for i, m in enumerate(messages) if m["role"] == "user")
    question, earlier = _text(messages[question_at]), messages[question_at + 1: turn_start]
    first_turn = not any(m["role"] == "assistant" for m in earlier)
    if any(content.startswith("Error:") for *_, content in results) and offers and first_turn:
        # A model reads the error and tries again once, if it now has a different call to make.
        retry = _corrected(results, offers) or [_written(p) for p in plan(question, offers) if not p.missing]
        if retry and [(c["function"]["name"], c["function"]["arguments"]) for c in asked] != [
                (c.name, c.arguments) for c in retry]:
            return Reply(tool_calls=tuple(retry))
    runner = next((o.name for o in offers if "command" in o.schema.get("properties", {})), None)
    ordered = ordered_command([content for *_, content in results]) if runner else None
    if ordered and gullible and first_turn:
        # Prompt injection: text inside a tool result is obeyed as if the user had asked for it.
        return Reply(tool_calls=(ToolCall(runner, json.dumps({"command": ordered})),))
    said = answer.sentences(results)
    return Reply(content=f"{said}\n\n{not_obeyed(ordered)}" if ordered and not gullible else said)


def _corrected(results: list[tuple[str, dict, str]], offers: list[Offer]) -> list[ToolCall]:
    """The failed calls again, with each wrong value swapped for the valid one the error names, if it names one."""
    calls = []
    for name, arguments, content in results:
        valid = _valid_values(content) if content.startswith("Error:") else []
        fixed = dict(arguments)
        for key, value in arguments.items():
            ranked = sorted((_likeness(value, v), v) for v in valid if isinstance(value, str) and v != value)
            better = ranked[-1][1] if ranked and ranked[-1][0] > 0 else None
            if better:
                fixed[key] = better
        if fixed == arguments and content.startswith("Error:"):
            return []  # nothing this error says can fix this call
        calls.append(ToolCall(name, json.dumps(fixed)))
    return calls if any(o.name in {c.name for c in calls} for o in offers) else []


def _valid_values(error: str) -> list[str]:
    """The values an error message lists as valid: "should be one of: a, b", "such as Asia/Tokyo", "e.g. km"."""
    listed = re.search(r"(?:one of|valid (?:values|options|units)(?: are)?|such as|e\.g\.|for example)\s*:?\s*(.+)", error, re.I)
    if not listed:
        return []
    return [v.strip(" '\"`.()") for v in re.split(r",|\bor\b|\band\b", listed.group(1)) if v.strip(" '\"`.()")]


def _likeness(wrong: str, valid: str) -> int:
    """How surely a valid value is the one meant: "Celsius" is "celsius", "Tokyo" "Asia/Tokyo", "miles" "mi"."""
    a, b = wrong.lower().replace(" ", "_"), valid.lower()
    if a == b or b.endswith("/" + a):
        return 100
    if len(b) >= 2 and a.startswith(b) or len(a) >= 2 and b.startswith(a):
        return min(len(a), len(b))  # the longest shared beginning wins: "miles" is "mi" rather than "m"
    return 0


def _arguments(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _function_protocol(messages: list[dict]) -> list[Offer] | None:
    """Tools described in a system prompt as `FUNCTION: name(args)` lines, if there are any."""
    system = "\n".join(_text(m) for m in messages if m["role"] == "system")
    offers = []
    for name, args in dict(re.findall(r"FUNCTION:\s*([A-Za-z_]\w*)\(([^)]*)\)", system)).items():
        lines = " ".join(line for line in system.splitlines() if name in line)
        properties = {}
        for arg in filter(None, (a.strip() for a in args.split(","))):
            is_text = arg[0] in "\"'"
            properties[arg.strip("\"'")] = {"type": "string" if is_text else "number"}
        offers.append(Offer(name, lines, {"properties": properties, "required": list(properties)}))
    return offers or None


def _protocol_reply(messages: list[dict], offers: list[Offer]) -> Reply:
    previous = messages[-2] if len(messages) > 1 else {}
    if previous.get("role") == "assistant" and "FUNCTION:" in _text(previous):
        tool, args = re.search(r"FUNCTION:\s*(\w+)\((.*)\)", _text(previous)).groups()
        offer = next((o for o in offers if o.name == tool), None)
        names = list(offer.schema["properties"] if offer else {})
        values = _positional(args)  # as many as the model wrote, which need not be one per parameter
        result = re.sub(r"^\s*RESULT:\s*", "", _text(messages[-1]))
        return Reply(content=answer.sentences([(tool, dict(zip(names, values, strict=False)), result)]))
    calls = [p for p in plan(_text(messages[-1]), offers) if not p.missing]
    if not calls:
        return Reply(content=plain_answer(_text(messages[-1])))
    args = ", ".join(json.dumps(v) for v in calls[0].arguments.values())
    # Like a real model that is not stopped, it goes on to invent the result: the `stop` sequence is the cure.
    invented = "10:42 AM" if "time" in calls[0].offer.name else "42"
    return Reply(content=f"FUNCTION: {calls[0].offer.name}({args})\nRESULT: {invented}\nThe answer is {invented}.")


def _positional(args: str) -> list[Any]:
    """The values of a `FUNCTION: name(a, "b")` line, as JSON reads them (a bare word stays text)."""
    try:
        return json.loads(f"[{args}]")
    except ValueError:
        return [a.strip().strip("\"'") for a in args.split(",") if a.strip()]


def _make_mistake(calls: list[ToolCall], mistake: str) -> list[ToolCall]:
    first, arguments = calls[0], json.loads(calls[0].arguments)
    key = next(iter(arguments), "value")
    if mistake == "unknown_tool":
        parts = first.name.split("_")
        name = "_".join(parts[::len(parts) - 1] if len(parts) > 2 else parts[::-1])  # get_current_time -> get_time
        wrong = [ToolCall(name if name != first.name else f"{name}_tool", first.arguments)]
    elif mistake == "broken_json":
        wrong = [ToolCall(first.name, first.arguments[:-1])]
    elif mistake == "not_an_object":
        wrong = [ToolCall(first.name, json.dumps(list(arguments.values())))]
    elif mistake == "missing_argument":
        wrong = [ToolCall(first.name, json.dumps({k: v for k, v in arguments.items() if k != key}))]
    elif mistake == "wrong_type":
        value = arguments.get(key)
        wrong = [ToolCall(first.name, json.dumps({**arguments, key: str(value) if isinstance(value, (int, float)) else 42}))]
    elif mistake == "extra_argument":
        wrong = [ToolCall(first.name, json.dumps({**arguments, "verbose": True}))]
    else:  # path_outside_workspace: climb out of the folder the path argument is relative to
        key = next((k for k in arguments if "path" in k or "file" in k), key)
        wrong = [ToolCall(first.name, json.dumps({**arguments, key: "../" + str(arguments.get(key, "secret.txt"))}))]
    return wrong + calls[1:]


def _offer_from_tool(tool: dict) -> Offer:
    function = tool["function"]
    return Offer(function["name"], function.get("description") or "", function.get("parameters") or {})


def _text(message: dict) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):  # content parts: keep the text ones
        return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content
