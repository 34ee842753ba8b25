"""Reference minimax and alpha-beta, written to be read.

These are the algorithms of the tutorials, kept deliberately plain: a
two-sided search in which MAX is the player to move at the root and MIN the
opponent, every position a fresh immutable state. They are the ground truth
every faster engine is tested against.

Scores are from MAX's point of view:

* a terminal position ``ply`` plies below the root scores ``WIN - ply`` when
  MAX has won and ``-(WIN - ply)`` when MAX has lost (the tutorials'
  "10 - depth": a quicker win and a slower loss score better), 0 for a draw;
* with a depth limit, a position at the limit scores
  ``game.evaluate(state, MAX)`` (the game's heuristic).

With ``evaluate_terminals=True`` and a depth limit, a position where the game
is over is scored by the evaluation too, as the tutorials' depth-limited code
does (its leaves are "the depth limit, or no move for the side to move"). That
reproduces the tutorials' figures exactly (Domineering's worked example); the
default, scoring the end of the game as a proven win, loss or draw, is sounder.

Statistics: ``nodes`` counts every position visited (root and terminal
positions included), ``leaves`` the positions scored without looking further
(terminal, or at the depth limit), ``cutoffs`` the alpha-beta prunings.
Plain minimax from the empty tic-tac-toe board visits 549,946 positions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ..game import Game
from .types import (
    INF,
    MoveScore,
    Score,
    SearchResult,
    SearchStats,
    is_decisive,
    terminal_score,
)

Algorithm = Literal["minimax", "alphabeta"]
ALGORITHMS: tuple[Algorithm, ...] = ("minimax", "alphabeta")


@dataclass
class _Counter:
    """Mutable tallies while one search runs."""

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    horizon: int = 0  # leaves scored by the heuristic, not by the rules

    def stats(self, started: float) -> SearchStats:
        return SearchStats(
            nodes=self.nodes,
            leaves=self.leaves,
            cutoffs=self.cutoffs,
            time_s=time.perf_counter() - started,
        )


class ReferenceSearch:
    """One search from one root: the game, the root player (MAX), the depth
    limit, and the counters. A search trace (``search/trace.py``) subclasses
    it: :meth:`minimax`, :meth:`alphabeta` and :meth:`leaf` are its hooks,
    and ``count`` the tallies it reads."""

    def __init__(
        self,
        game: Game[Any, Any],
        root: Hashable,
        depth: int | None,
        evaluate_terminals: bool = False,
    ) -> None:
        self.game = game
        self.max_player = game.to_move(root)
        self.depth = depth
        self.evaluate_terminals = evaluate_terminals and depth is not None
        self.count = _Counter()

    def leaf(self, state: Any, ply: int) -> int | None:
        """The score of ``state`` if the search stops here, else None."""
        game = self.game
        if ply > REFERENCE_MAX_PLY:
            raise too_deep()
        if game.is_terminal(state) and not self.evaluate_terminals:
            self.count.leaves += 1
            return terminal_score(game.utility(state, self.max_player), ply)
        if (self.depth is not None and ply >= self.depth) or game.is_terminal(state):
            self.count.leaves += 1
            self.count.horizon += 1
            return game.evaluate(state, self.max_player)
        return None

    def minimax(self, state: Any, ply: int) -> tuple[int, tuple[Any, ...]]:
        """Value of ``state`` for MAX and the principal variation from it."""
        self.count.nodes += 1
        leaf = self.leaf(state, ply)
        if leaf is not None:
            return leaf, ()
        maximizing = self.game.to_move(state) == self.max_player
        best_value, best_line = (-INF if maximizing else INF), ()
        for action in self.game.actions(state):
            value, line = self.minimax(self.game.result(state, action), ply + 1)
            if (value > best_value) if maximizing else (value < best_value):
                best_value, best_line = value, (action, *line)
        return best_value, best_line

    def alphabeta(self, state: Any, ply: int, alpha: int, beta: int) -> tuple[int, tuple[Any, ...]]:
        """Alpha-beta: the same value as :meth:`minimax` whenever that value
        lies strictly between ``alpha`` and ``beta``; otherwise a bound on the
        correct side (at most ``alpha``, or at least ``beta``)."""
        self.count.nodes += 1
        leaf = self.leaf(state, ply)
        if leaf is not None:
            return leaf, ()
        maximizing = self.game.to_move(state) == self.max_player
        best_line: tuple[Any, ...] = ()
        if maximizing:
            value = -INF
            for action in self.game.actions(state):
                child, line = self.alphabeta(self.game.result(state, action), ply + 1, alpha, beta)
                if child > value:
                    value, best_line = child, (action, *line)
                alpha = max(alpha, value)
                if alpha >= beta:
                    self.count.cutoffs += 1  # MIN will never allow this position
                    break
        else:
            value = INF
            for action in self.game.actions(state):
                child, line = self.alphabeta(self.game.result(state, action), ply + 1, alpha, beta)
                if child < value:
                    value, best_line = child, (action, *line)
                beta = min(beta, value)
                if alpha >= beta:
                    self.count.cutoffs += 1  # MAX already has something better
                    break
        return value, best_line

    def search(
        self, state: Any, algorithm: Algorithm, alpha: int = -INF, beta: int = INF
    ) -> tuple[int, tuple[Any, ...]]:
        """The value of a root move's position ``state`` and its line. A game
        longer than Python's recursion allows is a one-line
        :class:`~zerosum.game.ZerosumError`, not a RecursionError."""
        try:
            if algorithm == "minimax":
                return self.minimax(state, 1)
            return self.alphabeta(state, 1, alpha, beta)
        except RecursionError:
            raise too_deep() from None


#: The deepest ply the reference algorithms search: a game longer than this
#: gets the one-line error at once instead of a search of astronomic size.
#: An explicit count, not Python's recursion limit: that limit is the whole
#: process's, and lowering it here once made a deep engine search in another
#: thread fail (issue 26). Below Python's default limit, with room for the
#: callers' frames (a traced search takes two frames a ply; a RecursionError
#: is still caught and gets the same error).
REFERENCE_MAX_PLY = 900


def too_deep() -> Exception:
    """The error for a search deeper than Python's recursion limit."""
    from ..game import ZerosumError
    from ..i18n import _

    return ZerosumError(
        _(
            "the game is too long for this search: it recurses one level a ply and Python"
            " allows about {limit}; expected a depth limit or a shorter game"
        ).format(limit=REFERENCE_MAX_PLY)
    )


