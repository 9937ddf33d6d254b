"""Habits of other real models in which calls they make, and when: one call per reply where the base model makes
several, a question back instead of a guess, the same arguments written another way, `""` for no arguments, a
wrong call corrected after its `Error:` result; and, given tools that reach beyond one loop (chapter 14), a request
handed to another agent (`delegates`, as Claude hands a search to Claude Code's Task tool) or a plan kept through a
tool (`plans`, as Claude Code's TodoWrite or Codex CLI's update_plan). Those two know a tool by its schema and its
words, never by agentkit's names: a helper takes one free-text parameter and speaks of an agent, a helper or
delegating; a plan is a tool that takes a list of steps beside one whose status parameter can say "done". Each is a
variant's `change` in `variants.py`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from agentkit.offline.language import is_chinese
from agentkit.offline.lexicon import words
from agentkit.offline.model import EmittedCall, OfflineModel, Reply
from agentkit.offline.reading import message_text
from agentkit.offline.request import calls_in, functions_of, parsed

_WORDS = words("choose")["habits"]
HELPER, RESEARCH, SEVERAL, PLAN = (re.compile("|".join(_WORDS[name]), re.I) for name in ("helper", "research", "several", "plan"))
DONE, STEP_OPENERS = tuple(_WORDS["done"]), _WORDS["step_openers"]


def one_call(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """The next planned call after each result; the answer from all the results since the question as one turn."""
    messages = request["messages"]
    if reply.tool_calls or messages[-1]["role"] != "tool":
        return replace(reply, tool_calls=reply.tool_calls[:1])
    question_at, planned = planned_calls(base, request)
    made = {(c["function"]["name"], c["function"]["arguments"]) for c in calls_in(messages[question_at:])}
    if remaining := [call for call in planned if (call.name, call.arguments) not in made]:
        return Reply(tool_calls=(remaining[0],))
    answer = base.respond({**request, "messages": as_one_turn(messages, question_at)})
    return replace(answer, tool_calls=answer.tool_calls[:1])


def clarify(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """On a conversation's first request, a call that leaves every parameter out, or a required one, is a question."""
    messages = request["messages"]
    if any(m["role"] == "assistant" for m in messages) or messages[-1]["role"] != "user":
        return reply  # only the first request of a conversation; an answer to the question is taken as it is
    schemas = _schemas(request)
    for call in reply.tool_calls:
        schema, given = schemas.get(call.name, {}), parsed(call.arguments)
        if not isinstance(given, dict):
            continue  # arguments that do not parse are a mistake, not a guess
        properties = schema.get("properties") or {}
        missing = [name for name in schema.get("required", []) if name not in given]
        if properties and (not given or missing):
            which = (missing or list(properties))[0].replace("_", " ")
            return Reply(content=f"Before I call {call.name}: which {which} do you mean? Please say it, and I will "
                                 "look it up.")
    # The text protocol: a FUNCTION: line with empty parentheses for a function the prompt shows with parameters.
    empty = re.search(r"FUNCTION:\s*(\w+)\(\s*\)", reply.content or "")
    system = "\n".join(str(m.get("content") or "") for m in messages if m["role"] == "system")
    if empty and re.search(rf"FUNCTION:\s*{empty.group(1)}\(\s*[^)\s]", system):
        return Reply(content=f"Before I call {empty.group(1)}: which value do you mean? I would rather ask than guess.")
    return reply


