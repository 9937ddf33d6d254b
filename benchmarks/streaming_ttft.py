"""Time to first token: the agent loop streaming vs not, on the offline server writing each chunk in CHUNK_DELAY s.

Run: PYTHONPATH=. /work/main/.venv/bin/python benchmarks/streaming_ttft.py [CHUNK_DELAY] [N]

The server paces the model as a real one writes tokens (`agentkit serve --chunk-delay`): a streamed reply sends
each chunk when it is written, a plain one only when all are. The time to first token is when the person first
sees words of the answer: the first `text` event with `stream=True`, the `answer` event without. Both are
measured from the start of `run_task` on a question with a plain answer (one model request), N times each, and
the ratio of the medians is what streaming buys.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

import openai

from agentkit.loop import finish, run_task
from agentkit.offline import Faults, OfflineServer

QUESTION = "Who are you?"


async def first_words(client: openai.AsyncOpenAI, stream: bool) -> float:
    started, seen = time.perf_counter(), []

    def on_event(event) -> None:
        if event.kind in ("text", "answer") and not seen:
            seen.append(time.perf_counter() - started)

    await finish(run_task(client, "offline", QUESTION, {}, stream=stream), on_event=on_event)
    return seen[0]


async def main(chunk_delay: float, runs: int) -> None:
    with OfflineServer(faults=Faults(chunk_delay=chunk_delay)) as server:
        client = openai.AsyncOpenAI(api_key="offline", base_url=server.base_url, max_retries=0)
        plain = [await first_words(client, False) for _ in range(runs)]
        streamed = [await first_words(client, True) for _ in range(runs)]
    plain_ms, streamed_ms = statistics.median(plain) * 1000, statistics.median(streamed) * 1000
    print(f"chunk delay {chunk_delay * 1000:.0f} ms, {runs} runs each, median time to first token:")
    print(f"  without streaming: {plain_ms:8.1f} ms")
    print(f"  with streaming:    {streamed_ms:8.1f} ms")
    print(f"  ratio: {plain_ms / streamed_ms:.1f}x sooner with streaming")


if __name__ == "__main__":
    asyncio.run(main(float(sys.argv[1]) if len(sys.argv) > 1 else 0.02, int(sys.argv[2]) if len(sys.argv) > 2 else 5))
