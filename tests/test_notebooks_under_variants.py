"""Every notebook, under every variant of the offline model whose habit can show in it (`_shows`): no cell raises,
every exercise check passes.

Outputs are not compared (nbval does that for the base model): a variant's replies are worded differently
by design. What is checked is that the notebooks do not rely on one model's habits.

Each variant runs the notebooks in order in one kernel of its own, each notebook after a reset cell (no names
left, its own working folder, the environment as it was), and each in a copy of `notebooks/` of its own (chapters
reset their scratch workspaces, which two runs must not share). One kernel a variant rather than one a notebook
halves the time, since a kernel's start and the course's imports cost more than most chapters; what it cannot
catch, a notebook that uses an import only an earlier one made, nbval catches: it runs each notebook in a fresh
kernel. The variants are spread over worker processes. Deselect with `-m "not variants"`.
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
from jupyter_client.manager import KernelManager

from agentkit.classroom import CHECK, execute
from agentkit.classroom.edition import translation_file
from agentkit.offline.variants import VARIANTS

pytestmark = pytest.mark.variants

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
READ_BACK_AS_JSON_TEXT = {"tagged_json", "tagged_function", "mistral_text", "llama_text", "fenced_json"}
"""Formats of calls left in the text that `connect()` reads back to exactly the calls json_text's are read back
to (tests/test_recovery.py checks it for any calls in each format, test_variant_habits.py for each variant):
outside chapter 02, where a raw reply's text is shown and recovered by hand, and chapter 12, whose frameworks
get the text with no recovery, a notebook sees what json_text shows it, so json_text alone runs everywhere."""
WHERE_THE_TEXT_IS_SEEN = ("02_", "12_")
ONLY_WITH_AGENT_TOOLS = {"delegates", "plans"}
"""Habits that show only when a tool that hands work to another agent, or a plan tool, is offered
(`call_habits.helper_of`, `plan_tools_of`): only chapter 14 offers one, and elsewhere these variants reply as the
base model does, so they run on 14 alone rather than cost CI two whole runs of every notebook."""
WHERE_AGENT_TOOLS_ARE_OFFERED = ("14_",)
ZH_RUNS = sorted(f"zh/{path.name}" for path in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")
                 if any(cell["cell_type"] == "code" for cell in translation_file(NOTEBOOKS.parent, "zh", path.name)
                        .get("added", [])))
"""The Chinese edition's chapters with code cells a translation adds (a question asked in Chinese): they run under
every variant too, since such a cell must work for any model that follows the protocol. A chapter whose only Chinese
code is swapped in (instructions as comments, `use_language("zh")` in a check cell) asks nothing new and is left out."""
WORDS_UNTOUCHED = {"one_call", "styled_args", "json_text", "empty_args", "explicit_empty", "no_usage"}
"""Habits that change which calls a reply carries, when, or how the completion is written, and never a word the
model says or reads (`corrects` reads its `Error:` result, so it is not one): a question asked in Chinese meets them
as the English one beside it does, and the English chapter runs under them, so the Chinese runs skip them."""
ONLY_WITH_FUNCTION_LINES = {"fenced"}
"""Habits that change only a `FUNCTION:` line (chapter 01's text protocol): they run where a chapter asks for one."""
WHERE_FUNCTION_LINES_ARE_ASKED = {path.name for path in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")
                                  if any(sign in path.read_text(encoding="utf-8") for sign in ("FUNCTION:", "agentkit.manual"))}


def _shows(variant: str, name: str) -> bool:
    """Whether `variant`'s habit can show in notebook `name` (a chapter, or zh/ and a chapter): see the sets above."""
    chapter = Path(name).name
    return ((variant not in READ_BACK_AS_JSON_TEXT or chapter.startswith(WHERE_THE_TEXT_IS_SEEN))
            and (variant not in ONLY_WITH_AGENT_TOOLS or chapter.startswith(WHERE_AGENT_TOOLS_ARE_OFFERED))
            and (variant not in ONLY_WITH_FUNCTION_LINES or chapter in WHERE_FUNCTION_LINES_ARE_ASKED)
            and (variant not in WORDS_UNTOUCHED or not name.startswith("zh/")))


PAIRS = [(variant, name) for variant in VARIANTS
         for name in [path.name for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))] + ZH_RUNS
         if _shows(variant, name)]
WORKERS = max(2, min(4, os.cpu_count() or 2))

