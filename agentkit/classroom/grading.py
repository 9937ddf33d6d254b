"""Grade a class: run each submitted notebook in a throwaway, confined kernel and record every check's verdict.

A submission is untrusted code. Each notebook runs in a fresh kernel, in a fresh temporary folder holding a
copy of the course's data files, with the shell tool's scrubbed environment (no key, offline model), a time
limit, and (where Linux Landlock exists) no right to change any file outside that folder. A cell that raises
does not stop it, so every exercise gets a verdict; then the real checks run, imported afresh from the package,
in cells of our own. An exercise is `error` when the notebook did not get to it cleanly: it timed out or its
kernel died first, or a cell at or before the exercise's solution raised (the stub's NotImplementedError is a
`todo`, not a crash).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import nbformat
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

import agentkit
from agentkit.classroom.exercises import Exercise
from agentkit.classroom.in_kernel import MARKER, grading_cell
from agentkit.classroom.student import NOT_COPIED
from agentkit.tools.shell import scrubbed_environment

Outcome = Literal["pass", "fail", "todo", "error"]


@dataclass(frozen=True)
class Grade:
    """One row of grades.csv: one student's verdict on one exercise."""

    student: str
    """The student's id: the name of their folder in SUBMISSIONS."""
    notebook: str
    """The notebook's file name."""
    exercise: str
    """The exercise's number: "1.2"."""
    verdict: Outcome
    """pass, fail, todo (not answered), or error (the notebook never reached the check)."""
    message: str
    """The check's hint, or why the notebook did not reach the check."""


class ConfinedKernelManager(AsyncKernelManager):
    """A kernel started through `agentkit.classroom.sandbox`, so that it can write only in `folder`."""

    folder: str = ""

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        command = super().format_kernel_cmd(extra_arguments)
        return [sys.executable, "-m", "agentkit.classroom.sandbox", self.folder, "--", *command]


def kernel_environment(folder: Path) -> dict[str, str]:
    """The shell tool's allowlist, offline, with every place Python and Jupyter write to inside `folder`."""
    (folder / "tmp").mkdir()
    package_root = str(Path(agentkit.__file__).resolve().parent.parent)  # the grader's agentkit, not another one
    inside = {name: str(folder / sub) for name, sub in (
        ("HOME", ""), ("TMPDIR", "tmp"), ("IPYTHONDIR", ".ipython"), ("JUPYTER_CONFIG_DIR", ".jupyter"),
        ("JUPYTER_DATA_DIR", ".jupyter"), ("JUPYTER_RUNTIME_DIR", ".jupyter/runtime"), ("MPLCONFIGDIR", ".matplotlib"))}
    return scrubbed_environment() | inside | {"PYTHONPATH": package_root, "PYTHONDONTWRITEBYTECODE": "1",
                                              "MODEL_API_KEY": "", "MODEL": ""}


async def grade_notebook(student: str, submission: Path, exercises: list[Exercise], course: Path,
                         timeout: float) -> list[Grade]:
    """Grade one student's notebook at `submission` (which may be missing) on `exercises`."""
    def every(verdict: Outcome, message: str) -> list[Grade]:
        return [Grade(student, submission.name, e.number, verdict, message) for e in exercises]

    if not submission.is_file():
        return every("error", f"missing notebook: the folder has no {submission.name}")
    try:
        notebook = nbformat.read(submission, as_version=4)
    except Exception as error:  # anything a student hands in: say why it cannot be read
        return every("error", f"the notebook could not be read: {type(error).__name__}: {error}")
    student_cells = len(notebook.cells)
    notebook.cells += [nbformat.v4.new_code_cell(grading_cell(e.module, e.check)) for e in exercises]
    with tempfile.TemporaryDirectory(prefix="agentkit-grade-") as scratch:
        folder = Path(scratch).resolve()
        shutil.copytree(course, folder / "course", ignore=shutil.ignore_patterns(*NOT_COPIED))
        stopped = await _execute(notebook, folder, timeout)
    first_crash = _crashes(notebook.cells[:student_cells])
    grades = []
    for exercise, cell in zip(exercises, notebook.cells[student_cells:], strict=True):
        verdict = _reported(cell)
        if verdict is None:
            grades.append(Grade(student, submission.name, exercise.number, "error", stopped or "no verdict reported"))
            continue
        outcome, hint = verdict
        crash = first_crash(_exercise_position(notebook.cells[:student_cells], exercise.number))
        if crash:  # the notebook must run down to the exercise; what the check alone said is kept for the teacher
            outcome, hint = "error", f"{crash} (the check alone says {outcome}{': ' + hint if hint else ''})"
        grades.append(Grade(student, submission.name, exercise.number, outcome, hint))
    return grades


async def _execute(notebook: nbformat.NotebookNode, folder: Path, timeout: float) -> str | None:
    """Run the notebook in a confined kernel in `folder / "course"`; None, or why it stopped before the end."""
    running = {"cell": 0}
    # Unix sockets in the folder, not TCP ports: nothing of the kernel's is reachable from the network.
    manager = ConfinedKernelManager(kernel_name="python3", connection_file=str(folder / "kernel.json"),
                                    transport="ipc", ip=str(folder / "kernel"))
    manager.folder = str(folder)
    # The notebook's limit is ours (the watchdog); nbclient's per-cell one only has to be longer, never to fire first.
    client = NotebookClient(notebook, km=manager, timeout=2 * timeout + 30, allow_errors=True, record_timing=False,
                            resources={"metadata": {"path": str(folder / "course")}},
                            on_cell_start=lambda cell, cell_index: running.update(cell=cell_index + 1))
    timed_out = asyncio.Event()

    async def stop_at_the_limit() -> None:
        await asyncio.sleep(timeout)
        timed_out.set()
        await manager.shutdown_kernel(now=True)  # nbclient then finds its kernel dead and stops

    watchdog = asyncio.create_task(stop_at_the_limit())
    try:
        await asyncio.wait_for(client.async_execute(env=kernel_environment(folder)), timeout + 60)
    except (DeadKernelError, CellTimeoutError, TimeoutError):
        if timed_out.is_set():
            return f"the notebook did not finish within {timeout:g} s (it was running cell {running['cell']})"
        return f"the kernel died while running cell {running['cell']}"
    finally:
        watchdog.cancel()
        if manager.has_kernel:
            await manager.shutdown_kernel(now=True)
    return None


def _reported(cell: nbformat.NotebookNode) -> tuple[Outcome, str] | None:
    """The verdict a grading cell printed, if it got to print one."""
    for output in cell.get("outputs", []):
        for line in output.get("text", "").splitlines() if output.get("output_type") == "stream" else []:
            if line.startswith(MARKER):
                reported = json.loads(line.removeprefix(MARKER))
                return reported["outcome"], reported["hint"]
    return None


def _crashes(cells: list[nbformat.NotebookNode]) -> Callable[[int], str | None]:
    """A function: cell position -> the first crash at or before it, as a message; a stub's todo is no crash."""
    found = []
    for index, cell in enumerate(cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error" and output.get("ename") != "NotImplementedError":
                found.append((index, f"cell {index + 1} raised {output['ename']}: {output.get('evalue', '')}"))
    return lambda position: next((message for index, message in found if index <= position), None)


def _exercise_position(cells: list[nbformat.NotebookNode], number: str) -> int:
    """Where the exercise's solution cell is (its first line names it); the end when it cannot be found."""
    header = re.compile(rf"#\s*Exercise {re.escape(number)}\b")
    return next((index for index, cell in enumerate(cells) if header.match(cell.get("source", ""))), len(cells))


def default_jobs() -> int:
    """Kernels to run at once: one a core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
