"""The engine: negamax alpha-beta with principal-variation search, iterative
deepening, a transposition table and move ordering, for any :class:`Game`.

>>> import zerosum
>>> from zerosum.search.engine import Engine
>>> game = zerosum.load("tictactoe")
>>> result = Engine(game).search(game.play("0 4 1".split()))
>>> game.format_move(result.best_move), result.score.describe()
('2', 'draw')

Scores
------
Every score is from the side to move (negamax), in the units of
:mod:`zerosum.search.types`: a terminal position ``p`` plies from the root
scores ``terminal_score(utility, p)`` (a win ``WIN - p``, a loss
``-(WIN - p)``, a draw 0); a position at the depth limit scores
``game.evaluate(state, to_move)``. Turns need not alternate: a child whose side
to move is the parent's own is added, not negated.

The reference (``reference.py``) scores a depth-limit position with
``evaluate(state, root player)``; the two agree because the protocol
requires the evaluation to be antisymmetric (``evaluate(s, p) ==
-evaluate(s, other(p))``, see :meth:`zerosum.game.Game.evaluate`;
:func:`zerosum.testing.check_game` checks it).

The node function, its contract, exactness, the hooks and the move order
at a node are described in :mod:`zerosum.search.node`.

Limits
------
``Limits(depth, time, nodes)`` in any combination; the budget is checked
inside the recursion about every millisecond (every :data:`CHECK_INTERVAL`
positions at first, adapted to what a position costs), and an unfinished
iteration is thrown away (except that a root move proven better than the
previous best in it is kept), so what comes back is never a half-searched
guess. With no depth limit, iterative deepening goes on until an iteration is
exact (or :data:`~zerosum.search.types.MAX_PLY` plies).
"""

from __future__ import annotations

import os
import random
import sys
import threading
import time
import weakref
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from ..game import Game, ZerosumError
from ..i18n import _
from .backends import NOT_REGISTERED, NativeBackend
from .backends import native as native_backend
from .node import (
    CHECK_INTERVAL,
    UNLIMITED,
    PythonCore,
    Scratch,
    SearchCore,
    Stop,
)
from .perfectline import one_ply_on, perfect_line
from .tt import (
    DEFAULT_SIZE,
    ENTRY_BYTES,
    TranspositionTable,
    check_megabytes,
    memory_bytes,
    slots_for,
)
from .types import (
    INF,
    MAX_PLY,
    WIN,
    Limits,
    MoveScore,
    Progress,
    Score,
    SearchResult,
    SearchStats,
    check_limits,
    is_decisive,
    loss_in,
    win_in,
)

A = TypeVar("A")

#: Iterative deepening does not start a new iteration once this share of the
#: time budget is spent: the next one would most likely be thrown away.
NEW_ITERATION_SHARE = 0.5
#: The most threads one search may use.
MAX_THREADS = 256


