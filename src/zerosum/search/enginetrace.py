"""A search trace of the engine (Python backend): every position its
iterative deepening visited, in visit order, as the same
:class:`~zerosum.search.trace.TraceNode` records the reference traces use.

What is traced: :meth:`Engine.search <zerosum.search.engine.Engine.search>`
(or :meth:`~zerosum.search.engine.Engine.analyze` for "every root move")
under ``Limits(depth=N)`` exactly as it runs untraced: iterative deepening
1, 2, ..., N with its transposition table, move ordering, principal
variation search and the game's hooks. Each iteration searches the root
moves again, so the root's children are listed once per iteration and each
node carries its ``iteration``; a root move searched twice in one iteration
(a null window that failed high, then a full window) is listed twice, as
every position the engine entered is.

How it watches: :class:`~zerosum.search.node.PythonCore` is given the
recorder, which wraps the node function (the recursion calls itself through
its closure variable, so the wrapper sees every call) and the game and table
calls the node function makes (which move is played, which moves are
generated, the hooks' answers, the table entry read and whether the node
stored one). The counts the node function keeps tell what happened inside:
each node's own leaf, cut-off and evaluation.

Values and windows are converted to the root mover's point of view (MAX),
like the reference traces: the engine is negamax, so a node whose side to
move is the root's reports its value as is, any other node negated, and a
window ``(alpha, beta)`` of such a node becomes ``(-beta, -alpha)``.

How a node ended, beyond the reference's kinds (``leaf``/``reason``):

* ``leaf="terminal"`` / ``"evaluation"``: as in the reference traces;
* ``leaf="hook"``: the game's hooks settled it, which the engine counts as a
  leaf: ``reason="win"`` (``winning_action`` found a win at once; its move is
  ``best_move``) or ``reason="no-safe-move"`` (``non_losing_actions`` found
  no move that avoids losing at once). A hook leaf may have one child: the
  table's move, searched before the hooks are asked;
* ``reason="table"``: the transposition table's stored value settled it
  before any move was searched (a position, not a leaf, to the engine);
  ``reason="table-image"`` when that value was stored for another position
  of its symmetry class (a mirror image: the table keys by class);
* ``reason="bound"``: the mate-distance bounds settled it (the best or worst
  a move could do was outside the window), maybe after the table's move;
* ``cut``: a move's value reached beta (fail high, the window of the node's
  side to move; alpha at a MIN node in MAX's view); ``pruned`` lists the
  moves then never searched, in the game's order.

Counts: every position the engine counts is listed once (deeper than
``keep_depth``: counted, not listed), except the root, which the engine
visits once per iteration: its ``visits`` says how often. So
``sum(n.visits for n in nodes) == stats.nodes``, the root's ``nodes`` is
``stats.nodes``, and the listed leaves are ``stats.leaves`` (the tests
check both on many positions).

Only the Python backend can be traced: a traced search always runs there.

>>> import zerosum
>>> from zerosum.search.trace import trace
>>> game = zerosum.load("tictactoe")
>>> run = trace(game, game.play("0 4 8".split()), algorithm="engine", depth=2)
>>> game.format_move(run.best_move), run.value, run.visited, len(run.nodes), run.root.visits
('1', -50, 25, 24, 2)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from .engine import Engine, EngineOptions
from .node import UNLIMITED
from .trace import (
    MAX_SEARCH_NODES,
    MAX_TRACE_NODES,
    MAX_TRACE_SECONDS,
    EngineTrace,
    Overflow,
    TraceLog,
    TraceNode,
    register_engine_trace,
)
from .ttformat import MATE
from .types import INF, WIN, Limits, SearchResult, win_in

Counts = tuple[int, int, int, int, int, int]
_UNSET: Any = object()


@dataclass(slots=True)
class _Frame:
    """A node being searched (or the root): its listed record (None when
    not listed), what it was called with, the counts on entry, what its
    children added to them, and what the wrappers saw it do."""

    node: TraceNode | None
    state: Any
    me: int
    depth: int
    ply: int
    alpha: int
    beta: int
    before: Counts
    child_nodes: int = 0
    child_leaves: int = 0
    child_cutoffs: int = 0
    child_horizon: int = 0
    next_move: Any = None
    entry: Any = None
    entry_key: Any = None
    win: Any = None
    safe_moves: Any = _UNSET
    generated: Any = None
    stored: bool = False
    static: int = 0  # what static_bound answered, if asked
    # (move, listed child or None, value for this node's side), in visit order
    searched: list[tuple[Any, TraceNode | None, int]] = field(default_factory=list)


class _RootGame:
    """The game as the engine's root loop sees it when traced: ``result``
    also tells the recorder which root move is searched next."""

    def __init__(self, game: Game[Any, Any], recorder: EngineRecorder) -> None:
        self._game = game
        self._recorder = recorder
        self.to_move = game.to_move

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def result(self, state: Any, action: Any) -> Any:
        self._recorder._root.next_move = action
        return self._game.result(state, action)


class EngineRecorder(TraceLog):
    """Collects the trace of one engine search (see the module docstring).

    ``keep_depth``, ``limit``, ``budget`` and ``seconds`` as for
    :class:`zerosum.search.trace.Recorder`: going over any of them stops
    the search with :class:`~zerosum.search.trace.Overflow`.
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
        self.root_me = game.to_move(root)
        self._iteration = 0
        root_node = self._new(None, None, root, 0, True, -INF, INF)
        root_node.actions = tuple(game.actions(root))
        self._root = _Frame(root_node, root, self.root_me, 0, 0, -INF, INF, (0,) * 6)
        self._stack = [self._root]
        self._gen_moves: Callable[[Any], Any] = game.actions
        self._root_game: _RootGame | None = None

    @property
    def root(self) -> TraceNode:
        return self.nodes[0]

    # -- what the engine calls ------------------------------------------------------
    def root_game(self, game: Game[Any, Any]) -> Any:
        """The game for the engine's root loop (see :class:`_RootGame`)."""
        if self._root_game is None:
            self._root_game = _RootGame(game, self)
        return self._root_game

    def watch(
        self,
        node: Callable[..., int],
        counts: Callable[[], Counts],
        result: Callable[[Any, Any], Any],
        gen_moves: Callable[[Any], Any],
        winning_action: Callable[[Any], Any],
        non_losing: Callable[[Any], Any],
        static_bound: Callable[[Any], int],
        table_entry: Callable[[Any], Any] | None,
        table_put: Callable[..., None] | None,
    ) -> tuple[Any, ...]:
        """The node function and the calls it makes, wrapped: called by
        :class:`~zerosum.search.node.PythonCore` when it has a recorder."""
        stack = self._stack
        self._gen_moves = gen_moves

        def traced_node(
            state: Any, me: int, depth: int, ply: int, alpha: int, beta: int, safe: bool
        ) -> int:
            before = counts()
            visited = before[0]
            if visited >= self.budget or (visited % 4096 == 0 and time.monotonic() > self.deadline):
                raise Overflow
            parent = stack[-1]
            if ply == 1:
                self._iteration = depth + 1 if depth < UNLIMITED // 2 else 0
            listed = None
            if parent.node is not None and (self.keep_depth is None or ply <= self.keep_depth):
                maximizing = me == self.root_me
                a, b = (alpha, beta) if maximizing else (-beta, -alpha)
                listed = self._new(parent.node, parent.next_move, state, ply, maximizing, a, b)
                listed.depth = depth if depth < UNLIMITED // 2 else None
                listed.iteration = self._iteration or None
            frame = _Frame(listed, state, me, depth, ply, alpha, beta, before)
            stack.append(frame)
            try:
                value = node(state, me, depth, ply, alpha, beta, safe)
            finally:
                stack.pop()
            after = counts()
            parent.child_nodes += after[0] - before[0]
            parent.child_leaves += after[1] - before[1]
            parent.child_cutoffs += after[2] - before[2]
            parent.child_horizon += after[5] - before[5]
            parent.searched.append((parent.next_move, listed, value if me == parent.me else -value))
            if listed is not None:
                self._close(frame, listed, value, after)
            return value

        def traced_result(state: Any, move: Any) -> Any:
            stack[-1].next_move = move
            return result(state, move)

        def traced_moves(state: Any) -> Any:
            moves = gen_moves(state)
            stack[-1].generated = moves
            return moves

        def traced_win(state: Any) -> Any:
            move = winning_action(state)
            stack[-1].win = move
            return move

        def traced_safe(state: Any) -> Any:
            moves = non_losing(state)
            frame = stack[-1]
            frame.safe_moves = moves
            if moves is not None:
                frame.generated = moves
            return moves

        def traced_bound(state: Any) -> int:
            bound = static_bound(state)
            stack[-1].static = bound
            return bound

        traced_entry = table_entry
        traced_put = table_put
        if table_entry is not None and table_put is not None:
            get, put = table_entry, table_put

            def traced_entry(key: Any) -> Any:
                entry = get(key)
                frame = stack[-1]
                frame.entry, frame.entry_key = entry, key
                return entry

            def traced_put(key: Any, *args: Any) -> None:
                frame = stack[-1]
                frame.stored = True
                self._stored_by[key] = frame.state
                put(key, *args)

        self._has_table = table_entry is not None
        #: The position that last stored each key (a symmetric table keys a
        #: class of positions: a later hit may come from a mirror image).
        self._stored_by: dict[Any, Any] = {}
        return (
            traced_node,
            traced_result,
            traced_moves,
            traced_win,
            traced_safe,
            traced_bound,
            traced_entry,
            traced_put,
        )

    # -- records ---------------------------------------------------------------------
    def _close(self, frame: _Frame, node: TraceNode, value: int, after: Counts) -> None:
        before = frame.before
        node.value = value if node.maximizing else -value
        node.closed = self._step
        self._step += 1
        node.nodes = after[0] - before[0]
        node.leaves = after[1] - before[1]
        node.searched = len(frame.searched)
        own_leaf = after[1] - before[1] - frame.child_leaves
        own_cut = after[2] - before[2] - frame.child_cutoffs
        own_horizon = after[5] - before[5] - frame.child_horizon
        if own_leaf:
            if frame.win is not None:
                node.leaf, node.reason, node.best_move = "hook", "win", frame.win
            elif frame.safe_moves is not _UNSET and frame.safe_moves is not None:
                # (a non-empty list goes on searching: no leaf here)
                node.leaf, node.reason = "hook", "no-safe-move"
            else:
                node.leaf = "evaluation" if own_horizon else "terminal"
            return
        if not frame.stored:
            # It returned before the end of its search: by the table's value
            # (no move searched yet) or by the mate-distance bounds.
            if not frame.searched and self._has_table and _table_settles(frame):
                storer = self._stored_by.get(frame.entry_key, frame.state)
                node.reason = "table" if storer == frame.state else "table-image"
            else:
                node.reason = "bound"
            return
        _settle(self, frame, node, bool(own_cut))

    def finish(self, result: SearchResult[Any]) -> None:
        """Close the root with the search's own result (the engine's root
        code searches the root moves itself, outside the node function)."""
        root, frame = self.root, self._root
        stats = result.stats
        root.value = result.score.raw
        root.closed = self._step
        self._step += 1
        root.nodes, root.leaves = stats.nodes, stats.leaves
        root.visits = stats.nodes - frame.child_nodes
        root.searched = len(frame.searched)
        root.best_move = result.best_move
        if not frame.searched:
            # Settled at the root before any iteration (Engine.search): a
            # win at once, or every move loses at once.
            root.reason = "win" if result.score.raw == win_in(1) else "no-safe-move"
            return
        listed = [c for move, c, _ in frame.searched if c is not None and move == result.best_move]
        root.best = listed[-1].id if listed else None


