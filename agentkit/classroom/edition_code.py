"""Code cells of an edition: the ones a translation swaps or adds, and running the chapters that have them.

A chapter's translation file may carry, beside its markdown `cells`:

    "code":  {"<English code cell id>": {"en_sha256": "<hash of the English source>", "zh": "<the cell in Chinese>"}}
    "added": [{"after": "<a cell id>", "id": "zh-...", "cell_type": "code" | "markdown", "zh": "<its text>"}]

A swapped cell keeps its English cell's id and place (an exercise cell with its instructions in Chinese); its hash
goes stale like a markdown cell's, so a change in the English code names the cell to redo. An added cell goes after
the cell named by `after`: an English cell, or a cell added before it in the list. A chapter with either is executed
when the edition is built (`agentkit.classroom.refresh.rerun`), so what it stores is what its code printed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import nbformat

from agentkit.classroom.refresh import rerun


class EditionError(ValueError):
    """The translations do not cover the English notebooks as they are now; the message lists every cell at fault."""


def english_hash(text: str) -> str:
    """The hash a translation records of the English text it was made from (16 hex digits of SHA-256)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


Translation = dict[str, Any]
"""A chapter's translation file, as read: `cells`, and maybe `code` and `added`."""


def declared(data: Translation) -> set[str]:
    """The ids of the cells the translation swaps or adds: the only cells whose code differs from the English."""
    return set(data.get("code", {})) | {entry["id"] for entry in data.get("added", [])}


def runs(data: Translation) -> bool:
    """Whether the chapter's code differs from the English, so that its edition is executed, not copied."""
    return bool(data.get("code")) or any(entry.get("cell_type") == "code" for entry in data.get("added", []))


def code_problems(english: nbformat.NotebookNode, data: Translation, name: str, language: str) -> list[str]:
    """What is wrong with a chapter's swapped and added cells, each naming the cell."""
    found = []
    code = {cell.id: cell for cell in english.cells if cell.cell_type == "code"}
    for cell_id, entry in data.get("code", {}).items():
        if cell_id not in code:
            found.append(f"{name} code cell {cell_id}: swapped, but the English has no code cell with that id")
        elif entry.get("en_sha256") != english_hash(code[cell_id].source):
            found.append(f"{name} code cell {cell_id}: the English code changed after it was translated; redo the "
                         f"{language} cell and record en_sha256 {english_hash(code[cell_id].source)}")
        elif not entry.get(language, "").strip():
            found.append(f"{name} code cell {cell_id}: swapped, but with no {language} source")
    known = {cell.id for cell in english.cells}
    for entry in data.get("added", []):
        cell_id = entry.get("id", "")
        if entry.get("after") not in known:
            found.append(f"{name} added cell {cell_id}: it goes after cell {entry.get('after')}, which is not there")
        if cell_id in known or not cell_id.startswith(f"{language}-"):
            found.append(f"{name} added cell {cell_id!r}: an added cell's id is new and starts with '{language}-'")
        if entry.get("cell_type") not in ("code", "markdown") or not entry.get(language, "").strip():
            found.append(f"{name} added cell {cell_id}: needs a cell_type (code or markdown) and its {language} text")
        known.add(cell_id)
    return found


def with_code(edition: nbformat.NotebookNode, data: Translation, language: str) -> nbformat.NotebookNode:
    """`edition` with the translation's code cells swapped in and its added cells in place (outputs empty, until run)."""
    swaps = data.get("code", {})
    for cell in edition.cells:
        if cell.id in swaps:
            cell.source, cell.outputs, cell.execution_count = swaps[cell.id][language], [], None
    for entry in data.get("added", []):
        make = nbformat.v4.new_code_cell if entry["cell_type"] == "code" else nbformat.v4.new_markdown_cell
        cell = make(entry[language], id=entry["id"])
        cell.metadata = nbformat.from_dict({})
        place = next(index for index, other in enumerate(edition.cells) if other.id == entry["after"])
        edition.cells.insert(place + 1, cell)
    return edition


def run_edition(edition: nbformat.NotebookNode, previous: Path, folder: Path, sanitize: Path, name: str) -> None:
    """Execute the chapter's edition in `folder` as refresh does. A swapped or added cell whose source is as in the
    `previous` build keeps that build's output unless the new one differs beyond what `sanitize` masks."""
    language = edition.metadata.get("language_edition")
    if previous.exists():
        before = {cell.id: cell for cell in nbformat.read(previous, as_version=4).cells}
        for cell in edition.cells:
            old = before.get(cell.id)
            if cell.cell_type == "code" and not cell.outputs and old is not None and old.source == cell.source:
                cell.outputs = old.outputs
    try:
        rerun(edition, folder, sanitize)
    except Exception as error:
        failed = next(((cell.id, output) for cell in edition.cells for output in cell.get("outputs", [])
                       if output.get("output_type") == "error"), None)
        where, what = (f"cell {failed[0]}", f"{failed[1].ename}: {failed[1].evalue}") if failed else \
            ("before any cell ran", f"{type(error).__name__}: {error}")
        raise EditionError(f"{name} {where} failed when the {language} edition was executed: {what}\n"
                           f"(nothing written: notebooks/{language}/ is as it was)") from error
    edition.metadata["language_edition"] = language
