"""What a book knows of one position, as the builder handles it: a proven
interval of values, the best moves and the positions the proof took.

A strong solve proves the value itself (``lower == upper``, with its
distance); a weak solve proves the outcome, and its fail-soft bound is kept
as an interval (a win: at least ``lower``; a loss: at most ``upper``; a draw
is always exact). Scores are the project's one encoding
(:mod:`zerosum.search.types`), from the side to move.

:func:`from_children` settles a position from its children's proofs by one
negamax step, as a one-ply search over proven children would: the interval
of ``max(-child)`` with each child's distance one ply further, and the moves
that reach the value. This is how a book built deepest first gets its
shallower positions without searching them again.

>>> from zerosum.search.types import win_in, loss_in
>>> kids = {"a": Proof(win_in(3), win_in(3)), "b": Proof(loss_in(4), loss_in(4))}
>>> p = from_children(kids)
>>> p.lower == p.upper == win_in(5), p.best
(True, ('b',))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..search.types import WIN, is_decisive, loss_in, win_in


@dataclass(frozen=True)
class Proof:
    """``lower <= value <= upper`` is proven for the side to move; ``best``
    holds the moves proven best (notation, in the game's move order; for a
    weak proof, the moves with the position's outcome); ``nodes`` the
    positions the proof visited."""

    lower: int
    upper: int
    best: tuple[str, ...] = ()
    nodes: int = 0

    @property
    def exact(self) -> bool:
        """The value itself is proven (with its distance)."""
        return self.lower == self.upper

    @property
    def outcome(self) -> int | None:
        """+1, 0, -1 when the interval proves one, else None."""
        if self.lower > 0:
            return 1
        if self.upper < 0:
            return -1
        if self.lower == 0 == self.upper:
            return 0
        return None

    def covers(self, need_exact: bool) -> bool:
        """Whether this proof is as good as a build asks: the exact value
        (strong), or at least the outcome (weak)."""
        return self.exact if need_exact else self.outcome is not None


def terminal(utility: int) -> Proof:
    """The proof of a finished position for the side to move there, whose
    utility is ``utility`` (the game ended on the move before: 0 plies)."""
    value = 0 if utility == 0 else win_in(0) if utility > 0 else loss_in(0)
    return Proof(value, value)


def _back(score: int) -> int:
    """A child's score seen from its parent: negated, one ply further."""
    if not is_decisive(score):
        return -score
    return -score + 1 if score > 0 else -score - 1


def from_children(children: Mapping[str, Proof]) -> Proof:
    """The parent's proof from every legal move's child proof (``children``
    maps the move's text to the proof for the side to move in the child; in
    the game's move order). The interval is exact when every child's is; a
    win, draw or loss is proven when every child's outcome is."""
    assert children, "a position with no moves is terminal"
    lower = max(_back(p.upper) for p in children.values())
    upper = max(_back(p.lower) for p in children.values())
    nodes = 1 + len(children)
    if lower == upper:
        best = tuple(m for m, p in children.items() if p.exact and _back(p.lower) == lower)
        return Proof(lower, upper, best, nodes)
    parent = Proof(lower, upper)
    outcome = parent.outcome
    best = tuple(
        m
        for m, p in children.items()
        if outcome is not None and Proof(_back(p.upper), _back(p.lower)).outcome == outcome
    )
    if outcome == -1:
        best = tuple(children)  # every move loses; as the solver says, all are "best"
    return Proof(lower, upper, best, nodes)


__all__ = ["WIN", "Proof", "from_children", "terminal"]
