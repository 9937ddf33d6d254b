"""Line editing and history for `agentkit chat`: the arrow keys move along a line and recall earlier requests.

Python's own `readline` module (GNU readline or libedit, where the platform has one) does the editing:
`input()` uses it as soon as it is imported and the chat runs in a terminal. Only requests go into the
history (not the answers to a `[y/N]`), and they are kept in a file in the user's home, readable by the user
only (`--no-history` keeps nothing). Where there is no `readline` (Windows), lines are read as before.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

HISTORY_FILE = ".agentkit_history"
"""The history's file name, in the user's home."""
HISTORY_LINES = 1000
"""Requests the history keeps; older ones are dropped when the chat starts."""


def history_path() -> Path:
    return Path.home() / HISTORY_FILE


def start_line_editing(history: Path | None) -> Callable[[str], None]:
    """Turn on line editing, with earlier requests from `history` (None: none kept); returns `remember(request)`."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):  # lines from a pipe or a file: nobody edits or recalls
        return lambda request: None
    try:
        import readline
    except ImportError:  # no readline on this platform: plain lines, no history
        return lambda request: None
    readline.set_auto_history(False)  # `remember` adds requests only: a "y" is no request to recall
    readline.parse_and_bind("set enable-bracketed-paste off")  # no escape codes around each prompt
    if history is not None:
        try:
            readline.read_history_file(history)
            readline.set_history_length(HISTORY_LINES)
            readline.write_history_file(history)  # cut to the last HISTORY_LINES
        except FileNotFoundError:
            pass
        except OSError:  # unreadable (a folder, no permission): edit, and keep nothing
            history = None

    def remember(request: str) -> None:
        readline.add_history(request)
        if history is None:
            return
        try:  # created readable by this user only: a request may hold something private
            os.close(os.open(history, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
            readline.append_history_file(1, history)
        except OSError:
            pass

    return remember


@contextmanager
def terminal_settings_kept() -> Iterator[None]:
    """Put the terminal's settings back at the end: a line still being read (readline turns echo off while it
    edits) must not leave the person's shell without echo after the chat ends on Ctrl-C."""
    try:
        import termios

        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
    except (ImportError, OSError, ValueError, AttributeError):  # not Unix, or stdin closed: nothing to restore
        yield
        return
    except termios.error:  # stdin is a pipe or a file (`agentkit chat < requests.txt`), not a terminal
        yield
        return
    try:
        yield
    finally:
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        except (OSError, termios.error):
            pass
