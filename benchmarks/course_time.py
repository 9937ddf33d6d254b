"""How long the course takes offline: per notebook executed, per notebook under nbval, and the whole test command.

Prints, for each notebook: the wall time to execute it (nbclient, as `agentkit refresh` does, without
writing), the time nbval takes on it (a pytest subprocess, one process), and the share of that which is kernel
start-up. Then the whole course under nbval in one pytest process, as a ratio to its floor: one kernel start-up
a notebook; and as a ratio to what no notebook that talks to a model can go below: a kernel start-up and
`import openai` in it. With --full it also times the whole README test command once (on every core).

    .venv/bin/python benchmarks/course_time.py [--full]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import nbformat
from jupyter_client.manager import start_new_kernel

from agentkit.classroom import execute, offline_environment

ROOT = Path(__file__).resolve().parent.parent


def kernel_start_seconds(runs: int = 3, then_run: str = "") -> float:
    """Median seconds to start a kernel (and, if given, run `then_run` in it)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        manager, client = start_new_kernel(kernel_name="python3")
        if then_run:
            client.execute_interactive(then_run, timeout=60)
        times.append(time.perf_counter() - start)
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    return statistics.median(times)


def execute_seconds(path: Path) -> float:
    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    execute(notebook, path.parent)
    return time.perf_counter() - start


def command_seconds(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pytest", "-q", *args], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    with offline_environment():
        startup = kernel_start_seconds()
        with_sdk = kernel_start_seconds(then_run="import openai")
        print(f"kernel start-up (median of 3): {startup:.2f} s; with import openai: {with_sdk:.2f} s\n")
        print(f"{'notebook':34} {'execute':>9} {'nbval':>9} {'start-up share':>15}")
        total_exec = total_nbval = 0.0
        notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
        for path in notebooks:
            executed, nbval = execute_seconds(path), command_seconds("-n", "0", f"notebooks/{path.name}")
            total_exec, total_nbval = total_exec + executed, total_nbval + nbval
            print(f"{path.name:34} {executed:8.2f}s {nbval:8.2f}s {startup / executed:14.0%}")
        print(f"{'all ' + str(len(notebooks)) + ' notebooks':34} {total_exec:8.2f}s {total_nbval:8.2f}s "
              f"{startup * len(notebooks) / total_exec:14.0%}")
        course = command_seconds("-n", "0", "notebooks/")
        floor = startup * len(notebooks)
        print(f"\nthe course under nbval, one process: {course:.1f} s; floor ({len(notebooks)} kernel start-ups): "
              f"{floor:.1f} s; ratio {course / floor:.1f}x")
        sdk_floor = with_sdk * len(notebooks)
        print(f"floor with the SDK each notebook imports ({len(notebooks)} x start-up + import openai): {sdk_floor:.1f} s, "
              f"{sdk_floor / floor:.1f}x the kernel floor; the course is {course / sdk_floor:.1f}x this one")
        if "--full" in sys.argv:
            print(f"\nwhole test command (python -m pytest): {command_seconds():.1f} s")


if __name__ == "__main__":
    main()
