"""The offline model: a deterministic stand-in for an LLM, so that every cell runs without an API key.

It is not an LLM. It is a short decision procedure, and reading it is a good way to see what a real
model has to decide on each turn:

1. the last message is a tool result       -> answer from the results (or retry a call that went wrong);
2. tools are offered and `tool_choice` allows -> call the tools whose words match the question;
3. the system prompt describes `FUNCTION:`  -> the same choice, written as the text line it asked for;
4. otherwise                                -> one of a few plain answers, or say honestly what it is.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from agentkit.offline import reading

MISTAKES = ("unknown_tool", "broken_json", "not_an_object", "missing_argument", "wrong_type",
            "extra_argument", "path_outside_workspace")

PLAIN_ANSWERS = [
    ({"caffeine", "tea"}, "A cup of green tea (about 240 ml) has roughly 30-50 mg of caffeine, "
                          "about a third of a cup of coffee."),
    ({"time"}, "I can't know the current time: I am a language model, with no clock and no internet. "
               "Give me a tool that reads the clock and I can use it."),
    ({"capital", "france"}, "The capital of France is Paris."),
    ({"hello"}, "Hello! I am the course's offline model. Ask me something, or offer me a tool."),
]
NOT_AN_LLM = ("I am the offline model: a small deterministic stand-in for an LLM that this course uses when "
              "no MODEL_API_KEY is set. I answer a few fixed questions and call the tools you offer me; "
              "for anything else, set MODEL_API_KEY in .env and talk to a real model.")


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


@dataclass(frozen=True)
class Offer:
    """A tool as the model sees it, from `tools=` or from a `FUNCTION:` system prompt."""

    name: str
    words: frozenset[str]
    schema: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class OfflineModel:
    """The decision procedure. `unruly` names a mistake (see MISTAKES) to make on a question's first call."""

    unruly: str | None = None

    def __post_init__(self) -> None:
        if self.unruly is not None and self.unruly not in MISTAKES:
            raise ValueError(f"unknown mistake {self.unruly!r}; should be one of: {', '.join(MISTAKES)}")

    def respond(self, request: dict[str, Any]) -> Reply:
        messages = request["messages"]
        offers = [_offer_from_tool(t) for t in request.get("tools") or []]
        choice = request.get("tool_choice") or "auto"
        if messages[-1]["role"] == "tool":
            return _after_tool_results(messages, offers)
        question = _text(messages[-1])
        if offers and choice != "none":
            calls = plan(question, offers, choice)
            if calls:
                return Reply(tool_calls=tuple(_make_mistake(calls, self.unruly) if self.unruly else calls))
        protocol = None if offers else _function_protocol(messages)
        if protocol:
            return _protocol_reply(messages, protocol)
        return Reply(content=plain_answer(question))


def plan(question: str, offers: list[Offer], choice: Any = "auto") -> list[ToolCall]:
    """Which tools to call, with which arguments: one call per clause of the question that needs one."""
    if isinstance(choice, dict):  # {"type": "function", "function": {"name": ...}}: that tool, whatever the words
        offer = next(o for o in offers if o.name == choice["function"]["name"])
        return [_call(offer, question)]
    calls: list[ToolCall] = []
    previous: Offer | None = None
    for clause in _clauses(question):
        asked = set(reading.words(clause))
        # Most shared words wins; on a tie, the words of the tool's name decide ("time" in get_current_time
        # says more than "times" in another tool's description); then the order the tools were offered in.
        scores = [(len(o.words & asked), len(set(reading.words(o.name)) & asked), -i, o) for i, o in enumerate(offers)]
        score, _, _, best = max(scores, key=lambda s: s[:3])
        offer = best if score > 0 else previous
        # "...in Tokyo and in Paris": a clause with no tool words but new values is another call of the last tool.
        call = _call(offer, clause) if offer else None
        if call and (score > 0 or call.arguments != "{}") and call not in calls:
            calls.append(call)
        previous = offer
    if not calls and choice == "required":
        calls = [_call(offers[0], question)]
    return calls


def plain_answer(question: str) -> str:
    asked = set(reading.words(question))
    return next((answer for keys, answer in PLAIN_ANSWERS if keys <= asked), NOT_AN_LLM)


def _clauses(question: str) -> list[str]:
    # Split on "and", commas and "then", but never inside a quoted string: the same "..." or “...” that
    # `reading.quoted_strings` finds, so that a quoted value stays whole in its clause.
    quoted = [match.group(0) for match in reading.QUOTED.finditer(question)]
    masked = reading.QUOTED.sub("\0", question)
    parts = re.split(r",|;|\band\b|\bthen\b", masked)
    restored = []
    for part in parts:
        while "\0" in part:
            part = part.replace("\0", quoted.pop(0), 1)
        restored.append(part)
    return [p for p in restored if p.strip()]


