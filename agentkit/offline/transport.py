"""The in-process path: the real openai client, with the offline model behind its HTTP transport."""

from __future__ import annotations

import re

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
        rename = getattr(model, "rename_id", None)
        if rename:  # a variant that writes tool-call ids in another provider's format
            content = _rename_ids(content, rename)
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


def _rename_ids(content: bytes, rename) -> bytes:
    """Every tool-call id in a response (JSON or SSE), renamed; the same old id gets the same new one."""
    found = list(dict.fromkeys(re.findall(rb'"id": "(call_[0-9A-Za-z]+)"', content)))
    for index, old in enumerate(found):
        content = content.replace(b'"' + old + b'"', b'"' + rename(old.decode(), index).encode() + b'"')
    return content
