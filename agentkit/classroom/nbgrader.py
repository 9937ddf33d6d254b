"""The course as nbgrader source notebooks, for a teacher whose class already runs on nbgrader.

Each solution cell keeps its brief and puts the answer between `### BEGIN SOLUTION` / `### END SOLUTION`;
each check cell becomes a locked, autograded test cell worth one point an exercise, which asserts that the
package's check passes. nbgrader's own `generate_assignment` then takes the answers out, and `autograde`
restores the locked cells before it runs a submission, so a student cannot edit the checks away.
Needs the `classroom` extra (nbgrader validates the metadata written here).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
from nbgrader.nbgraderformat import MetadataValidator

from agentkit.classroom.student import CHECK, SOLUTION, rewrite_course, split_solution

POINTS_PER_EXERCISE = 1
CHECK_CALL = re.compile(r"^(?:await\s+)?(check_exercise_(\d+)_(\d+))\((.*)\)\s*$", re.MULTILINE)
"""A check cell's call line, `await check_exercise_1_2(globals())`: one exercise, one point."""


def export_course(course: str | os.PathLike[str], out: str | os.PathLike[str]) -> list[Path]:
    """Write every notebook of `course` (and its data files) to `out` as nbgrader source notebooks."""

    def mark(notebook: nbformat.NotebookNode, name: str) -> None:
        for cell in notebook.cells:
            tags = cell.metadata.get("tags", [])
            if SOLUTION in tags:
                _mark_solution(cell)
            elif CHECK in tags:
                _mark_check(cell, name)
        MetadataValidator().validate_nb(notebook)

    return rewrite_course(course, out, mark, "the nbgrader source")


def _mark_solution(cell: nbformat.NotebookNode) -> None:
    brief, answer = split_solution(cell.source)
    number = re.match(r"#\s*Exercise (\d+)\.(\d+)", brief[0])
    if number is None:
        raise ValueError(f"a solution cell's first line must be '# Exercise N.M: ...'; it is {brief[0]!r}")
    cell.source = "\n".join([*brief, "### BEGIN SOLUTION", *answer, "### END SOLUTION"])
    cell.metadata.get("jupyter", {}).pop("source_hidden", None)  # the released cell is where the student writes
    cell.metadata["nbgrader"] = {"grade": False, "solution": True, "locked": False,
                                 "grade_id": f"exercise-{number[1]}-{number[2]}", "schema_version": 3}


def _mark_check(cell: nbformat.NotebookNode, notebook: str) -> None:
    calls = CHECK_CALL.findall(cell.source)
    if not calls:
        raise ValueError(f"a check cell of {notebook} calls no check_exercise_N_M: {cell.source!r}")
    # nbgrader counts a test cell as passed when it does not raise; a check returns False on a fail or a todo.
    cell.source = CHECK_CALL.sub(lambda call: f'assert await {call[1]}({call[4]}), '
                                              f'"Exercise {call[2]}.{call[3]} does not pass yet: see the line above"',
                                 cell.source)
    numbers = "-".join(f"{major}-{minor}" for _, major, minor, _ in calls)
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True, "points": POINTS_PER_EXERCISE * len(calls),
                                 "grade_id": f"check-{numbers}", "schema_version": 3}
