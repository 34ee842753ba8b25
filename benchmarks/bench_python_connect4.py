"""The Python backend on the Connect Four benchmark sets: the generic search
core (``PythonCore``, which calls the game's and the table's methods at every
position) against the Connect Four core (``zerosum.search.cores.connect4``,
the rules inlined on the bitboards), on the same positions in the same run.

Run from the repository root::

    python benchmarks/bench_python_connect4.py                 # L2_R1, L2_R2, 100 each
    python benchmarks/bench_python_connect4.py --n 20 --sets L2_R2
    python benchmarks/bench_python_connect4.py --sets L2_R1 --repeat 5   # steadier
    python benchmarks/bench_python_connect4.py --cores connect4 --profile

Each position is solved exactly (the strong solver, Pons' method) from an
empty table by each core in turn, position by position (which core goes
first alternates), so that a change of machine load touches both alike; the
tables are frozen out of the garbage collector's full collections, which
would otherwise walk their million slots in the middle of some position's
solve. Reported per set and core: positions, mean positions visited, ms per
position, positions per second by the clock (the solver's ``stats.time_s``)
and by the process's CPU time (``time.process_time``: on a loaded machine
the clock also counts the time other processes held the CPU), and the scores
that disagree with the published ones; then the Connect Four core's speed-up
and whether both cores visited the same positions (they should: the same
search). The load average before and after is printed: with more runnable
processes than cores, every figure slows down.

The sets live in ``../shared/data/connect4/Test_L*_R*`` (third-party data, not
part of the repository; ``--data`` points elsewhere). Exit status 1 if any
score is wrong.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zerosum
from zerosum.datasets import connect4_score, read_connect4_set
from zerosum.search.cores.connect4 import ConnectFourCore
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.node import PythonCore, SearchCore
from zerosum.search.solver import solve
from zerosum.search.types import Limits

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "connect4"

#: The cores compared, by name.
CORES: dict[str, Any] = {"generic": PythonCore, "connect4": ConnectFourCore}


class CoreEngine(Engine[Any]):
    """An engine whose searches run on the core class ``core_class``
    (whatever ``Engine._new_core`` would choose)."""

    def __init__(self, game: Any, options: EngineOptions, core_class: Any) -> None:
        super().__init__(game, options)
        self.core_class = core_class

    def _new_core(self, limits: Limits, started: float) -> SearchCore:
        # Engine._new_core's bookkeeping on the Python backend, repeated here
        # rather than called: it would build a generic core first, inside
        # the solver's clock (about 0.1 ms, a tenth of an L2_R1 position).
        self._stop.clear()
        if self._core is not None:
            self._core.close()
        if self.table is not None:
            self.table.new_search()
        deadline = None if limits.time is None else started + limits.time
        core: SearchCore = self.core_class(
            self.game, self.options, self.table, self._stop, deadline, limits.nodes,
            self._scratch,
        )
        self._core = core
        return core


@dataclass
class Tally:
    """One core's totals over one set."""

    positions: int = 0
    nodes: int = 0
    seconds: float = 0.0  # the solver's clock
    cpu: float = 0.0  # process CPU time
    wrong: int = 0

    def row(self, label: str) -> str:
        n = max(self.positions, 1)
        nps = self.nodes / self.seconds if self.seconds else 0.0
        cpu_nps = self.nodes / self.cpu if self.cpu else 0.0
        return (
            f"  {label:<10} {self.positions:>5} {self.nodes / n:>11.1f}"
            f" {1000 * self.seconds / n:>9.2f} {nps:>10.0f} {cpu_nps:>10.0f} {self.wrong:>5}"
        )


def solve_one(
    engine: Engine[Any], game: Any, moves: str, expected: int, tally: Tally, name: str
) -> None:
    state = game.parse_position(moves)
    engine.clear()  # Pons' benchmark: every position from an empty table
    cpu = time.process_time()
    result = solve(game, state, engine=engine)
    tally.cpu += time.process_time() - cpu
    tally.positions += 1
    tally.nodes += result.stats.nodes
    tally.seconds += result.stats.time_s
    got = connect4_score(game, state, result.score.raw)
    if got != expected:
        tally.wrong += 1
        print(f"  WRONG {name} {moves}: expected {expected}, got {got}", file=sys.stderr)


def load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100, help="positions per set (default 100)")
    parser.add_argument("--sets", default="L2_R1,L2_R2", help="comma-separated set names")
    parser.add_argument(
        "--cores", default="generic,connect4", help="comma-separated: generic, connect4"
    )
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the Test_* files")
    parser.add_argument("--tt-size", type=int, default=1_048_583, help="table entries")
    parser.add_argument(
        "--repeat", type=int, default=1, help="solve each set this many times (totals add up)"
    )
    parser.add_argument("--profile", action="store_true", help="cProfile the run")
    args = parser.parse_args(argv)

    game: Any = zerosum.load("connect4")
    options = EngineOptions(backend="python", tt_size=args.tt_size)
    names = [c.strip() for c in args.cores.split(",") if c.strip()]
    unknown = [c for c in names if c not in CORES]
    if unknown:
        parser.error(f"unknown core {unknown[0]!r}; expected one of {', '.join(CORES)}")
    engines = {c: CoreEngine(game, options, CORES[c]) for c in names}
    # The tables' slot lists (a million slots each, and their empty copies)
    # leave the garbage collector's sight: its full collections walk them,
    # some 10 ms each, and would land on one core's positions by chance.
    gc.collect()
    gc.freeze()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    print(
        f"Connect Four 7x6, strong solve, Python backend, table {args.tt_size} entries,"
        f" first {args.n} positions per set, {max(args.repeat, 1)} time(s); {load()}"
    )
    profiler = cProfile.Profile() if args.profile else None
    wrong = 0
    for name in sets:
        rows = read_connect4_set(args.data / f"Test_{name}", args.n)
        tallies = {c: Tally() for c in names}
        if profiler is not None:
            profiler.enable()
        for index, (moves, expected) in enumerate(rows * max(args.repeat, 1)):
            # Alternate which core goes first: the one that follows finds the
            # caches cold from the other's table (a million slots each).
            for c in names if index % 2 == 0 else names[::-1]:
                solve_one(engines[c], game, moves, expected, tallies[c], name)
        if profiler is not None:
            profiler.disable()
        print(f"Test_{name}")
        print(
            f"  {'core':<10} {'pos':>5} {'mean nodes':>11} {'mean ms':>9}"
            f" {'nodes/s':>10} {'cpu nod/s':>10} {'wrong':>5}"
        )
        for c in names:
            print(tallies[c].row(c))
        if "generic" in tallies and "connect4" in tallies:
            slow, fast = tallies["generic"], tallies["connect4"]
            print(
                f"  connect4 / generic: {slow.seconds / max(fast.seconds, 1e-9):.2f}x faster"
                f" by the clock, {slow.cpu / max(fast.cpu, 1e-9):.2f}x by CPU time;"
                f" same positions visited: {'yes' if slow.nodes == fast.nodes else 'NO'}",
                flush=True,
            )
        wrong += sum(t.wrong for t in tallies.values())
    print(f"after: {load()}")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
