"""Solving by independent jobs: expand the position to ``K`` plies, solve
each leaf as a job in a pool of workers (this machine's processes, or a Ray
cluster), keep every job's result in the store, and assemble the root's
value and principal variation by minimax over the stored results.

**Order and cuts.** The jobs are started in the order a depth-first
alpha-beta search would reach their positions (:meth:`.tree.SplitTree.needed`:
each node's children best first by the game's evaluation), as many at once
as the pool has workers. After every result the tree is settled upwards;
a weak solve settles a node as soon as one move is proven to win, and the
jobs under it that nothing else needs are not started, or stopped if they
run. A strong solve needs every leaf's exact value (a faster win could be
behind any move), so it cuts nothing.

**Stopping and resuming.** Every result is written to the store as it
comes (one short transaction), and so is every node it settles. Stopped at
any moment -- Ctrl+C, the process killed -- a run loses at most the jobs
running then; the same call resumes, reading from the store the leaves
(and nodes) already proven, and runs only what is left.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..game import Game, ZerosumError
from ..i18n import _
from ..search.proven import Entry, KnownResults
from ..search.types import SearchResult, SearchStats
from .jobs import Job, JobResult, JobSetup
from .pool import Failed, LocalPool, Pool
from .tree import DEFAULT_MAX_NODES, SplitTree, good_enough

#: How often (seconds) progress is reported while jobs run.
TICK = 0.5


@dataclass
class SplitProgress:
    """Where a split solve is: ``leaves`` jobs in the tree, ``from_store``
    of them proven before this run, ``solved`` by this run, ``running``
    now, ``left`` still needed (not counting those a cut will spare), and
    ``cancelled`` stopped while running because a cut made them useless."""

    leaves: int
    from_store: int = 0
    solved: int = 0
    running: int = 0
    left: int = 0
    cancelled: int = 0
    nodes: int = 0
    job_seconds: float = 0.0
    started: float = field(default_factory=time.perf_counter)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    @property
    def spared(self) -> int:
        """The leaves neither in the store nor solved: those a cut spared
        (all of them once the root is proven)."""
        return self.leaves - self.from_store - self.solved

    @property
    def seconds_left(self) -> float | None:
        """The jobs still needed at the mean job time so far, spread over the
        workers running; None before the first job came back."""
        if self.solved == 0:
            return None
        mean = self.job_seconds / self.solved
        return (self.left + self.running) * mean / max(self.running, 1)


@dataclass(frozen=True)
class SplitReport:
    """What a split solve did: the root's ``result`` (None when stopped
    first), the progress at the end, and the pool's lost workers and
    retried jobs."""

    result: SearchResult[Any] | None
    progress: SplitProgress
    lost_workers: int
    retried: int
    stopped: bool


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def split_solve(
    game: Game[Any, Any],
    state: Any,
    plies: int,
    store: KnownResults,
    *,
    weak: bool = False,
    workers: int | None = None,
    cluster: str | None = None,
    backend: str = "auto",
    hash_mb: float | None = None,
    imports: tuple[str, ...] = (),
    lang: str = "en",
    max_nodes: int = DEFAULT_MAX_NODES,
    on_progress: Callable[[SplitProgress], None] | None = None,
    pool: Pool | None = None,
) -> SplitReport:
    """Solve ``state`` by the jobs ``plies`` plies below it (see the module's
    notes), in ``pool`` if given (left open, its running jobs cancelled),
    else on the Ray cluster at ``cluster``,
    else in ``workers`` local processes (None: every core). Results go to
    and come from ``store``. Ctrl+C (KeyboardInterrupt) stops the run at
    once, its workers too, with ``stopped`` in the report. A job the solver
    refuses is a one-line :class:`ZerosumError`."""
    if not isinstance(plies, int) or isinstance(plies, bool) or plies < 0:
        raise ZerosumError(
            _("--split must be a whole number of plies, 0 or more, got {value}").format(
                value=plies
            )
        )
    tree = SplitTree.expand(game, state, plies, weak=weak, max_nodes=max_nodes)
    progress = SplitProgress(leaves=len(tree.leaves))
    _read_store(tree, store, progress)
    if tree.done():
        return SplitReport(_result(tree, progress), progress, 0, 0, False)
    owned = pool is None
    if pool is None:
        setup = JobSetup(game.spec(), weak, backend, hash_mb, imports, lang)
        if cluster:
            from .cluster import RayPool

            pool = RayPool(setup, cluster)
        else:
            pool = LocalPool(setup, default_workers() if workers is None else workers)
    # Jobs replay their moves from the start when the split starts there (a
    # worker needs nothing else), else from the root position itself.
    start = game.initial_state()
    root = None if game.key(state) == game.key(start) else state
    run = _Run(tree, store, pool, progress, on_progress, root)
    stopped = False
    try:
        run.run()
    except KeyboardInterrupt:
        stopped = True
    finally:
        if owned:  # a pool given by the caller is the caller's to close
            pool.close()
        else:
            for key in pool.running():
                pool.cancel(key)
    result = None if stopped else _result(tree, progress)
    return SplitReport(result, progress, pool.lost_workers, pool.retried, stopped)


def _read_store(tree: SplitTree, store: KnownResults, progress: SplitProgress) -> None:
    """What the store proves already, leaves and nodes alike (deepest first,
    so a node settles from its children before it is looked up)."""
    for node in sorted(tree.nodes.values(), key=lambda n: -n.ply):
        if good_enough(node.entry, tree.weak):
            continue
        entry = store.get(tree.game, node.state)
        if entry is not None and good_enough(entry, tree.weak):
            if node.leaf:
                progress.from_store += 1
            tree.resolve(node.key, entry)
        elif not node.leaf:
            settled = tree.settle(node)
            if settled is not None:
                tree.resolve(node.key, settled)


class _Run:
    def __init__(
        self,
        tree: SplitTree,
        store: KnownResults,
        pool: Pool,
        progress: SplitProgress,
        on_progress: Callable[[SplitProgress], None] | None,
        root: Any,
    ) -> None:
        self.root = root
        self.tree = tree
        self.store = store
        self.pool = pool
        self.progress = progress
        self.on_progress = on_progress

    def run(self) -> None:
        tree, pool, progress = self.tree, self.pool, self.progress
        last = 0.0
        while not tree.done():
            needed = list(tree.needed())
            wanted = set(needed)
            for key in pool.running():
                if key not in wanted:  # a cut made it useless
                    pool.cancel(key)
                    progress.cancelled += 1
            running = set(pool.running())
            free = pool.capacity - len(running)
            for key in needed:
                if free <= 0:
                    break
                if key in running:
                    continue
                node = tree.nodes[key]
                moves = tuple(tree.game.format_move(m) for m in node.moves)
                pool.submit(Job(key, moves, self.root))
                free -= 1
            progress.running = len(pool.running())
            progress.left = len(needed) - progress.running
            if progress.running == 0:
                raise AssertionError("no job runs and the root is not proven")
            now = time.perf_counter()
            if self.on_progress is not None and now - last >= TICK:
                last = now
                self.on_progress(progress)
            for event in pool.wait(TICK):
                if isinstance(event, Failed):
                    raise ZerosumError(event.reason)
                self._solved(event)
        progress.running = 0
        progress.left = 0
        if self.on_progress is not None:
            self.on_progress(progress)

    def _solved(self, result: JobResult) -> None:
        tree, progress = self.tree, self.progress
        node = tree.nodes.get(result.key)
        if node is None:
            return
        game = tree.game
        best = tuple(game.parse_move(node.state, text) for text in result.best_moves)
        entry = result.entry(best)
        self.store.put(game, node.state, entry)
        progress.solved += 1
        progress.nodes += result.nodes
        progress.job_seconds += result.seconds
        settled = tree.resolve(node.key, entry)
        for parent in settled:
            assert parent.entry is not None
            self.store.put(game, parent.state, parent.entry)


def _result(tree: SplitTree, progress: SplitProgress) -> SearchResult[Any]:
    """The root's answer as a search result (its positions: the jobs' of
    this run)."""
    root = tree.nodes[tree.root]
    entry: Entry | None = root.entry
    assert entry is not None
    pv = tree.principal_variation()
    stats = SearchStats(nodes=progress.nodes, time_s=progress.seconds)
    return SearchResult(
        best_move=entry.best_moves[0] if entry.best_moves else None,
        score=entry.score,
        pv=pv,
        stats=stats,
        best_moves=tuple(entry.best_moves),
        source="search",
    )
