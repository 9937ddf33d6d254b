"""The class's model relay: students use the teacher's provider through the hub, and the class key never reaches them.

The hub runs this as a managed service (class_config.py). It is the only process that holds the key, under the
hub's account; a student's server and kernel hold only that student's own hub token, which this relay accepts in
place of a provider key (the openai client sends it as `Authorization: Bearer ...`). Each request is checked with
the hub (is this a logged-in user allowed to use the relay?), limited per student, and forwarded with the class
key; answers, streamed ones too, come back as they arrive. Only the model endpoints are relayed.
Needs nothing beyond JupyterHub itself (tornado), so it runs in any hub's environment or image.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections import defaultdict, deque

from jupyterhub.services.auth import HubAuthenticated
from tornado import httpclient, ioloop, web

UPSTREAM = os.environ["RELAY_UPSTREAM"].rstrip("/")  # the provider's BASE_URL, e.g. https://api.openai.com/v1
KEY = os.environ["RELAY_API_KEY"]  # the class key: in this process's environment only
PER_MINUTE = int(os.environ.get("RELAY_REQUESTS_PER_MINUTE", "20"))
RELAYED = ("chat/completions", "models", "responses")
"""The provider's endpoints a student may reach; anything else (files, fine-tuning, keys) is refused."""


class Relay(HubAuthenticated, web.RequestHandler):
    recent: dict[str, deque[float]] = defaultdict(deque)  # request times of each student in the last minute

    def check_xsrf_cookie(self) -> None:  # token-authenticated API calls, never a browser form
        pass

    def refuse(self, status: int, message: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": {"message": message, "type": "relay_error"}}))

    @web.authenticated
    async def get(self, path: str) -> None:
        await self.relay(path)

    @web.authenticated
    async def post(self, path: str) -> None:
        await self.relay(path)

    async def relay(self, path: str) -> None:
        if path.strip("/") not in RELAYED:
            return self.refuse(404, f"the class relay does not forward /{path}: should be one of {', '.join(RELAYED)}")
        name, now = self.current_user["name"], time.monotonic()
        times = self.recent[name]
        while times and now - times[0] > 60:
            times.popleft()
        if len(times) >= PER_MINUTE:
            return self.refuse(429, f"{name}: more than {PER_MINUTE} requests in a minute; wait a little")
        times.append(now)
        logging.info("%s: %s /%s", name, self.request.method, path)  # who spent the key, for the teacher
        started = []

        def headers(line: str) -> None:
            if line.startswith("HTTP/"):
                started.append(int(line.split()[1]))
            elif line.lower().startswith("content-type:"):
                self.set_header("Content-Type", line.split(":", 1)[1].strip())

        def chunk(data: bytes) -> None:  # streamed answers go on as they come
            if started:
                self.set_status(started[-1])
            self.write(data)
            self.flush()

        request = httpclient.HTTPRequest(
            f"{UPSTREAM}/{path}", method=self.request.method, body=self.request.body or None,
            headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"},
            header_callback=headers, streaming_callback=chunk, request_timeout=300, allow_nonstandard_methods=True)
        try:
            answer = await httpclient.AsyncHTTPClient().fetch(request, raise_error=False)
        except OSError as error:
            return self.refuse(502, f"the provider could not be reached: {error}")
        if not self._headers_written:
            self.set_status(answer.code)
        self.finish()


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s model-relay %(message)s")
    prefix = os.environ["JUPYTERHUB_SERVICE_PREFIX"]  # /services/<name>/, given by the hub
    port = int(os.environ["JUPYTERHUB_SERVICE_URL"].rsplit(":", 1)[1].strip("/"))
    app = web.Application([(rf"{prefix}v1/(.*)", Relay)], cookie_secret=os.urandom(32))
    app.listen(port, "127.0.0.1" if os.environ.get("RELAY_LOCAL_ONLY", "1") == "1" else "")
    ioloop.IOLoop.current().start()


if __name__ == "__main__":
    main()
