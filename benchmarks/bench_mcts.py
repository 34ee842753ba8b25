"""Monte Carlo tree search: playouts per second from the start position.

Run from the repository root::

    python benchmarks/bench_mcts.py                    # Connect Four and Othello, 5 s each
    python benchmarks/bench_mcts.py --seconds 2 --games connect4

For each game it runs, for ``--seconds`` each:

* ``playouts only (python)`` -- uniformly random games from the start, no
  tree: the ceiling of the pure Python rules;
* ``mcts python`` -- the whole search (selection, expansion, one playout,
  backpropagation, the MCTS-Solver) in pure Python;
* ``mcts compiled tree`` -- the default where the game has native code:
  the whole search compiled (``zerosum.native.tree``), one playout per
  iteration;
* ``mcts python tree, 1 native playout/leaf`` -- the tree in Python, each
  playout a call into the compiled kernel (``tree="python"``);
* ``mcts python tree, 8 native playouts/leaf`` -- the same with a batch of
  compiled playouts per expanded leaf (each counts as an iteration);
* ``playouts only (native)`` -- the compiled kernel alone, in batches of 1000.

``descents/s`` counts trips down the tree (one per leaf): the same as
playouts/s except with batches. Native rows need numba and the game's
native code (skipped otherwise). Times depend on the machine's load.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import zerosum
from zerosum import native
from zerosum.search.mcts import MCTS, MCTSConfig
from zerosum.search.types import Limits


def python_playouts(game: Any, seconds: float) -> float:
    state0 = game.initial_state()
    actions, result, is_terminal, utility = (
        game.actions, game.result, game.is_terminal, game.utility,
    )
    draw = random.Random(1).random
    count = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = state0
        while not is_terminal(state):
            moves = actions(state)
            state = result(state, moves[int(draw() * len(moves))])
        utility(state, 0)
        count += 1
    return count / (time.perf_counter() - started)


def native_playouts(game: Any, seconds: float) -> float | None:
    adapter = native.adapter_for(game)
    if adapter is None:
        return None
    from zerosum.native.playout import NativePlayouts

    runner = NativePlayouts(adapter, game.to_move)
    rng = random.Random(1)
    runner.run(game.initial_state(), 10, rng)  # compile or load
    count = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        runner.run(game.initial_state(), 1000, rng)
        count += 1000
    return count / (time.perf_counter() - started)


def mcts_rate(game: Any, config: MCTSConfig, seconds: float) -> tuple[float, float, str]:
    mcts = MCTS(game, config, seed=1)
    mcts.best_move(game.initial_state(), Limits(iterations=100))  # compile or load
    mcts = MCTS(game, config, seed=1)
    result = mcts.best_move(game.initial_state(), Limits(time=seconds))
    stats = result.stats
    batched = mcts.backend == "native" and config.tree == "python"
    descents = stats.nodes / config.batch if batched else stats.nodes
    return stats.nodes / stats.time_s, descents / stats.time_s, game.format_move(result.best_move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", default="connect4,othello")
    args = parser.parse_args()
    print(f"{'game':<10} {'search':<36} {'playouts/s':>12} {'descents/s':>12}  best")
    for spec in args.games.split(","):
        game = zerosum.load(spec)
        rate = python_playouts(game, args.seconds)
        print(f"{spec:<10} {'playouts only (python)':<36} {rate:>12,.0f}")
        rows = [("mcts python", MCTSConfig(backend="python"))]
        if native.adapter_for(game) is not None:
            rows += [
                ("mcts compiled tree", MCTSConfig(backend="native")),
                (
                    "mcts python tree, 1 native playout",
                    MCTSConfig(backend="native", tree="python", batch=1),
                ),
                (
                    "mcts python tree, 8 native playouts",
                    MCTSConfig(backend="native", tree="python", batch=8),
                ),
            ]
        for label, config in rows:
            playouts, descents, best = mcts_rate(game, config, args.seconds)
            print(f"{spec:<10} {label:<36} {playouts:>12,.0f} {descents:>12,.0f}  {best}")
        compiled = native_playouts(game, args.seconds)
        if compiled is not None:
            print(f"{spec:<10} {'playouts only (native)':<36} {compiled:>12,.0f}")
        else:
            print(f"{spec:<10} (no native code for {spec} here)")


if __name__ == "__main__":
    main()
