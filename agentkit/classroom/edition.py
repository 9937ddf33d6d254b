"""An edition of the course in another language: `notebooks/zh/`, built from the English notebooks and
`translations/zh/`, so that the two editions cannot drift apart.

A translation file per chapter (`translations/zh/00_setup.json`) maps each English markdown cell, by its cell id,
to its text in the language, with a hash of the English text it was made from. The build puts each translation in
place of its English cell and copies every code cell as it is (same code, same stored outputs), except the code
cells the translation swaps or adds (`agentkit.classroom.edition_code`): a chapter with those is executed, and
nbval checks the edition's notebooks as it checks the English. It refuses, naming every cell at fault, when an
English cell has no translation or has changed since it was translated: a translator then sees exactly what to redo.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import nbformat

from agentkit.classroom.edition_code import EditionError, Translation, code_problems, english_hash, run_edition, runs, with_code

__all__ = ["LANGUAGES", "EditionError", "build_edition", "english_hash", "problems", "translated", "translations_for"]

LANGUAGES = {"zh": "简体中文 (Simplified Chinese)"}
"""The editions there are translations for, by code."""
RELATIVE_LINK = re.compile(r"(\]\()(\.\./)")
"""A markdown link up out of notebooks/ ("](../docs/x.md)"): one folder deeper in the edition."""


def translation_file(root: Path, language: str, notebook: str) -> Translation:
    """One chapter's translation file: its markdown `cells`, and any `code` it swaps and cells it adds ({} if none)."""
    path = root / "translations" / language / f"{Path(notebook).stem}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def translations_for(root: Path, language: str, notebook: str) -> dict[str, dict[str, str]]:
    """The cell id -> {"en_sha256", "<language>"} map of one chapter's markdown translations ({} when there is none)."""
    return translation_file(root, language, notebook).get("cells", {})


def problems(english: nbformat.NotebookNode, cells: dict[str, dict[str, str]], name: str, language: str) -> list[str]:
    """What is wrong with a chapter's translations: each English markdown cell untranslated or changed since."""
    found = []
    for cell in english.cells:
        if cell.cell_type != "markdown":
            continue
        entry = cells.get(cell.id)
        if entry is None or not entry.get(language, "").strip():
            found.append(f"{name} cell {cell.id}: no {language} translation (translations/{language}/{Path(name).stem}.json)")
        elif entry.get("en_sha256") != english_hash(cell.source):
            found.append(f"{name} cell {cell.id}: the English text changed after it was translated; translate it "
                         f"again and record en_sha256 {english_hash(cell.source)}")
    return found


def translated(english: nbformat.NotebookNode, cells: dict[str, dict[str, str]], language: str) -> nbformat.NotebookNode:
    """The chapter in `language`: the same cells in the same order, each markdown cell's text translated."""
    edition = nbformat.from_dict(json.loads(json.dumps(english)))  # a deep copy: code cells stay exactly as they are
    for cell in edition.cells:
        if cell.cell_type == "markdown":
            cell.source = RELATIVE_LINK.sub(r"\1../\2", cells[cell.id][language])
    edition.metadata["language_edition"] = language
    return edition


def build_edition(root: Path | str, language: str = "zh", run: bool = True) -> list[Path]:
    """Write `notebooks/<language>/` from `notebooks/*.ipynb` and `translations/<language>/`; every problem at once.

    A chapter whose translation swaps or adds code cells is executed (unless `run` is False: then those cells are
    written with no outputs); if one fails, the error names the chapter and cell and nothing is written."""
    if language not in LANGUAGES:
        raise EditionError(f"no edition {language!r}; there are: {', '.join(LANGUAGES)}")
    root = Path(root)
    chapters = sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not chapters:
        raise EditionError(f"no notebooks in {root / 'notebooks'}: run this in the course's folder")
    books = {path: nbformat.read(path, as_version=4) for path in chapters}
    files = {path: translation_file(root, language, path.name) for path in chapters}
    found = [problem for path in chapters for problem in
             problems(books[path], files[path].get("cells", {}), path.name, language)
             + code_problems(books[path], files[path], path.name, language)]
    if found:
        raise EditionError(f"{len(found)} cells to translate:\n" + "\n".join(found))
    folder = root / "notebooks" / language
    folder.mkdir(exist_ok=True)
    if not os.path.lexists(folder / "data"):  # code cells read data/... relative to their notebook, as in English
        os.symlink(Path("..") / "data", folder / "data")
    editions = {path: with_code(translated(books[path], files[path].get("cells", {}), language), files[path], language)
                for path in chapters}
    for path in chapters:
        if run and runs(files[path]):
            run_edition(editions[path], folder / path.name, folder, root / "notebooks" / "sanitize.cfg", path.name)
    for path in chapters:
        nbformat.write(editions[path], folder / path.name)
    return [folder / path.name for path in chapters]
