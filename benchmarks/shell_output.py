"""A command that prints 1 GB: peak memory of the process running it, bash tool against a naive capture.

Each way runs in a fresh Python process, so that its peak resident memory (ru_maxrss) is its own.

Run: /work/venv/bin/python benchmarks/shell_output.py [--quick]   (about 15 s)

--quick prints 1 MB instead of 1 GB (about a second; the peaks then say little): run by the test suite so the
script keeps working when the package changes.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time

GB = 1_000_000_000


def command(size: int) -> str:
    """A shell command that prints `size` bytes (x, with no newline)."""
    return f"head -c {size} /dev/zero | tr '\\0' x"


BASELINE = """
import resource
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, 0)
"""

BASH_TOOL = """
import resource, sys, tempfile
from agentkit.tools.shell import run_command
result = run_command(sys.argv[1], tempfile.gettempdir(), timeout=120, keep=4000)
assert result.exit_code == 0, result.for_model(500)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, result.stdout.total)
"""

NAIVE = """
import resource, subprocess, sys
completed = subprocess.run(["bash", "-c", sys.argv[1]], capture_output=True)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, len(completed.stdout))
"""


def peak_of(script: str, shell: str) -> tuple[int, int, float]:
    start = time.perf_counter()
    output = subprocess.run([sys.executable, "-c", script, shell], capture_output=True, text=True, check=True,
                            cwd=tempfile.gettempdir()).stdout
    peak, size = map(int, output.split())
    return peak, size, time.perf_counter() - start


def main() -> None:
    shell = command(1_000_000 if "--quick" in sys.argv[1:] else GB)
    print(f"command: {shell}")
    rows = [("python, nothing run (baseline)", BASELINE), ("bash tool (run_command, head+tail)", BASH_TOOL),
            ("subprocess.run(capture_output=True)", NAIVE)]
    peaks = {}
    for label, script in rows:
        peak, size, seconds = peak_of(script, shell)
        peaks[label] = peak
        print(f"  {label:<38} peak RSS {peak / 1e6:9.1f} MB   output read {size / GB:.2f} GB   {seconds:6.2f} s")
    baseline = peaks[rows[0][0]]
    tool, naive = peaks[rows[1][0]] - baseline, peaks[rows[2][0]] - baseline
    print(f"  above the baseline: bash tool {tool / 1e6:.1f} MB, naive capture {naive / 1e6:.1f} MB "
          f"({naive / max(tool, 1):,.0f}x more)")


if __name__ == "__main__":
    main()
