"""Chapter 13 is graded like every chapter: its checks read the project the notebook's cells wrote (it stays in the
scratch folder after the run), and find the student edition's project as `agentkit new` wrote it: todo."""

import csv
import shutil
from pathlib import Path

import nbformat

from agentkit.classroom import student_edition
from agentkit.frontends import cli

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CAPSTONE = "13_build_your_own_agent.ipynb"


def test_the_reference_answers_pass_and_the_student_edition_is_todo(tmp_path, capsys):
    course = tmp_path / "course"
    shutil.copytree(NOTEBOOKS, course, ignore=shutil.ignore_patterns("scratch", ".ipynb_checkpoints"))
    student_edition(course, tmp_path / "edition")
    for student, source in (("complete", course), ("untouched", tmp_path / "edition")):
        (tmp_path / "submissions" / student).mkdir(parents=True)
        nbformat.write(nbformat.read(source / CAPSTONE, as_version=4), tmp_path / "submissions" / student / CAPSTONE)
    # --timeout bounds a hung run and is never reached: the chapter runs pytest, eval and chat, a minute on a busy machine
    cli.main(["classroom", "grade", str(tmp_path / "submissions"), "--out", str(tmp_path / "grades.csv"),
              "--course", str(course), "--notebook", CAPSTONE, "--timeout", "600"])
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as file:
        verdicts = {(row["student"], row["exercise"]): row["verdict"] for row in csv.DictReader(file)}
    assert verdicts == {("complete", "13.1"): "pass", ("complete", "13.2"): "pass", ("complete", "13.3"): "pass",
                        ("untouched", "13.1"): "todo", ("untouched", "13.2"): "todo", ("untouched", "13.3"): "todo"}, \
        capsys.readouterr().out
