"""The solver's strong loop in one compiled call: Pons' null-window probes
at the root, each over the root moves in turn, until the value is proven.

The solver (``zerosum.search.solver``, ``_Solve._strong``) narrows a range
``[lower, upper]`` with probes at :func:`probe_point`; each probe asks the
root moves one at a time whether they beat the window. Driven from Python,
every root move searched is a call into the kernel (a few microseconds of
argument checking: 8 calls a position on the Connect Four set L1_R1, 4.5 on
L3_R1) and every probe a few microseconds of bisection and bookkeeping,
which add up to as much as the search of an easy position.
:func:`strong_kernel_for` returns ``strong(rows, negate, order, lower, upper,
horizon, best, depth, <the kernel's arguments from g on>) -> (aborted,
lower, upper, best)`` that runs the same loop compiled:

* while ``lower < upper``: count the root position (``counters[0]``, as
  ``count_root``), probe at ``point = probe_point(lower, upper, horizon)``
  with the window ``(point, point + 1)``: the children in ``order`` (indices
  of ``rows``, the encoded child states; ``negate[i]`` when the other side
  moves there) are searched by the kernel until one's value is above
  ``point``; that child moves to the front of ``order``; the best value
  raises ``lower`` (``best`` := its index) when above ``point``, else
  lowers ``upper``;
* ``aborted`` is 1 when the search was stopped (``stop[0]`` is checked
  before each child, as ``NativeCore.child_value`` does): ``lower``,
  ``upper`` and ``best`` are then those proven before the stopped probe.

The same probes in the same order as the Python loop, so the same values,
node counts and table contents (``tests/test_native_table.py`` checks).
"""

from __future__ import annotations

from typing import Any

from numba import njit

from ..search.types import INF, MAX_PLY, WIN
from .binding import bind, primitives_digest
from .contract import Primitives
from .kernel import ABORTED, announce_compiling

#: The game's compiled kernel, as seen by the template (each game type's
#: copy gets its own; this placeholder is never used).
search: Any = None

_kernels: dict[str, Any] = {}


@njit(cache=True, nogil=True)
def _ordinal(score: int, horizon: int, bounded: bool) -> int:
    """``solver.ordinal(score, horizon if bounded else None)``."""
    if score == 0:
        return 0
    distance = WIN - abs(score)
    scale = MAX_PLY
    if bounded:
        distance = min(distance, horizon)
        scale = horizon + 1
    return scale - distance if score > 0 else distance - scale


@njit(cache=True, nogil=True)
def _from_ordinal(value: int, horizon: int, bounded: bool) -> int:
    """``solver.from_ordinal(value, horizon if bounded else None)``."""
    scale = horizon + 1 if bounded else MAX_PLY
    if value > 0:
        return WIN - (scale - value)
    if value < 0:
        return -(WIN - (scale + value))
    return 0


@njit(cache=True, nogil=True)
def _middle(low: int, high: int) -> int:
    """``solver._middle`` (``int(x / 2)`` truncates towards zero in both)."""
    mid = low + (high - low) // 2
    if mid <= 0 and int(low / 2) < mid:
        mid = int(low / 2)
    elif mid >= 0 and int(high / 2) > mid:
        mid = int(high / 2)
    return max(low, min(mid, high - 1))


@njit(cache=True, nogil=True)
def probe_point(lower: int, upper: int, horizon: int) -> int:
    """``solver.probe_point(lower, upper, horizon)``, compiled."""
    if horizon < MAX_PLY:
        mid = _middle(_ordinal(lower, horizon, True), _ordinal(upper, horizon, True))
        tight = _from_ordinal(mid, horizon, True)
        if lower <= tight < upper:
            return tight
    return _from_ordinal(
        _middle(_ordinal(lower, 0, False), _ordinal(upper, 0, False)), 0, False
    )


def strong_kernel_for(kind: str, prims: Primitives, kernel: Any) -> Any:
    """The compiled strong loop over ``kernel`` (the game type's search)
    (made once per process; numba caches it on disk)."""
    if kind not in _kernels:
        names = dict(globals())
        names["search"] = kernel
        tag = f"{kind}_{primitives_digest(prims)}"
        _kernels[kind] = bind(_strong, f"strong_{tag}", names)
        announce_compiling(kind, _kernels[kind])
    return _kernels[kind]


def _strong(
    rows: Any, negate: Any, order: Any, lower: int, upper: int, horizon: int,
    best_index: int, depth: int,
    g: Any, S: Any, tt: Any, fk: Any,
    clock: int, symmetric: bool, options: Any,
    fr: Any, mv: Any, killers: Any, history: Any, pv: Any, pvlen: Any,
    counters: Any, stop: Any, node_limit: int,
) -> Any:
    words = rows.shape[1]
    k = order.shape[0]
    while lower < upper:
        point = probe_point(lower, upper, horizon)
        counters[0] += 1
        best = -INF
        first = 0
        for j in range(k):
            if stop[0] != 0:
                return 1, lower, upper, best_index
            i = order[j]
            for w in range(words):
                S[1, w] = rows[i, w]
            pvlen[1] = 0
            # The window (point, point + 1) as the child's side to move sees it.
            low, high = (-point - 1, -point) if negate[i] else (point, point + 1)
            value = search(
                g, S, 1, depth, low, high, False, tt, fk, clock,
                symmetric, options, fr, mv, killers, history, pv, pvlen, counters,
                stop, node_limit,
            )
            if value == ABORTED:
                return 1, lower, upper, best_index
            if negate[i]:
                value = -value
            if value > best:
                best = value
                first = j
            if value > point:
                break
        move = order[first]
        if best > point:
            for j in range(first, 0, -1):
                order[j] = order[j - 1]
            order[0] = move
            if best > lower:
                lower = best
            best_index = move
        elif best < upper:
            upper = best
    return 0, lower, upper, best_index
