"""A search trace: the reference minimax or alpha-beta tree, exactly as it ran
(and the engine's, through :mod:`zerosum.search.enginetrace`, with the same
records: :func:`trace` with ``algorithm="engine"``).

A :class:`Recorder` watches one run of :func:`reference.best_move` (the
tutorials' ``get_best_move``) or :func:`reference.analyze` and keeps every
position the search visited, in visit order, as a :class:`TraceNode`: the
move that led to it, its ply, the alpha-beta window on entry, the value it
returned, whether it was a leaf (and scored by the rules or by the
evaluation), its best child, and where a cutoff happened with the moves the
search then never tried.

How it watches without changing the algorithm: the recorder hands the
reference functions a subclass of their ``ReferenceSearch`` whose recursive methods
call the reference ones (``super()``) and note what goes in and comes out,
and whose game is wrapped so that the moves the search iterates over and the
moves it plays are seen as they happen. The reference code stays as the
tutorials write it; without a recorder it pays one ``is None`` test per
search, nothing per position.

>>> import zerosum
>>> game = zerosum.load("domineering(rows=3,cols=3)")
>>> run = trace(game, game.initial_state(), algorithm="alphabeta", depth=1)
>>> game.format_move(run.best_move), run.value, run.leaves
('b1', 2, 6)

Size: a trace is refused (:class:`TraceTooBig`) when it would list more than
``limit`` positions; the error says how big the tree is (or that it is
bigger than ``budget``) and which depth would fit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..game import Game, ZerosumError
from ..i18n import _
from . import reference
from .types import INF, SearchResult

#: Most positions a trace lists (the command line and the browser refuse more).
MAX_TRACE_NODES = 20_000
#: Most positions a traced search may visit in all (nodes deeper than
#: ``keep_depth`` are counted, not listed); beyond it the size is "more than".
MAX_SEARCH_NODES = 1_000_000
#: Most seconds a traced search may take by default: none. The positions
#: budgets above bound every trace, and a bound in seconds made the answer
#: (traced, or "too big") depend on how fast and how loaded the machine was
#: (issue 26); a caller may still pass one.
MAX_TRACE_SECONDS = math.inf
#: Most seconds spent counting a tree too big to trace, by default none (the
#: count stops at the positions budget; the error then says "more than" it).
SIZING_SECONDS = math.inf

#: How a leaf was scored: by the rules (``terminal``), by the evaluation at
#: the depth limit (``evaluation``), or, in an engine trace, by the game's
#: hooks (``hook``: see :mod:`zerosum.search.enginetrace`).
Leaf = Literal["terminal", "evaluation", "hook"]
#: Why an engine node returned without (all of) its search, besides a
#: cutoff: ``win`` and ``no-safe-move`` (hook leaves), ``table`` (the
#: transposition table's value), ``table-image`` (the value stored for a
#: symmetric image of the position: the table keys by symmetry class),
#: ``bound`` (the mate-distance bounds).
Reason = Literal["win", "no-safe-move", "table", "table-image", "bound"]
RootSearch = Literal["best", "every"]
TRACE_ALGORITHMS = ("minimax", "alphabeta", "engine")


@dataclass(slots=True)
class TraceNode:
    """One position the search visited.

    ``value`` is from MAX's point of view (MAX: the side to move at the
    root), as the reference search compares it (an engine trace converts
    its negamax values to it). ``alpha``/``beta`` are the
    window the node was called with (``None`` with minimax, which has none;
    ``-INF``/``INF`` mean unbounded). ``opened``/``closed`` number the steps
    of the search: a node opens when the search enters it and closes when it
    returns its value; step numbers are shared by all nodes, so sorting them
    replays the search.
    """

    id: int
    parent: int | None
    move: Any  # the move that led here; None at the root
    ply: int
    maximizing: bool
    alpha: int | None
    beta: int | None
    state: Any
    opened: int
    closed: int = -1
    value: int | None = None
    leaf: Leaf | None = None
    children: list[int] = field(default_factory=list)
    best: int | None = None  # the listed child whose value this node returned
    best_move: Any = None  # the move to that child (also when it is not listed)
    searched: int = 0  # children searched (listed or not)
    actions: tuple[Any, ...] = ()  # the moves the search iterated over here
    cut: bool = False  # alpha >= beta ended this node's loop (maybe at its last move)
    pruned: tuple[Any, ...] = ()  # moves never searched because of that cutoff
    nodes: int = 1  # positions in this subtree (itself included), listed or not
    leaves: int = 0  # leaves in this subtree
    # -- engine traces only (zerosum.search.enginetrace) --
    depth: int | None = None  # the remaining depth it was searched with
    iteration: int | None = None  # the iterative-deepening depth it belongs to
    reason: Reason | None = None  # how it ended besides a leaf or a cutoff
    visits: int = 1  # times the search entered it (the engine's root: once per iteration)
    cut_bound: int | None = None  # the bound a cut crossed, when the engine had narrowed it

    @property
    def bound(self) -> int | None:
        """At a cut node, the bound the value crossed: beta at MAX (a beta
        cutoff, value >= beta), alpha at MIN (an alpha cutoff, value <= alpha);
        in an engine trace, that bound as the table or the mate-distance
        bounds had narrowed it (``cut_bound``)."""
        if not self.cut:
            return None
        if self.cut_bound is not None:
            return self.cut_bound
        return self.beta if self.maximizing else self.alpha


class TraceTooBig(ZerosumError):
    """The tree is too big to trace. ``nodes`` is its size (None when it is
    larger than the budget, ``more_than``); ``suggested`` a depth whose tree
    fits, with its size, or None."""

    def __init__(
        self,
        nodes: int | None,
        more_than: int,
        limit: int,
        suggested: tuple[int, int] | None,
    ) -> None:
        self.nodes, self.more_than, self.limit, self.suggested = nodes, more_than, limit, suggested
        size = (
            _("the search tree has {nodes} positions").format(nodes=f"{nodes:,}")
            if nodes is not None
            else _("the search tree has more than {nodes} positions").format(nodes=f"{more_than:,}")
        )
        advice = (
            _("try a depth of {depth} ({nodes} positions)").format(
                depth=suggested[0], nodes=f"{suggested[1]:,}"
            )
            if suggested is not None
            else _("even a depth of 1 is too big")
        )
        super().__init__(
            _("{size}, more than the {limit} a trace can show; {advice}").format(
                size=size, limit=f"{limit:,}", advice=advice
            )
        )


class Overflow(Exception):
    """Raised inside a traced search to stop it when it grows too big."""


class _WatchedGame:
    """The game as the traced search sees it: every call goes to the real
    game; ``actions`` and ``result`` also tell the recorder which moves a
    node iterates over and which one it is about to search."""

    def __init__(self, game: Game[Any, Any], recorder: Recorder) -> None:
        self._game = game
        self._recorder = recorder
        # The calls the search makes at every node, bound once (not looked
        # up through __getattr__ each time).
        self.to_move = game.to_move
        self.is_terminal = game.is_terminal
        self.utility = game.utility
        self.evaluate = game.evaluate

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def actions(self, state: Any) -> Sequence[Any]:
        # A tuple: the recorder keeps the list and the search iterates the
        # same one, even if a game returns something that can be read once.
        moves = tuple(self._game.actions(state))
        self._recorder._iterating(state, moves)
        return moves

    def result(self, state: Any, action: Any) -> Any:
        self._recorder._next_move = action
        return self._game.result(state, action)


class _TracedSearch(reference.ReferenceSearch):
    """The reference search, noting each node on the way in and out."""

    def __init__(
        self,
        game: Game[Any, Any],
        root: Any,
        depth: int | None,
        evaluate_terminals: bool,
        recorder: Recorder,
    ) -> None:
        super().__init__(game, root, depth, evaluate_terminals)
        self.recorder = recorder
        self.game = _WatchedGame(game, recorder)  # type: ignore[assignment]

    def leaf(self, state: Any, ply: int) -> int | None:
        horizon = self.count.horizon
        value = super().leaf(state, ply)
        if value is not None:
            self.recorder._leaf("evaluation" if self.count.horizon > horizon else "terminal")
        return value

    def minimax(self, state: Any, ply: int) -> tuple[int, tuple[Any, ...]]:
        node = self.recorder._open(self, state, ply, None, None)
        value, line = super().minimax(state, ply)
        self.recorder._close(self, node, value, line)
        return value, line

    def alphabeta(self, state: Any, ply: int, alpha: int, beta: int) -> tuple[int, tuple[Any, ...]]:
        node = self.recorder._open(self, state, ply, alpha, beta)
        value, line = super().alphabeta(state, ply, alpha, beta)
        self.recorder._close(self, node, value, line)
        return value, line

    def search(
        self, state: Any, algorithm: reference.Algorithm, alpha: int = -INF, beta: int = INF
    ) -> tuple[int, tuple[Any, ...]]:
        # Called once per root move, in the game's move order (best_move and
        # analyze loop over every root move with the real game, not ours).
        self.recorder._next_root_move(state)
        return super().search(state, algorithm, alpha, beta)


@dataclass(slots=True)
class _Open:
    """A node being searched: where it is in the list (None when it is
    deeper than the recorder keeps) and the counts when it was entered."""

    node: TraceNode | None
    nodes_before: int
    leaves_before: int
    cutoffs_mark: int  # the search's cutoff count after the last child returned


class TraceLog:
    """What both recorders (this module's and the engine's) keep: the nodes
    listed so far, in visit order, the step counter that their ``opened``
    and ``closed`` share, and the bounds of a trace (``keep_depth``,
    ``limit`` nodes listed, ``budget`` nodes searched, ``seconds``)."""

    def __init__(
        self,
        game: Game[Any, Any],
        keep_depth: int | None,
        limit: int,
        budget: int,
        seconds: float,
    ) -> None:
        self.game = game
        self.keep_depth = keep_depth
        self.limit = limit
        self.budget = budget
        self.deadline = time.monotonic() + seconds
        self.nodes: list[TraceNode] = []
        self._step = 0

    def _new(
        self,
        parent: TraceNode | None,
        move: Any,
        state: Any,
        ply: int,
        maximizing: bool,
        alpha: int | None,
        beta: int | None,
    ) -> TraceNode:
        """List a node the search has just entered (an overflow past
        ``limit`` stops the search)."""
        if len(self.nodes) >= self.limit:
            raise Overflow
        node = TraceNode(
            id=len(self.nodes),
            parent=None if parent is None else parent.id,
            move=move,
            ply=ply,
            maximizing=maximizing,
            alpha=alpha,
            beta=beta,
            state=state,
            opened=self._step,
        )
        self._step += 1
        self.nodes.append(node)
        if parent is not None:
            parent.children.append(node.id)
        return node


class Recorder(TraceLog):
    """Collects the trace of one reference search (see the module docstring).

    ``keep_depth``: list only nodes at most this many plies below the root
    (deeper ones are still searched and counted in their ancestors' ``nodes``
    and ``leaves``); ``limit``: most nodes listed; ``budget``: most nodes
    searched, ``seconds`` the longest it may take. Any overflow stops the
    search with an internal exception that :func:`trace` turns into
    :class:`TraceTooBig`.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        root: Any,
        *,
        keep_depth: int | None = None,
        limit: int = MAX_TRACE_NODES,
        budget: int = MAX_SEARCH_NODES,
        seconds: float = MAX_TRACE_SECONDS,
    ) -> None:
        super().__init__(game, keep_depth, limit, budget, seconds)
        self._stack: list[_Open] = []
        self._next_move: Any = None
        self._root_moves = tuple(game.actions(root))
        self._root_index = 0
        self.root = self._new(None, None, root, 0, True, -INF, INF)
        self.root.actions = self._root_moves

    # -- the reference search calls these (through _TracedSearch) -----------
    def watch(
        self, game: Game[Any, Any], root: Any, depth: int | None, evaluate_terminals: bool
    ) -> reference.ReferenceSearch:
        """The search object the reference functions run with."""
        return _TracedSearch(game, root, depth, evaluate_terminals, self)

    def _next_root_move(self, state: Any) -> None:
        move = self._root_moves[self._root_index]
        # The k-th root search is the k-th root move; check it really is.
        assert self.game.result(self.root.state, move) == state, "root moves out of order"
        self._root_index += 1
        self._next_move = move

    def _open(
        self,
        search: reference.ReferenceSearch,
        state: Any,
        ply: int,
        alpha: int | None,
        beta: int | None,
    ) -> _Open:
        nodes = search.count.nodes
        if nodes >= self.budget or (nodes % 4096 == 0 and time.monotonic() > self.deadline):
            raise Overflow
        parent = self._stack[-1].node if self._stack else self.root
        if parent is not None:
            parent.searched += 1
        node = None
        if parent is not None and (self.keep_depth is None or ply <= self.keep_depth):
            maximizing = self.game.to_move(state) == search.max_player
            node = self._new(parent, self._next_move, state, ply, maximizing, alpha, beta)
        entry = _Open(node, search.count.nodes, search.count.leaves, search.count.cutoffs)
        self._stack.append(entry)
        return entry

    def _iterating(self, state: Any, moves: Sequence[Any]) -> None:
        node = self._stack[-1].node if self._stack else None
        if node is not None:
            node.actions = tuple(moves)

    def _leaf(self, kind: Leaf) -> None:
        node = self._stack[-1].node
        if node is not None:
            node.leaf = kind

    def _close(
        self, search: reference.ReferenceSearch, entry: _Open, value: int, line: tuple[Any, ...]
    ) -> None:
        popped = self._stack.pop()
        assert popped is entry
        if self._stack:
            self._stack[-1].cutoffs_mark = search.count.cutoffs
        node = entry.node
        if node is None:
            return
        # The reference counts a cutoff just before its ``break``: a count
        # that moved since the last child returned is this node's own.
        node.cut = search.count.cutoffs > entry.cutoffs_mark
        node.value = value
        node.closed = self._step
        self._step += 1
        # ``nodes`` was counted on entry (the search counts itself after we
        # open it), so the subtree is everything counted since, plus one.
        node.nodes = search.count.nodes - entry.nodes_before
        node.leaves = search.count.leaves - entry.leaves_before
        if node.leaf is None:
            _settle(self, node, line)

    def finish(self, result: SearchResult[Any], root_nodes: int, root_leaves: int) -> None:
        """Close the root with the search's own result (the reference
        functions handle the root themselves, outside the recursion)."""
        root = self.root
        root.value = result.score.raw
        root.closed = self._step
        self._step += 1
        root.nodes, root.leaves = root_nodes, root_leaves
        _settle(self, root, result.pv)


