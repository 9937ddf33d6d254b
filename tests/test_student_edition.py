"""The student edition: no solution text, runs up to its first exercise, and the solutions put back pass every check."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

from agentkit.classroom import CHECK, SOLUTION, execute, offline_environment, stub, student_edition

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
WITH_EXERCISES = [p.name for p in sorted(NOTEBOOKS.glob("*.ipynb"))
                  if any(SOLUTION in c.metadata.get("tags", []) for c in nbformat.read(p, as_version=4).cells)]


def tagged(notebook: nbformat.NotebookNode, tag: str) -> list[nbformat.NotebookNode]:
    return [cell for cell in notebook.cells if tag in cell.metadata.get("tags", [])]


@pytest.fixture(scope="module")
def edition(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("student")
    student_edition(NOTEBOOKS, target)
    return target


def run_student(notebook: nbformat.NotebookNode, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A student notebook stops before its clean-up cell: its scratch folders go in pytest's tmp, not in /tmp.
    scratch = folder / "tmp"
    scratch.mkdir(exist_ok=True)
    monkeypatch.setenv("TMPDIR", str(scratch))
    with offline_environment():
        execute(notebook, folder, timeout=120)


def test_stub_keeps_the_brief_and_fails_until_answered() -> None:
    cell = stub("# Exercise 1.2: return the sum\n# of a and b.\ndef add(a, b):\n    return a + b\n")
    assert cell == ('# Exercise 1.2: return the sum\n# of a and b.\n'
                    'raise NotImplementedError("Exercise 1.2: replace this line with your answer")')
    with pytest.raises(ValueError, match="must start with '# Exercise N.M"):
        stub("def add(a, b):\n    return a + b")


def test_edition_refuses_to_overwrite_the_course() -> None:
    with pytest.raises(ValueError, match="another folder"):
        student_edition(NOTEBOOKS, NOTEBOOKS)


def test_every_notebook_is_written_and_data_files_come_along(edition: Path) -> None:
    assert sorted(p.name for p in edition.glob("*.ipynb")) == sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    shipped = [p.relative_to(NOTEBOOKS) for p in NOTEBOOKS.rglob("*") if p.is_file() and p.suffix != ".ipynb"
               and "scratch" not in p.parts and ".ipynb_checkpoints" not in p.parts]
    assert all((edition / p).is_file() for p in shipped)


@pytest.mark.parametrize("name", WITH_EXERCISES)
def test_student_edition_holds_no_solution_text(edition: Path, name: str) -> None:
    teacher = nbformat.read(NOTEBOOKS / name, as_version=4)
    student = nbformat.read(edition / name, as_version=4)
    student_text = "\n".join(cell.source for cell in student.cells)
    # A solution line that the notebook also shows elsewhere (a dict key, an `except` clause) gives nothing away.
    elsewhere = "\n".join(cell.source for cell in teacher.cells if SOLUTION not in cell.metadata.get("tags", []))
    for solution in tagged(teacher, SOLUTION):
        for line in solution.source.splitlines():
            if line.strip() and not line.startswith("#") and line not in elsewhere:
                assert line not in student_text, f"solution line leaked into the student edition: {line!r}"
    assert all(not cell.outputs for cell in tagged(student, CHECK) + tagged(student, SOLUTION))
    assert tagged(student, CHECK), f"{name} has exercises but no check cell"


@pytest.mark.parametrize("name", WITH_EXERCISES)
def test_student_notebook_runs_up_to_its_first_exercise(edition: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    student = nbformat.read(edition / name, as_version=4)
    first = next(i for i, cell in enumerate(student.cells) if SOLUTION in cell.metadata.get("tags", []))
    student.cells = student.cells[: first + 1]
    with pytest.raises(CellExecutionError) as stopped:
        run_student(student, edition, monkeypatch)
    assert "NotImplementedError" in str(stopped.value)
    assert all(cell.execution_count for cell in student.cells[:first] if cell.cell_type == "code")


@pytest.mark.parametrize("name", WITH_EXERCISES)
def test_solutions_put_back_pass_every_check(edition: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    solutions = {cell.id: cell.source for cell in tagged(nbformat.read(NOTEBOOKS / name, as_version=4), SOLUTION)}
    student = nbformat.read(edition / name, as_version=4)
    for cell in tagged(student, SOLUTION):
        cell.source = solutions[cell.id]
    run_student(student, edition, monkeypatch)
    for cell in tagged(student, CHECK):
        printed = "".join(output.get("text", "") for output in cell.outputs)
        assert "[pass]" in printed and "[fail]" not in printed and "[todo]" not in printed, printed
