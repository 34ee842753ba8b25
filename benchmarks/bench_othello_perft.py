"""Perft from the 8x8 Othello start: counts against the published figures,
time per depth and sequences per second, plus the per-call cost of the rules.

Run from the repository root::

    python benchmarks/bench_othello_perft.py            # depths 1..7
    python benchmarks/bench_othello_perft.py --depth 9  # the full published list

Exit status 1 if any count differs from the published one.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from zerosum.games.othello import Othello, State
from zerosum.search.perft import timed_perft

#: Published perft counts from the 8x8 start, depths 1..9 (a pass is a ply).
PUBLISHED = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


def rule_costs(game: Othello, positions: int = 2000, seed: int = 1) -> dict[str, float]:
    """Microseconds per call of actions, result, is_terminal, evaluate and
    canonical over positions from seeded random games."""
    rng = random.Random(seed)
    states: list[State] = []
    while len(states) < positions:
        state = game.initial_state()
        while not game.is_terminal(state):
            states.append(state)
            state = game.result(state, rng.choice(list(game.actions(state))))
    states = states[:positions]
    pairs = [(s, m) for s in states for m in game.actions(s)]
    costs: dict[str, float] = {}

    started = time.perf_counter()
    for state in states:
        game.actions(state)
    costs["actions"] = (time.perf_counter() - started) / len(states) * 1e6
    started = time.perf_counter()
    for state, move in pairs:
        game.result(state, move)
    costs["result"] = (time.perf_counter() - started) / len(pairs) * 1e6
    started = time.perf_counter()
    for state in states:
        game.is_terminal(state)
    costs["is_terminal"] = (time.perf_counter() - started) / len(states) * 1e6
    started = time.perf_counter()
    for state in states:
        game.evaluate(state, 0)
    costs["evaluate"] = (time.perf_counter() - started) / len(states) * 1e6
    started = time.perf_counter()
    for state in states:
        game.canonical(state)
    costs["canonical"] = (time.perf_counter() - started) / len(states) * 1e6
    return costs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--depth", type=int, default=7, help="deepest perft (1..9), default 7")
    args = parser.parse_args(argv)
    if not 1 <= args.depth <= len(PUBLISHED):
        parser.error(f"--depth must be between 1 and {len(PUBLISHED)}, got {args.depth}")
    game = Othello(8)
    start = game.initial_state()
    wrong = 0
    print(f"{'depth':>5} {'count':>10} {'published':>10} {'seconds':>9} {'per second':>12}")
    for depth in range(1, args.depth + 1):
        count, seconds = timed_perft(game, start, depth)
        expected = PUBLISHED[depth - 1]
        mark = "" if count == expected else "  WRONG"
        wrong += count != expected
        rate = count / seconds if seconds > 0 else 0.0
        print(f"{depth:>5} {count:>10} {expected:>10} {seconds:>9.3f} {rate:>12,.0f}{mark}")
    print("microseconds per call:")
    for name, micros in rule_costs(game).items():
        print(f"  {name:<12} {micros:8.2f}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
