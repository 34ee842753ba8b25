"""Positions visited by the reference algorithms on tic-tac-toe.

Run: ``python benchmarks/bench_reference.py``. Prints, from the empty board,
positions visited, leaves, cut-offs and time for plain minimax and for
alpha-beta (the tutorial's ``get_best_move``, and a full-window solve that
scores every root move).
"""

from __future__ import annotations

import zerosum
from zerosum.search import reference


def main() -> None:
    game = zerosum.load("tictactoe")
    root = game.initial_state()
    rows = [
        ("minimax, best move", reference.best_move(game, root, algorithm="minimax")),
        ("alpha-beta, best move", reference.best_move(game, root, algorithm="alphabeta")),
        ("minimax, every move scored", reference.solve(game, root, algorithm="minimax")),
        ("alpha-beta, every move scored", reference.solve(game, root, algorithm="alphabeta")),
    ]
    print(f"{'search':<32} {'positions':>10} {'leaves':>10} {'cut-offs':>10} {'seconds':>8}")
    for name, result in rows:
        s = result.stats
        print(f"{name:<32} {s.nodes:>10,} {s.leaves:>10,} {s.cutoffs:>10,} {s.time_s:>8.3f}")


if __name__ == "__main__":
    main()
