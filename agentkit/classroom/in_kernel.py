"""The grader's side inside a submission's kernel: run one real check on the student's names, print its verdict.

The grading cells import this module (and the checks) afresh, after the student's cells: a submission that
redefined a check, or replaced one in `agentkit.checks`, is still graded by the check on disk.
"""

from __future__ import annotations

import importlib
import io
import json
from collections.abc import Mapping
from contextlib import redirect_stdout
from typing import Any

from agentkit.checks import recording

MARKER = "agentkit-grade: "
"""Starts the one line a grading cell prints; the grader reads only these lines, only from its own cells."""


def grading_cell(module: str, check: str) -> str:
    """The source of the cell that grades one exercise, appended after the student's cells."""
    return (
        "import builtins as _grader_builtins, sys as _grader_sys\n"
        "for _grader_name in [n for n in _grader_sys.modules if n == 'agentkit.checks' or n.startswith('agentkit.checks.')\n"
        "                     or n == 'agentkit.classroom.in_kernel']:\n"
        "    del _grader_sys.modules[_grader_name]  # imported again from the package, whatever the notebook did to them\n"
        "from agentkit.classroom.in_kernel import report as _grader_report\n"
        f"await _grader_report(_grader_builtins.globals(), {module!r}, {check!r})"
    )


async def report(namespace: Mapping[str, Any], module: str, check: str) -> None:
    """Run `module.check(namespace)` and print its verdict as one JSON line after MARKER."""
    line = {"outcome": "error", "hint": "the check did not report a verdict"}
    with recording() as verdicts, redirect_stdout(io.StringIO()):  # the student sees the line; we read the verdict
        try:
            await getattr(importlib.import_module(module), check)(namespace)
        except Exception as error:  # the check itself broke (our bug, or an answer that breaks it): say so
            line["hint"] = f"the check could not run: {type(error).__name__}: {error}"
    if verdicts:
        line = {"outcome": verdicts[-1].outcome, "hint": verdicts[-1].hint}
    print(MARKER + json.dumps(line), flush=True)
