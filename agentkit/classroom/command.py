"""`agentkit classroom ...`: the student edition, grading a class, and the nbgrader export (the CLI parses, this runs)."""

from __future__ import annotations

import argparse
import sys


def run_classroom_command(args: argparse.Namespace) -> None:
    """Run the `agentkit classroom` subcommand that `args` names."""
    if args.edition == "student":
        from agentkit.classroom import student_edition

        written = student_edition(args.source, args.target)
        print(f"wrote the student edition of {len(written)} notebooks to {args.target}")
    elif args.edition == "grade":
        import asyncio
        from pathlib import Path

        from agentkit.classroom.gradebook import (
            NothingToGrade,
            confinement_warning,
            grade_class,
            summary,
            to_grade,
            write_csv,
            write_feedback,
        )

        try:  # checked before anything runs or is written: exit status 2, as argparse's own usage errors
            to_grade(Path(args.submissions), Path(args.course), args.notebook)
        except NothingToGrade as refused:
            print(f"agentkit classroom grade: {refused}", file=sys.stderr)
            sys.exit(2)
        if warning := confinement_warning():
            print(warning, file=sys.stderr)
        grades = asyncio.run(grade_class(args.submissions, args.course, args.notebook, args.timeout, args.jobs))
        write_csv(grades, args.out)
        feedback = write_feedback(grades, args.feedback or Path(args.out).parent / "feedback")
        print(f"{summary(grades)}\n\nwrote {args.out} ({len(grades)} rows) and {len(feedback)} feedback files "
              f"in {feedback[0].parent if feedback else '(no students)'}")
    else:
        try:
            from agentkit.classroom.nbgrader import export_course
        except ModuleNotFoundError as missing:
            sys.exit(f"agentkit classroom nbgrader needs {missing.name}: pip install -e '.[classroom]'")
        written = export_course(args.course, args.out)
        print(f"wrote {len(written)} nbgrader source notebooks to {args.out}")
