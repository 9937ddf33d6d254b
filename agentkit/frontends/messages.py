"""What the front ends say to the person, in English or Simplified Chinese (issue 28): two tables and the choice.

Only the person's text is here: the chat's lines, a call that did not run, the web page's labels. What the
model reads (tool results, the system prompt) stays English, and so do tool names, commands and paths.

    >>> say("you declined", "zh", call="write_file notes.txt")
    '你拒绝了：write_file notes.txt'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextvars import ContextVar
from typing import get_args

from agentkit.asking import Cancelled, Question
from agentkit.decisions import Decision, Rule
from agentkit.limits import LimitReached
from agentkit.recovery import NOTE, PROVIDER_FIX, SERVER_FIXES, RecoveryNote
from agentkit.task import StopReason

LANGUAGES = ("en", "zh")
"""The languages the person can be spoken to in: `--lang en|zh`, or the locale's (`LANG=zh_CN.UTF-8`)."""

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "chat help": "Type a request. /cancel (when asked a question) stops the task; /explain shows how the offline "
                     "model read your last request; /exit ends the chat.",
        "nothing to explain": "Nothing to explain yet: type a request first, then /explain.",
        "unknown command": "The chat has no command {command}: its commands are /help, /cancel, /explain and /exit (to ask "
                           "about a path, write it in a sentence).",
        "chat start": "agentkit chat: model {model}, workspace {workspace}",
        "bye": "bye", "you prompt": "you> ", "agent prompt": "agent> ", "thinking": "(thinking) {text}",
        "note": "[note: {text}]", "recovered note": NOTE,
        "ended SIGINT": "stopped (Ctrl-C)", "ended SIGTERM": "stopped (SIGTERM)",
        "ended SIGHUP": "stopped (the terminal hung up)",
        "workspace refused": "cannot use {root} as the workspace ({reason}): give a folder you can write to with "
                             "--workspace PATH",
        "no task": "No task is running: /cancel stops a task when it asks you something. /exit ends the chat.",
        "confirm": "Allow {tool} {arguments}? [y/N]",
        "task status": "[task {status}]", "task status because": "[task {status}: {reason}]",
        "status cancelled": "cancelled", "status limit reached": "limit reached", "status failed": "failed",
        "status running": "running", "status completed": "completed",
        "you declined": "You declined: {call}", "cancelled call": "Cancelled: {call}",
        "not run": "Not run: {call} ({reason})",
        "because tool exists": "the model called a tool that does not exist",
        "because allowed tools": "this tool is not allowed in this task",
        "because valid arguments": "the model's arguments do not fit the tool",
        "because confirmation": "nobody could be asked to allow it",
        "because max_tool_calls_per_task": "the task has used all its tool calls (Limits.max_tool_calls_per_task)",
        "because max_tool_calls_per_turn": "more calls in one reply than are run at once (Limits.max_tool_calls_per_turn)",
        "because max_denials_per_task": "you declined as many calls as one task may ask (Limits.max_denials_per_task)",
        # Why a task stopped (`agentkit.task.StopReason`), worded from the value it carries.
        "stopped answer call": "you answered {answer} when asked to allow {tool}",
        "stopped answer question": "you answered {answer} to the question \"{question}\"",
        "stopped SIGINT": "interrupted (Ctrl-C)", "stopped SIGHUP": "the terminal hung up (SIGHUP)",
        "stopped SIGTERM": "asked to stop (SIGTERM)", "stopped the page's Stop button": "you stopped it from the page",
        "stopped max_turns": "it used all {value} of its model turns without an answer; to allow more: {how}",
        "stopped max_tool_calls_per_task": "it used all {value} of its tool calls; to allow more: {how}",
        "stopped max_denials_per_task": "you declined {value} calls, as many as one task asks; to allow more: {how}",
        "stopped unreachable": "the model could not be reached: {detail}",
        "stopped unusable": "the model's reply could not be used: {detail}",
        "stopped before it started": "stopped before it started",
        "stopped internal error": "internal error: {detail} (see the server's log)",
        # The web page (agentkit/frontends/web/page.html): `page ` keys are filled into it, with {name} left for the page.
        "page html lang": "en", "page ready": "ready", "page working": "working…", "page system prompt": "system prompt",
        "page placeholder": "Ask for something; the agent can use its tools", "page send": "Send", "page stop": "Stop",
        "page approve": "Approve", "page deny": "Deny", "page reply": "Reply", "page your answer": "your answer",
        "page cancel task": "Cancel task", "page approved": "approved", "page denied": "denied",
        "page answered": "answered: {answer}", "page not sent": "not sent ({problem})",
        "page turn ended": "the turn has ended", "page disconnected": "disconnected",
        "page connection lost": "connection lost ({error}): the server has stopped; start `agentkit web` again and open "
                                "the address it prints",
        "page stream cut": "the turn's stream ended before the turn did",
        "page not stopped": "not stopped ({problem})", "page thinking": "thinking", "page note": "note: {text}",
        "page text call": "a tool call the model wrote as text", "page task": "task {status}",
        "page task because": "task {status}: {reason}", "page none": "(none)", "page not loaded": "not loaded ({problem})",
        "page hidden one": "1 hidden character is marked ⟨U+…⟩: they are part of what would run.",
        "page hidden many": "{count} hidden characters are marked ⟨U+…⟩: they are part of what would run.",
        # A plan in a tool's result, drawn as a checklist by the chat and the page (`agentkit.frontends.checklist`).
        "plan heading": "plan ({done}/{total} done)", "plan in progress": " (in progress)",
    },
    "zh": {
        "chat help": "输入你的请求。/cancel（在被提问时）停止当前任务；/explain 显示离线模型如何理解你上一个请求；"
                     "/exit 结束对话。",
        "nothing to explain": "还没有可以解释的请求：先输入一个请求，再输入 /explain。",
        "unknown command": "聊天程序没有 {command} 这个命令：它的命令有 /help、/cancel、/explain 和 /exit（要问某个路径，"
                           "请把它写进一句话里）。",
        "chat start": "agentkit chat：模型 {model}，工作区 {workspace}",
        "bye": "再见", "you prompt": "你> ", "agent prompt": "助手> ", "thinking": "（思考）{text}", "note": "[提示：{text}]",
        "recovered note": "服务器把这个工具调用写成了文本发来，已从文本中把它读了回来（RECOVER_TEXT_CALLS）。"
                          "要让它原生返回工具调用：{fix}。",
        "ended SIGINT": "已停止（Ctrl-C）", "ended SIGTERM": "已停止（SIGTERM）", "ended SIGHUP": "已停止（终端已挂断）",
        "workspace refused": "不能把 {root} 用作工作区（{reason}）：请用 --workspace PATH 指定一个你能写入的文件夹",
        "no task": "当前没有正在运行的任务：/cancel 用于在任务向你提问时停止它。/exit 结束对话。",
        "confirm": "允许运行 {tool} {arguments} 吗？[y/N]",
        "task status": "[任务{status}]", "task status because": "[任务{status}：{reason}]",
        "status cancelled": "已取消", "status limit reached": "已达上限", "status failed": "失败",
        "status running": "运行中", "status completed": "已完成",
        "you declined": "你拒绝了：{call}", "cancelled call": "已取消：{call}",
        "not run": "未运行：{call}（{reason}）",
        "because tool exists": "模型调用了一个不存在的工具",
        "because allowed tools": "本任务不允许使用这个工具",
        "because valid arguments": "模型给出的参数不符合该工具的要求",
        "because confirmation": "没有人可以被询问是否允许它",
        "because max_tool_calls_per_task": "本任务的工具调用次数已用完（Limits.max_tool_calls_per_task）",
        "because max_tool_calls_per_turn": "一次回复中的调用多于一次能运行的数量（Limits.max_tool_calls_per_turn）",
        "because max_denials_per_task": "你拒绝的调用已达到一个任务允许的次数（Limits.max_denials_per_task）",
        "stopped answer call": "问你是否允许 {tool} 时，你回答了 {answer}",
        "stopped answer question": "你对问题“{question}”回答了 {answer}",
        "stopped SIGINT": "已中断（Ctrl-C）", "stopped SIGHUP": "终端已挂断（SIGHUP）",
        "stopped SIGTERM": "收到停止请求（SIGTERM）", "stopped the page's Stop button": "你在页面上停止了它",
        "stopped max_turns": "它用完了全部 {value} 次模型回复，仍没有给出回答；如需放宽：{how}",
        "stopped max_tool_calls_per_task": "它用完了全部 {value} 次工具调用；如需放宽：{how}",
        "stopped max_denials_per_task": "你已拒绝 {value} 次调用，达到一个任务询问的上限；如需放宽：{how}",
        "stopped unreachable": "无法连接到模型：{detail}",
        "stopped unusable": "模型的回复无法使用：{detail}",
        "stopped before it started": "在开始之前就被停止了",
        "stopped internal error": "内部错误：{detail}（详见服务器日志）",
        "page html lang": "zh-CN", "page ready": "就绪", "page working": "工作中…", "page system prompt": "系统提示词",
        "page placeholder": "提出你的请求；智能体可以使用它的工具", "page send": "发送", "page stop": "停止",
        "page approve": "批准", "page deny": "拒绝", "page reply": "回复", "page your answer": "你的回答",
        "page cancel task": "取消任务", "page approved": "已批准", "page denied": "已拒绝",
        "page answered": "已回答：{answer}", "page not sent": "未发送（{problem}）",
        "page turn ended": "本轮已结束", "page disconnected": "已断开",
        "page connection lost": "连接中断（{error}）：服务器已停止；请重新运行 `agentkit web` 并打开它打印的地址",
        "page stream cut": "这一轮的数据流在这一轮结束之前就中断了",
        "page not stopped": "未能停止（{problem}）", "page thinking": "思考过程", "page note": "提示：{text}",
        "page text call": "模型以文本形式写出的工具调用", "page task": "任务{status}",
        "page task because": "任务{status}：{reason}", "page none": "（无）", "page not loaded": "未能加载（{problem}）",
        "page hidden one": "有 1 个隐藏字符被标记为 ⟨U+…⟩：它是将要运行的内容的一部分。",
        "page hidden many": "有 {count} 个隐藏字符被标记为 ⟨U+…⟩：它们是将要运行的内容的一部分。",
        "plan heading": "计划（已完成 {done}/{total}）", "plan in progress": "（进行中）",
        # A command refused at launch (`error_for_the_person`): the English is the error's own message, where it is
        # raised with its key and values (`agentkit.config.load_settings`, then `agentkit.frontends.own_agent`).
        "error no file": "没有找到设置文件 {path}：把 .env.example 复制为 .env，再填写它",
        "error recovery": "RECOVER_TEXT_CALLS={value!r} 不是可选的值：应当是 auto、on 或 off 之一（auto：除了 OpenAI 自己的 "
                          "API，对所有服务器都开启）",
        "error url": "BASE_URL 不是网址：请填写模型服务商的 OpenAI 兼容接口地址，以 http:// 或 https:// 开头，例如 "
                     "https://api.openai.com/v1（README 里有一张表）",
        "error variant": "MODEL={value!r} 不是离线模型的变体；应当是其中之一：{known}（或者设置 MODEL_API_KEY，使用真实模型）",
        "error key": "MODEL_API_KEY 里有空格或引号：只填密钥本身，和模型服务商显示的一样",
        "error model": "没有设置 MODEL：请填写模型服务商的模型名，例如 MODEL=gpt-4o-mini（README 的服务商表格里每一家都有）",
        "error prompt unreadable": "无法读取系统提示词文件 {path}（报错：“{error}”）：请给出一个 UTF-8 文本文件",
        "error prompt empty": "系统提示词文件 {path} 是空的：请在里面写下给智能体的说明",
        "error spec": "{flag} {spec!r}：请写成 module:{what}（例如 {example}）或 file.py:{what}",
        "error import": "{flag} {spec!r}：无法导入 {where}（报错：“{error}”）",
        "error no function": "--tools {spec!r}：{module} 里没有函数 {name!r}；它的函数有：{names}",
        "error not a registry": "--tools {spec!r} 返回了 {type}：请返回 build_registry([...]) 或一个工具列表",
        "error no policy": "--policy {spec!r}：{module} 里没有 {name}；它里面的工具策略：{names}"
                           "（一个也没有的话，请在里面写 POLICY = ToolPolicy(...)）",
        "error not a policy": "--policy {spec!r}：{module}.{name} 是 {type}，不是一个 ToolPolicy；它里面的工具策略：{names}"
                              "（一个也没有的话，请在里面写 POLICY = ToolPolicy(...)）",
    },
}
"""key -> text, one table per language, with the same keys (a test checks it) but for `error ` keys, which only the
languages other than English have; {name} is filled in by `say`."""

