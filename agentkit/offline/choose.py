"""Step 1: which tools to call, and how many times.

Each offered tool is scored against the question (choose_fit.py); below `ENOUGH` no tool fits, and the model answers
in text. The question is then cut into clauses ("and", commas, "then"); a
clause that names another tool starts a call of that tool, and a clause that brings another value for a
parameter already filled ("in Tokyo and in Paris") starts another call of the same tool.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from agentkit.offline import reading
from agentkit.offline.choose_fit import actions, asking, score
from agentkit.offline.clauses import clauses, each_case, each_item, each_value, in_place, with_context, zh_joined
from agentkit.offline.corrections import corrected, zh_marked
from agentkit.offline.fill import fill
from agentkit.offline.general import is_general, is_place_fact
from agentkit.offline.language import is_chinese
from agentkit.offline.lexicon import words
from agentkit.offline.numbers import by_pattern
from agentkit.offline.parts import parted
from agentkit.offline.request import ToolChoice
from agentkit.offline.roles import json_type, kind_of, role_of
from agentkit.offline.slots import ENOUGH, NAME, Offer, named_only
from agentkit.offline.spans import find
from agentkit.offline.vocabulary import english
from agentkit.offline.zh_values import in_learners_words

_WORDS = words("choose")["choose"]
TRAILING = re.compile(r",\s*((?:at|on|for|in|by|from|with|before|after|around)\s[^,;]{1,40}?)[.!?]?$")
"""A value said once after the last of several requests, after a comma ("..., in colour", "..., at 6pm")."""
IT, ASK_ME, OWN, WHO, BACK, ONE = (re.compile("|".join(_WORDS[name]), re.I) for name in (
    "it", "ask_me", "thing_amount", "asks_for_tool", "refers_back", "one"))
"""The words that point back at the clause before ("tick it off"), ask to ask the person ("ask me"), name a thing and
its amount, and ask who did what."""


@dataclass(frozen=True)
class Planned:
    """A call the model decided on, before it is written as JSON: the tool, its arguments, what is missing."""

    offer: Offer
    arguments: dict[str, Any]
    missing: tuple[str, ...] = ()
    clause: str = ""  # the part of the question its arguments were read from


def read(question: str, offers: list[Offer]) -> tuple[str, str]:
    """The question as asked (a request pasted in quotes is the request) and as the stages read it: Chinese as English
    words (by the dictionary too where that fits the tools better), items listed one per line parted."""
    question = quoted[1] if (quoted := re.fullmatch(r'\s*"([^"]*)"\s*', question)) else question
    return question, _items_split(corrected(english(zh_joined(zh_marked(question), partial(_best, offers=offers), _complete),
                                                    lambda read: _best(_items_split(read, offers), offers)[1] - ENOUGH),
                                          tuple(said for o in offers for said in o.options)), offers)


def plan(question: str, offers: list[Offer], choice: ToolChoice = "auto") -> list[Planned]:
    """The calls the question asks for (possibly none), each with the arguments read from its own clause; a Chinese
    request that lists what each call is for ("给小王和小李都发", "把牛奶和面包加到") is read once per item, when each copy
    is one whole call of its own and the request whole makes fewer, or puts the items in one value."""
    whole, again = _plan(question, offers, choice), partial(plan, offers=offers)
    return choice == "auto" and parted(question, whole, again) or whole  # "…: one for me, and one for my husband"


def _plan(question: str, offers: list[Offer], choice: ToolChoice) -> list[Planned]:
    asked, question = read(question, offers)
    if choice == "auto" and is_general(question) and not _asks_for_tool(question, offers):  # "what is a stock split?"
        return []  # a question about the world
    if choice == "auto" and is_place_fact(question) and not any(s.role in ("place", "zone") for o in offers for s in o.slots):
        return []  # "what language do they speak in Brazil?" is not for a tool that translates
    if isinstance(choice, dict):  # {"type": "function", "function": {"name": ...}}: that tool, whatever the words
        return [_planned(next(o for o in offers if o.name == choice["function"]["name"]), question)]
    tool, fit = _best(question, offers)  # "at 4% over 3, 6 and 9 years": a call per value listed, the rest shared,
    copies = each_value(question, tool.schema) if tool and fit >= ENOUGH and re.search(r"\sand\s", question) else []
    fitting = [o for o in offers if score(o, question)]  # a tool the whole question is not for ("the area of") is no clause's
    bests: list[tuple[str, Offer | None, float]] = []  # each clause's tool and score, once; on a tie, a clause that points
    for clause in clauses(question):  # back ("any courts free? book one for 6") takes the tool nearest the clause before's
        kin = set(reading.split_name(bests[-1][1].name)) if bests and bests[-1][1] and ONE.search(clause) else set()
        near = sorted(fitting, key=lambda o: -len(kin & {*reading.split_name(o.name)})) if kin else fitting
        bests.append((clause, *_best(clause, near)))
    calls = [_planned(tool, copy) for copy in copies] if (one := all(b in (tool, None) for _, b, _ in bests)) and copies else []
    current: tuple[Offer, str] | None = None  # the tool of the call being built, and the text it has so far
    before_any = ""  # "I weigh 70 kg and I'm 1.75 m tall. What's my BMI?": values before the tool is named
    for clause, best, best_score in [] if calls else bests:  # the calls of one tool throughout, or clause by clause
        # a clause with another value for the call and no word of another tool's name or description but ones the call said ("and
        # 3 EUR for coffee", "then look up Bergen's"), or none of its name and read whole by its tool only ("5 pending"), goes on
        named = max([0, *map(best.weight_of, {*asking(clause)[0]} - {*asking(current[1] if current else "")[0]})]) if best else 3
        goes_on = current is not None and best is not None and (_goes_on(*current, clause, best_score) or named < 2 and (
            _another_call(*current, clause)) or named < 3 and _complete(current[0], clause) and not _complete(best, clause))
        # one call: "the 2nd item is done, tick it off", "40 liters of fuel, it cost 320", "a room in Porto, two guests" (a
        # clause naming no word of its tool's name adds to the call; one naming another tool's starts that tool's call)
        if current and (IT.search(clause) and (score(current[0], clause) >= ENOUGH or best_score < ENOUGH) or not goes_on
                        and best is not None and best.name != current[0].name and named < NAME
                        and _completes(*current, clause, True) and not _complete(best, clause)):
            current = (current[0], f"{current[1]} and {clause}")
            continue
        best = current[0] if goes_on else best
        if best is not None and best_score >= ENOUGH and (current is None or best.name != current[0].name):
            if current:
                calls.append(_planned(*current))
            swapped = in_place(before_any, clause, question, partial(_read, best))  # "the study and the hall blinds down"
            parts = swapped or before_any.split(" and ")  # "Tokyo, Paris and New York: what time is it?": a call for each part
            each = bool(swapped) or len(parts) > 1 and all(_complete(best, p) and _another_call(best, p, clause) for p in parts)
            if each or before_any and (_complete(best, before_any) and _another_call(best, before_any, clause) or
                                       _loses(best, before_any, clause)):  # "100 euros and 200 pounds, convert to yen"
                calls += [_planned(best, part) for part in (parts if each else [before_any])]  # "New York and London: ..."
                before_any = ""
            current, before_any = (best, f"{before_any} and {clause}" if before_any else clause), ""
        elif current is None:
            before_any = f"{before_any} and {clause}" if before_any else clause
        else:
            offer, so_far = current
            if _another_call(offer, so_far, clause):
                calls.append(_planned(offer, so_far))
                alone = is_chinese(asked) or score(named_only(offer.name), clause) >= ENOUGH or (  # needs no words of the call
                    _complete(offer, clause) and OWN.match(clause))  # before: "再来两碗米饭", "add eggs to my list", "早餐12元"
                current = (offer, clause if alone else with_context(so_far, clause, calls[-1].arguments.values(), offer.schema))
            else:
                current = (offer, f"{so_far} and {clause}")
    calls += [_planned(*current)] if current else []
    if len(calls) > 1 and (tail := TRAILING.search(question)) and tail[1] in calls[-1].clause:  # "A and B, in colour":
        calls = [_with_tail(c, tail[1]) if c.offer is calls[-1].offer else c for c in calls]  # said for each call
    cases = each_case(question, tool.schema, partial(_read, tool)) if tool and fit >= ENOUGH and one else []  # "The first
    if len(cases) > 1 and (len(cases) > len(calls) or re.search(r"[.?!]\s+\W?[A-Z]", question)):  # circle ..., the second
        calls = [_planned(tool, case) for case in cases]  # ...": a call per case, when that finds more calls, or sentences
    shared = _share_arguments(calls)  # the same call twice, once its values are shared, is one call
    calls = [call for at, call in enumerate(shared) if all((c.offer.name, c.arguments) != (call.offer.name, call.arguments)
                                                           for c in shared[:at])]
    calls = [Planned(c.offer, said := in_learners_words(c.arguments, c.offer.schema, asked, len(calls) == 1), tuple(
        m for m in c.missing if m not in said), c.clause) for c in calls]  # as the learner wrote it ("周会")
    return calls or ([_planned(_best(question, offers)[0] or offers[0], question)] if choice == "required" else [])


def _with_tail(call: Planned, tail: str) -> Planned:
    """The call with the values a trailing part gives it, when it keeps every value it has and gains one."""
    longer = call if tail in call.clause else _planned(call.offer, f"{call.clause} {tail}")
    return longer if len(longer.arguments) > len(call.arguments) and all(
        longer.arguments.get(n) == v for n, v in call.arguments.items()) else call


def _asks_for_tool(question: str, offers: list[Offer]) -> bool:
    """ "who invented the telephone?" asks what a tool is for when the word after "who" (its verb, or the noun of "who is
    the scientist ...") is a word of its name, in any form: get_invention_history; as "mean" does define_word's."""
    first = next(iter(reading.words(who[who.lastindex])), "") if (who := WHO.search(question)) else ""
    return any(offer.weight_of(first) == NAME for offer in offers)


def _items_split(question: str, offers: list[Offer]) -> str:
    """ "add X and Y to my list" is one request per item, unless the tool it asks for takes a list of them."""
    if (split := each_item(question)) == question or not (best := _best(question, offers)[0]):
        return split
    return question if any(p.get("type") == "array" and json_type(p.get("items") or {}) in ("string", None)
                           and "enum" not in (p.get("items") or {}) for p in best.properties.values()) else split


def _best(text: str, offers: list[Offer]) -> tuple[Offer | None, float]:
    # On a tie, or a word apart, the tool whose action is the request's verb; then the words of its name; then the order offered.
    # A tool that asks the person a question is for what only they know, not for a request that touches "question" or "search".
    asks_me = ASK_ME.search(text)
    if not (scored := [(score(o, text), -i, o) for i, o in enumerate(offers) if asks_me or not o.asks_the_person]):
        return None, 0.0
    scores, least, near = [s for s, _, _ in scored], min(ENOUGH, max(scored)[0]), max(scored)[0] - 2.0  # a name, an action
    verb = next(iter(asking(text)[0]), "")  # the request's first word that says something; both read only where they count
    ranked = sorted(((s, s >= near and verb in actions(o), score(named_only(o.name), text) if s >= least and scores.count(s) > 1
                      else 0.0, i, o) for s, i, o in scored), key=lambda s: s[:4], reverse=True)
    top = next((s for s in ranked if s[1] and s[0] >= ranked[0][0] - 1.0), ranked[0])  # a word apart, the one that acts
    # Between tools that fit about as well, the one the question gives every required value for: "list the files"
    # is glob (a pattern it implies), not read_file (a path nobody named); unless only the first does what it says.
    close = [s for s in ranked if s is not top and s[0] >= max(ENOUGH, top[0] - 2.0) and s[1] >= top[1]]
    if close and not _complete(top[4], text) and not IT.search(text):  # "it": a value said before
        if fillable := next((s for s in close if _complete(s[4], text)), None):
            return fillable[4], fillable[0]
    return top[4], top[0]


def _planned(offer: Offer, text: str) -> Planned:
    arguments, missing = fill(offer.schema, text, exclude=offer.words, named=offer.name_words)
    return Planned(offer, arguments, tuple(missing), text)


@lru_cache(maxsize=1024)  # a clause is read again beside each other clause: each text once per tool (never changed after)
def _read(offer: Offer, text: str) -> tuple[dict, list[str]]:
    """What the text alone gives the tool (none guessed): its arguments, and the required ones it lacks."""
    return fill(offer.schema, text, exclude=offer.words, guess=False, named=offer.name_words)


def _complete(offer: Offer, text: str) -> bool:
    """The text alone has a value for every required parameter (none guessed)."""
    return next(bool(arguments) and not missing for arguments, missing in [_read(offer, text)])


def _goes_on(offer: Offer, so_far: str, clause: str, best_score: float) -> bool:
    """A clause goes on with the call being built when it fits that tool as well as any other, or nearly as well
    (less than a name word apart) and brings values that call still lacks ("add the labels bug and ui to issue 7")."""
    fits = score(offer, clause)
    return fits >= best_score or best_score - fits < 3.0 and _completes(offer, so_far, clause)


def _completes(offer: Offer, so_far: str, clause: str, adds: bool = False) -> bool:
    """The clause brings a required value the call so far lacks (or, when it `adds`, any value it lacks)."""
    (before, missing), (merged, still) = _read(offer, so_far), _read(offer, f"{so_far} and {clause}")
    return bool(missing) and len(still) < len(missing) or adds and len(merged) > len(before) and all(
        merged.get(name) == value for name, value in before.items())


def _loses(offer: Offer, so_far: str, clause: str) -> bool:
    """One call of both would drop a number ("at 9 and at 17"), a code ("ICE578 and TGV9241 today") or a yes/no ("switch
    on the lamp and the fan off") the clause gives: two calls; "the GCD of 84 and 36" keeps both numbers, in two parameters."""
    (before, _), (merged, _), (alone, _) = [_read(offer, t) for t in (so_far, f"{so_far} and {clause}", clause)]
    return bool(before) and any(isinstance(v, int | float) or re.fullmatch(r"\d\d:\d\d|\d+|[A-Z]+\d+\w*", str(v))
                                for v in alone.values() if not any(v == k and type(v) is type(k) for k in merged.values()))


def _another_call(offer: Offer, so_far: str, clause: str) -> bool:
    """A clause is another call of the same tool when it brings a value for a parameter already filled; when it only
    completes the call ("the GCD of 84 and 36"), it is the same call."""
    (before, _), (merged, _), (clause_only, _) = [_read(offer, t) for t in (so_far, f"{so_far} and {clause}", clause)]
    if len(merged) > len(before) and all(merged.get(name) == value for name, value in before.items()):  # "the hall and ..."
        return _loses(offer, so_far, clause) or bool(in_place(so_far, clause, f"{so_far} and ", partial(_read, offer)))
    if any(isinstance(value, list) and len(merged.get(name) or []) > len(value) for name, value in before.items()):
        return False  # "with labels bug, ui": one more item of a list, not another call
    alone, _ = _read(offer, with_context(so_far, clause, before.values(), offer.schema))
    properties = offer.properties
    lists = {n for n, p in properties.items() if p.get("type") == "array" or json_type(p) == "string" and "enum" not in p
             and re.search(r"[^su]s$", reading.split_name(n)[-1])}  # or a text named in the plural: "toppings"
    # an option named alone ("bitcoin and ethereum") is another call even when no lead words come with it
    options = {n for n, p in properties.items()
               if "enum" in p and n in before and n in clause_only and clause_only[n] != before[n]}
    # "stops 5173 and 5180", "in EUR and in GBP": a value the clause gives once read with the call's words is its own too
    found = find(clause)
    written = {clause[span.start:span.end] for span in found}
    own = {*clause_only, *(n for n, value in alone.items() if isinstance(value, str) and value in written)} - {
        n for n, v in clause_only.items() if role_of(n, properties[n])[0] == "person" and str(v) not in clause}  # a name
    # is written as one: "mostly my calves" names no second client
    # a name or a value of a code's shape read as the call's over the one before ("any news on job RJ-22? Surname Okafor":
    # not "news"; "a permit for my car, reg KT19 XPL") is the same call's
    codes, coded = ({s.value for s in find_in if s.kind == "code"} for find_in in (found, find(so_far)))
    renamed = {n for n in own if merged.get(n) == alone.get(n) and (role_of(n, properties[n])[0] == "person" or by_pattern(
        {n: properties[n]}, clause) or str(alone.get(n)) in codes)} | {n for n in own if str(before.get(n)) in coded and str(
        alone.get(n)) not in codes}  # and a code the call has is not another call's for words that are no code ("zone C")
    differing = {name for name in own - renamed - lists if name in before and alone.get(name) != before[name]}
    # a text read another way from a clause that gives a value the call lacks ("..., and we want the kitchen") is no other call
    text = {n for n in differing | set(clause_only) if kind_of(offer.schema, n) in ("text", "room") and json_type(
        properties[n]) == "string" and "enum" not in properties[n]}
    # ... nor is a sentence of its own that opens with no word of the tool's name ("Mostly I want to learn the weights")
    opens = re.match(r"[A-Z][\w']*", clause) and reading.stem(clause.split()[0].lower()) not in map(
        reading.stem, reading.split_name(offer.name))
    return bool(options) or bool(differing) and not (differing <= text and (set(clause_only) - set(before) - text or opens))


def _share_arguments(calls: list[Planned]) -> list[Planned]:
    """Calls share what one stated: "in Tokyo and Paris, in celsius", "define 'laconic' and give me synonyms for it" (a
    parameter of the same name). A value a call lacks, or holds only as a stray word, is the call before's of its kind, the
    n-th of a kind for the n-th ("book a hotel ... and rent a car there for the same dates"): when the clause refers back
    (there, too, 也) or, for a required value not a text, gives none ("明天北京天气怎么样？顺便订一间那边的酒店")."""
    if len(calls) < 2:  # one call shares with none: no work on every request
        return calls
    shared: list[Planned] = []
    for call in calls:
        siblings = sorted((c for c in calls if c is not call), key=lambda c: c.offer.name != call.offer.name)
        arguments, back = dict(call.arguments), BACK.search(call.clause)
        for name, spec in (call.offer.schema.get("properties") or {}).items():
            found = [s.arguments[name] for s in siblings if name in s.arguments] if name in call.missing else []
            kind, stray = kind_of(call.offer.schema, name), _stray(call, name)
            theirs = _of_kind(shared[-1], kind) if shared else []
            at = _of_kind(call, kind).index(name)  # the n-th date of the call takes the n-th date of the call before
            value = shared[-1].arguments.get(theirs[at]) if at < len(theirs) else None
            fits = value in spec.get("enum", [value]) and isinstance(value, str) == (json_type(spec) == "string")
            if value is not None and fits and (back or kind != "text" or stray) and (
                    name in call.missing or stray or back and name not in arguments):
                found.append(value)
            arguments.update({name: found[0]} if found and (name not in arguments or stray) else {})
        shared.append(Planned(call.offer, arguments, tuple(m for m in call.missing if m not in arguments), call.clause))
    return shared


def _of_kind(call: Planned, kind: str | None) -> list[str]:
    """The call's parameters of a kind, in the schema's order (the ones it has no value for too, where it is the call)."""
    return [n for n in call.offer.schema.get("properties") or {} if kind_of(call.offer.schema, n) == kind]


def _stray(call: Planned, name: str) -> bool:
    """A value no better than a stray word: one a later parameter of the call holds too, or only its tool's name words
    (an option of the schema's is no stray: "5 pounds to kilograms" for convert_weight)."""
    value, names = call.arguments.get(name), [*call.arguments]  # of two holding one value, the later keeps it
    said = reading.words(english(value)) if isinstance(value, str) else []
    later = [call.arguments[n] for n in names[names.index(name) + 1:]] if name in names else []
    return isinstance(value, str) and "enum" not in call.offer.schema["properties"][name] and (value in later or bool(
        said) and all(call.offer.weight_of(w) >= NAME for w in said))
