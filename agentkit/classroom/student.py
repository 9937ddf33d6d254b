"""The student edition: the course with every solution replaced by a stub that says what to write."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import nbformat

SOLUTION, CHECK = "solution", "check"
"""Cell tags: a solution cell starts with `# Exercise N.M: ...` comment lines; a check cell tests the answer."""


NOT_COPIED = ("*.ipynb", "scratch", ".ipynb_checkpoints", ".env*")
"""What of the course folder a copy does not get as it is: notebooks (each is rewritten), scratch, secrets."""


def student_edition(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> list[Path]:
    """Copy the course from `source` to `target` with every solution replaced by a stub; return the notebooks written."""

    def take_out_solutions(notebook: nbformat.NotebookNode, name: str) -> None:
        for cell in notebook.cells:
            tags = cell.metadata.get("tags", [])
            if SOLUTION in tags:
                cell.source = stub(cell.source)
                cell.metadata.get("jupyter", {}).pop("source_hidden", None)  # the stub is where the student writes
            if SOLUTION in tags or CHECK in tags:
                cell.outputs, cell.execution_count = [], None

    return rewrite_course(source, target, take_out_solutions, "the student edition")


def rewrite_course(source: str | os.PathLike[str], target: str | os.PathLike[str],
                   rewrite: Callable[[nbformat.NotebookNode, str], None], what: str) -> list[Path]:
    """Copy the course folder to `target`, each notebook changed by `rewrite(notebook, file name)`; the notebooks written."""
    source, target = Path(source), Path(target)
    if target.resolve() == source.resolve():
        raise ValueError(f"{what} must go to another folder than the notebooks it is made from")
    shutil.copytree(source, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns(*NOT_COPIED))
    written = []
    for path in sorted(source.glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        rewrite(notebook, path.name)
        nbformat.write(notebook, target / path.name)
        written.append(target / path.name)
    return written


def stub(solution: str) -> str:
    """The solution's leading comment lines (what to write), then a line that fails until the student answers."""
    brief, _ = split_solution(solution)
    title = brief[0].lstrip("# ").split(":")[0]
    return "\n".join([*brief, f'raise NotImplementedError("{title}: replace this line with your answer")'])


def split_solution(solution: str) -> tuple[list[str], list[str]]:
    """A solution cell's lines: its brief (the leading `# Exercise N.M: ...` comment lines), then its answer."""
    lines = solution.splitlines()
    brief = list(_leading_comments(lines))
    if not brief:
        raise ValueError(f"a solution cell must start with '# Exercise N.M: what to write'; this one starts with {lines[:1]}")
    return brief, lines[len(brief):]


def _leading_comments(lines: list[str]) -> Iterator[str]:
    for line in lines:
        if not line.startswith("#"):
            return
        yield line
