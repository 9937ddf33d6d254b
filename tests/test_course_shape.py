"""The course is one a learner can finish: chapters short enough to read in a sitting, a map that lists them all,
a "Next:" at the end of each, solutions out of sight until asked for, and a bridge for Chinese readers.

The limits are COURSE_DESIGN's: at most 30 cells and 1,800 words of prose (the markdown cells, every word in
them, diagrams included) a chapter, and 18,000 for the course. They hold for every notebook in notebooks/, so a
chapter added later is held to them too.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
MAX_CELLS, MAX_WORDS, MAX_COURSE_WORDS = 30, 1_800, 18_000
REVEAL = re.compile(r"click the .{0,20}(…|\.\.\.).{0,80}blue bar|blue bar.{0,80}(…|\.\.\.)", re.IGNORECASE | re.DOTALL)
"""The line that tells a learner how to see a collapsed solution: the "..." in its place, or the blue bar left of it."""


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def prose(cell: dict) -> str:
    return "".join(cell["source"]) if cell["cell_type"] == "markdown" else ""


def words(path: Path) -> int:
    return sum(len(prose(cell).split()) for cell in cells(path))


def number(path: Path) -> str:
    return path.name[:2]


def test_the_course_has_its_chapters():
    assert [number(path) for path in NOTEBOOKS][:13] == [f"{n:02d}" for n in range(13)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.name for path in NOTEBOOKS])
def test_a_chapter_is_short_enough_to_finish(path):
    found = cells(path)
    assert len(found) <= MAX_CELLS, f"{path.name} has {len(found)} cells; at most {MAX_CELLS} (merge or move some)"
    assert words(path) <= MAX_WORDS, (f"{path.name} has {words(path)} words of prose; at most {MAX_WORDS} "
                                       "(move internals to a going-deeper page in docs/)")


def test_the_course_is_short_enough_to_finish():
    total = sum(words(path) for path in NOTEBOOKS)
    assert total <= MAX_COURSE_WORDS, f"the course has {total} words of prose; at most {MAX_COURSE_WORDS}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.name for path in NOTEBOOKS])
def test_every_chapter_ends_with_next_naming_the_following_one(path):
    last = [prose(cell) for cell in cells(path) if cell["cell_type"] == "markdown"][-1]
    assert cells(path)[-1]["cell_type"] == "markdown", f"{path.name} ends with a code cell, not with its Next:"
    following = [other for other in NOTEBOOKS if number(other) > number(path)]
    if not following:
        return
    line = next((line for line in last.splitlines() if line.startswith("**Next:**") or line.startswith("Next:")),
                None)
    assert line, f"{path.name}'s last cell has no line starting 'Next:'"
    assert re.search(rf"\b{number(following[0])}\b", line), f"{path.name}'s Next: does not name {following[0].name}"


def test_chapter_00s_map_lists_every_chapter_with_its_time():
    intro = "\n".join(prose(cell) for cell in cells(NOTEBOOKS[0]))
    rows = {row.split("|")[1].strip()[:2]: row for row in intro.splitlines() if re.match(r"\| \d\d ", row)}
    for path in NOTEBOOKS:
        assert number(path) in rows, f"chapter 00's map leaves out {path.name}"
        assert re.search(r"\d+ min", rows[number(path)]), f"chapter 00's map gives no time for {path.name}"


def test_the_teachers_guide_covers_every_chapter():
    guide = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    rows = {row.split("|")[1].strip()[:2]: row for row in guide.splitlines() if re.match(r"\| \d\d ", row)}
    for path in NOTEBOOKS:
        assert number(path) in rows, f"docs/teaching.md has no row for {path.name}"
        assert re.search(r"\d+ min", rows[number(path)]), f"docs/teaching.md gives no time for {path.name}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.name for path in NOTEBOOKS])
def test_solutions_are_collapsed_and_the_chapter_says_how_to_open_them(path):
    found = cells(path)
    solutions = [cell for cell in found if "solution" in cell["metadata"].get("tags", [])]
    if not solutions:
        return
    shown = [cell["id"] for cell in solutions if not cell["metadata"].get("jupyter", {}).get("source_hidden")]
    assert not shown, f"{path.name}: solution cells not collapsed (jupyter.source_hidden): {shown}"
    first = found.index(solutions[0])
    before = "\n".join(prose(cell) for cell in found[:first])
    assert REVEAL.search(before), f"{path.name} does not say, before its first solution, how to reveal it"


@pytest.mark.parametrize("path", NOTEBOOKS[1:], ids=[path.name for path in NOTEBOOKS[1:]])
def test_every_chapter_after_00_draws_its_flow(path):
    assert any("```mermaid" in prose(cell) for cell in cells(path)), f"{path.name} has no Mermaid diagram"


GLOSSARY_TERMS = ["工具调用", "函数调用", "注册表", "分发器", "工作区", "智能体循环", "系统提示词", "结构化输出",
                  "流式输出", "评估集", "沙箱"]


def test_the_glossary_bridges_to_the_chinese_literature():
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    missing = [term for term in GLOSSARY_TERMS if term not in glossary]
    assert not missing, f"docs/glossary.md lacks {missing}"
    rows = [row for row in glossary.splitlines() if row.startswith("| ") and not row.startswith("| English")
            and "---" not in row]
    assert len(rows) >= 40, f"docs/glossary.md has {len(rows)} terms; the course uses more"
    empty = [row for row in rows if any(not part.strip() for part in row.strip("|").split("|"))]
    assert not empty, f"glossary rows with an empty column: {empty[:3]}"


def test_readme_has_a_chinese_quick_start():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## 中文快速入门", 1)
    assert len(section) == 2, "README has no '## 中文快速入门' section"
    text = section[1].split("\n## ", 1)[0]
    assert "jupyter lab notebooks/" in text and "python -m pytest" in text, "the section lacks the two commands"
    assert "docs/glossary.md" in text and "中文" in text


def test_the_student_edition_opens_the_cells_where_students_write(tmp_path):
    from agentkit.classroom.student import student_edition

    for path in student_edition(ROOT / "notebooks", tmp_path / "student"):
        hidden = [cell["id"] for cell in cells(path) if "solution" in cell["metadata"].get("tags", [])
                  and cell["metadata"].get("jupyter", {}).get("source_hidden")]
        assert not hidden, f"{path.name}: the student's answer cells are collapsed: {hidden}"


def test_refresh_keeps_a_collapsed_solution_collapsed():
    import nbformat

    from agentkit.classroom.refresh import stabilise

    cell = nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["solution"], "jupyter": {"source_hidden": True},
                                                        "execution": {"iopub.status.busy": "2026-01-01"}})
    notebook = nbformat.v4.new_notebook(cells=[cell])
    stabilise(notebook)
    assert notebook.cells[0].metadata == {"tags": ["solution"], "jupyter": {"source_hidden": True}}
