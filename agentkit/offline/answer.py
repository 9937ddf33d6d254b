"""Step 3: answer in sentences, in the learner's language: from tool results, for a missing value, or without tools.

- after tool results: one sentence per result (results.py says what a result of each shape means), joined
  into one answer: "It's 22:53 in Tokyo (Friday, 4 December 2026). It's 14:53 in Paris (…)."; never the
  tool's name, never its raw JSON;
- a call that lacks a required value: the question a person would ask, by the value's meaning ("Which
  repository should I use for the issue?"), derived from the parameter's name and description;
- no tool fits: one of a few plain answers, or a short honest "I don't know that", in the learner's language.
"""

from __future__ import annotations

import re
from typing import Any

from agentkit.offline import reading
from agentkit.offline.instructions import WHO_ASKED
from agentkit.offline.language import is_chinese, language_of
from agentkit.offline.results import ACTIONS, TOOLISH, tell
from agentkit.offline.wording import Language, join, label

PLAIN_ANSWERS = [
    ({"caffeine", "tea"}, ("茶", "咖啡因"), "A cup of green tea (about 240 ml) has roughly 30-50 mg of caffeine, "
                                         "about a third of a cup of coffee.",
     "一杯绿茶（约 240 毫升）大约含 30-50 毫克咖啡因，约为一杯咖啡的三分之一。"),
    ({"time"}, ("几点", "时间"), "I can't know the current time: no model has a clock or the internet. "
                              "Give me a tool that reads the clock and I can use it.",
     "我不知道现在的时间：模型都没有时钟，也不能上网。给我一个读取时钟的工具，我就能用它。"),
    ({"capital", "france"}, ("法国", "首都"), "The capital of France is Paris.", "法国的首都是巴黎。"),
    ({"hello"}, ("你好",), "Hello! I am the course's offline model. Ask me something, or offer me a tool.",
     "你好！我是课程的离线模型。问我一个问题，或者给我一个工具。"),
]
"""(English words, Chinese words, English answer, Chinese answer): the few plain questions the course asks."""
NOT_THE_CLOCK = re.compile(r"\b(?:on|in|any|free|spare|first|last|next|same|whole|long|some|no|full|part)[ -]time\b|"
                           r"\btime (?:zone|limit|off|travel|management)\b", re.IGNORECASE)
"""'on time', 'the first time', 'free time': the word 'time' in a question that does not ask what time it is."""
NOT_AN_LLM = ("I am the course's offline model: a small deterministic stand-in for an LLM, used when no "
              "MODEL_API_KEY is set. I can answer a few fixed questions and call the tools you offer me when "
              "your question fits one; for anything else, set MODEL_API_KEY in .env and talk to a real model.")
NOT_AN_LLM_ZH = ("我是本课程的离线模型：在没有设置 MODEL_API_KEY 时代替大语言模型的一个小而确定的程序。"
                 "我能回答几个固定的问题，并在问题适合时调用你提供的工具；"
                 "其他问题请在 .env 里设置 MODEL_API_KEY，使用真正的模型。")
DONT_KNOW = {"en": "I don't know that one, and none of the tools I have can look it up.",
             "zh": "这个问题我答不上来，我手头的工具也查不到。"}
GREETING = re.compile(r"\s*(?:(?:please\s+)?say\s+)?(?:hello|hi|hey|hiya|good (?:morning|afternoon|evening))\b"
                      r"|\s*(?:你好|您好|嗨)", re.IGNORECASE)
SMALL_TALK = (  # (a short message that is only this, what a person answers in English, in Chinese)
    (r"(?:(?:ok|okay|great|cool|perfect|nice|awesome)\W+)?(?:many\s+)?(?:thanks|thank\s+you|thx|cheers|ty)\b[\w\s,!.'’]*"
     r"|(?:好的?\W*)?(?:谢谢|多谢|感谢)\w*", "You're welcome.", "不客气。"),
    (r"(?:bye|goodbye|see you|good night)\b[\w\s,!.'’]*|再见|拜拜", "Goodbye!", "再见！"),
    (r"(?:hi|hey|hello|hiya|good (?:morning|afternoon|evening))(?:\s+there)?|你好|您好|嗨|早上好|晚上好",
     "Hello! What can I do for you?", "你好！有什么可以帮你？"),
    (r"ok|okay|great|cool|nice|perfect|got it|fine|alright|sounds good|好的?|明白了?|知道了|行|嗯",
     "Good. What would you like to do next?", "好的。接下来想做什么？"),
)
"""A thank-you, a goodbye, a greeting, an "ok" on its own: answered as a person would, never with a tool or "I don't know"."""


