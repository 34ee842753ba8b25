"""The generic compiled search: the Python engine's node function on an
explicit stack, built from one game type's primitives.

:func:`kernel_for` returns ``search(...)``, compiled by numba for the
primitives of :mod:`.contract`, with the contract of the Python engine's
``node`` (``zerosum.search.engine``): fail-soft negamax alpha-beta with
principal-variation search, the transposition table (the entry format and
replacement policy of ``search/ttformat.py``), the table's move first, then the hooks and their
mate-distance bounds, killers and history refining the static order (an
informed non-losing list keeps the game's order), and the horizon counter
that tells an exact result from a heuristic one. It gives the same values
as the Python backend; node counts may differ slightly (history ties).

Why an explicit stack: a recursive compiled function pays reference
counting on its array arguments at every call (1.25-1.4x slower, measured),
and recursion depth would be bounded by the C stack. Each ply has a frame
(rows of ``fr``), a state row (``S``) and a move buffer (``mv``).

``search(g, S, ply0, depth, alpha, beta, safe, <table arrays>, clock,
fr, mv, killers, history, pv, pvlen, counters, stop, node_limit)`` searches
the position in ``S[ply0]`` (``ply0`` plies below the root of the whole
search; ``depth`` remaining, :data:`UNLIMITED_N` for none) and returns its
value for the side to move there, or :data:`ABORTED` when ``stop[0]`` was set
(by ``Engine.stop`` or the deadline watcher) or ``counters[0]`` reached
``node_limit``. ``counters`` accumulates nodes, leaves, cut-offs, table
probes, table hits and the horizon count; ``pv[ply0, :pvlen[ply0]]`` is the
principal variation found below a PV position. ``clock`` is the table's
(``NativeTable.clock``: its generation and which older ones are live).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit
from numba.core import event

from ..search.ttformat import KEEP, MATE, MERGE, NO_LOWER, NO_UPPER
from ..search.types import INF, WIN
from .binding import bind, primitives_digest
from .borrow import borrow
from .contract import NOT_EXACT, ONGOING, Primitives
from .table import (
    DEPTH_INF_N,
    GEN_MASK,
    entry_depth,
    entry_generation,
    entry_lower,
    entry_move,
    entry_upper,
    from_table,
    is_live,
    pack_entry,
    prefetch_slot,
    store_action,
    to_table,
)

# The score encoding and the table's policy are the Python engine's
# (``search/ttformat.py``, imported above: numba freezes module-level values
# into the machine code, so they are never retyped here).
#: Remaining depth of an unlimited search (as the Python engine's UNLIMITED).
UNLIMITED_N = 1 << 30
#: What ``search`` returns when it was stopped.
ABORTED = -(WIN + 1000)
#: Counter indices.
C_NODES, C_LEAVES, C_CUTOFFS, C_PROBES, C_HITS, C_HORIZON = range(6)

# Frame fields (int64 columns of ``fr``).
F_DEPTH, F_ALPHA, F_BETA, F_A0, F_BEST, F_BESTMOVE, F_TMOVE, F_IDX, F_N = range(9)
F_STAGE, F_PVNODE, F_H0, F_SLOT, F_TRANS, F_INFORMED, F_SAFE, F_CUT, F_FIRST = range(9, 18)
F_CHILD_SAFE, F_MOVE, F_DEFER, F_BUSY = 18, 19, 20, 21
FRAME_FIELDS = 22

# ``options``: the switches, then what threads sharing one table share
# besides it (``smp.py``): how many plies below ``ply0`` a node shares out
# its moves (0: one thread, nothing shared), and from :data:`O_BUSY` on the
# table of moves being searched (a hash of the node's key and the move, in
# slot hash % its size; 0 when free).
O_HOOKS, O_KILLERS, O_HISTORY, O_PVS, O_TT, O_SHARE = range(6)
O_BUSY = 8
#: Mixes a move into its node's key for the table of moves being searched.
BUSY_MIX = np.uint64(0x9E3779B97F4A7C15)

# What a node is waiting for: the table move's value, a null-window scout,
# a full-window search (first move, re-search, or any move off the PV).
STAGE_TMOVE, STAGE_SCOUT, STAGE_FULL = 0, 1, 2

# The game's primitives and hook switches, as seen by the templates
# :func:`_search` and :func:`_prepare`: each game type's copy of them gets
# its own values (see :func:`kernel_for`); these placeholders are never used.
gen: Any = None
play: Any = None
status: Any = None
key_of: Any = None
evaluate: Any = None
win_move: Any = None
nonlosing: Any = None
bound: Any = None
canonical: Any = None
map_move: Any = None
_prepare_moves: Any = None
_open_node: Any = None
_close_node: Any = None
_descend: Any = None
informed_order: Any = None
exact: Any = None
USE_WIN = USE_NL = USE_BOUND = USE_KEEP = USE_EXACT = PREFETCH = False
NL_TOP = NL_BOTTOM = 0

_kernels: dict[str, Any] = {}


def kernel_for(kind: str, prims: Primitives) -> Any:
    """The compiled search for one game type (made once per process; numba
    caches the machine code on disk, so a later process loads it).

    The kernel is :func:`_search` with the game's primitives bound as its
    globals: a copy of the function per game type, named after it. (Bound as
    closure cells instead, they would make numba's on-disk cache miss in
    every new process: a compiled function in a closure pickles with a
    per-process id, and the cache index hashes the closure.)"""
    if kind not in _kernels:
        kernel = _make_kernel(kind, prims)
        announce_compiling(kind, kernel)
        _kernels[kind] = kernel
    return _kernels[kind]


_announced: set[str] = set()
#: The compiled functions watched for compiling, by id, with their game.
_watched: dict[int, tuple[Any, str]] = {}


def announce_compiling(kind: str, compiled: Any) -> None:
    """Say in one line that ``kind``'s native code compiles, when
    ``compiled`` (the kernel, or a function built on it: the solver's loop,
    the table's line) is compiled rather than loaded from numba's disk
    cache; once a process, however many of them compile.

    Told by numba's event API (``numba.core.event``: a ``numba:compile``
    event starts only when a signature is not in the disk cache), so the
    line comes as compiling starts, on the first call."""
    _watched[id(compiled)] = (compiled, kind)


class _CompileListener(event.Listener):
    """Announces the first compile of a watched function of each game."""

    def on_start(self, started: Any) -> None:
        data = started.data if isinstance(started.data, dict) else {}
        found = _watched.get(id(data.get("dispatcher")))
        if found is None or found[1] in _announced:
            return
        _announced.add(found[1])
        print(
            f"zerosum: compiling the native search for {found[1]} "
            "(once on this machine; it takes a few seconds)",
            file=sys.stderr,
            flush=True,
        )

    def on_end(self, ended: Any) -> None:
        pass


event.register("numba:compile", _CompileListener())  # type: ignore[no-untyped-call]


def _make_kernel(kind: str, prims: Primitives) -> Any:
    """Bind ``prims`` into copies of :func:`_search` and :func:`_prepare`.
    The hooks a game lacks are replaced by constants, so numba compiles
    their branches away."""
    names = dict(globals())
    names.update(
        borrow=borrow,
        gen=prims.gen,
        play=prims.play,
        status=prims.status,
        key_of=prims.key,
        evaluate=prims.evaluate,
        USE_WIN=prims.win_move is not None,
        USE_NL=prims.nonlosing is not None,
        USE_BOUND=prims.bound is not None,
        USE_KEEP=prims.informed_order is not None,
        USE_EXACT=prims.exact is not None,
        exact=prims.exact or _no_exact,
        PREFETCH=prims.prefetch,
        informed_order=prims.informed_order or _no_order,
        win_move=prims.win_move or _no_move,
        nonlosing=prims.nonlosing or _no_list,
        bound=prims.bound or _no_bound,
        canonical=prims.canonical or identity_key,
        map_move=prims.map_move or same_move,
        NL_TOP=3 if prims.mover_wins_only else 2,
        NL_BOTTOM=4 if prims.mover_wins_only else 1,
    )
    # (binding.py: why globals, and why the digest in the name)
    tag = f"{kind}_{primitives_digest(prims)}"
    # The pieces are inlined into the loop (numba's IR inlining), because it
    # pays: compiled as calls, _open, _close, _child and _raise_alpha made a
    # Connect Four position cost 2.4-3x the CPU time on L1_R1 and 1.4-1.5x
    # on L2_R2 (bench_connect4.py --n 100, interleaved runs, load 10: 3.3
    # and 3.7 ms against 1.4 and 2.3; 13.8 and 15.7 against 9.6 and 10.2).
    names["_prepare_moves"] = bind(_prepare, f"prepare_{tag}", names, inline=True)
    names["_open_node"] = bind(_open, f"open_{tag}", names, inline=True)
    names["_close_node"] = bind(_close, f"close_{tag}", names, inline=True)
    names["_descend"] = bind(_child, f"child_{tag}", names, inline=True)
    return bind(_search, f"search_{tag}", names)


def _search(
    g: Any, S: Any, ply0: int, depth0: int, alpha0: int, beta0: int, safe0: bool,
    tt: Any, fk: Any,
    clock: int, symmetric: bool, options: Any,
    fr: Any, mv: Any, killers: Any, history: Any, pv: Any, pvlen: Any,
    counters: Any, stop: Any, node_limit: int,
) -> Any:
    """The value of ``S[ply0]`` for its side to move, searched ``depth0``
    plies with the window ``(alpha0, beta0)``, fail-soft: a value ``v``
    strictly inside the window is the value; ``v <= alpha0`` is an upper
    bound, ``v >= beta0`` a lower bound. :data:`ABORTED` when stopped.

    The recursion runs on the explicit stack ``fr``: a node is opened by
    :func:`_open` (settled there, or its frame set up), its moves chosen
    by the table (the table's move first) and :func:`_prepare`, each
    child's value taken in below (a null-window scout re-searched on a fail
    high), and the node closed by :func:`_close` (killers, history, the
    table), which gives the value returned to the parent."""
    # numpy scalars throughout (for mypy: the compiled code is typed by numba)
    ret: Any
    tmove: Any
    # Borrowed (borrow.py): the row views below then cost no atomic
    # reference counting; the caller holds the arrays for the whole call.
    S = borrow(S)
    tt = borrow(tt)
    fk = borrow(fk)
    fr = borrow(fr)
    mv = borrow(mv)
    killers = borrow(killers)
    history = borrow(history)
    pv = borrow(pv)
    pvlen = borrow(pvlen)
    counters = borrow(counters)
    use_tt = options[4] != 0
    use_hooks = options[0] != 0
    use_killers = options[1] != 0
    use_history = options[2] != 0
    use_pvs = options[3] != 0
    prefetch = PREFETCH and use_tt and not symmetric
    # Moves are shared out with other threads at nodes this close to ply0.
    share = options[O_SHARE] if use_tt and options.shape[0] > O_BUSY else 0
    busy_size = np.uint64(options.shape[0] - O_BUSY) if share > 0 else np.uint64(1)
    p = ply0
    fr[p, F_DEPTH] = depth0
    fr[p, F_ALPHA] = alpha0
    fr[p, F_BETA] = beta0
    fr[p, F_SAFE] = 1 if safe0 else 0
    entering = True
    ret = 0
    while True:
        if entering:
            # -- a new node at ply p ------------------------------------
            entering = False
            counters[C_NODES] += 1
            if counters[C_NODES] >= node_limit or (
                (counters[C_NODES] & 255) == 0 and stop[0] != 0
            ):
                return ABORTED
            ret = _open_node(g, S[p], p, fr, fk, tt, clock, symmetric, counters, use_tt, use_hooks)
            if ret == _CONTINUE:
                tmove = fr[p, F_TMOVE]
                if tmove >= 0:
                    # The table's move first: a cut-off then costs no
                    # hooks and no move generation.
                    fr[p, F_STAGE] = STAGE_TMOVE
                    fr[p, F_MOVE] = tmove
                    if fr[p, F_PVNODE]:
                        pvlen[p + 1] = 0
                    _descend(g, S, p, fr, tmove, fr[p, F_ALPHA], fr[p, F_BETA], 0)
                    p += 1
                    entering = True
                    continue
                ret = _prepare_moves(
                    g, S[p], p, fr, mv, killers, history, pvlen, pv, counters,
                    use_hooks, use_killers, use_history, S[p + 1], tt, prefetch,
                )
            if ret != _CONTINUE:
                # settled: return ret to the parent
                if p == ply0:
                    return ret
                p -= 1
                # fall through to the parent's handling of ret
        # -- node p: handle a child's value (ret != _CONTINUE) or pick the
        # next move ------------------------------------------------------
        if ret != _CONTINUE:
            value = -ret
            stage = fr[p, F_STAGE]
            alpha = fr[p, F_ALPHA]
            beta = fr[p, F_BETA]
            move = fr[p, F_MOVE]
            if stage == STAGE_SCOUT and alpha < value < beta:
                # fail high: search it properly
                fr[p, F_STAGE] = STAGE_FULL
                pvlen[p + 1] = 0
                _descend(g, S, p, fr, move, alpha, beta, fr[p, F_CHILD_SAFE])
                p += 1
                entering = True
                continue
            if fr[p, F_BUSY] >= 0:
                # the move is searched: no longer busy (unless another
                # thread has marked it since)
                b = fr[p, F_BUSY]
                if options[b] == np.int64(fk[p] ^ (np.uint64(move + 1) * BUSY_MIX)):
                    options[b] = 0
                fr[p, F_BUSY] = -1
            if stage == STAGE_TMOVE:
                fr[p, F_BEST] = value
                fr[p, F_BESTMOVE] = move
                _raise_alpha(p, fr, pv, pvlen, counters, move, value, alpha, beta)
                if fr[p, F_CUT] == 0:
                    r = _prepare_moves(
                        g, S[p], p, fr, mv, killers, history, pvlen, pv, counters,
                        use_hooks, use_killers, use_history, S[p + 1], tt, prefetch,
                    )
                    if r != _CONTINUE:
                        if p == ply0:
                            return r
                        ret = r
                        p -= 1
                        continue
            elif value > fr[p, F_BEST]:
                fr[p, F_BEST] = value
                fr[p, F_BESTMOVE] = move
                _raise_alpha(p, fr, pv, pvlen, counters, move, value, alpha, beta)
        # -- the next move, or the end of the node -----------------------
        if fr[p, F_CUT] == 0:
            idx = fr[p, F_IDX]
            n = fr[p, F_N]
            tmove = fr[p, F_TMOVE]
            # Shared out (Kerrigan's simplified ABDADA): once a move of the
            # node is searched, a move another thread is searching from the
            # same position waits to the end of the list, where the table
            # will most often have its value.
            sharing = p - ply0 < share and fr[p, F_BEST] > -INF
            move = np.int64(-1)
            while idx < n:
                m = np.int64(mv[p, idx])
                idx += 1
                if m == tmove:
                    continue
                if sharing and idx <= 63:
                    h = fk[p] ^ (np.uint64(m + 1) * BUSY_MIX)
                    if options[O_BUSY + np.int64(h % busy_size)] == np.int64(h):
                        fr[p, F_DEFER] |= np.int64(1) << (idx - 1)
                        continue
                move = m
                break
            fr[p, F_IDX] = idx
            if move < 0 and fr[p, F_DEFER] != 0:
                bits = fr[p, F_DEFER]
                low = bits & -bits
                fr[p, F_DEFER] = bits ^ low
                b = 0
                while low > 1:
                    low >>= 1
                    b += 1
                move = np.int64(mv[p, b])
            if move >= 0:
                if p - ply0 < share:
                    h = fk[p] ^ (np.uint64(move + 1) * BUSY_MIX)
                    b = O_BUSY + np.int64(h % busy_size)
                    options[b] = np.int64(h)
                    fr[p, F_BUSY] = b
                fr[p, F_MOVE] = move
                alpha = fr[p, F_ALPHA]
                beta = fr[p, F_BETA]
                if fr[p, F_PVNODE] and not (fr[p, F_FIRST] or not use_pvs):
                    # a null window at alpha: is the move better?
                    fr[p, F_STAGE] = STAGE_SCOUT
                    _descend(g, S, p, fr, move, alpha, alpha + 1, fr[p, F_CHILD_SAFE])
                else:
                    if fr[p, F_PVNODE]:
                        fr[p, F_FIRST] = 0
                        pvlen[p + 1] = 0
                    fr[p, F_STAGE] = STAGE_FULL
                    _descend(g, S, p, fr, move, alpha, beta, fr[p, F_CHILD_SAFE])
                p += 1
                entering = True
                continue
        # -- the node is done ---------------------------------------------
        ret = _close_node(
            g, p, fr, fk, tt, clock, symmetric, killers, history, counters,
            use_tt, use_killers, use_history,
        )
        if p == ply0:
            return ret
        p -= 1


def _child(
    g: Any, S: Any, p: int, fr: Any, move: Any, alpha: Any, beta: Any, safe: Any
) -> None:
    """Set up the child of node ``p`` reached by ``move``: its state in
    ``S[p + 1]``, one ply less to search, node ``p``'s window ``(alpha,
    beta)`` as the child's side sees it, and whether the child's side is
    known not to win at once (``safe``: the move came from a non-losing
    list)."""
    play(g, S[p], move, S[p + 1])
    fr[p + 1, F_DEPTH] = fr[p, F_DEPTH] - 1
    fr[p + 1, F_ALPHA] = -beta
    fr[p + 1, F_BETA] = -alpha
    fr[p + 1, F_SAFE] = safe


@njit(cache=True, nogil=True, inline="always")
def _raise_alpha(
    p: int, fr: Any, pv: Any, pvlen: Any, counters: Any,
    move: Any, value: Any, alpha: Any, beta: Any,
) -> None:
    """A move of node ``p`` scored ``value``, its best so far: at or above
    ``beta`` the node is cut (no further move is searched); between
    ``alpha`` and ``beta`` it raises alpha, and at a PV node its line
    becomes the node's principal variation."""
    if value > alpha:
        if value >= beta:
            counters[C_CUTOFFS] += 1
            fr[p, F_CUT] = 1
        else:
            fr[p, F_ALPHA] = value
            if fr[p, F_PVNODE]:
                _pv_store(pv, pvlen, p, move)


