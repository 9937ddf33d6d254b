"""How long grading a class takes: N copies of the teacher's course (every notebook with exercises), graded as
`agentkit classroom grade` does, several kernels at once. Prints the time, the parallelism and the per-notebook cost.

    python benchmarks/class_grading.py            # 30 students, one kernel a core
    python benchmarks/class_grading.py --students 3 --jobs 1
    python benchmarks/class_grading.py --students 1 --notebooks 03_tool_registry.ipynb   # quick: the test suite's run

Bounded: each notebook has a time limit (--timeout), the class lives in a temporary folder that is removed.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from agentkit.classroom.exercises import course_exercises
from agentkit.classroom.gradebook import grade_class
from agentkit.classroom.grading import default_jobs

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--notebooks", nargs="+", help="grade only these (default: every notebook with exercises)")
    args = parser.parse_args()
    notebooks = args.notebooks or list(course_exercises(NOTEBOOKS))
    with tempfile.TemporaryDirectory(prefix="class-") as folder:
        for number in range(args.students):
            student = Path(folder) / f"student{number:02d}"
            student.mkdir()
            for name in notebooks:
                shutil.copy(NOTEBOOKS / name, student)
        started = time.perf_counter()
        grades = asyncio.run(grade_class(folder, NOTEBOOKS, notebooks, timeout=args.timeout, jobs=args.jobs,
                                         progress=io.StringIO()))
        elapsed = time.perf_counter() - started
    runs = args.students * len(notebooks)
    print(f"{args.students} students x {len(notebooks)} notebooks = {runs} kernels, {args.jobs} at once: {elapsed:.1f} s "
          f"({elapsed / runs:.2f} s a notebook, {elapsed / args.students:.1f} s a student)")
    print("verdicts:", dict(Counter(grade.verdict for grade in grades)))
    if any(grade.verdict != "pass" for grade in grades):
        sys.exit("the teacher's own notebooks should pass every check")


if __name__ == "__main__":
    main()
