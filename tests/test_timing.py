"""The course's one time rule (agentkit/classroom/timing.py): prose at 200 words a minute, a minute a code cell,
each core exercise's stated minutes; an optional exercise (`**Optional exercise N.M: …**`, `**选做练习 N.M：…**`)
is not counted, and still found by everything that finds exercises by their cells or their checks."""

import json
from pathlib import Path

import nbformat

from agentkit.classroom.timing import chapter_time


def notebook(tmp_path, *markdown: str, code: int = 0, exercise_cells: int = 0):
    cells = [nbformat.v4.new_markdown_cell(text) for text in markdown]
    cells += [nbformat.v4.new_code_cell("x = 1") for _ in range(code)]
    cells += [nbformat.v4.new_code_cell("# Exercise 1.2: x\nx = 2", metadata={"tags": ["solution"]})
              for _ in range(exercise_cells)]
    path = tmp_path / "01_x.ipynb"
    path.write_text(json.dumps(nbformat.v4.new_notebook(cells=cells)), encoding="utf-8")
    return path


def test_a_core_exercise_counts_its_stated_minutes_in_english_and_in_chinese(tmp_path):
    english = chapter_time(notebook(tmp_path, "**Exercise 1.1: a tool** (5 min). Write it."))
    chinese = chapter_time(notebook(tmp_path, "**练习 1.1：一个工具**（5 分钟）。写出它。"))
    assert (english.exercise_minutes, chinese.exercise_minutes) == (5, 5)
    assert chapter_time(notebook(tmp_path, "**Exercise 1.1** Write it.")).exercise_minutes == 10, "unstated: 10"


def test_an_optional_exercise_is_not_counted_but_is_seen(tmp_path):
    english = chapter_time(notebook(tmp_path, "**Exercise 1.1: a tool** (5 min).",
                                    "**Optional exercise 1.2: arguments** (10 min). Parse them.",
                                    code=2, exercise_cells=2))
    assert english.exercise_minutes == 5 and english.optional_exercises == 1
    assert english.code_cells == 2, "an exercise's solution cells are never counted as code cells"
    chinese = chapter_time(notebook(tmp_path, "**练习 1.1：一个工具**（5 分钟）。",
                                    "**选做练习 1.2：参数**（10 分钟）。解析它们。"))
    assert chinese.exercise_minutes == 5 and chinese.optional_exercises == 1
    assert chapter_time(notebook(tmp_path, "**Stretch (open-ended, 20 min): a tool**")).exercise_minutes == 0


def test_the_whole_rule_in_minutes(tmp_path):
    time = chapter_time(notebook(tmp_path, " ".join(["word"] * 401), "**Exercise 1.1: t** (5 min).",
                                 "**Optional exercise 1.2: u** (10 min).", code=3))
    assert time.words == 401 + 5 + 6 and time.minutes == 3 + 3 + 5   # 412 words: 2.06 min, rounded up with the rest


def test_checks_student_edition_and_nbgrader_still_find_an_optional_exercise():
    from agentkit.classroom.exercises import notebook_exercises

    numbers = [exercise.number for exercise in notebook_exercises("06_shell_tool.ipynb")]
    assert numbers == ["6.1", "6.2", "6.3"], "optional exercises keep their checks, found by name"


def test_the_student_edition_and_nbgrader_find_an_optional_exercises_cells(tmp_path):
    from agentkit.classroom.nbgrader import export_course
    from agentkit.classroom.student import student_edition

    root = Path(__file__).resolve().parent.parent
    shell = next(path for path in student_edition(root / "notebooks", tmp_path / "student")
                 if path.name.startswith("06_"))
    stubs = ["".join(cell["source"]) for cell in json.loads(shell.read_text(encoding="utf-8"))["cells"]
             if "solution" in cell["metadata"].get("tags", [])]
    assert [stub.splitlines()[-1] for stub in stubs] == [
        f'raise NotImplementedError("Exercise 6.{n}: replace this line with your answer")' for n in (1, 2, 3)]
    assert "**Optional exercise 6.3:" in shell.read_text(encoding="utf-8")
    exported = next(path for path in export_course(root / "notebooks", tmp_path / "nbgrader")
                    if path.name.startswith("06_"))
    graded = [cell["metadata"]["nbgrader"]["grade_id"] for cell in
              json.loads(exported.read_text(encoding="utf-8"))["cells"] if cell["metadata"].get("nbgrader", {}).get("grade")]
    assert len(graded) == 3, graded
