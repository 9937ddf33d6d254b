"""The in-process path: the real openai client, with the offline model behind its HTTP transport."""

from __future__ import annotations

import dataclasses

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
    client, http_client = (openai.OpenAI, httpx2.Client) if sync else (openai.AsyncOpenAI, httpx2.AsyncClient)
    return client(api_key="offline", base_url=OFFLINE_BASE_URL, max_retries=max_retries,
                  http_client=http_client(transport=offline_transport(model)))


def connect_offline(*, unruly: str | None = None, gullible: bool = False, variant: str | None = None,
                    recover: bool = True, max_retries: int = 2) -> openai.AsyncOpenAI:
    """The offline model as `agentkit.connect()` gives it, with the teaching switches a lesson turns on. `unruly` (a
    mistake from `agentkit.offline.MISTAKES`) makes it an offline model that makes that mistake; `gullible=True` one
    that obeys a command found in a tool result (prompt injection); `variant` (a name in `agentkit.offline.VARIANTS`,
    MODEL=offline/<variant> in .env) gives it another real model's habit. A real model's mistakes cannot be switched on,
    so these exist only here. `recover` makes it a `RecoveringClient` (calls read back from text), as `connect()` does
    for every server but OpenAI's own API."""
    from agentkit.offline.variants import variant as named_variant
    from agentkit.recovery import RecoveringClient

    model: Model = OfflineModel(unruly=unruly, gullible=gullible)
    if variant:
        model = dataclasses.replace(named_variant(variant), base=model)
    if not recover:
        return offline_client(model, max_retries=max_retries)
    return RecoveringClient(api_key="offline", base_url=OFFLINE_BASE_URL, max_retries=max_retries,
                            transport=offline_transport(model))
