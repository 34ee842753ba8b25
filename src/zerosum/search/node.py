"""The engine's node function on the Python backend: fail-soft negamax
alpha-beta with principal-variation search, the transposition table, move
ordering and the game's hooks. The engine's root code
(:mod:`zerosum.search.engine`: iterative deepening, analysis) and the
solver (:mod:`zerosum.search.solver`: null-window probes) drive it through
:class:`PythonCore`; the native backend's core (``zerosum.native.core``)
offers the same methods.

The search function and its contract
------------------------------------
``node(state, me, depth, ply, alpha, beta, safe)`` is fail-soft alpha-beta
(``safe``: the parent's non-losing list already proves that the side to move
cannot win at once, so ``winning_action`` is not asked): with
``v`` its return value and ``V`` the depth-limited negamax value,

* ``alpha < v < beta``  implies ``v == V``;
* ``v <= alpha``         implies ``V <= v``  (an upper bound);
* ``v >= beta``          implies ``V >= v``  (a lower bound).

Null windows (``beta == alpha + 1``) answer "is ``V > alpha``?" and return a
bound on the right side; the solver narrows a value with them.

Exactness
---------
A counter is bumped at every heuristic leaf (and at every use of a table entry
that a heuristic leaf influenced). A subtree whose search left the counter
unchanged saw only terminal positions and game-theoretic facts, so its result
holds at any depth: its table entry is stored with depth :data:`DEPTH_INF`,
and an iteration that ends with the counter unchanged is exact, which ends
iterative deepening. A decisive score is exact when its game ends within the
horizon; past it (a value from the table's exact entries of a deeper
subtree) only its side is proven -- the win, or the loss -- not its distance,
so iterative deepening goes on, and a search stopped by its budget then
reports it with ``exact=False``.

Engine hooks (``game.py``)
--------------------------
* ``winning_action`` -- a win at ``ply + 1``, scored without generating moves;
* ``non_losing_actions`` -- when it returns a list (it is asked only after
  ``winning_action`` found nothing): empty means a loss at ``ply + 2``;
  otherwise only those moves are searched, in the game's order (killers and
  history leave an informed list alone: on Connect Four they would undo the
  game's threat-based order and cost several times the positions). The engine then also
  takes it as proven that no move wins at once (a game must not return a
  list when its ``winning_action`` can miss a win), and bounds the node's
  value by ``win_in(ply + 2)`` (mate-distance pruning); a child reached by
  one of those moves is not asked ``winning_action`` at all. A game whose
  games end only by a win of the side that just moved, or a draw, with turns
  alternating (Connect Four, m,n,k-games, Domineering) may declare
  ``mover_wins_only = True``; the bounds then tighten to ``win_in(ply + 3)`` and
  ``loss_in(ply + 4)``, which is what makes Pons-style solving fast.

Move order at a node
--------------------
The table's move is searched first, before the hooks are asked or any move is
generated: a stored move is legal (equal keys mean equal positions), and when
it refutes, the node costs one ``result`` call. Then the hooks, then the
moves in the game's order (``ordered_actions``, or the non-losing list),
refined by killers and history when the list is not informed.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Protocol

from ..game import Game
from .tt import TranspositionTable
from .ttformat import DEPTH_INF, MATE, NO_LOWER, NO_UPPER
from .types import INF, MAX_PLY, WIN, MoveScore, Progress, Score, SearchStats, loss_in, win_in

#: The remaining depth given to a search with no depth limit: it never
#: reaches zero within MAX_PLY plies, so no heuristic leaf is ever scored.
UNLIMITED = 1 << 30
#: Positions between two looks at the clock, the node budget and stop(), at
#: first; the interval then adapts so that looks come about every
#: millisecond (between MIN_ and MAX_CHECK_INTERVAL positions), whether a
#: position costs a microsecond or a slow evaluation's fifty.
CHECK_INTERVAL = 16
MIN_CHECK_INTERVAL = 4
MAX_CHECK_INTERVAL = 4096
class Stop(Exception):
    """Raised inside the recursion when the budget is spent or stop() was
    called; caught by the iteration driver."""


class Scratch:
    """What one engine reuses from search to search: the principal variation
    below each ply (written before it is read, so never reset)."""

    def __init__(self) -> None:
        self.pvt: list[tuple[Any, ...]] = [()] * (MAX_PLY + 2)


class SearchCore(Protocol):
    """What the root code (iterative deepening, analysis, the solver) asks of
    a backend's search core: :class:`PythonCore` here, ``NativeCore`` in
    ``zerosum.native.core``."""

    game: Any
    use_win: bool
    use_nl: bool
    nl_bounds: tuple[int, int]
    gen_moves: Any

    def child_value(
        self, child: Any, cs: int, me: int, depth: int, alpha: int, beta: int
    ) -> int: ...
    def count_root(self) -> None: ...
    def horizon(self) -> int: ...
    def nodes(self) -> int: ...
    def line(self, root: Any, move: Any, length: int) -> tuple[Any, ...]: ...
    def table_line(self, root: Any, prefix: Sequence[Any], length: int) -> tuple[Any, ...]: ...
    def table_move(self, state: Any) -> Any: ...
    def stats(self, started: float) -> SearchStats: ...
    def progress(
        self,
        started: float,
        depth: int | None,
        score: Score,
        move: Any,
        pv: tuple[Any, ...],
        lower: int | None = None,
        upper: int | None = None,
        moves: tuple[MoveScore[Any], ...] = (),
    ) -> Progress[Any]: ...
    def close(self) -> None: ...


class CoreReports:
    """What both backends' search cores report the same way, from their
    ``counts()``: positions, leaves, cut-offs, table probes, table hits and
    the horizon counter."""

    game: Any

    def counts(self) -> tuple[int, int, int, int, int, int]:
        raise NotImplementedError

    def stored_move(self, state: Any, proven: bool) -> Any:
        """The table's best move for ``state``, or None (see PythonCore)."""
        raise NotImplementedError

    def table_move(self, state: Any) -> Any:
        """The table's best move for ``state`` (in its own frame), or None."""
        return self.stored_move(state, False)

    def table_line(self, root: Any, prefix: Sequence[Any], length: int) -> tuple[Any, ...]:
        """Follow the table's best moves (of exact and lower-bound entries)
        from the position after ``prefix``, for at most ``length`` plies."""
        game = self.game
        if length <= 0:
            return ()
        state = root
        for move in prefix:
            state = game.result(state, move)
        out: list[Any] = []
        while len(out) < length and not game.is_terminal(state):
            move = self.stored_move(state, True)
            if move is None or move not in game.actions(state):
                break
            out.append(move)
            state = game.result(state, move)
        return tuple(out)

    def horizon(self) -> int:
        return self.counts()[5]

    def nodes(self) -> int:
        return self.counts()[0]

    def close(self) -> None:
        """The search is over (the native core stops its deadline timer)."""

    def stats(self, started: float) -> SearchStats:
        nodes, leaves, cutoffs, probes, hits, _ = self.counts()
        return SearchStats(
            nodes=nodes,
            leaves=leaves,
            cutoffs=cutoffs,
            time_s=time.perf_counter() - started,
            tt_probes=probes,
            tt_hits=hits,
        )

    def progress(
        self,
        started: float,
        depth: int | None,
        score: Score,
        move: Any,
        pv: tuple[Any, ...],
        lower: int | None = None,
        upper: int | None = None,
        moves: tuple[MoveScore[Any], ...] = (),
    ) -> Progress[Any]:
        stats = self.stats(started)
        return Progress(
            depth=depth,
            score=score,
            best_move=move,
            pv=pv,
            nodes=stats.nodes,
            nps=stats.nodes_per_second,
            time_s=stats.time_s,
            tt_hit_rate=stats.tt_hits / stats.tt_probes if stats.tt_probes else 0.0,
            lower=lower,
            upper=upper,
            moves=moves,
        )


