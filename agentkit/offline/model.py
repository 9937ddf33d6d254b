"""The offline model: a deterministic stand-in for an LLM, so that every cell runs without an API key.

It is not an LLM. It is a readable decision procedure, and reading it is a good way to see what a real
model has to decide on each turn:

1. the last message is a tool result       -> answer in sentences from the results (answer.py), or retry
                                              once a call whose error says what was valid (retry.py); an order found
                                              in a result is data: reported, not obeyed (unless `gullible`);
2. tools are offered and `tool_choice` allows -> score each tool's words against the question and pick
                                              the calls it asks for (choose.py), fill their arguments from
                                              the question by each parameter's name and description
                                              (fill.py); ask for a required value it cannot find;
3. the system prompt describes `FUNCTION:`  -> the same choice, written as the text line it asked for
                                              (function_protocol.py);
4. otherwise                                -> one of a few plain answers, or say honestly what it is.

Of the system prompt it follows only a role ("You are Ada, ...") and a request to be brief (instructions.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from agentkit.offline import answer
from agentkit.offline.answer import NOT_AN_LLM, PLAIN_ANSWERS, plain_answer
from agentkit.offline.choose import Offer, Planned, plan
from agentkit.offline.conversation import follow_up, with_earlier_file, with_earlier_result
from agentkit.offline.function_protocol import function_protocol, protocol_reply
from agentkit.offline.instructions import first_sentence, introduction, not_obeyed, ordered_command, read_instructions
from agentkit.offline.mistakes import MISTAKES, Mistake, make_mistake
from agentkit.offline.reading import message_text
from agentkit.offline.reply import Reply, ToolCall
from agentkit.offline.retry import corrected

__all__ = ["MISTAKES", "NOT_AN_LLM", "PLAIN_ANSWERS", "OfflineModel", "Offer", "Reply", "ToolCall", "plain_answer", "plan"]


@dataclass(frozen=True)
class OfflineModel:
    """The decision procedure, well behaved unless one of its two bad habits is switched on."""

    unruly: Mistake | None = None
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
        question = message_text(messages[-1])
        if offers and choice != "none":
            asked = with_earlier_file(question, messages) if len(messages) > 1 else question
            planned = with_earlier_result(plan(asked, offers, choice), messages) or follow_up(messages, offers)
            ready = [p for p in planned if not p.missing or choice != "auto"]
            if ready:
                calls = [_written(p) for p in ready]
                return Reply(tool_calls=tuple(make_mistake(calls, self.unruly) if self.unruly else calls))
            if planned:
                return Reply(content=answer.ask_for(planned[0].offer.name, list(planned[0].missing)))
        protocol = None if offers else function_protocol(messages)
        if protocol:
            return protocol_reply(messages, protocol)
        return Reply(content=introduction(read_instructions(messages), question) or plain_answer(question))


def _written(planned: Planned) -> ToolCall:
    return ToolCall(planned.offer.name, json.dumps(planned.arguments))


def _after_tool_results(messages: list[dict], offers: list[Offer], gullible: bool = False) -> Reply:
    turn_start = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    asked = messages[turn_start].get("tool_calls") or []
    made = {c["id"]: (c["function"]["name"], _arguments(c["function"]["arguments"])) for c in asked}
    results = [(*made.get(m.get("tool_call_id"), ("tool", {})), message_text(m)) for m in messages[turn_start + 1:]]
    question_at = max(i for i, m in enumerate(messages) if m["role"] == "user")
    question, earlier = message_text(messages[question_at]), messages[question_at + 1: turn_start]
    first_turn = not any(m["role"] == "assistant" for m in earlier)
    if any(content.startswith("Error:") for *_, content in results) and offers and first_turn:
        # A model reads the error and tries again once, if it now has a different call to make.
        retry = corrected(results, offers) or [_written(p) for p in plan(question, offers) if not p.missing]
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


def _arguments(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _offer_from_tool(tool: dict) -> Offer:
    function = tool["function"]
    return Offer(function["name"], function.get("description") or "", function.get("parameters") or {})
