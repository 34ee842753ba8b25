"""How much Connect Four's heuristic score swings from one search depth to
the next (issue 21 item 2).

Run: ``python benchmarks/bench_connect4_eval.py [--backend native]
[--depths 4-12]``. For a few opening positions, the engine's score of the
position (from the side to move) at each depth, each depth searched by a
fresh engine; then the largest and the mean change between consecutive
depths. Node counts, not times: the figures do not depend on the machine.
"""

from __future__ import annotations

import argparse
from itertools import pairwise
from typing import Any

import zerosum
from zerosum.search.front import Searcher, SearchOptions
from zerosum.search.types import Limits

#: The empty board and three short openings (moves as column digits).
OPENINGS = ("", "4 4 3", "4 3 5 4", "4 4 4 4 3")


def scores(game: zerosum.Game[Any, Any], moves: str, backend: str, depths: range) -> list[int]:
    state = game.play_text(moves) if moves else game.initial_state()
    found = []
    for depth in depths:
        searcher = Searcher(game, SearchOptions(backend=backend, use_store=False, use_book=False))
        result = searcher.analyze(state, Limits(depth=depth), multipv=1)
        found.append(result.score.raw)
        searcher.close()
    return found


def swing(values: list[int]) -> tuple[int, float]:
    """The largest and the mean absolute change between neighbours."""
    steps = [abs(b - a) for a, b in pairwise(values)]
    return max(steps), sum(steps) / len(steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="native", choices=("native", "python"))
    parser.add_argument("--depths", default="4-12", help="first-last depth")
    args = parser.parse_args()
    first, last = (int(part) for part in args.depths.split("-"))
    game = zerosum.load("connect4")
    print(f"backend {args.backend}, depths {first}-{last}")
    for moves in OPENINGS:
        values = scores(game, moves, args.backend, range(first, last + 1))
        most, mean = swing(values)
        shown = " ".join(f"{v:+d}" for v in values)
        print(f"{moves or '(empty)':12} {shown}   swing max {most}, mean {mean:.1f}")


if __name__ == "__main__":
    main()
