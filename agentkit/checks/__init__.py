"""Exercise checks: each prints one pass/fail line with a hint, never a traceback for an expected mistake.

A chapter's checks live in `agentkit/checks/chNN.py`, one per exercise, all alike: `check_exercise_N_M` is
async, takes the learner's names (the notebook's `globals()`) as its only argument, and is built from
`expect` plus `run_check`. The same shape lets the classroom grader run every check the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal

Outcome = Literal["pass", "fail", "todo"]


class CheckFailed(AssertionError):
    """Raised by `expect` inside a check; its message is the hint the student sees."""


@dataclass(frozen=True)
class Verdict:
    """What one check concluded about one exercise."""

    title: str
    """The exercise, as the check names it: "Exercise 1.2: parse_arguments, literals only"."""
    outcome: Outcome
    """pass, fail (with a hint), or todo (the answer is not written yet)."""
    hint: str = ""
    """What to fix, for a fail; what to do, for a todo; empty for a pass."""

    def line(self) -> str:
        """The one line a student sees under the check cell, in the language `use_language` chose."""
        if _language == "zh":
            from agentkit.checks.zh import in_chinese

            return f"[{self.outcome}] {in_chinese(self.title)}" + (f"：{in_chinese(self.hint)}" if self.hint else "")
        return f"[{self.outcome}] {self.title}" + (f": {self.hint}" if self.hint else "")


LANGUAGES = ("en", "zh")
_language = "en"


def use_language(language: str) -> None:
    """Print every check line from now on in `language` ("en" or "zh"). The Chinese edition's first check cell of each
    chapter calls `use_language("zh")`; the verdicts a grader records (`recording`) stay in English either way."""
    global _language
    if language not in LANGUAGES:
        raise ValueError(f"no check messages in {language!r}; there are: {', '.join(LANGUAGES)}")
    _language = language


_recorded: ContextVar[list[Verdict] | None] = ContextVar("recorded verdicts", default=None)


def expect(condition: object, hint: str) -> None:
    """Fail the running check with `hint` unless `condition` holds."""
    if not condition:
        raise CheckFailed(hint)


def phrase(text: str) -> str:
    """`text`, unchanged: a piece of a hint written outside `expect` (a helper's sentence, a hidden case's description),
    marked so that it has a Chinese form in zh.json like a whole hint, read back inside the hint that holds it."""
    return text


def answer(namespace: Mapping[str, Any], name: str) -> Any:
    """The student's answer by name from the notebook's `globals()`; a missing one means not done yet."""
    if name not in namespace:
        raise NotImplementedError(name)
    return namespace[name]


async def run_check(title: str, test: Callable[[], Awaitable[object]]) -> bool:
    """Await `test`, print one line saying whether the exercise passes, and return that as a bool."""
    try:
        await test()
    except Exception as error:  # a student's mistake is expected here: report it, do not crash
        verdict = judged(title, error)
    else:
        verdict = judged(title, None)
    recorded = _recorded.get()
    if recorded is not None:
        recorded.append(verdict)
    print(verdict.line())
    return verdict.outcome == "pass"


def judged(title: str, error: Exception | None) -> Verdict:
    """The verdict for a test that raised `error` (None: it did not)."""
    if error is None:
        return Verdict(title, "pass")
    if isinstance(error, NotImplementedError):
        return Verdict(title, "todo", "not written yet. Replace the `raise NotImplementedError` stub with your answer.")
    if isinstance(error, CheckFailed):
        return Verdict(title, "fail", str(error))
    return Verdict(title, "fail", f"your code raised {type(error).__name__}: {error}")


@contextmanager
def recording() -> Iterator[list[Verdict]]:
    """Collect the verdict of every check run inside this block (the grader reads them; a student reads the line)."""
    verdicts: list[Verdict] = []
    token = _recorded.set(verdicts)
    try:
        yield verdicts
    finally:
        _recorded.reset(token)
