"""What each engine feature buys: positions visited to solve small games,
from the reference minimax up to the full engine, one feature at a time.

Run from the repository root::

    python benchmarks/bench_engine.py                    # tic-tac-toe and a few small games
    python benchmarks/bench_engine.py --games tictactoe  # just one
    python benchmarks/bench_engine.py --write-signature  # re-record benchmarks/signature.json
    python benchmarks/bench_engine.py --check-signature  # compare with the recorded one

For each configuration three searches from the start position, each with a
fresh engine: ``search`` (iterative deepening until an iteration is exact:
the value and a best move), ``solve`` (the null-window solver: the value with
its distance, one best move) and ``solve all`` (every optimal move too). The
reference rows are the tutorials' algorithms (``search/reference.py``):
minimax and alpha-beta computing the root value.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import zerosum
from zerosum.search import reference
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.signature import DEFAULT_POSITIONS, compute_signature
from zerosum.search.solver import solve
from zerosum.search.types import SearchStats

ROOT = Path(__file__).resolve().parents[1]
SIGNATURE = ROOT / "benchmarks" / "signature.json"

_PLAIN = EngineOptions.plain()
#: Features added one at a time (each row keeps the ones above it).
LADDER: list[tuple[str, EngineOptions]] = [
    ("negamax alpha-beta", _PLAIN),
    ("+ transposition table", replace(_PLAIN, tt=True)),
    ("+ symmetry", replace(_PLAIN, tt=True, symmetry=True)),
    ("+ static order", replace(_PLAIN, tt=True, symmetry=True, static_order=True)),
    ("+ killers", replace(_PLAIN, tt=True, symmetry=True, static_order=True, killers=True)),
    ("+ history", EngineOptions(symmetry=True, pvs=False, hooks=False)),
    ("+ PVS", EngineOptions(symmetry=True, hooks=False)),
    ("+ hooks (win / non-losing)", EngineOptions(symmetry=True)),
    ("default options (symmetry as the game asks)", EngineOptions()),
]

GAMES = [
    "tictactoe",
    "mnk(m=4,n=4,k=3)",
    "connect4(width=4,height=4)",
    "domineering(rows=4,cols=4)",
]


def timed(run: Callable[[], SearchStats]) -> tuple[int, float]:
    started = time.perf_counter()
    stats = run()
    return stats.nodes, time.perf_counter() - started


def bench_game(spec: str, with_minimax: bool) -> None:
    game: Any = zerosum.load(spec)
    state = game.initial_state()
    print(f"{spec}: solving from the start")
    header = f"  {'algorithm / features':<32} {'search':>10} {'solve':>10} {'solve all':>10}"
    print(header + f" {'time (s)':>9} {'nodes/s':>9}")
    if with_minimax:
        nodes, seconds = timed(lambda: reference.value(game, state, algorithm="minimax")[1])
        print(f"  {'reference minimax':<32} {nodes:>10,} {'':>10} {'':>10} {seconds:>9.2f}"
              f" {nodes / seconds:>9.0f}")
    nodes, seconds = timed(lambda: reference.value(game, state, algorithm="alphabeta")[1])
    print(f"  {'reference alpha-beta':<32} {nodes:>10,} {'':>10} {'':>10} {seconds:>9.2f}"
          f" {nodes / seconds:>9.0f}")
    for label, options in LADDER:
        engine: Engine[Any] = Engine(game, options)
        started = time.perf_counter()
        searched = engine.search(state).stats.nodes
        seconds = time.perf_counter() - started
        solved = solve(game, state, options=options, all_moves=False).stats.nodes
        every = solve(game, state, options=options).stats.nodes
        print(f"  {label:<32} {searched:>10,} {solved:>10,} {every:>10,} {seconds:>9.2f}"
              f" {searched / seconds:>9.0f}")
    print()


def write_signature() -> None:
    counts = compute_signature(DEFAULT_POSITIONS)
    rows = [dict(entry, nodes=n) for entry, n in zip(DEFAULT_POSITIONS, counts, strict=True)]
    payload = {
        "about": "Node counts of fixed searches (zerosum.search.signature); checked by"
        " tests/test_engine.py. Regenerate with `python benchmarks/bench_engine.py"
        " --write-signature` when a change in search behaviour is intended.",
        "positions": rows,
    }
    SIGNATURE.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    for row in rows:
        print(f"  {row['name']:<40} {row['nodes']:>9,}")
    print(f"wrote {SIGNATURE}")


def check_signature() -> int:
    recorded = json.loads(SIGNATURE.read_text(encoding="utf-8"))["positions"]
    counts = compute_signature(recorded)
    bad = 0
    for row, now in zip(recorded, counts, strict=True):
        mark = "" if row["nodes"] == now else "   <-- changed"
        bad += bool(mark)
        print(f"  {row['name']:<40} {row['nodes']:>9,} {now:>9,}{mark}")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="semicolon-separated specs")
    parser.add_argument("--write-signature", action="store_true")
    parser.add_argument("--check-signature", action="store_true")
    args = parser.parse_args(argv)
    if args.write_signature:
        write_signature()
        return 0
    if args.check_signature:
        return check_signature()
    specs = [s for s in args.games.replace(";", ",").split(",") if s]
    # Parameters contain commas too: glue "mnk(m=4" "n=4" "k=3)" back together.
    joined: list[str] = []
    for part in specs:
        if joined and joined[-1].count("(") > joined[-1].count(")"):
            joined[-1] += "," + part
        else:
            joined.append(part)
    for spec in joined:
        bench_game(spec, with_minimax=spec == "tictactoe")
    return 0


if __name__ == "__main__":
    sys.exit(main())