def _settle(recorder: Recorder, node: TraceNode, line: tuple[Any, ...]) -> None:
    """A searched node's best child (the first move of the line it returned)
    and its pruned moves (those it iterated over but never searched)."""
    if line:
        node.best_move = line[0]
        children = (recorder.nodes[i] for i in node.children)
        node.best = next((c.id for c in children if c.move == line[0]), None)
    # The loop over ``actions`` stops early only at a cutoff (``break``).
    if node.searched < len(node.actions):
        node.pruned = tuple(node.actions[node.searched :])


@dataclass
class Trace:
    """A finished trace: the nodes in visit order (``nodes[0]`` the root)
    and the search's own result and statistics."""

    game: Game[Any, Any]
    state: Any
    algorithm: str
    depth: int | None
    evaluate_terminals: bool
    root_search: RootSearch
    keep_depth: int | None
    nodes: list[TraceNode]
    result: SearchResult[Any]

    @property
    def root(self) -> TraceNode:
        return self.nodes[0]

    @property
    def value(self) -> int:
        return self.result.score.raw

    @property
    def best_move(self) -> Any:
        return self.result.best_move

    @property
    def leaves(self) -> int:
        return self.result.stats.leaves

    @property
    def visited(self) -> int:
        """Positions the search visited (its own count)."""
        return self.result.stats.nodes

    @property
    def cutoffs(self) -> int:
        return self.result.stats.cutoffs

    def path(self, node: TraceNode) -> list[Any]:
        """The moves from the root to ``node``."""
        moves = []
        while node.parent is not None:
            moves.append(node.move)
            node = self.nodes[node.parent]
        return moves[::-1]


