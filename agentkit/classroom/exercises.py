"""Which exercises a notebook has: the `check_exercise_N_M` functions of its chapter's checks module.

A notebook named `NN_anything.ipynb` is checked by `agentkit/checks/chNN.py`; found by name, so a new chapter
is graded as soon as its checks module exists, with no list to update here.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from dataclasses import dataclass
from pathlib import Path

CHECK_PREFIX = "check_exercise_"


@dataclass(frozen=True)
class Exercise:
    """One exercise of one notebook, and the check that grades it."""

    notebook: str
    """The notebook's file name in the course: "01_manual_tool_calling.ipynb"."""
    number: str
    """The exercise's number as the notebook shows it: "1.2"."""
    module: str
    """The checks module: "agentkit.checks.ch01"."""
    check: str
    """The check's name in that module: "check_exercise_1_2"."""


def checks_module(notebook: str) -> str | None:
    """The name of the checks module for a notebook file name, or None when its chapter has none."""
    prefix = re.match(r"(\d+)_", notebook)
    if not prefix:
        return None
    name = f"agentkit.checks.ch{prefix.group(1)}"
    return name if importlib.util.find_spec(name) is not None else None


def notebook_exercises(notebook: str) -> list[Exercise]:
    """The exercises of one notebook (by file name), in the order of their numbers; none without a checks module."""
    module_name = checks_module(notebook)
    if module_name is None:
        return []
    module = importlib.import_module(module_name)
    found = [Exercise(notebook, name.removeprefix(CHECK_PREFIX).replace("_", "."), module_name, name)
             for name, function in vars(module).items()
             if name.startswith(CHECK_PREFIX) and inspect.iscoroutinefunction(function)]
    return sorted(found, key=lambda exercise: tuple(int(part) for part in exercise.number.split(".")))


def course_exercises(course: str | Path) -> dict[str, list[Exercise]]:
    """Every notebook of the course folder that has exercises, mapped to them, in file name order."""
    exercises = {path.name: notebook_exercises(path.name) for path in sorted(Path(course).glob("*.ipynb"))}
    return {name: found for name, found in exercises.items() if found}
