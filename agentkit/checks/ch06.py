"""Checks for chapter 06's exercises: getting past a blocklist, capping output, scrubbing secrets.

Each takes the notebook's `globals()`.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Mapping
from typing import Any

from agentkit.checks import answer, expect, run_check
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


ENVIRONMENT = {"PATH": "/usr/bin", "HOME": "/home/ada", "MODEL_API_KEY": "sk-1", "github_token": "t",
               "DB_Password": "p", "AWS_SECRET_ACCESS_KEY": "s", "KEYBOARD_LAYOUT": "fr", "LANG": "C.UTF-8"}
SCRUBBED = {"PATH": "/usr/bin", "HOME": "/home/ada", "LANG": "C.UTF-8"}


async def check_exercise_6_3(namespace: Mapping[str, Any]) -> bool:
    """Exercise 6.3: `scrub(environ)`, the environment without the names that look like secrets."""

    async def test() -> None:
        scrub = answer(namespace, "scrub")
        expect(callable(scrub), "`scrub` should be a function: def scrub(environ: dict) -> dict.")
        given = dict(ENVIRONMENT)
        got = scrub(given)
        expect(given == ENVIRONMENT, "scrub changed the dict it was given; build and return a new one.")
        expect(isinstance(got, dict), f"scrub returned a {type(got).__name__}; return a dict.")
        leaked = sorted(set(got) - set(SCRUBBED))
        expect(not leaked, f"scrub kept {leaked}; drop every name containing KEY, TOKEN, SECRET or PASSWORD, in any "
                           "case (KEYBOARD_LAYOUT goes too: a name rule cannot tell).")
        expect(got == SCRUBBED, f"scrub returned {got}; expected {SCRUBBED} (keep the other variables as they are).")

    return await run_check("Exercise 6.3: no secrets in the child's environment", test)
