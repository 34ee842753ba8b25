"""Time the command a user runs on a batch of positions: ``zerosum solve
connect4 --batch --json --backend native``, a new process, the positions on
its standard input, the whole command's wall, user and system time.

Run from the repository root::

    python benchmarks/bench_batch.py                      # 150 of L2_R1 + 150 of L2_R2
    python benchmarks/bench_batch.py --hash 8 --runs 3
    python benchmarks/bench_batch.py --sets L1_R1 --per-set 100
    python benchmarks/bench_batch.py --src /some/checkout/src   # another tree, same input

This is what issue 26 measured (300 middle-game positions: 4.89 s wall of
which 1.54 s system time, when every position set up a new 64 MB table);
the per-position ``time_s`` that ``bench_connect4.py`` reports leaves out
everything around the search (start-up, the table, reading and writing), so
it cannot show such a cost. ``--reference 'COMMAND'`` times another command
on the same input (e.g. a C++ solver built outside the repository), for a
ratio on the same machine at the same load.

The positions are the first ``--per-set`` lines of each set in
``../shared/data/connect4`` (third-party data, not part of the repository).
Every score is checked against the set's; node counts are summed, so two
trees can be compared for identical searches. Exit status 1 if a score is
wrong or the command fails.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import zerosum
from zerosum.datasets import connect4_score, read_connect4_set

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "connect4"


def _children_times() -> tuple[float, float]:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime, usage.ru_stime


def timed(command: list[str], text: str, env: dict[str, str]) -> tuple[str, float, float, float]:
    """Run ``command`` with ``text`` on its standard input: its output, and
    its wall, user and system seconds."""
    user0, system0 = _children_times()
    started = time.perf_counter()
    done = subprocess.run(command, input=text, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    user1, system1 = _children_times()
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-400:]}")
    return done.stdout, wall, user1 - user0, system1 - system0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="L2_R1,L2_R2", help="comma-separated set names")
    parser.add_argument("--per-set", type=int, default=150, help="positions from each set")
    parser.add_argument("--hash", type=float, default=None, help="the table's megabytes")
    parser.add_argument("--runs", type=int, default=2, help="timed runs (after one warm-up)")
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree to run")
    parser.add_argument("--reference", default=None, help="another command, same input")
    parser.add_argument("--data", default=str(DATA))
    args = parser.parse_args()

    game = zerosum.load("connect4")
    positions: list[tuple[str, int]] = []
    for name in args.sets.split(","):
        positions += read_connect4_set(Path(args.data) / f"Test_{name}", args.per_set)
    text = "".join(f"{moves}\n" for moves, _score in positions)
    command = [sys.executable, "-m", "zerosum", "solve", "connect4", "--batch", "--json"]
    command += ["--backend", "native"]
    if args.hash is not None:
        command += ["--hash", str(args.hash)]
    env = {**os.environ, "PYTHONPATH": args.src}
    print(f"{len(positions)} positions ({args.sets}), {' '.join(command[1:])}")
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    timed(command, text[: text.index("\n") + 1], env)  # compiles or loads the cache
    wrong = 0
    for run in range(args.runs):
        out, wall, user, system = timed(command, text, env)
        results = [json.loads(line) for line in out.splitlines()]
        nodes = sum(result["nodes"] for result in results)
        for (moves, expected), result in zip(positions, results, strict=True):
            state = game.parse_position(moves)
            if connect4_score(game, state, result["score"]) != expected:
                wrong += 1
        print(
            f"run {run + 1}: wall {wall:.2f} s, user {user:.2f} s, system {system:.2f} s, "
            f"{nodes:,} positions, {wrong} wrong (load {os.getloadavg()[0]:.1f})"
        )
        if args.reference:
            _out, wall, user, system = timed(["sh", "-c", args.reference], text, dict(os.environ))
            print(f"  reference: wall {wall:.2f} s, user {user:.2f} s, system {system:.2f} s")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
