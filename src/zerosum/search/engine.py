"""The engine: negamax alpha-beta with principal-variation search, iterative
deepening, a transposition table and move ordering, for any :class:`Game`.

>>> import zerosum
>>> from zerosum.search.engine import Engine
>>> game = zerosum.load("tictactoe")
>>> result = Engine(game).search(game.play("0 4 1".split()))
>>> game.format_move(result.best_move), result.score.describe()
('2', 'draw')

Scores
------
Every score is from the side to move (negamax), in the units of
:mod:`zerosum.search.types`: a terminal position ``p`` plies from the root
scores ``terminal_score(utility, p)`` (a win ``WIN - p``, a loss
``-(WIN - p)``, a draw 0); a position at the depth limit scores
``game.evaluate(state, to_move)``. Turns need not alternate: a child whose side
to move is the parent's own is added, not negated.

The reference (``reference.py``) scores a depth-limit position with
``evaluate(state, root player)``; the two agree whenever the evaluation is
antisymmetric (``evaluate(s, p) == -evaluate(s, other(p))``, as in mnk and
Connect Four). The tic-tac-toe tutorial's evaluation is not (the opponent's
threat counts first for either side), so there depth-limited scores differ;
exact scores never do.

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

Limits
------
``Limits(depth, time, nodes)`` in any combination; the budget is checked
inside the recursion about every millisecond (every :data:`CHECK_INTERVAL`
positions at first, adapted to what a position costs), and an unfinished
iteration is thrown away (except that a root move proven better than the
previous best in it is kept), so what comes back is never a half-searched
guess. With no depth limit, iterative deepening goes on until an iteration is
exact (or :data:`~zerosum.search.types.MAX_PLY` plies).
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..game import Game, ZerosumError
from ..i18n import _
from .tt import (
    DEFAULT_SIZE,
    DEPTH_INF,
    ENTRY_BYTES,
    MATE,
    NO_LOWER,
    NO_UPPER,
    TranspositionTable,
    check_megabytes,
    memory_bytes,
    slots_for,
)
from .types import (
    INF,
    MAX_PLY,
    WIN,
    Limits,
    MoveScore,
    Score,
    SearchResult,
    SearchStats,
    is_decisive,
    loss_in,
    win_in,
)

A = TypeVar("A")

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
#: Iterative deepening does not start a new iteration once this share of the
#: time budget is spent: the next one would most likely be thrown away.
NEW_ITERATION_SHARE = 0.5
#: Where the engine's search runs: ``auto`` picks ``native`` (compiled, the
#: ``fast`` extra) when the game has native code and numba is installed.
BACKENDS = ("auto", "python", "native")


@dataclass(frozen=True)
class EngineOptions:
    """Which of the engine's features are on. Every feature can be turned off,
    so a benchmark can show what each buys; the values never change a proven
    (exact) score, only how many positions it takes to find it.

    * ``tt``           -- a transposition table of ``tt_size`` entries (kept
                          between searches of one :class:`Engine`);
    * ``symmetry``     -- key the table by ``game.canonical`` (one entry per
                          symmetry class); pays off when ``canonical`` is cheap
                          next to the search it saves;
    * ``static_order`` -- moves in ``game.ordered_actions`` order, else
                          ``game.actions``;
    * ``killers``      -- two killer moves per ply tried after the table move;
    * ``history``      -- moves sorted by history score (per side) on top of
                          the static order;
    * ``pvs``          -- principal-variation search: after the first move of a
                          PV node, null windows, re-searched on a fail high;
    * ``hooks``        -- use ``winning_action`` / ``non_losing_actions`` /
                          ``static_bound`` and their mate-distance bounds;
    * ``backend``      -- ``auto``, ``python`` or ``native`` (see
                          :data:`BACKENDS`); both give the same values;
    * ``hash_mb``      -- the table's size in megabytes, which then overrides
                          ``tt_size`` (each backend fits as many entries as
                          its entry size allows).
    """

    tt: bool = True
    tt_size: int = DEFAULT_SIZE
    symmetry: bool = False
    static_order: bool = True
    killers: bool = True
    history: bool = True
    pvs: bool = True
    hooks: bool = True
    backend: str = "auto"
    hash_mb: float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.tt_size, bool) or not isinstance(self.tt_size, int) or self.tt_size < 1:
            raise ZerosumError(
                _("table size must be a whole number of at least 1, got {value}").format(
                    value=str(self.tt_size)[:40]
                )
            )
        if self.tt_size * ENTRY_BYTES > memory_bytes() // 2:
            raise ZerosumError(
                _(
                    "a table of {value} entries does not fit in this machine's memory; "
                    "expected at most {most}"
                ).format(value=self.tt_size, most=memory_bytes() // 2 // ENTRY_BYTES)
            )
        if self.backend not in BACKENDS:
            raise ZerosumError(
                _("unknown backend {name!r}; expected one of {names}").format(
                    name=str(self.backend)[:40], names=", ".join(BACKENDS)
                )
            )
        if self.hash_mb is not None:
            check_megabytes(self.hash_mb)

    def table_slots(self) -> int:
        """Slots of the Python backend's table: from ``hash_mb`` when given,
        else ``tt_size``."""
        return self.tt_size if self.hash_mb is None else slots_for(self.hash_mb)

    @classmethod
    def plain(cls) -> EngineOptions:
        """Plain negamax alpha-beta: every feature off."""
        return cls(
            tt=False,
            symmetry=False,
            static_order=False,
            killers=False,
            history=False,
            pvs=False,
            hooks=False,
        )


@dataclass(frozen=True)
class Progress(Generic[A]):
    """A report after each completed iteration (engine) or null-window probe
    (solver).

    * ``depth``   -- the depth just completed; None for a solver probe or an
                     iteration that reached the end of the game everywhere;
    * ``score``   -- the best move's score (solver: the lower bound so far,
                     exact once ``lower == upper``);
    * ``pv``      -- the principal variation (may be empty in the solver);
    * ``nodes``, ``nps``, ``time_s`` -- since the search started;
    * ``tt_hit_rate`` -- table hits per probe (0.0 without a table);
    * ``lower``, ``upper`` -- the solver's proven bounds on the value (None
      from the engine);
    * ``moves``   -- during :meth:`Engine.analyze`, every root move scored at
      this depth, best first (empty from other searches).
    """

    depth: int | None
    score: Score
    best_move: A | None
    pv: tuple[A, ...]
    nodes: int
    nps: float
    time_s: float
    tt_hit_rate: float
    lower: int | None = None
    upper: int | None = None
    moves: tuple[MoveScore[A], ...] = ()


class _Stop(Exception):
    """Raised inside the recursion when the budget is spent or stop() was
    called; caught by the iteration driver."""


class _Scratch:
    """What one engine reuses from search to search: the principal variation
    below each ply (written before it is read, so never reset)."""

    def __init__(self) -> None:
        self.pvt: list[tuple[Any, ...]] = [()] * (MAX_PLY + 2)


class CoreReports:
    """What both backends' search cores report the same way, from their
    ``counts()``: positions, leaves, cut-offs, table probes, table hits and
    the horizon counter."""

    def counts(self) -> tuple[int, int, int, int, int, int]:
        raise NotImplementedError

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


class _Core(CoreReports):
    """The machinery of one search: the recursive ``node`` function and its
    counters, built as closures over local variables because attribute and
    method look-ups per node are what costs most in Python.

    ``node(state, me, depth, ply, alpha, beta) -> int`` follows the fail-soft
    contract in the module docstring. ``me`` is ``game.to_move(state)``
    (computed once, by the parent). ``depth`` is the remaining depth
    (:data:`UNLIMITED` for none).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        options: EngineOptions,
        table: TranspositionTable | None,
        stop: threading.Event,
        deadline: float | None,
        node_limit: int | None,
        scratch: _Scratch,
    ) -> None:
        self.game = game
        self.table = table
        self.symmetric = options.symmetry and table is not None and game.symmetry_count() > 1

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
        # Bounds once no move wins at once and the non-losing moves are known:
        # see the module docstring on ``mover_wins_only``.
        mover_wins_only = game.mover_wins_only
        nl_top = 3 if mover_wins_only else 2
        nl_bottom = 4 if mover_wins_only else 1
        use_tt = table is not None
        symmetric = self.symmetric
        slots: list[Any] = table.slots if table is not None else []
        size = table.size if table is not None else 1
        generation = table.generation if table is not None else 0
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
            stop(). Raises _Stop when the search must end. (When the looks
            happen never changes what is searched: node counts stay the
            same from run to run.)"""
            nonlocal check_at, interval, last_check
            if stop_is_set():
                raise _Stop
            if node_limit is not None and nodes >= node_limit:
                raise _Stop
            now = perf_counter()
            if deadline is not None and now >= deadline:
                raise _Stop
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

            # -- transposition table ----------------------------------------
            tmove = None
            if use_tt:
                if symmetric:
                    k, transform = canonical(state)
                else:
                    k = key_of(state)
                slot = hash(k) % size
                probes += 1
                entry = slots[slot]
                if entry is not None and entry[0] == k:
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
                if bottom >= beta:
                    return bottom
                if top < beta:
                    beta = top
                if bottom > alpha:
                    alpha = bottom
                if bottom > a0:
                    a0 = bottom

                # -- move ordering: killers and history refine the static
                # order; an informed list (non_losing_actions, best first)
                # keeps the game's order ----------------------------------------
                if moves is None:
                    moves = gen_moves(state)
                if not informed:
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

            if cut and not informed:
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
                # The replacement policy of tt.py, inlined.
                old = slots[slot]
                if old is None:
                    slots[slot] = (k, lo, hi, stored_depth, best_move, generation)
                elif old[0] == k:
                    if old[3] < stored_depth:
                        slots[slot] = (k, lo, hi, stored_depth, best_move, generation)
                    elif old[3] == stored_depth:
                        # The same position to the same depth: keep both sides.
                        mlo = old[1] if old[1] > lo else lo
                        mhi = old[2] if old[2] < hi else hi
                        if mlo <= mhi:
                            lo, hi = mlo, mhi
                        slots[slot] = (k, lo, hi, stored_depth, best_move, generation)
                elif old[3] <= stored_depth or old[5] != generation:
                    slots[slot] = (k, lo, hi, stored_depth, best_move, generation)
            return best

        def counts() -> tuple[int, int, int, int, int, int]:
            return nodes, leaves, cutoffs, probes, hits, horizon

        def count_root() -> None:
            nonlocal nodes
            nodes += 1

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

    def table_line(self, root: Any, prefix: Sequence[Any], length: int) -> tuple[Any, ...]:
        """Follow the table's best moves (of exact and lower-bound entries)
        from the position after ``prefix``, for at most ``length`` plies."""
        table, game = self.table, self.game
        if table is None or length <= 0:
            return ()
        state = root
        for move in prefix:
            state = game.result(state, move)
        out: list[Any] = []
        while len(out) < length and not game.is_terminal(state):
            if self.symmetric:
                key, transform = game.canonical(state)
            else:
                key, transform = game.key(state), 0
            entry = table.slots[hash(key) % table.size]
            if entry is None or entry[0] != key or entry[4] is None:
                break
            if entry[1] <= NO_LOWER + MAX_PLY:
                break  # only an upper bound: its move is not known to be best
            move = entry[4]
            if self.symmetric:
                move = game.map_move(move, transform, True)
            if move not in game.actions(state):
                break
            out.append(move)
            state = game.result(state, move)
        return tuple(out)

    def table_move(self, state: Any) -> Any:
        """The table's best move for ``state`` (in its own frame), or None."""
        table, game = self.table, self.game
        if table is None:
            return None
        if self.symmetric:
            key, transform = game.canonical(state)
        else:
            key, transform = game.key(state), 0
        entry = table.slots[hash(key) % table.size]
        if entry is None or entry[0] != key or entry[4] is None:
            return None
        move = entry[4]
        return game.map_move(move, transform, True) if self.symmetric else move


