"""Per-call cost of the Connect Four rules and engine hooks.

Run: ``python benchmarks/bench_connect4_rules.py [SPEC]`` (default
``connect4``). Positions come from seeded random games; each hook is timed
over all of them, many times over, and reported in microseconds per call.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

import zerosum
from zerosum.search.perft import timed_perft


def sample_positions(game: Any, count: int, seed: int = 1) -> list[Any]:
    """Non-terminal positions from seeded random games (every ply kept)."""
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and len(states) < count:
            states.append(state)
            state = game.result(state, rng.choice(list(game.actions(state))))
    return states


def per_call(func: Callable[[Any], object], states: list[Any], repeat: int) -> float:
    """Microseconds per call of ``func`` over ``states`` (best of 3)."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(repeat):
            for state in states:
                func(state)
        best = min(best, time.perf_counter() - started)
    return best / (repeat * len(states)) * 1e6


def main(spec: str = "connect4") -> None:
    game: Any = zerosum.load(spec)
    states = sample_positions(game, 2000)
    moves = [(s, game.actions(s)[len(game.actions(s)) // 2]) for s in states]
    repeat = 20
    rows: list[tuple[str, Callable[[Any], object]]] = [
        ("actions", game.actions),
        ("ordered_actions", game.ordered_actions),
        ("is_terminal", game.is_terminal),
        ("to_move", game.to_move),
        ("utility", lambda s: game.utility(s, 0)),
        ("key", game.key),
        ("canonical", game.canonical),
        ("winning_action", game.winning_action),
        ("non_losing_actions", game.non_losing_actions),
        ("evaluate", lambda s: game.evaluate(s, 0)),
        ("hash(state)", hash),
    ]
    print(f"{spec}: {len(states)} positions, microseconds per call")
    started = time.perf_counter()
    for _ in range(repeat):
        for state, move in moves:
            game.result(state, move)
    elapsed = time.perf_counter() - started
    print(f"  {'result':<20} {elapsed / (repeat * len(moves)) * 1e6:7.3f}")
    for name, func in rows:
        print(f"  {name:<20} {per_call(func, states, repeat):7.3f}")
    count, seconds = timed_perft(game, game.initial_state(), 7)
    print(f"  perft(7) = {count} in {seconds:.2f} s ({count / seconds / 1e6:.2f} M/s)")


if __name__ == "__main__":
    main(*sys.argv[1:2])
