"""Reviewing a game: each position's score, and each move judged.

Pure functions (the session runs the searches): :func:`review_entry` turns
one position's search into an entry of the ``review`` object, and
:func:`classify` judges a move by comparing the mover's best score before
it with the score after it, from the mover's point of view.

Exact results dominate: a proven win before the move and a proven non-win
after it is ``"lost-win"`` (the win was thrown away); a proven draw before
and a proven loss after is ``"lost-draw"``; a heuristic score before and a
proven loss after is a ``"blunder"``. Between two heuristic scores the drop
decides, by the thresholds below. They are set on the built-in games'
evaluation scales, where a point is small and one strategic feature is
tens of points: in Connect Four a threat is worth 40 and a window of three
20 (scores run in the hundreds; a playable win 2,000); in Othello a corner
is 40 and each move of mobility 10; in the m,n,k-games an open line of two
is 8 and of three 64. So losing about one such feature (40) is an
inaccuracy, about three (120) a mistake, and losing more than a big threat
or two corners (300) a blunder. Domineering's and Nim's heuristics move in
single points (one move of mobility) and their small boards are usually
proven exactly, so their marks come from exact scores.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from ..game import Game
from ..search.types import WIN, SearchResult, is_decisive

#: Seconds of search per position, and for the whole review.
REVIEW_SECONDS = 0.5
REVIEW_TOTAL = 60.0
#: Drops of a heuristic score (the mover's, in the game's points) that make
#: a move an inaccuracy, a mistake, a blunder (see the module docstring).
INACCURACY, MISTAKE, BLUNDER = 40, 120, 300


def review_entry(
    game: Game[Any, Any], state: Any, ply: int, move: Any, result: SearchResult[Any] | None
) -> dict[str, Any]:
    """The entry for the position after ``ply`` moves: its score from the
    first player's point of view (for the graph), whether it is proven, the
    best move found, the ``move`` played there (None at the end of the line),
    and ``class`` None (set by :func:`classify_line`). ``result`` is the
    search of ``state``, None at a finished position (scored by the rules)."""
    mover = game.to_move(state)
    if result is None:
        utility = game.utility(state, 0)
        score, exact, best = utility * WIN, True, None
    else:
        raw = result.score.raw
        score = raw if mover == 0 else -raw
        exact = result.score.exact or is_decisive(raw)
        best = None if result.best_move is None else game.format_move(result.best_move)
    return {
        "ply": ply,
        "to_move": mover,
        "score": score,
        "exact": exact,
        "best_move": best,
        "move": None if move is None else game.format_move(move),
        "class": None,
    }


def classify(before: int, before_exact: bool, after: int, after_exact: bool) -> str | None:
    """The mark of a move: ``before`` is the mover's best score in the
    position it was played in, ``after`` the score of the position it led
    to, both from the mover's point of view (see the module docstring)."""
    won_before = before_exact and before > 0 and is_decisive(before)
    won_after = after_exact and after > 0 and is_decisive(after)
    lost_after = after_exact and after < 0 and is_decisive(after)
    if won_before:
        return "lost-win" if after_exact and not won_after else None
    if before_exact and before == 0:
        return "lost-draw" if lost_after else None
    if before_exact:  # a proven loss: nothing left to lose
        return None
    if lost_after:
        return "blunder"
    if after_exact:  # a proven draw or win after a heuristic score: no drop to measure
        return None
    drop = before - after
    if drop >= BLUNDER:
        return "blunder"
    if drop >= MISTAKE:
        return "mistake"
    if drop >= INACCURACY:
        return "inaccuracy"
    return None


def classify_line(entries: list[dict[str, Any]]) -> None:
    """Set ``class`` of every entry whose next position is scored too (the
    move played is judged against the best move; playing it is never
    marked)."""
    for entry, after in pairwise(entries):
        entry["class"] = None
        if entry["move"] is None or entry["move"] == entry["best_move"]:
            continue
        sign = 1 if entry["to_move"] == 0 else -1
        entry["class"] = classify(
            sign * entry["score"], entry["exact"], sign * after["score"], after["exact"]
        )
