"""Ctrl-C, a hang-up or a kill in `agentkit chat`: they cancel what the chat is waiting for, and nothing keeps running.

Without this, Ctrl-C during a task waits for a running command to finish (a thread cannot be
interrupted), and a terminal that closes (SIGHUP) ends the chat but leaves an approved command running.
Here each signal cancels the asyncio task the chat is waiting for; a cancelled `bash` call kills its
command and everything the command started (see `agentkit.tools.shell`).
"""

from __future__ import annotations

import asyncio
import signal
import sys
import threading
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

HANDLED = (signal.SIGINT, signal.SIGHUP, signal.SIGTERM)
"""The signals that cancel what the chat waits for (a stopped task names it; the chat words it: `messages`)."""
ENDING = (signal.SIGHUP, signal.SIGTERM)
"""The signals after which the chat ends, instead of going back to its prompt."""


class Interrupted(Exception):
    """A signal cancelled what the chat was waiting for; the message is its name (SIGINT, SIGHUP, SIGTERM)."""


class Interrupts:
    """While entered, the signals in `HANDLED` cancel the task given to `wait_for`, which raises `Interrupted`.

    Only the main thread can receive signals: elsewhere (a test's thread) this does nothing.
    """

    def __init__(self) -> None:
        self.ending = False
        """True once SIGHUP or SIGTERM arrived: the terminal is gone, or the chat was asked to stop, so it ends."""
        self._waiting: asyncio.Future[Any] | None = None
        self._received: signal.Signals | None = None
        self.last: signal.Signals | None = None
        """The last signal received, kept after `wait_for` returns: the one that ended the chat, if one did."""
        self._previous: dict[signal.Signals, Any] = {}

    def __enter__(self) -> Interrupts:
        if threading.current_thread() is threading.main_thread():
            loop = asyncio.get_running_loop()
            for number in HANDLED:
                self._previous[number] = signal.getsignal(number)
                loop.add_signal_handler(number, self._cancel_waiting, number)
        return self

    def __exit__(self, *exc_info: object) -> None:
        loop = asyncio.get_running_loop()
        for number, previous in self._previous.items():
            loop.remove_signal_handler(number)
            signal.signal(number, previous)  # asyncio would put the default back, not what was there before

    async def wait_for(self, awaitable: Awaitable[T]) -> T:
        """Await `awaitable` as a task that a signal in `HANDLED` cancels; raises `Interrupted` if one did."""
        self._received = None
        self._waiting = waiting = asyncio.ensure_future(awaitable)
        try:
            return await waiting
        except asyncio.CancelledError:
            if self._received is None or not waiting.cancelled():  # cancelled from outside: not ours to handle
                raise
            raise Interrupted(self._received.name) from None
        finally:
            self._waiting = None

    def _cancel_waiting(self, number: signal.Signals) -> None:
        self._received = self.last = number
        self.ending |= number in ENDING
        if self._waiting is not None:
            self._waiting.cancel()


# ---- the whole command: one line and an exit status, whatever signal ends it ------------------------------

INTERRUPTED = 130
"""The exit status of a command a signal ended (128 + SIGINT): the same for Ctrl-C, SIGTERM and a hang-up, so a
script or a supervisor reads one "interrupted" status; the line on stderr says which signal it was."""


class Stopped(KeyboardInterrupt):
    """A front end stopped its work on a signal and has said so itself: the command exits quietly with 130."""

    def __init__(self, number: signal.Signals) -> None:
        super().__init__(number)
        self.number = number


@contextmanager
def ended_by_signals(command: str) -> Iterator[None]:
    """Run a command's body so that Ctrl-C, SIGTERM or a hang-up end it with one line and exit status 130.

    SIGTERM and SIGHUP are turned into Ctrl-C, the one path every command already cleans up on: `asyncio.run`
    cancels its task (a running shell command is killed), `with` blocks close their servers. So no traceback,
    no process left behind, and the status is 130 whichever signal it was (the line names it).
    """
    if threading.current_thread() is not threading.main_thread():  # main() called from a thread (a notebook cell):
        yield                                                         # signals are the caller's, and Python's rule
        return
    received: list[signal.Signals] = []

    def as_ctrl_c(number: int, frame: object) -> None:
        received.append(signal.Signals(number))
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # started in the background (`&`): Ctrl-C is ignored
            raise KeyboardInterrupt
        signal.raise_signal(signal.SIGINT)

    previous = {number: signal.signal(number, as_ctrl_c) for number in (signal.SIGTERM, signal.SIGHUP)
                if signal.getsignal(number) is not signal.SIG_IGN}  # nohup: a hang-up stays ignored
    try:
        yield
    except KeyboardInterrupt as stop:
        number = stop.number if isinstance(stop, Stopped) else received[0] if received else signal.SIGINT
        if not isinstance(stop, Stopped):
            from agentkit.frontends.messages import PERSON_LANGUAGE, say  # only now: `agentkit --help` stays light

            _say(f"{command}: {say(f'ended {number.name}', PERSON_LANGUAGE.get())}")  # in the person's language
        raise SystemExit(INTERRUPTED) from None
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _say(line: str) -> None:
    """The last line, on stderr (stdout may be a protocol, as for `agentkit mcp`); a closed terminal is no error."""
    try:
        print(("\n" if sys.stderr.isatty() else "") + line, file=sys.stderr, flush=True)  # after the echoed ^C
    except (OSError, ValueError):
        pass