def _open(
    g: Any, s: Any, p: int, fr: Any, fk: Any, tt: Any, clock: int, symmetric: bool,
    counters: Any, use_tt: bool, use_hooks: bool,
) -> Any:
    """Open the node at ply ``p`` (state ``s``; depth and window in its
    frame). Returns its value when it is settled here, with the fail-soft
    contract of :func:`_search` on the frame's window: a finished game
    (exact), the depth limit (the evaluation; the horizon counted), the
    game's own search for small positions (``exact``, null windows only),
    or a live table entry searched deep enough whose bounds decide the
    window (the horizon counted unless the entry is exact). Otherwise
    returns :data:`_CONTINUE` with the frame ready for its moves: the window
    narrowed by the entry's bounds, ``F_A0`` its lower end, ``F_TMOVE`` the
    entry's move (-1: none), the key and slot kept for :func:`_close`."""
    depth = fr[p, F_DEPTH]
    alpha = fr[p, F_ALPHA]
    beta = fr[p, F_BETA]
    st = status(g, s)
    if st != ONGOING:
        counters[C_LEAVES] += 1
        return st * (WIN - p)
    if depth <= 0:
        counters[C_LEAVES] += 1
        counters[C_HORIZON] += 1
        return evaluate(g, s)
    if USE_EXACT and use_hooks and beta - alpha == 1:
        # The game's own search for small positions (contract.py).
        ret = exact(g, s, p, depth, alpha, beta, counters)
        if ret != NOT_EXACT:
            counters[C_LEAVES] += 1
            return ret
    fr[p, F_H0] = counters[C_HORIZON]
    fr[p, F_DEFER] = 0
    fr[p, F_BUSY] = -1
    fr[p, F_PVNODE] = 1 if beta - alpha > 1 else 0
    fr[p, F_BEST] = -INF
    fr[p, F_BESTMOVE] = -1
    fr[p, F_CUT] = 0
    fr[p, F_INFORMED] = 1 if (USE_NL and use_hooks) else 0
    tmove = -1
    if use_tt:
        trans = 0
        if symmetric:
            k, trans = canonical(g, s)
        else:
            k = key_of(g, s)
        slot = np.int64(k % np.uint64(tt.shape[0]))
        fr[p, F_SLOT] = slot
        fr[p, F_TRANS] = trans
        fk[p] = k
        counters[C_PROBES] += 1
        data = tt[slot, 1]
        ed = entry_depth(data)
        if ed > 0 and (tt[slot, 0] ^ data) == k and is_live(entry_generation(data), clock):
            counters[C_HITS] += 1
            tmove = entry_move(data)
            if tmove >= 0 and symmetric:
                tmove = map_move(g, tmove, trans, True)
            if ed >= depth:
                lo = from_table(entry_lower(data), p)
                hi = from_table(entry_upper(data), p)
                if lo >= beta or lo == hi:
                    if ed != DEPTH_INF_N:
                        counters[C_HORIZON] += 1
                    return lo
                if hi <= alpha:
                    if ed != DEPTH_INF_N:
                        counters[C_HORIZON] += 1
                    return hi
                if lo > alpha or hi < beta:
                    if ed != DEPTH_INF_N:
                        counters[C_HORIZON] += 1  # a heuristic bound narrows it
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
    fr[p, F_ALPHA] = alpha
    fr[p, F_BETA] = beta
    fr[p, F_A0] = alpha
    fr[p, F_TMOVE] = tmove
    return _CONTINUE