def small_talk(message: str, language: Language | None = None) -> str | None:
    """What a person answers to a short message that is only small talk; None for anything else."""
    language = language or language_of(message)
    if len(message.split()) > 8 or len(message) > 40:
        return None
    return next((chinese if language == "zh" else english for said, english, chinese in SMALL_TALK
                 if re.fullmatch(rf"\s*(?:{said})\s*[.!。！~]*\s*", message, re.IGNORECASE)), None)


def plain_answer(question: str, language: Language | None = None) -> str:
    """The answer to a question no tool is used for: small talk, a plain answer it knows, what it is, or "I don't know"."""
    language = language or language_of(question)
    # a greeting answers a greeting ("Hello!", "hi there", "Say hello."), not "Translate hello into Spanish"
    greeted = GREETING.match(question)
    asked = set(reading.words(question)) - {"hello"} | ({"hello"} if greeted else set())
    for keys, zh_keys, english, chinese in PLAIN_ANSWERS:
        if keys == {"time"} and NOT_THE_CLOCK.search(question):  # "is the train on time?" asks no clock
            continue
        if keys <= asked or (zh_keys != ("你好",) and all(k in question for k in zh_keys)) or (greeted and "hello" in keys):
            return chinese if language == "zh" else english
    if asks_who(question):
        return NOT_AN_LLM_ZH if language == "zh" else NOT_AN_LLM
    return small_talk(question, language) or DONT_KNOW[language]


def ask_for(tool: str, missing: list[str], language: Language = "en", schema: dict | None = None) -> str:
    """The question a person would ask for the values a call lacks: "Which repository should I use for the issue?"."""
    properties = (schema or {}).get("properties") or {}
    nouns = [_meaning(name, properties.get(name) or {}, language) for name in missing]
    words = reading.split_name(tool)
    # what the call makes, when its name says so: open_ticket -> "the ticket"; fetch_conditions names nothing made
    thing = [w for w in words[1:] if w not in TOOLISH] if words and words[0] in ACTIONS else []
    if language == "zh":
        return f"请问{join(nouns, 'zh')}是什么？"
    numeric = all((properties.get(n) or {}).get("type") in ("number", "integer") for n in missing)
    subject = f" for the {' '.join(label(w, 'en')[0] for w in thing)}" if thing else ""
    counted = numeric and nouns[-1].endswith("s")  # "How many years", "What amount", "Which repository"
    return f"{'How many' if counted else 'What' if numeric else 'Which'} {join(nouns, 'en')} should I use{subject}?"


def _meaning(name: str, spec: dict[str, Any], language: Language) -> str:
    """What a parameter is, in words: its name written out, or its description when the name says little."""
    said, _ = label(name, language)
    vague = all(len(w) <= 2 or w in ("value", "input", "arg", "param", "data") for w in reading.split_name(name))
    description = re.split(r"[.,;(:]", spec.get("description") or "")[0].strip()
    if language == "zh" and is_chinese(description):  # "原单位": a Chinese description says it best
        return description
    if vague and language == "en" and description and len(description.split()) <= 8:
        described = re.sub(r"^(?:the|a|an)\s+", "", description, flags=re.I)
        return described[:1].lower() + described[1:]
    if language == "zh" and re.search(r"[A-Za-z]", said):  # an English description is never pasted into Chinese:
        return {"integer": "数字", "number": "数字", "array": "各项"}.get(spec.get("type"), "要用的内容")  # its kind
    return said


def sentences(results: list[tuple[str, dict[str, Any], str]], question: str = "", language: Language | None = None,
              full: bool = False) -> str:
    """One sentence per call, in the order of the calls, (tool name, arguments, result) each, as one answer."""
    language = language or language_of(question)
    said = [tell(name, arguments, result, question, language, full) for name, arguments, result in results]
    joiner = "\n\n" if any("\n" in s for s in said) else ("" if language == "zh" else " ")
    return joiner.join(said)


GO_AHEAD = {"en": "Shall I go ahead?", "zh": "可以继续吗？"}
"""How the model asks for a yes before a call that changes something; a yes after it lets the call run."""
DOING_ZH = {"write": "写入", "edit": "修改", "delete": "删除", "remove": "删除", "create": "创建", "save": "保存",
            "move": "移动", "rename": "重命名", "send": "发送", "run": "运行", "update": "更新", "add": "添加",
            "append": "追加", "post": "发布", "upload": "上传", "bash": "运行命令", "shell": "运行命令", "read": "读取",
            "get": "查看", "find": "查找", "glob": "查找文件", "search": "搜索", "list": "列出", "ask": "询问"}