class PythonCore(CoreReports):
    """The machinery of one search: the recursive ``node`` function and its
    counters, built as closures over local variables because attribute and
    method look-ups per node are what costs most in Python.

    ``node(state, me, depth, ply, alpha, beta) -> int`` follows the fail-soft
    contract in the module docstring. ``me`` is ``game.to_move(state)``
    (computed once, by the parent). ``depth`` is the remaining depth
    (:data:`UNLIMITED` for none).

    ``recorder`` (default None): a search trace's recorder
    (:class:`zerosum.search.enginetrace.EngineRecorder`), which then sees
    every call of ``node`` and the game and table calls it makes; without
    one the node function pays nothing for it.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        options: Any,
        table: TranspositionTable | None,
        stop: threading.Event,
        deadline: float | None,
        node_limit: int | None,
        scratch: Scratch,
        recorder: Any = None,
    ) -> None:
        self.game = game
        self.table = table
        wanted = game.symmetric_search if options.symmetry is None else options.symmetry
        self.symmetric = wanted and table is not None and game.symmetry_count() > 1

        # -- everything the hot path touches, bound to locals once ----------
        is_terminal = game.is_terminal
        utility = game.utility
        evaluate = game.evaluate
        to_move = game.to_move
        result = game.result
        key_of = game.key
        canonical = game.canonical
        map_move = game.map_move
        gen_moves = game.ordered_actions if options.static_order else game.actions
        game_type = type(game)
        use_win = options.hooks and game_type.winning_action is not Game.winning_action
        use_nl = options.hooks and game_type.non_losing_actions is not Game.non_losing_actions
        use_bound = options.hooks and game_type.static_bound is not Game.static_bound
        winning_action = game.winning_action
        non_losing = game.non_losing_actions
        static_bound = game.static_bound
        use_keep = options.hooks and game_type.informed_order is not Game.informed_order
        informed_order = game.informed_order
        # Bounds once no move wins at once and the non-losing moves are known:
        # see the module docstring on ``mover_wins_only``.
        mover_wins_only = game.mover_wins_only
        nl_top = 3 if mover_wins_only else 2
        nl_bottom = 4 if mover_wins_only else 1
        use_tt = table is not None
        symmetric = self.symmetric
        table_entry = table.entry if table is not None else None
        table_put = table.put if table is not None else None
        use_killers = options.killers
        use_history = options.history
        use_pvs = options.pvs
        # Killer moves by ply (dicts: a search that reaches ply 40 pays for 40
        # entries, not for MAX_PLY).
        killer1: dict[int, Any] = {}
        killer2: dict[int, Any] = {}
        killer1_get = killer1.get
        # History scores by move, one table per side.
        histories: tuple[defaultdict[Any, int], defaultdict[Any, int]] = (
            defaultdict(int),
            defaultdict(int),
        )
        # pvt[ply]: the principal variation below a PV node at ``ply``; written
        # only at PV nodes (few), so it costs nothing in null-window search.
        # Owned by the engine, so a search allocates none (a fresh
        # 10,000-slot list costs more than a small search).
        pvt = scratch.pvt
        perf_counter = time.perf_counter
        stop_is_set = stop.is_set

        nodes = leaves = cutoffs = probes = hits = horizon = 0
        check_at = CHECK_INTERVAL if node_limit is None else min(CHECK_INTERVAL, node_limit)
        interval = CHECK_INTERVAL
        last_check = perf_counter()

        def check() -> None:
            """Every ``interval`` positions: the clock, the node budget and
            stop(). Raises Stop when the search must end. (When the looks
            happen never changes what is searched: node counts stay the
            same from run to run.)"""
            nonlocal check_at, interval, last_check
            if stop_is_set():
                raise Stop
            if node_limit is not None and nodes >= node_limit:
                raise Stop
            now = perf_counter()
            if deadline is not None and now >= deadline:
                raise Stop
            spent = now - last_check
            last_check = now
            if spent < 0.0005 and interval < MAX_CHECK_INTERVAL:
                interval *= 2
            elif spent > 0.002 and interval > MIN_CHECK_INTERVAL:
                interval //= 2
            check_at = nodes + interval
            if node_limit is not None and check_at > node_limit:
                check_at = node_limit

        def node(
            state: Any, me: int, depth: int, ply: int, alpha: int, beta: int, safe: bool
        ) -> int:
            nonlocal nodes, leaves, cutoffs, probes, hits, horizon
            nodes += 1
            if nodes >= check_at:
                check()
            if is_terminal(state):
                leaves += 1
                return utility(state, me) * (WIN - ply)
            if depth <= 0:
                leaves += 1
                horizon += 1
                return evaluate(state, me)
            h0 = horizon
            pvnode = beta - alpha > 1
            d1 = depth - 1
            p1 = ply + 1
            best = -INF
            best_move = None
            cut = False
            # Whether the moves come from an informed list (non_losing_actions,
            # best first), which killers and history leave alone; assumed when
            # the hook is on until it is asked.
            informed = use_nl
            # Whether killers and history leave the order alone: an informed
            # list, or an order the game vouches for (informed_order).
            keep = informed

            # -- transposition table ----------------------------------------
            tmove = None
            if use_tt:
                if symmetric:
                    k, transform = canonical(state)
                else:
                    k = key_of(state)
                probes += 1
                entry = table_entry(k)  # type: ignore[misc]
                if entry is not None:
                    hits += 1
                    tmove = entry[4]
                    if tmove is not None and symmetric:
                        tmove = map_move(tmove, transform, True)
                    if entry[3] >= depth:
                        lo: int = entry[1]
                        if lo >= MATE:
                            lo -= ply
                        elif lo <= -MATE:
                            lo += ply
                        hi: int = entry[2]
                        if hi >= MATE:
                            hi -= ply
                        elif hi <= -MATE:
                            hi += ply
                        if lo >= beta or lo == hi:
                            if entry[3] != DEPTH_INF:
                                horizon += 1
                            return lo
                        if hi <= alpha:
                            if entry[3] != DEPTH_INF:
                                horizon += 1
                            return hi
                        if lo > alpha or hi < beta:
                            if entry[3] != DEPTH_INF:
                                horizon += 1  # a heuristic bound narrows the window
                            if lo > alpha:
                                alpha = lo
                            if hi < beta:
                                beta = hi
            a0 = alpha

            # -- the table's move first: a cut-off then costs no hooks and no
            # move generation (a stored move is legal: equal keys mean equal
            # positions) ------------------------------------------------------
            if tmove is not None:
                child = result(state, tmove)
                cs = to_move(child)
                if pvnode:
                    pvt[p1] = ()
                if cs != me:
                    value = -node(child, cs, d1, p1, -beta, -alpha, False)
                else:
                    value = node(child, cs, d1, p1, alpha, beta, False)
                best = value
                best_move = tmove
                if value > alpha:
                    if value >= beta:
                        cutoffs += 1
                        cut = True
                    else:
                        alpha = value
                        if pvnode:
                            pvt[ply] = (tmove, *pvt[p1])

            if not cut:
                # -- hooks and mate-distance bounds ---------------------------
                moves: Any = None
                informed = False
                top = WIN - 1 - ply  # the best any move can do: win at once
                bottom = ply + 1 - WIN  # the worst: lose by one's own move
                if use_win and not safe:
                    win = winning_action(state)
                    if win is not None:
                        leaves += 1
                        if pvnode:
                            pvt[ply] = (win,)
                        return top
                if use_nl:
                    moves = non_losing(state)
                    if moves is not None:
                        if not moves:
                            leaves += 1
                            return ply + 2 - WIN  # every move lets the opponent win
                        informed = True
                        top = WIN - nl_top - ply
                        bottom = ply + nl_bottom - WIN
                if use_bound:
                    # A static decision: a win (or loss) within b plies.
                    b = static_bound(state)
                    if b > 0 and WIN - ply - b > bottom:
                        bottom = WIN - ply - b
                    elif b < 0 and ply - b - WIN < top:
                        top = ply - b - WIN
                if top <= alpha:
                    return top
                if bottom >= beta or bottom >= top:
                    return bottom  # (bounds that meet: the value itself)
                if top < beta:
                    beta = top
                if bottom > alpha:
                    alpha = bottom
                if bottom > a0:
                    a0 = bottom

                # -- move ordering: killers and history refine the static
                # order; an informed list (non_losing_actions, best first)
                # keeps the game's order ----------------------------------------
                keep = informed
                if moves is None:
                    moves = gen_moves(state)
                    keep = use_keep and informed_order(state)
                if not keep:
                    if use_history:
                        moves = sorted(moves, key=histories[me].__getitem__, reverse=True)
                    if use_killers:
                        k1 = killer1_get(ply)
                        if k1 is not None:
                            k2 = killer2.get(ply)
                            if k2 is not None and k2 in moves:
                                moves = list(moves)
                                moves.remove(k2)
                                moves.insert(0, k2)
                            if k1 in moves:
                                moves = list(moves)
                                moves.remove(k1)
                                moves.insert(0, k1)

                # -- the moves ------------------------------------------------
                # Children of moves from a non-losing list cannot win at once.
                child_safe = informed
                first = tmove is None
                for move in moves:
                    if move == tmove:
                        continue  # searched above
                    child = result(state, move)
                    cs = to_move(child)
                    if pvnode:
                        if first or not use_pvs:
                            first = False
                            pvt[p1] = ()
                            if cs != me:
                                value = -node(child, cs, d1, p1, -beta, -alpha, child_safe)
                            else:
                                value = node(child, cs, d1, p1, alpha, beta, False)
                        else:
                            if cs != me:
                                value = -node(child, cs, d1, p1, -alpha - 1, -alpha, child_safe)
                            else:
                                value = node(child, cs, d1, p1, alpha, alpha + 1, False)
                            if alpha < value < beta:  # fail high: search it properly
                                pvt[p1] = ()
                                if cs != me:
                                    value = -node(child, cs, d1, p1, -beta, -alpha, child_safe)
                                else:
                                    value = node(child, cs, d1, p1, alpha, beta, False)
                    elif cs != me:
                        value = -node(child, cs, d1, p1, -beta, -alpha, child_safe)
                    else:
                        value = node(child, cs, d1, p1, alpha, beta, False)
                    if value > best:
                        best = value
                        best_move = move
                        if value > alpha:
                            if value >= beta:
                                cutoffs += 1
                                cut = True
                                break
                            alpha = value
                            if pvnode:
                                pvt[ply] = (move, *pvt[p1])

            if cut and not keep:
                # A refutation: remember it for the siblings' searches.
                if use_killers:
                    k1 = killer1_get(ply)
                    if best_move != k1:
                        killer2[ply] = k1
                        killer1[ply] = best_move
                if use_history:
                    histories[me][best_move] += depth * depth if depth < 64 else 4096

            # -- store --------------------------------------------------------
            if use_tt:
                if horizon == h0:
                    stored_depth = DEPTH_INF
                elif (best >= MATE and best >= beta) or (best <= -MATE and best <= a0):
                    # "Wins within n plies" and "loses within n plies" are
                    # proven even past a horizon; an exact decisive value is
                    # not (a quicker win or a longer defence may lie beyond it).
                    stored_depth = DEPTH_INF
                else:
                    stored_depth = depth
                if best >= MATE:
                    rel = best + ply
                elif best <= -MATE:
                    rel = best - ply
                else:
                    rel = best
                if best <= a0:
                    lo, hi = NO_LOWER, rel
                elif best >= beta:
                    lo, hi = rel, NO_UPPER
                else:
                    lo = hi = rel
                if symmetric and best_move is not None:
                    best_move = map_move(best_move, transform)
                table_put(k, lo, hi, stored_depth, best_move)  # type: ignore[misc]
            return best

        def counts() -> tuple[int, int, int, int, int, int]:
            return nodes, leaves, cutoffs, probes, hits, horizon

        def count_root() -> None:
            nonlocal nodes
            nodes += 1

        if recorder is not None:
            # A traced search (zerosum.search.enginetrace): the recursion's
            # own calls go through the recorder's wrappers, because they read
            # these closure variables when called. Without a recorder nothing
            # here runs and the node function is unchanged.
            (
                node, result, gen_moves, winning_action, non_losing, static_bound,
                table_entry, table_put,
            ) = recorder.watch(
                node, counts, result, gen_moves, winning_action, non_losing, static_bound,
                table_entry, table_put,
            )

        self.node = node
        self._counts = counts
        self.count_root = count_root
        self.pvt = pvt
        self.use_win = use_win
        self.use_nl = use_nl
        #: Bounds on the root's value once no move wins at once and the
        #: non-losing moves are known (see ``mover_wins_only``).
        self.nl_bounds = (loss_in(nl_bottom), win_in(nl_top))
        self.gen_moves = gen_moves

    def counts(self) -> tuple[int, int, int, int, int, int]:
        return self._counts()

    # -- helpers for the root (not speed-critical) ---------------------------
    def child_value(self, child: Any, cs: int, me: int, depth: int, alpha: int, beta: int) -> int:
        """The value, for the root's side ``me``, of a root move leading to
        ``child`` (whose side to move is ``cs``), with the fail-soft contract
        on the window ``(alpha, beta)`` seen from the root."""
        self.pvt[1] = ()
        if cs != me:
            return -self.node(child, cs, depth, 1, -beta, -alpha, False)
        return self.node(child, cs, depth, 1, alpha, beta, False)

    def line(self, root: Any, move: Any, length: int) -> tuple[Any, ...]:
        """The principal variation of a root move just searched with an open
        window: the collected line, extended through the table's best moves
        where a table cut-off ended it; at most ``length`` plies."""
        line = (move, *self.pvt[1])[:length]
        return line + self.table_line(root, line, length - len(line))

    def stored_move(self, state: Any, proven: bool) -> Any:
        """The table's best move for ``state`` (mapped to its frame), or
        None; with ``proven`` only from an entry with a lower bound (a move
        known to be best)."""
        table, game = self.table, self.game
        if table is None:
            return None
        if self.symmetric:
            key, transform = game.canonical(state)
        else:
            key, transform = game.key(state), 0
        entry = table.entry(key)
        if entry is None or entry[4] is None:
            return None
        if proven and entry[1] <= NO_LOWER + MAX_PLY:
            return None  # only an upper bound: its move is not known to be best
        move = entry[4]
        return game.map_move(move, transform, True) if self.symmetric else move


