"""The search front door: every front end searches through here.

The command line, the browser, the agents and the Python API all ask this
module to search, analyse or solve: a game, a position, an algorithm, limits,
the number of lines. It picks the implementation (the engine on the Python
or the native backend, the reference minimax and alpha-beta, or an algorithm
registered later such as Monte Carlo tree search), applies the default
limits, and returns a :class:`~zerosum.search.types.SearchResult`.

>>> import zerosum
>>> from zerosum.search import front
>>> game = zerosum.load("tictactoe")
>>> state = game.play(["0", "4", "1"])
>>> front.solve(game, state).score.describe()
'draw'
>>> result = front.analyze(game, state, SearchOptions(algorithm="minimax"), depth=2)
>>> result.best_move, result.score.exact
(2, False)

* :func:`analyze`   -- every move (or the ``multipv`` best) with its score;
* :func:`solve`     -- the exact value, every optimal move;
* :func:`best_move` -- the move to play (an agent's question);
* :class:`Searcher` -- the same three for one game, keeping what can be kept
  between calls (the engine's table), and :meth:`Searcher.stop` from another
  thread.

Algorithms are named by :class:`SearchOptions` ``algorithm``: ``engine`` (the
default), ``minimax`` and ``alphabeta`` (the reference algorithms, which take
only a depth limit), and any registered with :func:`register_algorithm`.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..game import Game, ZerosumError
from ..i18n import _
from . import margin, recall, reference, solver, tactics
from .backends import NOT_REGISTERED
from .backends import native as native_backend
from .engine import BACKENDS, Engine, EngineOptions, Progress
from .proven import KnownResults, default_store, find_book
from .types import (
    Limits,
    MoveScore,
    SearchResult,
    SearchStats,
    check_limits,
    loss_in,
    win_in,
)

#: The AI's time per move when no limit is given: small games are solved well
#: within it, large ones still move.
DEFAULT_MOVE_SECONDS = 3.0
#: The analysis time when no depth, time or node limit is given.
DEFAULT_ANALYSIS_SECONDS = 10.0

ProgressCallback = Callable[[Progress[Any]], None]

#: ``--backend auto`` takes the Python backend for a search limited to this
#: depth or less, or for a game that ends within :data:`TINY_PLIES` plies:
#: loading the compiled code (numba and the cached kernel) costs about 2 CPU
#: seconds, more than such a search takes in Python (benchmarks/README.md,
#: "Which backend answers first").
SHALLOW_DEPTH = 8
TINY_PLIES = 12


def python_answers_first(game: Game[Any, Any], state: Any, depth: int | None) -> bool:
    """Whether the Python backend answers a search from ``state`` (to
    ``depth`` plies; None: no depth limit) before the compiled one could:
    the compiled code is not loaded in this process yet, and the search is
    shallow (``depth <= SHALLOW_DEPTH``) or the game short (it ends within
    :data:`TINY_PLIES` plies, by :meth:`~zerosum.game.Game.plies_left`)."""
    if "numba" in sys.modules:  # loaded already: its cost is paid
        return False
    if depth is not None and depth <= SHALLOW_DEPTH:
        return True
    plies = game.plies_left(state)
    return plies is not None and plies <= TINY_PLIES


@dataclass(frozen=True)
class SearchOptions:
    """How to search, as opposed to how long (:class:`Limits`).

    * ``algorithm`` -- ``engine``, ``minimax``, ``alphabeta`` or a registered
      name (see :func:`algorithms`);
    * ``backend``   -- the engine's backend: ``auto`` (native when numba is
      installed and the game has native code, else Python), ``python`` or
      ``native`` (an error when it is not available for the game);
    * ``hash_mb``   -- the engine's transposition table in megabytes (None:
      the default size);
    * ``symmetry``  -- the engine's table keeps one entry per symmetry class
      (None: the backend's choice);
    * ``threads``   -- how many threads the engine's native search runs on,
      sharing its table (the same exact values; the Python backend uses one);
    * ``evaluate_terminals`` -- reference algorithms at a depth limit score
      finished positions with the evaluation too, as the tutorials' code does;
    * ``seed``      -- for algorithms that draw at random (MCTS);
    * ``store``     -- a store of proven results to read and write
      (:class:`zerosum.store.Store`, or any
      :class:`~zerosum.search.proven.KnownResults`); None: the process's
      default store (:func:`~zerosum.search.proven.set_default_store`, which
      the command line, the browser and ``zerosum engine`` set; none in a
      plain library use);
    * ``use_store`` -- False: no store at all (``--no-store``);
    * ``use_book``  -- False: no opening book (``--no-book``);
    * ``margins``   -- a strong solve of a game whose result has a size
      (``Game.max_margin``: Othello) finds the exact margin (True, the
      default; not kept in the store); False: the outcome with its distance,
      as for every other game (what books and the store keep).

    A solve is answered from the book or the store when they know the
    position (or every move's result), and a completed solve (and an
    analysis exact for every move) is written to the store. The engine's
    analysis and moves read them too when not limited in depth (a
    depth-limited level stays as weak as asked); the reference algorithms'
    depth-limited searches never do. See :mod:`zerosum.search.recall`.
    """

    algorithm: str = "engine"
    backend: str = "auto"
    hash_mb: float | None = None
    symmetry: bool | None = None
    threads: int = 1
    evaluate_terminals: bool = False
    seed: int | None = None
    store: KnownResults | None = field(default=None, compare=False)
    use_store: bool = True
    use_book: bool = True
    margins: bool = True

    def __post_init__(self) -> None:
        if self.algorithm not in _ALGORITHMS:
            raise ZerosumError(
                _("unknown algorithm {name!r}; expected one of {names}").format(
                    name=_excerpt(self.algorithm), names=", ".join(algorithms())
                )
            )
        if self.backend not in BACKENDS:
            raise ZerosumError(
                _("unknown backend {name!r}; expected one of {names}").format(
                    name=_excerpt(self.backend), names=", ".join(BACKENDS)
                )
            )
        if self.evaluate_terminals and self.algorithm not in reference.ALGORITHMS:
            raise ZerosumError(_("evaluating finished positions needs minimax or alphabeta"))
        # The engine options check hash_mb (one message for every front end).
        if self.algorithm == "engine":
            self.engine_options()

    def engine_options(self) -> EngineOptions:
        return EngineOptions(
            symmetry=self.symmetry, backend=self.backend, hash_mb=self.hash_mb,
            threads=self.threads,
        )


def _excerpt(value: object, most: int = 40) -> str:
    text = str(value)
    return text if len(text) <= most else text[: most - 1] + "…"


class Algorithm(Protocol):
    """One algorithm bound to one game: what the front door asks of it."""

    def analyze(
        self,
        state: Any,
        limits: Limits,
        multipv: int | None,
        on_progress: ProgressCallback | None,
    ) -> SearchResult[Any]: ...

    def best_move(
        self,
        state: Any,
        limits: Limits,
        rng: random.Random | None,
        on_progress: ProgressCallback | None,
    ) -> SearchResult[Any]: ...

    def solve(
        self,
        state: Any,
        weak: bool,
        depth: int | None,
        on_progress: ProgressCallback | None,
        limits: Limits | None = None,
        all_moves: bool = True,
    ) -> SearchResult[Any]: ...

    def stop(self) -> None: ...


#: ``factory(game, options) -> Algorithm``; see :func:`register_algorithm`.
AlgorithmFactory = Callable[[Game[Any, Any], SearchOptions], Algorithm]


@dataclass(frozen=True)
class _Entry:
    factory: AlgorithmFactory
    #: Default limits when none are given: for analysis, for a move.
    analysis_limits: Limits
    move_limits: Limits
    #: Which kinds of limit it honours.
    limit_kinds: frozenset[str]


_ALGORITHMS: dict[str, _Entry] = {}


def register_algorithm(
    name: str,
    factory: AlgorithmFactory,
    *,
    analysis_limits: Limits,
    move_limits: Limits,
    limit_kinds: frozenset[str] = frozenset({"depth", "time", "nodes"}),
) -> None:
    """Make ``name`` an algorithm of the front door: ``factory(game, options)``
    builds it for one game; ``analysis_limits`` and ``move_limits`` are used
    when a caller gives none; a limit of a kind not in ``limit_kinds`` is an
    error (one line naming the algorithm)."""
    _ALGORITHMS[name] = _Entry(factory, analysis_limits, move_limits, limit_kinds)


def algorithms() -> tuple[str, ...]:
    """Every algorithm's name, the engine first."""
    return tuple(_ALGORITHMS)


def available_backends() -> dict[str, str]:
    """Each engine backend and whether it can be used here: ``"yes"`` or the
    reason it cannot."""
    backend = native_backend()
    reason = NOT_REGISTERED if backend is None else backend.unavailable_reason()
    return {"python": "yes", "native": reason or "yes"}


# -- the engine ------------------------------------------------------------------
class _EngineAlgorithm:
    """The engine (Python or native backend) and its exact solver."""

    def __init__(self, game: Game[Any, Any], options: SearchOptions) -> None:
        self.engine: Engine[Any] = Engine(game, options.engine_options())
        self.margins = options.margins
        #: The exact-margin solver of a game with sized results, made at its
        #: first strong solve and kept (with its table) for the next.
        self._margin: margin.MarginSolver | None = None

    @property
    def backend(self) -> str:
        return self.engine.backend

    def analyze(
        self, state: Any, limits: Limits, multipv: int | None, on_progress: ProgressCallback | None
    ) -> SearchResult[Any]:
        return self.engine.analyze(state, limits, multipv=multipv, on_progress=on_progress)

    def best_move(
        self,
        state: Any,
        limits: Limits,
        rng: random.Random | None,
        on_progress: ProgressCallback | None,
    ) -> SearchResult[Any]:
        return self.engine.search(state, limits, on_progress=on_progress, rng=rng)

    def solve(
        self,
        state: Any,
        weak: bool,
        depth: int | None,
        on_progress: ProgressCallback | None,
        limits: Limits | None = None,
        all_moves: bool = True,
    ) -> SearchResult[Any]:
        if depth is not None:
            return self.engine.analyze(state, Limits(depth=depth), on_progress=on_progress)
        game = self.engine.game
        if not weak and self.margins and margin.sized(game):
            if self._margin is None:
                self._margin = margin.margin_solver(game, self.engine.backend)
            try:
                return margin.solve(
                    game, state, solver=self._margin, limits=limits, all_moves=all_moves
                )
            except margin.Stopped as stopped:
                # Nothing proven: the widest bounds, as the outcome solver's.
                spent = SearchStats(nodes=stopped.positions)
                raise solver.SolveInterrupted(loss_in(1), win_in(1), None, spent) from None
        return solver.solve(
            self.engine.game,
            state,
            weak=weak,
            engine=self.engine,
            on_progress=on_progress,
            limits=limits,
            all_moves=all_moves,
        )

    def stop(self) -> None:
        self.engine.stop()
        if self._margin is not None:
            self._margin.stop()

    def clear(self) -> None:
        self.engine.clear()

    def close(self) -> None:
        self.engine.close()


# -- the reference algorithms -------------------------------------------------------
class _ReferenceAlgorithm:
    """Plain minimax or alpha-beta, as the tutorials teach them (they take a
    depth limit only, and cannot be stopped)."""

    def __init__(self, game: Game[Any, Any], options: SearchOptions) -> None:
        self.game = game
        self.name: reference.Algorithm = "minimax" if options.algorithm == "minimax" else (
            "alphabeta"
        )
        self.evaluate_terminals = options.evaluate_terminals

    def analyze(
        self, state: Any, limits: Limits, multipv: int | None, on_progress: ProgressCallback | None
    ) -> SearchResult[Any]:
        if multipv == 1:
            # The tutorial's get_best_move: one best line, searched with the
            # root's alpha raised by each better move.
            found = reference.best_move(
                self.game,
                state,
                algorithm=self.name,
                depth=limits.depth,
                evaluate_terminals=self.evaluate_terminals,
            )
            assert found.best_move is not None
            entry = MoveScore(found.best_move, found.score, found.pv, found.stats.nodes)
            return SearchResult(
                found.best_move,
                found.score,
                found.pv,
                found.stats,
                limits.depth,
                found.best_moves,
                (entry,),
            )
        result = reference.analyze(
            self.game,
            state,
            algorithm=self.name,
            depth=limits.depth,
            evaluate_terminals=self.evaluate_terminals,
        )
        if multipv is None:
            return result
        return SearchResult(
            result.best_move,
            result.score,
            result.pv,
            result.stats,
            result.depth,
            result.best_moves,
            result.moves[:multipv],
        )

    def best_move(
        self,
        state: Any,
        limits: Limits,
        rng: random.Random | None,
        on_progress: ProgressCallback | None,
    ) -> SearchResult[Any]:
        return reference.best_move(
            self.game,
            state,
            algorithm=self.name,
            depth=limits.depth,
            rng=rng,
            evaluate_terminals=self.evaluate_terminals,
        )

    def solve(
        self,
        state: Any,
        weak: bool,
        depth: int | None,
        on_progress: ProgressCallback | None,
        limits: Limits | None = None,
        all_moves: bool = True,
    ) -> SearchResult[Any]:
        if weak:
            raise ZerosumError(
                _("a weak solve needs the engine, not {name}").format(name=self.name)
            )
        return reference.analyze(self.game, state, algorithm=self.name, depth=depth)

    def stop(self) -> None:
        """The reference algorithms run to the end (they are for small trees)."""


register_algorithm(
    "engine",
    _EngineAlgorithm,
    analysis_limits=Limits(time=DEFAULT_ANALYSIS_SECONDS),
    move_limits=Limits(time=DEFAULT_MOVE_SECONDS),
)
for _name in reference.ALGORITHMS:
    register_algorithm(
        _name,
        _ReferenceAlgorithm,
        analysis_limits=Limits(),
        move_limits=Limits(),
        limit_kinds=frozenset({"depth"}),
    )


# -- the door ------------------------------------------------------------------------
class Searcher:
    """The front door for one game and one set of options. Keeps the
    algorithm (the engine's table) from call to call; one search at a time.

    Limits of None mean the algorithm's defaults (engine: 10 s to analyse, 3 s
    for a move; the references: none); ``Limits()`` means none at all (to the
    end of the game). A limit the algorithm cannot honour is a
    :class:`ZerosumError`.
    """

    def __init__(self, game: Game[Any, Any], options: SearchOptions | None = None) -> None:
        self.game = game
        self.options = options or SearchOptions()
        self._entry = _ALGORITHMS[self.options.algorithm]
        self._algorithm: Algorithm | None = None
        #: Where proven results are kept: the store written to (None: none),
        #: and every keeper read, the book first.
        self.store: KnownResults | None = None
        if self.options.use_store:
            self.store = self.options.store if self.options.store is not None else default_store()
        book = find_book(game) if self.options.use_book else None
        self.known: tuple[KnownResults, ...] = tuple(
            k for k in (book, self.store) if k is not None
        )

    def _settle_backend(self, state: Any, depth: int | None) -> None:
        """Before the first search: ``--backend auto`` takes the Python
        backend where it answers first (:func:`python_answers_first`), so a
        tiny game or a shallow search never pays for loading the compiled
        code."""
        if (
            self._algorithm is None
            and self.options.algorithm == "engine"
            and self.options.backend == "auto"
            and python_answers_first(self.game, state, depth)
        ):
            self.options = replace(self.options, backend="python")

    @property
    def algorithm(self) -> Algorithm:
        """The algorithm bound to the game, made at its first use: an answer
        from the store or a book needs none (and so does not load the
        compiled backend, which takes most of a new process's start)."""
        if self._algorithm is None:
            self._algorithm = self._entry.factory(self.game, self.options)
        return self._algorithm

    def prepare(self) -> None:
        """Make the algorithm now (the engine's table, its compiled code), so
        that the first search does not pay for it (``zerosum engine`` does
        this on ``isready``)."""
        _ = self.algorithm

    @property
    def backend(self) -> str:
        """The engine backend in use (``python`` or ``native``), or the
        algorithm's name for the others."""
        backend = getattr(self.algorithm, "backend", None)
        return backend if isinstance(backend, str) else self.options.algorithm

    def _limits(self, limits: Limits | None, default: Limits) -> Limits:
        if limits is None:
            return default
        check_limits(limits)
        kinds = self._entry.limit_kinds
        for kind in ("depth", "time", "nodes", "iterations"):
            if getattr(limits, kind) is not None and kind not in kinds:
                raise ZerosumError(
                    _("{algorithm} takes no {kind} limit; expected only a {kinds} limit").format(
                        algorithm=self.options.algorithm,
                        kind=kind,
                        kinds=", ".join(sorted(kinds)),
                    )
                )
        return limits

    def analyze(
        self,
        state: Any,
        limits: Limits | None = None,
        *,
        multipv: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> SearchResult[Any]:
        """Every legal move of ``state`` with its score and line, best first
        (the ``multipv`` best only when given)."""
        if multipv is not None and (not isinstance(multipv, int) or multipv < 1):
            raise ZerosumError(
                _("multipv must be a whole number of at least 1, got {value}").format(
                    value=_excerpt(multipv)
                )
            )
        _check_playable(self.game, state)
        limits = self._limits(limits, self._entry.analysis_limits)
        self._settle_backend(state, limits.depth)
        engine = self.options.algorithm == "engine"
        if engine and limits.depth is None:
            kept = recall.recall_analysis(self.known, self.game, state, multipv)
            if kept is not None:
                return kept
        result = self.algorithm.analyze(state, limits, multipv, on_progress)
        if engine and self.store is not None:
            recall.remember_analysis(self.store, self.game, state, result)
        return result

    def best_move(
        self,
        state: Any,
        limits: Limits | None = None,
        *,
        rng: random.Random | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> SearchResult[Any]:
        """The move to play; with ``rng`` a seeded draw among equally good
        moves."""
        _check_playable(self.game, state)
        limits = self._limits(limits, self._entry.move_limits)
        self._settle_backend(state, limits.depth)
        if self.options.algorithm == "engine" and limits.depth is None:
            kept = recall.recall_move(self.known, self.game, state, rng)
            if kept is not None:
                return kept
        result = self.algorithm.best_move(state, limits, rng, on_progress)
        # Whatever the budget (a depth-1 level, a clock cut short), never
        # miss a win in one nor allow one that a move avoids.
        return tactics.guarded(self.game, state, result)

    def clear(self) -> None:
        """Forget what earlier searches left (the engine's table), so that
        the next search runs as a new searcher's would: with a node or depth
        limit, the same answer every time (a game's review)."""
        clear = getattr(self.algorithm, "clear", None)
        if clear is not None:
            clear()

    def close(self) -> None:
        """Release what the algorithm holds (the engine's table, the MCTS
        tree) at once, for a front end whose game is over (a closed browser
        tab), once no search runs. The searcher must not search again."""
        close = getattr(self.algorithm, "close", None)
        if close is not None:
            close()

    def solve(
        self,
        state: Any,
        *,
        weak: bool = False,
        depth: int | None = None,
        on_progress: ProgressCallback | None = None,
        limits: Limits | None = None,
        all_moves: bool = True,
    ) -> SearchResult[Any]:
        """The exact value and every optimal move (``weak``: win, draw or loss
        only; with ``all_moves=False`` one optimal move, which for a weak solve
        saves proving every other move's outcome). With ``depth`` a
        depth-limited analysis whose value is exact only if the game ends
        within it. ``limits`` may bound the solve's time and positions (not
        its depth): reached first, the solve raises
        :class:`~.solver.SolveInterrupted` with the bounds proven."""
        if depth is not None:
            Limits(depth=depth)  # the one check of a depth
            if weak:
                raise ZerosumError(_("a weak solve searches to the end; expected no depth"))
        if limits is not None:
            limits = self._limits(limits, Limits())
            if limits.depth is not None:
                raise ZerosumError(
                    _("the solver searches to the end of the game; expected no depth limit")
                )
        _check_playable(self.game, state)
        # The store and the books keep outcomes, not margins.
        margins = (
            not weak
            and depth is None
            and self.options.margins
            and self.options.algorithm == "engine"
            and margin.sized(self.game)
        )
        if depth is None and not margins:
            kept = recall.recall_solve(self.known, self.game, state, weak, all_moves)
            if kept is not None:
                return kept
        # A solve of one best move is kept as such (it answers that question
        # again, not "every best move").
        keep = (
            depth is None
            and not margins
            and self.store is not None
            and self.options.algorithm in _PROVERS
        )
        self._settle_backend(state, depth)
        try:
            result = self.algorithm.solve(state, weak, depth, on_progress, limits, all_moves)
        except solver.SolveInterrupted as stopped:
            if (
                depth is None
                and not margins
                and self.store is not None
                and self.options.algorithm in _PROVERS
            ):
                recall.remember_bounds(
                    self.store, self.game, state, stopped.lower, stopped.upper,
                    stopped.stats.nodes,
                )
            raise
        if keep and self.store is not None:
            recall.remember_solve(
                self.store, self.game, state, result, weak, all_moves=all_moves
            )
        return result

    def stop(self) -> None:
        """From another thread: end the running search (engine: with its best
        completed result; a solve raises :class:`~.solver.SolveInterrupted`)."""
        if self._algorithm is not None:
            self._algorithm.stop()


#: The algorithms whose solve gives every best move (so it may be kept).
_PROVERS = ("engine", "minimax", "alphabeta")


def _check_playable(game: Game[Any, Any], state: Any) -> None:
    if game.is_terminal(state):
        raise ZerosumError(
            _("the game is over in this position; expected a position with a move to make")
        )


def analyze(
    game: Game[Any, Any],
    state: Any,
    options: SearchOptions | None = None,
    *,
    depth: int | None = None,
    time: float | None = None,
    nodes: int | None = None,
    multipv: int | None = None,
    on_progress: ProgressCallback | None = None,
) -> SearchResult[Any]:
    """:meth:`Searcher.analyze` in one call."""
    limits = Limits(depth=depth, time=time, nodes=nodes)
    return Searcher(game, options).analyze(
        state, None if limits == Limits() else limits, multipv=multipv, on_progress=on_progress
    )


def solve(
    game: Game[Any, Any],
    state: Any,
    options: SearchOptions | None = None,
    *,
    weak: bool = False,
    depth: int | None = None,
    on_progress: ProgressCallback | None = None,
) -> SearchResult[Any]:
    """:meth:`Searcher.solve` in one call."""
    return Searcher(game, options).solve(state, weak=weak, depth=depth, on_progress=on_progress)


def best_move(
    game: Game[Any, Any],
    state: Any,
    options: SearchOptions | None = None,
    *,
    limits: Limits | None = None,
    rng: random.Random | None = None,
    on_progress: ProgressCallback | None = None,
) -> SearchResult[Any]:
    """:meth:`Searcher.best_move` in one call."""
    return Searcher(game, options).best_move(state, limits, rng=rng, on_progress=on_progress)


__all__ = [
    "DEFAULT_ANALYSIS_SECONDS",
    "DEFAULT_MOVE_SECONDS",
    "Algorithm",
    "SearchOptions",
    "Searcher",
    "algorithms",
    "analyze",
    "available_backends",
    "best_move",
    "register_algorithm",
    "solve",
]
