"""Ctrl-C, a hang-up or a kill in `agentkit chat`: they cancel what the chat is waiting for, and nothing keeps running.

Without this, Ctrl-C during a task waits for a running command to finish (a thread cannot be
interrupted), and a terminal that closes (SIGHUP) ends the chat but leaves an approved command running.
Here each signal cancels the asyncio task the chat is waiting for; a cancelled `bash` call kills its
command and everything the command started (see `agentkit.tools.shell`).
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Awaitable
from typing import Any, TypeVar

T = TypeVar("T")

HANDLED = {signal.SIGINT: "interrupted (Ctrl-C)", signal.SIGHUP: "the terminal hung up (SIGHUP)",
           signal.SIGTERM: "asked to stop (SIGTERM)"}
"""The signals that cancel what the chat waits for, and how a stopped task reports each."""
ENDING = (signal.SIGHUP, signal.SIGTERM)
"""The signals after which the chat ends, instead of going back to its prompt."""


class Interrupted(Exception):
    """A signal cancelled what the chat was waiting for; the message says which."""


class Interrupts:
    """While entered, the signals in `HANDLED` cancel the task given to `wait_for`, which raises `Interrupted`.

    Only the main thread can receive signals: elsewhere (a test's thread) this does nothing.
    """

    def __init__(self) -> None:
        self.ending = False
        """True once SIGHUP or SIGTERM arrived: the terminal is gone, or the chat was asked to stop, so it ends."""
        self._waiting: asyncio.Future[Any] | None = None
        self._received: signal.Signals | None = None
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
            raise Interrupted(HANDLED[self._received]) from None
        finally:
            self._waiting = None

    def _cancel_waiting(self, number: signal.Signals) -> None:
        self._received = number
        self.ending |= number in ENDING
        if self._waiting is not None:
            self._waiting.cancel()
