"""Solving by independent jobs, on this machine's cores or a Ray cluster.

* :func:`split_solve` ``(game, state, plies, store, *, weak=False,
  workers=None, cluster=None, ...)`` -- expand ``plies`` plies, solve each
  leaf as a job, keep the results in ``store``, assemble the root's value
  and principal variation (a :class:`SplitReport`); resumable;
* :class:`SplitProgress` -- jobs done, running, left, from the store, the
  time left;
* :class:`LocalPool` (worker processes here) and :class:`RayPool`
  (``zerosum.distributed.cluster``, the ``cluster`` extra) run the jobs.

>>> import tempfile, zerosum
>>> from pathlib import Path
>>> from zerosum.store import Store
>>> game = zerosum.load("tictactoe")
>>> with Store.open(Path(tempfile.mkdtemp()) / "s.sqlite") as store:
...     report = split_solve(game, game.initial_state(), 1, store, workers=1, backend="python")
>>> report.result.score.describe(), report.progress.solved
('draw', 3)
"""

from __future__ import annotations

from .jobs import Job, JobResult, JobSetup, run_job
from .pool import MAX_ATTEMPTS, Failed, LocalPool, Pool
from .split import SplitProgress, SplitReport, default_workers, split_solve
from .tree import SplitTree

__all__ = [
    "MAX_ATTEMPTS",
    "Failed",
    "Job",
    "JobResult",
    "JobSetup",
    "LocalPool",
    "Pool",
    "SplitProgress",
    "SplitReport",
    "SplitTree",
    "default_workers",
    "run_job",
    "split_solve",
]