def _close(
    g: Any, p: int, fr: Any, fk: Any, tt: Any, clock: int, symmetric: bool,
    killers: Any, history: Any, counters: Any,
    use_tt: bool, use_killers: bool, use_history: bool,
) -> Any:
    """Close the node at ply ``p`` whose moves are searched (or cut): a
    refutation (a cut-off outside an informed list) becomes the ply's
    killer and earns history; the result is stored in the table under the
    policy of ``search/ttformat.py`` (an upper bound when it is at most the
    window's lower end ``F_A0``, a lower bound at ``F_BETA`` or above, else
    exact; depth :data:`DEPTH_INF_N` when no heuristic leaf was counted
    below, or for a decisive bound that holds past any horizon). Returns
    the node's value, ``F_BEST``."""
    best = fr[p, F_BEST]
    best_move = fr[p, F_BESTMOVE]
    depth = fr[p, F_DEPTH]
    if fr[p, F_CUT] and fr[p, F_INFORMED] == 0 and best_move >= 0:
        if use_killers and killers[p, 0] != best_move:
            killers[p, 1] = killers[p, 0]
            killers[p, 0] = best_move
        if use_history:
            history[p & 1, best_move] += depth * depth if depth < 64 else 4096
    if not use_tt:
        return best
    beta = fr[p, F_BETA]
    a0 = fr[p, F_A0]
    if (
        counters[C_HORIZON] == fr[p, F_H0]
        or (best >= MATE and best >= beta)
        or (best <= -MATE and best <= a0)
    ):
        sd = DEPTH_INF_N
    else:
        sd = depth if depth < DEPTH_INF_N else DEPTH_INF_N - 1
    rel = to_table(best, p)
    if best <= a0:
        lo = NO_LOWER
        hi = rel
    elif best >= beta:
        lo = rel
        hi = NO_UPPER
    else:
        lo = rel
        hi = rel
    stored_move = best_move
    if symmetric and best_move >= 0:
        stored_move = map_move(g, best_move, fr[p, F_TRANS], False)
    slot = fr[p, F_SLOT]
    k = fk[p]
    old = tt[slot, 1]
    od = entry_depth(old)
    og = entry_generation(old)
    action = store_action(
        od > 0 and is_live(og, clock), (tt[slot, 0] ^ old) == k, od, sd,
        og == clock & GEN_MASK,
    )
    if action == MERGE:
        olo, ohi = entry_lower(old), entry_upper(old)
        mlo = olo if olo > lo else lo
        mhi = ohi if ohi < hi else hi
        if mlo <= mhi:
            lo = mlo
            hi = mhi
    if action != KEEP:
        data = pack_entry(lo, hi, stored_move, sd, clock)
        # Word 0 is the key xor word 1 (table.py: a slot torn by two
        # threads writing it at once then matches no key).
        tt[slot, 0] = k ^ data
        tt[slot, 1] = data
    return best


