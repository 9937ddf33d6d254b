"""The environment a shell command gets: an allowlist of this process's variables, never the rest.

The attack: a command that prints the agent's environment (`env`, `printenv`, a script that reads
`os.environ`) and so leaks a secret in it, an API key under any name; and a command that waits forever
for a password or a pager nobody can answer. The tests that prove it: tests/test_shell.py, tests/test_security.py.
What an allowlist cannot hide (a process of the same user reading ours in /proc) is said in chapter 06.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

PASSED_ENVIRONMENT = ("PATH", "HOME", "LANG", "TERM", "TZ", "USER", "SHELL", "TMPDIR")
"""The only variables (with every `LC_*`) the shell gets from ours: a secret can have any name, so none is guessed."""


def scrubbed_environment(environ: Mapping[str, str] | None = None, pass_env: Iterable[str] = ()) -> dict[str, str]:
    """The variables of `environ` (default: this process's) named in `PASSED_ENVIRONMENT`, `LC_*` or `pass_env`."""
    environ = os.environ if environ is None else environ
    wanted = {*PASSED_ENVIRONMENT, *pass_env}
    kept = {name: value for name, value in environ.items() if name in wanted or name.startswith("LC_")}
    # Nobody can answer a prompt: pagers print straight through, git fails instead of asking for a password.
    return kept | {"PAGER": "cat", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0"}
