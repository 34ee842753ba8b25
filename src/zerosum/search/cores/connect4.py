"""Connect Four's search core for the Python backend: the generic node
function of :mod:`zerosum.search.node` with the rules of
:mod:`zerosum.games.connect4` written into it.

What it computes
----------------
Exactly what :class:`~zerosum.search.node.PythonCore` computes for a
:class:`~zerosum.games.connect4.ConnectFour` game with the engine hooks on:
the same fail-soft negamax with principal-variation search, the same
transposition-table probes and stores (the same entries, so a table filled by
one core serves the other), the same mate-distance bounds, the same horizon
(exactness) counter and the same move order, hence the same scores, the same
best moves and the same counts of positions, leaves, cut-offs and table
probes. The tests compare the two cores on many positions, node counts
included.

Why it is faster
----------------
The generic core calls the game's methods (``is_terminal``, ``key``,
``winning_action``, ``non_losing_actions``, ``result``, ``to_move``) and the
table's, and builds a state tuple, at every position. Here a position is two
ints, ``(current, mask)`` of the game's bitboard layout (see the drawing in
:mod:`zerosum.games.connect4`), passed as arguments; a child is
``(current ^ mask, mask | (mask + bottom[column]))``; everything else is
inline int arithmetic on locals. ``benchmarks/bench_python_connect4.py``
measures both cores on the published sets (about 1.6x by CPU time on L2_R1
and L2_R2, the same positions visited).

How the rules are inlined
-------------------------
* Terminal positions. A position whose last move made four is never entered
  by the recursion: with the hooks on, a node either asked for a win at once
  (and returned it) or is safe (its parent's non-losing list proves that no
  move wins at once), so none of the moves of its list wins. The one move
  searched before the hooks -- the table's move -- is tested for four in a
  row when the node is not safe (the generic core gets the same answer from
  ``result``). The root's children arrive as game states with their status
  (:meth:`ConnectFourCore.child_value`). So a node only tests for the full
  board (a draw).
* ``winning_action`` and ``non_losing_actions``. The opponent's threats
  (empty cells that would complete four) give the candidate moves (Pons'
  "possible non-losing moves"); when the node is not safe, the mover's
  threats, from the same pass of the game's threat formula over both boards
  laid side by side in one int (the game's "lanes"), give a win at once.
  Only when two or more candidates remain is their order needed: then one
  more pass over the column lanes (lane ``c``: the mover's stones after
  playing column ``c``) counts each candidate's threats after the move, as
  ``non_losing_actions`` does, and sorts the same keys (threats, then centre
  first), after the mate-distance bounds had their chance to end the node.
  Lane ``c`` is also what the child after column ``c`` needs, its
  opponent's threats: it is handed down (the node's ``theirs`` argument), so
  that child skips its own pass.
* ``evaluate`` (depth-limited searches only) is the game's own method.

Options
-------
The core honours ``tt``, ``symmetry`` (the left-right mirror: keys and moves
as ``canonical`` and ``map_move`` give them), ``pvs`` and the game's
``mover_wins_only``. With the hooks on, Connect Four's ``non_losing_actions``
always returns a list, so killers and history never apply in the generic core
either (they leave an informed list alone), and ``static_order`` only
changes the root's move list (:attr:`ConnectFourCore.gen_moves`). With the
hooks off the generic core searches every move with killers and history: the
registry declines that case (:meth:`ConnectFourCore.supports`).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from ...games.connect4 import ONGOING, WON, ConnectFour, has_four
from ..node import (
    CHECK_INTERVAL,
    MAX_CHECK_INTERVAL,
    MIN_CHECK_INTERVAL,
    CoreReports,
    Scratch,
    Stop,
)
from ..tt import DEPTH_INF, MATE, NO_LOWER, NO_UPPER, Entry, TranspositionTable
from ..types import INF, MAX_PLY, WIN, loss_in, win_in

#: Node function: ``node(current, mask, depth, ply, alpha, beta, theirs)``.
NodeFunction = Callable[[int, int, int, int, int, int, int], int]
#: ``theirs`` of a node that must ask whether its mover wins at once.
UNSAFE = -2
#: ``theirs`` of a node whose mover cannot win at once (its parent's
#: non-losing list says so), its opponent's threats unknown. Any ``theirs``
#: from 0 up: the same, with the opponent's threats given.
SAFE = -1


@functools.cache
def _layout(width: int, height: int) -> tuple[
    tuple[int, ...],
    dict[int, int],
    int,
    dict[int, tuple[tuple[int, int], ...]],
    tuple[tuple[int, int], ...],
]:
    """The tables of a board size that the node function reads, built once
    per size (building them costs about a fifth of a millisecond, as much
    as searching a hundred positions):

    * each column's lane offset in the lanes of ``non_losing_actions``;
    * a lone candidate's cell -> its column;
    * the sentinel row, and per set of columns marked on it, their lanes
      (centre first), each as (lane cells, sort code: tie-break << 4 |
      column, so that a sort key carries its column);
    * per column, the shifts that mirror it (right, then left)."""
    game = ConnectFour(width, height)
    h1 = height + 1
    lane_shifts = tuple(game._base + c * game._lane for c in range(width))
    single_column = {cell: column for cell, (column,) in game._single.items()}
    lanes = [
        (cells, lane_cells, (tie << 4) | game._tie_column[tie])
        for cells, lane_cells, tie in game._lanes
    ]
    # The candidates' columns as one bit each on the sentinel row: adding
    # the board (each column's cells all set) to a set of cells with at most
    # one per column carries into the sentinel bit of exactly the columns
    # holding one. The sort loop then visits the candidates' lanes only
    # (about 2% of the solver's CPU time on L2_R2, measured).
    sentinels = game._bottom_row << height
    candidate_lanes: dict[int, tuple[tuple[int, int], ...]] = {}
    for subset in range(1 << width):
        chosen = sum(1 << (c * h1 + height) for c in range(width) if subset >> c & 1)
        candidate_lanes[chosen] = tuple(
            (lane_cells, code)
            for cells, lane_cells, code in lanes
            if chosen & (cells << 1)  # the column's sentinel bit is just above its cells
        )
    column_shifts = tuple((c * h1, (width - 1 - c) * h1) for c in range(width))
    return lane_shifts, single_column, sentinels, candidate_lanes, column_shifts


class ConnectFourCore(CoreReports):
    """The search core for :class:`~zerosum.games.connect4.ConnectFour` on the
    Python backend: same constructor, attributes and methods as
    :class:`~zerosum.search.node.PythonCore`, same results (see the module
    docstring).

    ``node(current, mask, depth, ply, alpha, beta, theirs) -> int`` is the
    generic node function's contract (fail-soft, see
    :mod:`zerosum.search.node`) on a non-terminal position given by its two
    bitboards; the side to move is implied (turns alternate, so every child
    is negated). ``theirs`` stands for the generic ``safe``: :data:`UNSAFE`
    (ask whether the mover wins at once), :data:`SAFE` (it cannot), or, from
    0 up, "it cannot, and these are the opponent's threats". Build the core
    only for games and options :meth:`supports` accepts.

    The constructor takes ``PythonCore``'s arguments; ``recorder`` must be
    None (a traced search runs on ``PythonCore``, whose game and table calls
    the trace watches).
    """

    @staticmethod
    def supports(game: Any, options: Any) -> bool:
        """Whether this core searches ``game`` with ``options`` exactly as the
        generic core does: a plain ``ConnectFour`` (a subclass may change its
        rules or hooks) with the hooks on."""
        return type(game) is ConnectFour and bool(options.hooks)

    def __init__(
        self,
        game: ConnectFour,
        options: Any,
        table: TranspositionTable | None,
        stop: threading.Event,
        deadline: float | None,
        node_limit: int | None,
        scratch: Scratch,
        recorder: Any = None,
    ) -> None:
        if not self.supports(game, options):
            raise ValueError("ConnectFourCore needs a ConnectFour game and the hooks on")
        if recorder is not None:
            # A trace watches the game and table calls of the generic core.
            raise ValueError("ConnectFourCore cannot be traced; use PythonCore")
        self.game = game
        self.table = table
        self.symmetric = bool(options.symmetry) and table is not None
        #: The root's moves: the game's order, as the generic core's.
        self.gen_moves = game.ordered_actions if options.static_order else game.actions
        self.use_win = True
        self.use_nl = True
        mover_wins_only = game.mover_wins_only
        nl_top = 3 if mover_wins_only else 2
        nl_bottom = 4 if mover_wins_only else 1
        self.nl_bounds = (loss_in(nl_bottom), win_in(nl_top))

        # -- the board's constants, bound to locals of the closures ----------
        width, height = game.width, game.height
        h1 = height + 1
        board = game._board  # every playable cell; also the full board's mask
        bottom_row = game._bottom_row
        bottoms = game._bottom  # bottom cell of each column
        last = width - 1
        # The threat formula (threat_cells in the game) needs 4 * (height + 2)
        # zero bits below the lowest stone; a second board goes one lane
        # (the game's lane: board plus padding) above the first.
        off = 4 * (h1 + 1)
        lane = game._lane
        own_shift = off + lane
        d1, d3, d4, a1, a3, a4, u1, u3, u4 = game._steps
        d2, a2, u2 = 2 * d1, 2 * a1, 2 * u1  # has_four's second shifts
        # The column lanes of non_losing_actions (see ConnectFour._init_lanes).
        rep_columns = game._rep_columns
        diagonal = game._diagonal
        lane_shifts, single_column, sentinels, candidate_lanes, column_shifts = _layout(
            width, height
        )
        column_cells = game._column_mask
        win_top = WIN - nl_top  # top = win_top - ply: a win in nl_top plies
        loss_bottom = nl_bottom - WIN  # bottom = ply + loss_bottom
        column_bits = (1 << h1) - 1
        evaluate = game.evaluate

        use_tt = table is not None
        symmetric = self.symmetric
        use_pvs = bool(options.pvs)
        # The table's slot list, read and written here with the rules of
        # TranspositionTable.entry / put (the same slot, the same replacement
        # policy): calling the two methods at every position instead costs
        # about 4% more CPU time on L2_R2 (measured with this core both ways).
        # The list object survives table.clear(), which empties it in place;
        # the generation is the one new_search() opened for this search.
        slots: list[Entry | None] = table.slots if table is not None else []
        size = table.size if table is not None else 1
        generation = table.generation if table is not None else 0
        # hash(k) == k for 0 <= k < 2**61 - 1: keys of boards of up to 60 bits
        # (every board up to 9x5, 8x6, 7x7) skip the hash() call.
        small_keys = width * h1 <= 60

        pvt = scratch.pvt
        perf_counter = time.perf_counter
        stop_is_set = stop.is_set

        # ``unprobed`` counts the positions that did not probe the table
        # (leaves at entry, terminal children, roots): probes are the rest,
        # one counter fewer to bump at every position.
        nodes = leaves = cutoffs = hits = horizon = unprobed = 0
        check_at = CHECK_INTERVAL if node_limit is None else min(CHECK_INTERVAL, node_limit)
        interval = CHECK_INTERVAL
        last_check = perf_counter()

        def check() -> None:
            """The generic core's check: the clock, the node budget and stop()
            every ``interval`` positions (adapted to about a millisecond).
            Called as a position is counted, before it probes the table."""
            nonlocal check_at, interval, last_check, unprobed
            now = perf_counter()
            if (
                stop_is_set()
                or (node_limit is not None and nodes >= node_limit)
                or (deadline is not None and now >= deadline)
            ):
                unprobed += 1  # the position being entered stops before its probe
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

        def mirror(bits: int) -> int:
            """The left-right mirror image of a bitboard (or key)."""
            out = 0
            for right, left in column_shifts:
                out |= ((bits >> right) & column_bits) << left
            return out

        def node(
            cur: int, mask: int, depth: int, ply: int, alpha: int, beta: int, theirs: int
        ) -> int:
            nonlocal nodes, leaves, cutoffs, hits, horizon, unprobed
            nodes += 1
            if nodes >= check_at:
                check()
            if mask == board:
                leaves += 1
                unprobed += 1
                return 0  # a full board without four in a row (see the docstring)
            if depth <= 0:
                leaves += 1
                unprobed += 1
                horizon += 1
                return evaluate((cur, mask, ONGOING), mask.bit_count() & 1)
            h0 = horizon
            pvnode = beta - alpha > 1

            # -- transposition table (TranspositionTable.entry inlined) -------
            tmove: int | None = None
            if use_tt:
                k = cur + mask
                flip = False
                if symmetric:
                    m = mirror(k)
                    if m < k:
                        k = m
                        flip = True
                slot = k % size if small_keys else hash(k) % size
                entry = slots[slot]
                if entry is not None and entry[0] == k:
                    hits += 1
                    tmove = entry[4]
                    if flip and tmove is not None:
                        tmove = last - tmove
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
            best = -INF
            best_move: int | None = None
            opp = cur ^ mask
            d1_ = depth - 1
            p1 = ply + 1

            # -- the table's move first ---------------------------------------
            if tmove is not None:
                child_mask = mask | (mask + bottoms[tmove])
                if pvnode:
                    pvt[p1] = ()
                won = 0
                if theirs == UNSAFE:
                    # Four in a row for the mover (has_four, inlined: this
                    # runs at about one position in ten on L2_R1).
                    x = opp ^ child_mask
                    pair = x & (x >> 1)
                    won = pair & (pair >> 2)
                    pair = x & (x >> d1)
                    won |= pair & (pair >> d2)
                    pair = x & (x >> a1)
                    won |= pair & (pair >> a2)
                    pair = x & (x >> u1)
                    won |= pair & (pair >> u2)
                if won:
                    # The move wins: the child is terminal (the generic
                    # core's node entry, inlined: count it, score it).
                    nodes += 1
                    if nodes >= check_at:
                        check()
                    leaves += 1
                    unprobed += 1
                    value = WIN - p1
                else:
                    value = -node(opp, child_mask, d1_, p1, -beta, -alpha, UNSAFE)
                best = value
                best_move = tmove
                if value > alpha:
                    if value >= beta:
                        cutoffs += 1
                    else:
                        alpha = value
                        if pvnode:
                            pvt[ply] = (tmove, *pvt[p1])

            if best < beta:  # the table's move did not refute
                # -- hooks: a win at once, the non-losing candidates ----------
                empty = board ^ mask
                playable = (mask + bottom_row) & board
                if theirs < 0:
                    # The threat formula of threat_cells (11 operations a
                    # sideways direction), on the opponent's board alone or,
                    # when the mover may have a win at once, on both boards
                    # at once (the mover's one lane higher): one pass costs
                    # about the same for one board or two.
                    x = opp << off if theirs == SAFE else (opp << off) | (cur << own_shift)
                    cells = x & (x << 1)
                    cells = (cells & (cells << 1)) << 1
                    r = x & (x >> d1)
                    r >>= d1
                    q = x | (x >> d4)
                    cells |= ((r & q) << d3) | (r & (q << d1))
                    r = x & (x >> a1)
                    r >>= a1
                    q = x | (x >> a4)
                    cells |= ((r & q) << a3) | (r & (q << a1))
                    r = x & (x >> u1)
                    r >>= u1
                    q = x | (x >> u4)
                    cells |= ((r & q) << u3) | (r & (q << u1))
                    if theirs == UNSAFE:
                        wins = (cells >> own_shift) & playable
                        if wins:
                            # winning_action: the leftmost winning column.
                            leaves += 1
                            if pvnode:
                                pvt[ply] = (((wins & -wins).bit_length() - 1) // h1,)
                            return WIN - 1 - ply
                    theirs = (cells >> off) & empty
                forced = playable & theirs
                if not forced:
                    candidates = playable
                elif forced & (forced - 1):
                    candidates = 0  # two threats to block: every move loses
                else:
                    candidates = forced  # the one threat must be blocked
                candidates &= ~(theirs >> 1)  # never beneath their threat
                if not candidates:
                    leaves += 1
                    return ply + 2 - WIN  # every move lets the opponent win

                # -- mate-distance bounds (no move wins at once) ---------------
                top = win_top - ply
                if top <= alpha:
                    return top
                bottom = ply + loss_bottom
                if bottom >= beta:
                    return bottom
                if top < beta:
                    beta = top
                if bottom > a0:  # (a0 <= alpha: the table's move may have raised alpha)
                    a0 = bottom
                    if bottom > alpha:
                        alpha = bottom

                # -- the moves of non_losing_actions, in its order; children
                # of a non-losing list cannot win at once (safe) --------------
                if tmove is not None:
                    candidates &= ~column_cells[tmove]  # searched above
                if not candidates & (candidates - 1):
                    if candidates:  # one move: no order, no loop
                        move = single_column[candidates]
                        child_mask = mask | candidates
                        if not pvnode:
                            value = -node(opp, child_mask, d1_, p1, -beta, -alpha, SAFE)
                        elif tmove is None or not use_pvs:
                            pvt[p1] = ()
                            value = -node(opp, child_mask, d1_, p1, -beta, -alpha, SAFE)
                        else:
                            value = -node(opp, child_mask, d1_, p1, -alpha - 1, -alpha, SAFE)
                            if alpha < value < beta:  # fail high: search it properly
                                pvt[p1] = ()
                                value = -node(opp, child_mask, d1_, p1, -beta, -alpha, SAFE)
                        if value > best:
                            best = value
                            best_move = move
                            if value > alpha:
                                if value >= beta:
                                    cutoffs += 1
                                elif pvnode:
                                    pvt[ply] = (move, *pvt[p1])
                else:
                    # Lane c holds the mover's stones after playing column c;
                    # one pass of the formula gives every lane's threats, and
                    # the candidates sort by (threats, centre first), as in
                    # non_losing_actions. Lane c is also what the child after
                    # column c needs: its opponent's threats, handed down.
                    x = (cur * rep_columns) | ((playable * rep_columns) & diagonal)
                    cells = x & (x << 1)
                    cells = (cells & (cells << 1)) << 1
                    r = x & (x >> d1)
                    r >>= d1
                    q = x | (x >> d4)
                    cells |= ((r & q) << d3) | (r & (q << d1))
                    r = x & (x >> a1)
                    r >>= a1
                    q = x | (x >> a4)
                    cells |= ((r & q) << a3) | (r & (q << a1))
                    r = x & (x >> u1)
                    r >>= u1
                    q = x | (x >> u4)
                    cells |= ((r & q) << u3) | (r & (q << u1))
                    cells &= empty * rep_columns
                    # Sort keys: threats << 8 | tie-break << 4 | column. (A
                    # plain loop: about 5% faster overall than a list
                    # comprehension, whose own frame costs in Python 3.11.)
                    keys = []
                    for lane_cells, code in candidate_lanes[(candidates + board) & sentinels]:
                        keys.append(((cells & lane_cells).bit_count() << 8) | code)
                    keys.sort(reverse=True)
                    first = tmove is None
                    for key in keys:
                        move = key & 15
                        child_mask = mask | (mask + bottoms[move])
                        known = (cells >> lane_shifts[move]) & (board ^ child_mask)
                        if not pvnode:
                            value = -node(opp, child_mask, d1_, p1, -beta, -alpha, known)
                        elif first or not use_pvs:
                            first = False
                            pvt[p1] = ()
                            value = -node(opp, child_mask, d1_, p1, -beta, -alpha, known)
                        else:
                            value = -node(opp, child_mask, d1_, p1, -alpha - 1, -alpha, known)
                            if alpha < value < beta:  # fail high: search it properly
                                pvt[p1] = ()
                                value = -node(opp, child_mask, d1_, p1, -beta, -alpha, known)
                        if value > best:
                            best = value
                            best_move = move
                            if value > alpha:
                                if value >= beta:
                                    cutoffs += 1
                                    break
                                alpha = value
                                if pvnode:
                                    pvt[ply] = (move, *pvt[p1])

            # -- store (TranspositionTable.put inlined, same rules) -----------
            if use_tt:
                if horizon == h0:
                    stored_depth = DEPTH_INF
                elif (best >= MATE and best >= beta) or (best <= -MATE and best <= a0):
                    # Decisive bounds are proven past a horizon (see node.py).
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
                if flip and best_move is not None:
                    best_move = last - best_move
                old = slots[slot]
                if old is not None:
                    if old[0] == k:
                        if old[3] > stored_depth:
                            return best  # the position's deeper result stays
                        if old[3] == stored_depth:
                            # The same position to the same depth: keep both sides.
                            merged_lo = old[1] if old[1] > lo else lo
                            merged_hi = old[2] if old[2] < hi else hi
                            if merged_lo <= merged_hi:
                                lo, hi = merged_lo, merged_hi
                            if best_move is None:
                                best_move = old[4]
                    elif old[3] > stored_depth and old[5] == generation:
                        return best  # a deeper entry of this search stays
                slots[slot] = (k, lo, hi, stored_depth, best_move, generation)
            return best

        def child_value(
            child: Any, cs: int, me: int, depth: int, alpha: int, beta: int
        ) -> int:
            nonlocal nodes, leaves, unprobed
            pvt[1] = ()
            current, mask, status = child
            if status != ONGOING:
                # The generic node's terminal entry: the mover won, or a draw.
                nodes += 1
                if nodes >= check_at:
                    check()
                leaves += 1
                unprobed += 1
                return WIN - 1 if status == WON else 0
            return -node(current, mask, depth, 1, -beta, -alpha, UNSAFE)

        def counts() -> tuple[int, int, int, int, int, int]:
            probes = nodes - unprobed if use_tt else 0
            return nodes, leaves, cutoffs, probes, hits, horizon

        def count_root() -> None:
            nonlocal nodes, unprobed
            nodes += 1
            unprobed += 1

        self.node: NodeFunction = node
        self._child_value = child_value
        self._counts = counts
        self.count_root = count_root
        self.pvt = pvt
        self._mirror = mirror

    def counts(self) -> tuple[int, int, int, int, int, int]:
        return self._counts()

    # -- helpers for the root (not speed-critical) ---------------------------
    def child_value(self, child: Any, cs: int, me: int, depth: int, alpha: int, beta: int) -> int:
        """The value, for the root's side ``me``, of a root move leading to the
        game state ``child`` (terminal or not; ``cs``, its side to move, is
        always the other side in Connect Four), with the fail-soft contract on
        the window ``(alpha, beta)`` seen from the root."""
        return self._child_value(child, cs, me, depth, alpha, beta)

    def _key(self, state: Any) -> tuple[int, bool]:
        """The table key of ``state`` and whether it is the mirror image's."""
        key: int = state[0] + state[1]
        if self.symmetric:
            mirrored: int = self._mirror(key)
            if mirrored < key:
                return mirrored, True
        return key, False

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
        if state[2] != ONGOING:
            return ()
        # The rest on the bitboards (the solver follows a line of some twenty
        # plies after each solve: a few percent of an L2_R1 position).
        current, mask = state[0], state[1]
        board, top_row = game._board, game._top_row
        out: list[Any] = []
        while len(out) < length:
            key, flip = self._key((current, mask))
            entry = table.entry(key)
            if entry is None or entry[4] is None:
                break
            if entry[1] <= NO_LOWER + MAX_PLY:
                break  # only an upper bound: its move is not known to be best
            move = game.width - 1 - entry[4] if flip else entry[4]
            if not 0 <= move < game.width or mask & top_row & game._column_mask[move]:
                break  # not a legal move (a full column)
            out.append(move)
            mover = current | ((mask | (mask + game._bottom[move])) ^ mask)
            mask |= mask + game._bottom[move]
            current = mover ^ mask  # the opponent's stones: the new side to move
            if has_four(mover, game.height) or mask == board:
                break  # the game is over
        return tuple(out)

    def table_move(self, state: Any) -> Any:
        """The table's best move for ``state`` (in its own frame), or None."""
        if self.table is None:
            return None
        key, flip = self._key(state)
        entry = self.table.entry(key)
        if entry is None or entry[4] is None:
            return None
        return self.game.width - 1 - entry[4] if flip else entry[4]


__all__ = ["ConnectFourCore"]