def _check(game: Game[Any, Any], state: Any, algorithm: str) -> None:
    from ..game import ZerosumError
    from ..i18n import _

    if algorithm not in ALGORITHMS:
        raise ZerosumError(
            _("unknown algorithm {name!r}; expected minimax or alphabeta").format(name=algorithm)
        )
    if game.is_terminal(state):
        raise ZerosumError(
            _("the game is over in this position; expected a position with a move to make")
        )


class Recorder(Protocol):
    """The trace hook (what :class:`.trace.Recorder` implements): given the
    search's parameters, the search object to run, one that also notes the
    tree. Named here so that the reference search never imports the trace
    that watches it."""

    def watch(
        self, game: Game[Any, Any], root: Any, depth: int | None, evaluate_terminals: bool
    ) -> ReferenceSearch: ...


def _new_search(
    game: Game[Any, Any],
    root: Any,
    depth: int | None,
    evaluate_terminals: bool,
    recorder: Recorder | None,
) -> ReferenceSearch:
    """The search object; a recorder supplies one that also notes the tree."""
    if recorder is None:
        return ReferenceSearch(game, root, depth, evaluate_terminals)
    return recorder.watch(game, root, depth, evaluate_terminals)


def _score(value: int, search: ReferenceSearch, horizon_before: int) -> Score:
    """A root move's score; exact when decisive or when no heuristic leaf
    was scored in its subtree."""
    return Score(value, exact=is_decisive(value) or search.count.horizon == horizon_before)


