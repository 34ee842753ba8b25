"""Settling a position from its children's proven results, as a one-ply
search over them would.

A book's entries are the store's (:class:`~zerosum.search.proven.Entry`):
a strong solve proves the value with its distance (``lower == upper``), a
weak one only the outcome (its whole range, as the store keeps it).

:func:`settle` is one negamax step: every move's score from its child's
value (negated and one ply further, or only one ply further after a pass),
the best of them, and every move that reaches it -- the value, distance and
best-move set a solve of the position proves. A book built deepest first
gets its shallower positions this way, without searching them again.

>>> import zerosum
>>> from zerosum.search.types import win_in, loss_in
>>> game = zerosum.load("connect4(width=4,height=4)")
>>> kids = [(0, Entry.exact_value(win_in(3), []), False),
...         (1, Entry.exact_value(loss_in(4), []), False)]
>>> entry = settle(kids, need_exact=True)
>>> entry.describe(), entry.best_moves
('win in 5 plies', (1,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import Game
from ..search.proven import Entry, move_score
from ..search.types import terminal_score

#: What a settled entry says produced it.
SOURCE = "book"


def good_enough(entry: Entry, need_exact: bool) -> bool:
    """Whether ``entry`` is as good as a build asks: the exact value (a
    strong build), or at least the outcome (a weak one)."""
    return entry.exact if need_exact else entry.outcome is not None


def finished(game: Game[Any, Any], state: Any) -> Entry:
    """The entry of a finished position for its side to move (0 plies on)."""
    value = terminal_score(game.utility(state, game.to_move(state)), 0)
    return Entry.exact_value(value, [], source=SOURCE)


def settle(children: Sequence[tuple[Any, Entry, bool]], need_exact: bool) -> Entry | None:
    """The parent's entry from every legal move's ``(move, child entry,
    same_side)`` (``same_side``: the child has the same side to move, a
    pass), in the game's move order; None when the children do not prove
    enough (a child's value unknown for a strong build, an outcome unknown
    for a weak one). Every child exact gives an exact value."""
    assert children, "a position with no moves is finished"
    nodes = 1 + len(children)
    if all(entry.exact for _m, entry, _s in children):
        scores = [(m, move_score(entry.lower, same)) for m, entry, same in children]
        value = max(score for _m, score in scores)
        best = [m for m, score in scores if score == value]
        return Entry.exact_value(value, best, nodes=nodes, source=SOURCE)
    if need_exact:
        return None
    outcomes = []
    for move, entry, same in children:
        outcome = entry.outcome
        if outcome is None:
            return None
        outcomes.append((move, outcome if same else -outcome))
    result = max(o for _m, o in outcomes)
    best = [m for m, o in outcomes if o == result]
    return Entry.outcome_only(result, best, nodes=nodes, source=SOURCE)


__all__ = ["SOURCE", "Entry", "finished", "good_enough", "settle"]
