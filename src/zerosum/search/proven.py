"""Proven results that outlive a search: the value a store of solved positions
(:mod:`zerosum.store`) or an opening book keeps for one position, and the
interface the search front door asks of such a store.

This module belongs to the search layer so that search can read and write
proven results without knowing where they are kept: :mod:`zerosum.store`
implements :class:`KnownResults` over SQLite; a test may implement it over
a dict.

An :class:`Entry` holds what a proof established about one position, from
the side to move, in the project's one score encoding
(:mod:`zerosum.search.types`: a win ``p`` plies on is ``win_in(p)``):

* ``lower``, ``upper`` -- the proven bounds on the value (inclusive);
  ``lower == upper`` is an exact value with its distance (a strong solve);
  a weak solve proves only the outcome, stored as the whole range of that
  outcome (:func:`outcome_bounds`);
* ``best_moves`` -- for an exact value, every move worth it (a strong
  solve's set); for a bound, every move proven to reach the same outcome
  (a weak solve's set); empty when only the value is known (a position
  reached by an analysis's move);
* ``nodes`` -- the positions the proof took; ``solved_at`` -- when (seconds
  since the epoch); ``source`` -- what produced it (``solve``, ``analyze``,
  ``book``); ``ply`` -- how many plies from the start the position is, when
  the producer knows (a book does; None otherwise);
* ``every_best`` -- True when ``best_moves`` is every best move (a solve
  that proves one optimal move, ``all_moves=False``, keeps False: the move
  answers "a best move" but not "every best move").

>>> from zerosum.search.types import win_in
>>> old = Entry(win_in(9), win_in(1), (3,))
>>> new = Entry(win_in(7), win_in(7), (3, 4))
>>> merge(old, new).exact, merge(new, old).exact
(True, True)
>>> merge(new, old).describe()
'win in 7 plies'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from .types import MAX_PLY, Score, is_decisive, loss_in, win_in

#: What produced an entry.
SOURCES = ("solve", "analyze", "book")
#: The least and the greatest value a position can have.
LOWEST, HIGHEST = loss_in(0), win_in(0)


def outcome_bounds(outcome: int) -> tuple[int, int]:
    """The bounds that say only ``outcome`` (+1 a win, 0 a draw, -1 a loss)
    at any distance: what a weak solve proves."""
    if outcome > 0:
        return win_in(MAX_PLY), win_in(1)
    if outcome < 0:
        return loss_in(1), loss_in(MAX_PLY)
    return 0, 0


@dataclass(frozen=True)
class Entry:
    """What a proof established about one position (see the module notes).
    ``best_moves`` are in the frame of the position they are given for
    (a store maps them through the position's symmetry)."""

    lower: int
    upper: int
    best_moves: tuple[Any, ...] = ()
    nodes: int = 0
    solved_at: float = 0.0
    source: str = "solve"
    ply: int | None = None
    every_best: bool = True

    def __post_init__(self) -> None:
        if not LOWEST <= self.lower <= self.upper <= HIGHEST:
            raise ValueError(f"bounds must satisfy {LOWEST} <= lower <= upper <= {HIGHEST}")
        if self.source not in SOURCES:
            raise ValueError(f"source must be one of {', '.join(SOURCES)}, not {self.source!r}")

    @classmethod
    def exact_value(
        cls,
        value: int,
        best_moves: Sequence[Any],
        *,
        nodes: int = 0,
        source: str = "solve",
        solved_at: float | None = None,
        every_best: bool = True,
    ) -> Entry:
        """An exact value (with its distance) and every move worth it (one of
        them when ``every_best`` is False)."""
        when = time.time() if solved_at is None else solved_at
        return cls(value, value, tuple(best_moves), nodes, when, source, None, every_best)

    @classmethod
    def outcome_only(
        cls,
        outcome: int,
        best_moves: Sequence[Any],
        *,
        nodes: int = 0,
        source: str = "solve",
        solved_at: float | None = None,
        every_best: bool = True,
    ) -> Entry:
        """A proven outcome without its distance (a weak solve) and every move
        that reaches it (one of them when ``every_best`` is False)."""
        lower, upper = outcome_bounds(outcome)
        when = time.time() if solved_at is None else solved_at
        return cls(lower, upper, tuple(best_moves), nodes, when, source, None, every_best)

    @property
    def exact(self) -> bool:
        """True for an exact value (the distance is known)."""
        return self.lower == self.upper

    @property
    def outcome(self) -> int | None:
        """+1 win, 0 draw, -1 loss when the bounds prove it, else None."""
        if self.lower > 0:
            return 1
        if self.upper < 0:
            return -1
        if self.lower == self.upper == 0:
            return 0
        return None

    @property
    def score(self) -> Score:
        """The entry as a search score: exact with its distance, or (a bound
        that proves the outcome) a decisive score whose distance is not
        known."""
        if self.exact:
            return Score(self.lower, exact=True)
        if self.lower > 0:
            return Score(self.lower, exact=True, distance_known=False)
        if self.upper < 0:
            return Score(self.upper, exact=True, distance_known=False)
        raise ValueError("the entry proves no outcome")

    def describe(self) -> str:
        """Short English text: ``win in 7 plies``, ``draw``, ``win``,
        ``at least a draw``."""
        if self.outcome is not None:
            return self.score.describe()
        if self.lower == 0:
            return "at least a draw"
        if self.upper == 0:
            return "at most a draw"
        return f"between {self.lower} and {self.upper}"

    @property
    def answers_every_best(self) -> bool:
        """True when the entry names every best move (not only one)."""
        return self.every_best and bool(self.best_moves)

    def with_moves(self, best_moves: Sequence[Any]) -> Entry:
        """The same entry with ``best_moves``."""
        return replace(self, best_moves=tuple(best_moves))

    def with_ply(self, ply: int | None) -> Entry:
        """The same entry at ``ply`` plies from the start."""
        return replace(self, ply=ply)


def merge(old: Entry, new: Entry) -> Entry:
    """The entry to keep when ``new`` is put where ``old`` is: never a worse
    answer for a better one. An exact value beats a bound (and a first exact
    value stays, gaining the best moves it lacked); of two bounds the
    tighter wins; two bounds that each tell something the other does not
    are joined (the intersection, with the newer best moves, else the
    older); bounds that contradict each other keep ``old``. Of two answers
    with the same bounds, one that names every best move beats one that
    names only some."""
    if old.exact:
        # An exact value kept without its moves (from an analysis of the
        # position before), or with only one of them, gains them from a solve.
        return new if new.exact and new.lower == old.lower and _more_moves(old, new) else old
    if new.exact:
        return new
    lower, upper = max(old.lower, new.lower), min(old.upper, new.upper)
    if lower > upper:
        return old
    if (lower, upper) == (old.lower, old.upper):
        same = (new.lower, new.upper) == (lower, upper)
        return new if same and _more_moves(old, new) else old
    # Moves that reach the old entry's outcome still do within the tighter
    # bounds (an interrupted solve's bounds come without moves).
    moves, every = new.best_moves, new.every_best
    if not moves and old.outcome is not None:
        moves, every = old.best_moves, old.every_best
    if (lower, upper) == (new.lower, new.upper) and moves == new.best_moves:
        return new
    return replace(new, lower=lower, upper=upper, best_moves=moves, every_best=every)


def _more_moves(old: Entry, new: Entry) -> bool:
    """True when ``new`` names best moves ``old`` lacks: ``old`` has none,
    or only some and ``new`` every one."""
    if not new.best_moves:
        return False
    return not old.best_moves or (not old.every_best and new.every_best)


def child_value(move_score: int, same_side: bool) -> int:
    """The value of the position after a move, for its side to move, from
    the move's score for the side that made it: negated and one ply nearer
    when turns alternate (``same_side`` False), one ply nearer otherwise (a
    pass)."""
    value = move_score if same_side else -move_score
    if is_decisive(value):
        return value + 1 if value > 0 else value - 1
    return value


def move_score(child: int, same_side: bool) -> int:
    """Inverse of :func:`child_value`: a move's score from the value of the
    position it leads to."""
    value = child
    if is_decisive(value):
        value = value - 1 if value > 0 else value + 1
    return value if same_side else -value


class KnownResults(Protocol):
    """A keeper of proven results, as the search front door uses it
    (:class:`zerosum.store.Store` is one). ``get`` answers None for a
    position it does not know; ``put`` merges (:func:`merge`) with what is
    kept. Best moves are given and returned in the frame of ``state``.
    Neither raises for a broken file when the keeper was opened to report
    problems instead (the store's ``on_error``)."""

    @property
    def label(self) -> str:
        """``store`` or ``book``: how a front end names answers from it."""
        ...

    def get(self, game: Any, state: Any) -> Entry | None: ...

    def put(self, game: Any, state: Any, entry: Entry) -> None: ...


#: The store the front door uses when its options name none (and do not
#: turn the store off): set once by a front end (the command line, the
#: browser, ``zerosum engine``) from its settings; None in a plain library
#: use, which then keeps nothing unless given a store.
_DEFAULT_STORE: list[KnownResults | None] = [None]


def set_default_store(store: KnownResults | None) -> KnownResults | None:
    """Make ``store`` the process's default store (None: none); returns the
    previous one."""
    previous = _DEFAULT_STORE[0]
    _DEFAULT_STORE[0] = store
    return previous


def default_store() -> KnownResults | None:
    """The process's default store (see :func:`set_default_store`)."""
    return _DEFAULT_STORE[0]


#: Finders of a game's opening book: ``finder(game)`` returns the book (a
#: read-only :class:`KnownResults`) or None. Registered by the layer that
#: keeps books (:mod:`zerosum.store`), asked by the front door.
_BOOK_FINDERS: list[Callable[[Any], KnownResults | None]] = []


def register_book_finder(finder: Callable[[Any], KnownResults | None]) -> None:
    """Let the front door find opening books through ``finder``: called
    with the game each time a :class:`~zerosum.search.front.Searcher` is
    made, so it should keep the books it opened."""
    if finder not in _BOOK_FINDERS:
        _BOOK_FINDERS.append(finder)


def unregister_book_finder(finder: Callable[[Any], KnownResults | None]) -> None:
    """Undo :func:`register_book_finder` (a test's clean-up)."""
    if finder in _BOOK_FINDERS:
        _BOOK_FINDERS.remove(finder)


#: Whether books are found at all in this process (``serve --no-book``).
_BOOKS_ON = [True]


def set_books_enabled(enabled: bool) -> None:
    """Turn finding opening books on or off for the whole process."""
    _BOOKS_ON[0] = enabled


def find_book(game: Any) -> KnownResults | None:
    """The opening book of ``game``, or None when no finder has one (or
    books are turned off: :func:`set_books_enabled`)."""
    if not _BOOKS_ON[0]:
        return None
    for finder in _BOOK_FINDERS:
        book = finder(game)
        if book is not None:
            return book
    return None


__all__ = [
    "HIGHEST",
    "LOWEST",
    "SOURCES",
    "Entry",
    "KnownResults",
    "child_value",
    "default_store",
    "find_book",
    "merge",
    "move_score",
    "outcome_bounds",
    "register_book_finder",
    "set_books_enabled",
    "set_default_store",
    "unregister_book_finder",
]
