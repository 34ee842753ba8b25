"""Othello and gomoku on the native (compiled) backend, against the Python one.

Run from the repository root (needs the ``fast`` extra: numba)::

    python benchmarks/bench_othello_native.py               # everything below
    python benchmarks/bench_othello_native.py --six 0       # without the 6x6 solve
    python benchmarks/bench_othello_native.py --per-count 1 --empties 14,16

1. **8x8 endgames**: ``--per-count`` positions for each number of empty
   squares in ``--empties`` (14, 16, 20), from seeded random games; each is
   solved natively (win/draw/loss for the side to move: a weak solve) within
   ``--budget`` seconds (``?`` when that was not enough). At 14 empties the
   Python backend solves the same positions and must agree.
2. **6x6 from the start**, natively, within ``--six`` seconds (published:
   the second player, White, wins 20-16). If the budget runs out, the
   proven bounds so far are printed instead.
3. **Gomoku, depth 2 after one move** (``h8``): every move's score by both
   backends (``Engine.analyze`` with ``Limits(depth=2)``), which must agree.

``--hash MB`` sizes the 6x6 solve's table (1-4 GB pays); ``--exact 0`` turns
off Othello's own solve of the last empty squares (the kernel alone: its
positions per second). Prints positions, seconds and positions per second
for every search. Exits
with status 1 on any disagreement (or a 6x6 result other than the published
one). Node counts are deterministic; times depend on the machine's load.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

import zerosum
from zerosum.games.othello import Othello, State
from zerosum.native import available
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import SolveInterrupted, solve
from zerosum.search.types import Limits, SearchResult

OUTCOME = {1: "win", 0: "draw", -1: "loss"}


def endgame(game: Othello, empties: int, rng: random.Random) -> State:
    """A position of a random game with exactly ``empties`` empty squares,
    the game still on (games that end earlier are thrown away)."""
    while True:
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.cells - (state[0] | state[1]).bit_count() == empties:
                return state
            state = game.result(state, rng.choice(list(game.actions(state))))


def timed_solve(
    game: Any, state: Any, backend: str, budget: float | None = None
) -> tuple[SearchResult[Any] | SolveInterrupted, float]:
    """A weak solve and its seconds; the interruption (with the bounds so
    far) instead of a result when ``budget`` seconds were not enough."""
    started = time.perf_counter()
    limits = Limits(time=budget) if budget else None
    try:
        result = solve(
            game, state, weak=True, options=EngineOptions(backend=backend), limits=limits
        )
    except SolveInterrupted as stop:
        return stop, time.perf_counter() - started
    return result, time.perf_counter() - started


def describe(answer: SearchResult[Any] | SolveInterrupted) -> tuple[str, int]:
    """The outcome's name ("?" when not proven in time) and the positions."""
    if isinstance(answer, SolveInterrupted):
        return "?", answer.stats.nodes
    return OUTCOME[answer.score.outcome or 0], answer.stats.nodes


def rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds:>12,.0f}" if seconds > 0 else f"{'-':>12}"


def endgames(counts: list[int], per_count: int, seed: int, check_at: int, budget: float) -> int:
    """Section 1; returns the number of disagreements."""
    game = Othello(8)
    rng = random.Random(seed)
    wrong = 0
    # Load (or compile) the kernel before timing anything: a short solve.
    started = time.perf_counter()
    timed_solve(game, endgame(game, 6, random.Random(0)), "native")
    print(f"native kernel ready (loaded or compiled) in {time.perf_counter() - started:.2f} s")
    print(
        f"{'8x8 endgame':<22} {'backend':<8} {'value':<6} {'positions':>12} {'seconds':>9}"
        f" {'pos/s':>12}"
    )
    for empties in counts:
        for i in range(per_count):
            state = endgame(game, empties, rng)
            label = f"{empties} empties #{i + 1}"
            started = time.perf_counter()
            value, nodes = describe(timed_solve(game, state, "native", budget)[0])
            seconds = time.perf_counter() - started
            print(
                f"{label:<22} {'native':<8} {value:<6} {nodes:>12,} {seconds:>9.2f}"
                f" {rate(nodes, seconds)}{'  (budget spent)' if value == '?' else ''}"
            )
            if empties == check_at and value != "?":
                started = time.perf_counter()
                python, nodes = describe(timed_solve(game, state, "python")[0])
                seconds = time.perf_counter() - started
                agree = python == value
                wrong += not agree
                print(
                    f"{'':<22} {'python':<8} {python:<6} {nodes:>12,} {seconds:>9.2f}"
                    f" {rate(nodes, seconds)}{'' if agree else '  DISAGREE'}"
                )
    return wrong


