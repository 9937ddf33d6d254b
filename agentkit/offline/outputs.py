"""Results of a known shape in plain words: an `Error:` result, with what to try next, and the results of the course's
own tools, read by their fixed shapes (a file read, a listing, a write, a command).

A tool's error message is written for the model ("should be one of: …", "use glob to see which files there
are"); the person reads what went wrong and what to do: check a name, wait and retry, give a valid value.
It reads a result as a real model would, by its meaning, never by the exact wording of agentkit's messages: a
person's no is said as their no, a refusal as not done, a bug in the tool as needing a fix, not another try. The
tool's name is never repeated.

read_file, glob, write_file, edit_file and bash write their results in shapes that chapters 05 and 06
define ("a.txt, lines 1-3:" then numbered lines; "2 paths matching '*', sorted:" then the paths; "exit
code: 0" then stdout and stderr). The answer says what they mean: "a.txt has 3 lines: …", "There are 2
files: a.txt and b.md.", "`wc -l a.txt` printed: 3 a.txt".
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
SHOWN_LINES = 8
"""How many lines of a file or an output an answer quotes (all of them when the system prompt asks for detail)."""
SHOWN_PATHS = 12
"""How many paths of a listing an answer names before "and N more"."""
COUNTS = lexicon.words("answers")["outputs"]["counts"]
"""What wc counts by its option, in English and in Chinese."""
NUMBERED = re.compile(r"^ *\d+\t(.*)$", re.MULTILINE)
"""A file's lines as a reader shows them numbered (`cat -n`): the number, a tab, the line."""
SHAPES = lexicon.words("answers")["outputs"]["shapes"]
"""The one-line results of the course's file tools (an empty file, no path matched, a file written or edited): a pattern,
and the [say] sentence its named groups fill ({s}: "s" unless the count is 1)."""


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


def course_output(result: str, language: Language, full: bool) -> str | None:
    """The sentence for a result of one of the course's file tools: a file's lines or a listing's paths quoted, else
    the first of SHAPES it is; None for any other result."""
    if said := _file(result, language, full) or _listing(result, language):
        return said
    for pattern, key in SHAPES:
        if found := re.fullmatch(pattern, result):
            return say(key, language, s="s" * (found.groupdict().get("count", "1") != "1"), **found.groupdict())
    return None


def command_output(command: str, result: str, language: Language, full: bool) -> str:
    """What a command printed ("exit code: 0\\nstdout:\\n…\\nstderr: (empty)"), or how it failed."""
    status = re.match(r"exit code: (-?\d+)", result)
    streams = dict(re.findall(r"^(stdout|stderr):[ \n]?(.*?)(?=^stdout:|^stderr:|\Z)", result, re.M | re.S))
    out, err = ("" if (said := (streams.get(name) or "").strip()) == "(empty)" else said for name in ("stdout", "stderr"))
    shown = f"`{command}`" if command else say("the_command", language)
    if status and status.group(1) != "0":
        code, why = status.group(1), "\n".join(part for part in (out, err) if part)
        return quoted(why, say("failed_printed", language, command=shown, code=code), full) if why else \
            say("failed", language, command=shown, code=code)
    text = out if status else result  # `wc -l a.txt` says its count; nothing printed is said as nothing
    return _counted(command, text, language) or (quoted(text, say("printed", language, command=shown), full) if text else
                                                 say("printed_nothing", language, command=shown))


def _counted(command: str, output: str, language: Language) -> str | None:
    """`wc -l notes.txt` printing "3 notes.txt" says "notes.txt has 3 lines.": the count, not the printout."""
    asked = re.fullmatch(r"wc\s+-([lwcm])\s+(\S+)", command.strip())
    said = re.fullmatch(r"\s*(\d+)\s+(\S+)\s*", output)
    if not asked or not said:
        return None
    count, (unit, unit_zh) = int(said.group(1)), COUNTS[asked.group(1)]
    unit = unit_zh if language == "zh" else unit + "s" * (count != 1)
    return say("counted", language, name=said.group(2), count=count, unit=unit)


def _file(result: str, language: Language, full: bool) -> str | None:
    """read_file's "a.txt, lines 1-3:\\n     1\\tone …" as "a.txt has 3 lines: …"."""
    if not (head := re.match(r"(.+?), lines? (\d+)(?:-(\d+))?:\n", result)):
        return None
    lines = NUMBERED.findall(result[head.end():])
    whole = result.rstrip().endswith("[end of file]") and head.group(2) == "1"
    count, span = len(lines), f"{head.group(2)}-{head.group(3) or head.group(2)}"
    intro = say("file_lines" if whole else "file_span", language, name=head.group(1), count=count, s="s" * (count != 1),
                span=span)
    return quoted("\n".join(lines), intro, full)


def _listing(result: str, language: Language) -> str | None:
    """glob's "2 paths matching '*', sorted:\\na.txt\\nb.md" as "There are 2 files: a.txt and b.md."."""
    if not (head := re.match(r"(?:(\d+) paths?|First (\d+) paths) matching ('[^']*'|\"[^\"]*\")[^\n]*\n", result)):
        return None
    paths = [p for p in result[head.end():].splitlines() if p and not p.startswith("[")]
    shown = join(paths[:SHOWN_PATHS] + [say("more", language, count=len(paths) - SHOWN_PATHS)] * (len(paths) > SHOWN_PATHS),
                 language)
    one = len(paths) == 1
    return say("listing", language, be="is" if one else "are", count=len(paths), s="" if one else "s", paths=shown)


def quoted(text: str, intro: str, full: bool) -> str:
    """A short text on the intro's line; a longer one under it, cut to SHOWN_LINES lines unless `full`."""
    lines = text.strip("\n").splitlines()
    if len(lines) == 1 and len(lines[0]) <= 120:
        return f"{intro}{lines[0]}" if intro.endswith("：") else f"{intro} {lines[0]}"
    return intro + "\n" + "\n".join(lines if full or len(lines) <= SHOWN_LINES else [*lines[:SHOWN_LINES], "…"])
