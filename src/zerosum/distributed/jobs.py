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

from ..book.workers import PositionSolver, WorkerSetup, one_line_error, prepare, to_entry
from ..search.proven import Entry

#: What every worker needs: the game, the user's modules that register it,
#: whether a job proves only the outcome, the backend and table size, and the
#: language -- the same setup a book's workers take.
JobSetup = WorkerSetup


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


#: The warm solvers of this process, one per setup.
_WARM: dict[JobSetup, PositionSolver] = {}


def _solver(setup: JobSetup) -> PositionSolver:
    solver = _WARM.get(setup)
    if solver is None:
        # A fresh proof, as a book's (no store or book read: the driver reads
        # the store before it makes a job, and writes the answer).
        prepare(setup)
        solver = _WARM[setup] = PositionSolver(setup)
    return solver


def run_job(setup: JobSetup, job: Job) -> JobResult:
    """Solve ``job`` with this process's warm solver. Any failure is one
    :class:`ZerosumError` line naming the position (it crosses processes)."""
    started = time.perf_counter()
    try:
        solver = _solver(setup)
        game = solver.game
        state = game.play(job.moves, job.root)
        # A weak job proves one move that keeps the outcome, not every one.
        result = solver.searcher.solve(state, weak=setup.weak, all_moves=not setup.weak)
    except Exception as error:
        raise one_line_error(error, job.moves) from None
    entry = to_entry(result, setup.weak, "solve", every_best=not setup.weak)
    return JobResult(
        key=job.key,
        lower=entry.lower,
        upper=entry.upper,
        best_moves=tuple(game.format_move(m) for m in entry.best_moves),
        nodes=result.stats.nodes,
        seconds=time.perf_counter() - started,
        pid=os.getpid(),
        every_best=entry.every_best,
    )