def check_request(
    game: Game[Any, Any],
    state: Any,
    algorithm: str,
    depth: int | None,
    evaluate_terminals: bool = False,
) -> None:
    """A one-line error for what cannot be traced: an unknown algorithm, a
    depth below 1, a finished game, the engine with ``evaluate_terminals``
    (it always scores a finished game by the rules)."""
    if algorithm not in TRACE_ALGORITHMS:
        raise ZerosumError(
            _("cannot trace {name!r}; expected minimax, alphabeta or engine").format(name=algorithm)
        )
    if depth is not None and depth < 1:
        raise ZerosumError(_("the depth must be 1 or more, got {depth}").format(depth=depth))
    if algorithm == "engine" and evaluate_terminals:
        raise ZerosumError(
            _(
                "the engine always scores a finished game by the rules;"
                " evaluate_terminals is for minimax and alphabeta"
            )
        )
    if game.is_terminal(state):
        raise ZerosumError(
            _("the game is over in this position; expected a position with a move to make")
        )


def _run(
    game: Game[Any, Any],
    state: Any,
    algorithm: reference.Algorithm,
    depth: int | None,
    evaluate_terminals: bool,
    root_search: RootSearch,
    recorder: Recorder | _Sizer,
) -> SearchResult[Any]:
    run: Callable[..., SearchResult[Any]] = (
        reference.best_move if root_search == "best" else reference.analyze
    )
    return run(
        game,
        state,
        algorithm=algorithm,
        depth=depth,
        evaluate_terminals=evaluate_terminals,
        recorder=recorder,  # a _Sizer watches the same way a Recorder does
    )


