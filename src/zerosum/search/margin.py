"""The exact margin: by how much the side to move wins or loses.

For a game whose result has a size (``Game.max_margin()`` is not None:
Othello's final disc difference), a strong solve asks for the **margin**
under perfect play, each side maximising its own: the value of the game in
``margin`` units (``Game.margin`` at the terminals) rather than win, draw or
loss with a distance. The search is negamax alpha-beta, fail-soft, over a
transposition table of bounds; the value is found by null-window probes
("is the margin at least ``x``?"), each answer a bound that places the next
probe, from a first guess of 0. Every root move that reaches the value is
then proven to with one more null window, and a principal variation to the
end is read by solving each position along it (cheap: the table is warm).

The compiled backend has its own solver for the games it knows (Othello:
:mod:`zerosum.native.othello_end`), reached through the backend registry;
the Python one here serves every other game and the Python backend, and is
the reference the compiled one is tested against.

>>> import zerosum
>>> game = zerosum.load("othello(size=4)")
>>> result = solve(game, game.initial_state())
>>> result.margin, result.score.outcome
(-10, -1)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable
from typing import Any, Protocol

from ..game import Game, ZerosumError
from ..i18n import _
from .backends import native as native_backend
from .types import Limits, Score, SearchResult, SearchStats, loss_in, win_in


class Stopped(Exception):
    """A margin solve was stopped (its stop, time or position budget) after
    ``positions`` positions (set by :func:`solve`)."""

    positions = 0


class MarginSolver(Protocol):
    """What a margin solver does for one game (the Python one here, or the
    compiled one the native backend gives)."""

    def solve(self, state: Any, all_moves: bool, budget: int) -> tuple[int, tuple[Any, ...], int]:
        """``(margin, best moves, positions)`` of a position not over;
        raises :class:`Stopped` when stopped or past ``budget`` positions
        (0: no budget)."""

    def line(self, state: Any, first: Any) -> list[Any]:
        """A principal variation to the end of the game starting with
        ``first`` (a best move of ``state``)."""

    def stop(self) -> None:
        """From another thread: end the running solve."""

    @property
    def positions(self) -> int:
        """Positions visited since the solver was made."""


def sized(game: Game[Any, Any]) -> bool:
    """Whether ``game``'s results have a size to solve for."""
    return game.max_margin() is not None


class PythonMargin:
    """The margin by alpha-beta over the Game protocol, with a table of
    bounds (a dict; kept between solves of one instance)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        top = game.max_margin()
        if top is None:
            raise ZerosumError(
                _("{game} has no sized results (max_margin); expected a game with margins").format(
                    game=game.spec()
                )
            )
        self.game = game
        self.top = top
        #: key -> (lower, upper, best move or None)
        self.table: dict[Hashable, tuple[int, int, Any]] = {}
        self.positions = 0
        self._budget = 0
        self._stopped = False

    def stop(self) -> None:
        self._stopped = True

    def _search(self, state: Any, alpha: int, beta: int) -> int:
        """The margin for the side to move, fail-soft in ``(alpha, beta)``."""
        game = self.game
        self.positions += 1
        if self._stopped or (self._budget and self.positions > self._budget):
            raise Stopped
        if game.is_terminal(state):
            return game.margin(state, game.to_move(state))
        key = game.key(state)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            lower, upper, first = entry
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        moves = list(game.ordered_actions(state))
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        best, best_move, floor = -self.top - 1, None, alpha
        for move in moves:
            value = -self._search(game.result(state, move), -beta, -floor)
            if value > best:
                best, best_move = value, move
                floor = max(floor, value)
                if value >= beta:
                    break
        low, high = -self.top, self.top
        if entry is not None:
            low, high = entry[0], entry[1]
        if best >= beta:
            low = max(low, best)
        elif best > alpha:
            low = high = best
        else:
            high = min(high, best)
            best_move = first
        self.table[key] = (low, high, best_move)
        return best

    def value(self, state: Any) -> int:
        """The exact margin by null-window probes from a guess of 0."""
        lower, upper = -self.top, self.top
        x = max(lower + 1, min(upper, 0))
        while lower < upper:
            v = self._search(state, x - 1, x)  # is the margin at least x?
            if v >= x:
                lower, x = v, v + 1
            else:
                upper, x = v, v
            x = max(lower + 1, min(upper, x))
        return lower

    def solve(self, state: Any, all_moves: bool, budget: int) -> tuple[int, tuple[Any, ...], int]:
        start = self.positions
        self._stopped = False
        self._budget = start + budget if budget > 0 else 0
        value = self.value(state)
        game = self.game
        best: list[Any] = []
        for move in game.ordered_actions(state):
            if best and not all_moves:
                break
            # Does this move reach the value? (None exceeds it.)
            if -self._search(game.result(state, move), -value, -value + 1) >= value:
                best.append(move)
        return value, tuple(best), self.positions - start

    def line(self, state: Any, first: Any) -> list[Any]:
        game = self.game
        moves = [first]
        state = game.result(state, first)
        while not game.is_terminal(state):
            _value, best, _positions = self.solve(state, False, 0)
            moves.append(best[0])
            state = game.result(state, best[0])
        return moves


def margin_solver(game: Game[Any, Any], backend: str) -> MarginSolver:
    """The compiled solver when ``backend`` is ``native`` and the backend has
    one for ``game``, else the Python one."""
    if backend == "native":
        compiled = native_backend()
        found = None if compiled is None else compiled.margin_solver(game)
        if found is not None:
            return found  # type: ignore[no-any-return]
    return PythonMargin(game)


def margin_score(margin: int, plies: int) -> Score:
    """The solve's score in the usual encoding: the outcome the margin's sign
    gives, its distance that of the line found (not proven shortest)."""
    raw = win_in(plies) if margin > 0 else loss_in(plies) if margin < 0 else 0
    return Score(raw, exact=True, distance_known=False)


def solve(
    game: Game[Any, Any],
    state: Any,
    *,
    solver: MarginSolver | None = None,
    limits: Limits | None = None,
    all_moves: bool = True,
) -> SearchResult[Any]:
    """The exact margin of ``state`` for the side to move (the result's
    ``margin``), every move reaching it (one with ``all_moves=False``) and a
    principal variation to the end. ``limits`` may bound its time and
    positions: reached first, :class:`Stopped` is raised."""
    if solver is None:
        solver = PythonMargin(game)
    budget = limits.nodes if limits is not None and limits.nodes is not None else 0
    timer = None
    if limits is not None and limits.time is not None:
        timer = threading.Timer(limits.time, solver.stop)
        timer.daemon = True
        timer.start()
    started = time.perf_counter()
    before = solver.positions
    try:
        margin, best, positions = solver.solve(state, all_moves, budget)
        pv = tuple(solver.line(state, best[0])) if best else ()
    except Stopped as stopped:
        stopped.positions = solver.positions - before
        raise
    finally:
        if timer is not None:
            timer.cancel()
    elapsed = time.perf_counter() - started
    return SearchResult(
        best_move=best[0] if best else None,
        score=margin_score(margin, len(pv)),
        pv=pv,
        stats=SearchStats(nodes=positions, time_s=elapsed),
        best_moves=best,
        margin=margin,
    )


__all__ = [
    "MarginSolver",
    "PythonMargin",
    "Stopped",
    "margin_score",
    "margin_solver",
    "sized",
    "solve",
]
