"""A Response object (`/v1/responses`) as the server-sent events a real server streams, piece by piece.

created, in_progress, then each output item: its text (or refusal) in deltas, a function call's arguments in
deltas, each item done; then completed (or incomplete). The openai SDK's `responses.stream` rebuilds the same
Response from them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from agentkit.offline.protocol import _pieces


def response_events(response: dict[str, Any]) -> Iterator[bytes]:
    """The response as the events a real server streams: created, each item piece by piece, completed."""
    numbered = _numbered()
    pending = response | {"status": "in_progress", "output": []}
    yield numbered("response.created", response=pending)
    yield numbered("response.in_progress", response=pending)
    for index, item in enumerate(response["output"]):
        at = {"output_index": index}
        if item["type"] == "message":
            whole = item["content"][0]  # output_text, or a refusal: streamed alike, under their own names
            field, kind = ("text", "output_text") if whole["type"] == "output_text" else ("refusal", "refusal")
            extra = {"logprobs": []} if field == "text" else {}
            part = {"item_id": item["id"], "content_index": 0} | at
            yield numbered("response.output_item.added", item=item | {"status": "in_progress", "content": []}, **at)
            yield numbered("response.content_part.added", part=whole | {field: ""}, **part)
            for piece in _pieces(whole[field]):
                yield numbered(f"response.{kind}.delta", delta=piece, **extra, **part)
            yield numbered(f"response.{kind}.done", **{field: whole[field]}, **extra, **part)
            yield numbered("response.content_part.done", part=whole, **part)
        else:
            yield numbered("response.output_item.added", item=item | {"status": "in_progress", "arguments": ""}, **at)
            for piece in _pieces(item["arguments"], size=8):
                yield numbered("response.function_call_arguments.delta", item_id=item["id"], delta=piece, **at)
            yield numbered("response.function_call_arguments.done", item_id=item["id"], name=item["name"],
                           arguments=item["arguments"], **at)
        yield numbered("response.output_item.done", item=item, **at)
    yield numbered("response.completed" if response["status"] == "completed" else "response.incomplete",
                   response=response)


def _numbered():
    count = iter(range(1_000_000))

    def event(kind: str, **fields: Any) -> bytes:
        data = {"type": kind, "sequence_number": next(count)} | fields
        return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()

    return event
