"""The Chinese edition, notebooks/zh/: every chapter, the English cells in the same order, code cells identical to the
English ones (code and stored outputs) except the code cells a translation swaps or adds (executed when the edition is
built), markdown in Chinese, and translations that fail loudly once stale."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from agentkit.checks.zh import in_chinese
from agentkit.classroom import CHECK, SOLUTION, student_edition
from agentkit.classroom.edition import EditionError, build_edition, english_hash, problems, translated, translation_file
from agentkit.classroom.edition_code import code_problems, declared, with_code
from agentkit.classroom.exercises import course_exercises
from agentkit.classroom.gradebook import grade_class
from agentkit.classroom.refresh import masked, sanitizers
from agentkit.frontends.messages import say

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
ZH = ROOT / "notebooks" / "zh"
HAN = re.compile(r"[\u4e00-\u9fff]")


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


RULES = sanitizers(ROOT / "notebooks" / "sanitize.cfg")


def as_stored(outputs: list) -> str:
    """Outputs as nbval compares them: what sanitize.cfg masks masked, and no execution counts (a chapter with an
    added cell counts its later cells one higher)."""
    return masked([{k: v for k, v in output.items() if k != "execution_count"} for output in outputs], RULES)


def in_check_language(outputs: list) -> list:
    """A check cell's English outputs as the zh edition prints them after `use_language("zh")`: each "[pass] title"
    line with the title's Chinese form (a stored check passes, so its line has no hint)."""
    chinese = json.loads(json.dumps(outputs))
    for output in chinese:
        if output.get("output_type") == "stream":
            text = "".join(output["text"]) if isinstance(output["text"], list) else output["text"]
            output["text"] = re.sub(r"(?m)^\[pass\] (.+)$", lambda line: f"[pass] {in_chinese(line[1])}", text)
    return chinese


CONFIRMATION = re.compile(r"(?m)^\[asked\] Allow (\S+) (.*)\? \[y/N\]$")


def in_asked_language(outputs: list) -> list:
    """A cell's English outputs as the zh edition prints them once a chapter passes `scripted_answers` its `word=`
    (`frontends.messages.person_question`): each confirmation it printed, worded as the Chinese chat words it."""
    chinese = json.loads(json.dumps(outputs))
    for output in chinese:
        if output.get("output_type") == "stream":
            text = "".join(output["text"]) if isinstance(output["text"], list) else output["text"]
            output["text"] = CONFIRMATION.sub(lambda line: "[asked] " + say("confirm", "zh", tool=line[1],
                                                                            arguments=line[2]), text)
    return chinese


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_zh_every_chapter_has_the_english_cells_and_code_except_the_declared_swaps_and_additions(english: Path) -> None:
    chinese = ZH / english.name
    assert chinese.exists(), f"no zh edition of {english.name}: run `agentkit edition zh`"
    en, zh, data = read(english), read(chinese), translation_file(ROOT, "zh", english.name)
    expected = with_code(translated(en, data.get("cells", {}), "zh"), data, "zh")
    assert [(c.id, c.cell_type) for c in zh.cells] == [(c.id, c.cell_type) for c in expected.cells]
    ours, english_cells = declared(data), {cell.id: cell for cell in en.cells}
    for want, have in zip(expected.cells, zh.cells, strict=True):
        if want.cell_type != "code":
            continue
        assert have.source == want.source, f"{english.name} cell {want.id}: notebooks/zh is older than its translation"
        if want.id in ours:
            assert have.execution_count is not None, f"{english.name} cell {want.id}: swapped or added, never executed"
            continue
        a = english_cells[want.id]
        assert have.metadata == a.metadata, f"{english.name} cell {a.id}: metadata differs: run `agentkit edition zh`"
        expected_outputs = in_check_language(a.outputs) if CHECK in a.metadata.get("tags", []) else a.outputs
        # A question a cell words itself ("Allow bash ...?" in chapter 07's teaching-size guard) stays as written.
        assert as_stored(have.outputs) in (as_stored(expected_outputs), as_stored(in_asked_language(expected_outputs))), \
            f"{english.name} cell {a.id}: the zh output differs from the English one: run `agentkit edition zh`"


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_zh_markdown_is_the_current_translation_of_every_english_cell(english: Path) -> None:
    data = translation_file(ROOT, "zh", english.name)
    found = problems(read(english), data.get("cells", {}), english.name, "zh") + \
        code_problems(read(english), data, english.name, "zh")
    assert not found, "\n".join(found)
    expected = with_code(translated(read(english), data.get("cells", {}), "zh"), data, "zh")
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
    written = build_edition(root, "zh", run=False)
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


