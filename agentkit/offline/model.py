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

Of the system prompt it follows a role, the answer's language and length, a tool not to use, "ask before
writing" and a request for caution (instructions.py). Answers are written in the learner's language.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from agentkit.offline import answer, conversation, earlier, instructions
from agentkit.offline.answer import NOT_AN_LLM, PLAIN_ANSWERS, plain_answer
from agentkit.offline.choose import Offer, Planned, plan
from agentkit.offline.conversation import Conversation
from agentkit.offline.fill import fill
from agentkit.offline.function_protocol import function_protocol, protocol_reply
from agentkit.offline.general import asks_in_general
from agentkit.offline.instructions import Instructions
from agentkit.offline.language import language_of
from agentkit.offline.lexicon import words
from agentkit.offline.mistakes import MISTAKES, Mistake, make_mistake
from agentkit.offline.reading import message_text
from agentkit.offline.reply import EmittedCall, Reply
from agentkit.offline.retry import corrected, reread
from agentkit.offline.slots import offer_of
from agentkit.offline.wording import say

__all__ = ["MISTAKES", "NOT_AN_LLM", "PLAIN_ANSWERS", "OfflineModel", "Offer", "Reply", "EmittedCall", "plain_answer", "plan"]

YES = re.compile("|".join(words("choose")["habits"]["yes"]), re.IGNORECASE)


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
        told = instructions.read_instructions(request["messages"])
        reply = self._decide(request, told)
        return Reply(instructions.first_sentence(reply.content), reply.tool_calls) if reply.content and told.brief else reply

    def _decide(self, request: dict[str, Any], told: Instructions) -> Reply:
        messages = request["messages"]
        offered = [offer_of(t) for t in request.get("tools") or []]
        offers = [o for o in offered if not instructions.is_forbidden(told, o.name, o.description)]
        choice = request.get("tool_choice") or "auto"
        if messages[-1]["role"] == "tool":
            return _after_tool_results(messages, offers, told, self.gullible)
        state = Conversation.of(messages)  # the chat before this message, and this one ("the Friday after": a day)
        said = earlier.on_the_last_day(message_text(messages[-1]), state)
        confirmed = _confirmed(messages)
        question = confirmed or said
        language = told.language or language_of(question)
        # "什么是股票代码？" asks about the world, and "thanks!" asks nothing: answered in words, with no call
        general = choice == "auto" and (asks_in_general(question) or answer.small_talk(question) is not None)
        stepped = (earlier.next_step(question, messages, offers) or conversation.again(state, said, offers)
                   if choice == "auto" else None)
        if stepped:  # "在 笔记.txt 末尾加一行：买牛奶" (read, then write back), "try again" (the last call)
            return Reply(tool_calls=(_written(stepped, False),))
        if offers and choice != "none" and not general:
            asked = earlier.with_earlier_file(question, messages) if len(messages) > 1 else question
            planned = plan(asked, offers, choice)
            own = [p for p in planned if not p.missing]  # the calls the message makes without the chat before it
            sought, planned = {p.offer.name for p in planned}, earlier.with_earlier_result(planned, state, said, offers)
            # a call to another tool ("the sunset one": booked, not sought; "also a podiatrist") never repeats the last call
            acted = {p.offer.name for p in planned} != sought or earlier.for_another_tool(planned, state, said)
            # "and to yen?" (what it lacks, the call before had), "no, for 3 people" (the same tool), "标题换成…"
            if not acted and all(p.missing for p in planned) or len(messages) > 1 and (conversation.corrects(question) or {
                    p.offer.name for p in planned} <= {o.name for o, _ in state.calls_to(offers)}):
                # ... or the request answered in words it completes or corrects ("Saturday at 10", "make it 4")
                planned = conversation.follow_up(earlier.awaited(state, messages, offers), said, offers) or planned
            planned = earlier.after_the_last(planned, state, said)  # "the two nights after that"
            planned = [p for p in planned if not state.asks_about(p, said, own)]  # "so is that cheaper?", "那要带伞吗"
            if told.cautious and choice == "auto":  # a loose fit is not enough: answer in words instead
                planned = [p for p in planned if instructions.fits_exactly(p.offer.name, question)]
            ready = [p for p in planned if not p.missing or choice != "auto"]
            if ready and told.ask_first and not confirmed and any(instructions.changes_something(p.offer.name) for p in ready):
                return Reply(content=answer.confirm_first([(p.offer.name, p.arguments) for p in ready], language))
            if ready:
                calls = [_written(p) for p in ready]
                return Reply(tool_calls=tuple(make_mistake(calls, self.unruly) if self.unruly else calls))
            if planned:  # a required value is missing: ask the person for it by its meaning, through `ask_user` if offered
                asked_for = answer.ask_for(planned[0].offer.name, list(planned[0].missing), language, planned[0].offer.schema)
                if asker := next((o for o in offers if o.name != planned[0].offer.name and o.asks_the_person), None):
                    return Reply(tool_calls=(EmittedCall(asker.name, json.dumps({"question": asked_for}, ensure_ascii=False)),))
                return Reply(content=asked_for)
        if len(offers) < len(offered) and any(not p.missing for p in plan(question, offered)):
            return Reply(content=say("not_allowed", language))  # only a tool it was told not to use would do
        if protocol := None if offers else function_protocol(messages):
            return protocol_reply(messages, protocol)
        tools = [(o.name, o.description) for o in offers]
        return Reply(content=answer.introduction(told.role, question, tools, language) or plain_answer(
            question, language, state.results_asked_about(said)))


