"""Where blocking tool work runs (`run_blocking`): one thread pool for all tools, sized for waiting rather than computing.

The attack: one reply of slow calls (eight `sleep 30` commands, reads of a slow disk) on `asyncio.to_thread`'s
default pool, cores + 4 threads (6 on two cores): a seventh blocking call waits for a thread although the six
before it only wait themselves, and commands that wait for one another never all run, so they time out. Tool
calls run concurrently (chapter 08), so they get a pool of their own, made on first use. Proved by
tests/test_threads.py.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

TOOL_THREADS = 64
"""Threads that blocking tool calls share in one process: they mostly wait (on a disk, a command), so there are
many more than cores; Python's default pool (cores + 4) would run sixteen waiting calls on two cores in two rounds."""

T = TypeVar("T")
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()  # two event loops (threads) may ask for the pool at once


async def run_blocking(function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """`asyncio.to_thread(function, ...)` on the tools' pool (made on first use): the event loop stays free meanwhile."""
    global _pool
    with _pool_lock:
        _pool = _pool or ThreadPoolExecutor(max_workers=TOOL_THREADS, thread_name_prefix="agentkit-tool")
    context = contextvars.copy_context()  # as to_thread does: the call sees the caller's context variables
    call = functools.partial(context.run, function, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(_pool, call)
