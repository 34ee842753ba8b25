"""Building a book: which positions, in which order, by whom, and what
happens when the build is stopped.

**Order: deepest first.** The positions of the last ply are solved by search
(in worker processes); every shallower position is then settled from its
children's proofs (:func:`~.proof.from_children`), a step that costs a few
table look-ups instead of a search, and gives the same value, distance and
best moves a solve would (a child at the last ply that the game ended is
scored by the rules). A position that cannot be settled so (a child missing
from the book, as in games where a position is met at several plies) is
solved by search too. Measured on Connect Four 5x4 and 6x5 in
``benchmarks/README.md``: solving every ply by search, shallowest first,
costs far more, because the shallow positions are the hardest ones.

**Stopping.** Every proof is written to the book as soon as it comes (one
short transaction), so a build stopped at any moment -- Ctrl+C, which
terminates the workers, or the process killed -- loses at most the
positions being solved at that moment. **Resuming** is running the same
build again: the positions the book already proves well enough (the exact
value for a strong build, at least the outcome for a weak one) are skipped.

The book itself is anything with the two methods of :class:`BookFile`
(:class:`zerosum.book.storebook.StoreBook` over a store file).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..game import Game
from .positions import DEFAULT_MAX_POSITIONS, PositionTree, enumerate_positions
from .proof import Proof, from_children, terminal
from .workers import PositionSolver, Task, WorkerSetup, init_worker, solve_task

#: Settled positions written to the book in one transaction.
DERIVED_BATCH = 500


class BookFile(Protocol):
    """Where a build reads what is already proven and writes what it proves."""

    def proofs(self, game: Game[Any, Any]) -> Iterable[tuple[Hashable, Proof]]:
        """Every position of ``game`` in the book: its symmetry-class key
        (``game.canonical``) and its proof."""
        ...

    def write(self, game: Game[Any, Any], items: Sequence[tuple[Any, Proof]]) -> None:
        """Put ``(state, proof)`` pairs in the book in one transaction."""
        ...


@dataclass
class BuildProgress:
    """Where a build is: ``done`` of ``total`` positions are in the book
    (``skipped`` were there before this run, ``solved`` were searched and
    ``derived`` settled from their children in this run); ``ply`` is the
    ply being worked on; ``pending`` the searches known to be left;
    ``search_seconds`` the time spent since the first search was sent."""

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
        """Positions solved by search per second (0.0 before the first)."""
        if self.search_started is None or not self.solved:
            return 0.0
        return self.solved / max(time.perf_counter() - self.search_started, 1e-9)

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
    book: BookFile,
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
    proven: dict[int, Proof] = {}
    for key, proof in book.proofs(game):
        number = tree.index.get(key)
        if number is not None and proof.covers(need_exact):
            proven[number] = proof
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
        book: BookFile,
        setup: WorkerSetup,
        jobs: int,
        proven: dict[int, Proof],
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
        batch: list[tuple[Any, Proof]] = []
        for number in todo:
            state = self.tree.state(number)
            proof = self._settle(state) if derive else None
            if proof is None:
                search.append(number)
                continue
            self.proven[number] = proof
            batch.append((state, proof))
            self.progress.derived += 1
            if len(batch) >= DERIVED_BATCH:
                self.book.write(self.game, batch)
                batch = []
                self._report()
        if batch:
            self.book.write(self.game, batch)
        self._report()
        if search:
            self._search(search)

    def _settle(self, state: Any) -> Proof | None:
        """``state``'s proof from its children's, when every child is
        finished or proven well enough; else None."""
        game, tree = self.game, self.tree
        children: dict[str, Proof] = {}
        for action in game.actions(state):
            child = game.result(state, action)
            if game.is_terminal(child):
                proof = terminal(game.utility(child, game.to_move(child)))
            else:
                number = tree.find(child)
                found = None if number is None else self.proven.get(number)
                if found is None or not found.covers(self.need_exact):
                    return None
                proof = found
            children[game.format_move(action)] = proof
        return from_children(children)

    def _search(self, numbers: list[int]) -> None:
        tasks: list[Task] = [(i, tuple(self.tree.move_texts(i))) for i in numbers]
        progress = self.progress
        progress.pending = len(tasks)
        if progress.search_started is None:
            progress.search_started = time.perf_counter()
        for number, proof in self._solved(tasks):
            state = self.tree.state(number)
            self.book.write(self.game, [(state, proof)])
            self.proven[number] = proof
            progress.solved += 1
            progress.pending -= 1
            progress.nodes += proof.nodes
            self._report()

    def _solved(self, tasks: list[Task]) -> Iterator[tuple[int, Proof]]:
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
