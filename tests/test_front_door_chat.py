"""`agentkit chat` run as a reader runs it, through the installed script in a real terminal (a pty): it answers,
edits lines and recalls them with the arrow keys, says a declined call in the person's words, and ends with
the status of what ended it."""

from __future__ import annotations

import signal
import stat
import subprocess

import pexpect
from front_door import SCRIPT, environment, exercises

UP = "\x1b[A"
"""What the up arrow key sends."""


def start(tmp_path, *options: str):
    child = pexpect.spawn(str(SCRIPT), ["chat", *options], cwd=str(tmp_path), encoding="utf-8", timeout=60,
                          env=environment(tmp_path, TERM="xterm"), dimensions=(50, 200))
    child.expect_exact("/exit ends the chat.")
    child.expect_exact("you> ")
    return child


def finish(child) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus if child.signalstatus is None else -child.signalstatus


@exercises("chat")
def test_chat_answers_and_the_up_arrow_recalls_the_last_request_from_the_history(tmp_path):
    child = start(tmp_path)
    child.sendline("What time is it in Tokyo?")
    child.expect_exact("agent> It's ")
    child.expect_exact(" in Tokyo (")
    child.expect_exact("you> ")
    child.send(UP)  # the line is edited in place: it comes back, and Enter sends it again
    child.send("\r")
    child.expect_exact('-> get_current_time {"timezone": "Asia/Tokyo"}')
    child.expect_exact("you> ")
    child.sendline("/exit")
    child.expect_exact("bye")
    assert finish(child) == 0
    history = tmp_path / ".agentkit_history"
    assert history.read_text().splitlines()[-2:] == ["What time is it in Tokyo?"] * 2
    assert stat.S_IMODE(history.stat().st_mode) == 0o600, "a request may hold something private"


def test_no_history_keeps_nothing(tmp_path):
    child = start(tmp_path, "--no-history")
    child.sendline("What time is it in Tokyo?")
    child.expect_exact("you> ")
    child.sendeof()
    assert finish(child) == 0
    assert not (tmp_path / ".agentkit_history").exists()


def test_a_declined_call_is_told_in_the_persons_words(tmp_path):
    child = start(tmp_path)
    child.sendline('Write "hello" to the file notes.txt')
    child.expect_exact("[y/N] ")
    child.sendline("n")
    child.expect_exact("you> ")
    (result,) = [line for line in child.before.splitlines() if line.startswith("  <- ")]
    assert result == "  <- You declined: write_file notes.txt", "the model's own sentence ('do not try ...') is not shown"
    child.sendline("/exit")
    assert finish(child) == 0


def test_ctrl_c_at_the_prompt_ends_the_chat_with_status_130(tmp_path):
    child = start(tmp_path)
    child.sendintr()
    child.expect_exact("bye")
    assert finish(child) == 130
    assert "Traceback" not in child.before


def test_sigterm_with_a_question_pending_ends_the_chat_with_status_130(tmp_path):
    child = start(tmp_path)
    child.sendline('Run the bash command "touch never.txt"')
    child.expect_exact("[y/N] ")
    child.kill(signal.SIGTERM)
    child.expect_exact("bye")
    assert finish(child) == 130
    assert "Traceback" not in child.before
    assert not (tmp_path / "workspace" / "never.txt").exists()


def test_chat_reads_requests_from_a_pipe_as_well_as_from_a_terminal(tmp_path):
    requests = tmp_path / "requests.txt"
    requests.write_text("What time is it in Tokyo?\n", encoding="utf-8")
    done = subprocess.run([str(SCRIPT), "chat", "--workspace", str(tmp_path / "ws")], cwd=tmp_path, text=True,
                          env=environment(tmp_path), stdin=requests.open(), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr  # a pipe is no terminal: nothing to save or restore, no termios.error
    assert " in Tokyo (" in done.stdout and "Traceback" not in done.stderr, done
