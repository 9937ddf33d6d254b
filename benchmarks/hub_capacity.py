"""How many students one server holds: N students on a real JupyterHub, each running chapters 00-02 at the same time.

A local hub (agentkit.classroom.local_hub: its npm proxy, the dummy login, one server process a student) on this
machine; each student logs in through the hub, their server is started by it, and each runs 00, 01 and 02 in turn,
each notebook in a new kernel on their own server (as opening a notebook does), all students at once. Prints, for
each N, the time a notebook takes (mean and slowest, kernel start included) and its ratio to one student alone.

    python benchmarks/hub_capacity.py                 # N = 1, 2, 4, 8
    python benchmarks/hub_capacity.py --students 1 2 4 8 16
    python benchmarks/hub_capacity.py --students 1 --chapters 00_setup.ipynb   # quick: the test suite's run

Needs the hub extra and the proxy (`npm install -g configurable-http-proxy`). Bounded: every notebook has a time
limit, and the hub, its proxy and every server and kernel are stopped at the end (the hub lives in a temporary
folder that is removed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from agentkit.classroom.hub import log_in, run_notebook, start_server, upload
from agentkit.classroom.local_hub import LocalHub, missing_parts

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CHAPTERS = ["00_setup.ipynb", "01_manual_tool_calling.ipynb", "02_native_tool_calling.ipynb"]


async def one_student(student, chapters: list[str], timeout: float) -> list[float]:
    """Run the chapters one after the other; the seconds each took."""
    took = []
    for chapter in chapters:
        started = time.perf_counter()
        ran = await run_notebook(student, NOTEBOOKS / chapter, cwd="course", timeout=timeout)
        took.append(time.perf_counter() - started)
        errors = [cell.error for cell in ran if cell.error]
        if errors:
            raise RuntimeError(f"{student.name}'s {chapter} raised: {errors[0]}")
    return took


async def peak_memory(hub: LocalHub, peak: list[float]) -> None:
    """Sample the memory (RSS) of everything the hub started but its proxy, every half second; keep the peak in MB."""
    import psutil

    while True:
        total = 0
        for pid in hub.processes()[1:]:
            try:
                process = psutil.Process(pid)
                if "configurable-http-proxy" not in " ".join(process.cmdline()):
                    total += process.memory_info().rss
            except psutil.Error:
                pass
        peak[0] = max(peak[0], total / 2**20)
        await asyncio.sleep(0.5)


async def measure(hub: LocalHub, counts: list[int], chapters: list[str], timeout: float) -> None:
    url = hub.url
    names = [f"student{number:02d}" for number in range(1, max(counts) + 1)]
    started = time.perf_counter()
    students = await asyncio.gather(*(log_in(url, name, "class") for name in names))
    await asyncio.gather(*(start_server(student, timeout=300) for student in students))
    print(f"{len(students)} servers started through the hub in {time.perf_counter() - started:.1f} s "
          f"({os.cpu_count()} cores)")
    await asyncio.gather(*(upload(student, NOTEBOOKS / chapter, f"course/{chapter}")
                           for student in students for chapter in chapters))
    print(f"\n{'students':>8} | {'wall (s)':>8} | {'per notebook: mean (s)':>22} | {'slowest (s)':>11} | {'vs 1 student':>12}"
          f" | {'peak MB, all servers':>20}")
    print(f"{'-' * 8}-|-{'-' * 8}-|-{'-' * 22}-|-{'-' * 11}-|-{'-' * 12}-|-{'-' * 20}")
    alone = None
    for count in counts:
        peak = [0.0]
        sampler = asyncio.create_task(peak_memory(hub, peak))
        started = time.perf_counter()
        times = [seconds for each in await asyncio.gather(*(one_student(s, chapters, timeout) for s in students[:count]))
                 for seconds in each]
        wall, mean = time.perf_counter() - started, statistics.mean(times)
        sampler.cancel()
        alone = alone or mean
        print(f"{count:>8} | {wall:>8.1f} | {mean:>22.2f} | {max(times):>11.2f} | {mean / alone:>11.1f}x | {peak[0]:>20.0f}")
    print(f"\n(all {len(students)} servers stay up throughout; the memory column is theirs plus the running kernels)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, nargs="+", default=[1, 2, 4, 8], help="the class sizes (default: 1 2 4 8)")
    parser.add_argument("--chapters", nargs="+", default=CHAPTERS, help="the notebooks each student runs (default: 00-02)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds a cell may run (default: 300)")
    args = parser.parse_args()
    if (missing := missing_parts()) is not None:
        sys.exit(f"cannot start a local hub: {missing}")
    names = [f"student{number:02d}" for number in range(1, max(args.students) + 1)]
    with tempfile.TemporaryDirectory(prefix="hub-capacity-") as folder, LocalHub(Path(folder), names) as hub:
        asyncio.run(measure(hub, sorted(args.students), args.chapters, args.timeout))


if __name__ == "__main__":
    main()
