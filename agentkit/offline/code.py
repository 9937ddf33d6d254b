"""Part of step 2: text a tool runs, taken whole; and the command or pattern a plain request implies.

- A pasted SQL statement ("SELECT name FROM orders WHERE total > 100") or a shell command ("run ls -la | grep
  log", "`wc -l notes.txt`") is one value: its words are not read as the question's words.
- "count the lines of notes.txt with the shell" asks for `wc -l notes.txt`, and "list the python files" for
  the pattern `*.py`: a small table of everyday requests, the ones a learner makes in `agentkit chat`.
- Dice notation ("3d8+1") is three numbers, each with the words that say what it is.
"""

from __future__ import annotations

import re

from agentkit.offline import lexicon

_BACKTICKS = re.compile(r"`([^`]+)`")
TABLES = lexicon.words("words")["code"]
_SQL = re.compile(TABLES["sql"], re.IGNORECASE | re.DOTALL)  # a statement pasted whole
_RUN = re.compile(TABLES["run"], re.IGNORECASE)
COMMANDS, NOT_A_PROGRAM = (frozenset(TABLES[kind].split()) for kind in ("programs", "not_a_program"))
NAMED_COMMAND = re.compile(r"\bcommand\b")
"""'run the (shell) command X': the request says X is a command, so its first word need not be a known program."""
IN_THE_SHELL = re.compile(r"\s+(?:in|with|using|from)\s+(?:the\s+|a\s+)?(?:shell|terminal|bash)$", re.IGNORECASE)
DICE = re.compile(r"(?<![\w.])(\d*)d(\d+)(?:\s*([+-])\s*(\d+))?\b", re.IGNORECASE)

EVERYDAY_COMMANDS: list[list[str]] = TABLES["everyday_commands"]
"""(what a request says, the command it asks for): {file} is a file the request names, {n} a number."""
FILE_KINDS: dict[str, str] = lexicon.words("words")["file_kinds"]


def code_spans(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, "sql" or "command", the text) for each statement or command in the text."""
    if found := [(match.start(), match.end(), "sql" if _SQL.match(match.group(1)) else "command", match.group(1))
                 for match in _BACKTICKS.finditer(text)]:
        return found
    if sql := _SQL.search(text):
        statement = sql.group(0).strip().rstrip("?").strip()
        return [(sql.start(), sql.start() + len(statement), "sql", statement)]
    for run in _RUN.finditer(text):
        quoted = re.match(r"\s*([\"'“])(.+?)[\"'”]", text[run.end():])  # 'run the command "ls -l" in the shell'
        rest = quoted.group(2) if quoted else IN_THE_SHELL.sub("", text[run.end():].strip().rstrip("?.!"))
        first = rest.split(" ")[0] if rest else ""
        named = NAMED_COMMAND.search(run.group(0)) and re.fullmatch(r"[a-z][\w.-]*", first) and first not in NOT_A_PROGRAM
        if first in COMMANDS or named or first.startswith(("./", "/")) and len(first) > 2:
            start = run.end() + (quoted.start(2) if quoted else len(text[run.end():]) - len(text[run.end():].lstrip()))
            return [(start, start + len(rest), "command", rest)]
    return []


def dice(text: str) -> list[tuple[int, int, float, tuple[str, ...], tuple[str, ...]]]:
    """ "3d8+1" -> (start, end, value, words before, words after) for its count, sides and modifier."""
    found = []
    for match in DICE.finditer(text):
        if match.group(1):
            found.append((match.start(1), match.end(1), float(match.group(1)), ("roll",), ("dice", "count")))
        found.append((match.start(2), match.end(2), float(match.group(2)), ("dice", "with"), ("sides", "faces")))
        if match.group(4):
            sign = -1 if match.group(3) == "-" else 1
            found.append((match.start(4), match.end(4), sign * float(match.group(4)), ("plus", "modifier"), ("bonus",)))
    return found


TARGET = re.compile(r"\s+(?:to|into|as|in)\s+(?:the\s+|a\s+)?([\w./-]+)(\s+(?:folder|directory|dir)\b)?", re.IGNORECASE)
"""Where "rename a.txt to b.txt" and "move old.txt into the archive folder" put the file: `b.txt`, `archive/`."""


def _target(text: str, file: str | None) -> str | None:
    """The second path of a move or a copy: the word after "to"/"into" that follows the file, a folder with a slash."""
    at = text.find(file) if file else -1
    found = TARGET.match(text, at + len(file)) if file and at >= 0 else None
    return found.group(1).rstrip(".") + ("/" if found.group(2) and not found.group(1).endswith("/") else "") if found else None


def command_for(text: str, file: str | None, number: float | None) -> str | None:
    """The shell command an everyday request asks for ("count the lines of notes.txt" -> "wc -l notes.txt")."""
    lowered = text.lower()
    for pattern, template in EVERYDAY_COMMANDS:
        if (found := re.search(pattern, lowered)) and "{target}" in template:
            if not (target := _target(text, file)):
                continue
            template = template.replace("{target}", target)
        if found and (file or "{file}" not in template or template.startswith("ls")):
            n = str(int(number)) if number else "10"
            word = next((text[found.start(i):found.end(i)] for i, g in enumerate(found.groups(), 1) if g), "")  # as written
            return " ".join(template.replace("{file}", file or "").replace("{n}", n).replace("{word}", word).split())
    return None


def pattern_for(text: str) -> str | None:
    """The glob pattern for "the python files", "all txt files", "the files" (every file: `*`)."""
    lowered = text.lower()
    if not re.search(r"\bfiles?\b|\bnotebooks?\b|\bscripts?\b", lowered):
        return None
    kinds = [FILE_KINDS[w] for w in re.findall(r"[a-z]+", lowered) if w in FILE_KINDS]
    deep = re.search(r"\b(?:all|every|recursive|recursively|everywhere|subfolders?)\b", lowered)
    if kinds:
        return f"{'**/' if deep else ''}*.{kinds[0]}"
    return "**/*" if re.search(r"\b(?:recursive|recursively|everywhere|subfolders?)\b", lowered) else "*"