def confirm_first(calls: list[tuple[str, dict[str, Any]]], language: Language) -> str:
    """What the model says instead of a call that changes something, when the system prompt says to ask first."""
    doing = [_what_it_does(name, arguments, language) for name, arguments in calls]
    if language == "zh":
        return f"在动手之前先问一下：我准备{join(doing, 'zh')}。{GO_AHEAD['zh']}"
    return f"Before I change anything: I'm about to {join(doing, 'en')}. {GO_AHEAD['en']}"


def _what_it_does(name: str, arguments: dict[str, Any], language: Language) -> str:
    """ "write notes.txt", "run `ls -l`", "send an email to bob@example.com": a call as words, not as its name."""
    words = [w for w in reading.split_name(name) if w not in TOOLISH]
    command = next((v for k, v in arguments.items() if k in ("command", "cmd") and isinstance(v, str)), None)
    target = next((str(v) for v in arguments.values() if isinstance(v, (str, int, float)) and not isinstance(v, bool)
                   and len(str(v)) <= 60 and "\n" not in str(v)), "")
    if command is not None:
        return f"运行 `{command}`" if language == "zh" else f"run `{command}`"
    if language == "zh":
        verb = next((DOING_ZH[w] for w in words if w in DOING_ZH), "执行")
        return f"{verb} {target}".rstrip()
    return " ".join([*(w for w in words if w not in ("file",)), target]).strip()


CAN_DO = re.compile(r"\bwhat (?:can|could) you (?:do|help)|\bwhat are you (?:able|good) |你(?:能|会|可以)(?:做|干|帮我)?什么",
                    re.IGNORECASE)
WHO_ZH = re.compile(r"你是谁|你是什么|你叫什么")


def asks_who(question: str) -> bool:
    """The question asks the model who it is or what it can do, in English or in Chinese."""
    every_word = set(re.findall(r"[a-z]+", question.lower()))  # "who" and "you" are stop words elsewhere
    return any(words <= every_word for words in WHO_ASKED) or bool(WHO_ZH.search(question) or CAN_DO.search(question))


def introduction(role: str | None, question: str, tools: list[tuple[str, str]], language: Language) -> str | None:
    """Asked who it is, the role the system prompt gave it; asked what it can do, that role and, briefly, what its
    tools (name, description) let it do, as a real model says: "I am a coding agent: with my tools I can ..."; greeted
    ("hello") with tools offered, hello and what those tools let it do, never "offer me a tool"."""
    can_do = CAN_DO.search(question) is not None
    if tools and GREETING.match(question) and small_talk(question, language):
        said = "你好！我可以用工具{}。有什么可以帮你？" if language == "zh" else \
            "Hello! With my tools I can {}. What can I do for you?"
        return said.format(join([_able(name, description, language) for name, description in tools], language))
    if role is None or not asks_who(question):
        return None
    able = [_able(name, description, language) for name, description in tools] if can_do else []
    if language == "zh":
        named = is_chinese(role[:1]) or re.match(r"(?!(?:An?|The)\b)[A-Z]", role)  # "Ada"; "a coding agent" is quoted
        said = f"我是{role if is_chinese(role[:1]) else f' {role}'}" if named else f"系统提示给我的角色是“{role}”"
        return said + (f"：我可以用工具{join(able, 'zh')}。" if able else "。")
    return f"I am {role}" + (f": with my tools I can {join(able, 'en')}." if able else ".")


def _able(name: str, description: str, language: Language) -> str:
    """What one tool lets the model do, in a few words: its description's first clause, or its name read as words."""
    if language == "en" and not is_chinese(description) or language == "zh" and is_chinese(description):
        clause = re.split(r"[.,:;(\n。，；：（]| and (?:returns?|waits?)\b| whose | which | in the ", description)[0].strip()
        if len(clause.split()) >= 2 or is_chinese(clause):
            clause = clause if clause[1:2].isupper() else clause[:1].lower() + clause[1:]
            return re.sub(r"\bthe user\b", "you", clause)
    words = reading.split_name(name)
    if language == "en":
        return " ".join(words)
    verb = next((w for w in words if w in DOING_ZH), None)
    thing = label("_".join(w for w in words if w != verb and w not in TOOLISH), "zh")[0] if len(words) > 1 else ""
    return f"{DOING_ZH.get(verb or '', '使用')}{thing}"


def not_allowed(language: Language) -> str:
    """The model was told never to use the only tool that would do this."""
    return "按照给我的指示，我不能使用做这件事所需的工具，所以这次帮不了你。" if language == "zh" else \
        "My instructions rule out the tool this would need, so I can't do it here."
