"""The generic compiled search: the Python engine's node function on an
explicit stack, built from one game type's primitives.

:func:`kernel_for` returns ``search(...)``, compiled by numba for the
primitives of :mod:`.contract`, with the contract of the Python engine's
``node`` (``zerosum.search.engine``): fail-soft negamax alpha-beta with
principal-variation search, the transposition table (the replacement policy
of ``search/tt.py``), the table's move first, then the hooks and their
mate-distance bounds, killers and history refining the static order (an
informed non-losing list keeps the game's order), and the horizon counter
that tells an exact result from a heuristic one. It gives the same values
as the Python backend; node counts may differ slightly (history ties).

Why an explicit stack: a recursive compiled function pays reference
counting on its array arguments at every call (1.25-1.4x slower, measured),
and recursion depth would be bounded by the C stack. Each ply has a frame
(rows of ``fr``), a state row (``S``) and a move buffer (``mv``).

``search(g, S, ply0, depth, alpha, beta, safe, <table arrays>, generation,
fr, mv, killers, history, pv, pvlen, counters, stop, node_limit)`` searches
the position in ``S[ply0]`` (``ply0`` plies below the root of the whole
search; ``depth`` remaining, :data:`UNLIMITED_N` for none) and returns its
value for the side to move there, or :data:`ABORTED` when ``stop[0]`` was set
(by ``Engine.stop`` or the deadline watcher) or ``counters[0]`` reached
``node_limit``. ``counters`` accumulates nodes, leaves, cut-offs, table
probes, table hits and the horizon count; ``pv[ply0, :pvlen[ply0]]`` is the
principal variation found below a PV position.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np
from numba import njit

from ..search.types import WIN
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
    pack_entry,
    prefetch_slot,
)

#: Values the kernel shares with the Python engine.
MATE = WIN - 10_000
NO_UPPER = WIN + 30_000
NO_LOWER = -NO_UPPER
INF = WIN + 1
#: Remaining depth of an unlimited search (as the Python engine's UNLIMITED).
UNLIMITED_N = 1 << 30
#: What ``search`` returns when it was stopped.
ABORTED = -(WIN + 1000)
#: Counter indices.
C_NODES, C_LEAVES, C_CUTOFFS, C_PROBES, C_HITS, C_HORIZON = range(6)

# Frame fields (int64 columns of ``fr``).
F_DEPTH, F_ALPHA, F_BETA, F_A0, F_BEST, F_BESTMOVE, F_TMOVE, F_IDX, F_N = range(9)
F_STAGE, F_PVNODE, F_H0, F_SLOT, F_TRANS, F_INFORMED, F_SAFE, F_CUT, F_FIRST = range(9, 18)
F_CHILD_SAFE, F_MOVE = 18, 19
FRAME_FIELDS = 20

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


def announce_compiling(kind: str, compiled: Any) -> None:
    """Say in one line that ``kind``'s native code compiles, when
    ``compiled`` (the kernel, or a function built on it: the solver's loop,
    the table's line) is not in numba's disk cache; once a process, however
    many of them compile."""
    if kind not in _announced and not _cached(compiled):
        _announced.add(kind)
        print(
            f"zerosum: compiling the native search for {kind} "
            "(once on this machine; it takes a few seconds)",
            file=sys.stderr,
            flush=True,
        )


def _cached(kernel: Any) -> bool:
    """Whether numba's disk cache holds ``kernel`` (numba internals: when
    they cannot be read, assume it does and say nothing)."""
    try:
        index = kernel._cache._cache_file._index_path
    except AttributeError:
        return True
    return os.path.exists(index)


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
        canonical=prims.canonical or _identity_key,
        map_move=prims.map_move or _same_move,
        NL_TOP=3 if prims.mover_wins_only else 2,
        NL_BOTTOM=4 if prims.mover_wins_only else 1,
    )
    # (binding.py: why globals, and why the digest in the name)
    tag = f"{kind}_{primitives_digest(prims)}"
    names["_prepare_moves"] = bind(_prepare, f"prepare_{tag}", names, inline=True)
    return bind(_search, f"search_{tag}", names)


def _search(
    g: Any, S: Any, ply0: int, depth0: int, alpha0: int, beta0: int, safe0: bool,
    tt: Any, fk: Any,
    generation: int, symmetric: bool, options: Any,
    fr: Any, mv: Any, killers: Any, history: Any, pv: Any, pvlen: Any,
    counters: Any, stop: Any, node_limit: int,
) -> Any:
    # numpy scalars throughout (for mypy: the compiled code is typed by numba)
    ret: Any
    tmove: Any
    lo: Any
    hi: Any
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
    size = tt.shape[0]
    use_tt = options[4] != 0
    use_hooks = options[0] != 0
    use_killers = options[1] != 0
    use_history = options[2] != 0
    use_pvs = options[3] != 0
    prefetch = PREFETCH and use_tt and not symmetric
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
            depth = fr[p, F_DEPTH]
            alpha = fr[p, F_ALPHA]
            beta = fr[p, F_BETA]
            s = S[p]
            st = status(g, s)
            done = False
            if st != ONGOING:
                counters[C_LEAVES] += 1
                ret = st * (WIN - p)
                done = True
            elif depth <= 0:
                counters[C_LEAVES] += 1
                counters[C_HORIZON] += 1
                ret = evaluate(g, s)
                done = True
            elif USE_EXACT and use_hooks and beta - alpha == 1:
                # The game's own search for small positions (contract.py).
                ret = exact(g, s, p, depth, alpha, beta, counters)
                if ret != NOT_EXACT:
                    counters[C_LEAVES] += 1
                    done = True
            if not done:
                fr[p, F_H0] = counters[C_HORIZON]
                pvnode = 1 if beta - alpha > 1 else 0
                fr[p, F_PVNODE] = pvnode
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
                    slot = np.int64(k % np.uint64(size))
                    fr[p, F_SLOT] = slot
                    fr[p, F_TRANS] = trans
                    fk[p] = k
                    counters[C_PROBES] += 1
                    data = tt[slot, 1]
                    if entry_depth(data) > 0 and tt[slot, 0] == k:
                        counters[C_HITS] += 1
                        tmove = entry_move(data)
                        if tmove >= 0 and symmetric:
                            tmove = map_move(g, tmove, trans, True)
                        ed = entry_depth(data)
                        if ed >= depth:
                            lo = entry_lower(data)
                            if lo >= MATE:
                                lo -= p
                            elif lo <= -MATE:
                                lo += p
                            hi = entry_upper(data)
                            if hi >= MATE:
                                hi -= p
                            elif hi <= -MATE:
                                hi += p
                            if lo >= beta or lo == hi:
                                if ed != DEPTH_INF_N:
                                    counters[C_HORIZON] += 1
                                ret = lo
                                done = True
                            elif hi <= alpha:
                                if ed != DEPTH_INF_N:
                                    counters[C_HORIZON] += 1
                                ret = hi
                                done = True
                            elif lo > alpha or hi < beta:
                                if ed != DEPTH_INF_N:
                                    counters[C_HORIZON] += 1
                                if lo > alpha:
                                    alpha = lo
                                if hi < beta:
                                    beta = hi
                if not done:
                    fr[p, F_ALPHA] = alpha
                    fr[p, F_BETA] = beta
                    fr[p, F_A0] = alpha
                    fr[p, F_TMOVE] = tmove
                    if tmove >= 0:
                        # The table's move first: a cut-off then costs no
                        # hooks and no move generation.
                        fr[p, F_STAGE] = STAGE_TMOVE
                        fr[p, F_MOVE] = tmove
                        if pvnode:
                            pvlen[p + 1] = 0
                        play(g, s, tmove, S[p + 1])
                        fr[p + 1, F_DEPTH] = depth - 1
                        fr[p + 1, F_ALPHA] = -beta
                        fr[p + 1, F_BETA] = -alpha
                        fr[p + 1, F_SAFE] = 0
                        p += 1
                        entering = True
                        continue
                    ret = _prepare_moves(
                        g, s, p, fr, mv, killers, history, pvlen, pv, counters,
                        use_hooks, use_killers, use_history, S[p + 1], tt, prefetch,
                    )
                    if ret == _CONTINUE:
                        # fall through to pick the first move below
                        pass
                    else:
                        done = True
            if done:
                # return ret to the parent
                if p == ply0:
                    return ret
                p -= 1
                # fall through to the parent's handling of ret
            else:
                ret = _CONTINUE
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
                play(g, S[p], move, S[p + 1])
                fr[p + 1, F_DEPTH] = fr[p, F_DEPTH] - 1
                fr[p + 1, F_ALPHA] = -beta
                fr[p + 1, F_BETA] = -alpha
                fr[p + 1, F_SAFE] = fr[p, F_CHILD_SAFE]
                p += 1
                entering = True
                continue
            if stage == STAGE_TMOVE:
                fr[p, F_BEST] = value
                fr[p, F_BESTMOVE] = move
                if value > alpha:
                    if value >= beta:
                        counters[C_CUTOFFS] += 1
                        fr[p, F_CUT] = 1
                    else:
                        fr[p, F_ALPHA] = value
                        if fr[p, F_PVNODE]:
                            _pv_store(pv, pvlen, p, move)
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
            else:
                if value > fr[p, F_BEST]:
                    fr[p, F_BEST] = value
                    fr[p, F_BESTMOVE] = move
                    if value > alpha:
                        if value >= beta:
                            counters[C_CUTOFFS] += 1
                            fr[p, F_CUT] = 1
                        else:
                            fr[p, F_ALPHA] = value
                            if fr[p, F_PVNODE]:
                                _pv_store(pv, pvlen, p, move)
        # -- the next move, or the end of the node -----------------------
        if fr[p, F_CUT] == 0:
            idx = fr[p, F_IDX]
            n = fr[p, F_N]
            tmove = fr[p, F_TMOVE]
            while idx < n and mv[p, idx] == tmove:
                idx += 1
            if idx < n:
                move = np.int64(mv[p, idx])
                fr[p, F_IDX] = idx + 1
                fr[p, F_MOVE] = move
                alpha = fr[p, F_ALPHA]
                beta = fr[p, F_BETA]
                play(g, S[p], move, S[p + 1])
                fr[p + 1, F_DEPTH] = fr[p, F_DEPTH] - 1
                fr[p + 1, F_SAFE] = fr[p, F_CHILD_SAFE]
                if fr[p, F_PVNODE] and not (fr[p, F_FIRST] or not use_pvs):
                    fr[p, F_STAGE] = STAGE_SCOUT
                    fr[p + 1, F_ALPHA] = -alpha - 1
                    fr[p + 1, F_BETA] = -alpha
                else:
                    if fr[p, F_PVNODE]:
                        fr[p, F_FIRST] = 0
                        pvlen[p + 1] = 0
                    fr[p, F_STAGE] = STAGE_FULL
                    fr[p + 1, F_ALPHA] = -beta
                    fr[p + 1, F_BETA] = -alpha
                p += 1
                entering = True
                continue
        # -- the node is done: killers, history, table; return best -------
        best = fr[p, F_BEST]
        best_move = fr[p, F_BESTMOVE]
        depth = fr[p, F_DEPTH]
        if fr[p, F_CUT] and fr[p, F_INFORMED] == 0 and best_move >= 0:
            side = p & 1
            if use_killers and killers[p, 0] != best_move:
                killers[p, 1] = killers[p, 0]
                killers[p, 0] = best_move
            if use_history:
                history[side, best_move] += depth * depth if depth < 64 else 4096
        if use_tt:
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
            if best >= MATE:
                rel = best + p
            elif best <= -MATE:
                rel = best - p
            else:
                rel = best
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
            write = False
            if od <= 0:
                write = True
            elif tt[slot, 0] == k:
                if od < sd:
                    write = True
                elif od == sd:
                    olo, ohi = entry_lower(old), entry_upper(old)
                    mlo = olo if olo > lo else lo
                    mhi = ohi if ohi < hi else hi
                    if mlo <= mhi:
                        lo = mlo
                        hi = mhi
                    write = True
            elif od <= sd or entry_generation(old) != generation & GEN_MASK:
                write = True
            if write:
                tt[slot, 0] = k
                tt[slot, 1] = pack_entry(lo, hi, stored_move, sd, generation)
        ret = best
        if p == ply0:
            return ret
        p -= 1

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
def _identity_key(g: Any, s: Any) -> tuple[Any, int]:
    return np.uint64(0), 0


@njit(cache=True, nogil=True)
def _same_move(g: Any, m: int, t: int, inverse: bool) -> Any:
    return m
