"""What reaches the command: only allowlisted variables; and command lines bash cannot take are the model's Error."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from agentkit.calls import ToolCall
from agentkit.limits import Limits
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry
from agentkit.tools.shell import shell_tool
from agentkit.tools.workspace import Workspace

SECRET_LOOKING = {"DATABASE_URL": "postgres://admin:pw-111@db/prod", "GH_PAT": "ghp_222",
                  "SLACK_WEBHOOK_URL": "https://hooks.slack.example/333", "AWS_ACCESS_KEY_ID": "AKIA444",
                  "AWS_SESSION_TOKEN": "aws-555", "ZQX_RANDOM_NAME": "value-666", "HARMLESS_SETTING": "value-777"}


def run(tmp_path: Path, command: str, **options: object) -> str:
    tool = shell_tool(Workspace(tmp_path), Limits(max_output_chars=100_000), **options)  # type: ignore[arg-type]
    return asyncio.run(tool.handler({"command": command}))


def test_no_variable_outside_the_allowlist_reaches_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in SECRET_LOOKING.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("LC_TIME", "C")
    monkeypatch.setenv("TZ", "UTC")
    text = run(tmp_path, "env; tr '\\0' '\\n' < /proc/self/environ")
    for name, value in SECRET_LOOKING.items():
        assert name not in text and value not in text
    assert "LC_TIME=C" in text and "TZ=UTC" in text and "PATH=" in text and "PAGER=cat" in text


def test_the_caller_can_pass_more_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIRTUAL_ENV", "/some/venv")
    monkeypatch.setenv("GH_PAT", "ghp_222")
    text = run(tmp_path, "env", pass_env=("VIRTUAL_ENV",))
    assert "VIRTUAL_ENV=/some/venv" in text and "ghp_222" not in text


def dispatch(tmp_path: Path, command: str, limits: Limits = Limits()):
    registry = build_registry([shell_tool(Workspace(tmp_path), limits)])
    return asyncio.run(execute_tool(registry, ToolCall.parse("", "bash", json.dumps({"command": command}))))


@pytest.mark.parametrize("size", [131_072, 200_000, 100_001])
def test_an_overlong_command_is_the_models_error(tmp_path: Path, size: int) -> None:
    result = dispatch(tmp_path, "#" * size)
    assert result.is_error and result.content.startswith("Error:")
    assert f"{size:,} bytes" in result.content and "max_command_bytes" in result.content


def test_the_limit_counts_bytes_and_can_be_raised(tmp_path: Path) -> None:
    assert dispatch(tmp_path, "echo " + "é" * 60_000).is_error  # 120 kB in UTF-8
    big = dispatch(tmp_path, "echo " + "x" * 120_000, Limits(max_command_bytes=130_000))
    assert not big.is_error and big.content.startswith("exit code: 0")


@pytest.mark.parametrize("command", ["echo a\0b", "\0", "echo hi\0; rm -rf x"])
def test_a_nul_byte_is_the_models_error(tmp_path: Path, command: str) -> None:
    result = dispatch(tmp_path, command)
    assert result.is_error and "NUL bytes cannot be passed to bash" in result.content


def test_a_lone_surrogate_is_the_models_error(tmp_path: Path) -> None:
    registry = build_registry([shell_tool(Workspace(tmp_path))])
    result = asyncio.run(execute_tool(registry, ToolCall.parse("", "bash", '{"command": "echo \\ud800"}')))
    assert result.is_error and "lone surrogate" in result.content
