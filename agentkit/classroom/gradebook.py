"""A class's grades: grade every student's notebooks, several kernels at once, then write what the teacher reads.

`grades.csv` (one row an exercise a student), one feedback file a student (markdown), and a summary table.
"""

from __future__ import annotations

import asyncio
import csv
import sys
from collections.abc import Iterable
from dataclasses import astuple, dataclass, field, fields
from pathlib import Path
from typing import TextIO

from agentkit.classroom import sandbox
from agentkit.classroom.exercises import Exercise, course_exercises
from agentkit.classroom.grading import Grade, default_jobs, grade_notebook

SYMBOLS = {"pass": "+", "fail": "x", "todo": ".", "error": "!"}
"""How the summary table shows each verdict, one character a cell."""


@dataclass
class Progress:
    """A one-line text progress bar: notebooks graded out of all of them."""

    total: int
    """How many notebooks there are to grade."""
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    """Where the bar is drawn."""
    done: int = 0
    """How many are graded so far."""

    def advance(self, what: str) -> None:
        self.done += 1
        filled = self.done * 30 // max(self.total, 1)
        bar = f"grading [{'#' * filled}{' ' * (30 - filled)}] {self.done}/{self.total} {what}"
        # A terminal redraws the line in place; a log file gets one line a notebook.
        if self.stream.isatty():
            self.stream.write(f"\r{bar}\x1b[K" + ("\n" if self.done == self.total else ""))
        else:
            self.stream.write(f"{bar}\n")
        self.stream.flush()


def students_in(submissions: Path) -> list[str]:
    """The students: one folder each in `submissions`, named by the student's id (hidden folders are not students)."""
    return sorted(p.name for p in submissions.iterdir() if p.is_dir() and not p.name.startswith("."))


class NothingToGrade(ValueError):
    """The class cannot be graded as asked: no course notebooks, no such notebook, no submissions folder.

    Raised before any kernel runs or any file is written: a gradebook with only its header row would look
    like a class that handed in nothing.
    """


def to_grade(submissions: Path, course: Path, notebooks: Iterable[str] | None) -> dict[str, list[Exercise]]:
    """The notebooks to grade and their exercises, or `NothingToGrade` saying what is missing."""
    exercises = course_exercises(course)
    if not exercises:
        raise NothingToGrade(f"no course notebooks with exercises in {course}/ (NN_*.ipynb whose chapter has "
                             "checks); give the teacher's notebooks folder with --course")
    if notebooks is not None:
        wanted = set(notebooks)
        unknown = sorted(wanted - set(exercises))
        if unknown:
            raise NothingToGrade(f"no exercises in {', '.join(unknown)} (--notebook); notebooks with exercises: "
                                 f"{', '.join(exercises)}")
        exercises = {name: found for name, found in exercises.items() if name in wanted}
    if not submissions.is_dir():
        raise NothingToGrade(f"{submissions} is not a folder; give the folder that holds one folder per student")
    return exercises


async def grade_class(submissions: str | Path, course: str | Path, notebooks: Iterable[str] | None = None,
                      timeout: float = 120, jobs: int | None = None, progress: TextIO | None = None) -> list[Grade]:
    """Grade every student in `submissions` on the exercises of the course's notebooks (or only `notebooks`)."""
    submissions, course = Path(submissions), Path(course)
    exercises = to_grade(submissions, course, notebooks)
    work = [(student, name) for student in students_in(submissions) for name in exercises]
    bar = Progress(len(work), progress or sys.stderr)
    limit = asyncio.Semaphore(jobs or default_jobs())

    async def one(student: str, name: str) -> list[Grade]:
        async with limit:
            grades = await grade_notebook(student, submissions / student / name, exercises[name], course, timeout)
        bar.advance(f"{student} {name}")
        return grades

    graded = await asyncio.gather(*(one(student, name) for student, name in work))
    return [grade for grades in graded for grade in grades]


def write_csv(grades: list[Grade], path: str | Path) -> None:
    """grades.csv: exactly the columns student, notebook, exercise, verdict, message."""
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow([f.name for f in fields(Grade)])
        writer.writerows(astuple(grade) for grade in grades)


def feedback(student: str, grades: list[Grade]) -> str:
    """One student's feedback as markdown: each exercise, its verdict, and the check's hint."""
    mine = [grade for grade in grades if grade.student == student]
    passed = sum(grade.verdict == "pass" for grade in mine)
    lines = [f"# Feedback for {student}", "", f"{passed} of {len(mine)} exercises pass.", ""]
    notebook = None
    for grade in mine:
        if grade.notebook != notebook:
            notebook = grade.notebook
            lines += ["", f"## {notebook}", ""]
        lines.append(f"- Exercise {grade.exercise}: **{grade.verdict}**" + (f": {grade.message}" if grade.message else ""))
    return "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"


def write_feedback(grades: list[Grade], folder: str | Path) -> list[Path]:
    """One `<student>.md` per student in `folder`; the files written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for student in dict.fromkeys(grade.student for grade in grades):
        path = folder / f"{student}.md"
        path.write_text(feedback(student, grades), encoding="utf-8")
        written.append(path)
    return written


def summary(grades: list[Grade]) -> str:
    """A table, students by exercises, one symbol a verdict, each student's passes at the end of the row."""
    exercises = list(dict.fromkeys(grade.exercise for grade in grades))
    students = list(dict.fromkeys(grade.student for grade in grades))
    verdicts = {(grade.student, grade.exercise): grade.verdict for grade in grades}
    width = max([len("student"), *map(len, students)])
    header = f"{'student':<{width}} " + " ".join(f"{e:>4}" for e in exercises) + "  pass"
    rows = [f"{s:<{width}} " + " ".join(f"{SYMBOLS[verdicts[s, e]]:>4}" if (s, e) in verdicts else f"{'':>4}"
                                        for e in exercises)
            + f"  {sum(verdicts.get((s, e)) == 'pass' for e in exercises)}/{len(exercises)}" for s in students]
    legend = "  ".join(f"{symbol} {verdict}" for verdict, symbol in SYMBOLS.items())
    return "\n".join([header, *rows, "", legend])


def confinement_warning() -> str | None:
    """What to tell the teacher when this system cannot keep a submission from writing outside its folder."""
    if sandbox.available():
        return None
    return ("warning: this system has no Landlock (Linux 5.13+), so a submission's code can write wherever you can; "
            "grade in a container or as a user that owns nothing else.")

