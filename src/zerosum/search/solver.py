"""The exact solver: the game-theoretic value of a position, with its
distance, and every optimal move.

The method is Pascal Pons' (his Connect Four solver's ``solve``): keep a range
``[lower, upper]`` that holds the value and narrow it with null-window
searches. A probe at ``x`` asks "is the value above ``x``?" with the window
``(x, x + 1)``; the fail-soft answer is a bound on the right side, often much
tighter than ``x`` itself, and the transposition table carries what each probe
learnt into the next. The probe points are chosen on an ordinal scale of
results (every loss distance, the draw, every win distance) by bisection
biased towards the draw, so the first probes settle win / draw / loss and the
later ones the distance. ``weak=True`` only asks the questions around 0.

Once the value ``V`` is known, every other root move is tested with one null
window just below ``V`` ("is this move worth ``V`` too?"), which gives every
optimal move: for a win the quickest, for a loss the slowest, for a draw
every drawing move.

>>> import zerosum
>>> game = zerosum.load("tictactoe")
>>> result = solve(game, game.play("0 4 8".split()))
>>> result.score.describe(), sorted(game.format_move(m) for m in result.best_moves)
('draw', ['1', '3', '5', '7'])

The tree must be finite (no repeated positions without a rule that ends the
game): the solver searches to the end with no depth limit.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from ..game import Game, ZerosumError
from ..i18n import _
from .engine import Engine, EngineOptions, table_move_first
from .node import UNLIMITED, SearchCore, Stop
from .perfectline import one_ply_on, perfect_line
from .types import (
    INF,
    MAX_PLY,
    WIN,
    Limits,
    Progress,
    Score,
    SearchResult,
    SearchStats,
    check_limits,
    loss_in,
    win_in,
)


class SolveInterrupted(ZerosumError):
    """The solve was stopped (``Engine.stop()``, or its time or node budget)
    before the value was proven. ``lower`` and ``upper`` are the proven
    bounds on the value so far, ``best_move`` a move proven to reach
    ``lower`` (None if none yet), ``stats`` what the search did."""

    def __init__(
        self, lower: int, upper: int, best_move: Any, stats: SearchStats
    ) -> None:
        super().__init__(
            _("the solve was stopped before the value was proven")
        )
        self.lower = lower
        self.upper = upper
        self.best_move = best_move
        self.stats = stats


def ordinal(score: int, horizon: int | None = None) -> int:
    """A result on a dense scale: a win in ``p`` plies is ``MAX_PLY - p``, a
    draw 0, a loss in ``p`` plies ``-(MAX_PLY - p)``. Order-preserving, so
    bisection on it bisects the possible results rather than raw scores.
    With ``horizon`` the scale holds only results within that many plies
    (``horizon + 1 - p``; a distance beyond it counts as the horizon)."""
    if score == 0:
        return 0
    distance, scale = WIN - abs(score), MAX_PLY
    if horizon is not None:
        distance, scale = min(distance, horizon), horizon + 1
    return scale - distance if score > 0 else distance - scale


def from_ordinal(value: int, horizon: int | None = None) -> int:
    """Inverse of :func:`ordinal` (on the same scale)."""
    scale = MAX_PLY if horizon is None else horizon + 1
    if value > 0:
        return win_in(scale - value)
    if value < 0:
        return loss_in(scale + value)
    return 0


def probe_point(lower: int, upper: int, horizon: int = MAX_PLY) -> int:
    """The score to probe next when the value lies in ``[lower, upper]``
    (``lower < upper``): the middle of the range on the :func:`ordinal` scale,
    pulled towards the draw as Pons does (first win / draw / loss, then
    distances). Always ``lower <= point < upper``, so every probe narrows the
    range.

    ``horizon`` bounds the plies the game can still last (the game's
    ``plies_left``): results further away are impossible, so the middle is
    taken among the possible results only (a Connect Four position has at
    most 42, not :data:`~zerosum.search.types.MAX_PLY`, which saves the
    probes that would only ask "is it a win within 5,000 plies?")."""
    if horizon < MAX_PLY:
        mid = _middle(ordinal(lower, horizon), ordinal(upper, horizon))
        tight = from_ordinal(mid, horizon)
        if lower <= tight < upper:
            return tight
    return from_ordinal(_middle(ordinal(lower), ordinal(upper)))


def _middle(low: int, high: int) -> int:
    """Pons' probe point between ordinals ``low < high``: the middle, pulled
    towards 0 (the draw); always ``low <= mid < high``."""
    mid = low + (high - low) // 2
    # int(x / 2) truncates towards zero, as C's division does in Pons' code.
    if mid <= 0 and int(low / 2) < mid:
        mid = int(low / 2)
    elif mid >= 0 and int(high / 2) > mid:
        mid = int(high / 2)
    return max(low, min(mid, high - 1))


def solve(
    game: Game[Any, Any],
    state: Any,
    *,
    weak: bool = False,
    options: EngineOptions | None = None,
    on_progress: Callable[[Progress[Any]], None] | None = None,
    engine: Engine[Any] | None = None,
    limits: Limits | None = None,
    all_moves: bool = True,
) -> SearchResult[Any]:
    """Solve ``state`` exactly for the side to move.

    Returns a :class:`SearchResult` with

    * ``score`` -- exact (``score.exact`` is True). Strong mode: the value
      with its distance (a win as fast as possible, a loss as slow as
      possible). Weak mode: ``score.outcome`` is proven; a win's or loss's raw
      score is only the bound the proof found (the win comes within
      ``score.plies`` plies; the loss no sooner);
    * ``best_moves`` -- every optimal move in the game's move order (strong:
      every move whose value equals the position's; weak: every move with the
      same outcome -- for a loss, every legal move); only one when
      ``all_moves=False``;
    * ``best_move`` -- the first of them; ``pv`` -- strong mode: its line of
      perfect play to the end of the game (:func:`perfect_line`: a win or
      loss in ``p`` plies has ``p`` moves, a draw's length is its distance);
      weak mode: its line as far as the transposition table knows it;
    * ``depth`` -- None (to the end of the game); ``stats`` -- every probe's
      positions added up (the line's own probes are not counted; ``time_s``
      includes them).

    ``on_progress`` gets a :class:`Progress` after each probe, with the proven
    ``lower`` / ``upper`` bounds so far. Pass ``engine`` to reuse its
    transposition table or to stop the solve from another thread with
    ``engine.stop()``; ``limits`` may bound time and positions (not depth).
    Stopped early, :class:`SolveInterrupted` is raised with the bounds so far.
    Raises :class:`ZerosumError` at a terminal position.
    """
    if engine is None:
        engine = Engine(game, options)
    elif engine.game is not game:
        raise ZerosumError(_("the engine was made for another game"))
    limits = check_limits(limits)
    if limits.depth is not None:
        raise ZerosumError(
            _("the solver searches to the end of the game; expected no depth limit")
        )
    engine.check_root(state)
    started = time.perf_counter()
    core = engine.start_search(limits, started)
    return _Solve(engine, core, state, started, weak, on_progress, all_moves).run()


class _Solve:
    """One solve: the root moves and the probes over them."""

    def __init__(
        self,
        engine: Engine[Any],
        core: SearchCore,
        root: Any,
        started: float,
        weak: bool,
        on_progress: Callable[[Progress[Any]], None] | None,
        all_moves: bool,
    ) -> None:
        self.game = engine.game
        self.engine = engine
        self.core = core
        self.root = root
        self.started = started
        self.weak = weak
        self.on_progress = on_progress
        self.all_moves = all_moves
        self.me = self.game.to_move(root)
        #: The most plies the game can still last (the game's hint), which
        #: narrows the probe points to possible results.
        left = self.game.plies_left(root)
        self.horizon = MAX_PLY if left is None else max(1, min(left, MAX_PLY))
        self.lower, self.upper = loss_in(1), win_in(1)
        self.best_move: Any = None

    def run(self) -> SearchResult[Any]:
        try:
            return self._run()
        except Stop:
            raise SolveInterrupted(
                self.lower, self.upper, self.best_move, self.core.stats(self.started)
            ) from None

    def _children(self, moves: list[Any]) -> list[tuple[Any, Any, int]]:
        game = self.game
        out = []
        for move in moves:
            child = game.result(self.root, move)
            out.append((move, child, game.to_move(child)))
        return out

    def _value(self, child: Any, cs: int, alpha: int, beta: int) -> int:
        return self.core.child_value(child, cs, self.me, UNLIMITED - 1, alpha, beta)

    def _probe(self, children: list[tuple[Any, Any, int]], alpha: int) -> tuple[int, Any]:
        """Null window ``(alpha, alpha + 1)`` at the root: the fail-soft value
        and the move that gave it. A move that fails high is moved to the
        front for the next probe."""
        self.core.count_root()
        best, best_move = -INF, None
        for index, (move, child, cs) in enumerate(children):
            value = self._value(child, cs, alpha, alpha + 1)
            if value > best:
                best, best_move = value, move
            if value > alpha:
                if index:
                    children.insert(0, children.pop(index))
                break
        return best, best_move

    def _report(self) -> None:
        if self.on_progress is None:
            return
        score = Score(self.lower, exact=self.lower == self.upper)
        pv = (self.best_move,) if self.best_move is not None else ()
        self.on_progress(
            self.core.progress(
                self.started, None, score, self.best_move, pv, self.lower, self.upper
            )
        )

    def _result(self, value: int, best: list[Any]) -> SearchResult[Any]:
        order = {m: i for i, m in enumerate(self.game.actions(self.root))}
        best = sorted(best, key=lambda m: order.get(m, len(order)))
        self.lower = self.upper = value
        self.best_move = best[0]
        self._report()
        proof = self.core.stats(self.started)
        if self.weak:  # only the outcome is proven: the table's line, as far as it goes
            pv = (best[0], *self.core.table_line(self.root, (best[0],), MAX_PLY))
        else:
            pv = (best[0], *self._line_after(best[0], value))
        return SearchResult(
            best_move=best[0],
            score=Score(value, exact=True),
            pv=pv,
            # The proof's positions; the time includes the line's probes.
            stats=dataclasses.replace(proof, time_s=time.perf_counter() - self.started),
            depth=None,
            best_moves=tuple(best),
        )

    def _line_after(self, move: Any, value: int) -> tuple[Any, ...]:
        """Perfect play after the root ``move`` worth ``value``, to the end
        of the game (:func:`perfect_line`)."""
        child = self.game.result(self.root, move)
        after = one_ply_on(value)
        if self.game.to_move(child) != self.me:
            after = -after
        return perfect_line(self.core, self.game, child, after, MAX_PLY - 1)

    def _run(self) -> SearchResult[Any]:
        game, core, root = self.game, self.core, self.root
        legal = list(core.gen_moves(root))
        # Hooks at the root: a win at once, or nothing but losses at once.
        if core.use_win and not self.weak:
            win = game.winning_action(root)
            if win is not None:
                core.count_root()
                if not self.all_moves:
                    return self._result(win_in(1), [win])
                wins = [
                    m
                    for m in legal
                    if game.is_terminal(child := game.result(root, m))
                    and game.utility(child, self.me) > 0
                ]
                return self._result(win_in(1), wins)
        moves = legal
        if core.use_nl:
            safe = game.non_losing_actions(root)
            if safe is not None:
                core.count_root()
                if not safe:
                    return self._result(loss_in(2), legal if self.all_moves else legal[:1])
                moves = list(safe)
                # No move wins at once; the hook's mate-distance bounds hold.
                self.lower, self.upper = core.nl_bounds
        self._static_bounds()
        children = self._children(table_move_first(core, root, list(moves)))

        value = self._weak(children) if self.weak else self._strong(children)
        if self.weak and value < 0:
            return self._result(value, legal if self.all_moves else legal[:1])
        best = [self.best_move] if self.best_move is not None else []
        if self.all_moves or not best:
            best = self._optimal(children, value)
        return self._result(value, best)

    def _static_bounds(self) -> None:
        """Narrow the bounds by the game's static decision at the root (Nim's
        nim-sum rule: a loss within the sticks left) and show them at once:
        a strong solve may need far longer than the outcome does, and the
        user watching it should see what is already proven."""
        game = self.game
        if self.engine.options.hooks and type(game).static_bound is not Game.static_bound:
            b = game.static_bound(self.root)
            if b > 0:
                self.lower = max(self.lower, win_in(b))
            elif b < 0:
                self.upper = min(self.upper, loss_in(-b))
        self._report()

    def _narrow(self, value: int, point: int, move: Any) -> None:
        if value > point:
            self.lower = max(self.lower, value)
            self.best_move = move
        else:
            self.upper = min(self.upper, value)
        self._report()

    def _strong(self, children: list[tuple[Any, Any, int]]) -> int:
        # The native core runs the loop below in one compiled call (the same
        # probes; without the progress records that need Python after each).
        strong = getattr(self.core, "solve_strong", None)
        if strong is not None and self.on_progress is None:
            given = list(children)
            stopped, self.lower, self.upper, best = strong(
                children, self.me, self.lower, self.upper, self.horizon, UNLIMITED - 1
            )
            if best >= 0:
                self.best_move = given[best][0]
            if stopped:
                raise Stop
            return self.lower
        while self.lower < self.upper:
            point = probe_point(self.lower, self.upper, self.horizon)
            value, move = self._probe(children, point)
            self._narrow(value, point, move)
        return self.lower

    def _weak(self, children: list[tuple[Any, Any, int]]) -> int:
        """Win, draw or loss, by null windows around 0. Returns a score of the
        right sign: the fail-soft bound for a win or loss, 0 for a draw."""
        value, move = self._probe(children, 0)
        self._narrow(value, 0, move)
        if value > 0:
            return value
        value, move = self._probe(children, -1)
        self._narrow(value, -1, move)
        return 0 if value > -1 else value

    def _optimal(self, children: list[tuple[Any, Any, int]], value: int) -> list[Any]:
        """Every root move worth ``value`` (weak mode: with the outcome of
        ``value``), one null window each, the known best move skipped."""
        best = []
        self.core.count_root()
        for move, child, cs in children:
            if move == self.best_move:
                best.append(move)
                continue
            # Strong: is the move worth value? Weak: a win, is it above 0; a
            # draw, is it above -1?
            point = value - 1 if not self.weak else 0 if value > 0 else -1
            if self._value(child, cs, point, point + 1) > point:
                best.append(move)
        return best
