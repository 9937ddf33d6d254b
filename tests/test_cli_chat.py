"""`agentkit chat`: driven through a real terminal (a pty, with pexpect) as a person would type, offline."""

import asyncio
import os
import re
import sys

import pexpect

from agentkit.agent import open_workspace
from agentkit.calls import ToolCall
from agentkit.events import Answer, CallAnswered, CallRequested, Status
from agentkit.frontends.chat import chat
from agentkit.frontends.terminal import Terminal, describe, shorten
from agentkit.offline import ScriptedModel, call, offline_client
from agentkit.task import ModelFailed
from agentkit.tools.dispatcher import ToolResult

WAIT = 10
"""Seconds to wait for any expected output before the test fails instead of hanging."""
STARTING = 60
"""Seconds a new chat may take to print its banner: it imports openai and the tools, slow on a loaded machine."""
TOKYO = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+09:00 \(Asia/Tokyo\)"


def start_chat(tmp_path, *options: str, **variables: str):
    """`agentkit chat` in a new pseudo-terminal, offline whatever this machine's .env says, unless `variables` say."""
    env = {**os.environ, "MODEL_API_KEY": "", "BASE_URL": "", "MODEL": "", "PYTHONUNBUFFERED": "1",
           "HOME": str(tmp_path), **variables}  # the chat's history goes to this home, not the person's
    child = pexpect.spawn(sys.executable, ["-m", "agentkit.frontends.cli", "chat", *options], cwd=str(tmp_path), env=env,
                          encoding="utf-8", codec_errors="replace", timeout=WAIT, dimensions=(50, 250))
    child.expect_exact("/exit ends the chat.", timeout=STARTING)
    child.expect_exact("you> ")
    return child


def ask(child, request: str, until: str = "you> ") -> str:
    """Type `request`, wait for `until`, and return everything printed in between (the echo left out)."""
    child.sendline(request)
    child.expect_exact(until)
    return child.before.replace("\r\n", "\n").split("\n", 1)[1]


def finish(child) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def test_a_request_shows_the_tool_call_the_result_and_the_answer(tmp_path):
    child = start_chat(tmp_path)
    printed = ask(child, "What time is it in Tokyo?")
    assert re.fullmatch(rf'  -> get_current_time {{"timezone": "Asia/Tokyo"}}\n  <- {TOKYO}\n'
                        rf"agent> It's \d\d:\d\d in Tokyo \(\w+day, \d+ \w+ \d{{4}}\)\.\n", printed), printed
    assert ask(child, "/cancel").startswith("No task is running: /cancel stops a task when it asks you something.")
    child.sendline("/exit")
    child.expect_exact("bye")
    assert finish(child) == 0
    assert (tmp_path / "workspace").is_dir(), "the default workspace is ./workspace, created on start"


def test_yes_runs_a_tool_that_needs_confirmation_and_no_refuses_it(tmp_path):
    child = start_chat(tmp_path, "--workspace", "files")
    printed = ask(child, 'Write "hello from the chat" to the file notes.txt', until="[y/N] ")
    assert printed == ('  -> write_file {"path": "notes.txt", "content": "hello from the chat"}\n'
                       'Allow write_file {"path": "notes.txt", "content": "hello from the chat"}? ')
    assert not (tmp_path / "files" / "notes.txt").exists(), "nothing runs before the person says yes"
    assert ask(child, "y") == ("  <- Wrote 19 bytes to notes.txt (new file)\n"
                               "agent> I wrote notes.txt (19 bytes, a new file).\n")
    assert (tmp_path / "files" / "notes.txt").read_text() == "hello from the chat"

    ask(child, 'Run the bash command "rm notes.txt"', until="[y/N] ")
    printed = ask(child, "n")
    # The person reads a line meant for them; the model's result ("... do not try it again") is the model's.
    assert printed.startswith("  <- You declined: bash rm notes.txt\n")
    assert (tmp_path / "files" / "notes.txt").exists()
    child.sendeof()  # Ctrl-D at the prompt ends the chat like /exit
    child.expect_exact("bye")
    assert finish(child) == 0


