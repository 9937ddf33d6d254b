"""`--tools module:function`: a learner's own registry served by `agentkit chat`, `agentkit web` and `agentkit mcp`.

The commands run as a learner runs them, through the script pip installed, from the learner's project folder.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agentkit.frontends.own_agent import load_policy, load_tools
from agentkit.policy import ToolPolicy
from agentkit.tools import Workspace

AGENTKIT = Path(sys.executable).with_name("agentkit")
installed = pytest.mark.skipif(not AGENTKIT.exists(), reason="agentkit is not installed as a script here")

PROJECT = '''\
from agentkit import ToolPolicy
from agentkit.tools import build_registry, tool

ASK_FIRST = ToolPolicy(confirm={"total_spent"})
OFFER_NOTHING = ToolPolicy(allowed=set())
TYPO = ToolPolicy(allowed={"total_spend"})


def tools(workspace):
    """The agent's registry: one tool that reads a number from a file in the workspace."""
    ledger = workspace.root / "ledger.txt"
    if not ledger.exists():
        ledger.write_text("42")

    @tool
    def total_spent() -> str:
        """The total amount spent so far, in euros."""
        return f"{ledger.read_text()} euros"

    return build_registry([total_spent])


def not_a_registry(workspace):
    return "total_spent"
'''
QUESTION = "What is the total spent so far?"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "my_agent.py").write_text(PROJECT)
    return tmp_path


def offline() -> dict[str, str]:
    return {**os.environ, "MODEL_API_KEY": "", "MODEL": "offline"}


def test_a_module_or_a_file_gives_a_registry_for_the_workspace(project, monkeypatch):
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "path", list(sys.path))
    for spec in ("my_agent:tools", str(project / "my_agent.py") + ":tools"):
        registry = load_tools(spec)(Workspace(project))
        assert list(registry) == ["total_spent"]
        assert asyncio.run(registry["total_spent"].handler({})) == "42 euros"


@pytest.mark.parametrize(("spec", "says"), [
    ("my_agent", "write module:function"),
    ("no_such_module:tools", "cannot import no_such_module"),
    ("my_agent:registry", "has no function 'registry'; its functions: build_registry, not_a_registry, tool, tools"),
    ("missing.py:tools", "cannot import missing.py"),
])
def test_a_wrong_spec_says_what_is_valid(project, monkeypatch, spec, says):
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "my_agent", raising=False)
    with pytest.raises(ValueError, match="--tools") as error:
        load_tools(spec)
    assert says in str(error.value)


def test_a_function_that_returns_no_registry_is_refused(project, monkeypatch):
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "path", list(sys.path))
    with pytest.raises((TypeError, ValueError), match="ToolDefinition"):
        load_tools("my_agent:not_a_registry")(Workspace(project))


@installed
def test_agentkit_chat_uses_the_learners_tools(project):
    done = subprocess.run([str(AGENTKIT), "chat", "--tools", "my_agent:tools", "--workspace", "ws"], cwd=project,
                          input=f"{QUESTION}\n/exit\n", env=offline(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "-> total_spent {}" in done.stdout and "42 euros" in done.stdout
    assert (project / "ws" / "ledger.txt").read_text() == "42"  # made in the workspace the command was given


@installed
def test_a_broken_tools_option_stops_the_command_with_why(project):
    done = subprocess.run([str(AGENTKIT), "web", "--tools", "my_agent:not_a_registry", "--workspace", "ws"],
                          cwd=project, env=offline(), capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "agentkit web:" in done.stderr and "Traceback" not in done.stderr


def web_events(project: Path, *options: str) -> list[dict]:
    """The events of one turn of `agentkit web --tools my_agent.py:tools *options` asked QUESTION."""
    server = subprocess.Popen([str(AGENTKIT), "web", "--tools", "my_agent.py:tools", *options, "--port", "0",
                               "--workspace", "ws"], cwd=project, env=offline(), stdout=subprocess.PIPE, text=True)
    try:  # port 0: the system picks a free one, and the banner says which (a probed port may be taken meanwhile)
        banner = server.stdout.readline()  # printed once the app is built, just before it listens
        port, token = re.search(r"127\.0\.0\.1:(\d+)/\?token=(\S+?)[ )]", banner).groups()
        events = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # it listens a moment after it prints: however long that takes here
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.request("POST", "/chat", json.dumps({"conversation": "c", "message": QUESTION}),
                                   {"content-type": "application/json", "authorization": f"Bearer {token}"})
                events = [json.loads(line) for line in connection.getresponse().read().splitlines()]
                break
            except ConnectionRefusedError:
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(10)
    return events


@installed
def test_agentkit_web_serves_the_learners_tools(project):
    events = web_events(project)
    assert [(e["kind"], e.get("name")) for e in events][:2] == [("tool_call", "total_spent"), ("tool_result", "total_spent")]
    assert events[1]["content"] == "42 euros" and events[-1]["text"] == "completed"


@installed
def test_agentkit_web_offers_only_what_the_learners_policy_allows(project):
    events = web_events(project, "--policy", "my_agent:OFFER_NOTHING")
    assert events and not [e for e in events if e["kind"] in ("tool_call", "tool_result")], events
    assert events[-1]["text"] == "completed"


@installed
@pytest.mark.parametrize(("options", "served"), [((), ["total_spent"]), (("--policy", "my_agent:OFFER_NOTHING"), [])],
                         ids=["course-policy", "learners-policy"])
def test_agentkit_mcp_serves_the_learners_tools_under_the_policy_given(project, options, served):
    pytest.importorskip("mcp")
    from mcp import Client, StdioServerParameters

    from agentkit.mcp.client import subprocess_transport

    command = StdioServerParameters(command=str(AGENTKIT), cwd=str(project),
                                    args=["mcp", "--tools", "my_agent:tools", *options, "--workspace", "ws"])

    async def run():
        async with Client(subprocess_transport(command)) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            return names, await client.call_tool("total_spent", {})

    names, result = asyncio.run(run())
    assert names == served
    if served:
        assert not result.is_error and result.content[0].text == "42 euros"
    else:
        assert result.is_error and "42 euros" not in result.content[0].text, "a tool the policy hides cannot be called"


# ---- --policy module:NAME: your agent's policy, in force in chat, web and mcp alike -----------------------


def test_a_policy_is_loaded_by_name_and_a_wrong_one_says_what_is_valid(project, monkeypatch):
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "my_agent", raising=False)
    assert load_policy("my_agent:ASK_FIRST") == ToolPolicy(confirm={"total_spent"})
    assert load_policy(f"{project / 'my_agent.py'}:OFFER_NOTHING").allowed == frozenset()
    for spec, says in [("my_agent:tools", "my_agent.tools is a function, not a ToolPolicy; its policies: "
                                          "ASK_FIRST, OFFER_NOTHING, TYPO"),
                       ("my_agent:POLICY", "my_agent.POLICY is missing"), ("my_agent", "write module:NAME")]:
        with pytest.raises(ValueError, match="--policy") as error:
            load_policy(spec)
        assert says in str(error.value)


@installed
def test_agentkit_chat_runs_the_learners_tools_under_the_learners_policy(project):
    done = subprocess.run([str(AGENTKIT), "chat", "--tools", "my_agent:tools", "--policy", "my_agent:ASK_FIRST",
                           "--workspace", "ws"], cwd=project, input=f"{QUESTION}\nn\n/exit\n", env=offline(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Allow total_spent {}? [y/N]" in done.stdout, "the policy asks first, where the tool itself does not"
    assert "You declined: total_spent" in done.stdout and "42 euros" not in done.stdout


@installed
@pytest.mark.parametrize("command", ["chat", "web", "mcp"])
def test_a_policy_naming_a_tool_the_agent_lacks_stops_the_command_with_which(project, command):
    done = subprocess.run([str(AGENTKIT), command, "--tools", "my_agent:tools", "--policy", "my_agent:TYPO",
                           "--workspace", "ws", *(["--port", "0"] if command == "web" else [])], cwd=project,
                          env=offline(), capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done
    assert done.stderr.startswith(f"agentkit {command}: --policy my_agent:TYPO: ") and "'total_spend'" in done.stderr
    assert "Traceback" not in done.stderr
