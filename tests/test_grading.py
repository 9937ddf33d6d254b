"""Grading a class: made-up submissions, each run as untrusted code, graded by the package's real checks.

One class is graded once (the CLI, on two notebooks of the course), and each test reads its verdicts.
"""

from __future__ import annotations

import csv
import hashlib
import inspect
import io
import shutil
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import nbformat
import pytest

from agentkit import checks
from agentkit.classroom import CHECK, SOLUTION, sandbox, student_edition
from agentkit.classroom.exercises import course_exercises, notebook_exercises
from agentkit.classroom.gradebook import summary
from agentkit.classroom.grading import Grade
from agentkit.frontends import cli

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
GRADED = ["03_tool_registry.ipynb", "06_shell_tool.ipynb"]
"""A subset of the course keeps this test short; every notebook is graded the same way (benchmarks/ grades all)."""
TIMEOUT = 45

WRONG_WORD_COUNT = '''# Exercise 3.1: (answered wrongly: counts characters, not words)
from agentkit.tools.schema import tool

@tool
def word_count(text: str, unique: bool = False) -> int:
    """Count the words in a text.

    Args:
        text: the text.
        unique: count each distinct word once.
    """
    return len(text)
'''
CHEATS = '''# Exercise 3.1 is answered wrongly above; these try to make every check say pass.
import agentkit.checks, agentkit.checks.ch03

async def check_exercise_3_1(namespace):
    print("[pass] Exercise 3.1: a tool from a typed function")
    return True

agentkit.checks.ch03.check_exercise_3_1 = check_exercise_3_1
agentkit.checks.expect = lambda condition, hint: None
'''


def tagged(notebook: nbformat.NotebookNode, tag: str) -> list[nbformat.NotebookNode]:
    return [cell for cell in notebook.cells if tag in cell.metadata.get("tags", [])]


def tree_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def write(notebook: nbformat.NotebookNode, folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / name)