def _table_settles(frame: _Frame) -> bool:
    """Whether the table entry the node read ends its search at once (the
    node function's test, on the window it was called with)."""
    entry = frame.entry
    if entry is None or entry[3] < frame.depth:
        return False
    lo, hi = _relative(entry[1], frame.ply), _relative(entry[2], frame.ply)
    return lo >= frame.beta or lo == hi or hi <= frame.alpha


def _relative(value: int, ply: int) -> int:
    if value >= MATE:
        return value - ply
    if value <= -MATE:
        return value + ply
    return value


def _settle(recorder: EngineRecorder, frame: _Frame, node: TraceNode, cut: bool) -> None:
    """A node that searched its moves: the best child (the last search of
    the first move with the best value; the engine keeps the first of
    equals), and at a cutoff the moves never searched."""
    effective: dict[Any, tuple[TraceNode | None, int]] = {}
    for move, child, value in frame.searched:
        effective[move] = (child, value)  # a re-search replaces the null window's
    best_move, best_value, best_child = None, -INF - 1, None
    for move, (child, value) in effective.items():
        if value > best_value:
            best_move, best_value, best_child = move, value, child
    node.best_move = best_move
    node.best = None if best_child is None else best_child.id
    moves = frame.generated
    if moves is None and cut:
        # The table's move cut before any move was generated.
        moves = recorder._gen_moves(frame.state)
    if moves is not None:
        node.actions = tuple(moves)
    node.cut = cut
    if cut:
        node.pruned = tuple(m for m in node.actions if m not in effective)
        beta = _beta_searched(recorder, frame)
        node.cut_bound = beta if node.maximizing else -beta


