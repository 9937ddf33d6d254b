"""The offline model as a real OpenAI-compatible HTTP server on 127.0.0.1, with faults on request.

`agentkit serve` (or `python -m agentkit.offline`) starts it; any OpenAI client, or curl, can then use
`http://127.0.0.1:PORT/v1` as its base URL. Faults make the reliability paths testable: the first
`times` requests fail with `status` (429 or 500), and every reply can be slowed by `delay` seconds.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from agentkit.offline.model import OfflineModel
from agentkit.offline.protocol import ApiError, Model, handle


@dataclass
class Faults:
    """Failures to inject, in order: the first `times` requests get `status`; -1 means every request."""

    status: int | None = None
    """HTTP status to answer with: 429 (rate limited) or 500 (server error), say."""
    times: int = 0
    """How many requests fail before the server answers normally; -1 for all of them."""
    delay: float = 0.0
    """Seconds to wait before every reply, to exercise client timeouts."""
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

    def __init__(self, model: Model | None = None, faults: Faults | None = None, host: str = "127.0.0.1", port: int = 0):
        self.model, self.faults = model or OfflineModel(), faults or Faults()
        self.httpd = ThreadingHTTPServer((host, port), _handler_for(self))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

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

        def do_GET(self) -> None:
            self._answer(b"")

        def do_POST(self) -> None:
            self._answer(self.rfile.read(int(self.headers.get("content-length") or 0)))

        def _answer(self, body: bytes) -> None:
            time.sleep(server.faults.delay)
            fault = server.faults.next_failure()
            if fault:
                # retry-after-ms keeps the SDK's retry quick; the real API sends the same header.
                return self._send(fault.status, "application/json", fault.body(), [("retry-after-ms", "50")])
            reply = handle(server.model, self.command, self.path, body)
            if isinstance(reply.chunks, bytes):
                return self._send(reply.status, reply.content_type, reply.chunks, [])
            self.send_response(reply.status)
            self.send_header("content-type", reply.content_type)
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            for chunk in reply.chunks:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")

        def _send(self, status: int, content_type: str, content: bytes, headers: list[tuple[str, str]]) -> None:
            self.send_response(status)
            for name, value in [("content-type", content_type), ("content-length", str(len(content))), *headers]:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(content)

        def log_message(self, format: str, *args: object) -> None:
            pass  # a quiet server: the notebooks and tests print what matters themselves

    return Handler
