"""The game loop's own cost: a match of random players (whose moves cost
almost nothing) through the match runner, so what is measured is the loop,
the player factory and the records, per move.

Run from the repository root::

    python benchmarks/bench_loop.py                    # tic-tac-toe and Connect Four
    python benchmarks/bench_loop.py --games 500

Prints games, moves and microseconds a move (the best of ``--repeat`` runs).
The moves are deterministic (seeded); times depend on load.
"""

from __future__ import annotations

import argparse
import time

from zerosum.play.runner import MatchSetup, play_games


def run(game: str, games: int) -> tuple[int, float]:
    setup = MatchSetup(game=game, players=("random", "random"), games=games, seed=1)
    started = time.perf_counter()
    moves = sum(len(record["moves"]) for record in play_games(setup))
    return moves, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for game in ("tictactoe", "connect4"):
        results = [run(game, args.games) for _ in range(args.repeat)]
        moves = results[0][0]
        assert all(m == moves for m, _s in results), "seeded games differ between runs"
        best = min(seconds for _m, seconds in results)
        print(f"{game:<10} {args.games} games, {moves} moves: {best:.3f} s,"
              f" {best / moves * 1e6:.1f} us a move")


if __name__ == "__main__":
    main()
