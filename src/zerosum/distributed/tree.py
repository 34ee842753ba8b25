"""The tree a split solve expands: every position within ``K`` plies of the
root, one per symmetry class, and how the proven results of its leaves
settle the positions above them.

Positions are kept by their class key (``game.canonical``, written as the
store writes it), so a position reached by several lines is one node with
several parents, and its job runs once. A node at ``K`` plies is a *leaf*:
a job solves it. A node nearer the root is settled from its children by one
minimax step (:meth:`SplitTree.settle`), as soon as they prove enough:

* **strong** (the exact value with its distance and every best move): when
  every child is exact;
* **weak** (win, draw or loss): as soon as one child proves a win for the
  side to move -- its siblings are then not needed, which is the cut of
  alpha-beta -- or when every child's outcome is known.

:meth:`SplitTree.needed` lists the leaves still needed, in the order a
depth-first alpha-beta search would reach them: at each node the children
best for its side to move first, by the game's cheap evaluation (then the
game's own move order).

>>> import zerosum
>>> tree = SplitTree.expand(zerosum.load("tictactoe"), zerosum.load("tictactoe").initial_state(), 1)
>>> len(tree.nodes), len(tree.leaves)
(4, 3)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..game import Game, ZerosumError
from ..i18n import _
from ..search.proven import Entry, move_score
from ..search.types import terminal_score

#: The most positions a split expands unless told otherwise.
DEFAULT_MAX_NODES = 2_000_000


def key_of(game: Game[Any, Any], state: Any) -> str:
    """The class key of ``state`` as the store writes it (``x`` and hex for
    an int, ``r`` and the repr otherwise)."""
    key = game.canonical(state)[0]
    if isinstance(key, int) and not isinstance(key, bool):
        return "x" + format(key, "x")
    return "r" + repr(key)


def good_enough(entry: Entry | None, weak: bool) -> bool:
    """Whether ``entry`` proves what the solve asks: the outcome (weak) or
    the exact value (strong)."""
    if entry is None:
        return False
    return entry.outcome is not None if weak else entry.exact


@dataclass
class Child:
    """One move of a node: where it leads (``key``, None when the game ends
    there, ``entry`` then its score by the rules) and whether the side to
    move stays the same (a pass)."""

    move: Any
    key: str | None
    same_side: bool
    entry: Entry | None = None


@dataclass
class Node:
    """One position of the split tree."""

    key: str
    state: Any
    moves: tuple[Any, ...]
    ply: int
    children: list[Child] = field(default_factory=list)
    parents: list[str] = field(default_factory=list)
    entry: Entry | None = None

    @property
    def leaf(self) -> bool:
        return not self.children


@dataclass
class SplitTree:
    """The positions within ``plies`` of ``root`` (see the module's notes)."""

    game: Game[Any, Any]
    root: str
    plies: int
    weak: bool
    nodes: dict[str, Node]

    @classmethod
    def expand(
        cls,
        game: Game[Any, Any],
        state: Any,
        plies: int,
        *,
        weak: bool = False,
        max_nodes: int = DEFAULT_MAX_NODES,
    ) -> SplitTree:
        """Expand ``state`` breadth first to ``plies`` plies. More than
        ``max_nodes`` positions is a one-line :class:`ZerosumError`."""
        if game.is_terminal(state):
            raise ZerosumError(
                _("the game is over in this position; expected a position with a move to make")
            )
        root = Node(key_of(game, state), state, (), 0)
        nodes = {root.key: root}
        frontier = [root]
        for depth in range(1, plies + 1):
            following: list[Node] = []
            for node in frontier:
                mover = game.to_move(node.state)
                scored: list[tuple[int, int, Child]] = []
                for order, action in enumerate(game.ordered_actions(node.state)):
                    child = game.result(node.state, action)
                    same = game.to_move(child) == mover
                    if game.is_terminal(child):
                        value = terminal_score(game.utility(child, game.to_move(child)), 0)
                        scored.append((0, order, Child(action, None, same, Entry(value, value))))
                        continue
                    key = key_of(game, child)
                    found = nodes.get(key)
                    if found is None:
                        if len(nodes) >= max_nodes:
                            raise ZerosumError(
                                _(
                                    "splitting {game} to {plies} plies makes more than {most}"
                                    " positions; expected fewer plies"
                                ).format(game=game.spec(), plies=plies, most=f"{max_nodes:,}")
                            )
                        found = Node(key, child, (*node.moves, action), depth)
                        nodes[key] = found
                        following.append(found)
                    if node.key not in found.parents:
                        found.parents.append(node.key)
                    # Best first for the side to move: the evaluation of the
                    # child from the mover's side (a cheap guess).
                    guess = game.evaluate(child, mover)
                    scored.append((-guess, order, Child(action, key, same)))
                scored.sort(key=lambda item: (item[0], item[1]))
                node.children = [child for _g, _o, child in scored]
            frontier = following
        return cls(game, root.key, plies, weak, nodes)

    @property
    def leaves(self) -> list[str]:
        """The keys of the nodes a job solves (no children expanded)."""
        return [key for key, node in self.nodes.items() if node.leaf]

    def child_entry(self, child: Child) -> Entry | None:
        return child.entry if child.key is None else self.nodes[child.key].entry

    def settle(self, node: Node) -> Entry | None:
        """``node``'s entry from its children's, when they prove enough (see
        the module's notes); else None. Settling costs no search: ``nodes``
        counts only the step itself."""
        weak = self.weak
        count = 1 + len(node.children)
        scores: list[tuple[Any, int]] = []
        outcomes: list[tuple[Any, int]] = []
        unknown = False
        all_exact = True
        for child in node.children:
            entry = self.child_entry(child)
            if entry is None or not good_enough(entry, weak):
                unknown = True
                continue
            if entry.exact:
                scores.append((child.move, move_score(entry.lower, child.same_side)))
            else:
                all_exact = False
            outcome = entry.outcome
            assert outcome is not None
            outcomes.append((child.move, outcome if child.same_side else -outcome))
        if not unknown and all_exact:
            value = max(score for _m, score in scores)
            best = [m for m, score in scores if score == value]
            return Entry.exact_value(value, best, nodes=count)
        if not weak:
            return None
        wins = [m for m, o in outcomes if o > 0]
        if wins:  # a win for the side to move: the other moves are not needed
            return Entry.outcome_only(1, wins, nodes=count, every_best=not unknown)
        if unknown:
            return None
        result = max(o for _m, o in outcomes)
        best = [m for m, o in outcomes if o == result]
        if result == 0:
            return Entry.exact_value(0, best, nodes=count)
        return Entry.outcome_only(result, best, nodes=count)

    def resolve(self, key: str, entry: Entry) -> list[Node]:
        """Record ``entry`` for node ``key`` and settle what it settles above;
        returns the nodes settled so (not ``key`` itself), nearest first."""
        node = self.nodes[key]
        node.entry = entry
        settled: list[Node] = []
        waiting = list(node.parents)
        while waiting:
            parent = self.nodes[waiting.pop(0)]
            if good_enough(parent.entry, self.weak):
                continue
            found = self.settle(parent)
            if found is None:
                continue
            parent.entry = found
            settled.append(parent)
            waiting.extend(parent.parents)
        return settled

    def done(self) -> bool:
        """Whether the root is proven as well as asked."""
        return good_enough(self.nodes[self.root].entry, self.weak)

    def needed(self) -> Iterator[str]:
        """The leaves still needed to prove the root, in alpha-beta's order
        (depth first, each node's children best first); each once."""
        seen: set[str] = set()
        stack = [self.root]
        while stack:
            key = stack.pop()
            if key in seen:
                continue
            seen.add(key)
            node = self.nodes[key]
            if good_enough(node.entry, self.weak):
                continue
            if node.leaf:
                yield key
                continue
            for child in reversed(node.children):
                if child.key is not None and child.key not in seen:
                    stack.append(child.key)

    def principal_variation(self) -> tuple[Any, ...]:
        """The moves from the root along the first best move of each proven
        node, through the leaf's first best move."""
        line: list[Any] = []
        node = self.nodes[self.root]
        while node.entry is not None and node.entry.best_moves:
            move = node.entry.best_moves[0]
            line.append(move)
            if node.leaf:
                break
            following = next((c for c in node.children if c.move == move), None)
            if following is None or following.key is None:
                break
            node = self.nodes[following.key]
        return tuple(line)
