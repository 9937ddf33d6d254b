"""`agentkit chat` with its stdin a pipe (a script feeding it) or a file: lines read by the event loop, no thread.

The bug these guard: `input()` on a pipe ran in a daemon thread that waited holding stdin's buffer lock; a signal
at the prompt ended the chat, and Python's shutdown aborted on that lock ("Fatal Python error:
_enter_buffered_busy", status -6) instead of exiting with 130 after "bye". The same signals in a real terminal
(a pty) are checked at the end.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time

import pexpect
import pytest
from front_door import SCRIPT, STARTED, environment, no_process_left, processes_with  # noqa: F401 (a fixture)

from agentkit.frontends.terminal import PipeLines

WAIT = 60
"""Seconds any expected output may take on a loaded machine before the test fails instead of hanging."""
PROMPT = {"en": "you> ", "zh": "你> "}
BYE = {"en": "bye", "zh": "再见"}


class PipedChat:
    """`agentkit chat` as a script runs it: stdin a pipe; stdout read in bytes, since the prompt ends no line."""

    def __init__(self, tmp_path, *options: str) -> None:
        self.process = subprocess.Popen([str(SCRIPT), "chat", "--no-history", *options], cwd=tmp_path,
                                        env=environment(tmp_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        STARTED.append(self.process)
        self.output = b""
        self.seen = 0  # how much of the output `until` has gone past
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while chunk := os.read(self.process.stdout.fileno(), 4096):
            self.output += chunk

    def send(self, text: str) -> None:
        self.process.stdin.write(text.encode())
        self.process.stdin.flush()

    def until(self, text: str) -> str:
        """What the chat printed from the last `until` up to and including `text`; fails if it does not come."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            shown = self.output.decode(errors="replace")
            found = shown.find(text, self.seen)
            if found >= 0:
                printed, self.seen = shown[self.seen:found + len(text)], found + len(text)
                return printed
            time.sleep(0.05)
        raise AssertionError(f"no {text!r} after {self.output.decode(errors='replace')[self.seen:]!r}")

    def end(self, number: signal.Signals | None = None) -> tuple[int, str, str]:
        """Send `number` (none: close stdin), and return the exit status, the rest of stdout, and all of stderr."""
        if number is None:
            self.process.stdin.close()
        else:
            self.process.send_signal(number)
        status = self.process.wait(timeout=WAIT)
        self.reader.join(WAIT)
        return status, self.output.decode(errors="replace")[self.seen:], self.process.stderr.read().decode()


@pytest.mark.parametrize(("number", "language"), [(signal.SIGINT, "en"), (signal.SIGTERM, "en"), (signal.SIGHUP, "en"),
                                                  (signal.SIGINT, "zh")], ids=["SIGINT", "SIGTERM", "SIGHUP", "SIGINT-zh"])
def test_a_signal_at_the_prompt_of_a_piped_chat_ends_it_with_bye_and_130(tmp_path, number, language):
    chat = PipedChat(tmp_path, "--lang", language)
    chat.until(PROMPT[language])
    status, rest, errors = chat.end(number)
    assert (status, rest, errors) == (130, f"\n{BYE[language]}\n", ""), "one line, no 'Fatal Python error', no traceback"


def test_sigterm_with_a_question_pending_in_a_piped_chat_runs_nothing_and_ends_with_130(tmp_path):
    chat = PipedChat(tmp_path)
    chat.until("you> ")
    chat.send('Run the bash command "touch never.txt"\n')
    chat.until("[y/N] ")
    status, rest, errors = chat.end(signal.SIGTERM)
    assert (status, errors) == (130, "") and rest.endswith("bye\n"), (rest, errors)
    assert not (tmp_path / "workspace" / "never.txt").exists()


