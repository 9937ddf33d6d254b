"""An `Error:` result in plain words, in the learner's language, with what to try next.

A tool's error message is written for the model ("should be one of: …", "use glob to see which files there
are"); the person reads what went wrong and what to do: check a name, wait and retry, give a valid value.
It reads a result as a real model would, by its meaning, never by the exact wording of agentkit's messages: a
person's no is said as their no, a refusal as not done, a bug in the tool as needing a fix, not another try. The
tool's name is never repeated.
"""

from __future__ import annotations

import re

from agentkit.offline.wording import Language, sentence_end


def failure(message: str, language: Language, name: str = "", given: tuple[str, ...] = ()) -> str:
    """An error in plain words, then what to try: the message says what was wrong, and often what is valid. In
    Chinese, the name it is about is one the call `given` (never the message's example, "like 'notes.txt'")."""
    lowered = message.lower()
    if re.search(r"\b(?:user|person) (?:did not|didn't|declined|denied|refused|said no)\b", lowered):
        return "我没有执行：你没有同意，所以它没有运行。你想换成什么做法？" if language == "zh" else \
            "I didn't do that: you said no, so it did not run. What would you like me to do instead?"
    if name:  # "arguments for 'bash' do not match": the person asked for a thing done, not for a tool
        message = re.sub(rf"unknown tool '{re.escape(name)}'", "不存在的工具" if language == "zh" else
                         "a tool that does not exist", message)
        message = re.sub(rf"(?:\btool\s+)?'{re.escape(name)}'", "这个工具" if language == "zh" else "the tool", message)
    lowered = message.lower()
    bug = re.search(r"\b(\w+(?:Error|Exception))\b", message) if re.search(r"\bbug\b|internal error", lowered) else None
    if bug:  # a bug in the tool: the dispatcher's words are for the model; the person needs to know it is broken
        if language == "zh":
            return f"没能完成：这个工具本身有错误（内部错误 {bug.group(1)}），再试也没有用，需要修好工具。"
        return f"That didn't work: the tool itself is broken (an internal error, {bug.group(1)}), so trying again won't help."
    if re.match(r"refused\b", lowered) or re.search(r"not allowed|forbidden", lowered):  # the call did not run: say so, and why
        why = re.split(r"(?<=[.;])\s", message, maxsplit=1)[0].rstrip(".;")
        return f"我没有执行：{_in_chinese(why, '这个操作在这里不被允许')}。" if language == "zh" else f"I didn't do that: {why}."
    kind = next(k for k in KINDS if re.search(k[0], lowered))
    if language == "zh":
        return f"没能完成：{_in_chinese(message, given=given)}。{kind[2]}"
    return f"That didn't work: {sentence_end(message, 'en')} {kind[3]}"


CHECK = ("请检查名称是否正确，再试一次。", "Check the name and try again.")
VALID = ("请给我一个有效的值，我再试一次。", "Give me a valid value and I'll try again.")
LATER = ("请稍后再试。", "Try again in a moment.")
REFUSED = ("这个操作在这里不被允许。", "That isn't allowed here.")
OTHER = ("请换个说法或换个值再试。", "You could try again with other details.")
KINDS = [  # each kind of error by generic words any tool's message would use: (words, in Chinese, what to try next)
    (r"denied|not allowed|permission|forbidden|refused", "这个操作在这里不被允许", *REFUSED),
    (r"\b(?:not|never) (?:found|present|contained) in\b|\bno match(?:es)? (?:for|in)\b", "在 {name} 里没有找到要找的文字",
     *CHECK),
    (r"\b(?:appears|occurs|is found|matches) (?:\d+|several|many|multiple) times\b|more than once|ambiguous",
     "要找的文字在 {name} 里出现了不止一次，不知道该是哪一处", *OTHER),
    (r"\boutside\b|\bis absolute\b|climbs out|escapes", "{name} 在工作区之外，不能使用", *REFUSED),
    (r"\bis a (?:folder|directory)\b|names a (?:folder|directory)|workspace root", "{name} 是文件夹，不是文件", *CHECK),
    (r"\bnot (?:utf-8 )?text\b|\bbinary\b|\bnul bytes?\b|not utf-8", "{name} 不是文本文件", *OTHER),
    (r"not found|does not exist|doesn't exist|no such|unknown|not recogni[sz]ed|no match|(?:names|matches) nothing",
     "不认识或找不到 {name}", *CHECK),
    (r"\bonly (?:has|have) \d+|\bhas \d+ \w+; |out of range|beyond the end|past the end", "{name} 没有那么长", *VALID),
    (r"\b(?:is|was) empty\b|\bmissing\b|\bis required\b|\bno \w+ (?:was )?given\b", "缺少需要的值", *VALID),
    (r"should be|must be|one of|expected|invalid|valid|greater than|less than|maxim|minim|not match",
     "给出的值不符合要求", *VALID),
    (r"time(?:d)? ?out|took too long|killed after", "运行超时了", *LATER),
    (r"unavailable|\bdown\b|busy|rate limit|try again|503|502|500|429", "服务暂时不可用", *LATER),
    (r"", "", *OTHER),
]
"""Each kind of error, found by its meaning, never by agentkit's exact sentence: a tool that words its errors its
own way is understood too. The Chinese keeps the names and paths as written."""
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
