"""`agentkit mcp`: an MCP server (`agentkit.mcp.server.mcp_server`) served on this process's stdin and stdout.

The plumbing of a front end, not the idea of chapter 11: stdin read on a daemon thread (so that Ctrl-C stops at
once), and a JSON-RPC error for a line that is no message (the SDK would drop it without a word).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import os
import sys
import threading
from collections.abc import AsyncIterator

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError


async def serve_stdio(server: Server) -> None:
    """Serve `server` on this process's stdin and stdout until the client closes them (or Ctrl-C: at once)."""
    async with stdio_server(stdin=_stdin_lines()) as (read, write):
        messages, relayed = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def relay() -> None:
            # The SDK drops a line it cannot read without a word; JSON-RPC says the sender gets an error.
            async with messages:
                async for item in read:
                    if isinstance(item, Exception):
                        await write.send(SessionMessage(protocol_error(item)))
                    else:
                        await messages.send(item)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(relay)
            await server.run(relayed, write, server.create_initialization_options())


async def _stdin_lines() -> AsyncIterator[str]:
    """Lines of stdin, read on a daemon thread. The SDK reads on a worker thread that the event loop waits for
    when it stops, so Ctrl-C would wait for the client's next line; nothing waits for a daemon thread."""
    loop, lines = asyncio.get_running_loop(), asyncio.Queue[str | None](maxsize=16)  # bounded: a flood waits

    def read() -> None:
        with open(os.dup(sys.stdin.fileno()), encoding="utf-8", errors="replace") as stdin:
            for line in itertools.chain(stdin, [None]):  # None: the client closed stdin
                try:
                    asyncio.run_coroutine_threadsafe(lines.put(line), loop).result()
                except (RuntimeError, concurrent.futures.CancelledError):  # the server has stopped: nobody reads
                    return

    threading.Thread(target=read, daemon=True).start()
    while (line := await lines.get()) is not None:
        yield line


def protocol_error(error: Exception) -> types.JSONRPCError:
    """The JSON-RPC error for a line that is not a message: -32700 for text that is not JSON, else -32600."""
    not_json = isinstance(error, ValidationError) and any(e["type"] == "json_invalid" for e in error.errors())
    code, what = (types.PARSE_ERROR, "Parse error: the line is not JSON") if not_json else \
        (types.INVALID_REQUEST, "Invalid Request: the line is JSON but not a JSON-RPC 2.0 message")
    detail = "one JSON-RPC 2.0 object per line, such as {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}"
    return types.JSONRPCError(jsonrpc="2.0", id=None, error=types.ErrorData(code=code, message=f"{what}; send {detail}"))
