"""An edition of the course in another language: `notebooks/zh/`, built from the English notebooks and
`translations/zh/`, so that the two editions cannot drift apart.

A translation file per chapter (`translations/zh/00_setup.json`) maps each English markdown cell, by its cell id,
to its text in the language, with a hash of the English text it was made from. The build copies every code cell
as it is (same code, same stored outputs: nbval checks the English notebooks, and that checks these too) and puts
each translation in place of its English cell. It refuses, naming every cell at fault, when an English cell has no
translation or has changed since it was translated: a translator then sees exactly what to redo.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import nbformat

LANGUAGES = {"zh": "简体中文 (Simplified Chinese)"}
"""The editions there are translations for, by code."""
RELATIVE_LINK = re.compile(r"(\]\()(\.\./)")
"""A markdown link up out of notebooks/ ("](../docs/x.md)"): one folder deeper in the edition."""


class EditionError(ValueError):
    """The translations do not cover the English notebooks as they are now; the message lists every cell at fault."""


def english_hash(text: str) -> str:
    """The hash a translation records of the English text it was made from (16 hex digits of SHA-256)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def translations_for(root: Path, language: str, notebook: str) -> dict[str, dict[str, str]]:
    """The cell id -> {"en_sha256", "<language>"} map of one chapter's translation file ({} when there is none)."""
    path = root / "translations" / language / f"{Path(notebook).stem}.json"
    return json.loads(path.read_text(encoding="utf-8"))["cells"] if path.exists() else {}


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


def build_edition(root: Path | str, language: str = "zh") -> list[Path]:
    """Write `notebooks/<language>/` from `notebooks/*.ipynb` and `translations/<language>/`; every problem at once."""
    if language not in LANGUAGES:
        raise EditionError(f"no edition {language!r}; there are: {', '.join(LANGUAGES)}")
    root = Path(root)
    chapters = sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not chapters:
        raise EditionError(f"no notebooks in {root / 'notebooks'}: run this in the course's folder")
    books = {path: nbformat.read(path, as_version=4) for path in chapters}
    cells = {path: translations_for(root, language, path.name) for path in chapters}
    found = [problem for path in chapters for problem in problems(books[path], cells[path], path.name, language)]
    if found:
        raise EditionError(f"{len(found)} cells to translate:\n" + "\n".join(found))
    folder = root / "notebooks" / language
    folder.mkdir(exist_ok=True)
    if not (folder / "data").exists():  # code cells read data/... relative to their notebook, as in English
        os.symlink(Path("..") / "data", folder / "data")
    written = []
    for path in chapters:
        target = folder / path.name
        nbformat.write(translated(books[path], cells[path], language), target)
        written.append(target)
    return written
