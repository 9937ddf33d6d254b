"""A chapter's code cells run in this process, so a test can compare what the chapter built inline with `agentkit`.

Each chapter builds its idea at teaching size and then uses the promoted version; that the two agree is checked
here, not in a cell a learner has to read. `chapter_names(1)` runs chapter 01's code cells in order, in one
namespace and one event loop (cells use top-level `await`, as in Jupyter), with the offline model, printing
nothing, and returns the names the chapter defined. Exercise cells are skipped: the reference solutions are the
checks' business, and a test must not depend on them.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import io
import json
import os
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SKIPPED_TAGS = {"solution", "check"}


def code_cells(number: int) -> list[str]:
    """The sources of chapter `number`'s code cells, exercises left out."""
    [path] = NOTEBOOKS.glob(f"{number:02d}_*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells
            if cell["cell_type"] == "code" and not SKIPPED_TAGS & set(cell["metadata"].get("tags", []))]


def _compiled(source: str, where: str) -> types.CodeType:
    return compile(source, where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)


def chapter_names(number: int, until: str | None = None) -> dict:
    """Run chapter `number`'s code cells (up to the first one containing `until`, excluded), return its names."""
    # A real module, registered: dataclasses and pydantic look a class's module up in sys.modules to read its
    # annotations, as they find __main__ in a kernel.
    module = types.ModuleType(f"chapter_{number:02d}")
    sys.modules[module.__name__] = module
    names = module.__dict__
    loop = asyncio.new_event_loop()
    previous = os.getcwd()
    os.chdir(NOTEBOOKS)  # cells read data/... relative to their notebook, as in Jupyter
    try:
        with contextlib.redirect_stdout(io.StringIO()), _offline():
            for index, source in enumerate(code_cells(number)):
                if until is not None and until in source:
                    break
                result = eval(_compiled(source, f"chapter {number:02d} code cell {index}"), names)  # noqa: S307
                if asyncio.iscoroutine(result):
                    loop.run_until_complete(result)
        names["run"] = loop.run_until_complete  # a test awaits the chapter's coroutines on the chapter's loop
        return names
    finally:
        os.chdir(previous)


@contextlib.contextmanager
def _offline():
    from agentkit.classroom import offline_environment

    with offline_environment():
        yield
