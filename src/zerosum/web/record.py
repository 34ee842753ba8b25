"""The game record as a tree of variations, walked along one current line.

Pure Python (no asyncio, no game knowledge beyond a ``result`` function):
moves are any hashable values, compared with ``==``.

Contract:

* The record is a tree whose root is the start position; each node is a
  move and the position after it. Every node remembers which of its
  children it continues with (the one played or chosen last), so the
  *current line* is the path from the root following those choices down to
  a leaf. :attr:`Record.line` is its moves, :attr:`Record.ply` how many of
  them lead to the position shown (0 .. ``len(line)``).
* :meth:`Record.play` plays a move at the position shown. If it is the next
  move of the current line, the line is followed (the rest stays: redo
  works); if it is another child already there, the current line becomes
  that child's remembered line; otherwise a new child is added and becomes
  current, the old continuation staying as a variation. Nothing is ever
  discarded.
* :meth:`Record.switch` does the same for an existing child only (else
  :class:`KeyError`): the ``line`` message.
* :meth:`Record.goto` moves along the current line without changing it.
* :meth:`Record.variations` lists, for each ply of the current line, the
  other children there with their remembered continuations.
* :meth:`Record.drop` deletes a variation (never the current line): the
  one thing that discards moves, and only when asked.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

S = TypeVar("S")
A = TypeVar("A", bound=Hashable)


@dataclass(eq=False)
class Node(Generic[S, A]):
    """A position of the tree: the move that led here (None at the root),
    the position, the children in the order they were first played, and
    the index of the child the remembered line continues with, and a
    ``tag`` the caller may attach (who played the move)."""

    move: A | None
    state: S
    children: list[Node[S, A]] = field(default_factory=list)
    chosen: int = 0
    tag: str | None = None

    def child(self, move: A) -> int | None:
        """The index of the child reached by ``move``, None if none."""
        for index, node in enumerate(self.children):
            if node.move == move:
                return index
        return None

    def continuation(self) -> list[A]:
        """The moves of the remembered line below this node."""
        moves: list[A] = []
        node = self
        while node.children:
            node = node.children[node.chosen]
            assert node.move is not None
            moves.append(node.move)
        return moves


@dataclass
class Variation(Generic[A]):
    """A variation: it replaces the move after ``ply`` moves with ``moves``
    (its move, then its remembered line); ``inner`` are the variations
    played inside it."""

    ply: int
    moves: list[A]
    inner: list[Variation[A]]


def _inner(node: Node[S, A], ply: int) -> list[Variation[A]]:
    """The variations along the remembered line below ``node`` (whose
    move was played at ``ply - 1``)."""
    found: list[Variation[A]] = []
    while node.children:
        for index, child in enumerate(node.children):
            if index != node.chosen and child.move is not None:
                moves = [child.move, *child.continuation()]
                found.append(Variation(ply, moves, _inner(child, ply + 1)))
        node = node.children[node.chosen]
        ply += 1
    return found


class Record(Generic[S, A]):
    """A game record with variations; see the module docstring.

    ``result(state, move)`` gives the position after a move (it is called
    once per new node). ``moves`` is the starting line, shown at its end.
    """

    def __init__(self, result: Callable[[S, A], S], origin: S, moves: Iterable[A] = ()) -> None:
        self._result = result
        self.root: Node[S, A] = Node(None, origin)
        self._path: list[Node[S, A]] = [self.root]
        self.ply = 0
        for move in moves:
            self.play(move)

    # -- reading ---------------------------------------------------------------
    @property
    def origin(self) -> S:
        """The position the record starts from."""
        return self.root.state

    @property
    def state(self) -> S:
        """The position shown (after :attr:`ply` moves of the current line)."""
        return self._path[self.ply].state

    @property
    def line(self) -> list[A]:
        """The moves of the current line, to its end."""
        return [node.move for node in self._path[1:] if node.move is not None]

    def state_at(self, ply: int) -> S:
        """The position after ``ply`` moves of the current line."""
        return self._path[ply].state

    @property
    def states(self) -> list[S]:
        """The positions of the current line: ``states[p]`` after ``p`` moves."""
        return [node.state for node in self._path]

    @property
    def tags(self) -> list[str | None]:
        """The tags of the current line's moves (as :meth:`play` set them)."""
        return [node.tag for node in self._path[1:]]

    def next_moves(self, ply: int) -> list[A]:
        """Every move played after ``ply`` moves of the current line (its
        children), in the order first played."""
        return [node.move for node in self._path[ply].children if node.move is not None]

    def __len__(self) -> int:
        """The length of the current line, in moves."""
        return len(self._path) - 1

    def variations(self) -> list[tuple[int, list[A]]]:
        """For each ply ``p`` of the current line, each child of the node
        after ``p`` moves other than the current line's: ``(p, [its move,
        then its remembered continuation])``, in ply order, then in the
        order the variations were first played."""
        found: list[tuple[int, list[A]]] = []
        for ply, node in enumerate(self._path[:-1]):
            for index, child in enumerate(node.children):
                if index != node.chosen:
                    assert child.move is not None
                    found.append((ply, [child.move, *child.continuation()]))
        return found

    def variation_tree(self) -> list[Variation[A]]:
        """:meth:`variations` with the variations played inside each one:
        a variation that branches off at ply ``p`` lists, in ``inner``, the
        other children met along its own line (at plies ``p + 1`` on), and
        so on down; switching to one is a ``switch`` to its outer variation,
        then to it."""
        return [
            Variation(ply, [child.move, *child.continuation()], _inner(child, ply + 1))
            for ply, node in enumerate(self._path[:-1])
            for index, child in enumerate(node.children)
            if index != node.chosen and child.move is not None
        ]

    # -- changing --------------------------------------------------------------
    def goto(self, ply: int) -> None:
        """Show the position after ``ply`` moves of the current line."""
        if not 0 <= ply <= len(self):
            raise IndexError(ply)
        self.ply = ply

    def play(self, move: A, tag: str | None = None) -> None:
        """Play ``move`` at the position shown (see the module docstring);
        the position after it is then shown. ``tag``, when given, replaces
        the tag of the move's node."""
        node = self._path[self.ply]
        index = node.child(move)
        if index is None:
            node.children.append(Node(move, self._result(node.state, move)))
            index = len(node.children) - 1
        self._choose(node, index)
        if tag is not None:
            self._path[self.ply].tag = tag

    def switch(self, ply: int, move: A) -> None:
        """Make the current line, from ``ply`` on, the variation that starts
        with ``move`` (an existing child of the node after ``ply`` moves;
        else KeyError) and show the position after it (ply ``ply + 1``)."""
        if not 0 <= ply <= len(self):
            raise IndexError(ply)
        node = self._path[ply]
        index = node.child(move)
        if index is None:
            raise KeyError(move)
        self.ply = ply
        self._choose(node, index)

    def drop(self, ply: int, move: A) -> None:
        """Delete the variation that starts with ``move`` after ``ply``
        moves of the current line, with everything played in it: KeyError
        when there is none, ValueError when ``move`` is the current line's
        own (switch to another line first). The position shown stays."""
        if not 0 <= ply < len(self._path):
            raise IndexError(ply)
        node = self._path[ply]
        index = node.child(move)
        if index is None:
            raise KeyError(move)
        if index == node.chosen and ply < len(self):
            raise ValueError(move)
        del node.children[index]
        if index < node.chosen:
            node.chosen -= 1

    def _choose(self, node: Node[S, A], index: int) -> None:
        """Continue the current line after ``node`` (the position shown) with
        its child ``index`` and its remembered line; show that child."""
        if index != node.chosen or self.ply == len(self):
            node.chosen = index
            del self._path[self.ply + 1 :]
            below = node.children[index]
            self._path.append(below)
            while below.children:
                below = below.children[below.chosen]
                self._path.append(below)
        self.ply += 1
