"""Which backend answers first (issue 20, item 4): each command in a fresh
process on each backend, its CPU seconds (user + system, from the child's
rusage: less sensitive to the machine's load than the wall clock) and its
wall seconds. The compiled kernels must be in numba's cache already (run any
native search of each game once first): a first compile costs more.

    python benchmarks/bench_backend_auto.py
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

COMMANDS = [
    ["solve", "tictactoe"],
    ["solve", "mnk(4,4,3)"],
    ["solve", "connect4(width=4,height=4)"],
    ["solve", "domineering(rows=4,cols=4)"],
    ["solve", "mnk(4,4,4)"],
    ["analyze", "connect4", "--depth", "4"],
    ["analyze", "connect4", "--depth", "8"],
    ["analyze", "connect4", "--depth", "10"],
]


def run(args: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "zerosum", *args, "--no-store", "--no-book"],
        check=True, capture_output=True, env=dict(os.environ),
    )  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'command':<45}{'python':>10}{'native':>10}{'auto':>10}  (CPU s; wall s)")
    for args in COMMANDS:
        cells = []
        for backend in ("python", "native", "auto"):
            cpu, wall = run([*args, "--backend", backend])
            cells.append(f"{cpu:.2f};{wall:.1f}")
        print(f"{' '.join(args):<45}" + "".join(f"{c:>10}" for c in cells))


if __name__ == "__main__":
    main()
