"""Per-call cost of the Connect Four rules and engine hooks.

Run: ``python benchmarks/bench_connect4_rules.py [SPEC] [--set L2_R1 --n 50]``
(default ``connect4``). Positions come from seeded random games; each hook is
timed over all of them, many times over, and reported in microseconds per
call (best of 3). With ``--set``, the hooks are also timed on the positions
the solver actually hands them while solving the first ``--n`` positions of
that benchmark set (7x6 only; the sets live in ``../shared/data/connect4``):
search positions have fewer safe moves than random ones, so their costs
differ.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import zerosum
from zerosum.search.engine import Engine
from zerosum.search.perft import timed_perft
from zerosum.search.solver import solve

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"


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


def search_calls(game: Any, path: Path, n: int) -> dict[str, list[Any]]:
    """The arguments of every ``non_losing_actions``, ``winning_action`` and
    ``result`` call made while solving the first ``n`` positions of a
    benchmark set (each with an empty table, as bench_connect4.py does).
    The hooks are wrapped on this game object only, then unwrapped."""
    calls: dict[str, list[Any]] = {"non_losing_actions": [], "winning_action": [], "result": []}
    originals = {name: getattr(game, name) for name in calls}

    def recorder(name: str) -> Callable[..., Any]:
        original, log = originals[name], calls[name]

        def record(*args: Any) -> Any:
            log.append(args)
            return original(*args)

        return record

    lines = [line.split()[0] for line in path.read_text(encoding="ascii").splitlines() if line]
    engine: Engine[Any] = Engine(game)
    for name in calls:
        setattr(game, name, recorder(name))
    try:
        for moves in lines[:n]:
            engine.clear()
            solve(game, game.parse_position(moves), engine=engine)
    finally:
        for name in calls:
            delattr(game, name)  # back to the class's methods
    return calls


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", nargs="?", default="connect4", help="game spec (connect4)")
    parser.add_argument("--set", help="also time the hooks on a benchmark set's search, e.g. L2_R1")
    parser.add_argument("--n", type=int, default=50, help="with --set: positions solved")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the Test_* files")
    args = parser.parse_args(argv)
    spec = args.spec
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
    if args.set:
        calls = search_calls(game, args.data / f"Test_{args.set}", args.n)
        print(f"as called while solving the first {args.n} positions of Test_{args.set}:")
        for name in ("non_losing_actions", "winning_action"):
            log = [args[0] for args in calls[name]]
            cost = per_call(getattr(game, name), log, 3) if log else 0.0
            print(f"  {name:<20} {cost:7.3f}  ({len(log)} calls)")
        pairs = calls["result"]
        result = game.result
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            for state, move in pairs:
                result(state, move)
            best = min(best, time.perf_counter() - started)
        print(f"  {'result':<20} {best / max(len(pairs), 1) * 1e6:7.3f}  ({len(pairs)} calls)")


if __name__ == "__main__":
    main()
