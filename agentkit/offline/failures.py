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


def failure(message: str, language: Language, name: str = "") -> str:
    """An error in plain words, then what to try: the message says what was wrong, and often what is valid."""
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
    advice = next(said for words, *said in ADVICE if re.search(words, lowered))
    if language == "zh":
        return f"没能完成：{_in_chinese(message)}。{advice[0]}"
    return f"That didn't work: {sentence_end(message, 'en')} {advice[1]}"


ADVICE = [  # what the words of an error say to try next: (its words, in Chinese, in English)
    (r"not found|does not exist|no such|unknown|no match", "请检查名称是否正确，再试一次。", "Check the name and try again."),
    (r"should be|must be|one of|expected|invalid|valid|greater than|less than|maxim|minim|not match",
     "请给我一个有效的值，我再试一次。", "Give me a valid value and I'll try again."),
    (r"time(d)? ?out|unavailable|down|busy|rate limit|try again|503|502|500|429", "请稍后再试。", "Try again in a moment."),
    (r"denied|not allowed|permission|forbidden|refused|outside", "这个操作在这里不被允许。", "That isn't allowed here."),
    (r"", "请换个说法或换个值再试。", "You could try again with other details."),
]


NAME = r"(?P<q>['\"])(?P<name>.+?)(?P=q)"
ERRORS_ZH = [  # each class of error agentkit's tools raise (tools/, hardening/), in Chinese, names and paths as written
    (rf"old_text was not found in {NAME}", "在 {name} 里没有找到要替换的文字"),
    (rf"old_text appears (?P<n>\d+) times in {NAME}", "要替换的文字在 {name} 里出现了 {n} 次，不知道该换哪一处"),
    (r"old_text is empty", "没有给出要替换的文字"),
    (rf"^{NAME} does not exist", "{name} 不存在"),
    (rf"^(?:the pattern )?{NAME} (?:leads outside the workspace|is absolute|climbs out)", "{name} 在工作区之外，不能使用"),
    (rf"^{NAME} (?:is not UTF-8 text|holds NUL bytes)", "{name} 不是文本文件"),
    (rf"^{NAME} (?:is a folder|is a directory|ends with .* names a folder)|^'\.' is the workspace root",
     "{name} 是文件夹，不是文件"),
    (rf"^{NAME} (?:is not a regular file|is a )", "{name} 不是普通文件"),
    (rf"^{NAME} has (?P<n>\d+) lines?; offset", "{name} 只有 {n} 行"),
    (rf"[Uu]nknown time zone {NAME}", "不认识时区 {name}"),
    (r"^the (?:path|pattern|\w+) is empty", "没有给出路径"),
    (rf"^the pattern {NAME} names nothing", "搜索模式 {name} 什么也匹配不到"),
    (r"timed? ?out|killed after", "运行超时了"),
    (r"invalid arguments|do not match|should be|must be|not valid|expected", "给出的值不符合要求"),
]
"""Each known class of error, found by its words; anything else is said in general words (never in English)."""


def _in_chinese(message: str, general: str = "工具报告了一个错误") -> str:
    """A tool's error in Chinese, by its class: no English sentence inside a Chinese reply."""
    for pattern, said in ERRORS_ZH:
        found = re.search(pattern, message)
        if found:
            values = found.groupdict()
            return said.format(name=values.get("name") or ".", n=values.get("n"))
    names = [m.group("name") for m in re.finditer(NAME, message)]
    return f"{general}（与 {'、'.join(names)} 有关）" if names else general
