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

from agentkit.offline import lexicon, reading
from agentkit.offline.instructions import WHO_ASKED
from agentkit.offline.language import is_chinese, language_of
from agentkit.offline.outputs import failure, then
from agentkit.offline.results import ACTIONS, TOOLISH, tell
from agentkit.offline.wording import Language, join, label, say

ANSWER, SAY = lexicon.words("answers")["answer"], lexicon.words("answers")["say"]
PLAIN_ANSWERS = [(set(plain["words"]), tuple(plain["zh_words"]), plain["en"], plain["zh"]) for plain in ANSWER["plain"]]
"""(English words, Chinese words, English answer, Chinese answer): the few plain questions the course asks."""
NOT_THE_CLOCK, GREETING, CAN_DO, WHO_ZH = (re.compile(ANSWER[k], re.I) for k in ("not_the_clock", "greeting", "can_do", "who_zh"))
NOT_AN_LLM, DONT_KNOW, GO_AHEAD, DOING_ZH = SAY["not_an_llm"]["en"], SAY["dont_know"], SAY["go_ahead"], ANSWER["doing_zh"]
SMALL_TALK = [(talk["said"], talk["en"], talk["zh"]) for talk in ANSWER["small_talk"]]
"""A thank-you, a goodbye, a greeting, an "ok" on its own: answered as a person would, never with a tool or "I don't know"."""


def small_talk(message: str, language: Language | None = None) -> str | None:
    """What a person answers to a short message that is only small talk; None for anything else."""
    language = language or language_of(message)
    short = len(message.split()) <= 8 and len(message) <= 40
    return next((chinese if language == "zh" else english for said, english, chinese in SMALL_TALK
                 if short and re.fullmatch(rf"\s*(?:{said})\s*[.!。！~]*\s*", message, re.IGNORECASE)), None)


def plain_answer(question: str, language: Language | None = None, results: list[tuple[str, dict[str, Any], str]] = ()) -> str:
    """The answer to a question no tool is used for: small talk, a plain answer it knows, what it is, or "I don't know";
    asked right after `results` ("so should I bring an umbrella?"), what they said: a stand-in cannot weigh them."""
    language = language or language_of(question)
    # a greeting answers a greeting ("Hello!", "hi there", "Say hello."), not "Translate hello into Spanish"
    greeted = GREETING.match(question)
    asked = set(reading.words(question)) - {"hello"} | ({"hello"} if greeted else set())
    for keys, zh_keys, english, chinese in PLAIN_ANSWERS:
        if keys == {"time"} and NOT_THE_CLOCK.search(question):  # "is the train on time?" asks no clock
            continue
        if keys <= asked or (zh_keys != ("你好",) and all(k in question for k in zh_keys)) or (greeted and "hello" in keys):
            return chinese if language == "zh" else english
    about = SAY["about_result"][language].format(said=sentences(list(results), question, language)) if results else None
    return SAY["not_an_llm"][language] if asks_who(question) else small_talk(question, language) or about or DONT_KNOW[language]


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
    description = re.split(r"[.,;(:，。；（：]", spec.get("description") or "")[0].strip()  # "城市名称，例如 北京": its name
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
    """One sentence per call, in the order of the calls, (tool name, arguments, result) each, as one answer; calls
    that failed alike (to be tried again the same way) said in one sentence, where the first of them was."""
    language = language or language_of(question)
    together: dict[int | str, list[tuple[str, str, tuple]]] = {}
    for i, (name, arguments, result) in enumerate(results):
        error = result.strip().removeprefix("Error:").strip()
        failed = (error, name, tuple(str(v) for v in arguments.values()))
        together.setdefault(result.strip().startswith("Error:") and then(error, name) or i, []).append(failed)
    said = [tell(*results[key], question, language, full) if isinstance(key, int) else
            failure(first[0], language, *first[1:], alike=tuple(rest)) for key, (first, *rest) in together.items()]
    return ("\n\n" if any("\n" in s for s in said) else "" if language == "zh" else " ").join(said)


def confirm_first(calls: list[tuple[str, dict[str, Any]]], language: Language) -> str:
    """What the model says instead of a call that changes something, when the system prompt says to ask first."""
    doing = [_what_it_does(name, arguments, language) for name, arguments in calls]
    return say("confirm_first", language, doing=join(doing, language), go_ahead=GO_AHEAD[language])


def _what_it_does(name: str, arguments: dict[str, Any], language: Language) -> str:
    """ "write notes.txt", "run `ls -l`", "send an email to bob@example.com": a call as words, not as its name."""
    words = [w for w in reading.split_name(name) if w not in TOOLISH]
    command = next((v for k, v in arguments.items() if k in ("command", "cmd") and isinstance(v, str)), None)
    target = next((str(v) for v in arguments.values() if isinstance(v, (str, int, float)) and not isinstance(v, bool)
                   and len(str(v)) <= 60 and "\n" not in str(v)), "")
    if command is not None:
        return say("run", language, command=command)
    if language == "zh":
        return f"{next((DOING_ZH[w] for w in words if w in DOING_ZH), '执行')} {target}".rstrip()
    return " ".join([*(w for w in words if w not in ("file",)), target]).strip()


def asks_who(question: str) -> bool:
    """The question asks the model who it is or what it can do, in English or in Chinese."""
    every_word = set(re.findall(r"[a-z]+", question.lower()))  # "who" and "you" are stop words elsewhere
    return any(words <= every_word for words in WHO_ASKED) or bool(WHO_ZH.search(question) or CAN_DO.search(question))


def introduction(role: str | None, question: str, tools: list[tuple[str, str]], language: Language) -> str | None:
    """Asked who it is, the role the system prompt gave it; asked what it can do, that role and, briefly, what its
    tools (name, description) let it do, as a real model says: "I am a coding agent: with my tools I can ..."; greeted
    ("hello") with tools offered, hello and what those tools let it do, never "offer me a tool"."""
    able = [_able(name, description, language) for name, description in tools]
    if tools and GREETING.match(question) and small_talk(question, language):
        return say("hello_tools", language, able=join(able, language))
    if role is None or not asks_who(question):
        return None
    able = able if CAN_DO.search(question) else []
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
