"""`agentkit chat` and signals: Ctrl-C and a hang-up stop an approved command at once, in a real terminal (a pty)."""

import signal
import time

import pexpect
import pytest
from front_door import processes_with
from test_cli_chat import ask, start_chat

GONE_WITHIN = 5.0
"""Seconds a killed command may take to disappear: the bound is the behaviour under test, kept generous."""


def gone(marker: str) -> bool:
    deadline = time.monotonic() + GONE_WITHIN
    while processes_with(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def approve_a_long_command(tmp_path, marker):
    """A chat running the approved command `sleep <marker>`."""
    child = start_chat(tmp_path)
    ask(child, f'Run the bash command "sleep {marker}"', until="[y/N] ")
    child.sendline("y")
    deadline = time.monotonic() + 10
    while not processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(marker), "the approved command should be running"
    return child


def test_ctrl_c_during_a_task_kills_its_command_and_the_chat_goes_on(tmp_path, marker):
    child = approve_a_long_command(tmp_path, marker)
    child.sendintr()
    child.expect_exact("[task cancelled: interrupted (Ctrl-C)")
    assert gone(marker), "Ctrl-C must kill the running command, not wait for it"
    child.expect_exact("you> ")
    assert "(Asia/Tokyo)\nagent> " in ask(child, "What time is it in Tokyo?"), "the chat answers the next request"
    child.sendline("/exit")
    child.expect_exact("bye")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("number", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_a_hang_up_or_a_kill_stops_the_running_command_and_ends_the_chat(tmp_path, marker, number):
    child = approve_a_long_command(tmp_path, marker)
    child.kill(number)
    assert gone(marker), f"{number.name} must kill the running command, not leave it behind"
    child.expect(pexpect.EOF)
    child.close()


def test_ctrl_c_at_a_question_cancels_the_task_and_the_next_line_is_a_request(tmp_path):
    child = start_chat(tmp_path)
    ask(child, 'Run the bash command "touch never.txt"', until="[y/N] ")
    child.sendintr()
    child.expect_exact("[task cancelled: interrupted (Ctrl-C)")
    child.expect_exact("you>")
    assert "(Asia/Tokyo)\nagent> " in ask(child, "What time is it in Tokyo?"), "the chat answers the next request"
    child.sendline("y")  # not taken as the interrupted question's answer: a request, which asks nothing
    child.expect_exact("you> ")
    assert not (tmp_path / "workspace" / "never.txt").exists()
    child.sendline("/exit")
    child.expect(pexpect.EOF)