def best_move(
    game: Game[Any, Any],
    state: Any,
    *,
    algorithm: Algorithm = "alphabeta",
    depth: int | None = None,
    rng: random.Random | None = None,
    evaluate_terminals: bool = False,
    recorder: Recorder | None = None,
) -> SearchResult[Any]:
    """Choose a move the way the tutorials' ``get_best_move`` does: try the
    moves in the game's order, keep a later move only when it is strictly
    better, and (for alpha-beta) let the best value so far raise alpha for the
    moves that follow.

    With ``rng``, every equally good move is found (alpha-beta then searches
    each move with a window just below the best value, so ties are exact) and
    one is chosen at random from ``rng``; without it the first best move in
    the game's order is returned, deterministically. ``evaluate_terminals``:
    see the module docstring. ``recorder`` (a :class:`.trace.Recorder`)
    watches the search and keeps its tree; it changes nothing it returns.
    """
    _check(game, state, algorithm)
    started = time.perf_counter()
    search = _new_search(game, state, depth, evaluate_terminals, recorder)
    search.count.nodes += 1  # the root
    best_value = -INF
    best: list[Any] = []
    line_of: dict[Any, tuple[Any, ...]] = {}
    exact = True
    for action in game.actions(state):
        horizon = search.count.horizon
        # Without rng only strictly better moves matter, so alpha = best;
        # with rng ties matter too, so the window opens one point lower.
        alpha = best_value if rng is None else best_value - 1
        value, line = search.search(game.result(state, action), algorithm, alpha, INF)
        line_of[action] = (action, *line)
        if value > best_value:
            best_value, best = value, [action]
            exact = _score(value, search, horizon).exact
        elif value == best_value and rng is not None:
            best.append(action)
    choice = best[0] if rng is None else rng.choice(best)
    return SearchResult(
        best_move=choice,
        score=Score(best_value, exact=exact),
        pv=line_of[choice],
        stats=search.count.stats(started),
        depth=depth,
        best_moves=tuple(best),
    )


def analyze(
    game: Game[Any, Any],
    state: Any,
    *,
    algorithm: Algorithm = "alphabeta",
    depth: int | None = None,
    evaluate_terminals: bool = False,
    recorder: Recorder | None = None,
) -> SearchResult[Any]:
    """Score every legal move with a full window (so each score is the move's
    true minimax value at this depth), best first; ties keep the game's move
    order. ``best_moves`` holds every move with the best score; with no depth
    limit this is an exact solve: for a win the quickest moves, for a loss
    the slowest, for a draw every drawing move. ``evaluate_terminals``: see
    the module docstring; ``recorder``: see :func:`best_move`."""
    _check(game, state, algorithm)
    started = time.perf_counter()
    search = _new_search(game, state, depth, evaluate_terminals, recorder)
    search.count.nodes += 1
    moves = []
    for action in game.actions(state):
        nodes, horizon = search.count.nodes, search.count.horizon
        value, line = search.search(game.result(state, action), algorithm)
        moves.append(
            MoveScore(
                move=action,
                score=_score(value, search, horizon),
                pv=(action, *line),
                nodes=search.count.nodes - nodes,
            )
        )
    moves.sort(key=lambda m: -m.score.raw)
    top = moves[0]
    return SearchResult(
        best_move=top.move,
        score=top.score,
        pv=top.pv,
        stats=search.count.stats(started),
        depth=depth,
        best_moves=tuple(m.move for m in moves if m.score.raw == top.score.raw),
        moves=tuple(moves),
    )


def solve(
    game: Game[Any, Any], state: Any, *, algorithm: Algorithm = "alphabeta"
) -> SearchResult[Any]:
    """The exact value of ``state`` for the side to move, with every optimal
    move: :func:`analyze` with no depth limit."""
    return analyze(game, state, algorithm=algorithm, depth=None)


def value(
    game: Game[Any, Any],
    state: Any,
    *,
    algorithm: Algorithm = "alphabeta",
    depth: int | None = None,
) -> tuple[int, SearchStats]:
    """The minimax value of ``state`` for the side to move (a terminal state
    included: its utility, at distance 0), with the search's statistics."""
    started = time.perf_counter()
    search = ReferenceSearch(game, state, depth)
    try:
        if algorithm == "minimax":
            result = search.minimax(state, 0)[0]
        else:
            result = search.alphabeta(state, 0, -INF, INF)[0]
    except RecursionError:
        raise too_deep() from None
    return result, search.count.stats(started)
