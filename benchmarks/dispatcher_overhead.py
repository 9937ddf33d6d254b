"""What the dispatcher costs per call: `execute_tool` (parse + lookup + validation + wrap) vs awaiting the handler.

Run: python benchmarks/dispatcher_overhead.py [--quick]

--quick times each step once for about a millisecond instead of five times for 0.4 s (figures too short to trust;
the test suite runs it so the script keeps working when the package changes).

The handler does nothing, so the difference is all dispatcher. Set it against a model round trip
(hundreds of milliseconds) to judge whether validating every call is worth it.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable

from agentkit.calls import ToolCall
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.registry import build_registry

SMALL_SCHEMA = {
    "type": "object",
    "properties": {"timezone": {"type": "string"}},
    "required": ["timezone"],
    "additionalProperties": False,
}
SMALL_ARGUMENTS = {"timezone": "Europe/Paris"}

ITEM = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "price": {"type": "number"},
                   "tags": {"type": "array", "items": {"type": "string"}}},
    "required": ["id", "name", "price"],
    "additionalProperties": False,
}
LARGE_SCHEMA = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": ITEM}, "note": {"type": "string"}},
    "required": ["items"],
    "additionalProperties": False,
}
LARGE_ARGUMENTS = {
    "items": [{"id": i, "name": f"item {i}", "price": i * 1.25, "tags": ["a", "b"]} for i in range(200)],
    "note": "x" * 2_000,
}


async def nothing(arguments: dict) -> str:
    return "ok"


async def per_call(step: Callable[[], Awaitable[object]], budget: float = 0.4, repeats: int = 5) -> float:
    """Best seconds per call over `repeats` runs of about `budget` seconds each."""
    calls = 1
    while True:  # find a count that takes about `budget`, so the clock's resolution does not matter
        start = time.perf_counter()
        for _ in range(calls):
            await step()
        if time.perf_counter() - start > budget / 10:
            break
        calls *= 2
    calls *= 10
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            await step()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


async def measure(label: str, schema: dict, arguments: dict, budget: float = 0.4, repeats: int = 5) -> None:
    registry = build_registry([ToolDefinition("bench", "A benchmark tool.", schema, nothing)])
    raw = json.dumps(arguments)

    async def direct() -> object:
        return await nothing(arguments)

    async def dispatched() -> object:
        return await execute_tool(registry, ToolCall.parse("call_bench", "bench", raw))

    async def parse_only() -> object:
        return json.loads(raw)

    async def validate_only() -> object:
        return registry["bench"].validator.check(arguments)  # built once, at registration

    timings = {name: await per_call(step, budget, repeats) for name, step in
               [("direct", direct), ("dispatched", dispatched), ("parse", parse_only), ("validate", validate_only)]}
    overhead = timings["dispatched"] - timings["direct"]
    print(f"{label} arguments ({len(raw):,} characters of JSON):")
    print(f"  handler awaited directly  {timings['direct'] * 1e6:9.2f} µs per call")
    print(f"  through execute_tool     {timings['dispatched'] * 1e6:9.2f} µs per call "
          f"({timings['dispatched'] / timings['direct']:.0f}x direct; overhead {overhead * 1e6:.2f} µs)")
    print(f"    of which json.loads     {timings['parse'] * 1e6:9.2f} µs")
    print(f"    of which validation     {timings['validate'] * 1e6:9.2f} µs")
    print(f"  overhead as a share of a 500 ms model round trip (assumed, not measured): {overhead / 0.5 * 100:.4f} %")


async def main() -> None:
    budget, repeats = (0.001, 1) if "--quick" in sys.argv[1:] else (0.4, 5)
    await measure("Small", SMALL_SCHEMA, SMALL_ARGUMENTS, budget, repeats)
    await measure("Large", LARGE_SCHEMA, LARGE_ARGUMENTS, budget, repeats)


if __name__ == "__main__":
    asyncio.run(main())