FIXES_ZH = {
    "ollama": "Ollama 只对模板支持工具的模型返回工具调用：请从 https://ollama.com/search?c=tools 列出的模型中选一个"
              "（`ollama show MODEL --template` 可以查看模板）",
    "vllm": "启动 vLLM 时要加上 --enable-auto-tool-choice --tool-call-parser <parser>（Qwen2.5 用 hermes，Qwen3-Coder 用 "
            "qwen3_coder，Llama 3.x 用 llama3_json，Mistral 用 mistral），再加上 --reasoning-parser <parser>，让 <think> "
            "不混进回答",
    "llama.cpp": "启动 llama.cpp 的服务器时要加上 --jinja（并使用支持工具的聊天模板）",
    "provider": "MODEL 应当是这家服务商支持工具调用（函数调用）的模型之一",
}
"""`agentkit.recovery.SERVER_FIXES` and `PROVIDER_FIX` in Chinese: what a recovery note names, as the chat says it."""
FIXES = {"en": {**SERVER_FIXES, "provider": PROVIDER_FIX}, "zh": FIXES_ZH}
FIX_SEPARATOR = {"en": "; ", "zh": "；"}

PERSON_LANGUAGE: ContextVar[str] = ContextVar("person_language", default="en")
"""The language of the person a task reports to, for code far from the front end (the line for a call that did
not run, `decisions.for_the_person`). A front end sets it for its own tasks; each asyncio task sees its own value."""


