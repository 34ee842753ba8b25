"""Solving and counting the other games: Domineering 6x6 with each side
first, Othello 4x4 solved, Othello 8x8 perft.

Run from the repository root::

    python benchmarks/bench_games.py                 # everything below
    python benchmarks/bench_games.py --domineering 5 # a smaller board

Prints, for each solve, the proven value, positions visited, time and
positions per second. Node counts are deterministic; times depend on load.
Exit status 1 when a value or count differs from the published one: the
first player wins 6x6 Domineering whoever starts (Breuker, Uiterwijk and van
den Herik), White wins 4x4 Othello, and Othello's perft counts.
"""

from __future__ import annotations

import argparse
import time

import zerosum
from zerosum.search.perft import timed_perft
from zerosum.search.solver import solve

#: Published perft counts from the 8x8 Othello start, depths 1..9.
OTHELLO_PERFT = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


#: Published outcomes for the first player (+1 win, -1 loss) by spec.
PUBLISHED_OUTCOMES = {
    "domineering(rows=6,cols=6,first=vertical)": 1,
    "domineering(rows=6,cols=6,first=horizontal)": 1,
    "othello(size=4)": -1,
}


def solve_row(label: str, spec: str, weak: bool) -> bool:
    """Solve ``spec`` from its start and print a row; False when the value
    differs from a published one."""
    game = zerosum.load(spec)
    started = time.perf_counter()
    result = solve(game, game.initial_state(), weak=weak)
    elapsed = time.perf_counter() - started
    first = game.player_name(0)
    value = {1: f"{first} (first) wins", 0: "draw", -1: f"{first} (first) loses"}[
        result.score.outcome or 0
    ]
    moves = " ".join(game.format_move(m) for m in result.best_moves)
    published = PUBLISHED_OUTCOMES.get(game.spec())
    ok = published is None or result.score.outcome == published
    print(
        f"{label:<34} {value:<28} {result.stats.nodes:>12,} {elapsed:>9.2f}"
        f" {result.stats.nodes / elapsed:>10,.0f}  {moves}{'' if ok else '  WRONG'}"
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--domineering", type=int, default=6, help="board side (default 6)")
    parser.add_argument("--perft-depth", type=int, default=7, help="Othello perft depth (<= 9)")
    parser.add_argument("--weak", action="store_true", help="prove only win/draw/loss")
    args = parser.parse_args(argv)

    print(f"{'solve':<34} {'value':<28} {'positions':>12} {'seconds':>9} {'pos/s':>10}  best")
    side = args.domineering
    wrong = 0
    for first in ("vertical", "horizontal"):
        spec = f"domineering(rows={side},cols={side},first={first})"
        wrong += not solve_row(f"domineering {side}x{side}, {first} first", spec, args.weak)
    wrong += not solve_row("othello 4x4", "othello(size=4)", args.weak)

    othello = zerosum.load("othello")
    print(f"\n{'othello 8x8 perft':<20} {'count':>12} {'published':>12} {'seconds':>9}")
    for depth in range(1, args.perft_depth + 1):
        count, elapsed = timed_perft(othello, othello.initial_state(), depth)
        ok = count == OTHELLO_PERFT[depth - 1]
        wrong += not ok
        print(
            f"{'depth ' + str(depth):<20} {count:>12,} {OTHELLO_PERFT[depth - 1]:>12,}"
            f" {elapsed:>9.2f}{'' if ok else '  WRONG'}"
        )
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
