"""Where blocking tool work runs: one thread pool for all tools, sized for waiting rather than computing.

`asyncio.to_thread` uses the event loop's default pool, which has cores + 4 threads (6 on two cores): a
seventh blocking call waits for a free thread even though the six before it only wait themselves.
Tool calls run concurrently (chapter 08), so blocking tools get a pool of their own, made on first use.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from agentkit.limits import TOOL_THREADS

T = TypeVar("T")

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()  # two event loops (threads) may ask for the pool at once


async def run_blocking(function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """`asyncio.to_thread(function, ...)` on the tools' pool: the event loop stays free while it blocks."""
    context = contextvars.copy_context()  # as to_thread does: the call sees the caller's context variables
    call = functools.partial(context.run, function, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(_tool_pool(), call)


def _tool_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=TOOL_THREADS, thread_name_prefix="agentkit-tool")
        return _pool
