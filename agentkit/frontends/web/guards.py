"""What keeps the web app local, private and small: the host names it answers, a per-launch token, and a
request body capped as it arrives.

The app answers only requests to 127.0.0.1 and takes only JSON bodies, which a page from another site
cannot send without the browser asking this server first; a Host header naming anything else (DNS
rebinding from a web page) is refused. On a shared machine every local user can reach 127.0.0.1, so each
request must also carry the token `agentkit web` made when it started and printed for this person only.
"""

from __future__ import annotations

import secrets
from urllib.parse import parse_qs

from fastapi import HTTPException, status
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketClose

HOST = "127.0.0.1"
LOCAL_NAMES = [HOST, "localhost"]
"""Host headers the app answers; any other name reaching it (DNS rebinding from a web page) is refused."""
JSON_BYTES_PER_CHAR = 12
"""The most bytes one character of a message can take in a JSON body: an escaped pair, "\\ud83d\\ude00"."""
MIN_TOKEN_CHARS = 16
"""A shorter token could be guessed by trying; `secrets.token_urlsafe()` gives 43 characters."""
PUBLIC = {("GET", "/favicon.ico")}
"""What a browser asks for on its own, without the page's header: answered without the token (it reveals nothing),
instead of a 401 that the browser's console shows as an error on every load."""


class TokenCheck:
    """Refuses (401) every request without this launch's token, before any route or body is read.

    The token counts in two places only: `?token=` on the page's own address (GET /), because a browser
    cannot add a header to an address it opens, and the header `Authorization: Bearer <token>`, which
    the page adds to every request it makes. Not a cookie: a browser sends 127.0.0.1's cookies to every
    port of it, so any other local server the person opened would receive the token.
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self.token = app, token.encode()

    @staticmethod
    def check(token: str) -> None:
        """Raises if `token` is too short to be safe (the middleware itself is only made at the first request)."""
        if len(token) < MIN_TOKEN_CHARS:
            raise ValueError(f"the token has {len(token)} characters; it needs at least {MIN_TOKEN_CHARS}, "
                             "so that it cannot be guessed: use secrets.token_urlsafe()")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # lifespan: the server starting, no request
        if scope["type"] == "lifespan" or (scope.get("method"), scope.get("path")) in PUBLIC or self._carries_token(scope):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":  # none today; one added later is refused all the same
            return await WebSocketClose(status.WS_1008_POLICY_VIOLATION)(scope, receive, send)
        refused = JSONResponse({"detail": "this server needs the token that `agentkit web` printed when it started: "
                                          "open the address it printed, http://127.0.0.1:<port>/?token=<token>; "
                                          "a script sends the header 'Authorization: Bearer <token>'"},
                               401, headers={"WWW-Authenticate": "Bearer"})
        await refused(scope, receive, send)

    def _carries_token(self, scope: Scope) -> bool:
        given = [value for name, value in scope["headers"] if name == b"authorization"]
        if len(given) == 1 and given[0][:7].lower() == b"bearer ":
            return secrets.compare_digest(given[0][7:].strip(), self.token)  # in constant time: no guessing by timing
        if scope.get("method") == "GET" and scope["path"] == "/":
            query = parse_qs(scope["query_string"].decode("latin-1"), keep_blank_values=True).get("token", [])
            return len(query) == 1 and secrets.compare_digest(query[0].encode(), self.token)
        return False


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
