"""Reviewing a game: each position's score, and each move judged.

Pure functions (the session runs the searches): :func:`review_entry` turns
one position's search into an entry of the ``review`` object, and
:func:`classify` judges a move by comparing the mover's best score before
it with the score after it, from the mover's point of view.

Exact results dominate: a proven win before the move and a proven non-win
after it is ``"lost-win"`` (the win was thrown away); a proven draw before
and a proven loss after is ``"lost-draw"``; a heuristic score before and a
proven loss after is a ``"blunder"``. Between two heuristic scores the drop
decides, measured in the game's own evaluation unit
(:attr:`~zerosum.game.Game.evaluation_unit`: about what one strategic
feature is worth, a threat in Connect Four, a corner in Othello): losing
about one unit is an inaccuracy, three a mistake, seven and a half (a big
threat or two corners and more) a blunder. A game whose evaluation has no
unit (Domineering's and Nim's mobility counts, whose small boards are
usually proven exactly; a user's game that does not say) gets marks from
exact scores only.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..game import Game
from ..search.types import WIN, Limits, Score, SearchResult, is_decisive

#: Positions searched for each position of the game, and for the whole
#: review, by backend: budgets in positions, not seconds, so that the same
#: game gets the same marks every time (a time limit ends each search
#: wherever the machine's load leaves it). The native figures take about
#: 0.1 s a position on a quiet machine, the Python ones about as long.
REVIEW_NODES = {"native": 500_000, "python": 20_000}
REVIEW_TOTAL_NODES = {"native": 10_000_000, "python": 400_000}
#: Drops of a heuristic score (the mover's), in the game's evaluation units,
#: that make a move an inaccuracy, a mistake, a blunder (see the module
#: docstring).
INACCURACY, MISTAKE, BLUNDER = 1.0, 3.0, 7.5


@dataclass(frozen=True)
class Thresholds:
    """The drops, in the game's points, that make a move an inaccuracy, a
    mistake and a blunder."""

    inaccuracy: float
    mistake: float
    blunder: float

    @classmethod
    def of(cls, game: Game[Any, Any]) -> Thresholds | None:
        """The game's thresholds from its evaluation unit; None when its
        evaluation has none (heuristic drops are then not judged)."""
        unit = game.evaluation_unit
        if unit is None:
            return None
        return cls(INACCURACY * unit, MISTAKE * unit, BLUNDER * unit)


def review_limits(backend: str, positions: int) -> Limits:
    """The node limit of each search of a review of ``positions`` positions
    on ``backend`` (``native``, else the Python figures): its share of the
    whole review's budget, at most the budget of one position."""
    each = REVIEW_NODES.get(backend, REVIEW_NODES["python"])
    total = REVIEW_TOTAL_NODES.get(backend, REVIEW_TOTAL_NODES["python"])
    return Limits(nodes=max(1, min(each, total // max(1, positions))))


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
    seen = Score(score, exact)
    return {
        "ply": ply,
        "to_move": mover,
        "score": score,
        "exact": exact,
        # The first player's view, decoded (docs/messages.md: kind, plies).
        "kind": seen.kind,
        "plies": seen.plies,
        "best_move": best,
        "move": None if move is None else game.format_move(move),
        "class": None,
    }


def classify(
    before: int,
    before_exact: bool,
    after: int,
    after_exact: bool,
    thresholds: Thresholds | None,
) -> str | None:
    """The mark of a move: ``before`` is the mover's best score in the
    position it was played in, ``after`` the score of the position it led
    to, both from the mover's point of view, judged by the game's
    ``thresholds`` (:meth:`Thresholds.of`; see the module docstring)."""
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
    if after_exact or thresholds is None:
        # A proven draw or win after a heuristic score, or a game whose
        # evaluation has no scale: no drop to measure.
        return None
    drop = before - after
    if drop >= thresholds.blunder:
        return "blunder"
    if drop >= thresholds.mistake:
        return "mistake"
    if drop >= thresholds.inaccuracy:
        return "inaccuracy"
    return None


def classify_line(entries: list[dict[str, Any]], thresholds: Thresholds | None) -> None:
    """Set ``class`` of every entry whose next position is scored too (the
    move played is judged against the best move; playing it is never
    marked), by the game's ``thresholds``."""
    for entry, after in pairwise(entries):
        entry["class"] = None
        if entry["move"] is None or entry["move"] == entry["best_move"]:
            continue
        sign = 1 if entry["to_move"] == 0 else -1
        entry["class"] = classify(
            sign * entry["score"], entry["exact"], sign * after["score"], after["exact"],
            thresholds,
        )
