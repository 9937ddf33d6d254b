"""Refresh: re-execute a notebook in place, offline, with stable metadata, so its diff shows only what changed."""

from __future__ import annotations

import configparser
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nbformat
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}


def refresh(path: str | os.PathLike[str], timeout: int = 300) -> None:
    """Execute the notebook at `path` top to bottom in this environment's kernel and save it in place.

    Where a cell's new output differs from the stored one only in what `sanitize.cfg` masks (a clock
    reading, a timing), the stored output is kept: re-running an unchanged notebook rewrites nothing.
    """
    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    before = {cell.get("id"): cell.get("outputs") for cell in notebook.cells}
    with offline_environment():
        execute(notebook, path.parent, timeout)
    stabilise(notebook)
    rules = sanitizers(path.parent / "sanitize.cfg")
    for cell in notebook.cells:
        old = before.get(cell.get("id"))
        if old is not None and "outputs" in cell and _masked(old, rules) == _masked(cell.outputs, rules):
            cell.outputs = old
    nbformat.validate(notebook)
    # Written beside it, then renamed over it: Ctrl-C or a full disk leaves the old notebook or the new, never half.
    partial = path.with_name(f".{path.name}.refreshing")
    try:
        nbformat.write(notebook, partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


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
            NotebookClient(notebook, km=kernel, timeout=timeout, kernel_name="python3", record_timing=False,
                           resources={"metadata": {"path": str(folder)}}).execute()
            return
        except Exception as error:
            if attempt == 2 or not any(failure in str(error) for failure in KERNEL_START_FAILURES):
                raise
            if kernel is not None:
                kernel.restart_kernel(now=True)


def stabilise(notebook: nbformat.NotebookNode) -> None:
    """Drop what changes from run to run or machine to machine: timings, kernel versions, how prints were split."""
    notebook.metadata = nbformat.from_dict({"kernelspec": KERNEL, "language_info": {"name": "python"}})
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


def _masked(outputs: list, rules: list[tuple[re.Pattern[str], str]]) -> str:
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
