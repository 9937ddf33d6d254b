"""What bounded file tools save, measured side by side in one run.

1. read_file(limit=20) on a 1 GB text file, against reading the whole file: time and peak Python memory.
2. glob with max_results=50 on a tree of 100,000 files, against listing the whole tree.

Run: /work/venv/bin/python benchmarks/file_tools.py [--quick]   (about 30 s; files go to a temporary folder, deleted after)

--quick runs the same calls on a 1 MB file (offset 10,000) and a tree of 200 files in 2 folders, in well under a
second: figures too small to mean much, run by the test suite so the script keeps working when the package changes.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentkit.tools.file_reading import glob, read_file
from agentkit.tools.workspace import Workspace

GB = 1_000_000_000


def measure(action: Callable[[], Any]) -> tuple[float, int, Any]:
    """Seconds, peak bytes allocated by Python, and the result of one call."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        result = action()
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return seconds, peak, result


def best_time(action: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """The fastest of `repeat` runs: the least disturbed by the rest of the machine."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        runs.append(time.perf_counter() - start)
    return min(runs), result


def make_big_log(path: Path, size: int) -> int:
    block = "".join(f"{n:09d} INFO request served in 12 ms\n" for n in range(25_000)).encode()
    with open(path, "wb") as file:
        while file.tell() < size:
            file.write(block)
    return path.stat().st_size


def bench_read(root: Path, size: int, offset: int) -> None:
    size = make_big_log(root / "big.log", size)
    workspace = Workspace(root)
    print(f"read_file on a {size / GB:.2f} GB text file")
    rows = [
        ("read_file(limit=20)", lambda: read_file(workspace, "big.log", limit=20)),
        (f"read_file(offset={offset:_}, limit=20)", lambda: read_file(workspace, "big.log", offset=offset, limit=20)),
        ("Path.read_text() (all of it)", lambda: (root / "big.log").read_text()),
    ]
    figures = []
    for label, action in rows:
        seconds, peak, result = measure(action)
        figures.append((seconds, peak))
        del result
        print(f"  {label:<40} {seconds * 1000:10.1f} ms   peak {peak / 1e6:10.3f} MB")
    (limited_s, limited_peak), _, (whole_s, whole_peak) = figures
    print(f"  reading it all took {whole_s / limited_s:,.0f}x the time "
          f"and {whole_peak / limited_peak:,.0f}x the memory")
    print("  (an offset is reached by reading past the lines before it: its cost grows with the offset)")


def make_tree(root: Path, folders: int, files: int) -> int:
    for f in range(folders):
        folder = root / f"pkg{f:03d}"
        folder.mkdir()
        for n in range(files):
            os.close(os.open(folder / f"module{n:04d}.txt", os.O_CREAT | os.O_WRONLY, 0o644))
    return folders * files


def bench_glob(root: Path, folders: int, files: int) -> None:
    count = make_tree(root, folders, files)
    workspace = Workspace(root)
    print(f"\nglob '**/*.txt' on a tree of {count:,} files in {folders} folders (best of 3)")
    capped_s, capped = best_time(lambda: glob(workspace, "**/*.txt", max_results=50))
    whole_s, whole = best_time(lambda: list(workspace.glob("**/*.txt")))
    rglob_s, rglob = best_time(lambda: sorted(root.rglob("*.txt")))
    print(f"  {'glob(max_results=50)':<40} {capped_s * 1000:10.1f} ms   {len(capped.splitlines()) - 1:>7,} paths")
    print(f"  {'Workspace.glob, the whole tree':<40} {whole_s * 1000:10.1f} ms   {len(whole):>7,} paths")
    print(f"  {'sorted(Path.rglob) (stdlib, all)':<40} {rglob_s * 1000:10.1f} ms   {len(rglob):>7,} paths")
    print(f"  stopping at 50 is {whole_s / capped_s:,.0f}x faster than listing the whole tree")


def main() -> None:
    size, offset, folders, files = (1_000_000, 10_000, 2, 100) if "--quick" in sys.argv[1:] else (GB, 1_000_000, 100, 1_000)
    base = Path(tempfile.mkdtemp(prefix="bench-file-tools-"))
    try:
        (base / "read").mkdir()
        bench_read(base / "read", size, offset)
        (base / "read" / "big.log").unlink()
        (base / "tree").mkdir()
        bench_glob(base / "tree", folders, files)
    finally:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