def _written(planned: Planned, ascii: bool = True) -> EmittedCall:
    return EmittedCall(planned.offer.name, json.dumps(planned.arguments, ensure_ascii=ascii))


def _confirmed(messages: list[dict]) -> str | None:
    """After "Shall I go ahead?" (asked before a call that changes something, or any question that reads the details
    back), a yes and little more ("yes please", "好的，订吧"): the request it was about."""
    yes, asked = YES.match(said := message_text(messages[-1])), message_text(messages[-2]) if len(messages) > 2 else ""
    if not yes or not re.search(r"[?？]\s*$", asked) or messages[-2]["role"] != "assistant" or len(re.findall(
            r"\w+", said[yes.end():])) > 2:  # "Shall I go ahead?" ends so, and "Is that right?"
        return None
    return next((message_text(m) for m in reversed(messages[:-2]) if m["role"] == "user"), None)


def _after_tool_results(messages: list[dict], offers: list[Offer], told: Instructions, gullible: bool = False) -> Reply:
    turn_start = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    asked = messages[turn_start].get("tool_calls") or []
    made = {c["id"]: (c["function"]["name"], conversation.arguments_of(c["function"]["arguments"])) for c in asked}
    results = [(*made.get(m.get("tool_call_id"), ("tool", {})), message_text(m)) for m in messages[turn_start + 1:]]
    question_at = max(i for i, m in enumerate(messages) if m["role"] == "user")
    question, between = message_text(messages[question_at]), messages[question_at + 1: turn_start]
    first_turn = not any(m["role"] == "assistant" for m in between)
    if stepped := earlier.next_step(question, messages, offers):  # the file just read, written back with the line added
        return Reply(tool_calls=(_written(stepped, False),))
    if any(content.startswith("Error:") for *_, content in results) and offers and first_turn:
        # A model reads the error and tries again once, if the error or the schema says what to change and the question how
        if retry := corrected(results, offers) or reread(results, offers, [p for p in plan(question, offers) if not p.missing]):
            return Reply(tool_calls=tuple(retry))
    if results and all(name.lower().startswith("ask") and "question" in arguments for name, arguments, _ in results):
        # The person answered the question asked for a missing value: the request, completed by the answer.
        if completed := _completed(question, " ".join(content for *_, content in results), offers):
            return Reply(tool_calls=(completed,))
    runner = next((o.name for o in offers if "command" in o.schema.get("properties", {})), None)
    ordered = instructions.ordered_command([content for *_, content in results]) if runner else None
    if ordered and gullible and first_turn:
        # Prompt injection: text inside a tool result is obeyed as if the user had asked for it.
        return Reply(tool_calls=(EmittedCall(runner, json.dumps({"command": ordered})),))
    language = told.language or language_of(question)
    said = answer.sentences(results, question, language, full=told.detailed)
    return Reply(content=f"{said}\n\n{instructions.not_obeyed(ordered, language)}" if ordered and not gullible else said)


def _completed(question: str, answer_text: str, offers: list[Offer]) -> EmittedCall | None:
    """The call the question asked for, its missing values read from the person's answer (the whole answer, for one)."""
    for planned in plan(question, [o for o in offers if not o.name.lower().startswith("ask")]):
        if not planned.missing:
            continue
        wanted = {"properties": {n: planned.offer.properties[n] for n in planned.missing}, "required": list(planned.missing)}
        found, still = fill(wanted, answer_text)
        if still == [planned.missing[0]] and len(planned.missing) == 1 and answer_text.strip():
            found, still = {planned.missing[0]: answer_text.strip()}, []
        if not still:
            return EmittedCall(planned.offer.name, json.dumps({**planned.arguments, **found}))
    return None