def make_class(root: Path, course: Path, outside: Path) -> None:
    """The made-up submissions, one folder a student, from the teacher's notebooks and the student edition."""
    edition = root.parent / "edition"
    student_edition(course, edition)
    teacher = {name: nbformat.read(course / name, as_version=4) for name in GRADED}
    for name in GRADED:
        write(teacher[name], root / "complete", name)
        write(nbformat.read(edition / name, as_version=4), root / "untouched", name)

    wrong = nbformat.read(course / GRADED[0], as_version=4)  # only 03: 06 is missing
    tagged(wrong, SOLUTION)[0].source = WRONG_WORD_COUNT
    write(wrong, root / "wrong", GRADED[0])

    broken = nbformat.read(course / GRADED[0], as_version=4)
    first = next(cell for cell in broken.cells if cell.cell_type == "code")
    first.source = 'raise RuntimeError("broken on purpose")\n' + first.source
    write(broken, root / "raises_first", GRADED[0])
    write(teacher[GRADED[1]], root / "raises_first", GRADED[1])

    looping = nbformat.read(course / GRADED[0], as_version=4)
    # It waits rather than computes: the timeout it meets is the same, and the test keeps a core for the others.
    looping.cells.insert(3, nbformat.v4.new_code_cell("import time\nwhile True:\n    time.sleep(0.5)"))
    write(looping, root / "loops", GRADED[0])
    write(teacher[GRADED[1]], root / "loops", GRADED[1])

    cheating = nbformat.read(course / GRADED[0], as_version=4)
    tagged(cheating, SOLUTION)[0].source = WRONG_WORD_COUNT
    cheating.cells = [cell for cell in cheating.cells if CHECK not in cell.metadata.get("tags", [])]
    cheating.cells.append(nbformat.v4.new_code_cell(CHEATS))
    write(cheating, root / "deletes_checks", GRADED[0])

    escaping = nbformat.read(course / GRADED[0], as_version=4)
    targets = [outside / "canary.txt", course / "data" / "planted.txt", course / GRADED[0], root / "complete" / GRADED[0]]
    attempts = "\n".join(f"attempt(lambda: open({str(t)!r}, 'w').write('pwned'))" for t in targets)
    escaping.cells.insert(3, nbformat.v4.new_code_cell(
        "import os, subprocess\n"
        "def attempt(action):\n    try:\n        action()\n    except OSError as error:\n        print('refused:', error)\n"
        f"{attempts}\n"
        f"subprocess.run('echo pwned > {outside / 'by_shell.txt'}', shell=True)\n"
        f"attempt(lambda: os.remove({str(course / 'sanitize.cfg')!r}))"))
    write(escaping, root / "writes_outside", GRADED[0])


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("class")
    course, outside, submissions = base / "course", base / "outside", base / "submissions"
    shutil.copytree(NOTEBOOKS, course, ignore=shutil.ignore_patterns("scratch", ".ipynb_checkpoints"))
    outside.mkdir()
    make_class(submissions, course, outside)
    before = {"course": tree_digest(course), "submissions": tree_digest(submissions)}
    printed = io.StringIO()
    with redirect_stdout(printed):
        cli.main(["classroom", "grade", str(submissions), "--out", str(base / "grades.csv"), "--course", str(course),
                  "--timeout", str(TIMEOUT), *(f"--notebook={name}" for name in GRADED)])
    with open(base / "grades.csv", newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    grades = [Grade(*row) for row in rows[1:]]
    return {"base": base, "course": course, "outside": outside, "submissions": submissions, "before": before,
            "header": rows[0], "grades": grades, "printed": printed.getvalue()}


def verdicts(graded: dict, student: str, notebook: str | None = None) -> dict[str, tuple[str, str]]:
    return {g.exercise: (g.verdict, g.message) for g in graded["grades"]
            if g.student == student and (notebook is None or g.notebook == notebook)}


def test_every_check_is_async_and_takes_one_argument() -> None:
    found = [e for name in course_exercises(NOTEBOOKS) for e in notebook_exercises(name)]
    assert len(found) >= 18
    for module in {e.module for e in found}:
        for name, function in vars(__import__(module, fromlist=["_"])).items():
            if name.startswith("check_exercise_"):
                assert inspect.iscoroutinefunction(function), f"{module}.{name} is not async"
                assert len(inspect.signature(function).parameters) == 1, f"{module}.{name} takes more than one argument"
    assert not hasattr(checks, "run_check_async")


def test_csv_has_exactly_the_columns_and_a_row_per_exercise(graded: dict) -> None:
    assert graded["header"] == ["student", "notebook", "exercise", "verdict", "message"]
    assert {g.verdict for g in graded["grades"]} <= {"pass", "fail", "todo", "error"}
    per_student = len(notebook_exercises(GRADED[0])) + len(notebook_exercises(GRADED[1]))
    assert len(graded["grades"]) == 7 * per_student


def test_a_complete_submission_passes_everything(graded: dict) -> None:
    assert {v for v, _ in verdicts(graded, "complete").values()} == {"pass"}


def test_the_untouched_student_edition_is_all_todo(graded: dict) -> None:
    assert {v for v, _ in verdicts(graded, "untouched").values()} == {"todo"}


def test_a_wrong_answer_fails_with_the_checks_hint_and_a_missing_notebook_is_an_error(graded: dict) -> None:
    mine = verdicts(graded, "wrong")
    assert mine["3.1"][0] == "fail" and "for {'text': 'the cat saw the dog'} the tool returned '19'" in mine["3.1"][1]
    assert mine["3.2"] == ("pass", "")
    assert {verdicts(graded, "wrong", GRADED[1])[e][0] for e in ("6.1", "6.2", "6.3")} == {"error"}
    assert "missing notebook" in mine["6.1"][1]


def test_a_notebook_that_raises_first_is_an_error_with_the_reason_and_the_others_still_graded(graded: dict) -> None:
    first, other = verdicts(graded, "raises_first", GRADED[0]), verdicts(graded, "raises_first", GRADED[1])
    cells = nbformat.read(NOTEBOOKS / GRADED[0], as_version=4).cells
    broken = 1 + next(number for number, cell in enumerate(cells) if cell.cell_type == "code")  # as the report counts
    assert first and all(v == "error" and f"cell {broken} raised RuntimeError: broken on purpose" in m
                         for v, m in first.values()), first
    assert {v for v, _ in other.values()} == {"pass"}


def test_a_notebook_that_loops_forever_times_out_and_the_others_still_graded(graded: dict) -> None:
    first, other = verdicts(graded, "loops", GRADED[0]), verdicts(graded, "loops", GRADED[1])
    assert all(v == "error" and f"did not finish within {TIMEOUT} s (it was running cell 4)" in m
               for v, m in first.values()), first
    assert {v for v, _ in other.values()} == {"pass"}


def test_deleted_check_cells_and_fake_checks_are_graded_by_the_real_checks(graded: dict) -> None:
    mine = verdicts(graded, "deletes_checks")
    assert mine["3.1"][0] == "fail" and "returned '19'" in mine["3.1"][1]
    assert mine["3.2"] == ("pass", "")


@pytest.mark.skipif(not sandbox.available(), reason="this system has no Landlock to confine a kernel's writes")
def test_a_submission_cannot_write_outside_its_folder(graded: dict) -> None:
    assert not list(graded["outside"].iterdir())
    assert tree_digest(graded["course"]) == graded["before"]["course"]
    assert tree_digest(graded["submissions"]) == graded["before"]["submissions"]
    assert {v for v, _ in verdicts(graded, "writes_outside", GRADED[0]).values()} == {"pass"}  # refused writes do not stop it


def test_feedback_and_summary(graded: dict) -> None:
    feedback = (graded["base"] / "feedback" / "wrong.md").read_text()
    assert feedback.startswith("# Feedback for wrong\n") and "1 of 5 exercises pass." in feedback
    assert "- Exercise 3.1: **fail**: for {'text': 'the cat saw the dog'}" in feedback
    assert sorted(p.stem for p in (graded["base"] / "feedback").glob("*.md")) == sorted(
        p.name for p in graded["submissions"].iterdir())
    table = summary(graded["grades"])
    assert table.splitlines()[0].split() == ["student", "3.1", "3.2", "6.1", "6.2", "6.3", "pass"]
    assert "complete          +    +    +    +    +  5/5" in table
    assert table in graded["printed"]


AGENTKIT = Path(sys.executable).with_name("agentkit")
"""The installed console script, run as a teacher runs it."""


@pytest.mark.parametrize("where, named", [
    ("no course here", "no course notebooks with exercises in {course}/"),
    ("an unknown --notebook", "no exercises in 99_none.ipynb (--notebook)"),
    ("no submissions folder", "{submissions} is not a folder"),
])
def test_grading_nothing_is_refused_before_anything_is_written(tmp_path: Path, where: str, named: str) -> None:
    # A header-only gradebook with exit status 0 would read as a class that handed in nothing.
    submissions, course = tmp_path / "submissions", tmp_path / "course"
    (submissions / "alice").mkdir(parents=True)
    course.mkdir()
    arguments = [str(submissions), "--out", "grades.csv"]
    if where != "no course here":
        arguments += ["--course", str(NOTEBOOKS)]
    if where == "an unknown --notebook":
        arguments += ["--notebook", "99_none.ipynb"]
    if where == "no submissions folder":
        submissions = tmp_path / "missing"
        arguments[0] = str(submissions)
    finished = subprocess.run([str(AGENTKIT), "classroom", "grade", *arguments], cwd=course, capture_output=True,
                              text=True, timeout=120)
    assert finished.returncode == 2 and finished.stdout == ""
    line = named.format(course="notebooks" if where == "no course here" else NOTEBOOKS, submissions=submissions)
    assert finished.stderr.startswith(f"agentkit classroom grade: {line}") and finished.stderr.count("\n") == 1
    if where == "no course here":
        assert "--course" in finished.stderr
    assert sorted(p.name for p in course.iterdir()) == []  # no grades.csv, no feedback/