def say(key: str, language: str, **values: object) -> str:
    """The text for `key` in `language`, with `values` filled in. An unknown key is a bug: KeyError."""
    return MESSAGES[language][key].format(**values)


def error_for_the_person(error: Exception, language: str) -> str:
    """A command's refusal at launch (a `ConfigError`, an `own_agent.LoadError`) in `language`: worded from the error's
    `key` and `values` where the table has words for `error <key>`, else its own message, as raised."""
    key = f"error {getattr(error, 'key', '')}"
    return say(key, language, **getattr(error, "values", {})) if key in MESSAGES[language] else str(error)


YES_TOO = ("是", "是的", "好", "允许")
"""Besides y and yes (`asking.YES_ANSWERS`): what a person answering in Chinese types to allow a call."""


def person_question(question: Question | str, language: str) -> str:
    """`question` as the person reads it: a call's confirmation worded in `language` from the call it carries; the
    model's own question as the model wrote it, and a notebook's own string (an `Ask` it calls itself) as it is."""
    if isinstance(question, str) or question.call is None:
        return str(question)
    arguments = json.dumps(question.call.arguments, ensure_ascii=False)
    return say("confirm", language, tool=question.call.name, arguments=arguments)


def note_for_the_person(text: str, language: str) -> str:
    """A note's text in `language`: a recovery note worded from the fixes it names; any other note as it is."""
    if not isinstance(text, RecoveryNote):
        return text
    fix = FIX_SEPARATOR[language].join(FIXES[language][kind] for kind in text.fixes)
    return say("recovered note", language, fix=fix)


