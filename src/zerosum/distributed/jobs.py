"""One job of a split solve: a position given by its moves from the start,
solved by the existing exact solver in whichever process runs it.

A job names everything a fresh process needs (the game's spec, the user's
modules that register it, how to search), so it can run in a local worker
process or on a Ray node alike. A process keeps one warm searcher per
:class:`JobSetup` (its transposition table and compiled code) from job to
job: :func:`run_job` reuses it.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from ..game import ZerosumError
from ..i18n import _
from ..registry import load
from ..search.front import Searcher, SearchOptions
from ..search.proven import Entry


@dataclass(frozen=True)
class JobSetup:
    """What every worker needs: the game (``spec``, and the ``imports`` that
    register a user's game), whether a job proves only the outcome
    (``weak``), the backend and table size, and the language of messages."""

    spec: str
    weak: bool = False
    backend: str = "auto"
    hash_mb: float | None = None
    imports: tuple[str, ...] = ()
    lang: str = "en"


@dataclass(frozen=True)
class Job:
    """A position to solve: its symmetry class's key (as the store writes
    it) and the moves (notation) that reach it from ``root``, the split's
    root position, or from the start when ``root`` is None (a position
    object: it is pickled to the worker)."""

    key: str
    moves: tuple[str, ...]
    root: Any = None


@dataclass(frozen=True)
class JobResult:
    """A solved job: the proven bounds (``lower == upper``: exact), the best
    moves in the notation of the position the job named, the positions and
    seconds the proof took, the process that ran it, and whether the best
    moves are all of them (a weak job names one)."""

    key: str
    lower: int
    upper: int
    best_moves: tuple[str, ...]
    nodes: int
    seconds: float
    pid: int
    every_best: bool = True

    def entry(self, best_moves: tuple[Any, ...]) -> Entry:
        """The result as a store entry (``best_moves`` parsed by the caller)."""
        return Entry(
            self.lower, self.upper, best_moves, self.nodes, time.time(), "solve",
            every_best=self.every_best,
        )


#: The warm searchers of this process, one per setup.
_WARM: dict[JobSetup, Searcher] = {}


def _searcher(setup: JobSetup) -> Searcher:
    searcher = _WARM.get(setup)
    if searcher is None:
        from .. import i18n

        i18n.activate(setup.lang)
        for name in setup.imports:
            _import(name)
        # A fresh proof: no store or book is read here (the driver reads the
        # store before it makes a job, and writes the answer). The store keeps
        # outcomes with their distances, so a game whose result has a size
        # (Othello) is solved for those, not for its margin.
        options = SearchOptions(
            backend=setup.backend, hash_mb=setup.hash_mb, use_store=False, use_book=False,
            margins=False,
        )
        searcher = _WARM[setup] = Searcher(load(setup.spec), options)
    return searcher


def _import(name: str) -> None:
    """Import a user's module that registers games: a ``.py`` file or a
    module name."""
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


def run_job(setup: JobSetup, job: Job) -> JobResult:
    """Solve ``job`` with this process's warm searcher. Any failure is one
    :class:`ZerosumError` line naming the position (it crosses processes)."""
    started = time.perf_counter()
    try:
        searcher = _searcher(setup)
        game = searcher.game
        state = game.play(job.moves, job.root)
        result = searcher.solve(state, weak=setup.weak, all_moves=not setup.weak)
    except Exception as error:
        reason = str(error) if isinstance(error, ZerosumError) else (
            f"{type(error).__name__}: {error}"
        )
        raise ZerosumError(
            _("cannot solve the position after {moves}: {reason}").format(
                moves=" ".join(job.moves) or _("(the start)"), reason=reason
            )
        ) from None
    raw = result.score.raw
    if setup.weak and raw != 0:  # the outcome is proven, its distance is not
        entry = Entry.outcome_only(1 if raw > 0 else -1, result.best_moves)
    else:
        entry = Entry.exact_value(raw, result.best_moves)
    return JobResult(
        key=job.key,
        lower=entry.lower,
        upper=entry.upper,
        best_moves=tuple(game.format_move(m) for m in entry.best_moves),
        nodes=result.stats.nodes,
        seconds=time.perf_counter() - started,
        pid=os.getpid(),
        # A weak job proves one move that keeps the outcome, not every one.
        every_best=not setup.weak,
    )
