"""Everyday requests in `agentkit chat`, as a new user types them, over the course's own agent tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentkit.agent import agent_tools
from agentkit.offline import OfflineModel
from agentkit.offline.outputs import command_output


@pytest.fixture(scope="module")
def tools(tmp_path_factory):
    workspace = tmp_path_factory.mktemp("workspace")
    return [tool.to_openai() for tool in agent_tools(Path(workspace), lambda question: "").values()]


def _calls(tools, *turns):
    messages = []
    for turn in turns:
        messages.append(turn if isinstance(turn, dict) else {"role": "user", "content": turn})
    reply = OfflineModel().respond({"model": "m", "messages": messages, "tools": tools})
    return [(call.name, json.loads(call.arguments)) for call in reply.tool_calls]


@pytest.mark.parametrize(("request_", "expected"), [
    ("show me config.yaml", ("read_file", {"path": "config.yaml"})),  # a verb of showing before a file: read it
    ("print notes.txt", ("read_file", {"path": "notes.txt"})),
    ("how many lines are in notes.txt? use the shell", ("bash", {"command": "wc -l notes.txt"})),  # the means joins
    ("count the lines in todo.txt with wc", ("bash", {"command": "wc -l todo.txt"})),  # a program named as the means
    ("replace 8080 with 9090 in config.yaml", ("edit_file", {"path": "config.yaml", "old_text": "8080", "new_text": "9090"})),
    ("in notes.txt replace beta with delta", ("edit_file", {"path": "notes.txt", "old_text": "beta", "new_text": "delta"})),
    ("change the port 8080 to 9090 in app.cfg", ("edit_file", {"path": "app.cfg", "old_text": "8080", "new_text": "9090"})),
    ("make a new file called plan.md with the text hi", ("write_file", {"path": "plan.md", "content": "hi"})),
    ("what does todo.txt contain?", ("read_file", {"path": "todo.txt"})),
    ("search notes.txt for beta with grep", ("bash", {"command": "grep -n beta notes.txt"})),
    # no "shell" in the request: a question a command answers picks the tool that runs commands
    ("how big is report.pdf?", ("bash", {"command": "wc -c report.pdf"})),  # bytes, not du's disk blocks
    ("what size is data.json", ("bash", {"command": "wc -c data.json"})),
    ("search todo.txt for milk", ("bash", {"command": "grep -n milk todo.txt"})),
    ("find the string TODO in app.py", ("bash", {"command": "grep -n TODO app.py"})),
    ("which lines of notes.txt mention Alpha?", ("bash", {"command": "grep -n Alpha notes.txt"})),
    ("rename a.md to b.md", ("bash", {"command": "mv a.md b.md"})),
    ("move draft.txt into the old folder", ("bash", {"command": "mv draft.txt old/"})),
    ("make a copy of config.yaml as config.bak", ("bash", {"command": "cp config.yaml config.bak"})),
    # a part of a file is read with the file tool, as many lines as asked
    ("what's the first line of todo.txt?", ("read_file", {"path": "todo.txt", "limit": 1})),
    ("show me the first 3 lines of notes.md", ("read_file", {"path": "notes.md", "limit": 3})),
    ("the top five lines in log.txt please", ("read_file", {"path": "log.txt", "limit": 5})),
])
def test_everyday_requests(tools, request_, expected):
    assert _calls(tools, request_) == [expected]


def test_in_euros_is_not_a_means(tools):
    """ "in the shell" names the means; "in Tokyo" or "in euros" does not."""
    assert _calls(tools, "what time is it in Tokyo")[0][0] == "get_current_time"


def test_it_is_the_file_of_the_call_before(tools):
    call = {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "todo.txt"}'}}
    calls = _calls(tools, "open todo.txt", {"role": "assistant", "content": None, "tool_calls": [call]},
                   {"role": "tool", "tool_call_id": "c1", "content": "todo.txt, lines 1-2:\n1\tmilk\n2\teggs\n[end of file]"},
                   {"role": "assistant", "content": "todo.txt has 2 lines."}, "how many lines does it have?")
    assert calls and all(args.get("path") == "todo.txt" or "todo.txt" in args.get("command", "") for _, args in calls)


@pytest.mark.parametrize(("command", "printed", "said"), [
    ("wc -l notes.txt", "3 notes.txt", "notes.txt has 3 lines."),
    ("wc -w a.md", "1 a.md", "a.md has 1 word."),
    ("wc -l a.txt b.txt", "1 a.txt\n2 b.txt\n3 total", "printed:"),  # several files: the printout, as it is
])
def test_a_count_is_said_as_a_count(command, printed, said):
    result = f"exit code: 0\nstdout:\n{printed}\nstderr: (empty)"
    assert said in command_output(command, result, "en", False)


def test_asking_the_person_is_not_the_answer_to_a_request(tools):
    """ask_user is for what only the person knows: "search notes.txt for beta" never asks them "beta"."""
    calls = _calls(tools, "search notes.txt for beta")
    assert all(args.get("question") != "beta" for _, args in calls)
    assert _calls(tools, "ask me for my name")[0][0] == "ask_user"