def _call(offer: Offer, text: str) -> ToolCall:
    properties = offer.schema.get("properties", {})
    found = {"number": reading.numbers(text), "quoted": reading.quoted_strings(text),
             "path": reading.paths(text), "pattern": reading.patterns(text), "zone": reading.time_zones(text)}
    arguments = {}
    for name, spec in properties.items():
        value = _value_for(name, spec, text, found, exclude=offer.words)
        if value is not None:
            arguments[name] = value
    return ToolCall(offer.name, json.dumps(arguments))


def _value_for(name: str, spec: dict, text: str, found: dict[str, list], exclude: frozenset[str]) -> Any:
    """One argument's value, read from the text by what the schema says it is."""
    hint = f"{name} {spec.get('description', '')}".lower()
    kind = spec.get("type")
    if "enum" in spec:
        asked = set(reading.words(text))
        return next((v for v in spec["enum"] if reading.words(str(v)) and set(reading.words(str(v))) <= asked), None)
    if kind in ("number", "integer"):
        return _take(found["number"], int if kind == "integer" else float)
    if kind != "string":
        return None
    if "zone" in hint or name in ("tz", "timezone"):
        return _take(found["zone"])
    if "pattern" in hint or "glob" in name:
        return _take(found["pattern"])
    if "path" in name or "file" in name:
        return _take(found["path"])
    if found["quoted"]:
        return found["quoted"].pop(0)
    if name in ("query", "question", "text", "topic", "q"):
        return reading.key_phrase(text, set(exclude)) or None
    return None


def _take(values: list, convert=lambda v: v) -> Any:
    if not values:
        return None
    value = convert(values.pop(0))
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _after_tool_results(messages: list[dict], offers: list[Offer]) -> Reply:
    turn_start = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    asked = messages[turn_start].get("tool_calls") or []
    names = {c["id"]: c["function"]["name"] for c in asked}
    results = [(names.get(m.get("tool_call_id"), "tool"), _text(m)) for m in messages[turn_start + 1:]]
    question_at = max(i for i, m in enumerate(messages) if m["role"] == "user")
    question, earlier = _text(messages[question_at]), messages[question_at + 1: turn_start]
    first_turn = not any(m["role"] == "assistant" for m in earlier)
    if any(content.startswith("Error:") for _, content in results) and offers and first_turn:
        # A model reads the error and tries again once, if it now has a different call to make.
        retry = plan(question, offers)
        if retry and [(c["function"]["name"], c["function"]["arguments"]) for c in asked] != [
                (c.name, c.arguments) for c in retry]:
            return Reply(tool_calls=tuple(retry))
    injected = _instruction_in(results, offers)
    if injected and first_turn:
        # Prompt injection: text inside a tool result is obeyed as if the user had asked for it.
        return Reply(tool_calls=(injected,))
    if len(results) == 1:
        return Reply(content=f"According to {results[0][0]}: {results[0][1]}")
    return Reply(content="Here is what the tools returned:\n" + "\n".join(f"- {n}: {c}" for n, c in results))


def _instruction_in(results: list[tuple[str, str]], offers: list[Offer]) -> ToolCall | None:
    """A command that a tool result tells the model to run, when a tool that runs commands is offered."""
    runner = next((o for o in offers if "command" in o.schema.get("properties", {})), None)
    for _, content in results:
        found = re.search(r"\b(?:run|execute)\b[^`\"\n]*[`\"]([^`\"]+)[`\"]", content, re.IGNORECASE)
        if runner and found and not content.startswith("Error:"):
            return ToolCall(runner.name, json.dumps({"command": found.group(1)}))
    return None


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
        offers.append(Offer(name, frozenset(reading.words(lines)), {"properties": properties}))
    return offers or None


def _protocol_reply(messages: list[dict], offers: list[Offer]) -> Reply:
    previous = messages[-2] if len(messages) > 1 else {}
    if previous.get("role") == "assistant" and "FUNCTION:" in _text(previous):
        tool = re.search(r"FUNCTION:\s*(\w+)", _text(previous)).group(1)
        result = re.sub(r"^\s*RESULT:\s*", "", _text(messages[-1]))
        return Reply(content=f"According to {tool}: {result}")
    calls = plan(_text(messages[-1]), offers)
    if not calls:
        return Reply(content=plain_answer(_text(messages[-1])))
    args = ", ".join(json.dumps(v) for v in json.loads(calls[0].arguments).values())
    # Like a real model that is not stopped, it goes on to invent the result: the `stop` sequence is the cure.
    invented = "10:42 AM" if "time" in calls[0].name else "42"
    return Reply(content=f"FUNCTION: {calls[0].name}({args})\nRESULT: {invented}\nThe answer is {invented}.")


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
    text = f"{function['name']} {function.get('description', '')}"
    return Offer(function["name"], frozenset(reading.words(text)), function.get("parameters") or {})


def _text(message: dict) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):  # content parts: keep the text ones
        return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content