def why_it_stopped(reason: StopReason, language: str) -> str:
    """Why a task ended without completing, worded in `language` from the value the loop gives (never from its
    English): who cancelled it and how, which limit stopped it and how to raise it, why the model failed."""
    if isinstance(reason, Cancelled):
        if reason.question is None:  # a front end's own stop names a key of ours; an `Ask`'s words are shown as they are
            return say(f"stopped {reason.by}", language) if f"stopped {reason.by}" in MESSAGES[language] else reason.by
        if reason.question.call is None:
            return say("stopped answer question", language, answer=reason.answer, question=reason.question.text)
        return say("stopped answer call", language, answer=reason.answer, tool=reason.question.call.name)
    if isinstance(reason, LimitReached):
        return say(f"stopped {reason.limit}", language, value=reason.value, how=reason.how_to_raise)
    return say(f"stopped {reason.how}", language, detail=reason.detail)


def person_answer(question: Question, answer: str) -> str:
    """The answer to `question` as the policy reads it: "是" to a confirmation is "y"; the rest as typed."""
    return "y" if question.call is not None and answer.strip() in YES_TOO else answer


def person_language(flag: str | None, environ: Mapping[str, str]) -> str:
    """"en" or "zh": the `--lang` flag if given, else the locale, read as gettext reads it.

    The locale is the first set of LC_ALL, LC_MESSAGES and LANG; LANGUAGE (a list such as `zh_CN:en`) comes
    before it, except when the locale is C or POSIX (GNU gettext ignores LANGUAGE then). The first entry that
    names a language we have wins; none (or C, POSIX, fr_FR...) means English.
    """
    if flag is not None:
        if flag not in LANGUAGES:
            raise ValueError(f"unknown language {flag!r}; choose one of: {', '.join(LANGUAGES)}")
        return flag
    locale = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "C")
    wanted = [locale]
    if _language_of(locale) not in ("c", "posix"):
        wanted[:0] = environ.get("LANGUAGE", "").split(":")
    return next((language for entry in wanted if (language := _language_of(entry)) in LANGUAGES), "en")


