"""The nbgrader export, driven through nbgrader's own commands: generate_assignment, then autograde.

A subset of the course (one notebook) keeps it short; the export treats every notebook the same way.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from agentkit.classroom import SOLUTION
from agentkit.frontends import cli

pytest.importorskip("nbgrader", reason="the nbgrader export needs the classroom extra")
from nbgrader.api import Gradebook  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOK, ASSIGNMENT = "03_tool_registry.ipynb", "tool-use"


def nbgrader(course: Path, *arguments: str) -> None:
    done = subprocess.run([sys.executable, "-m", "nbgrader", *arguments, "--debug"], cwd=course, text=True,
                          capture_output=True, timeout=300,
                          # nbgrader runs its own `alembic` script: the one beside this Python.
                          env=os.environ | {"MODEL_API_KEY": "",
                                            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("nbgrader")
    teacher = base / "teacher"
    shutil.copytree(NOTEBOOKS / "data", teacher / "data")
    shutil.copy(NOTEBOOKS / NOTEBOOK, teacher)
    course = base / "course"
    cli.main(["classroom", "nbgrader", str(course / "source" / ASSIGNMENT), "--course", str(teacher)])
    (course / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.root = {str(course)!r}\n"
        f"c.CourseDirectory.db_url = 'sqlite:///{course}/gradebook.db'\n")
    nbgrader(course, "generate_assignment", ASSIGNMENT)
    for student, origin in (("reference", "source"), ("blank", "release")):
        shutil.copytree(course / origin / ASSIGNMENT, course / "submitted" / student / ASSIGNMENT)
    nbgrader(course, "autograde", ASSIGNMENT, "--create")
    return course


def test_source_cells_carry_valid_nbgrader_metadata(course: Path) -> None:
    source = nbformat.read(course / "source" / ASSIGNMENT / NOTEBOOK, as_version=4)
    marked = [cell.metadata["nbgrader"] for cell in source.cells if "nbgrader" in cell.metadata]
    assert [(m["grade_id"], m["solution"], m["grade"], m["locked"], m.get("points")) for m in marked] == [
        ("exercise-3-1", True, False, False, None), ("check-3-1", False, True, True, 1),
        ("exercise-3-2", True, False, False, None), ("check-3-2", False, True, True, 1)]


def test_the_release_holds_no_solution(course: Path) -> None:
    teacher = nbformat.read(NOTEBOOKS / NOTEBOOK, as_version=4)
    release = nbformat.read(course / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
    released = "\n".join(cell.source for cell in release.cells)
    elsewhere = "\n".join(c.source for c in teacher.cells if SOLUTION not in c.metadata.get("tags", []))
    assert "BEGIN SOLUTION" not in released and (course / "release" / ASSIGNMENT / "data").is_dir()
    for cell in teacher.cells:
        if SOLUTION in cell.metadata.get("tags", []):
            for line in cell.source.splitlines():
                if line.strip() and not line.startswith("#") and line not in elsewhere:
                    assert line not in released, f"solution line in the release: {line!r}"


def test_autograde_gives_the_reference_full_marks_and_the_blank_release_none(course: Path) -> None:
    with Gradebook(f"sqlite:///{course}/gradebook.db") as gradebook:
        reference = gradebook.find_submission(ASSIGNMENT, "reference")
        blank = gradebook.find_submission(ASSIGNMENT, "blank")
        assert reference.max_score == 2 and reference.score == 2
        assert blank.score == 0
