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
        return f"我没有执行：{why}。" if language == "zh" else f"I didn't do that: {why}."
    if re.search(r"not found|does not exist|no such|unknown|no match", lowered):
        advice = ("请检查名称是否正确，再试一次。", "Check the name and try again.")
    elif re.search(r"should be|must be|one of|expected|invalid|valid|greater than|less than|maxim|minim|not match", lowered):
        advice = ("请给我一个有效的值，我再试一次。", "Give me a valid value and I'll try again.")
    elif re.search(r"time(d)? ?out|unavailable|down|busy|rate limit|try again|503|502|500|429", lowered):
        advice = ("请稍后再试。", "Try again in a moment.")
    elif re.search(r"denied|permission|outside", lowered):
        advice = ("这个操作在这里不被允许。", "That isn't allowed here.")
    else:
        advice = ("请换个说法或换个值再试。", "You could try again with other details.")
    if language == "zh":
        return f"没能完成：{sentence_end(message, 'zh')}{advice[0]}"
    return f"That didn't work: {sentence_end(message, 'en')} {advice[1]}"

