"""An `Error:` result in plain words, in the learner's language, with what to try next.

A tool's error message is written for the model ("should be one of: …", "use glob to see which files there
are"); the person reads what went wrong and what to do: check a name, wait and retry, give a valid value.
It reads a result as a real model would, by its meaning, never by the exact wording of agentkit's messages: a
person's no is said as their no, a refusal as not done, a bug in the tool as needing a fix, not another try. The
tool's name is never repeated.
"""

from __future__ import annotations

import re

from agentkit.offline import lexicon
from agentkit.offline.language import is_chinese
from agentkit.offline.wording import Language, join, say, sentence_end

NEXT = lexicon.words("answers")["failures"]["next"]
KINDS = [(words, zh, NEXT[then]["zh"], NEXT[then]["en"]) for words, zh, then in lexicon.words("answers")["failures"]["kinds"]]
"""Each kind of error, found by its meaning, never by agentkit's exact sentence (words, in Chinese, what to try next in
Chinese and in English): a tool that words its errors its own way is understood too. The Chinese keeps names as written."""
NAME = r"(?P<q>['\"])(?P<name>.+?)(?P=q)"


def failure(message: str, language: Language, name: str = "", given: tuple[str, ...] = (),
            alike: tuple[tuple[str, str, tuple[str, ...]], ...] = ()) -> str:
    """An error in plain words, then what to try: the message says what was wrong, and often what is valid. In
    Chinese, the name it is about is one the call `given` (never the message's example, "like 'notes.txt'"). `alike`:
    other failed calls (message, tool name, given) to try again the same way (`then`), said in the same sentence,
    each kind of error once: "没能完成：不认识或找不到 a和b。…", "That didn't work: a not found; b not found. Check …"."""
    errors = [(_unnamed(m, n, language), g) for m, n, g in ((message, name, given), *alike)]
    kind, kinds = KINDS[_kind(errors[0][0])], dict.fromkeys(_kind(m) for m, _ in errors)
    if language == "zh":  # each kind once, with all the names it is about
        said = f"没能完成：{'；'.join(_in_chinese([e for e in errors if _kind(e[0]) == k]) for k in kinds)}。{kind[2]}"
    else:
        said = f"That didn't work: {sentence_end('; '.join(dict.fromkeys(m.rstrip('.') for m, _ in errors)), 'en')} {kind[3]}"
    return _said_its_own_way(errors[0][0], language) or said


def then(message: str, name: str = "") -> str | None:
    """What to try after this error (its [failures.next] entry): failed calls to retry alike are said in one sentence;
    None for an error said its own way (a person's no, a bug, a refusal), always alone."""
    message = _unnamed(message, name, "en")
    return None if _said_its_own_way(message, "en") else KINDS[_kind(message)][3]


def _unnamed(message: str, name: str, language: Language) -> str:
    """ "arguments for 'bash' do not match": the person asked for a thing done, not for a tool: its name left out."""
    for named, said, english in lexicon.words("answers")["failures"]["unnamed"]:
        message = re.sub(rf"{named}'{re.escape(name)}'", said if language == "zh" else english, message) if name else message
    return message


def _said_its_own_way(message: str, language: Language) -> str | None:
    """A person's no said as their no, a bug in the tool as needing a fix, a refusal as not done; None for the rest."""
    lowered = message.lower()
    if re.search(r"\b(?:user|person) (?:did not|didn't|declined|denied|refused|said no)\b", lowered):
        return say("declined", language)
    if re.search(r"\bbug\b|internal error", lowered) and (bug := re.search(r"\b(\w+(?:Error|Exception))\b", message)):
        return say("broken_tool", language, error=bug.group(1))  # a bug in the tool: the person needs to know it is broken
    if re.match(r"refused\b", lowered) or re.search(r"not allowed|forbidden", lowered):  # the call did not run: say why
        why = re.split(r"(?<=[.;])\s", message, maxsplit=1)[0].rstrip(".;")
        return f"我没有执行：{_in_chinese([(why, ())])}。" if language == "zh" else f"I didn't do that: {why}."
    return None


def _kind(message: str) -> int:
    """Which of KINDS an error is: the first whose words its message has."""
    return next(i for i, kind in enumerate(KINDS) if re.search(kind[0], message.lower()))


def _in_chinese(errors: list[tuple[str, tuple[str, ...]]]) -> str:
    """Errors of one kind (message, the values its call gave) in Chinese, the kind said once with every name it is
    about: no English sentence inside a Chinese reply."""
    pattern, said = KINDS[_kind(errors[0][0])][:2]
    if not said and all(is_chinese(m) and not re.search("[A-Za-z]{3}", m) for m, _ in errors):  # "该时段已满": as it is
        return "；".join(dict.fromkeys(m.rstrip("。") for m, _ in errors))
    said, ours = said or "工具报告了一个错误", []
    for message, given in errors:
        if "{name}" not in said:  # "（与 zorblax、qux 有关）": the names the messages quote
            ours += [n[1] for n in re.findall(NAME, message)]
            continue
        # the name the words are about: the call's, the one after them ("not found in 'a.txt'") first
        after = message[re.search(pattern, message.lower()).end():]
        ours += ([n[1] for n in re.findall(NAME, after) + re.findall(NAME, message) if not given or n[1] in given] or
                 list(given))[:1]
    if "{name}" in said:  # each name once
        return said.format(name=join(list(dict.fromkeys(ours)), "zh")) if ours else "工具报告了一个错误"
    return f"{said}（与 {'、'.join(dict.fromkeys(ours))} 有关）" if ours else said
