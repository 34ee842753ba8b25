"""One native search on 1 and 2 (or more) threads: wall time and positions.

Run from the repository root (needs the ``fast`` extra: numba)::

    python benchmarks/bench_threads.py                       # all three sets
    python benchmarks/bench_threads.py --set domineering --domineering 7
    python benchmarks/bench_threads.py --set connect4 --n 10 --threads 1,2,4

The sets (each position solved by a fresh engine: a cleared table):

* ``domineering``: the empty ``--domineering`` x same board (8: published, the
  first player wins), a strong solve;
* ``connect4``: ``--n`` positions of ``Test_L1_R3`` (every
  ``len / n``-th line of ``../shared/data/connect4/Test_L1_R3``), a strong
  solve, checked against the file's scores;
* ``othello``: the FFO problems with ``--empties`` empty squares
  (``../shared/data/othello/fforum-*.obf``), a weak solve (win, draw or
  loss), checked against the sign of the file's scores.

Also prints the user CPU time of all threads, and from it the speed-up
that threads which never waited would give (one thread's CPU time times
the threads, over theirs): on a loaded machine the wall time measures the
scheduler more than the search.

Each thread count runs ``--rounds`` times, alternating (1, 2, 1, 2, ...), so
a change of the machine's load falls on both. Prints the load average
before each run, the wall time and the positions summed over the threads,
and the speed-up of each thread count's best time over one thread's best.
Values must agree across thread counts (exit status 1 otherwise).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

import zerosum
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import solve

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"


def domineering_set(size: int) -> tuple[Any, list[tuple[Any, int | None]]]:
    game = zerosum.load(f"domineering(rows={size},cols={size})")
    return game, [(game.initial_state(), None)]


def connect4_set(n: int) -> tuple[Any, list[tuple[Any, int | None]]]:
    game = zerosum.load("connect4")
    lines = (DATA / "connect4" / "Test_L1_R3").read_text().split("\n")
    lines = [line for line in lines if line.strip()]
    step = max(1, len(lines) // n)
    out: list[tuple[Any, int | None]] = []
    for line in lines[::step][:n]:
        moves, score = line.split()
        out.append((game.parse_position(moves), int(score)))
    return game, out


def othello_set(empties: int, n: int) -> tuple[Any, list[tuple[Any, int | None]]]:
    game = zerosum.load("othello")
    out: list[tuple[Any, int | None]] = []
    for path in sorted((DATA / "othello").glob("fforum-*.obf")):
        for line in path.read_text().split("\n"):
            if not line.strip():
                continue
            board = line.split(";")[0]
            if board.split()[0].count("-") != empties:
                continue
            score = int(line.split(";")[1].split(":")[1])
            out.append((game.parse_position(board), score))
    return game, out[:n]


def run(
    game: Any, positions: list[tuple[Any, int | None]], threads: int, weak: bool, hash_mb: float
) -> tuple[float, float, int, list[Any]]:
    """Solve every position with ``threads``: seconds, CPU seconds (user, all
    threads), positions, values."""
    nodes = 0
    values = []
    cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    started = time.perf_counter()
    for state, _known in positions:
        engine = Engine(game, EngineOptions(threads=threads, backend="native", hash_mb=hash_mb))
        result = solve(game, state, engine=engine, weak=weak)
        nodes += result.stats.nodes
        values.append((result.score.raw if not weak else result.score.outcome, result.best_moves))
        engine.close()
    cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime - cpu
    return time.perf_counter() - started, cpu, nodes, values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--set", default="all", choices=("all", "domineering", "connect4", "othello")
    )
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--domineering", type=int, default=8)
    parser.add_argument("--n", type=int, default=10, help="Connect Four positions")
    parser.add_argument("--empties", type=int, default=20)
    parser.add_argument("--othello-n", type=int, default=4)
    parser.add_argument("--hash", type=float, default=64.0)
    args = parser.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    sets = []
    if args.set in ("all", "domineering"):
        sets.append((f"domineering {args.domineering}x{args.domineering}",
                     *domineering_set(args.domineering), False))
    if args.set in ("all", "connect4"):
        sets.append((f"connect4 Test_L1_R3 x{args.n}", *connect4_set(args.n), False))
    if args.set in ("all", "othello"):
        game, positions = othello_set(args.empties, args.othello_n)
        name = f"othello FFO {args.empties} empties x{len(positions)}"
        sets.append((name, game, positions, True))
    status = 0
    for name, game, positions, weak in sets:
        print(f"== {name}", flush=True)
        best: dict[int, float] = {}
        least_cpu: dict[int, float] = {}
        values: dict[int, list[Any]] = {}
        for _round in range(args.rounds):
            for threads in counts:
                load = os.getloadavg()[0]
                seconds, cpu, nodes, found = run(game, positions, threads, weak, args.hash)
                best[threads] = min(best.get(threads, seconds), seconds)
                least_cpu[threads] = min(least_cpu.get(threads, cpu), cpu)
                values.setdefault(threads, found)
                print(
                    f"threads {threads}: {seconds:8.2f} s  cpu {cpu:8.2f} s  {nodes:>13,} "
                    f"positions  {nodes / seconds:>12,.0f}/s  load {load:.2f}",
                    flush=True,
                )
        for threads in counts:
            if values[threads] != values[counts[0]]:
                print(f"DISAGREE: {threads} threads", values[threads], values[counts[0]])
                status = 1
        for state_value, (_state, known) in zip(values[counts[0]], positions, strict=True):
            if known is not None:
                got = state_value[0]
                sign = (known > 0) - (known < 0)
                if (weak and got != sign) or (not weak and (got > 0) - (got < 0) != sign):
                    print("WRONG against the file:", state_value, known)
                    status = 1
        base = best[counts[0]]
        print("speed-up (best times): " + ", ".join(
            f"{t} threads {base / best[t]:.2f}x" for t in counts), flush=True)
        # Under load the wall time measures the scheduler; the CPU time
        # says what the threads cost: t threads that never wait would give
        # t * (one thread's CPU) / (their CPU) (an upper bound).
        one = least_cpu[counts[0]]
        print("CPU bound on the speed-up (least CPU): " + ", ".join(
            f"{t} threads {t * one / least_cpu[t]:.2f}x" for t in counts), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