RESET = """%reset -f
import os
os.chdir({folder!r})
os.environ.clear()
os.environ.update({environment!r})
"""
"""The hidden first cell of each notebook run: what one notebook left in the kernel, the next one does not see."""
SAMPLED = """import agentkit.evaluation as _evaluation
if not getattr(_evaluation.run_cases, "sampled", False):
    async def _sampled(client, model, cases, *args, _every=_evaluation.run_cases, **kwargs):
        return await _every(client, model, cases[::5] if len(cases) > 100 else cases, *args, **kwargs)
    _sampled.sampled = True
    _evaluation.run_cases = _sampled
del _evaluation
"""
"""Added to the hidden cell of chapter 09, which runs the whole evaluation set three times: under a variant, a run of
more than 100 cases runs every fifth. What a variant's run checks, that no cell relies on the base model's habits, a
sample of each category shows as well as the whole set does, in a fraction of the time (each variant ran the
chapter for about 17 s of the 80 its sixteen English chapters took); nbval runs every case, under the base model."""


def run_variant(variant: str, runs: list[tuple[str, str]]) -> dict[str, str | None]:
    """Execute each (notebook, its copy's folder) of `runs` in order, in one kernel with MODEL=offline/<variant>;
    for each notebook, what went wrong, or None."""
    environment = {**os.environ, "MODEL_API_KEY": "", "MODEL": f"offline/{variant}"}  # the kernel's, not ours
    problems: dict[str, str | None] = {}
    manager: KernelManager | None = None
    for name, copy in runs:
        folder = str((Path(copy) / name).parent)  # a zh/ chapter runs in the copy's zh/, as nbval runs it
        if manager is None or not manager.is_alive():  # the first notebook, or an earlier one killed the kernel
            manager = KernelManager(kernel_name="python3")
            manager.start_kernel(cwd=folder, env=environment)
        notebook = nbformat.read(Path(copy) / name, as_version=4)
        hidden = RESET.format(folder=folder, environment=environment)
        if Path(name).name.startswith("09_"):
            hidden += SAMPLED
        notebook.cells.insert(0, nbformat.v4.new_code_cell(hidden))
        try:
            execute(notebook, folder, timeout=120, kernel=manager)
        except Exception as error:
            failed = _failed_cell(notebook)
            where = f"cell {failed - 1}" if failed is not None else "before any cell ran"
            problems[name] = f"{name} {where} raised under offline/{variant}: {str(error)[-1500:]}"
            continue
        problems[name] = _check_problem(notebook, name, variant)
    if manager is not None:
        manager.shutdown_kernel(now=True)
    return problems


def _check_problem(notebook: nbformat.NotebookNode, name: str, variant: str) -> str | None:
    for index, cell in enumerate(notebook.cells[1:]):
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
        runs: dict[str, list[tuple[str, str]]] = {}
        for variant, name in pairs:
            copy = Path(scratch) / f"{variant}-{name.removesuffix('.ipynb').replace('/', '-')}"
            shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns("scratch", ".ipynb_checkpoints"))
            runs.setdefault(variant, []).append((name, str(copy)))
        started = time.perf_counter()
        with ProcessPoolExecutor(WORKERS) as pool:
            for index in range(WORKERS):
                pool.submit(_start, index)
            futures = {variant: pool.submit(run_variant, variant, its_runs) for variant, its_runs in runs.items()}
            results = {(variant, name): problem for variant, future in futures.items()
                       for name, problem in future.result().items()}
        print(f"\n{len(pairs)} notebook runs under {len(runs)} variants in {time.perf_counter() - started:.0f} s "
              f"with {WORKERS} workers")
        yield results


@pytest.mark.parametrize(("variant", "name"), PAIRS, ids=[f"{v}-{n.replace('/', '-')[:n.find('/') + 3]}" for v, n in PAIRS])
def test_notebook_runs_clean_under_variant(outcomes, variant, name):
    problem = outcomes[variant, name]
    assert problem is None, problem


def test_one_kernel_a_variant_still_runs_each_notebook_on_its_own(tmp_path):
    """What a notebook leaves (names, the folder, the environment) never reaches the next one in the same kernel,
    a failing cell or check is reported against its own notebook and cell, and nothing leaks into this process
    (an nbval kernel started here later must get the base model)."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    cell = nbformat.v4.new_code_cell
    nbformat.write(nbformat.v4.new_notebook(cells=[
        cell("import os\nleft = 1\nos.environ['LEFT'] = '1'\nos.chdir('/')"), cell("raise ValueError('boom')")]),
        first / "a.ipynb")
    nbformat.write(nbformat.v4.new_notebook(cells=[
        cell(f"import os\nassert os.getcwd() == {str(second)!r} and 'LEFT' not in os.environ\nassert 'left' not in dir()"),
        cell("print('[fail] wrong', flush=True)", metadata={"tags": [CHECK]})]), second / "b.ipynb")
    before = dict(os.environ)
    problems = run_variant("prose", [("a.ipynb", str(first)), ("b.ipynb", str(second))])
    assert dict(os.environ) == before, "the variant is the kernel's: this process's environment is untouched"
    assert problems["a.ipynb"].startswith("a.ipynb cell 1 raised under offline/prose") and "boom" in problems["a.ipynb"]
    assert problems["b.ipynb"] == "b.ipynb cell 1, an exercise check, did not pass under offline/prose: [fail] wrong"
