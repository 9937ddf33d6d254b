"""The offline model as a real OpenAI-compatible HTTP server on 127.0.0.1, with faults on request.

`agentkit serve` (or `python -m agentkit.offline`) starts it; any OpenAI client, or curl, can then use
`http://127.0.0.1:PORT/v1` as its base URL. Faults make the reliability paths testable: the first
`times` requests fail with `status` (429 or 500), every reply can be slowed by `delay` seconds, and each
chunk of a reply by `chunk_delay` (what streaming is for: the first words arrive before the last are written).
A malformed request (a bad Content-Length, a body that never arrives, an unknown method) gets a 4xx in
the API's JSON shape, like every other error; the connection is closed after it when its bytes cannot be trusted.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from agentkit.hardening.echo import echo
from agentkit.offline.model import OfflineModel
from agentkit.offline.protocol import Model, handle
from agentkit.offline.request import ApiError, HttpReply

MAX_BODY_BYTES = 16 * 1024 * 1024
"""Largest request body read; a larger Content-Length is answered 413 without reading it."""

BODY_TIMEOUT = 10.0
"""Seconds a request body may pause before the server gives up on it with 408 (a client that sent less than it said)."""

_CONTENT_LENGTH = re.compile(r"[0-9]{1,20}")


@dataclass
class Faults:
    """Failures to inject, in order: the first `times` requests get `status`; -1 means every request."""

    status: int | None = None
    """HTTP status to answer with: 429 (rate limited) or 500 (server error), say."""
    times: int = 0
    """How many requests fail before the server answers normally; -1 for all of them."""
    delay: float = 0.0
    """Seconds to wait before every reply, to exercise client timeouts."""
    chunk_delay: float = 0.0
    """Seconds the model takes to write each chunk of a reply, as a real one writes token by token: a streamed
    reply sends each chunk when it is written, any other reply waits until all of them are."""
    _failed: int = field(default=0, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def next_failure(self) -> ApiError | None:
        with self._lock:
            if self.status is None or (self.times != -1 and self._failed >= self.times):
                return None
            self._failed += 1
            number = self._failed  # read under the lock: a concurrent request may count the next one meanwhile
        return ApiError(self.status, f"injected fault {number}: HTTP {self.status}")


class OfflineServer:
    """A running server; use it as a context manager so the thread and the port are released."""

    def __init__(self, model: Model | None = None, faults: Faults | None = None, host: str = "127.0.0.1", port: int = 0,
                 body_timeout: float = BODY_TIMEOUT):
        self.model, self.faults, self.body_timeout = model or OfflineModel(), faults or Faults(), body_timeout
        self.httpd = ThreadingHTTPServer((host, port), _handler_for(self))
        self.httpd.daemon_threads = True
        # serve_forever checks for shutdown() every poll_interval; its default, 0.5 s, was paid at every block's end
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> OfflineServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _handler_for(server: OfflineServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # else each reply's body waits ~40 ms for the client's delayed ACK

        def handle(self) -> None:
            try:
                super().handle()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client hung up (a timeout, a stream closed early): nothing left to answer

        def __getattr__(self, name: str):
            # http.server calls do_<METHOD>, and answers a method it has none for with an HTML 501: every method
            # goes to `_answer` instead, where `handle` answers what it does not serve with a JSON 405.
            if name.startswith("do_"):
                return self._answer
            raise AttributeError(name)

        def _answer(self) -> None:
            try:
                body = self._read_body()
            except ApiError as error:  # where this body ends is unknown: no further request can be read
                return self._send_error(error)
            time.sleep(server.faults.delay)
            fault = server.faults.next_failure()
            if fault:  # retry-after-ms keeps the SDK's retry quick; the real API sends the same header
                return self._send(fault.reply(("retry-after-ms", "50")))
            # HEAD is GET without the body (`_send` leaves it out), so clients probing the server get true headers.
            reply = handle(server.model, "GET" if self.command == "HEAD" else self.command, self.path, body)
            if isinstance(reply.chunks, bytes):
                time.sleep(server.faults.chunk_delay * reply.steps)
                return self._send(reply)
            self.send_response(reply.status)
            self.send_header("content-type", reply.content_type)
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            for chunk in reply.chunks:
                time.sleep(server.faults.chunk_delay)
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")

        def _read_body(self) -> bytes:
            """The body as Content-Length announces it, or the ApiError a client that sent something else gets."""
            if "transfer-encoding" in self.headers:
                raise ApiError(411, "Send the request body with a Content-Length header; this server does not read "
                                    "a Transfer-Encoding (chunked) body.")
            length = (self.headers.get("content-length") or "0").strip()
            if not _CONTENT_LENGTH.fullmatch(length):
                raise ApiError(400, f"Invalid Content-Length header {echo(length)!r}: it should be the body's size in "
                                    "bytes, a whole number such as 0 or 512.")
            if int(length) > MAX_BODY_BYTES:
                raise ApiError(413, f"The request body is {length} bytes; this server reads at most {MAX_BODY_BYTES}.")
            self.connection.settimeout(server.body_timeout)  # only while reading the body: idle connections may wait
            try:
                body = self.rfile.read(int(length))
            except TimeoutError:
                raise ApiError(408, f"The request body did not arrive: Content-Length announced {length} bytes and "
                                    f"nothing more came for {server.body_timeout:g} s.") from None
            finally:
                self.connection.settimeout(None)
            if len(body) < int(length):  # the client closed its side early
                raise ApiError(400, f"The request body has {len(body)} bytes, but Content-Length announced {length}.")
            return body

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            """http.server's own refusals (a malformed request line, headers too long) in the API's JSON, not HTML."""
            self._send_error(ApiError(code, message or HTTPStatus(code).phrase))

        def _send_error(self, error: ApiError) -> None:
            """An error after which the connection's bytes cannot be trusted: answered, then the connection closed."""
            self.close_connection = True
            self._send(error.reply(("connection", "close")))

        def _send(self, reply: HttpReply) -> None:
            assert isinstance(reply.chunks, bytes)  # a reply in one piece: a stream is written by `_answer`
            self.send_response(reply.status)
            for name, value in [("content-type", reply.content_type), ("content-length", str(len(reply.chunks))), *reply.headers]:
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(reply.chunks)

        def log_message(self, format: str, *args: object) -> None:
            pass  # a quiet server: the notebooks and tests print what matters themselves

    return Handler