@dataclass
class _Iteration:
    """The outcome of one root iteration of :meth:`Engine.search`."""

    depth: int
    value: int
    move: Any
    pv: tuple[Any, ...]
    ties: list[Any]
    exact: bool  # the whole iteration saw no heuristic leaf
    move_exact: bool  # the best move's own score is proven


@dataclass
class _Partial:
    """What an unfinished iteration has settled so far: set once the first
    root move is searched, and again whenever a later move is proven better."""

    done: bool = False
    value: int = 0
    move: Any = None
    pv: tuple[Any, ...] = ()
    move_exact: bool = False


@dataclass
class _Holder:
    """Where a running search leaves its latest result for :class:`SearchRun`."""

    latest: SearchResult[Any] | None = None
    final: SearchResult[Any] | None = None


class SearchRun(Generic[A]):
    """A running search as an iterator of :class:`Progress` records, one per
    completed depth. The caller decides when to stop iterating;
    :attr:`result` is then the best completed result (the final one once the
    iterator is exhausted).

    >>> import zerosum
    >>> game = zerosum.load("tictactoe")
    >>> run = Engine(game).iterate(game.initial_state(), Limits(depth=3))
    >>> [p.depth for p in run]
    [1, 2, 3]
    >>> run.result.depth
    3
    """

    def __init__(
        self, generator: Generator[Progress[A], None, SearchResult[A]], holder: _Holder
    ) -> None:
        self._generator = generator
        self._holder = holder

    def __iter__(self) -> Iterator[Progress[A]]:
        return self

    def __next__(self) -> Progress[A]:
        try:
            return next(self._generator)
        except StopIteration as done:
            self._holder.final = done.value
            raise

    @property
    def finished(self) -> bool:
        return self._holder.final is not None

    @property
    def result(self) -> SearchResult[A]:
        """The final result, or the result of the last completed iteration
        when iteration stopped early. Raises :class:`ZerosumError` before the
        first iteration has completed."""
        found = self._holder.final or self._holder.latest
        if found is None:
            raise ZerosumError(_("the search has not completed an iteration yet"))
        return found

    def close(self) -> None:
        """Abandon the search (a generator close)."""
        self._generator.close()