def every_core() -> int:
    """The cores this process may run on (the terminal's thread count for
    ``solve`` and ``analyze``), at most :data:`MAX_THREADS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_THREADS))

#: Where the engine's search runs: ``auto`` picks ``native`` (compiled, the
#: ``fast`` extra) when the game has native code and numba is installed.
BACKENDS = ("auto", "python", "native")


@dataclass(frozen=True)
class EngineOptions:
    """Which of the engine's features are on. Every feature can be turned off,
    so a benchmark can show what each buys; the values never change a proven
    (exact) score, only how many positions it takes to find it.

    * ``tt``           -- a transposition table of ``tt_size`` entries (kept
                          between searches of one :class:`Engine`; the native
                          backend's default is sized in megabytes instead,
                          unless ``tt_size`` is set);
    * ``symmetry``     -- key the table by ``game.canonical`` (one entry per
                          symmetry class; None: as the game's
                          ``symmetric_search`` says, on for tic-tac-toe, small
                          m,n,k boards and Domineering, and natively also
                          Othello's opening); pays off when ``canonical`` is
                          cheap next to the search it saves;
    * ``static_order`` -- moves in ``game.ordered_actions`` order, else
                          ``game.actions``;
    * ``killers``      -- two killer moves per ply tried after the table move;
    * ``history``      -- moves sorted by history score (per side) on top of
                          the static order;
    * ``pvs``          -- principal-variation search: after the first move of a
                          PV node, null windows, re-searched on a fail high;
    * ``hooks``        -- use ``winning_action`` / ``non_losing_actions`` /
                          ``static_bound`` and their mate-distance bounds;
    * ``backend``      -- ``auto``, ``python`` or ``native`` (see
                          :data:`BACKENDS`); both give the same values;
    * ``hash_mb``      -- the table's size in megabytes, which then overrides
                          ``tt_size`` (each backend fits as many entries as
                          its entry size allows);
    * ``threads``      -- how many threads one native search runs on, sharing
                          its table (``zerosum.native.smp``: the same exact
                          values; positions summed over the threads). The
                          Python backend searches on one thread whatever this
                          says (the GIL would serialise them), and so does a
                          search without a table.
    """

    tt: bool = True
    tt_size: int = DEFAULT_SIZE
    symmetry: bool | None = None
    static_order: bool = True
    killers: bool = True
    history: bool = True
    pvs: bool = True
    hooks: bool = True
    backend: str = "auto"
    hash_mb: float | None = None
    threads: int = 1

    def __post_init__(self) -> None:
        if (
            isinstance(self.threads, bool)
            or not isinstance(self.threads, int)
            or not 1 <= self.threads <= MAX_THREADS
        ):
            raise ZerosumError(
                _("threads must be a whole number from 1 to {most}, got {value}").format(
                    most=MAX_THREADS, value=str(self.threads)[:40]
                )
            )
        if isinstance(self.tt_size, bool) or not isinstance(self.tt_size, int) or self.tt_size < 1:
            raise ZerosumError(
                _("table size must be a whole number of at least 1, got {value}").format(
                    value=str(self.tt_size)[:40]
                )
            )
        if self.tt_size * ENTRY_BYTES > memory_bytes() // 2:
            raise ZerosumError(
                _(
                    "a table of {value} entries does not fit in this machine's memory; "
                    "expected at most {most}"
                ).format(value=self.tt_size, most=memory_bytes() // 2 // ENTRY_BYTES)
            )
        if self.backend not in BACKENDS:
            raise ZerosumError(
                _("unknown backend {name!r}; expected one of {names}").format(
                    name=str(self.backend)[:40], names=", ".join(BACKENDS)
                )
            )
        if self.hash_mb is not None:
            check_megabytes(self.hash_mb)

    def table_slots(self) -> int:
        """Slots of the Python backend's table: from ``hash_mb`` when given,
        else ``tt_size``."""
        return self.tt_size if self.hash_mb is None else slots_for(self.hash_mb)

    @classmethod
    def plain(cls) -> EngineOptions:
        """Plain negamax alpha-beta: every feature off."""
        return cls(
            tt=False,
            symmetry=False,
            static_order=False,
            killers=False,
            history=False,
            pvs=False,
            hooks=False,
        )


@dataclass
class _Iteration:
    """The outcome of one root iteration of :meth:`Engine.search`."""

    depth: int
    value: int
    move: Any
    pv: tuple[Any, ...]
    ties: list[Any]
    exact: bool  # the whole iteration saw no heuristic leaf
    move_exact: bool  # the best move's own score is proven


@dataclass
class _Partial:
    """What an unfinished iteration has settled so far: set once the first
    root move is searched, and again whenever a later move is proven better."""

    done: bool = False
    value: int = 0
    move: Any = None
    pv: tuple[Any, ...] = ()
    move_exact: bool = False


@dataclass
class _Holder:
    """Where a running search leaves its latest result for :class:`SearchRun`."""

    latest: SearchResult[Any] | None = None
    final: SearchResult[Any] | None = None


class SearchRun(Generic[A]):
    """A running search as an iterator of :class:`Progress` records, one per
    completed depth. The caller decides when to stop iterating;
    :attr:`result` is then the best completed result (the final one once the
    iterator is exhausted).

    >>> import zerosum
    >>> game = zerosum.load("tictactoe")
    >>> run = Engine(game).iterate(game.initial_state(), Limits(depth=3))
    >>> [p.depth for p in run]
    [1, 2, 3]
    >>> run.result.depth
    3
    """

    def __init__(
        self, generator: Generator[Progress[A], None, SearchResult[A]], holder: _Holder
    ) -> None:
        self._generator = generator
        self._holder = holder

    def __iter__(self) -> Iterator[Progress[A]]:
        return self

    def __next__(self) -> Progress[A]:
        try:
            return next(self._generator)
        except StopIteration as done:
            self._holder.final = done.value
            raise

    @property
    def finished(self) -> bool:
        return self._holder.final is not None

    @property
    def result(self) -> SearchResult[A]:
        """The final result, or the result of the last completed iteration
        when iteration stopped early. Raises :class:`ZerosumError` before the
        first iteration has completed."""
        found = self._holder.final or self._holder.latest
        if found is None:
            raise ZerosumError(_("the search has not completed an iteration yet"))
        return found

    def close(self) -> None:
        """Abandon the search (a generator close)."""
        self._generator.close()


class Engine(Generic[A]):
    """The search engine for one game. One search runs at a time; the
    transposition table is kept between searches (call :meth:`clear` to
    forget it), killer and history tables are not.

    * :meth:`search`  -- the best move, iterative deepening under ``Limits``;
    * :meth:`iterate` -- the same search as an iterator of progress records;
    * :meth:`analyze` -- every root move (or the ``multipv`` best) with its
      score and principal variation;
    * :meth:`stop`    -- from another thread: end the running search, which
      returns its best completed result.

    The exact solver is :func:`zerosum.search.solver.solve`.
    """

    def __init__(self, game: Game[Any, A], options: EngineOptions | None = None) -> None:
        self.game = game
        self.options = options if options is not None else EngineOptions()
        #: The backend in use: ``python`` or ``native``.
        self.backend = _choose_backend(game, self.options)
        self.table: Any = None
        #: Gives a native table back to the process's pool (once).
        self._give_back: weakref.finalize[Any, Any] | None = None
        self._native: Any = None
        self._backend: NativeBackend | None = None
        if self.backend == "native":
            backend = self._backend = native_backend()
            assert backend is not None  # _choose_backend made sure
            self._native = backend.adapter_for(game)
            if self.options.tt:
                # A size in slots as asked, else in megabytes.
                asked = self.options.hash_mb is None and self.options.tt_size != DEFAULT_SIZE
                slots = self.options.tt_size if asked else None
                # One table for the process's engines in turn (a batch makes
                # one engine a position): given back when this one is closed
                # or collected, cleared by the next (native/table.py).
                self.table = backend.table(self._native, self.options.hash_mb, slots)
                self._give_back = weakref.finalize(self, backend.give_back, self.table)
            # Polled by the compiled search: set by stop() and by the deadline.
            self._stop_flag = backend.stop_flag()
            backend.warm_up(game, self._native, self.options)
        elif self.options.tt:
            self.table = TranspositionTable(self.options.table_slots())
        self._stop = threading.Event()
        self._scratch = Scratch()
        #: The latest search's core: closed when the next one starts.
        self._core: SearchCore | None = None
        #: The recorder of a traced search (:meth:`trace`), else None.
        self._recorder: Any = None

    # -- public API -------------------------------------------------------------
    def stop(self) -> None:
        """Ask the running search to stop (thread-safe). It returns within
        about a millisecond (the interval between looks adapts to the cost
        of a position) with its best completed result. A search started
        later clears the request."""
        self._stop.set()
        if self._native is not None:
            self._stop_flag[0] = 1

    def clear(self) -> None:
        """Forget the transposition table."""
        if self.table is not None:
            self.table.clear()

    def close(self) -> None:
        """Stop and release what the engine holds: its table (64 MB for a
        native Connect Four engine) and its last search. The memory is freed
        now, not at the next full garbage collection (a search and its
        callbacks can form reference cycles that keep the engine alive). A
        closed engine must not search again. Call it once no search runs
        (it does not stop one: a stop request would outlive it)."""
        if self._core is not None:
            self._core.close()
        self._core = None
        self._recorder = None
        if self._give_back is not None:
            self._give_back()  # a native table goes back to the pool now
        self.table = None

    def search(
        self,
        state: Any,
        limits: Limits | None = None,
        *,
        on_progress: Callable[[Progress[A]], None] | None = None,
        rng: random.Random | None = None,
    ) -> SearchResult[A]:
        """The best move of ``state`` under ``limits`` (default: none, an
        exact solve by iterative deepening).

        Returns a :class:`SearchResult` whose ``best_move`` is always a legal
        move: the best of the last completed iteration (or a root move proven
        better in the unfinished one); if not even depth 1 finished, the first
        move in the game's order of preference. ``score`` is that move's
        score, exact when proven; ``depth`` the depth completed (None when the
        search saw the end of the game everywhere, 0 when no iteration
        finished). Without ``rng``, ``best_moves`` is ``(best_move,)``; with
        it, every root move whose score equals the best (their scores are
        made exact by a window just below the best) and ``best_move`` is drawn
        uniformly from them. Raises :class:`ZerosumError` at a terminal
        position.
        """
        run = self.iterate(state, limits, rng=rng)
        for progress in run:
            if on_progress is not None:
                on_progress(progress)
        return run.result

    def iterate(
        self, state: Any, limits: Limits | None = None, *, rng: random.Random | None = None
    ) -> SearchRun[A]:
        """:meth:`search` as an iterator: one :class:`Progress` per completed
        depth; the result is ``run.result`` afterwards."""
        self.check_root(state)
        holder = _Holder()
        return SearchRun(self._search_run(state, check_limits(limits), rng, holder), holder)

    def analyze(
        self,
        state: Any,
        limits: Limits | None = None,
        *,
        multipv: int | None = None,
        on_progress: Callable[[Progress[A]], None] | None = None,
    ) -> SearchResult[A]:
        """Every legal move of ``state`` with its score and principal
        variation (``moves``, best first; ties in the game's move order), by
        iterative deepening under ``limits``; each move searched with an open
        window, so every score is the move's value at the depth reached
        (``score.exact`` when proven). With ``multipv=N`` only the ``N`` best
        moves are reported; the others are only shown to be no better than the
        ``N``-th, with a null window. ``best_moves`` is every reported move
        with the best score. Raises :class:`ZerosumError` at a terminal
        position or for ``multipv < 1``.
        """
        self.check_root(state)
        if multipv is not None and multipv < 1:
            raise ZerosumError(
                _("multipv must be a whole number of at least 1, got {value}").format(
                    value=multipv
                )
            )
        holder = _Holder()
        run: SearchRun[A] = SearchRun(
            self._analysis_run(state, check_limits(limits), multipv, holder), holder
        )
        for progress in run:
            if on_progress is not None:
                on_progress(progress)
        return run.result

    def trace(
        self,
        state: Any,
        limits: Limits,
        recorder: Any,
        *,
        every_move: bool = False,
    ) -> SearchResult[A]:
        """:meth:`search` (or :meth:`analyze` with ``every_move``) under
        ``limits``, with ``recorder`` (a
        :class:`zerosum.search.enginetrace.EngineRecorder`) watching every
        position it visits: iterative deepening runs as it always does.
        Only the Python backend can be traced (a :class:`ZerosumError` on the
        native one). Use :func:`zerosum.search.trace.trace` rather than this.
        """
        if self.backend != "python":
            raise ZerosumError(
                _("the native backend cannot be traced; use the Python backend")
            )
        self._recorder = recorder
        try:
            if every_move:
                return self.analyze(state, limits)
            return self.search(state, limits)
        finally:
            self._recorder = None

    # -- the root driver, shared with the solver -----------------------------------
    def check_root(self, state: Any) -> None:
        """A :class:`ZerosumError` when ``state`` cannot be searched from
        (the game is over there)."""
        if self.game.is_terminal(state):
            raise ZerosumError(
                _(
                    "the game is over in this position; expected a position with a move to make"
                )
            )

    def start_search(self, limits: Limits, started: float) -> SearchCore:
        """Start a search (the engine's own or the solver's, begun at
        ``started`` by ``time.perf_counter``): clear a pending stop(), close
        the previous search's core, open a table generation, and return the
        search core for these limits (the Python recursion, or the compiled
        kernel on the native backend: both offer the same methods to the
        root code, :class:`~zerosum.search.node.SearchCore`). ``stop()``
        then reaches it."""
        self._stop.clear()
        if self._core is not None:
            self._core.close()
        if self.table is not None:
            self.table.new_search()
        deadline = None if limits.time is None else started + limits.time
        if self._native is not None:
            assert self._backend is not None
            self._stop_flag[0] = 0
            core: SearchCore = self._backend.core(
                self.game, self._native, self.options, self.table, self._stop_flag,
                deadline, limits.nodes, Stop,
            )
        else:
            # The generic node function, for every game (the compiled kernel
            # is the fast path; no game has a Python node of its own).
            core = PythonCore(
                self.game, self.options, self.table, self._stop, deadline, limits.nodes,
                self._scratch, self._recorder,
            )
        self._core = core
        return core

    def _root_moves(self, core: SearchCore, state: Any, restrict: bool) -> tuple[list[Any], bool]:
        """The root moves in search order: the game's preference, narrowed to
        the non-losing moves when ``restrict`` (and the hook says so), with
        the table's move first. Also says whether every move loses at once."""
        moves = list(core.gen_moves(state))
        all_lose = False
        if restrict and core.use_nl:
            safe = self.game.non_losing_actions(state)
            if safe is not None:
                if safe:
                    moves = list(safe)
                else:
                    all_lose = True
        return table_move_first(core, state, moves), all_lose

    # -- search -----------------------------------------------------------------
    def _search_iteration(
        self,
        core: SearchCore,
        root: Any,
        me: int,
        moves: list[Any],
        depth: int,
        want_ties: bool,
        partial: _Partial,
    ) -> _Iteration:
        """One iteration at ``depth`` (:data:`UNLIMITED` for none) over the root
        moves in order: the first with an open window, the others with a null
        window at the best value (with ``want_ties`` just below it, then at it)
        and re-searched when they fail high."""
        game, child_value = self.game, core.child_value
        if self._recorder is not None:
            game = self._recorder.root_game(game)  # sees which root move is searched
        d = depth - 1
        length = MAX_PLY if depth >= UNLIMITED else depth
        h_start = core.horizon()
        core.count_root()
        best, best_move, pv, move_exact = -INF, None, (), False
        ties: list[Any] = []
        for index, move in enumerate(moves):
            child = game.result(root, move)
            cs = game.to_move(child)
            if index > 0:
                if want_ties:
                    value = child_value(child, cs, me, d, best - 1, best)
                    if value < best:
                        continue
                    if value == best:
                        value = child_value(child, cs, me, d, best, best + 1)
                        if value <= best:
                            ties.append(move)
                            continue
                elif self.options.pvs:
                    value = child_value(child, cs, me, d, best, best + 1)
                    if value <= best:
                        continue
            h = core.horizon()
            value = child_value(child, cs, me, d, best if index > 0 else -INF, INF)
            if index > 0 and value <= best:
                continue  # not better after all (the table's depth-limited values)
            best, best_move, ties = value, move, [move]
            pv = core.line(root, move, length)
            move_exact = core.horizon() == h or _settled(value, depth)
            partial.done, partial.value, partial.move = True, best, best_move
            partial.pv, partial.move_exact = pv, move_exact
        return _Iteration(
            depth, best, best_move, pv, ties, core.horizon() == h_start, move_exact
        )

    def _search_run(
        self, root: Any, limits: Limits, rng: random.Random | None, holder: _Holder
    ) -> Generator[Progress[A], None, SearchResult[A]]:
        game = self.game
        started = time.perf_counter()
        core = self.start_search(limits, started)
        me = game.to_move(root)

        def finish(
            move: Any, score: Score, pv: tuple[Any, ...], depth: int | None, ties: list[Any]
        ) -> SearchResult[A]:
            order = {m: i for i, m in enumerate(game.actions(root))}
            ties = sorted(ties, key=lambda m: order.get(m, len(order)))
            chosen = move
            if rng is not None and len(ties) > 1:
                chosen = rng.choice(ties)
                if chosen != move:
                    pv = (chosen, *core.table_line(root, (chosen,), _pv_room(depth) - 1))
            return SearchResult(
                best_move=chosen,
                score=score,
                pv=pv,
                stats=core.stats(started),
                depth=depth,
                best_moves=tuple(ties) if rng is not None else (chosen,),
            )

        # A win at once needs no search (unless every such win is wanted).
        if rng is None and core.use_win:
            win = game.winning_action(root)
            if win is not None:
                score = Score(win_in(1), exact=True)
                yield core.progress(started, None, score, win, (win,))
                return finish(win, score, (win,), None, [win])

        moves, all_lose = self._root_moves(core, root, restrict=True)
        if all_lose:  # every move lets the opponent win at once: all equal
            score = Score(loss_in(2), exact=True)
            yield core.progress(started, None, score, moves[0], (moves[0],))
            return finish(moves[0], score, (moves[0],), None, list(moves))

        max_depth = limits.depth if limits.depth is not None else MAX_PLY
        done: _Iteration | None = None
        for depth in range(1, max_depth + 1):
            partial = _Partial()
            try:
                iteration = self._search_iteration(
                    core, root, me, moves, depth, rng is not None, partial
                )
            except Stop:
                break
            done = iteration
            moves.remove(iteration.move)
            moves.insert(0, iteration.move)
            reached: int | None = None if iteration.exact else depth
            score = Score(iteration.value, exact=iteration.move_exact or iteration.exact)
            holder.latest = finish(iteration.move, score, iteration.pv, reached, iteration.ties)
            yield core.progress(started, reached, score, iteration.move, iteration.pv)
            if iteration.exact or _settled(iteration.value, depth):
                break
            if limits.time is not None and (
                time.perf_counter() - started > NEW_ITERATION_SHARE * limits.time
            ):
                break
        else:
            partial = _Partial()

        if partial.done and (done is None or partial.move != done.move):
            # The unfinished iteration searched the previous best move and
            # proved this one better: a deeper, complete result for it. (With
            # no iteration finished, the first move's own score is still
            # better than a static guess; depth 0 says nothing was compared.)
            score = Score(partial.value, exact=partial.move_exact)
            depth_done = done.depth + 1 if done is not None else 0
            return finish(partial.move, score, partial.pv, depth_done, [partial.move])
        if done is not None:
            score = Score(done.value, exact=done.move_exact or done.exact)
            return finish(done.move, score, done.pv, None if done.exact else done.depth, done.ties)
        # Not even depth 1 finished: the game's first choice, scored statically.
        move = moves[0]
        return finish(move, Score(game.evaluate(root, me)), (move,), 0, [move])

    # -- analysis -----------------------------------------------------------------
    def _analysis_iteration(
        self,
        core: SearchCore,
        root: Any,
        me: int,
        moves: list[Any],
        depth: int,
        multipv: int | None,
        done: list[MoveScore[Any]],
    ) -> bool:
        """Analyse every root move at ``depth``, appending a :class:`MoveScore`
        to ``done`` for each move valued exactly (all of them, or the
        ``multipv`` best). Returns whether the iteration saw no heuristic leaf."""
        game, child_value = self.game, core.child_value
        if self._recorder is not None:
            game = self._recorder.root_game(game)  # sees which root move is searched
        d = depth - 1
        length = MAX_PLY if depth >= UNLIMITED else depth
        h_start = core.horizon()
        core.count_root()
        for move in moves:
            child = game.result(root, move)
            cs = game.to_move(child)
            n0, h0 = core.nodes(), core.horizon()
            if multipv is not None and len(done) >= multipv:
                nth = min(m.score.raw for m in done)
                value = child_value(child, cs, me, d, nth, nth + 1)
                if value <= nth:
                    continue
                value = child_value(child, cs, me, d, nth, INF)
                if value <= nth:
                    continue
                worst = min(range(len(done)), key=lambda i: (done[i].score.raw, -i))
                del done[worst]
            else:
                value = child_value(child, cs, me, d, -INF, INF)
            exact = core.horizon() == h0 or _settled(value, depth)
            done.append(
                MoveScore(
                    move=move,
                    score=Score(value, exact=exact),
                    pv=core.line(root, move, length),
                    nodes=core.nodes() - n0,
                )
            )
        return core.horizon() == h_start

    def _analysis_run(
        self, root: Any, limits: Limits, multipv: int | None, holder: _Holder
    ) -> Generator[Progress[A], None, SearchResult[A]]:
        game = self.game
        started = time.perf_counter()
        core = self.start_search(limits, started)
        me = game.to_move(root)
        moves, _ = self._root_moves(core, root, restrict=False)
        order = {m: i for i, m in enumerate(game.actions(root))}

        def finish(
            scored: list[MoveScore[Any]], depth: int | None, stats: SearchStats | None = None
        ) -> SearchResult[A]:
            stats = stats or core.stats(started)
            ranked = sorted(scored, key=lambda m: (-m.score.raw, order.get(m.move, 0)))
            if not ranked:  # not even one move finished: the game's first choice
                move = moves[0]
                return SearchResult(
                    best_move=move,
                    score=Score(game.evaluate(root, me)),
                    pv=(move,),
                    stats=stats,
                    depth=0,
                    best_moves=(move,),
                )
            top = ranked[0]
            return SearchResult(
                best_move=top.move,
                score=top.score,
                pv=top.pv,
                stats=stats,
                depth=depth,
                best_moves=tuple(m.move for m in ranked if m.score.raw == top.score.raw),
                moves=tuple(ranked),
            )

        max_depth = limits.depth if limits.depth is not None else MAX_PLY
        latest: list[MoveScore[Any]] = []
        latest_depth: int | None = 0
        for depth in range(1, max_depth + 1):
            scored: list[MoveScore[Any]] = []
            try:
                exact = self._analysis_iteration(core, root, me, moves, depth, multipv, scored)
            except Stop:
                if not latest:  # keep what depth 1 finished
                    latest = scored
                break
            latest = scored
            latest_depth = None if exact else depth
            ranked = sorted(scored, key=lambda m: -m.score.raw)
            # Next iteration: the best moves first (helps the null windows).
            first = [m.move for m in ranked]
            moves = first + [m for m in moves if m not in first]
            result = finish(scored, latest_depth)
            holder.latest = result
            yield core.progress(
                started, latest_depth, result.score, result.best_move, result.pv,
                moves=result.moves,
            )
            if exact or all(_settled(m.score.raw, depth) for m in scored):
                break
            if limits.time is not None and (
                time.perf_counter() - started > NEW_ITERATION_SHARE * limits.time
            ):
                break
        # Every move's value exact: lines to the end (not in a trace, which
        # shows the search itself, not the walk along its lines).
        if latest_depth is None and self._recorder is None:
            # The search's positions, as a solve reports its proof's alone;
            # the time includes the lines' probes.
            searched = core.stats(started)
            latest = self._lines_to_the_end(core, root, me, latest)
            return finish(latest, None, replace(searched, time_s=time.perf_counter() - started))
        return finish(latest, latest_depth)

    def _lines_to_the_end(
        self, core: SearchCore, root: Any, me: int, scored: list[MoveScore[Any]]
    ) -> list[MoveScore[Any]]:
        """``scored`` with each exact move's line followed to the end of the
        game (:func:`~zerosum.search.perfectline.perfect_line`: the table's
        line stops where the search's windows left no best move, and a
        draw's line is its distance). Stopped, the lines found so far."""
        game, done = self.game, []
        for entry in scored:
            child = game.result(root, entry.move)
            value = one_ply_on(entry.score.raw)
            if game.to_move(child) != me:
                value = -value
            line = (entry.move, *perfect_line(core, game, child, value, MAX_PLY - 1))
            done.append(replace(entry, pv=line) if len(line) > len(entry.pv) else entry)
        return done


#: How deep the Python node function may recurse: a game of MAX_PLY plies,
#: with room for the callers' frames.
RECURSION_NEEDED = MAX_PLY + 1_000


def _allow_deep_recursion() -> None:
    """Raise Python's recursion limit so a search can follow a game of up to
    MAX_PLY plies (a 1,000-counter Countdown is 1,000 plies deep; the
    default limit is 1,000 frames). Since Python 3.11 a call between Python
    functions takes no C stack, so the higher limit is safe; it is only
    ever raised, never lowered."""
    if sys.getrecursionlimit() < RECURSION_NEEDED:
        sys.setrecursionlimit(RECURSION_NEEDED)


# Once, when the engine is imported, never from a search: the limit is the
# whole process's, and a search thread changing it races with every other
# thread's search (issue 26).
_allow_deep_recursion()


def _choose_backend(game: Game[Any, Any], options: EngineOptions) -> str:
    """``python`` or ``native`` for ``options.backend``; forcing ``native``
    where it cannot run is a :class:`ZerosumError` saying why."""
    if options.backend == "python":
        return "python"
    backend = native_backend()
    reason = NOT_REGISTERED if backend is None else backend.unsupported_reason(game, options)
    if not reason and not options.static_order:
        reason = "the compiled search always uses the game's move order"
    if options.backend == "native" and reason:
        raise ZerosumError(
            _("the native backend cannot search {game}: {reason}").format(
                game=game.spec(), reason=reason
            )
        )
    return "python" if reason else "native"


def table_move_first(core: SearchCore, state: Any, moves: list[Any]) -> list[Any]:
    """``moves`` with the table's best move for ``state`` (if it is one of
    them) moved to the front; the others keep their order."""
    move = core.table_move(state)
    if move is not None and move in moves:
        moves = [move, *(m for m in moves if m != move)]
    return moves


def _settled(value: int, depth: int) -> bool:
    """Whether a decisive value found by a search of ``depth`` plies is exact:
    its game ends within the horizon, so a quicker win (or a longer defence)
    would have been seen. One further away can come from the table's exact
    entries of a deeper subtree, while a quicker win hides beyond the horizon
    in a line that was cut there; only its side (the win, or the loss) is
    proven then, not its distance."""
    return is_decisive(value) and WIN - abs(value) <= depth


def _pv_room(depth: int | None) -> int:
    return MAX_PLY if depth is None else max(depth, 1)


__all__ = [
    "CHECK_INTERVAL",
    "UNLIMITED",
    "Engine",
    "EngineOptions",
    "Progress",
    "SearchRun",
    "table_move_first",
]
