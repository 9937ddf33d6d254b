"""The evaluation set: function schemas (`functions.json`) and cases (`cases.jsonl`) in `notebooks/data/eval/`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "notebooks" / "data" / "eval"
"""Where the course keeps its evaluation set (a repository checkout; pass `folder=` for another)."""

CATEGORIES = ("single", "choose", "several_calls", "several_tools", "no_tool")
"""One call; one call chosen among several tools; one tool called several times; several tools; no call."""

SPLITS = ("train", "heldout")
"""`train` may be looked at while improving a model; `heldout` is only scored."""


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
    split: str
    """`train` or `heldout`."""
    category: str
    """One of CATEGORIES."""
    question: str
    """The user's message."""
    tools: tuple[str, ...]
    """The names of the functions offered with the question."""
    expected: tuple[ExpectedCall, ...]
    """The calls a right answer makes, in any order; empty when no offered tool fits."""


def load_functions(folder: Path | str = DATA) -> dict[str, dict[str, Any]]:
    """Every function schema by name, as OpenAI tool objects (`{"type": "function", "function": {...}}`)."""
    tools = json.loads((Path(folder) / "functions.json").read_text(encoding="utf-8"))
    return {tool["function"]["name"]: tool for tool in tools}


def load_cases(folder: Path | str = DATA, *, split: str = "all", category: str | None = None) -> list[Case]:
    """The cases of one split (`train`, `heldout` or `all`), optionally of one category."""
    if split not in (*SPLITS, "all"):
        raise ValueError(f"split {split!r} is not valid: use one of {', '.join((*SPLITS, 'all'))}")
    if category is not None and category not in CATEGORIES:
        raise ValueError(f"category {category!r} is not valid: use one of {', '.join(CATEGORIES)}")
    cases = []
    for line in (Path(folder) / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            expected = tuple(ExpectedCall(call["name"], call["arguments"]) for call in raw["expected"])
            cases.append(Case(raw["id"], raw["split"], raw["category"], raw["question"], tuple(raw["tools"]), expected))
    return [case for case in cases
            if split in ("all", case.split) and category in (None, case.category)]
