"""Exercise checks: each prints one pass/fail line with a hint, never a traceback for an expected mistake.

A chapter's checks live in `agentkit/checks/chNN.py` and are built from `expect` plus
`run_check` (or `run_check_async` when the answer is an async tool).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any


class CheckFailed(AssertionError):
    """Raised by `expect` inside a check; its message is the hint the student sees."""


def expect(condition: object, hint: str) -> None:
    """Fail the running check with `hint` unless `condition` holds."""
    if not condition:
        raise CheckFailed(hint)


def answer(namespace: Mapping[str, Any], name: str) -> Any:
    """The student's answer by name from the notebook's `globals()`; a missing one means not done yet."""
    if name not in namespace:
        raise NotImplementedError(name)
    return namespace[name]


def run_check(title: str, test: Callable[[], object]) -> bool:
    """Run `test`, print one line saying whether the exercise passes, and return that as a bool."""
    try:
        test()
    except Exception as error:  # a student's mistake is expected here: report it, do not crash
        return _report(title, error)
    return _report(title, None)


async def run_check_async(title: str, test: Callable[[], Awaitable[object]]) -> bool:
    """`run_check` for a test that has to await the student's code."""
    try:
        await test()
    except Exception as error:
        return _report(title, error)
    return _report(title, None)


def _report(title: str, error: Exception | None) -> bool:
    if error is None:
        print(f"[pass] {title}")
    elif isinstance(error, NotImplementedError):
        print(f"[todo] {title}: not written yet. Replace the `raise NotImplementedError` stub with your answer.")
    elif isinstance(error, CheckFailed):
        print(f"[fail] {title}: {error}")
    else:
        print(f"[fail] {title}: your code raised {type(error).__name__}: {error}")
    return error is None
