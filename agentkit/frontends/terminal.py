"""The terminal `agentkit chat` talks through: a line read without blocking the event loop, an event printed as a line.

Everything from a tool or the model passes through `visible()` before it is printed: a file cannot
move the cursor, repaint the question, or hide part of a command behind a bidi or invisible character.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import sys
import textwrap
import threading
from collections.abc import Awaitable, Callable

from agentkit.asking import EXIT, Question
from agentkit.events import Event
from agentkit.frontends.checklist import checklist, plan_in
from agentkit.frontends.messages import (
    for_the_person,
    note_for_the_person,
    person_answer,
    person_question,
    say,
    why_it_stopped,
)
from agentkit.hardening.visible import readable, visible

RESULT_WIDTH = 160
"""Characters of a tool result the terminal shows; the model still reads all of it."""


Read = Callable[[str], str] | Callable[[str], Awaitable[str]]
"""How a terminal reads a line after a prompt: `input`, a test's function, or `PipeLines.line` (a coroutine)."""


def shorten(text: str, width: int = RESULT_WIDTH) -> str:
    """One line of at most `width` characters, saying how long the whole text was when it had to be cut."""
    short = textwrap.shorten(text, width, placeholder=" ...")
    return short if short == " ".join(text.split()) else f"{short} ({len(text):,} characters)"


def describe(event: Event, language: str = "en") -> str | None:
    """The line the terminal prints for an event (None: nothing to print), with what came from outside made visible.

    Our own words are in `language` ("en" or "zh"); what the model, a tool or a provider's error says is as it is."""
    if event.kind == "answer":
        return say("agent prompt", language) + visible(event.text)  # an answer may have several lines
    if event.kind == "tool_call":  # what will run, exactly: its unusual spaces are marked too
        return visible(f"  -> {event.name} {readable(event.arguments)}", multiline=False, exact=True)
    if event.kind == "tool_result":
        # `shown`: a refused call's line for the person. Escaped first, so that the width holds for what is shown.
        shown = for_the_person(event.decision, event.arguments)
        if not (shown or event.is_error) and (steps := plan_in(event.content)):  # a plan: drawn whole, as a checklist
            heading, *lines = checklist(steps, language)
            return "\n".join([f"  <- {heading}", *(f"     {line}" for line in lines)])
        line = f"  <- {shorten(visible(shown or event.content))}"
    elif event.kind == "thinking":  # folded to one line: the reasoning is not the answer
        line = "  " + say("thinking", language, text=shorten(visible(event.text)))
    elif event.kind == "note":
        line = say("note", language, text=note_for_the_person(event.text, language))
    elif event.kind == "status" and event.status != "completed":  # why, worded from the value the loop gives
        status = say(f"status {event.status}", language)
        line = (say("task status because", language, status=status, reason=why_it_stopped(event.error, language))
                if event.error else say("task status", language, status=status))
    else:
        return None
    return visible(line, multiline=False)


def print_safely(text: str) -> None:
    """`print` that a closed terminal (hung up) does not turn into an error: there is just nobody to show it to."""
    try:
        print(text, flush=True)
    except OSError:
        pass


def print_part(text: str) -> None:
    """`print_safely` without the line's end: a piece of a streamed answer, shown at once."""
    try:
        print(text, end="", flush=True)
    except OSError:
        pass


def discard_typeahead() -> None:
    """Throw away keys typed before a question appeared, so that only an answer typed after it can answer it."""
    if sys.stdin is not None and sys.stdin.isatty():
        import termios  # Unix only, like the terminal it flushes; imported here so that the web page needs none

        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