def styled_args(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """Other whitespace and key order, schema defaults filled in (the ids: `other_ids` in variants.py)."""
    schemas = _schemas(request)

    def styled(call: EmittedCall) -> EmittedCall:
        arguments = parsed(call.arguments)
        if not isinstance(arguments, dict):
            return call
        properties = schemas.get(call.name, {}).get("properties") or {}
        defaults = {name: spec["default"] for name, spec in properties.items() if "default" in spec and name not in arguments}
        written = dict(reversed(list({**arguments, **defaults}.items())))
        return replace(call, arguments=json.dumps(written, indent=1, ensure_ascii=False, separators=(" ,", " : ")))

    return replace(reply, tool_calls=tuple(map(styled, reply.tool_calls)))


def empty_args(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    return replace(reply, tool_calls=tuple(replace(call, arguments="") if parsed(call.arguments) == {} else call
                                           for call in reply.tool_calls))


def corrects(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """A first call with an argument of the wrong JSON type; the right call after its `Error:` result (the base model's
    own: it reads the error and fixes what the schema shows wrong)."""
    wrong = _wrong(reply.tool_calls, _schemas(request)) if request["messages"][-1]["role"] == "user" else None
    return replace(reply, tool_calls=wrong) if wrong else reply


def _wrong(calls: tuple[EmittedCall, ...], schemas: dict[str, dict]) -> tuple[EmittedCall, ...] | None:
    """The calls with the first one's first argument given a value of the wrong JSON type; None if it has none."""
    arguments = parsed(calls[0].arguments) if calls else None
    if not isinstance(arguments, dict):
        return None  # no call, or already wrong (broken JSON, not an object): nothing to add
    properties = schemas.get(calls[0].name, {}).get("properties") or {}
    if (name := next((n for n in arguments if n in properties), next(iter(properties), None))) is None:
        return None
    bad = "a lot" if properties[name].get("type") in ("number", "integer", "boolean", "array", "object") else 12345
    return (replace(calls[0], arguments=json.dumps({**arguments, name: bad})), *calls[1:])


def as_one_turn(messages: list[dict], question_at: int, keep: Callable[[str], bool] = bool) -> list[dict]:
    """The messages to the question, then every call since (whose name `keep` keeps) as one reply, then their results."""
    turns = messages[question_at + 1:]
    calls = [c for c in calls_in(turns) if keep(c["function"]["name"])]
    ids = {c["id"] for c in calls}
    return [*messages[: question_at + 1], {"role": "assistant", "content": None, "tool_calls": calls},
            *(m for m in turns if m["role"] == "tool" and m.get("tool_call_id") in ids)]


def planned_calls(base: OfflineModel, request: dict) -> tuple[int, tuple[EmittedCall, ...]]:
    """Where the last question is, and the calls the base model makes for it."""
    question_at = max(i for i, m in enumerate(request["messages"]) if m["role"] == "user")
    return question_at, base.respond({**request, "messages": request["messages"][: question_at + 1]}).tool_calls


def _schemas(request: dict) -> dict[str, dict]:
    return {f["name"]: f.get("parameters") or {} for f in functions_of(request)}


def _words(function: dict) -> str:
    return f"{function['name'].replace('_', ' ')} {function.get('description') or ''}"


def helper_of(request: dict) -> tuple[str, str] | None:
    """(the tool, its parameter) that hands work to another agent: one free-text parameter, a helper's words."""
    for function in functions_of(request):
        properties = (function.get("parameters") or {}).get("properties") or {}
        if len(properties) != 1 or not HELPER.search(_words(function)):
            continue
        ((parameter, spec),) = properties.items()
        if spec.get("type") == "string" and not {"enum", "const", "format", "pattern"} & spec.keys():
            return function["name"], parameter
    return None


def delegates(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """A request of several steps, or a research-like one, handed whole to a helper tool; its answer relayed."""
    helper, messages = helper_of(request), request["messages"]
    if helper is None:
        return reply
    if messages[-1]["role"] == "tool":
        last = next(m for m in reversed(messages) if m["role"] == "assistant")
        if {c["function"]["name"] for c in last.get("tool_calls") or []} != {helper[0]}:
            return reply
        results = [message_text(m) for m in messages[messages.index(last) + 1:]]
        if any(result.startswith("Error:") for result in results):
            return base.respond({**request, "tools": []})  # the helper's failure told, not worked around
        return Reply(content="\n\n".join(results))  # the helper's answer, written for a person already
    question = message_text(messages[-1])
    if messages[-1]["role"] != "user" or any(c.name == helper[0] for c in reply.tool_calls):
        return reply
    several = len(reply.tool_calls) >= 2 or (reply.tool_calls and SEVERAL.search(question))
    if several or RESEARCH.search(question):
        return Reply(tool_calls=(EmittedCall(helper[0], json.dumps({helper[1]: question}, ensure_ascii=False)),))
    return reply


class PlanTools(NamedTuple):
    writer: str  # takes the steps
    steps: str  # its list parameter
    marker: str  # marks one step
    number: str  # its step parameter
    status: str  # its status parameter
    done: str  # the status value that says done

    @property
    def names(self) -> tuple[str, str]:
        return self.writer, self.marker


def plan_tools_of(request: dict) -> PlanTools | None:
    """A tool that takes a list of steps, and one that marks a step with a status that can be "done"."""
    writer = marker = None
    for function in functions_of(request):
        properties = (function.get("parameters") or {}).get("properties") or {}
        if not PLAN.search(_words(function)):
            continue
        lists = [n for n, s in properties.items() if s.get("type") == "array"
                 and (s.get("items") or {}).get("type", "string") == "string"]
        statuses = [(n, v) for n, s in properties.items() for v in s.get("enum") or () if v in DONE]
        numbers = [n for n, s in properties.items() if s.get("type") in ("integer", "number", "string") and "enum" not in s]
        if len(properties) == 1 and lists:
            writer = (function["name"], lists[0])
        elif statuses and numbers:
            marker = (function["name"], numbers[0], *statuses[0])
    return PlanTools(*writer, *marker) if writer and marker else None


def plans(base: OfflineModel, request: dict, reply: Reply) -> Reply:
    """A request of several steps: the plan first, then each step's call, each marked done after its result; a step
    named in a reminder of open steps (in another tool's result) marked done once its call is made."""
    tools, messages = plan_tools_of(request), request["messages"]
    if tools is None:
        return reply
    own = {**request, "tools": [t for t in request.get("tools") or [] if t["function"]["name"] not in tools.names]}
    question_at, steps = planned_calls(base, own)
    phrases = _phrases(message_text(messages[question_at]), steps)
    written = EmittedCall(tools.writer, json.dumps({tools.steps: phrases}, ensure_ascii=False))
    if messages[-1]["role"] == "user":
        planning = any(call.name in tools.names for call in reply.tool_calls)
        return Reply(tool_calls=(written,)) if len(steps) >= 2 and not planning else reply
    if messages[-1]["role"] != "tool":
        return reply
    turns = messages[question_at + 1:]
    made = [c["function"] for c in calls_in(turns)]
    done = [f for f in made if f["name"] not in tools.names]
    last = [c["function"]["name"] for c in next(m for m in reversed(turns) if m["role"] == "assistant").get("tool_calls") or []]
    own_plan = made and (made[0]["name"], made[0]["arguments"]) == (written.name, written.arguments)
    if own_plan and last[-1] not in tools.names and not message_text(messages[-1]).startswith("Error:"):
        return Reply(tool_calls=(_mark(tools, len(done)),))
    if own_plan and len(done) < len(steps):
        return Reply(tool_calls=(steps[len(done)],))
    if own_plan or done and set(last) == {tools.marker}:  # every step of its own plan made, or marked after a reminder
        # the answer from every result since the question but the plan tools', as if they had come in one turn
        keep = {f["name"] for f in functions_of(own)}.__contains__
        return base.respond({**own, "messages": as_one_turn(messages, question_at, keep), "tools": []})
    open_steps = _reminded(tools, [message_text(m) for m in turns if m["role"] == "tool"])
    numbers = [n for f in done if (n := _step_of(parsed(f["arguments"]), open_steps))]
    return Reply(tool_calls=tuple(_mark(tools, n) for n in dict.fromkeys(numbers))) if numbers else reply


def _phrases(question: str, steps: tuple[EmittedCall, ...]) -> list[str]:
    """Each step as a short phrase in the request's language: a Chinese request's own clauses, one a step ("先读 a.txt，
    再读 b.txt": 读 a.txt, 读 b.txt); else the tool's words and the values it is called with ("read file todo.txt")."""
    clauses = [re.sub(STEP_OPENERS, "", c).strip() for c in re.split(r"[，,；;。]", question) if c.strip()]
    if is_chinese(question) and len(clauses) == len(steps):
        return clauses
    values = [[str(v) for v in (parsed(c.arguments) or {}).values() if isinstance(v, str | int | float)] for c in steps]
    return [" ".join([call.name.replace("_", " "), *said]) for call, said in zip(steps, values, strict=True)]


def _mark(tools: PlanTools, number: int) -> EmittedCall:
    return EmittedCall(tools.marker, json.dumps({tools.number: number, tools.status: tools.done}))


def _reminded(tools: PlanTools, results: list[str]) -> dict[int, str]:
    """The open steps listed, numbered, on a line of a result that names the marker tool (a reminder to use it)."""
    named = re.compile(rf"^.*\b{re.escape(tools.marker)}\b.*$", re.MULTILINE)
    lines = [line for text in results for line in named.findall(text)]
    return {int(n): step for line in lines for n, step in re.findall(r"(\d+)\.\s*(?:\[[\w ]+\]\s*)?([^;\n]+)", line)}


def _step_of(arguments: object, open_steps: dict[int, str]) -> int | None:
    """The first open step whose words hold one of the call's text values (`read todo.txt` for path todo.txt)."""
    values = [v.lower() for v in (arguments or {}).values() if isinstance(v, str) and v] if isinstance(arguments, dict) else []
    return next((n for n, step in open_steps.items() if any(v in step.lower() for v in values)), None)
