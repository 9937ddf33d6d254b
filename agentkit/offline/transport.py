"""The in-process path: the real openai client, with the offline model behind its HTTP transport."""

from __future__ import annotations

import httpx2
import openai

from agentkit.offline.model import OfflineModel
from agentkit.offline.protocol import Model, handle

OFFLINE_BASE_URL = "http://offline.invalid/v1"
"""Requests never leave the process; `.invalid` is a name that cannot resolve, should anything try."""


def offline_transport(model: Model | None = None) -> httpx2.MockTransport:
    """An httpx2 transport that answers every request from `model` (the offline model by default)."""
    model = model or OfflineModel()

    def answer(request: httpx2.Request) -> httpx2.Response:
        reply = handle(model, request.method, request.url.path, request.content)
        content = reply.chunks if isinstance(reply.chunks, bytes) else b"".join(reply.chunks)
        return httpx2.Response(reply.status, content=content, headers={"content-type": reply.content_type})

    return httpx2.MockTransport(answer)


def offline_client(model: Model | None = None, *, sync: bool = False, max_retries: int = 0) -> openai.AsyncOpenAI | openai.OpenAI:
    """An `AsyncOpenAI` (or, with `sync=True`, an `OpenAI`) client whose model is `model`, in this process."""
    transport = offline_transport(model)
    if sync:
        return openai.OpenAI(api_key="offline", base_url=OFFLINE_BASE_URL, max_retries=max_retries,
                             http_client=httpx2.Client(transport=transport))
    return openai.AsyncOpenAI(api_key="offline", base_url=OFFLINE_BASE_URL, max_retries=max_retries,
                              http_client=httpx2.AsyncClient(transport=transport))

