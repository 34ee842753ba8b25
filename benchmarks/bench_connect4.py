"""Solve the published Connect Four benchmark sets and report positions
visited, time and positions per second, checking every score.

Run from the repository root::

    python benchmarks/bench_connect4.py --n 100 --sets L3_R1,L2_R1
    python benchmarks/bench_connect4.py --n 1000 --backend native   # all six sets
    python benchmarks/bench_connect4.py --n 50 --sets L2_R1 --ablation
    python benchmarks/bench_connect4.py --n 100 --sets L2_R1 --profile

The sets live in ``../shared/data/connect4/Test_L*_R*`` (third-party data, not
part of the repository; ``--data`` points elsewhere). Each line is
``moves score``: 1-based column digits, and the score from the side to move
(``22 - ceil(T/2)`` for a win with ``T`` stones on the board at the end, its
negative for a loss, 0 a draw), converted with the game's
``benchmark_score``. As in Pascal Pons' benchmark, every position starts with
an empty transposition table, and the strong solver finds the exact value
(``--all-moves`` also finds every optimal move; ``--weak`` only win, draw or
loss). Time is the solver's own (``stats.time_s``): clearing the table between
positions is not counted. The CPU column is the thread's processor time in
the solve: on a loaded machine the clock also counts the time the process
waits for a core, the CPU time does not. ``--backend`` picks the engine's backend (the
native one's table is ``--hash`` MB; the Python one's ``--tt-size`` slots).
The C++ column is Pascal Pons' solver (no opening book) on this machine,
first 100 positions of each set, as measured for the project's issue 9.
Exit status 1 if any score is wrong.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import zerosum
from zerosum.datasets import connect4_score, read_connect4_set
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import solve

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "connect4"

#: Features added one at a time, for --ablation.
LADDER: list[tuple[str, EngineOptions]] = [
    ("plain alpha-beta", EngineOptions.plain()),
    ("+ hooks", replace(EngineOptions.plain(), hooks=True)),
    ("+ table", replace(EngineOptions.plain(), hooks=True, tt=True)),
    ("+ static order", replace(EngineOptions.plain(), hooks=True, tt=True, static_order=True)),
    ("+ killers, history", EngineOptions(symmetry=False, pvs=False)),
    ("+ PVS (default)", EngineOptions()),
    ("default + symmetry", EngineOptions(symmetry=True)),
    ("default - killers - history", EngineOptions(killers=False, history=False)),
]


@dataclass
class SetResult:
    name: str
    positions: int
    nodes: int
    seconds: float
    wrong: int
    cpu_seconds: float = 0.0

    @property
    def mean_nodes(self) -> float:
        return self.nodes / self.positions

    @property
    def mean_ms(self) -> float:
        return 1000 * self.seconds / self.positions

    @property
    def mean_cpu_ms(self) -> float:
        return 1000 * self.cpu_seconds / self.positions

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds else 0.0


#: Pons' C++ solver, ms per position (first 100 of each set, this machine).
CPP_MS = {"L3_R1": 0.05, "L2_R1": 0.07, "L1_R1": 0.36, "L2_R2": 8.5, "L1_R2": 203.0}


def run_set(
    game: Any,
    name: str,
    rows: list[tuple[str, int]],
    options: EngineOptions,
    *,
    weak: bool,
    all_moves: bool,
) -> SetResult:
    engine: Engine[Any] = Engine(game, options)
    # Fault the native table's pages in before timing, as a process that has
    # searched before has them: a new table's page costs a fault (system
    # time) at its first touch, which would land in the first set's solves.
    slots = getattr(engine.table, "slots", None)
    if slots is not None:
        slots.fill(0)
    nodes, seconds, cpu, wrong = 0, 0.0, 0.0, 0
    for moves, expected in rows:
        state = game.parse_position(moves)
        engine.clear()
        began = time.thread_time()
        result = solve(game, state, engine=engine, weak=weak, all_moves=all_moves)
        cpu += time.thread_time() - began
        nodes += result.stats.nodes
        seconds += result.stats.time_s
        got = connect4_score(game, state, result.score.raw)
        ok = (got > 0) - (got < 0) == (expected > 0) - (expected < 0) if weak else got == expected
        if not ok:
            wrong += 1
            print(f"  WRONG {name} {moves}: expected {expected}, got {got}", file=sys.stderr)
    return SetResult(name, len(rows), nodes, seconds, wrong, cpu)


def print_header(title: str) -> None:
    print(title)
    print(f"  {'configuration':<34} {'pos':>5} {'mean nodes':>11} {'mean ms':>9}"
          f" {'nodes/s':>9} {'wrong':>5} {'CPU ms':>8}")


def print_row(label: str, r: SetResult) -> None:
    print(f"  {label:<34} {r.positions:>5} {r.mean_nodes:>11.1f} {r.mean_ms:>9.2f}"
          f" {r.nps:>9.0f} {r.wrong:>5} {r.mean_cpu_ms:>8.3f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100, help="positions per set (default 100)")
    parser.add_argument(
        "--sets",
        default="L3_R1,L2_R1,L2_R2,L1_R1,L1_R2,L1_R3",
        help="comma-separated, e.g. L3_R1,L2_R1 (default: all six)",
    )
    parser.add_argument(
        "--backend", default="auto", choices=("auto", "python", "native"), help="engine backend"
    )
    parser.add_argument("--hash", type=float, default=64.0, help="native table size in MB")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the Test_* files")
    parser.add_argument("--weak", action="store_true", help="only win / draw / loss")
    parser.add_argument("--all-moves", action="store_true", help="also find every optimal move")
    parser.add_argument("--tt-size", type=int, default=1_048_583, help="table entries")
    parser.add_argument("--ablation", action="store_true", help="add features one at a time")
    parser.add_argument(
        "--skip", type=int, default=0, help="with --ablation: leave out the first SKIP rows"
    )
    parser.add_argument(
        "--loose-bounds",
        action="store_true",
        help="ignore the game's mover_wins_only declaration (to measure what it buys)",
    )
    parser.add_argument("--profile", action="store_true", help="cProfile the default run")
    args = parser.parse_args(argv)

    game: Any = zerosum.load("connect4")
    if args.loose_bounds:
        game.mover_wins_only = False
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    loaded = []
    for name in sets:
        path = args.data / f"Test_{name}"
        if not path.exists():
            print(f"missing {path}; expected the benchmark sets there (see --data)")
            return 2
        loaded.append((name, read_connect4_set(path, args.n)))

    mode = "weak" if args.weak else "strong, all optimal moves" if args.all_moves else "strong"
    declared = bool(getattr(game, "mover_wins_only", False))
    table = f"{args.hash:g} MB" if args.backend != "python" else f"{args.tt_size} entries"
    print(f"Connect Four 7x6, {mode} solve, backend {args.backend}, table {table},"
          f" mover_wins_only={declared}, first {args.n} positions per set")
    wrong = 0
    configs = LADDER[args.skip :] if args.ablation else [("default", EngineOptions())]
    for name, rows in loaded:
        print_header(f"Test_{name}")
        for label, options in configs:
            options = replace(
                options,
                tt_size=args.tt_size,
                backend=args.backend,
                hash_mb=args.hash if args.backend != "python" else None,
            )
            if args.profile:
                profiler = cProfile.Profile()
                profiler.enable()
            result = run_set(game, name, rows, options, weak=args.weak, all_moves=args.all_moves)
            if args.profile:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
            wrong += result.wrong
            print_row(label, result)
            if name in CPP_MS and label == "default":
                print(f"  {'C++ (Pons), ms per position':<34} {'':>5} {'':>11}"
                      f" {CPP_MS[name]:>9.2f}   ratio {result.mean_ms / CPP_MS[name]:.2f}x")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
