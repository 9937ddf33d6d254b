"""The Chinese edition, notebooks/zh/: every chapter, the same cells in the same order, code cells identical to the
English ones (code and stored outputs), markdown in Chinese, and translations that fail loudly once stale."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from agentkit.classroom import SOLUTION, student_edition
from agentkit.classroom.edition import EditionError, build_edition, english_hash, problems, translated, translations_for
from agentkit.classroom.exercises import course_exercises
from agentkit.classroom.gradebook import grade_class

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
ZH = ROOT / "notebooks" / "zh"
HAN = re.compile(r"[\u4e00-\u9fff]")


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_zh_every_chapter_has_a_counterpart_with_the_same_cells_and_identical_code(english: Path) -> None:
    chinese = ZH / english.name
    assert chinese.exists(), f"no zh edition of {english.name}: run `agentkit edition zh`"
    en, zh = read(english), read(chinese)
    assert [(c.id, c.cell_type) for c in zh.cells] == [(c.id, c.cell_type) for c in en.cells]
    for a, b in zip(en.cells, zh.cells, strict=True):
        if a.cell_type == "code":
            assert (b.source, b.outputs, b.metadata) == (a.source, a.outputs, a.metadata), \
                f"{english.name} cell {a.id}: the zh code cell differs from the English one: run `agentkit edition zh`"


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_zh_markdown_is_the_current_translation_of_every_english_cell(english: Path) -> None:
    cells = translations_for(ROOT, "zh", english.name)
    found = problems(read(english), cells, english.name, "zh")
    assert not found, "\n".join(found)
    expected = translated(read(english), cells, "zh")
    built = read(ZH / english.name)
    for want, have in zip(expected.cells, built.cells, strict=True):
        if want.cell_type == "markdown":
            assert have.source == want.source, f"{english.name} cell {want.id}: notebooks/zh is older than its translation"
            assert HAN.search(have.source), f"{english.name} cell {want.id}: no Chinese in the zh edition"


def course_copy(tmp_path: Path) -> Path:
    root = tmp_path / "course"
    (root / "notebooks").mkdir(parents=True)
    for path in ENGLISH[:2]:
        shutil.copy(path, root / "notebooks" / path.name)
    shutil.copytree(ROOT / "translations", root / "translations")
    for path in (root / "translations" / "zh").glob("*.json"):
        if not (root / "notebooks" / f"{path.stem}.ipynb").exists():
            path.unlink()
    return root


def test_zh_translation_goes_stale_when_its_english_cell_changes_and_the_build_names_that_cell(tmp_path: Path) -> None:
    root = course_copy(tmp_path)
    path = root / "notebooks" / ENGLISH[1].name
    notebook = read(path)
    cell = next(c for c in notebook.cells if c.cell_type == "markdown")
    cell.source += "\n\nOne more sentence."
    nbformat.write(notebook, path)
    with pytest.raises(EditionError, match=f"{ENGLISH[1].name} cell {cell.id}: the English text changed") as raised:
        build_edition(root, "zh")
    assert english_hash(cell.source) in str(raised.value), "it says which hash a new translation records"
    assert not (root / "notebooks" / "zh").exists(), "nothing is written while a translation is stale"


def test_zh_a_cell_with_no_translation_is_named(tmp_path: Path) -> None:
    root = course_copy(tmp_path)
    file = root / "translations" / "zh" / f"{ENGLISH[0].stem}.json"
    data = json.loads(file.read_text(encoding="utf-8"))
    gone = next(iter(data["cells"]))
    del data["cells"][gone]
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(EditionError, match=f"{ENGLISH[0].name} cell {gone}: no zh translation"):
        build_edition(root, "zh")


def test_zh_build_links_up_one_folder_more_and_reaches_the_data_folder(tmp_path: Path) -> None:
    root = course_copy(tmp_path)
    (root / "notebooks" / "data").mkdir()
    written = build_edition(root, "zh")
    assert [path.name for path in written] == [path.name for path in ENGLISH[:2]]
    assert (root / "notebooks" / "zh" / "data").resolve() == (root / "notebooks" / "data").resolve()
    for path in written:
        for cell in read(path).cells:
            if cell.cell_type == "markdown":
                assert "](../" not in cell.source.replace("](../../", ""), f"{path.name}: a link still points one folder up"


def test_zh_unknown_edition_is_refused_with_the_ones_there_are(tmp_path: Path) -> None:
    with pytest.raises(EditionError, match="there are: zh"):
        build_edition(tmp_path, "xx")


def test_zh_student_edition_takes_the_solutions_out_as_in_english(tmp_path: Path) -> None:
    written = student_edition(ZH, tmp_path / "student")
    assert {path.name for path in written} >= {path.name for path in ENGLISH}
    for path in written:
        for cell in read(path).cells:
            if SOLUTION in cell.metadata.get("tags", []):
                assert not cell.outputs and "source_hidden" not in cell.metadata.get("jupyter", {})
    assert course_exercises(ZH).keys() == course_exercises(ROOT / "notebooks").keys(), "the same exercises, checked alike"


def test_zh_grading_runs_on_the_zh_edition(tmp_path: Path) -> None:
    # One student handing in chapter 01 of the zh edition, solutions and all: every exercise passes, as in English.
    chapter = next(path.name for path in ENGLISH if path.name.startswith("01_"))
    (tmp_path / "subs" / "ada").mkdir(parents=True)
    shutil.copy(ZH / chapter, tmp_path / "subs" / "ada" / chapter)
    grades = asyncio.run(grade_class(tmp_path / "subs", ZH, [chapter]))
    assert grades and all(grade.verdict == "pass" for grade in grades), grades