class Terminal:
    """Reads the person's lines without blocking the event loop, and remembers whether they asked to leave."""

    def __init__(self, read: Read = input, write: Callable[[str], None] = print_safely,
                 write_part: Callable[[str], None] = print_part,
                 remember: Callable[[str], None] = lambda request: None, language: str = "en",
                 interactive: bool = True) -> None:
        self.read, self.output, self.output_part = read, write, write_part
        self.interactive = interactive
        """False when the lines come from a pipe or a file: Ctrl-C during a task then ends the chat, as it ends a
        script, instead of coming back to a prompt nobody types at."""
        self.language = language
        """The person's language, "en" or "zh" (`agentkit.frontends.messages`): our own lines, and a confirmation's wording."""
        self.remember = remember
        """Keeps a request in the line history (see `agentkit.frontends.line_editing`); answers are not kept."""
        self.streamed = ""
        """The text of the reply being streamed so far, shown on the current line."""
        self.leaving = False
        """True once the person typed /exit (or closed the input): the chat ends after the current task."""
        self._one_prompt = asyncio.Lock()  # two concurrent tool calls must not both read the next line
        self._reading: asyncio.Future[str] | None = None  # a read outlives a question interrupted by Ctrl-C

    def write(self, text: str) -> None:
        """Print `text` with its control, bidi and invisible characters made visible; never raises."""
        self.output(visible(text))

    async def line(self, prompt: str, *, fresh: bool = False) -> str:
        """The person's next line. `fresh`: discard what was typed before `prompt` appeared, so it cannot answer."""
        async with self._one_prompt:
            if fresh:
                discard_typeahead()
            shown = visible(prompt, exact=True)  # a question may gate a command: show exactly what it would run
            if self._reading is None:  # an async `read` (`PipeLines.line`) runs on the loop; `input` needs a thread
                self._reading = (asyncio.ensure_future(self.read(shown)) if inspect.iscoroutinefunction(self.read)
                                 else _read_in_daemon_thread(self.read, shown))
            else:  # a thread cannot be stopped: the read of an interrupted question answers this prompt instead
                self.output(shown.rstrip())
            reading = self._reading
            try:
                line = (await asyncio.shield(reading)).strip()
            except EOFError:
                line = EXIT
            finally:
                if reading.done():
                    self._reading = None
        self.leaving |= line.lower() == EXIT  # as the policy reads it: "/EXIT" leaves too
        return line

    async def ask(self, question: Question) -> str:
        """The `Ask` for confirmations and `ask_user`; the policy turns /cancel and /exit into `TaskCancelled`."""
        answer = await self.line(f"{person_question(question, self.language)} ", fresh=True)
        return person_answer(question, answer)

    def show(self, event: Event) -> None:
        """Show one of `run_task`'s events: one line per tool call, result, answer, or a task that did not complete.

        A streamed reply's text is shown piece by piece after `agent> `; its `answer` event then only ends the line.
        """
        if event.kind in ("usage", "confirm"):  # nothing to show: the question itself is asked by `ask`
            return
        if event.kind == "text":
            self.output_part(("" if self.streamed else say("agent prompt", self.language)) + visible(event.text))
            self.streamed += event.text
            return
        streamed, self.streamed = self.streamed, ""
        if streamed:
            self.output_part("\n")
            if event.kind == "answer" and event.text == streamed:
                return
        line = describe(event, self.language)
        if line is not None:
            self.output(line)


def _read_in_daemon_thread(function: Callable[[str], str], argument: str) -> asyncio.Future[str]:
    """`function(argument)` on a daemon thread: unlike `asyncio.to_thread`, Ctrl-C never waits for it to return."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[str] = loop.create_future()

    def settle(result: str | None, error: BaseException | None) -> None:
        if done.done():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)

    def work() -> None:
        try:
            result, error = function(argument), None
        except BaseException as raised:  # EOFError, mostly: handed to the coroutine that waits
            result, error = None, raised
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the chat has ended and closed its event loop
            pass

    threading.Thread(target=work, daemon=True).start()
    return done


def person_lines() -> Read:
    """How `agentkit chat` reads the person's lines: `input` in a terminal (readline edits the line), and
    `PipeLines` from a pipe or a file (`agentkit chat < requests.txt`), where nobody edits."""
    if sys.stdin is None or sys.stdin.isatty() or os.name != "posix":  # Windows' event loop cannot watch a pipe
        return input
    return PipeLines(sys.stdin.fileno(), sys.stdin.encoding or "utf-8").line


class PipeLines:
    """Lines from a stdin that is no terminal, read by the event loop itself: no thread waits in stdin.

    `input()` on a pipe blocks in `sys.stdin`'s buffer holding its lock; when a signal ends the chat while
    that thread waits, Python's shutdown cannot take the lock and aborts ("Fatal Python error:
    _enter_buffered_busy"). Here the loop watches the pipe (`add_reader`) and a signal simply cancels the wait.
    """

    def __init__(self, fd: int, encoding: str) -> None:
        self.fd, self.encoding = fd, encoding
        self._bytes = b""  # read but not yet returned: a pipe may bring several lines, or half of one, at once
        self._ended = False

    async def line(self, prompt: str) -> str:
        """The next line without its end, after printing `prompt` as `input` would; EOFError once nothing is left."""
        print_part(prompt)
        while b"\n" not in self._bytes and not self._ended:
            chunk = await self._chunk()
            self._bytes += chunk
            self._ended = not chunk
        if not self._bytes:
            raise EOFError
        line, _, self._bytes = self._bytes.partition(b"\n")  # split before decoding: "\n" is never inside a character
        return line.decode(self.encoding, errors="replace")

    async def _chunk(self) -> bytes:
        loop = asyncio.get_running_loop()
        readable = loop.create_future()
        try:
            loop.add_reader(self.fd, lambda: readable.done() or readable.set_result(None))
        except OSError:  # a regular file or /dev/null cannot be watched: it never blocks, so read it at once
            return os.read(self.fd, 65536)
        try:
            await readable
        finally:
            loop.remove_reader(self.fd)
        return os.read(self.fd, 65536)