def test_ctrl_c_while_a_piped_chat_runs_a_command_stops_it_and_ends_the_chat(tmp_path, marker):
    """With requests from a pipe nobody types at the prompt: Ctrl-C ends the chat, as it ends a script (in a terminal
    it comes back to the prompt: tests/test_chat_signals.py)."""
    chat = PipedChat(tmp_path)
    chat.until("you> ")
    chat.send(f'Run the bash command "sleep {marker}"\n')
    chat.until("[y/N] ")
    chat.send("y\nWhat time is it in Tokyo?\n")  # a next request is waiting: it is not run
    deadline = time.monotonic() + WAIT
    while not processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(marker), "the approved command should be running"
    status, rest, errors = chat.end(signal.SIGINT)
    assert (status, errors) == (130, ""), (status, rest, errors)
    assert rest.endswith("\n[task cancelled: interrupted (Ctrl-C)]\nbye\n"), rest
    assert "Tokyo" not in rest
    assert not processes_with(marker), "Ctrl-C killed the command"


def test_lines_written_at_once_are_each_a_request_and_the_pipes_end_ends_the_chat(tmp_path):
    chat = PipedChat(tmp_path)
    chat.until("you> ")
    chat.send("What time is it in Tokyo?\nWhat time is it in Paris?\n")  # one write, two requests
    assert " in Tokyo (" in chat.until("you> ")
    assert " in Paris (" in chat.until("you> ")
    status, rest, errors = chat.end()
    assert (status, rest, errors) == (0, "bye\n", "")


# ---- the reader itself, in process -----------------------------------------------------------------------


def read_all(lines: PipeLines) -> list[str]:
    async def all_lines() -> list[str]:
        found = []
        while True:
            try:
                found.append(await lines.line(""))
            except EOFError:
                return found
    return asyncio.run(all_lines())


def test_a_line_split_between_writes_and_a_last_line_without_its_end_are_read_whole(capfd):
    read_end, write_end = os.pipe()

    def write() -> None:
        for piece in (b"one\ntw", "o 你".encode()[:-1], "o 你".encode()[-1:] + b"\nthree"):  # a character cut in two
            os.write(write_end, piece)
            time.sleep(0.05)
        os.close(write_end)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert read_all(PipeLines(read_end, "utf-8")) == ["one", "two 你", "three"]
    finally:
        writer.join()
        os.close(read_end)


def test_a_file_that_cannot_be_watched_is_read_at_once(tmp_path):
    requests = tmp_path / "requests.txt"
    requests.write_text("first\nsecond\n", encoding="utf-8")
    with requests.open("rb") as file:  # epoll refuses a regular file: read without waiting
        assert read_all(PipeLines(file.fileno(), "utf-8")) == ["first", "second"]


def test_a_cancelled_wait_leaves_nothing_watching_the_pipe():
    read_end, write_end = os.pipe()

    async def cancel_a_wait() -> bool:
        waiting = asyncio.ensure_future(PipeLines(read_end, "utf-8").line(""))
        await asyncio.sleep(0.05)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        return asyncio.get_running_loop().remove_reader(read_end)  # True if still watched

    try:
        assert asyncio.run(cancel_a_wait()) is False
    finally:
        os.close(read_end)
        os.close(write_end)


# ---- the same signal in a real terminal ------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh"])
def test_ctrl_c_at_the_prompt_in_a_terminal_ends_with_bye_and_130(tmp_path, language):
    child = pexpect.spawn(sys.executable, ["-m", "agentkit.frontends.cli", "chat", "--no-history", "--lang", language],
                          cwd=str(tmp_path), env=environment(tmp_path, TERM="xterm"), encoding="utf-8", timeout=WAIT)
    child.expect_exact("/exit")
    child.expect_exact(PROMPT[language])
    child.sendintr()
    child.expect_exact(BYE[language])
    child.expect(pexpect.EOF)
    child.close()
    assert (child.exitstatus, child.signalstatus) == (130, None)
    assert "Fatal Python error" not in child.before and "Traceback" not in child.before, child.before
