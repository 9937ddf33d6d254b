"""Every notebook, under every variant of the offline model: no cell raises, every exercise check passes.

Outputs are not compared (nbval does that for the base model): a variant's replies are worded differently
by design. What is checked is that the notebooks do not rely on one model's habits. The runs are spread
over worker processes, each notebook in a fresh kernel and a copy of `notebooks/` of its own (chapters
reset their scratch workspaces, which two runs must not share). Deselect with `-m "not variants"`.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
import pytest

from agentkit.classroom import CHECK, execute
from agentkit.offline.variants import VARIANTS

pytestmark = pytest.mark.variants

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PAIRS = [(variant, path.name) for variant in VARIANTS for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))]
WORKERS = max(2, min(4, os.cpu_count() or 2))


def run_notebook(variant: str, name: str, copy: str) -> str | None:
    """Execute one notebook in a fresh kernel with MODEL=offline/<variant>; what went wrong, or None."""
    os.environ.update(MODEL_API_KEY="", MODEL=f"offline/{variant}")
    notebook = nbformat.read(Path(copy) / name, as_version=4)
    for attempt in (1, 2):
        try:
            execute(notebook, copy, timeout=120)
            break
        except Exception as error:
            failed = _failed_cell(notebook)
            if failed is None and "Address already in use" in str(error) and attempt == 1:
                time.sleep(0.5)  # two kernels picked the same free port at once: start again
                continue
            where = f"cell {failed}" if failed is not None else "before any cell ran"
            return f"{name} {where} raised under offline/{variant}: {str(error)[-1500:]}"
    for index, cell in enumerate(notebook.cells):
        if CHECK in cell.metadata.get("tags", []):
            text = "".join(o.get("text", "") for o in cell.get("outputs", []))
            if "[pass]" not in text or "[fail]" in text or "[todo]" in text:
                return f"{name} cell {index}, an exercise check, did not pass under offline/{variant}: {text.strip()}"
    return None


def _failed_cell(notebook: nbformat.NotebookNode) -> int | None:
    return next((i for i, cell in enumerate(notebook.cells)
                 if any(o.get("output_type") == "error" for o in cell.get("outputs", []))), None)


def _start(index: int) -> None:
    time.sleep(0.3 * index)  # a small stagger: kernels that start at the same instant race for ports


def _selected(session: pytest.Session) -> list[tuple[str, str]]:
    """The pairs this run will test (all of them, or those `-k` kept): only those are executed."""
    return [(item.callspec.params["variant"], item.callspec.params["name"]) for item in session.items
            if getattr(item, "originalname", None) == "test_notebook_runs_clean_under_variant"]


@pytest.fixture(scope="module")
def outcomes(request):
    pairs = _selected(request.session)
    with tempfile.TemporaryDirectory() as scratch:
        copies = {}
        for variant, name in pairs:
            copy = Path(scratch) / f"{variant}-{name.removesuffix('.ipynb')}"
            shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns("scratch", ".ipynb_checkpoints"))
            copies[variant, name] = str(copy)
        started = time.perf_counter()
        with ProcessPoolExecutor(WORKERS) as pool:
            for index in range(WORKERS):
                pool.submit(_start, index)
            futures = {pair: pool.submit(run_notebook, *pair, copies[pair]) for pair in pairs}
            results = {pair: future.result() for pair, future in futures.items()}
        print(f"\n{len(pairs)} notebook runs under {len(VARIANTS)} variants in {time.perf_counter() - started:.0f} s "
              f"with {WORKERS} workers")
        yield results


@pytest.mark.parametrize(("variant", "name"), PAIRS, ids=[f"{v}-{n[:2]}" for v, n in PAIRS])
def test_notebook_runs_clean_under_variant(outcomes, variant, name):
    problem = outcomes[variant, name]
    assert problem is None, problem
