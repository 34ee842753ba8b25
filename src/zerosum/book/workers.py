"""Solving a book's positions: in worker processes, each keeping one warm
searcher (its transposition table and compiled code) from position to
position, or in this process.

A task is a position's number and its moves from the start in the game's
notation, so that a worker needs nothing but the game's spec (and the
user's modules that register it) to replay it; the answer is the number and
its :class:`~zerosum.search.proven.Entry`. Workers ignore Ctrl+C: the process that leads
the build decides when they stop (it terminates them).
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game import ZerosumError
from ..i18n import _
from ..registry import load
from ..search.front import Searcher, SearchOptions
from ..search.proven import Entry
from ..search.types import SearchResult
from .proof import SOURCE

#: A position to solve: its number in the book's tree, its moves from the start.
Task = tuple[int, tuple[str, ...]]


@dataclass(frozen=True)
class WorkerSetup:
    """What every worker needs: the game (``spec``, and the ``imports`` that
    register a user's game), the language of messages, and how to search
    (``weak``: prove only the outcome). A split solve's jobs
    (:mod:`zerosum.distributed`) take the same setup."""

    spec: str
    weak: bool = False
    backend: str = "auto"
    hash_mb: float | None = None
    imports: tuple[str, ...] = ()
    lang: str = "en"


def to_entry(
    result: SearchResult[Any], weak: bool, source: str = SOURCE, every_best: bool = True
) -> Entry:
    """A solver's result as an entry: the value with its distance and every
    best move (strong), or the outcome and every move that reaches it (weak:
    the solver's raw score is only a bound, and the store keeps the outcome's
    whole range); ``every_best`` False when the solve proved one best move."""
    score = result.score
    nodes = result.stats.nodes
    if weak and score.raw != 0:
        outcome = 1 if score.raw > 0 else -1
        return Entry.outcome_only(
            outcome, result.best_moves, nodes=nodes, source=source, every_best=every_best
        )
    return Entry.exact_value(
        score.raw, result.best_moves, nodes=nodes, source=source, every_best=every_best
    )


class PositionSolver:
    """One game's warm searcher: :meth:`solve` a position given by its moves."""

    def __init__(self, setup: WorkerSetup) -> None:
        self.setup = setup
        self.game = load(setup.spec)
        # A fresh proof: neither the store nor any book is read (nor written).
        options = SearchOptions(
            backend=setup.backend,
            hash_mb=setup.hash_mb,
            use_store=False,
            use_book=False,
            margins=False,  # a book keeps outcomes with their distances
        )
        self.searcher = Searcher(self.game, options)

    def solve(self, moves: Sequence[str]) -> Entry:
        """The entry of the position after ``moves`` (notation) from the start."""
        state = self.game.play(moves)
        return to_entry(self.searcher.solve(state, weak=self.setup.weak), self.setup.weak)


_solver: PositionSolver | None = None
_failure: ZerosumError | None = None


def import_module_or_file(name: str) -> None:
    """Import a user's module that registers games: a ``.py`` file or a
    module name (the leading process imported it already and reported any
    error, so here it only has to run again)."""
    import importlib
    import importlib.util
    import sys
    from pathlib import Path

    if not name.endswith(".py"):
        importlib.import_module(name)
        return
    path = Path(name)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ZerosumError(_("cannot import {name}").format(name=name))
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)


def prepare(setup: WorkerSetup) -> None:
    """What a fresh process does before it solves: the language of
    messages, and the user's modules that register games."""
    from .. import i18n

    i18n.activate(setup.lang)
    for name in setup.imports:
        import_module_or_file(name)


def init_worker(setup: WorkerSetup) -> None:
    """A worker process's start: Ctrl+C ignored (the leader stops the
    workers), the language, the user's games, one warm searcher. A failure
    here is kept and raised by the first task (a pool whose initializer
    raises would start new workers for ever)."""
    global _solver, _failure
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        prepare(setup)
        _solver = PositionSolver(setup)
    except Exception as error:
        _failure = one_line_error(error)


def one_line_error(error: Exception, moves: Sequence[str] | None = None) -> ZerosumError:
    """``error`` as a one-line error that crosses back to the leader (any
    exception pickles badly or says too little on its own)."""
    reason = str(error) if isinstance(error, ZerosumError) else (
        f"{type(error).__name__}: {error}"
    )
    if moves is None:
        return ZerosumError(reason)
    return ZerosumError(
        _("cannot solve the position after {moves}: {reason}").format(
            moves=" ".join(moves) or _("(the start)"), reason=reason
        )
    )


def solve_task(task: Task) -> tuple[int, Entry]:
    """In a worker: solve one task with the warm searcher."""
    if _failure is not None:
        raise _failure
    assert _solver is not None, "init_worker runs first"
    number, moves = task
    try:
        return number, _solver.solve(moves)
    except Exception as error:
        raise one_line_error(error, moves) from None
