"""The README's and benchmarks/README.md's own commands, run as a user runs
them: the whole command in a subprocess, its wall time, and the positions it
reports, so a regression in what a user runs shows (issue 26, item 5: the
Domineering 8x8 figure was measured by another script asking another
question, and the command itself took over 600 s unnoticed).

Run from the repository root::

    python benchmarks/bench_readme_commands.py            # the quick ones
    python benchmarks/bench_readme_commands.py --slow     # also Domineering 8x8 (about a minute)
    python benchmarks/bench_readme_commands.py --repeat 3

Printed per command: the wall time of each run (load average beside it:
compare runs of one session as ratios), the positions the JSON result
reports, and the value. Exit status 1 if a command fails or its positions
exceed the recorded figure (the positions of a deterministic search are the
same on every machine; the times are not).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Command:
    """One command of the READMEs, with the positions recorded for it
    (None: not checked) and whether it is slow."""

    args: tuple[str, ...]
    positions: int | None
    slow: bool = False


COMMANDS = (
    Command(("solve", "tictactoe", "--moves", "0 1 2", "--json"), 190),
    Command(
        ("solve", "domineering(rows=7,cols=7,first=vertical)", "--weak", "--json",
         "--backend", "native"),
        373_090,
    ),
    Command(
        ("solve", "domineering(rows=7,cols=7,first=horizontal)", "--weak", "--json",
         "--backend", "native"),
        357_444,
    ),
    # benchmarks/README.md: 21.6 s and 21.3 s at load 1.5 with --hash 1024.
    Command(
        ("solve", "domineering(rows=8,cols=8,first=vertical)", "--weak", "--json",
         "--backend", "native", "--hash", "1024"),
        76_074_316,
        slow=True,
    ),
    Command(
        ("solve", "domineering(rows=8,cols=8,first=horizontal)", "--weak", "--json",
         "--backend", "native", "--hash", "1024"),
        72_497_055,
        slow=True,
    ),
)


def run(command: Command) -> tuple[float, dict[str, object] | None, str]:
    """Wall seconds, the last JSON object printed (None if none), stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "zerosum", *command.args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - started
    lines = done.stdout.strip().splitlines()
    result = json.loads(lines[-1]) if done.returncode == 0 and lines else None
    return seconds, result, done.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", action="store_true", help="also the slow commands")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command")
    args = parser.parse_args()
    failures = 0
    for command in COMMANDS:
        if command.slow and not args.slow:
            continue
        shown = "zerosum " + " ".join(
            f"'{a}'" if " " in a or "(" in a else a for a in command.args
        )
        print(shown, flush=True)
        for _ in range(args.repeat):
            load = os.getloadavg()[0]
            seconds, result, err = run(command)
            if result is None:
                print(f"  FAILED after {seconds:.1f} s: {err.strip()[-300:]}")
                failures += 1
                continue
            nodes = result.get("nodes")
            verdict = ""
            recorded = command.positions
            if recorded is not None and isinstance(nodes, int) and nodes > recorded:
                verdict = f"  MORE THAN THE RECORDED {recorded:,}"
                failures += 1
            print(
                f"  {seconds:8.2f} s wall (load {load:.1f}), {nodes:,} positions,"
                f" value {result.get('value')}{verdict}",
                flush=True,
            )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
