"""Two measurements of the agent loop, side by side in one run.

Run: python benchmarks/loop_overhead.py [--quick]

1. N slow tool calls in one reply: run concurrently (`answer_calls`, asyncio.gather) against one after
   another (`await executor.run(call)` in a for loop). Each call waits `SLOW` seconds, half of them on the
   event loop (`asyncio.sleep`), half on a thread (`time.sleep` on the tools' thread pool, as every
   blocking tool does), so the thread pool is exercised too.
2. What the loop itself costs per turn: `run_task` on the in-process offline model against the same
   requests sent with bare `client.chat.completions.create` calls. The tool does nothing, so the
   difference is the loop's own work: policy checks, the dispatcher, events, message bookkeeping.

--quick measures N=2 only and 3 tasks (about two seconds): too few to trust, run by the test suite so the script
keeps working when the package changes.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from types import SimpleNamespace

from agentkit.calls import ToolCall
from agentkit.hardening.threads import TOOL_THREADS
from agentkit.limits import Limits
from agentkit.loop import finish, run_task
from agentkit.offline import ScriptedModel, call, offline_client
from agentkit.policy import ToolExecutor, ToolPolicy
from agentkit.tool_calls import answer_calls
from agentkit.tools.registry import build_registry
from agentkit.tools.schema import tool

SLOW = 0.2
"""Seconds each slow call takes."""
REPEATS = 300
"""Tasks timed for the overhead measurement (the median is reported)."""


@tool
async def wait_on_loop(n: int) -> str:
    """Wait on the event loop.

    Args:
        n: Call number.
    """
    await asyncio.sleep(SLOW)
    return f"{n} waited"


@tool
def wait_on_thread(n: int) -> str:
    """Wait on a thread (a plain def: @tool runs it on the tools' thread pool).

    Args:
        n: Call number.
    """
    time.sleep(SLOW)
    return f"{n} waited"


@tool
def nothing(n: int) -> str:
    """Do nothing.

    Args:
        n: Anything.
    """
    return "ok"


def _calls(count: int) -> list[ToolCall]:
    """Tool calls: half on the loop, half on threads."""
    names = ["wait_on_loop", "wait_on_thread"]
    return [ToolCall.parse(f"call_{i}", names[i % 2], f'{{"n": {i}}}') for i in range(count)]


async def concurrent_vs_sequential(count: int) -> tuple[float, float]:
    registry = build_registry([wait_on_loop, wait_on_thread])
    policy = ToolPolicy(limits=Limits(max_tool_calls_per_turn=count, max_tool_calls_per_task=count))
    calls = _calls(count)
    start = time.perf_counter()
    messages = [{"role": "assistant", "content": None, "tool_calls": [call.as_message_part() for call in calls]}]
    _ = [event async for event in answer_calls(messages, ToolExecutor(registry, policy), calls)]
    together = [SimpleNamespace(content=m["content"]) for m in messages[1:]]
    concurrent = time.perf_counter() - start
    executor, start = ToolExecutor(registry, policy), time.perf_counter()
    one_by_one = [await executor.run(c) for c in calls]
    sequential = time.perf_counter() - start
    assert [r.content for r in together] == [r.content for r in one_by_one] == [f"{i} waited" for i in range(count)]
    return concurrent, sequential


def _replies() -> list:
    """One task: a reply with three tool calls, then an answer (two turns)."""
    return [[call("nothing", n=i) for i in range(3)], "done"]


async def loop_overhead(repeats: int) -> tuple[float, float]:
    """Median seconds per turn: inside `run_task`, and for the same requests sent bare."""
    registry = build_registry([nothing])
    loop_times, bare_times = [], []
    for _ in range(repeats):
        client = offline_client(ScriptedModel(_replies()))
        start = time.perf_counter()
        task = await finish(run_task(client, "offline", "go", registry, ask=None))
        loop_times.append((time.perf_counter() - start) / task.turns)
        # The same two requests the loop made, without the loop: send, and nothing else.
        bare = offline_client(ScriptedModel(_replies()))
        tools = [t.to_openai() for t in registry.values()]
        requests = [task.messages[:1], task.messages[:-1]]
        start = time.perf_counter()
        for messages in requests:
            await bare.chat.completions.create(model="offline", messages=messages, tools=tools)
        bare_times.append((time.perf_counter() - start) / len(requests))
    return statistics.median(loop_times), statistics.median(bare_times)


async def main() -> None:
    counts, repeats = ((2,), 3) if "--quick" in sys.argv[1:] else ((2, 4, 8, 16), REPEATS)
    await concurrent_vs_sequential(2)  # warm up: the first blocking call starts the thread pool
    print(f"1. N slow tool calls ({SLOW:.2f} s each), concurrent (asyncio.gather) vs sequential:")
    for count in counts:
        concurrent, sequential = await concurrent_vs_sequential(count)
        print(f"   N={count:>2}: concurrent {concurrent:6.3f} s, sequential {sequential:6.3f} s, "
              f"sequential/concurrent = {sequential / concurrent:5.1f}x")
    print(f"   (blocking tools share a pool of TOOL_THREADS = {TOOL_THREADS} threads; asyncio.to_thread's default "
          f"pool would have {min(32, (os.cpu_count() or 1) + 4)} here, and more blocking calls than that wait)")
    with_loop, bare = await loop_overhead(repeats)
    print(f"\n2. One turn on the in-process offline model (median of {repeats} tasks, 3 tool calls a task):")
    print(f"   bare client call:   {bare * 1e3:7.3f} ms per turn")
    print(f"   run_task:           {with_loop * 1e3:7.3f} ms per turn")
    print(f"   the loop's own work: {(with_loop - bare) * 1e3:6.3f} ms per turn "
          f"({with_loop / bare:.2f}x the bare call; a real model takes hundreds of ms a turn)")


if __name__ == "__main__":
    asyncio.run(main())
