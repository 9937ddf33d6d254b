"""Checks for chapter 06's exercises: getting past a blocklist, capping output, the child's environment.

Each takes the notebook's `globals()`.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agentkit.checks import answer, expect, phrase, run_check
from agentkit.tools.shell import run_command

BLOCKED = ("rm -rf /", "sudo", "curl", "wget", "/etc/shadow")
"""What the naive blocklist of chapter 06 refuses: plain substrings of the command line."""


def naive_blocklist(command: str) -> bool:
    """True when the command contains a blocked string: the kind of "security" chapter 06 takes apart."""
    return any(blocked in command for blocked in BLOCKED)


async def check_exercise_6_1(namespace: Mapping[str, Any]) -> bool:
    """Exercise 6.1: `bypass`, a command the blocklist lets through and that bash turns into the word sudo."""

    async def test() -> None:
        bypass = answer(namespace, "bypass")
        expect(isinstance(bypass, str), f"`bypass` is a {type(bypass).__name__}; make it a string (a command line).")
        expect(not naive_blocklist(bypass), f"naive_blocklist catches {bypass!r}: it contains one of {BLOCKED}. "
                                            "Write the word so that bash assembles it (quotes, variables, printf...).")
        with tempfile.TemporaryDirectory(prefix="check-ch06-") as folder:
            result = await asyncio.to_thread(run_command, bypass, folder, timeout=5, keep=1000)
        printed = bytes(result.stdout.head).decode(errors="replace").strip()
        expect(printed == "sudo", f"{bypass!r} printed {printed!r} (exit code {result.exit_code}); it should print "
                                  "exactly the word sudo, for example with echo.")

    return await run_check("Exercise 6.1: a command the blocklist does not see", test)


CAP_CASES = [
    (("short", 10), "short"),
    (("exactly10!", 10), "exactly10!"),
    (("0123456789abcdefghij", 10), "01234\n[... 10 characters cut ...]\nfghij"),
    (("0123456789abcdefghij", 5), "01\n[... 15 characters cut ...]\nhij"),
    (("x" * 1_000_000, 4), "xx\n[... 999,996 characters cut ...]\nxx"),
]


async def check_exercise_6_2(namespace: Mapping[str, Any]) -> bool:
    """Exercise 6.2: `cap_output(text, max_chars)`, keeping the head and the tail and saying how much was cut."""

    async def test() -> None:
        cap_output = answer(namespace, "cap_output")
        expect(callable(cap_output),
               "`cap_output` should be a function: def cap_output(text: str, max_chars: int) -> str.")
        for (text, max_chars), expected in CAP_CASES:
            got = cap_output(text, max_chars)
            shown = text if len(text) < 30 else f"'{text[0]}' * {len(text):,}"
            expect(got == expected, f"cap_output({shown!r}, {max_chars}) returned {got[:80]!r}; expected {expected!r}.")

    return await run_check("Exercise 6.2: head, tail, and how much was cut", test)


@dataclass(frozen=True)
class EnvironmentCase:
    """One hidden case of exercise 6.3: a parent environment, what is allowed through, and what must come out."""

    what: str
    """What the case tests, as the hint names it."""
    parent: dict[str, str]
    """The agent's own environment."""
    allowed: list[str]
    """Names to pass, exact, or a prefix ending in `*`."""
    extras: dict[str, str]
    """Variables the caller sets on purpose, over anything passed."""
    expected: dict[str, str]
    """The child's environment."""


ENVIRONMENT_CASES = [
    EnvironmentCase(phrase("a secret whose name looks harmless is not allowed, so it stays out"),
                    {"PATH": "/usr/bin", "HOME": "/home/ada", "DATABASE_URL": "postgres://u:pw@db/x", "GH_PAT": "g",
                     "MODEL_API_KEY": "sk-1"}, ["PATH", "HOME"], {}, {"PATH": "/usr/bin", "HOME": "/home/ada"}),
    EnvironmentCase(phrase("a name ending in * allows every name with that prefix; a plain name allows only itself"),
                    {"LC_ALL": "C", "LC_CTYPE": "C.UTF-8", "LC": "x", "XLC_ALL": "y", "LANG": "en", "LANGUAGE": "fr"},
                    ["LC_*", "LANG"], {}, {"LC_ALL": "C", "LC_CTYPE": "C.UTF-8", "LANG": "en"}),
    EnvironmentCase(phrase("an allowed name that the parent does not have is left out, not set to None or ''"),
                    {"PATH": "/bin"}, ["PATH", "TMPDIR", "TZ"], {}, {"PATH": "/bin"}),
    EnvironmentCase(phrase("extras are set whether or not they are allowed, and win over the parent's value"),
                    {"PATH": "/bin", "PAGER": "less", "EDITOR": "vi"}, ["PATH", "PAGER"],
                    {"PAGER": "cat", "AGENTKIT_RUN": "t1"}, {"PATH": "/bin", "PAGER": "cat", "AGENTKIT_RUN": "t1"}),
    EnvironmentCase(phrase("names are case-sensitive: only PATH is PATH"),
                    {"path": "a", "Path": "b", "PATH": "c"}, ["PATH"], {}, {"PATH": "c"}),
    EnvironmentCase(phrase("an empty value is still a value"), {"TZ": "", "HOME": "/h"}, ["TZ", "HOME"], {},
                    {"TZ": "", "HOME": "/h"}),
    EnvironmentCase(phrase("nothing allowed, nothing extra: an empty environment"), {"PATH": "/bin", "HOME": "/h"}, [],
                    {}, {}),
]
"""The hidden cases of exercise 6.3."""


def environment_difference(got: dict[str, str], expected: dict[str, str]) -> str:
    """What differs, by name: what got in, what is missing, what has another value."""
    extra = sorted(set(got) - set(expected))
    missing = sorted(set(expected) - set(got))
    changed = sorted(name for name in set(got) & set(expected) if got[name] != expected[name])
    parts = [phrase(f"it let in {extra}")] if extra else []
    parts += [phrase(f"it left out {missing}")] if missing else []
    parts += [phrase(f"it has another value for {changed}")] if changed else []
    return "; ".join(parts)


async def check_exercise_6_3(namespace: Mapping[str, Any]) -> bool:
    """Exercise 6.3: `child_environment(parent, allowed, extras)`, the child's environment from an allowlist."""

    async def test() -> None:
        child_environment = answer(namespace, "child_environment")
        expect(callable(child_environment), "`child_environment` should be a function: def child_environment("
                                            "parent: dict, allowed: list, extras: dict) -> dict.")
        for case in ENVIRONMENT_CASES:
            parent, allowed, extras = dict(case.parent), list(case.allowed), dict(case.extras)
            got = child_environment(parent, allowed, extras)
            call = phrase(f"child_environment(parent with {sorted(case.parent)}, {case.allowed}, {case.extras})")
            expect((parent, allowed, extras) == (case.parent, case.allowed, case.extras),
                   f"{call} changed one of its arguments; build and return a new dict.")
            expect(isinstance(got, dict) and got is not parent,
                   f"{call} returned {'the parent itself' if got is parent else type(got).__name__}; return a new dict.")
            expect(got == case.expected, f"{call}: {environment_difference(got, case.expected)}; expected "
                                          f"{case.expected} ({case.what}).")

    return await run_check("Exercise 6.3: the child's environment from an allowlist", test)