class _CountingSearch(reference.ReferenceSearch):
    """The reference search with a budget of positions and of time, and
    nothing else (sizing a tree too big to trace must be quick)."""

    budget = MAX_SEARCH_NODES
    deadline = math.inf

    def _check_budget(self) -> None:
        nodes = self.count.nodes
        if nodes >= self.budget or (nodes % 4096 == 0 and time.monotonic() > self.deadline):
            raise Overflow

    def minimax(self, state: Any, ply: int) -> tuple[int, tuple[Any, ...]]:
        self._check_budget()
        return super().minimax(state, ply)

    def alphabeta(self, state: Any, ply: int, alpha: int, beta: int) -> tuple[int, tuple[Any, ...]]:
        self._check_budget()
        return super().alphabeta(state, ply, alpha, beta)


class _Sizer:
    """A stand-in recorder that only counts, up to ``budget`` positions or
    ``seconds``; ``counted`` is how far it got."""

    def __init__(self, budget: int, seconds: float) -> None:
        self.budget = budget
        self.seconds = seconds
        self.search: _CountingSearch | None = None

    def watch(
        self, game: Game[Any, Any], root: Any, depth: int | None, evaluate_terminals: bool
    ) -> reference.ReferenceSearch:
        self.search = _CountingSearch(game, root, depth, evaluate_terminals)
        self.search.budget = self.budget
        self.search.deadline = time.monotonic() + self.seconds
        return self.search

    @property
    def counted(self) -> int:
        return 0 if self.search is None else self.search.count.nodes


