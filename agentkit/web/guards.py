"""What keeps the web app local and small: the host names it answers, and a request body capped as it arrives.

The app answers only requests to 127.0.0.1 and takes only JSON bodies, which a page from another site
cannot send without the browser asking this server first; a Host header naming anything else (DNS
rebinding from a web page) is refused.
"""

from __future__ import annotations

from fastapi import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HOST = "127.0.0.1"
LOCAL_NAMES = [HOST, "localhost"]
"""Host headers the app answers; any other name reaching it (DNS rebinding from a web page) is refused."""
JSON_BYTES_PER_CHAR = 12
"""The most bytes one character of a message can take in a JSON body: an escaped pair, "\\ud83d\\ude00"."""


class BodyLimit:
    """Refuses a request body over `max_bytes` with 413 as it arrives, so a huge post is never held in memory."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        length = dict(scope.get("headers", [])).get(b"content-length", b"")
        declared = int(length) if length.isdigit() else 0  # a length declared too large is refused unread
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if max(declared, received) > self.max_bytes:  # raised while FastAPI reads the body, and answered by it
                raise HTTPException(413, f"the request body is larger than {self.max_bytes:,} bytes, the most a "
                                         "message of Limits.max_message_chars characters takes as JSON")
            return message

        await self.app(scope, counted, send)
