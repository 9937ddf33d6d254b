"""Refresh: re-execute a notebook in place, offline, with stable metadata, so its diff shows only what changed.

The notebook's metadata is what JupyterLab itself writes once the kernel starts, so a notebook a learner opens
untouched is not marked changed (nor asks to be saved on closing): `kernelspec` as the kernel's spec says it
(name, display_name, language) and `language_info` exactly as the kernel reports it. JupyterLab replaces each
whole with its own and marks the notebook changed unless they are equal, Python's `version` included: that one
differs between machines, so the version a notebook stores is kept (the first refresh writes this machine's) and
a learner on another Python version sees JupyterLab update that one field.
"""

from __future__ import annotations

import configparser
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

KERNEL_NAME = "python3"
"""The kernel every notebook runs in: ipykernel's, in this environment."""


def kernelspec() -> dict[str, str]:
    """The notebook's `kernelspec` as JupyterLab writes it: the installed spec's display name and language."""
    spec = KernelSpecManager().get_kernel_spec(KERNEL_NAME)
    return {"display_name": spec.display_name, "language": spec.language, "name": KERNEL_NAME}


def refresh(path: str | os.PathLike[str], timeout: int = 300) -> None:
    """Execute the notebook at `path` top to bottom in this environment's kernel and save it in place.

    Where a cell's new output differs from the stored one only in what `sanitize.cfg` masks (a clock
    reading, a timing), the stored output is kept: re-running an unchanged notebook rewrites nothing.
    """
    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    rerun(notebook, path.parent, path.parent / "sanitize.cfg", timeout)
    # Written beside it, then renamed over it: Ctrl-C or a full disk leaves the old notebook or the new, never half.
    partial = path.with_name(f".{path.name}.refreshing")
    try:
        nbformat.write(notebook, partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def rerun(notebook: nbformat.NotebookNode, folder: Path, sanitize: Path, timeout: int = 300) -> None:
    """Execute `notebook` in place, offline, in `folder`, and stabilise it; a cell's stored output is kept where the
    new one differs from it only in what the `sanitize` file masks. Raises as nbclient does if a cell fails."""
    before = {cell.get("id"): cell.get("outputs") for cell in notebook.cells}
    stored_version = notebook.metadata.get("language_info", {}).get("version")
    with offline_environment():
        execute(notebook, folder, timeout)
    stabilise(notebook, stored_version)
    rules = sanitizers(sanitize)
    for cell in notebook.cells:
        old = before.get(cell.get("id"))
        if old is not None and "outputs" in cell and masked(old, rules) == masked(cell.outputs, rules):
            cell.outputs = old
    nbformat.validate(notebook)


KERNEL_START_FAILURES = ("Kernel didn't respond", "Kernel died before replying", "Address already in use")
"""What a kernel that never started says. Two kernels starting at once can pick the same free port, and a loaded
machine can miss the start-up deadline: neither is the notebook's fault, so such a start is tried once more."""


def execute(notebook: nbformat.NotebookNode, folder: str | os.PathLike[str], timeout: int = 300,
            kernel: KernelManager | None = None) -> None:
    """Run every cell in this environment's kernel, in `folder` (where the notebook's relative paths start).

    `kernel`, if given, is a kernel already running, left running afterwards (it was started elsewhere, in its
    own folder); a new kernel is started and shut down otherwise.
    """
    for attempt in (1, 2):
        try:
            NotebookClient(notebook, km=kernel, timeout=timeout, kernel_name=KERNEL_NAME, record_timing=False,
                           resources={"metadata": {"path": str(folder)}}).execute()
            return
        except Exception as error:
            if attempt == 2 or not any(failure in str(error) for failure in KERNEL_START_FAILURES):
                raise
            if kernel is not None:
                kernel.restart_kernel(now=True)


def stabilise(notebook: nbformat.NotebookNode, version: str | None = None) -> None:
    """Drop what changes from run to run or machine to machine: timings, how prints were split, and Python's `version`
    when one was stored before (`version`). The metadata left is the kernel's, as JupyterLab would write it: its spec,
    and the `language_info` that executing the notebook (nbclient) put there."""
    language_info = dict(notebook.metadata.get("language_info") or {"name": "python"})
    if version:
        language_info["version"] = version
    notebook.metadata = nbformat.from_dict({"kernelspec": kernelspec(), "language_info": language_info})
    for cell in notebook.cells:
        for key in ("execution", "collapsed", "scrolled", "ExecuteTime"):
            cell.metadata.pop(key, None)
        merged: list = []
        for output in cell.get("outputs", []):
            # A cell that awaits between prints flushes stdout in a different number of pieces each run.
            if merged and output.output_type == "stream" and merged[-1].output_type == "stream" \
                    and merged[-1].name == output.name:
                merged[-1].text += output.text
            else:
                merged.append(output)
        if "outputs" in cell:
            cell.outputs = merged


def sanitizers(path: Path) -> list[tuple[re.Pattern[str], str]]:
    """The (regex, replacement) rules of an nbval sanitize file, in order; none if there is no file."""
    config = configparser.ConfigParser(interpolation=None)
    config.read(path)
    return [(re.compile(config[section]["regex"]), config[section]["replace"]) for section in config.sections()]


def masked(outputs: list, rules: list[tuple[re.Pattern[str], str]]) -> str:
    """The outputs as JSON text with what the sanitize rules mask masked: two runs that differ only there are equal."""
    text = json.dumps(outputs, sort_keys=True)
    for pattern, replacement in rules:
        text = pattern.sub(replacement, text)
    return text


@contextmanager
def offline_environment() -> Iterator[None]:
    """Stored outputs are the base offline model's: an empty MODEL_API_KEY and MODEL in the kernel's environment
    override .env (so neither a key nor MODEL=offline/<variant> there changes what is stored)."""
    saved = {name: os.environ.get(name) for name in ("MODEL_API_KEY", "MODEL")}
    os.environ.update(dict.fromkeys(saved, ""))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value