def _beta_searched(recorder: EngineRecorder, frame: _Frame) -> int:
    """The beta a cut node's move reached (its side's view): the entry's,
    narrowed by the table's upper bound and, when the cut came in the move
    loop (after the hooks), by the best any move can do (the node
    function's mate-distance bounds, recomputed from what the hooks said)."""
    beta, ply = frame.beta, frame.ply
    entry = frame.entry
    if entry is not None and entry[3] >= frame.depth:
        beta = min(beta, _relative(entry[2], ply))
    if frame.generated is not None:
        top = WIN - 1 - ply
        if frame.safe_moves is not _UNSET and frame.safe_moves is not None:
            top = WIN - (3 if recorder.game.mover_wins_only else 2) - ply
        b = frame.static
        if b < 0 and ply - b - WIN < top:
            top = ply - b - WIN
        beta = min(beta, top)
    return beta


def engine_for_trace(game: Game[Any, Any]) -> Engine[Any]:
    """A fresh engine as a trace runs it: default options, Python backend."""
    return Engine(game, EngineOptions(backend="python"))


def run_traced(
    game: Game[Any, Any],
    state: Any,
    depth: int | None,
    every_move: bool,
    recorder: EngineRecorder,
) -> SearchResult[Any]:
    """The traced search (Overflow when it grows too big); the recorder is
    finished with its result."""
    engine = engine_for_trace(game)
    result = engine.trace(state, Limits(depth=depth), recorder, every_move=every_move)
    recorder.finish(result)
    return result


def tree_size(
    game: Game[Any, Any],
    state: Any,
    *,
    depth: int | None,
    every_move: bool = False,
    budget: int = MAX_SEARCH_NODES,
    seconds: float = float("inf"),
) -> tuple[int, bool]:
    """Positions the untraced engine search visits, and True; or, when it
    would visit ``budget`` or more or take more than ``seconds``, how many
    it had counted by then, and False."""
    engine = engine_for_trace(game)
    stopped = threading.Event()
    timer = None
    if seconds != float("inf"):

        def stop() -> None:
            stopped.set()
            engine.stop()

        timer = threading.Timer(seconds, stop)
        timer.start()
    try:
        limits = Limits(depth=depth, nodes=budget)
        run = engine.analyze if every_move else engine.search
        result = run(state, limits)
    finally:
        if timer is not None:
            timer.cancel()
    nodes = result.stats.nodes
    return nodes, nodes < budget and not stopped.is_set()


register_engine_trace(
    EngineTrace(tree_size=tree_size, EngineRecorder=EngineRecorder, run_traced=run_traced)
)

__all__ = ["EngineRecorder", "engine_for_trace", "run_traced", "tree_size"]
