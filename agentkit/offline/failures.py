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
from agentkit.offline.wording import Language, say, sentence_end


def failure(message: str, language: Language, name: str = "", given: tuple[str, ...] = ()) -> str:
    """An error in plain words, then what to try: the message says what was wrong, and often what is valid. In
    Chinese, the name it is about is one the call `given` (never the message's example, "like 'notes.txt'")."""
    lowered = message.lower()
    if re.search(r"\b(?:user|person) (?:did not|didn't|declined|denied|refused|said no)\b", lowered):
        return say("declined", language)
    if name:  # "arguments for 'bash' do not match": the person asked for a thing done, not for a tool
        message = re.sub(rf"unknown tool '{re.escape(name)}'", "不存在的工具" if language == "zh" else
                         "a tool that does not exist", message)
        message = re.sub(rf"(?:\btool\s+)?'{re.escape(name)}'", "这个工具" if language == "zh" else "the tool", message)
    lowered = message.lower()
    bug = re.search(r"\b(\w+(?:Error|Exception))\b", message) if re.search(r"\bbug\b|internal error", lowered) else None
    if bug:  # a bug in the tool: the dispatcher's words are for the model; the person needs to know it is broken
        return say("broken_tool", language, error=bug.group(1))
    if re.match(r"refused\b", lowered) or re.search(r"not allowed|forbidden", lowered):  # the call did not run: say so, and why
        why = re.split(r"(?<=[.;])\s", message, maxsplit=1)[0].rstrip(".;")
        return f"我没有执行：{_in_chinese(why, '这个操作在这里不被允许')}。" if language == "zh" else f"I didn't do that: {why}."
    kind = next(k for k in KINDS if re.search(k[0], lowered))
    if language == "zh":
        return f"没能完成：{_in_chinese(message, given=given)}。{kind[2]}"
    return f"That didn't work: {sentence_end(message, 'en')} {kind[3]}"


NEXT = lexicon.words("answers")["failures"]["next"]
KINDS = [(words, zh, NEXT[then]["zh"], NEXT[then]["en"]) for words, zh, then in lexicon.words("answers")["failures"]["kinds"]]
"""Each kind of error, found by its meaning, never by agentkit's exact sentence (words, in Chinese, what to try next in
Chinese and in English): a tool that words its errors its own way is understood too. The Chinese keeps names as written."""
NAME = r"(?P<q>['\"])(?P<name>.+?)(?P=q)"


def _in_chinese(message: str, general: str = "工具报告了一个错误", given: tuple[str, ...] = ()) -> str:
    """A tool's error in Chinese, by its kind: no English sentence inside a Chinese reply."""
    lowered = message.lower()
    names = [m.group("name") for m in re.finditer(NAME, message)]
    found, said = next((found, k[1]) for k in KINDS for found in [re.search(k[0], lowered)] if found)
    said = said or general
    if "{name}" in said:  # the name the words are about: the call's, the one after them ("not found in 'a.txt'") first
        ours = [n for n in re.findall(NAME, message[found.end():]) + re.findall(NAME, message) if not given or n[1] in given]
        return said.format(name=ours[0][1]) if ours else said.format(name=given[0]) if given else general
    return f"{said}（与 {'、'.join(names)} 有关）" if names else said