def tiny_course(tmp_path: Path, code: str, added: list[dict] | None = None) -> Path:
    """A course of one chapter: a markdown cell and a code cell, translated, with `added` cells in the translation."""
    root = tmp_path / "tiny"
    (root / "notebooks").mkdir(parents=True)
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("# Tiny", id="title"), nbformat.v4.new_code_cell(code, id="code")]
    nbformat.write(notebook, root / "notebooks" / "00_tiny.ipynb")
    data = {"cells": {"title": {"en_sha256": english_hash("# Tiny"), "zh": "# 小"}}, "added": added or []}
    (root / "translations" / "zh").mkdir(parents=True)
    (root / "translations" / "zh" / "00_tiny.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return root


def added_code(source: str, after: str = "code", cell_id: str = "zh-ask") -> dict:
    return {"after": after, "id": cell_id, "cell_type": "code", "zh": source}


def test_zh_an_added_code_cell_is_executed_and_its_output_stored_the_english_code_untouched(tmp_path: Path) -> None:
    root = tiny_course(tmp_path, "x = 6 * 7\nprint(x)", [added_code('print(f"答案是 {x}")')])
    [path] = build_edition(root, "zh")
    cells = read(path).cells
    assert [cell.id for cell in cells] == ["title", "code", "zh-ask"]
    assert cells[1].source == "x = 6 * 7\nprint(x)" and cells[1].outputs[0]["text"] == "42\n"
    assert cells[2].outputs[0]["text"] == "答案是 42\n", "what the added cell printed, after the English cell ran"
    assert read(path).metadata["language_edition"] == "zh"


def test_zh_an_added_cell_that_fails_names_its_chapter_and_cell_and_leaves_the_old_edition(tmp_path: Path) -> None:
    root = tiny_course(tmp_path, "x = 1", [added_code("print(x)")])
    [path] = build_edition(root, "zh")
    before = path.read_bytes()
    data = json.loads((root / "translations" / "zh" / "00_tiny.json").read_text(encoding="utf-8"))
    data["added"] = [added_code("print(x)"), added_code('raise RuntimeError("坏了")', "zh-ask", "zh-broken")]
    (root / "translations" / "zh" / "00_tiny.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(EditionError, match=r"00_tiny.ipynb cell zh-broken failed .*RuntimeError: 坏了"):
        build_edition(root, "zh")
    assert path.read_bytes() == before, "the notebook built before is left as it was"


def test_zh_a_swapped_code_cell_goes_stale_when_its_english_code_changes(tmp_path: Path) -> None:
    root = tiny_course(tmp_path, "x = 1")
    file = root / "translations" / "zh" / "00_tiny.json"
    data = json.loads(file.read_text(encoding="utf-8"))
    data["code"] = {"code": {"en_sha256": english_hash("x = 1"), "zh": "x = 1  # 一"}}
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    [path] = build_edition(root, "zh")
    assert read(path).cells[1].source == "x = 1  # 一"
    notebook = read(root / "notebooks" / "00_tiny.ipynb")
    notebook.cells[1].source = "x = 2"
    nbformat.write(notebook, root / "notebooks" / "00_tiny.ipynb")
    with pytest.raises(EditionError, match=f"00_tiny.ipynb code cell code: the English code changed.*{english_hash('x = 2')}"):
        build_edition(root, "zh")


def test_zh_an_added_cell_after_a_cell_that_is_gone_is_named(tmp_path: Path) -> None:
    root = tiny_course(tmp_path, "x = 1", [added_code("print(x)", after="no-such-cell"), added_code("1", cell_id="code")])
    with pytest.raises(EditionError) as raised:
        build_edition(root, "zh")
    assert "added cell zh-ask: it goes after cell no-such-cell, which is not there" in str(raised.value)
    assert "added cell 'code': an added cell's id is new" in str(raised.value)


TALKS_TO_THE_MODEL = re.compile(r"\bconnect(_offline)?\(")
"""A chapter whose English code connects to a model (the offline one unless .env names another)."""
CHINESE_STRING = re.compile(r"\"[^\"\n]*[\u4e00-\u9fff][^\"\n]*\"")


def _english_source(english: Path, cell_id: str) -> str:
    return next(cell.source for cell in read(english).cells if cell.id == cell_id)


def output_text(cell: nbformat.NotebookNode) -> str:
    return "".join("".join(output.get("text", "")) for output in cell.get("outputs", []))


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_zh_every_chapter_that_talks_to_the_model_asks_it_in_chinese_and_shows_a_chinese_answer(english: Path) -> None:
    code = "\n".join(cell.source for cell in read(english).cells if cell.cell_type == "code")
    if not TALKS_TO_THE_MODEL.search(code):
        pytest.skip(f"{english.name} does not talk to a model")
    english_ids = {cell.id for cell in read(english).cells}  # an English cell swapped for a Chinese one asks too
    asked = [cell for cell in read(ZH / english.name).cells if cell.cell_type == "code" and CHINESE_STRING.search(cell.source)
             and (cell.id.startswith("zh-") or cell.id in english_ids and cell.source != _english_source(english, cell.id))]
    assert asked, f"{english.name}: no added or swapped cell asks in Chinese (translations/zh/{english.stem}.json)"
    answered = [cell.id for cell in asked if HAN.search(output_text(cell))]
    assert answered, f"{english.name}: cells {[cell.id for cell in asked]} ask in Chinese, but no answer in Chinese is stored"


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_zh_every_exercise_is_set_in_chinese(english: Path) -> None:
    """Each solution cell's instructions (its leading comment lines, which the student edition keeps) are Chinese."""
    chinese = {cell.id: cell for cell in read(ZH / english.name).cells}
    for cell in read(english).cells:
        if SOLUTION not in cell.metadata.get("tags", []):
            continue
        instructions = [line for line in chinese[cell.id].source.splitlines() if line.startswith("#")][:1]
        assert instructions and re.match(r"# (选做)?练习 \d+\.\d+：\S", instructions[0]), \
            f"{english.name} cell {cell.id}: the exercise is set in English (translations/zh/{english.stem}.json, `code`)"
