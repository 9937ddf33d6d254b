"""Reading a streamed reply (chapter 10): text as it comes, each tool call once it is whole.

With `stream=True` a reply arrives as chunks, each holding a `delta`: a few characters of text, or a
piece of a tool call. A tool call is spread over several deltas that share its `index`:

    {"tool_calls": [{"index": 0, "id": "call_1", "function": {"name": "get_weather", "arguments": ""}}]}
    {"tool_calls": [{"index": 0, "function": {"arguments": "{\\"ci"}}]}
    {"tool_calls": [{"index": 0, "function": {"arguments": "ty\\": \\"Paris\\"}"}}]}

So the assembler keys calls by `index` (two parallel calls may be interleaved), takes the id and the name
from the first delta that has them (later deltas usually carry neither), concatenates the argument
fragments (none of them is valid JSON alone) and parses them once, at the end (`ToolCall.parse`). The usage
comes in a last chunk with no choices, when the request asked for it with `stream_options={"include_usage": True}`.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from agentkit.calls import ToolCall
from agentkit.hardening.stream_chunks import checked_chunk


@dataclass(frozen=True)
class TextDelta:
    """A piece of the reply's text, to show at once (and the loop's event for it)."""

    text: str  # the new characters
    kind: ClassVar[str] = "text"


@dataclass
class StreamedReply:
    """The whole reply, once the stream has ended: the same message a non-streamed request returns."""

    content: str | None = None  # all the text, or None when the model wrote none
    tool_calls: list[ToolCall] = field(default_factory=list)  # the calls in `index` order, their arguments parsed
    finish_reason: str | None = None  # stop, tool_calls, length... from the chunk that ended the choice
    usage: dict[str, Any] | None = None  # token counts from the last chunk, when the request asked for them
    reasoning_content: str | None = None
    """Thinking some servers stream apart from the text (`reasoning_content` deltas); never shown as the answer."""
    chunks: int = 0  # how many chunks came: none means the body was no stream of events at all (an HTML page, say)

    def message(self) -> dict[str, Any]:
        """The assistant message, as `choices[0].message` of a non-streamed reply."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.reasoning_content:
            message["reasoning_content"] = self.reasoning_content
        if self.tool_calls:
            message["tool_calls"] = [call.as_message_part() for call in self.tool_calls]
        return message


class StreamAssembler:
    """Feed it chunks one at a time (`add`); it returns the text to show, and puts the tool calls together."""

    def __init__(self) -> None:
        self.reply = StreamedReply()
        self._calls: dict[int, dict[str, str]] = {}  # index -> its id, name and arguments so far
        self._text: list[str] = []

    def add(self, chunk: Any) -> str:
        """Take one chunk (the SDK's object or a plain dict); the text it adds, "" if none.

        Raises `UnusableChunk`, naming the field, if the chunk is not shaped as the protocol says.
        """
        self.reply.chunks += 1
        chunk = checked_chunk(chunk, self.reply.chunks)
        if chunk.get("usage"):
            self.reply.usage = chunk["usage"]
        text = ""
        for choice in chunk.get("choices") or []:
            if choice.get("index", 0) != 0:
                continue  # only the first choice is read, as in the non-streamed path
            delta = choice.get("delta") or {}
            if delta.get("content"):
                text += delta["content"]
            if delta.get("reasoning_content"):
                self.reply.reasoning_content = (self.reply.reasoning_content or "") + delta["reasoning_content"]
            for part in delta.get("tool_calls") or []:
                self._add_call_part(part)
            if choice.get("finish_reason"):
                self.reply.finish_reason = choice["finish_reason"]
        self._text.append(text)
        return text

    def _add_call_part(self, part: dict[str, Any]) -> None:
        index = part.get("index")
        if index is None:
            # A few providers leave `index` out and send each call whole: a new id is a new call, and a
            # part without an id continues the last one.
            index = len(self._calls) if part.get("id") or not self._calls else max(self._calls)
        call = self._calls.setdefault(index, {"id": "", "name": "", "raw_arguments": ""})
        function = part.get("function") or {}
        call["id"] = call["id"] or part.get("id") or ""
        call["name"] = call["name"] or function.get("name") or ""  # some providers repeat the name: it is not doubled
        call["raw_arguments"] += function.get("arguments") or ""

    def finish(self) -> StreamedReply:
        """The reply as it stands when the stream has ended."""
        text = "".join(self._text)
        self.reply.content = text or None
        self.reply.tool_calls = [ToolCall.parse(**self._calls[index]) for index in sorted(self._calls)]
        return self.reply


async def read_stream(chunks: AsyncIterable[Any]) -> AsyncIterator[TextDelta | ToolCall | StreamedReply]:
    """Text as it comes (`TextDelta`), then each tool call (`ToolCall`), then the `StreamedReply`.

    The calls come at the end: a provider may interleave two calls, so no call is surely whole before then.
    """
    assembler = StreamAssembler()
    async for chunk in chunks:
        text = assembler.add(chunk)
        if text:
            yield TextDelta(text)
    reply = assembler.finish()
    for call in reply.tool_calls:
        yield call
    yield reply