def _language_of(entry: str) -> str:
    """`zh_CN.UTF-8@latin` -> `zh`: the language part of a locale name, lower case."""
    return entry.split("@")[0].split(".")[0].split("_")[0].split("-")[0].strip().lower()


NOT_RUN_BECAUSE: dict[str, str] = {rule: say(f"because {rule}", "en") for rule in get_args(Rule)
                                   if rule != "every check"}
"""Why a refused call did not run, said to the person: the model's result says what to do next instead."""
SUMMARY_CHARS = 60
"""Characters of a call's main argument the person's line repeats."""


def for_the_person(decision: Decision | None, arguments: str, language: str | None = None) -> str:
    """The line a person reads about a call that did not run ("You declined: write_file notes.txt"); "" if it ran.

    In `language` ("zh": "你拒绝了：write_file notes.txt"); by default the language of the person the task
    reports to (`PERSON_LANGUAGE`, which a front end sets), English unless one set it.

    The model's tool result says the same for the model ("do not try it again ..."): two audiences, two texts.
    """
    if decision is None or decision.outcome in ("allowed", "confirmed"):
        return ""
    language = language or PERSON_LANGUAGE.get()
    call = _summary(decision.tool, arguments)
    if decision.outcome == "denied":
        return say("you declined", language, call=call)
    if decision.outcome == "cancelled":
        return say("cancelled call", language, call=call)
    reason = say(f"because {decision.rule}", language) if decision.rule in NOT_RUN_BECAUSE else decision.rule
    return say("not run", language, call=call, reason=reason)


def _summary(tool: str, arguments: str) -> str:
    """`write_file notes.txt`: the tool and its main argument (a path, a command), shortened to one line."""
    try:
        parsed = json.loads(arguments or "{}")
    except ValueError:
        parsed = None
    values = parsed.values() if isinstance(parsed, dict) else []
    main = next((value for value in values if isinstance(value, str) and value.strip()), "")
    main = " ".join(main.split())
    return f"{tool} {main[:SUMMARY_CHARS]}{'...' * (len(main) > SUMMARY_CHARS)}".rstrip()
