"""The positions of an opening book: every position up to ``K`` plies from
the start, one per symmetry class, terminal positions left out.

The tree is walked breadth first, ply by ply, in the game's move order, so
the list is the same on every run (a resumed build finds the same positions
in the same order). A position is kept the first time its symmetry class is
met (``game.canonical``): its *ply* is the fewest plies that reach the class,
and its moves are the first line that reaches it. In games where a position
can be reached at different plies (Nim), it is listed once, at the smallest.

Positions are held as a tree (each one's parent and the move from it), not
as a move list each, so that a few million fit in memory:

>>> import zerosum
>>> tree = enumerate_positions(zerosum.load("tictactoe"), 2)
>>> tree.counts()
[1, 3, 12]
>>> [" ".join(tree.move_texts(i)) for i in tree.at_ply(1)]
['0', '1', '4']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..game import Game, ZerosumError
from ..i18n import _

#: The most positions a book enumerates unless told otherwise: enough for
#: Connect Four 7x6 to 9 plies, and still a few hundred MB of memory.
DEFAULT_MAX_POSITIONS = 2_000_000
#: The most plies asked for (a longer opening is not an opening).
MAX_PLIES = 200


@dataclass
class PositionTree:
    """The positions of a book, numbered from 0 in breadth-first order (the
    start first). ``parent[i]`` is the number of the position ``i`` was
    reached from (-1 for the start), ``move[i]`` the move from it, ``ply[i]``
    its depth, ``key[i]`` its symmetry class's key (``game.canonical``)."""

    game: Game[Any, Any]
    parent: list[int] = field(default_factory=list)
    move: list[Any] = field(default_factory=list)
    ply: list[int] = field(default_factory=list)
    key: list[Hashable] = field(default_factory=list)
    #: Position number by symmetry-class key.
    index: dict[Hashable, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.ply)

    def moves(self, i: int) -> list[Any]:
        """The moves from the start to position ``i``."""
        line: list[Any] = []
        while self.parent[i] >= 0:
            line.append(self.move[i])
            i = self.parent[i]
        line.reverse()
        return line

    def move_texts(self, i: int) -> list[str]:
        """:meth:`moves` in the game's notation."""
        return [self.game.format_move(m) for m in self.moves(i)]

    def state(self, i: int) -> Any:
        """Position ``i`` (replayed from the start)."""
        game = self.game
        state = game.initial_state()
        for m in self.moves(i):
            state = game.result(state, m)
        return state

    def at_ply(self, ply: int) -> Iterator[int]:
        """The numbers of the positions at ``ply``, in order."""
        return (i for i, p in enumerate(self.ply) if p == ply)

    def counts(self) -> list[int]:
        """How many positions there are at each ply, from 0."""
        out = [0] * (max(self.ply) + 1 if self.ply else 0)
        for p in self.ply:
            out[p] += 1
        return out

    def find(self, state: Any) -> int | None:
        """The number of the position of ``state``'s symmetry class, if any."""
        return self.index.get(self.game.canonical(state)[0])


def check_plies(plies: object) -> int:
    """``plies`` when it is a whole number from 0 to :data:`MAX_PLIES`, else
    a one-line :class:`ZerosumError`."""
    if not isinstance(plies, int) or isinstance(plies, bool) or not 0 <= plies <= MAX_PLIES:
        raise ZerosumError(
            _("a book's plies must be a whole number from 0 to {most}, got {value}").format(
                most=MAX_PLIES, value=str(plies)[:20]
            )
        )
    return plies


def enumerate_positions(
    game: Game[Any, Any],
    plies: int,
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    on_ply: Callable[[int, int], None] | None = None,
) -> PositionTree:
    """Every non-terminal position within ``plies`` plies of the start, one
    per symmetry class (see the module's docstring). ``on_ply(ply, count)``
    is told how many positions each ply added. More than ``max_positions``
    is a one-line :class:`ZerosumError` (asking for fewer plies), raised as
    soon as the count passes it, before memory runs out."""
    check_plies(plies)
    tree = PositionTree(game)
    start = game.initial_state()
    if game.is_terminal(start):
        return tree
    frontier: list[tuple[int, Any]] = [(_add(tree, -1, None, 0, start), start)]
    if on_ply is not None:
        on_ply(0, 1)
    for depth in range(1, plies + 1):
        following: list[tuple[int, Any]] = []
        for number, state in frontier:
            for action in game.actions(state):
                child = game.result(state, action)
                if game.is_terminal(child):
                    continue
                key = game.canonical(child)[0]
                if key in tree.index:
                    continue
                if len(tree) >= max_positions:
                    raise ZerosumError(
                        _(
                            "a book of {game} to {plies} plies holds more than {most} positions;"
                            " expected fewer plies (or a larger --max-positions)"
                        ).format(game=game.spec(), plies=plies, most=f"{max_positions:,}")
                    )
                following.append((_add(tree, number, action, depth, child, key), child))
        if on_ply is not None:
            on_ply(depth, len(following))
        frontier = following
        if not frontier:
            break
    return tree


def _add(
    tree: PositionTree,
    parent: int,
    move: Any,
    ply: int,
    state: Any,
    key: Hashable | None = None,
) -> int:
    if key is None:
        key = tree.game.canonical(state)[0]
    number = len(tree.ply)
    tree.parent.append(parent)
    tree.move.append(move)
    tree.ply.append(ply)
    tree.key.append(key)
    tree.index[key] = number
    return number


def walk(game: Game[Any, Any]) -> Iterator[tuple[int, tuple[Any, ...], Any]]:
    """Every non-terminal position reachable from the start, one per
    symmetry class, breadth first in the game's move order (the order of
    :func:`enumerate_positions`), as ``(ply, moves, state)``; endless for a
    long game, so the caller stops it."""
    start = game.initial_state()
    if game.is_terminal(start):
        return
    seen: set[Hashable] = {game.canonical(start)[0]}
    frontier: list[tuple[tuple[Any, ...], Any]] = [((), start)]
    yield 0, (), start
    ply = 0
    while frontier:
        ply += 1
        following: list[tuple[tuple[Any, ...], Any]] = []
        for moves, state in frontier:
            for action in game.actions(state):
                child = game.result(state, action)
                if game.is_terminal(child):
                    continue
                key = game.canonical(child)[0]
                if key in seen:
                    continue
                seen.add(key)
                line = (*moves, action)
                following.append((line, child))
                yield ply, line, child
        frontier = following
