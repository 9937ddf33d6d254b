"""The results of the course's own tools, read by their fixed shapes: a file read, a listing, a write, a command.

read_file, glob, write_file, edit_file and bash write their results in shapes that chapters 05 and 06
define ("a.txt, lines 1-3:" then numbered lines; "2 paths matching '*', sorted:" then the paths; "exit
code: 0" then stdout and stderr). The answer says what they mean: "a.txt has 3 lines: …", "There are 2
files: a.txt and b.md.", "`wc -l a.txt` printed: 3 a.txt".
"""

from __future__ import annotations

import re

from agentkit.offline.lexicon import words
from agentkit.offline.wording import Language, join, say

SHOWN_LINES = 8
"""How many lines of a file or an output an answer quotes (all of them when the system prompt asks for detail)."""
SHOWN_PATHS = 12
"""How many paths of a listing an answer names before "and N more"."""
COUNTS = words("answers")["outputs"]["counts"]
"""What wc counts by its option, in English and in Chinese."""
NUMBERED = re.compile(r"^ *\d+\t(.*)$", re.MULTILINE)
"""A file's lines as a reader shows them numbered (`cat -n`): the number, a tab, the line."""


def course_output(result: str, language: Language, full: bool) -> str | None:
    """The sentence for a result of one of the course's file tools; None for any other result."""
    return _file(result, language, full) or _listing(result, language) or _changed(result, language)


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
    if empty := re.fullmatch(r"(.+?) is empty \(0 lines\)", result):
        return say("file_empty", language, name=empty.group(1))
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
    if none := re.match(r"No paths match ('[^']*'|\"[^\"]*\")", result):
        return say("no_match", language, pattern=none.group(1))
    if not (head := re.match(r"(?:(\d+) paths?|First (\d+) paths) matching ('[^']*'|\"[^\"]*\")[^\n]*\n", result)):
        return None
    paths = [p for p in result[head.end():].splitlines() if p and not p.startswith("[")]
    shown = join(paths[:SHOWN_PATHS] + [say("more", language, count=len(paths) - SHOWN_PATHS)] * (len(paths) > SHOWN_PATHS),
                 language)
    one = len(paths) == 1
    return say("listing", language, be="is" if one else "are", count=len(paths), s="" if one else "s", paths=shown)


def _changed(result: str, language: Language) -> str | None:
    """write_file's "Wrote 19 bytes to notes.txt (new file)" and edit_file's "Replaced 1 occurrence in a.txt (line 2)"."""
    if wrote := re.fullmatch(r"Wrote ([\d,]+) bytes to (.+) \((new file|replaced its old content)\)", result):
        size, path, what = wrote.groups()
        return say("wrote_new" if what == "new file" else "wrote_over", language, path=path, size=size)
    if edited := re.fullmatch(r"Replaced (\d+) occurrences? in (.+) \((lines? [\d, ]+)\)", result):
        count, path, where = edited.groups()
        return say("edited", language, path=path, count=count, s="s" * (count != "1"), lines=where.split(" ", 1)[1], where=where)
    return None


def quoted(text: str, intro: str, full: bool) -> str:
    """A short text on the intro's line; a longer one under it, cut to SHOWN_LINES lines unless `full`."""
    lines = text.strip("\n").splitlines()
    if len(lines) == 1 and len(lines[0]) <= 120:
        return f"{intro}{lines[0]}" if intro.endswith("：") else f"{intro} {lines[0]}"
    return intro + "\n" + "\n".join(lines if full or len(lines) <= SHOWN_LINES else [*lines[:SHOWN_LINES], "…"])