def tree_size(
    game: Game[Any, Any],
    state: Any,
    *,
    algorithm: reference.Algorithm,
    depth: int | None,
    evaluate_terminals: bool = False,
    root_search: RootSearch = "best",
    budget: int = MAX_SEARCH_NODES,
    seconds: float = math.inf,
) -> tuple[int, bool]:
    """Positions the search visits, and True; or, when it would visit more
    than ``budget`` or take more than ``seconds``, how many it had counted
    by then, and False."""
    sizer = _Sizer(budget, seconds)
    try:
        result = _run(game, state, algorithm, depth, evaluate_terminals, root_search, sizer)
    except Overflow:
        return sizer.counted, False
    return result.stats.nodes, True


@dataclass(frozen=True)
class EngineTrace:
    """The engine's traced search, as :mod:`.enginetrace` registers it
    (:func:`register_engine_trace`, when :mod:`zerosum.search` is imported):
    that module builds on this one, so this one never imports it.
    ``tree_size(game, state, depth=, every_move=, budget=, seconds=)``
    sizes the untraced search, ``EngineRecorder(game, state, keep_depth=,
    limit=, budget=)`` makes a recorder and ``run_traced(game, state, depth,
    every_move, recorder)`` runs the traced search with it."""

    tree_size: Callable[..., tuple[int, bool]]
    EngineRecorder: Callable[..., Any]
    run_traced: Callable[..., SearchResult[Any]]


_ENGINE_TRACE: list[EngineTrace] = []


def register_engine_trace(hooks: EngineTrace) -> None:
    """Called by :mod:`.enginetrace` when imported."""
    _ENGINE_TRACE[:] = [hooks]


def _engine_trace() -> EngineTrace:
    if not _ENGINE_TRACE:  # only if zerosum.search was bypassed
        raise RuntimeError("the engine's trace is not registered: import zerosum.search")
    return _ENGINE_TRACE[0]