def six_by_six(seconds: float, hash_mb: float | None) -> int:
    """Section 2; returns 1 when a finished solve contradicts the published
    result (the first player loses)."""
    game = Othello(6)
    started = time.perf_counter()
    table = f", {hash_mb:g} MB table" if hash_mb else ""
    print(f"\n6x6 from the start, native, at most {seconds:g} s{table}:")
    try:
        result = solve(
            game,
            game.initial_state(),
            weak=True,
            options=EngineOptions(backend="native", hash_mb=hash_mb),
            limits=Limits(time=seconds),
            on_progress=lambda p: print(
                f"  bounds [{p.lower}, {p.upper}] after {p.nodes:,} positions,"
                f" {time.perf_counter() - started:.1f} s",
                flush=True,
            ),
        )
    except SolveInterrupted as stop:
        elapsed = time.perf_counter() - started
        print(
            f"  not finished: proven bounds [{stop.lower}, {stop.upper}] for Black after"
            f" {stop.stats.nodes:,} positions, {elapsed:.1f} s,"
            f" {rate(stop.stats.nodes, elapsed).strip()} pos/s"
        )
        return 0
    elapsed = time.perf_counter() - started
    outcome = result.score.outcome
    agree = outcome == -1
    print(
        f"  Black (first) {OUTCOME.get(outcome or 0)}: {result.stats.nodes:,} positions,"
        f" {elapsed:.1f} s, {rate(result.stats.nodes, elapsed).strip()} pos/s"
        f"{'' if agree else '  DISAGREES with the published White win'}"
    )
    return 0 if agree else 1


def gomoku() -> int:
    """Section 3; returns 1 when the backends score any move differently."""
    game = zerosum.load("gomoku")
    state = game.play(["h8"])
    print("\ngomoku after h8, depth 2, every move:")
    results = {}
    for backend in ("native", "python"):
        started = time.perf_counter()
        results[backend] = Engine(game, EngineOptions(backend=backend)).analyze(
            state, Limits(depth=2)
        )
        elapsed = time.perf_counter() - started
        nodes = results[backend].stats.nodes
        best = results[backend].best_move
        print(
            f"  {backend:<7} best {game.format_move(best)} {results[backend].score.describe()},"
            f" {nodes:,} positions, {elapsed:.2f} s, {rate(nodes, elapsed).strip()} pos/s"
        )
    native, python = results["native"], results["python"]
    agree = [(m.move, m.score) for m in native.moves] == [(m.move, m.score) for m in python.moves]
    if not agree:
        print("  DISAGREE: the backends score the moves differently")
    return 0 if agree else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--empties", default="14,16,20", help="8x8 empties, e.g. 14,16,20")
    parser.add_argument("--per-count", type=int, default=3, help="positions per empties count")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games")
    parser.add_argument(
        "--check-at", type=int, default=14, help="empties the Python backend checks"
    )
    parser.add_argument(
        "--budget", type=float, default=60.0, help="seconds per native 8x8 solve (0: no limit)"
    )
    parser.add_argument("--six", type=float, default=180.0, help="6x6 budget in seconds (0: skip)")
    parser.add_argument(
        "--hash", type=float, default=None, help="6x6 table in MB (default: the engine's)"
    )
    parser.add_argument(
        "--exact",
        type=int,
        default=None,
        help="empties at which Othello's exact solve takes over (0: the kernel alone)",
    )
    parser.add_argument("--no-gomoku", action="store_true", help="skip the gomoku analysis")
    args = parser.parse_args(argv)
    if not available():
        print("numba is not installed: python3 -m pip install '.[fast]'", file=sys.stderr)
        return 2
    if args.exact is not None:
        from zerosum.native import othello as native_othello

        for size in native_othello.EXACT_EMPTIES:
            native_othello.EXACT_EMPTIES[size] = args.exact
    counts = [int(part) for part in args.empties.split(",") if part.strip()]
    wrong = endgames(counts, args.per_count, args.seed, args.check_at, args.budget)
    if args.six > 0:
        wrong += six_by_six(args.six, args.hash)
    if not args.no_gomoku:
        wrong += gomoku()
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
