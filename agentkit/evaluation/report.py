"""Accuracy per split and category as a Markdown table, and the failures with their reasons, in plain text."""

from __future__ import annotations

from collections.abc import Sequence

from agentkit.evaluation.dataset import CATEGORIES, SPLITS
from agentkit.evaluation.runner import Outcome

ONE_CALL = ("single", "choose")
"""The categories whose answer is one call: where "did it pick the right tool?" is asked on its own."""


def accuracy(outcomes: Sequence[Outcome]) -> float | None:
    """The share of right answers, or None when there is nothing to score."""
    return sum(o.verdict.right for o in outcomes) / len(outcomes) if outcomes else None


def scores(outcomes: Sequence[Outcome]) -> dict[str, dict[str, float]]:
    """{split: {category: accuracy, "all": ..., "right_tool": ..., "values": ...}} for the splits and categories present."""
    table: dict[str, dict[str, float]] = {}
    for split in SPLITS:
        in_split = [o for o in outcomes if o.case.split == split]
        if not in_split:
            continue
        row = {c: accuracy([o for o in in_split if o.case.category == c]) for c in CATEGORIES}
        row["all"] = accuracy(in_split)
        one_call = [o for o in in_split if o.case.category in ONE_CALL]
        row["right_tool"] = sum(o.verdict.right_tool for o in one_call) / len(one_call) if one_call else None
        right, asked = (sum(o.verdict.values[i] for o in in_split) for i in (0, 1))
        row["values"] = right / asked if asked else None
        table[split] = {name: value for name, value in row.items() if value is not None}
    return table


def _cell(outcomes: Sequence[Outcome], right: str = "right") -> str:
    if right == "values":  # counted in values, not in cases
        hits, total = (sum(o.verdict.values[i] for o in outcomes) for i in (0, 1))
    else:
        hits, total = sum(getattr(o.verdict, right) for o in outcomes), len(outcomes)
    return f"{hits}/{total} ({hits / total:.0%})" if total else "-"


def table(outcomes: Sequence[Outcome]) -> str:
    """A Markdown table: one row a category, one column a split; then all categories, and the right-tool rate."""
    splits = [s for s in SPLITS if any(o.case.split == s for o in outcomes)]
    by = {s: [o for o in outcomes if o.case.split == s] for s in splits}
    lines = ["| category | " + " | ".join(splits) + " |", "|---" * (len(splits) + 1) + "|"]
    for category in CATEGORIES:
        if any(o.case.category == category for o in outcomes):
            cells = [_cell([o for o in by[s] if o.case.category == category]) for s in splits]
            lines.append(f"| {category} | " + " | ".join(cells) + " |")
    lines.append("| all | " + " | ".join(_cell(by[s]) for s in splits) + " |")
    if any(o.case.category in ONE_CALL for o in outcomes):
        cells = [_cell([o for o in by[s] if o.case.category in ONE_CALL], "right_tool") for s in splits]
        lines.append("| right tool (single, choose) | " + " | ".join(cells) + " |")
    if any(o.verdict.values[1] for o in outcomes):
        lines.append("| values right (where the tool is) | " + " | ".join(_cell(by[s], "values") for s in splits) + " |")
    return "\n".join(lines)


def class_table(outcomes: Sequence[Outcome]) -> str:
    """A Markdown table of the cases that name a class ("follow-up", "chinese", "abstain"...): one row a class."""
    classes = sorted({o.case.kind for o in outcomes if o.case.kind})
    if not classes:
        return ""
    splits = [s for s in SPLITS if any(o.case.split == s for o in outcomes)]
    lines = ["| class | " + " | ".join(splits) + " |", "|---" * (len(splits) + 1) + "|"]
    for kind in classes:
        cells = [_cell([o for o in outcomes if o.case.split == s and o.case.kind == kind]) for s in splits]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def failures(outcomes: Sequence[Outcome]) -> str:
    """Every wrong case: its id, question, what was called, and why it is wrong."""
    lines = []
    for o in outcomes:
        if not o.verdict.right:
            called = ", ".join(f"{name}({arguments})" for name, arguments in o.calls) or "no call"
            lines += [f"{o.case.id} [{o.case.split}] {o.case.question}", f"    called: {called}",
                      *(f"    - {reason}" for reason in o.verdict.reasons)]
    return "\n".join(lines) or "no failures"


def cost(outcomes: Sequence[Outcome]) -> str:
    """Tokens per case, from the provider's `usage` (the offline model estimates them: about 4 characters a token)."""
    if not outcomes:
        return "no cases"
    prompt = sum(o.prompt_tokens for o in outcomes)
    completion = sum(o.completion_tokens for o in outcomes)
    return (f"{len(outcomes)} cases: {prompt} prompt + {completion} completion tokens, "
            f"{(prompt + completion) / len(outcomes):.0f} tokens a case on average")
