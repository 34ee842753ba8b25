"""Building a book: which positions, in which order, by whom, and what
happens when the build is stopped.

**Order: deepest first.** The positions of the last ply are solved by search
(in worker processes); every shallower position is then settled from its
children's entries (:func:`~.proof.settle`), a step that costs a few
look-ups instead of a search, and gives the same value, distance and best
moves a solve would (a child that the game ended is scored by the rules).
A position that cannot be settled so (a child missing from the book, as in
games where a position is met at several plies) is solved by search too.

Why deepest first, measured (``benchmarks/bench_book.py``, one warm
searcher): Connect Four 6x5 to 4 plies took 118,968,334 positions searched
this way, against 188,730,593 deepest first searching every position and
210,079,029 shallowest first (the shallow positions are the hardest, and a
warm table does not make them free). A build stopped early is useful too:
its deepest plies are complete, and a search answers a position at once
when each of its moves leads to a position the book holds
(:mod:`zerosum.search.recall`), so ply ``K`` already settles ply ``K - 1``
for every search.

**Stopping.** Every result is written to the book as soon as it comes (one
short transaction), so a build stopped at any moment -- Ctrl+C, which
terminates the workers, or the process killed -- loses at most the
positions being solved at that moment. **Resuming** is running the same
build again: the positions the book already proves well enough (the exact
value for a strong build, at least the outcome for a weak one) are skipped.

The book is a :class:`~zerosum.store.Store` file; its entries say
``source = "book"``.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from ..search.proven import Entry
from ..store import Store, key_text
from .positions import DEFAULT_MAX_POSITIONS, PositionTree, enumerate_positions
from .proof import finished, good_enough, settle
from .workers import PositionSolver, Task, WorkerSetup, init_worker, solve_task

#: Settled positions written to the book in one transaction.
DERIVED_BATCH = 500


@dataclass
class BuildProgress:
    """Where a build is: ``done`` of ``total`` positions are in the book
    (``skipped`` were there before this run, ``solved`` were searched and
    ``derived`` settled from their children in this run); ``ply`` is the
    ply being worked on; ``pending`` the searches known to be left;
    ``search_started`` when the first search came back."""

    total: int
    ply: int = 0
    skipped: int = 0
    solved: int = 0
    derived: int = 0
    pending: int = 0
    nodes: int = 0
    started: float = field(default_factory=time.perf_counter)
    search_started: float | None = None

    @property
    def done(self) -> int:
        return self.skipped + self.solved + self.derived

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    @property
    def rate(self) -> float:
        """Positions solved by search per second since the first came back
        (so the workers' start-up does not count); 0.0 before the second."""
        if self.search_started is None or self.solved < 2:
            return 0.0
        return (self.solved - 1) / max(time.perf_counter() - self.search_started, 1e-9)

    @property
    def seconds_left(self) -> float | None:
        """The searches known to be left at the present rate (None before a
        rate is known)."""
        rate = self.rate
        return self.pending / rate if rate > 0 else None


@dataclass(frozen=True)
class BuildReport:
    """What a build did: the book's positions by ply, what this run skipped,
    solved and settled, and whether it was stopped before the end."""

    counts: tuple[int, ...]
    skipped: int
    solved: int
    derived: int
    nodes: int
    seconds: float
    stopped: bool

    @property
    def total(self) -> int:
        return sum(self.counts)

    @property
    def done(self) -> int:
        return self.skipped + self.solved + self.derived


def build_book(
    game: Game[Any, Any],
    plies: int,
    book: Store,
    setup: WorkerSetup,
    *,
    jobs: int = 1,
    derive: bool = True,
    deepest_first: bool = True,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    on_progress: Callable[[BuildProgress], None] | None = None,
    tree: PositionTree | None = None,
) -> BuildReport:
    """Prove every position of ``game`` within ``plies`` plies (one per
    symmetry class, terminal ones left out) into ``book``, skipping those it
    already proves as well as ``setup.weak`` asks.

    ``jobs`` worker processes search (0: this process searches, which
    Ctrl+C can only stop between positions); ``derive`` settles a position
    from its children when they are all proven; ``deepest_first`` orders the
    plies (False: from the start, as a measurement of the other order).
    ``on_progress`` is called after every position. Ctrl+C
    (KeyboardInterrupt) ends the build at once, the workers terminated,
    with ``stopped`` in the report: what was written stays written."""
    if tree is None:
        tree = enumerate_positions(game, plies, max_positions=max_positions)
    need_exact = not setup.weak
    numbers = {key_text(key): i for i, key in enumerate(tree.key)}
    proven: dict[int, Entry] = {}
    for record in book.entries(game):
        number = numbers.get(record.key)
        entry = record.entry()
        if number is not None and good_enough(entry, need_exact):
            proven[number] = entry
    progress = BuildProgress(total=len(tree), skipped=len(proven))
    run = _Run(game, tree, book, setup, jobs, proven, progress, on_progress)
    order = range(max(tree.ply, default=-1), -1, -1) if deepest_first else range(
        max(tree.ply, default=-1) + 1
    )
    stopped = False
    try:
        for ply in order:
            run.ply(ply, derive)
    except KeyboardInterrupt:
        stopped = True
        run.close(terminate=True)
    except BaseException:
        run.close(terminate=True)
        raise
    else:
        run.close(terminate=False)
    return BuildReport(
        counts=tuple(tree.counts()),
        skipped=progress.skipped,
        solved=progress.solved,
        derived=progress.derived,
        nodes=progress.nodes,
        seconds=progress.seconds,
        stopped=stopped,
    )


class _Run:
    """One run of a build: the proofs so far, the workers, the progress."""

    def __init__(
        self,
        game: Game[Any, Any],
        tree: PositionTree,
        book: Store,
        setup: WorkerSetup,
        jobs: int,
        proven: dict[int, Entry],
        progress: BuildProgress,
        on_progress: Callable[[BuildProgress], None] | None,
    ) -> None:
        self.game = game
        self.tree = tree
        self.book = book
        self.setup = setup
        self.jobs = jobs
        self.proven = proven
        self.progress = progress
        self.on_progress = on_progress
        self.need_exact = not setup.weak
        self.pool: Any = None
        self.local: PositionSolver | None = None

    def _report(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.progress)

    def ply(self, ply: int, derive: bool) -> None:
        self.progress.ply = ply
        todo = [i for i in self.tree.at_ply(ply) if i not in self.proven]
        search: list[int] = []
        batch: list[tuple[Any, Entry]] = []
        for number in todo:
            state = self.tree.state(number)
            entry = self._settle(state) if derive else None
            if entry is None:
                search.append(number)
                continue
            self.proven[number] = entry
            batch.append((state, entry.with_ply(ply)))
            self.progress.derived += 1
            if len(batch) >= DERIVED_BATCH:
                self._write(batch)
                batch = []
                self._report()
        if batch:
            self._write(batch)
        self._report()
        if search:
            self._search(search)

    def _write(self, items: list[tuple[Any, Entry]]) -> None:
        """Into the book, in one transaction; a failing file (full disk,
        read-only) is a :class:`~zerosum.store.StoreError` that ends the
        build, everything before it kept."""
        self.book.put_many(self.game, items)

    def _settle(self, state: Any) -> Entry | None:
        """``state``'s entry from its children's, when every child is
        finished or proven well enough; else None."""
        game, tree = self.game, self.tree
        mover = game.to_move(state)
        children: list[tuple[Any, Entry, bool]] = []
        for action in game.actions(state):
            child = game.result(state, action)
            if game.is_terminal(child):
                entry = finished(game, child)
            else:
                number = tree.find(child)
                found = None if number is None else self.proven.get(number)
                if found is None or not good_enough(found, self.need_exact):
                    return None
                entry = found
            children.append((action, entry, game.to_move(child) == mover))
        return settle(children, self.need_exact)

    def _search(self, numbers: list[int]) -> None:
        tasks: list[Task] = [(i, tuple(self.tree.move_texts(i))) for i in numbers]
        progress = self.progress
        progress.pending = len(tasks)
        for number, entry in self._solved(tasks):
            if progress.search_started is None:
                progress.search_started = time.perf_counter()
            self._write([(self.tree.state(number), entry.with_ply(self.tree.ply[number]))])
            self.proven[number] = entry
            progress.solved += 1
            progress.pending -= 1
            progress.nodes += entry.nodes
            self._report()

    def _solved(self, tasks: list[Task]) -> Iterator[tuple[int, Entry]]:
        if self.jobs <= 0:
            if self.local is None:
                self.local = PositionSolver(self.setup)
            for number, moves in tasks:
                yield number, self.local.solve(moves)
            return
        if self.pool is None:
            # spawn: a clean interpreter per worker (no threads or compiled
            # state copied from this process).
            context = multiprocessing.get_context("spawn")
            self.pool = context.Pool(self.jobs, init_worker, (self.setup,))
        yield from self.pool.imap_unordered(solve_task, tasks, chunksize=1)

    def close(self, terminate: bool) -> None:
        if self.pool is None:
            return
        if terminate:
            self.pool.terminate()  # the positions in flight are given up
        else:
            self.pool.close()
        self.pool.join()
