"""The evaluation set: function schemas (`functions.json`) and cases (`cases.jsonl`) in `notebooks/data/eval/`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

DATA = Path(__file__).resolve().parents[2] / "notebooks" / "data" / "eval"
"""Where the course keeps its evaluation set (a repository checkout; pass `folder=` for another)."""

Category = Literal["single", "choose", "several_calls", "several_tools", "no_tool"]
"""One call; one call chosen among several tools; one tool called several times; several tools; no call."""
CATEGORIES: tuple[Category, ...] = get_args(Category)

Split = Literal["train", "heldout"]
"""`train` may be looked at while improving a model; `heldout` is only scored."""
SPLITS: tuple[Split, ...] = get_args(Split)
SplitOrAll = Split | Literal["all"]
"""What a run may be asked for: one split, or both."""


@dataclass(frozen=True)
class ExpectedCall:
    name: str
    """The function that must be called."""
    arguments: dict[str, list[Any]]
    """Every parameter of the function → its acceptable values; `None` among them means "may be left out"."""


@dataclass(frozen=True)
class Case:
    id: str
    """A stable name, e.g. `single_004`."""
    split: Split
    """`train` or `heldout`."""
    category: Category
    """One of CATEGORIES."""
    question: str
    """The user's message."""
    tools: tuple[str, ...]
    """The names of the functions offered with the question; empty (no `tools` in the file): every one `evaluate` has."""
    expected: tuple[ExpectedCall, ...]
    """The calls a right answer makes, in any order; empty when no offered tool fits."""
    kind: str | None = None
    """The class of case it stands for ("follow-up", "chinese", "abstain"...), from its `class` field; a score per class."""
    history: tuple[dict[str, Any], ...] = ()
    """Messages before the question (a follow-up such as "and in Montevideo?" needs the conversation so far)."""


def _file(path: Path | str, name: str) -> Path:
    """`path` itself, or the file `name` in it when `path` is a folder: your own set may live anywhere."""
    path = Path(path)
    return path / name if path.is_dir() else path


def load_functions(folder: Path | str = DATA) -> dict[str, dict[str, Any]]:
    """Every function schema by name, as OpenAI tool objects (`{"type": "function", "function": {...}}`).

    `folder` holds a `functions.json`, or is such a file: a JSON list of tool objects.
    """
    tools = json.loads(_file(folder, "functions.json").read_text(encoding="utf-8"))
    return {tool["function"]["name"]: tool for tool in tools}


def load_cases(folder: Path | str = DATA, *, split: SplitOrAll = "all", category: Category | None = None) -> list[Case]:
    """The cases of one split (`train`, `heldout` or `all`), optionally of one category.

    `folder` holds a `cases.jsonl`, or is such a file: one case a line, as JSON with the fields of `Case`
    (`tools` may be left out: the case is then offered every tool of the set it is run with).
    """
    if split not in (*SPLITS, "all"):
        raise ValueError(f"split {split!r} is not valid: use one of {', '.join((*SPLITS, 'all'))}")
    if category is not None and category not in CATEGORIES:
        raise ValueError(f"category {category!r} is not valid: use one of {', '.join(CATEGORIES)}")
    cases, path = [], _file(folder, "cases.jsonl")
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                raw = json.loads(line)
                expected = tuple(ExpectedCall(call["name"], call["arguments"]) for call in raw["expected"])
                cases.append(Case(raw["id"], raw["split"], raw["category"], raw["question"], tuple(raw.get("tools") or ()),
                                  expected, raw.get("class"), tuple(raw.get("history") or ())))
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path}, line {number}: not a case ({type(error).__name__}: {error}); write one JSON "
                                 "object a line with id, split, category, question, expected "
                                 "(a list of {\"name\", \"arguments\"}) and, optionally, tools") from None
    return [case for case in cases
            if split in ("all", case.split) and category in (None, case.category)]


def case_problems(case: Case, functions: dict[str, dict[str, Any]]) -> list[str]:
    """What makes a case unusable against these schemas (empty when it is sound): the rules every case keeps."""
    from agentkit.hardening.arguments import Draft202012Validator  # only needed when checking a set, not when scoring

    problems = [f"{name} is offered but has no schema" for name in case.tools if name not in functions]
    if case.split not in SPLITS:
        problems.append(f"split {case.split!r} is not one of {', '.join(SPLITS)}")
    if case.category not in CATEGORIES:
        problems.append(f"category {case.category!r} is not one of {', '.join(CATEGORIES)}")
    if (case.category == "no_tool") != (not case.expected):
        problems.append("a no_tool case expects no call, and every other case expects at least one")
    for call in case.expected:
        if call.name not in case.tools or call.name not in functions:
            problems.append(f"{call.name} is expected but not offered")
            continue
        parameters = functions[call.name]["function"]["parameters"]
        declared, required = parameters.get("properties", {}), parameters.get("required", [])
        if set(call.arguments) != set(declared):
            problems.append(f"{call.name}: list every declared parameter ({', '.join(declared)}) and no other")
        for name, acceptable in call.arguments.items():
            if not acceptable or (name in required and None in acceptable):
                problems.append(f"{call.name}: required {name!r} needs an acceptable value, and None is not one")
            for value in acceptable:
                if value is not None and name in declared and not Draft202012Validator(declared[name]).is_valid(value):
                    problems.append(f"{call.name}: {value!r} is not a valid {name!r}")
    return problems