def test_the_answer_to_ask_user_goes_back_to_the_model(tmp_path):
    child = start_chat(tmp_path)
    printed = ask(child, 'Ask me a question: "What is your name?"', until="What is your name? ")
    assert printed == '  -> ask_user {"question": "What is your name?"}\n'
    assert ask(child, "Ada") == "  <- Ada\nagent> You answered: Ada.\n"
    child.sendintr()  # Ctrl-C at the prompt ends the chat at once, without waiting for a line
    child.expect_exact("bye")
    finish(child)


def test_cancel_stops_the_task_and_the_chat_goes_on_and_exit_ends_it(tmp_path):
    child = start_chat(tmp_path)
    ask(child, 'Run the bash command "touch made.txt"', until="[y/N] ")
    assert ask(child, "/cancel").startswith("  <- Cancelled: bash touch made.txt\n"
                                            "[task cancelled: you answered /cancel when asked to allow bash]")
    assert "in Tokyo (" in ask(child, "What time is it in Tokyo?")
    ask(child, 'Run the bash command "touch made.txt"', until="[y/N] ")
    child.sendline("/exit")  # /exit as an answer cancels the task and ends the chat
    child.expect_exact("[task cancelled")
    child.expect_exact("bye")
    assert finish(child) == 0
    assert not (tmp_path / "workspace" / "made.txt").exists()


# ---- the same loop in process, for what a terminal cannot show -----------------------------------------


def test_each_request_continues_the_conversation(tmp_path):
    model = ScriptedModel([call("get_current_time", timezone="UTC"), "It is noon.", "You asked for the time."])
    lines, printed = iter(["What time is it?", "What did I ask?", "/exit"]), []

    def read(prompt: str) -> str:
        printed.append(prompt)
        return next(lines)

    task = asyncio.run(chat(offline_client(model), "offline", open_workspace(tmp_path), Terminal(read, printed.append)))
    assert printed[1:] == ["you> ", '  -> get_current_time {"timezone": "UTC"}', printed[3], "agent> It is noon.",
                           "you> ", "agent> You asked for the time.", "you> ", "bye"]
    assert printed[3].startswith("  <- ") and printed[3].endswith(" (UTC)")
    assert [m["role"] for m in model.requests[-1]["messages"]] == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert (task.status, task.answer, task.turns) == ("completed", "You asked for the time.", 3)


def test_describe_prints_one_line_per_event_and_shortens_results():
    assert describe(CallRequested(ToolCall("", "glob", '{"pattern": "*.py"}', None))) == '  -> glob {"pattern": "*.py"}'
    assert describe(CallAnswered(ToolCall("", "glob", "{}", {}), ToolResult("2 paths:\na.py\nb.py"))) == "  <- 2 paths: a.py b.py"
    assert describe(Answer("Done.")) == "agent> Done."
    assert describe(Status()) is None
    assert describe(Status(ModelFailed("unreachable", "APIConnectionError: Connection error."))) == \
        "[task failed: the model could not be reached: APIConnectionError: Connection error.]"
    assert shorten("word " * 100, 30) == "word word word word word ... (500 characters)"


def test_explain_shows_how_the_offline_model_read_the_last_request(tmp_path):
    lines, printed = iter(["/explain", "What time is it in Tokyo?", "/explain", "/exit"]), []

    def read(prompt: str) -> str:
        printed.append(prompt)
        return next(lines)

    asyncio.run(chat(offline_client(), "offline", open_workspace(tmp_path), Terminal(read, printed.append)))
    assert "Nothing to explain yet: type a request first, then /explain." in printed
    trace = next(line for line in printed if line.startswith("question: What time is it in Tokyo?"))
    assert "zone 'Tokyo'" in trace and "call get_current_time, from " in trace and "-> 'Asia/Tokyo'" in trace