def _prepare(
    g: Any, s: Any, p: int, fr: Any, mv: Any, killers: Any, history: Any,
    pvlen: Any, pv: Any, counters: Any,
    use_hooks: bool, use_killers: bool, use_history: bool,
    scratch: Any, tt: Any, prefetch: bool,
) -> Any:
    """After the table move (if any) did not cut: the hooks and their
    bounds, then the moves in order. Returns _CONTINUE, or the node's
    value when the hooks decide it."""
    alpha = fr[p, F_ALPHA]
    beta = fr[p, F_BETA]
    informed = False
    top = WIN - 1 - p
    bottom = p + 1 - WIN
    n = -1
    if use_hooks:
        if USE_WIN and fr[p, F_SAFE] == 0:
            w = win_move(g, s)
            if w >= 0:
                counters[C_LEAVES] += 1
                if fr[p, F_PVNODE]:
                    pv[p, 0] = w
                    pvlen[p] = 1
                return top
        if USE_NL:
            n = nonlosing(g, s, mv[p])
            if n == 0:
                counters[C_LEAVES] += 1
                return p + 2 - WIN
            if n > 0:
                informed = True
                top = WIN - NL_TOP - p
                bottom = p + NL_BOTTOM - WIN
        if USE_BOUND:
            b = bound(g, s)
            if b > 0 and WIN - p - b > bottom:
                bottom = WIN - p - b
            elif b < 0 and p - b - WIN < top:
                top = p - b - WIN
    if top <= alpha:
        return top
    if bottom >= beta or bottom >= top:
        return bottom  # (bounds that meet: the value itself)
    if top < beta:
        beta = top
    if bottom > alpha:
        alpha = bottom
    if bottom > fr[p, F_A0]:
        fr[p, F_A0] = bottom
    fr[p, F_ALPHA] = alpha
    fr[p, F_BETA] = beta
    keep = informed
    if not informed:
        n = gen(g, s, mv[p])
        keep = USE_KEEP and use_hooks and informed_order(g, s)
    if not keep:
        if use_history and n > 1:
            side = p & 1
            # insertion sort by history, stable (ties keep the static order)
            for i in range(1, n):
                m = mv[p, i]
                h = history[side, m]
                j = i - 1
                while j >= 0 and history[side, mv[p, j]] < h:
                    mv[p, j + 1] = mv[p, j]
                    j -= 1
                mv[p, j + 1] = m
        if use_killers:
            for which in (1, 0):
                k = killers[p, which]
                if k >= 0:
                    for i in range(n):
                        if mv[p, i] == k:
                            for j in range(i, 0, -1):
                                mv[p, j] = mv[p, j - 1]
                            mv[p, 0] = k
                            break
    if prefetch:
        # Start loading every child's table slot now: the loads then overlap
        # one another and this node's work instead of each stalling its
        # child (the search waits on table misses most of its time).
        # ``scratch`` is the next ply's state row, written again before use.
        size = np.uint64(tt.shape[0])
        for i in range(n):
            play(g, s, mv[p, i], scratch)
            prefetch_slot(tt, np.int64(key_of(g, scratch) % size))
    fr[p, F_INFORMED] = 1 if keep else 0
    fr[p, F_CHILD_SAFE] = 1 if informed else 0
    fr[p, F_N] = n
    fr[p, F_IDX] = 0
    fr[p, F_FIRST] = 1 if fr[p, F_TMOVE] < 0 else 0
    return _CONTINUE