def trace(
    game: Game[Any, Any],
    state: Any,
    *,
    algorithm: str = "alphabeta",
    depth: int | None = None,
    evaluate_terminals: bool = False,
    root_search: RootSearch = "best",
    keep_depth: int | None = None,
    limit: int = MAX_TRACE_NODES,
    budget: int = MAX_SEARCH_NODES,
    sizing_seconds: float = SIZING_SECONDS,
) -> Trace:
    """Run the search and record it.

    ``algorithm``: ``minimax`` or ``alphabeta`` (the reference search), or
    ``engine`` (the engine on the Python backend, iterative deepening as
    :meth:`Engine.search <zerosum.search.engine.Engine.search>` runs it:
    see :mod:`zerosum.search.enginetrace`).

    ``root_search``: ``"best"`` runs :func:`reference.best_move` (the
    tutorials' ``get_best_move``: at the root the best value so far raises
    alpha) or ``Engine.search``, ``"every"`` runs :func:`reference.analyze`
    or ``Engine.analyze`` (every root move with a full window). The result's
    statistics are the search's own; the trace's root ``nodes``/``leaves``
    equal them (the tests check it).

    ``keep_depth`` lists only the first plies (a big tree shown by its top:
    every node still searched and counted). Raises :class:`TraceTooBig` when
    more than ``limit`` nodes would be listed or ``budget`` searched (its
    size counted for at most ``sizing_seconds``), and
    :class:`ZerosumError` for what :func:`check_request` refuses.
    """
    check_request(game, state, algorithm, depth, evaluate_terminals)
    size: Callable[[int | None, int, float], tuple[int, bool]]
    record: Callable[[], tuple[list[TraceNode], SearchResult[Any]]]
    if algorithm == "engine":
        enginetrace = _engine_trace()

        every = root_search == "every"

        def size(d: int | None, most: int, seconds: float) -> tuple[int, bool]:
            return enginetrace.tree_size(
                game, state, depth=d, every_move=every, budget=most, seconds=seconds
            )

        def record() -> tuple[list[TraceNode], SearchResult[Any]]:
            recorder = enginetrace.EngineRecorder(
                game, state, keep_depth=keep_depth, limit=limit, budget=budget
            )
            result = enginetrace.run_traced(game, state, depth, every, recorder)
            return recorder.nodes, result

    else:
        algo: reference.Algorithm = "minimax" if algorithm == "minimax" else "alphabeta"
        options: dict[str, Any] = {
            "algorithm": algo,
            "evaluate_terminals": evaluate_terminals,
            "root_search": root_search,
        }

        def size(d: int | None, most: int, seconds: float) -> tuple[int, bool]:
            return tree_size(game, state, depth=d, budget=most, seconds=seconds, **options)

        def record() -> tuple[list[TraceNode], SearchResult[Any]]:
            recorder = Recorder(game, state, keep_depth=keep_depth, limit=limit, budget=budget)
            result = _run(game, state, algo, depth, evaluate_terminals, root_search, recorder)
            recorder.finish(result, result.stats.nodes, result.stats.leaves)
            return recorder.nodes, result

    if keep_depth is None:
        # Size the tree first with the bare counter (a few times cheaper than
        # recording): a tree over the limit is refused without being recorded.
        nodes, whole = size(depth, budget, sizing_seconds)
        if not whole or nodes > limit:
            raise _too_big(depth, limit, nodes, whole, size)
    try:
        listed, result = record()
    except Overflow:
        raise _too_big(depth, limit, *size(depth, budget, sizing_seconds), size) from None
    return Trace(
        game=game,
        state=state,
        algorithm=algorithm,
        depth=depth,
        evaluate_terminals=evaluate_terminals,
        root_search=root_search,
        keep_depth=keep_depth,
        nodes=listed,
        result=result,
    )


def _too_big(
    depth: int | None,
    limit: int,
    nodes: int,
    whole: bool,
    size: Callable[[int | None, int, float], tuple[int, bool]],
) -> TraceTooBig:
    """The error for a tree over the limit, given its size as counted
    (``whole`` false: counting stopped at ``nodes``), with the deepest depth
    whose whole tree fits (``size(depth, budget, seconds)`` counts one)."""
    suggested = None
    top = depth if depth is not None else 1_000
    for d in range(1, top):
        counted, fits = size(d, limit + 1, math.inf)
        if not fits or counted > limit:
            break
        suggested = (d, counted)
    if whole:
        return TraceTooBig(nodes, nodes, limit, suggested)
    return TraceTooBig(None, _round_down(max(nodes, limit)), limit, suggested)


def _round_down(n: int) -> int:
    """``n`` to two significant figures, downwards (a true "more than")."""
    scale: int = 10 ** max(0, len(str(n)) - 2)
    return n // scale * scale
