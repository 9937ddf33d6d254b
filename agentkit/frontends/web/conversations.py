"""What the web app keeps between requests: its conversations, a bounded number, each running at most one turn.

A conversation is busy from the moment its turn is accepted, not from when the page starts reading the
turn's stream: checking and marking happen in one step with no `await` between them, and asyncio runs one
step at a time, so of two turns posted at once the second is refused (409) instead of running on the
same history.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException

from agentkit.task import Task

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""Half of a UTF-16 pair on its own: what Python makes of a file name's invalid bytes. UTF-8 cannot encode it."""


def without_lone_surrogates(value: Any) -> Any:
    """`value` (text, or the lists and dicts of a message) with each lone surrogate replaced by U+FFFD."""
    if isinstance(value, str):
        return LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [without_lone_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {key: without_lone_surrogates(item) for key, item in value.items()}
    return value


def stop_once(turn: asyncio.Task) -> None:
    """Cancel `turn` unless it is being cancelled already: a second cancel would land in its clean-up (a
    command being killed, awaited until it is dead) and cut it short. Stop and a page going away can coincide."""
    if not turn.done() and not turn.cancelling():
        turn.cancel()


@dataclass
class Conversation:
    """One conversation of the page: its task, kept across turns, and the turn running now, if any."""

    task: Task
    """Its whole history, which the model sees on every turn."""
    turn: asyncio.Task | None = None
    """The running (or last) turn; the conversation is busy until it is done, however it ends."""

    @property
    def busy(self) -> bool:
        return self.turn is not None and not self.turn.done()


class Conversations:
    """At most `max_kept` conversations by id; to make room, the least recently used idle one is forgotten."""

    def __init__(self, max_kept: int) -> None:
        self.max_kept = max_kept
        self.server_stopping = False
        """Set by `stop_all`: a turn stopped now was stopped by the server, not from its page."""
        self._kept: OrderedDict[str, Conversation] = OrderedDict()  # least recently used first

    def start_turn(self, key: str, message: str, work: Callable[[Conversation], Coroutine]) -> Conversation:
        """Run `work(conversation)` as the turn of conversation `key`, or refuse with 409 (busy) or 503 (full).

        Synchronous on purpose: nothing else runs between the check and the mark.
        """
        conversation = self._kept.get(key)
        if conversation is None:
            self._make_room()
            conversation = self._kept[key] = Conversation(Task(message))
        elif conversation.busy:
            raise HTTPException(409, f"conversation {key!r} is already running a turn: wait until it ends, "
                                     "answer its question, or cancel it")
        self._kept.move_to_end(key)
        conversation.turn = asyncio.create_task(work(conversation))
        return conversation

    def stop_turn(self, key: str) -> None:
        """Cancel the turn conversation `key` is running, or refuse with 409 if there is none."""
        conversation = self._kept.get(key)
        if conversation is None or not conversation.busy:
            raise HTTPException(409, f"conversation {key!r} is not running a turn: there is nothing to stop")
        stop_once(conversation.turn)

    def stop_all(self) -> None:
        """Cancel every running turn (the server is stopping): each ends its stream without a status, which its
        page reads as the connection lost."""
        self.server_stopping = True
        for conversation in self._kept.values():
            if conversation.busy:
                stop_once(conversation.turn)

    def _make_room(self) -> None:
        while len(self._kept) >= self.max_kept:
            idle = next((key for key, kept in self._kept.items() if not kept.busy), None)
            if idle is None:  # evicting a busy one would strand the person waiting on it
                raise HTTPException(503, f"all {self.max_kept} conversations this server keeps "
                                         "(Limits.max_conversations) are running a turn: try again when one ends")
            del self._kept[idle]