#: ``_prepare_moves`` found moves to search (not a score: below any).
_CONTINUE = -(WIN + 2000)


@njit(cache=True, nogil=True)
def _pv_store(pv: Any, pvlen: Any, p: int, move: int) -> None:
    """The principal variation at ply ``p``: ``move`` then the child's."""
    pv[p, 0] = move
    n = pvlen[p + 1]
    for i in range(n):
        pv[p, i + 1] = pv[p + 1, i]
    pvlen[p] = n + 1


@njit(cache=True, nogil=True)
def _no_move(g: Any, s: Any) -> Any:
    return -1


@njit(cache=True, nogil=True)
def _no_list(g: Any, s: Any, out: Any) -> Any:
    return -1


@njit(cache=True, nogil=True)
def _no_bound(g: Any, s: Any) -> Any:
    return 0


@njit(cache=True, nogil=True)
def _no_order(g: Any, s: Any) -> Any:
    return False


@njit(cache=True, nogil=True)
def _no_exact(
    g: Any, s: Any, ply: int, depth: int, alpha: int, beta: int, counters: Any
) -> Any:
    return NOT_EXACT


@njit(cache=True, nogil=True)
def identity_key(g: Any, s: Any) -> tuple[Any, int]:
    return np.uint64(0), 0


@njit(cache=True, nogil=True)
def same_move(g: Any, m: int, t: int, inverse: bool) -> Any:
    return m