class Engine(Generic[A]):
    """The search engine for one game. One search runs at a time; the
    transposition table is kept between searches (call :meth:`clear` to
    forget it), killer and history tables are not.

    * :meth:`search`  -- the best move, iterative deepening under ``Limits``;
    * :meth:`iterate` -- the same search as an iterator of progress records;
    * :meth:`analyze` -- every root move (or the ``multipv`` best) with its
      score and principal variation;
    * :meth:`stop`    -- from another thread: end the running search, which
      returns its best completed result.

    The exact solver is :func:`zerosum.search.solver.solve`.
    """

    def __init__(self, game: Game[Any, A], options: EngineOptions | None = None) -> None:
        self.game = game
        self.options = options if options is not None else EngineOptions()
        #: The backend in use: ``python`` or ``native``.
        self.backend = _choose_backend(game, self.options)
        self.table: Any = None
        self._native: Any = None
        if self.backend == "native":
            import numpy as np

            from .. import native
            from ..native.table import DEFAULT_MB, NativeTable

            self._native = native.adapter_for(game)
            if self.options.tt:
                self.table = NativeTable.of_megabytes(self.options.hash_mb or DEFAULT_MB)
            # Polled by the compiled search: set by stop() and by the deadline.
            self._stop_flag = np.zeros(1, dtype=np.int64)
        elif self.options.tt:
            self.table = TranspositionTable(self.options.table_slots())
        self._stop = threading.Event()
        self._scratch = _Scratch()
        #: The latest search's core: closed when the next one starts.
        self._core: Any = None

    # -- public API -------------------------------------------------------------
    def stop(self) -> None:
        """Ask the running search to stop (thread-safe). It returns within
        about a millisecond (the interval between looks adapts to the cost
        of a position) with its best completed result. A search started
        later clears the request."""
        self._stop.set()

    def clear(self) -> None:
        """Forget the transposition table."""
        if self.table is not None:
            self.table.clear()

    def search(
        self,
        state: Any,
        limits: Limits | None = None,
        *,
        on_progress: Callable[[Progress[A]], None] | None = None,
        rng: random.Random | None = None,
    ) -> SearchResult[A]:
        """The best move of ``state`` under ``limits`` (default: none, an
        exact solve by iterative deepening).

        Returns a :class:`SearchResult` whose ``best_move`` is always a legal
        move: the best of the last completed iteration (or a root move proven
        better in the unfinished one); if not even depth 1 finished, the first
        move in the game's order of preference. ``score`` is that move's
        score, exact when proven; ``depth`` the depth completed (None when the
        search saw the end of the game everywhere, 0 when no iteration
        finished). Without ``rng``, ``best_moves`` is ``(best_move,)``; with
        it, every root move whose score equals the best (their scores are
        made exact by a window just below the best) and ``best_move`` is drawn
        uniformly from them. Raises :class:`ZerosumError` at a terminal
        position.
        """
        run = self.iterate(state, limits, rng=rng)
        for progress in run:
            if on_progress is not None:
                on_progress(progress)
        return run.result

    def iterate(
        self, state: Any, limits: Limits | None = None, *, rng: random.Random | None = None
    ) -> SearchRun[A]:
        """:meth:`search` as an iterator: one :class:`Progress` per completed
        depth; the result is ``run.result`` afterwards."""
        self._check_root(state)
        holder = _Holder()
        return SearchRun(self._search_run(state, limits or Limits(), rng, holder), holder)

    def analyze(
        self,
        state: Any,
        limits: Limits | None = None,
        *,
        multipv: int | None = None,
        on_progress: Callable[[Progress[A]], None] | None = None,
    ) -> SearchResult[A]:
        """Every legal move of ``state`` with its score and principal
        variation (``moves``, best first; ties in the game's move order), by
        iterative deepening under ``limits``; each move searched with an open
        window, so every score is the move's value at the depth reached
        (``score.exact`` when proven). With ``multipv=N`` only the ``N`` best
        moves are reported; the others are only shown to be no better than the
        ``N``-th, with a null window. ``best_moves`` is every reported move
        with the best score. Raises :class:`ZerosumError` at a terminal
        position or for ``multipv < 1``.
        """
        self._check_root(state)
        if multipv is not None and multipv < 1:
            raise ZerosumError(
                _("multipv must be a whole number of at least 1, got {value}").format(
                    value=multipv
                )
            )
        holder = _Holder()
        run: SearchRun[A] = SearchRun(
            self._analysis_run(state, limits or Limits(), multipv, holder), holder
        )
        for progress in run:
            if on_progress is not None:
                on_progress(progress)
        return run.result

    # -- internals shared with the solver ----------------------------------------
    def _check_root(self, state: Any) -> None:
        if self.game.is_terminal(state):
            raise ZerosumError(
                _(
                    "the game is over in this position; expected a position with a move to make"
                )
            )

    def _new_core(self, limits: Limits, started: float) -> Any:
        """Start a search: clear a pending stop(), open a table generation,
        and build the search core for these limits (the Python recursion, or
        the compiled kernel on the native backend: both offer the same
        methods to the root code)."""
        self._stop.clear()
        if self._core is not None:
            self._core.close()
        if self.table is not None:
            self.table.new_search()
        deadline = None if limits.time is None else started + limits.time
        if self._native is not None:
            from ..native.core import NativeCore

            self._stop_flag[0] = 0
            self._core = NativeCore(
                self.game, self._native, self.options, self.table, self._stop_flag,
                deadline, limits.nodes, _Stop,
            )
        else:
            self._core = _Core(
                self.game, self.options, self.table, self._stop, deadline, limits.nodes,
                self._scratch,
            )
        return self._core

    def _root_moves(self, core: _Core, state: Any, restrict: bool) -> tuple[list[Any], bool]:
        """The root moves in search order: the game's preference, narrowed to
        the non-losing moves when ``restrict`` (and the hook says so), with
        the table's move first. Also says whether every move loses at once."""
        moves = list(core.gen_moves(state))
        all_lose = False
        if restrict and core.use_nl:
            safe = self.game.non_losing_actions(state)
            if safe is not None:
                if safe:
                    moves = list(safe)
                else:
                    all_lose = True
        return _table_move_first(core, state, moves), all_lose

    # -- search -----------------------------------------------------------------
    def _search_iteration(
        self,
        core: _Core,
        root: Any,
        me: int,
        moves: list[Any],
        depth: int,
        want_ties: bool,
        partial: _Partial,
    ) -> _Iteration:
        """One iteration at ``depth`` (:data:`UNLIMITED` for none) over the root
        moves in order: the first with an open window, the others with a null
        window at the best value (with ``want_ties`` just below it, then at it)
        and re-searched when they fail high."""
        game, child_value = self.game, core.child_value
        d = depth - 1
        length = MAX_PLY if depth >= UNLIMITED else depth
        h_start = core.horizon()
        core.count_root()
        best, best_move, pv, move_exact = -INF, None, (), False
        ties: list[Any] = []
        for index, move in enumerate(moves):
            child = game.result(root, move)
            cs = game.to_move(child)
            if index > 0:
                if want_ties:
                    value = child_value(child, cs, me, d, best - 1, best)
                    if value < best:
                        continue
                    if value == best:
                        value = child_value(child, cs, me, d, best, best + 1)
                        if value <= best:
                            ties.append(move)
                            continue
                elif self.options.pvs:
                    value = child_value(child, cs, me, d, best, best + 1)
                    if value <= best:
                        continue
            h = core.horizon()
            value = child_value(child, cs, me, d, best if index > 0 else -INF, INF)
            if index > 0 and value <= best:
                continue  # not better after all (the table's depth-limited values)
            best, best_move, ties = value, move, [move]
            pv = core.line(root, move, length)
            move_exact = core.horizon() == h or _settled(value, depth)
            partial.done, partial.value, partial.move = True, best, best_move
            partial.pv, partial.move_exact = pv, move_exact
        return _Iteration(
            depth, best, best_move, pv, ties, core.horizon() == h_start, move_exact
        )

    def _search_run(
        self, root: Any, limits: Limits, rng: random.Random | None, holder: _Holder
    ) -> Generator[Progress[A], None, SearchResult[A]]:
        game = self.game
        started = time.perf_counter()
        core = self._new_core(limits, started)
        me = game.to_move(root)

        def finish(
            move: Any, score: Score, pv: tuple[Any, ...], depth: int | None, ties: list[Any]
        ) -> SearchResult[A]:
            order = {m: i for i, m in enumerate(game.actions(root))}
            ties = sorted(ties, key=lambda m: order.get(m, len(order)))
            chosen = move
            if rng is not None and len(ties) > 1:
                chosen = rng.choice(ties)
                if chosen != move:
                    pv = (chosen, *core.table_line(root, (chosen,), _pv_room(depth) - 1))
            return SearchResult(
                best_move=chosen,
                score=score,
                pv=pv,
                stats=core.stats(started),
                depth=depth,
                best_moves=tuple(ties) if rng is not None else (chosen,),
            )

        # A win at once needs no search (unless every such win is wanted).
        if rng is None and core.use_win:
            win = game.winning_action(root)
            if win is not None:
                score = Score(win_in(1), exact=True)
                yield core.progress(started, None, score, win, (win,))
                return finish(win, score, (win,), None, [win])

        moves, all_lose = self._root_moves(core, root, restrict=True)
        if all_lose:  # every move lets the opponent win at once: all equal
            score = Score(loss_in(2), exact=True)
            yield core.progress(started, None, score, moves[0], (moves[0],))
            return finish(moves[0], score, (moves[0],), None, list(moves))

        max_depth = limits.depth if limits.depth is not None else MAX_PLY
        done: _Iteration | None = None
        for depth in range(1, max_depth + 1):
            partial = _Partial()
            try:
                iteration = self._search_iteration(
                    core, root, me, moves, depth, rng is not None, partial
                )
            except _Stop:
                break
            done = iteration
            moves.remove(iteration.move)
            moves.insert(0, iteration.move)
            reached: int | None = None if iteration.exact else depth
            score = Score(iteration.value, exact=iteration.move_exact or iteration.exact)
            holder.latest = finish(iteration.move, score, iteration.pv, reached, iteration.ties)
            yield core.progress(started, reached, score, iteration.move, iteration.pv)
            if iteration.exact or _settled(iteration.value, depth):
                break
            if limits.time is not None and (
                time.perf_counter() - started > NEW_ITERATION_SHARE * limits.time
            ):
                break
        else:
            partial = _Partial()

        if partial.done and (done is None or partial.move != done.move):
            # The unfinished iteration searched the previous best move and
            # proved this one better: a deeper, complete result for it. (With
            # no iteration finished, the first move's own score is still
            # better than a static guess; depth 0 says nothing was compared.)
            score = Score(partial.value, exact=partial.move_exact)
            depth_done = done.depth + 1 if done is not None else 0
            return finish(partial.move, score, partial.pv, depth_done, [partial.move])
        if done is not None:
            score = Score(done.value, exact=done.move_exact or done.exact)
            return finish(done.move, score, done.pv, None if done.exact else done.depth, done.ties)
        # Not even depth 1 finished: the game's first choice, scored statically.
        move = moves[0]
        return finish(move, Score(game.evaluate(root, me)), (move,), 0, [move])

    # -- analysis -----------------------------------------------------------------
    def _analysis_iteration(
        self,
        core: _Core,
        root: Any,
        me: int,
        moves: list[Any],
        depth: int,
        multipv: int | None,
        done: list[MoveScore[Any]],
    ) -> bool:
        """Analyse every root move at ``depth``, appending a :class:`MoveScore`
        to ``done`` for each move valued exactly (all of them, or the
        ``multipv`` best). Returns whether the iteration saw no heuristic leaf."""
        game, child_value = self.game, core.child_value
        d = depth - 1
        length = MAX_PLY if depth >= UNLIMITED else depth
        h_start = core.horizon()
        core.count_root()
        for move in moves:
            child = game.result(root, move)
            cs = game.to_move(child)
            n0, h0 = core.nodes(), core.horizon()
            if multipv is not None and len(done) >= multipv:
                nth = min(m.score.raw for m in done)
                value = child_value(child, cs, me, d, nth, nth + 1)
                if value <= nth:
                    continue
                value = child_value(child, cs, me, d, nth, INF)
                if value <= nth:
                    continue
                worst = min(range(len(done)), key=lambda i: (done[i].score.raw, -i))
                del done[worst]
            else:
                value = child_value(child, cs, me, d, -INF, INF)
            exact = core.horizon() == h0 or _settled(value, depth)
            done.append(
                MoveScore(
                    move=move,
                    score=Score(value, exact=exact),
                    pv=core.line(root, move, length),
                    nodes=core.nodes() - n0,
                )
            )
        return core.horizon() == h_start

    def _analysis_run(
        self, root: Any, limits: Limits, multipv: int | None, holder: _Holder
    ) -> Generator[Progress[A], None, SearchResult[A]]:
        game = self.game
        started = time.perf_counter()
        core = self._new_core(limits, started)
        me = game.to_move(root)
        moves, _ = self._root_moves(core, root, restrict=False)
        order = {m: i for i, m in enumerate(game.actions(root))}

        def finish(scored: list[MoveScore[Any]], depth: int | None) -> SearchResult[A]:
            ranked = sorted(scored, key=lambda m: (-m.score.raw, order.get(m.move, 0)))
            if not ranked:  # not even one move finished: the game's first choice
                move = moves[0]
                return SearchResult(
                    best_move=move,
                    score=Score(game.evaluate(root, me)),
                    pv=(move,),
                    stats=core.stats(started),
                    depth=0,
                    best_moves=(move,),
                )
            top = ranked[0]
            return SearchResult(
                best_move=top.move,
                score=top.score,
                pv=top.pv,
                stats=core.stats(started),
                depth=depth,
                best_moves=tuple(m.move for m in ranked if m.score.raw == top.score.raw),
                moves=tuple(ranked),
            )

        max_depth = limits.depth if limits.depth is not None else MAX_PLY
        latest: list[MoveScore[Any]] = []
        latest_depth: int | None = 0
        for depth in range(1, max_depth + 1):
            scored: list[MoveScore[Any]] = []
            try:
                exact = self._analysis_iteration(core, root, me, moves, depth, multipv, scored)
            except _Stop:
                if not latest:  # keep what depth 1 finished
                    latest = scored
                break
            latest = scored
            latest_depth = None if exact else depth
            ranked = sorted(scored, key=lambda m: -m.score.raw)
            # Next iteration: the best moves first (helps the null windows).
            first = [m.move for m in ranked]
            moves = first + [m for m in moves if m not in first]
            result = finish(scored, latest_depth)
            holder.latest = result
            yield core.progress(
                started, latest_depth, result.score, result.best_move, result.pv,
                moves=result.moves,
            )
            if exact or all(_settled(m.score.raw, depth) for m in scored):
                break
            if limits.time is not None and (
                time.perf_counter() - started > NEW_ITERATION_SHARE * limits.time
            ):
                break
        return finish(latest, latest_depth)


