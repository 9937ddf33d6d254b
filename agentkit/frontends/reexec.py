"""`agentkit chat` and `agentkit web` restart themselves with a clean environment, their settings through a pipe.

A command the agent runs can read `/proc/$PPID/environ`: the environment the agent's process started
with, which holds everything exported in the shell that started it (a `DATABASE_URL`, a token). The
shell tool passes its commands only an allowlist, but the agent's own environment stays readable. So the
command replaces its own process (`os.execve`, same pid) by a fresh start of itself whose environment is
that same allowlist, and hands the model settings (MODEL_API_KEY, BASE_URL, MODEL, from the environment
or `.env`) to the new start through an inherited pipe, which no other process can read afterwards.

Still readable: the environment of the shell that started the agent (`/proc/<its pid>/environ`), and
anything else this user can read. Only another user or a container keeps a command away from those.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Mapping, Sequence

from agentkit.config import Settings
from agentkit.tools.shell import scrubbed_environment

SETTINGS_FD = "AGENTKIT_SETTINGS_FD"
"""Set only by the restart itself (so it happens once): the number of the pipe the settings arrive on."""
CLIENT_ENVIRONMENT = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY", "https_proxy", "http_proxy",
                      "all_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR",
                      "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
"""Kept besides the shell's allowlist: without them the model's client cannot reach a provider behind a proxy, nor
`--trace` a collector (its OTEL_EXPORTER_OTLP_HEADERS, which may hold a key, are not kept: a local collector)."""


def restarted_with_clean_environment(argv: Sequence[str], settings: Settings) -> None:
    """Replace this process by `python -m agentkit.frontends.cli *argv` with a clean environment; returns only where it cannot.

    The settings are written to a pipe whose read end the new start inherits; see `inherited_settings`.
    """
    if os.name != "posix":  # no /proc to read the environment from, and no fds to inherit this way
        return
    read_end = send_settings(settings)
    environment = clean_environment(os.environ) | {SETTINGS_FD: str(read_end)}
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, "-m", "agentkit.frontends.cli", *argv], environment)


def inherited_settings() -> Settings | None:
    """In the restarted process, the settings read from the inherited pipe; None if this is not a restart."""
    fd = os.environ.get(SETTINGS_FD)
    return receive_settings(int(fd)) if fd else None


def clean_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The shell tool's allowlist, plus what Python needs to start the same program and the client's proxies."""
    python = [name for name in environ if name.startswith("PYTHON")]  # PYTHONPATH finds the same agentkit
    return scrubbed_environment(environ, pass_env=[*python, *CLIENT_ENVIRONMENT])


def send_settings(settings: Settings) -> int:
    """Write `settings` into a new pipe and return its read end, inheritable by a program this process becomes."""
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "w") as pipe:  # a few hundred bytes: the pipe's buffer holds them with no reader yet
        json.dump(dataclasses.asdict(settings), pipe)
    os.set_inheritable(read_end, True)
    return read_end


def receive_settings(fd: int) -> Settings:
    """The settings `send_settings` wrote, read from `fd`, which is then closed."""
    with os.fdopen(fd) as pipe:
        return Settings(**json.load(pipe))