def _choose_backend(game: Game[Any, Any], options: EngineOptions) -> str:
    """``python`` or ``native`` for ``options.backend``; forcing ``native``
    where it cannot run is a :class:`ZerosumError` saying why."""
    if options.backend == "python":
        return "python"
    from .. import native

    reason = native.unsupported_reason(game, options)
    if not reason and not options.static_order:
        reason = "the compiled search always uses the game's move order"
    if options.backend == "native" and reason:
        raise ZerosumError(
            _("the native backend cannot search {game}: {reason}").format(
                game=game.spec(), reason=reason
            )
        )
    return "python" if reason else "native"


def _table_move_first(core: Any, state: Any, moves: list[Any]) -> list[Any]:
    """``moves`` with the table's best move for ``state`` (if it is one of
    them) moved to the front; the others keep their order."""
    move = core.table_move(state)
    if move is not None and move in moves:
        moves = [move, *(m for m in moves if m != move)]
    return moves


def _settled(value: int, depth: int) -> bool:
    """Whether a decisive value found by a search of ``depth`` plies is exact:
    its game ends within the horizon, so a quicker win (or a longer defence)
    would have been seen. One further away can come from the table's exact
    entries of a deeper subtree, while a quicker win hides beyond the horizon
    in a line that was cut there; only its side (the win, or the loss) is
    proven then, not its distance."""
    return is_decisive(value) and WIN - abs(value) <= depth


def _pv_room(depth: int | None) -> int:
    return MAX_PLY if depth is None else max(depth, 1)


__all__ = ["CHECK_INTERVAL", "UNLIMITED", "Engine", "EngineOptions", "Progress", "SearchRun"]
