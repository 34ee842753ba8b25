"""One native search on several threads sharing one transposition table.

Every thread (a *lane*: its own stack, killers, history, principal
variation and counters) searches the same position with the same window,
without the GIL, over the one table; the first lane to finish gives the
value and the others are stopped. What makes the threads split the work
rather than repeat it is in the kernel (``kernel.py``, Kerrigan's simplified
ABDADA): near the root, once a node's first move is searched, a move that
another thread is searching from the same position waits to the end of the
node's list, and when its turn comes the table mostly has its value. The
table is safe to share without locks because a slot's word 0 is its key xor
word 1 (``table.py``): a slot torn by two writers matches no key.

Why this and not plain Lazy SMP (threads that differ only in depth): the
solver's searches have no depth to vary, and threads that walk the same tree
in the same order repeat each other's work (measured in
``benchmarks/bench_threads.py``).

Exactness: each lane's search is a whole alpha-beta search over a table
whose entries are all proven (a bound is stored only by a finished search
of its position), so a lane's value keeps the contract of one thread's:
exact values, and so the solver's best-move sets, are the same.

Stopping: the lanes poll one flag of their own (the kernel looks every 256
positions); the calling thread waits for them, and sets that flag when the
engine's own flag is set (``Engine.stop``, the deadline) -- it looks every
:data:`POLL_S` -- or as soon as a lane has finished.

Counting: positions, leaves, cut-offs and table probes and hits are summed
over the lanes; the horizon counter (which tells an exact value from a
heuristic one) is the finishing lane's, whose value it describes. A node
budget bounds the positions summed over the lanes: each lane may use its
share of what is left when the search of a root move starts.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from .kernel import ABORTED, C_HORIZON, FRAME_FIELDS, O_BUSY, O_SHARE

#: How often the waiting thread passes the engine's stop on (seconds).
POLL_S = 0.005
#: Slots of the table of moves being searched (32 KB, cleared per search).
BUSY_SLOTS = 4093
#: How many plies below the searched position a node shares out its moves.
#: Deeper nodes are small: deferring their moves costs more than the work it
#: shares (positions summed over 2 threads against one thread's: Domineering
#: 7x6 +4% at 6 plies, +5-11% at 12; Connect Four L1_R2 +13-19% at 6,
#: +15-19% at 12; benchmarks/README.md).
SHARE_PLIES = 6

_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_size = 0
_pool_lock = threading.Lock()


def _executor(size: int) -> concurrent.futures.ThreadPoolExecutor:
    """The process's threads for lanes, at least ``size`` of them (made once
    and kept: starting a thread costs milliseconds on a busy machine)."""
    global _pool, _pool_size
    with _pool_lock:
        if _pool is None or _pool_size < size:
            _pool = concurrent.futures.ThreadPoolExecutor(size, thread_name_prefix="zerosum-lane")
            _pool_size = size
        return _pool


class Lane:
    """One thread's scratch: what the kernel writes besides the table."""

    def __init__(self, prims: Any) -> None:
        plies = prims.max_plies + 4
        self.S = np.zeros((plies, prims.words), dtype=np.uint64)
        self.fr = np.zeros((plies, FRAME_FIELDS), dtype=np.int64)
        self.mv = np.zeros((plies, prims.max_moves), dtype=np.int32)
        self.killers = np.full((plies, 2), -1, dtype=np.int64)
        self.history = np.zeros((2, prims.move_codes), dtype=np.int64)
        self.pv = np.zeros((plies, plies), dtype=np.int32)
        self.pvlen = np.zeros(plies, dtype=np.int64)
        self.counters = np.zeros(8, dtype=np.int64)
        self.fk = np.zeros(plies, dtype=np.uint64)


class Lanes:
    """``threads`` lanes of one search core, and the race that runs them.

    ``flags`` is the kernel's ``options`` array for all of them (shared: it
    holds the table of moves being searched, :func:`shared_flags`)."""

    def __init__(self, prims: Any, threads: int, flags: Any) -> None:
        self.lanes = [Lane(prims) for _ in range(threads)]
        self.flags = flags
        #: The lanes' stop flag.
        self.stop = np.zeros(1, dtype=np.int64)

    def race(
        self,
        call: Callable[[Lane, Any, int], Any],
        done: Callable[[Any], bool],
        engine_stop: Any,
        counters: Any,
        node_limit: int,
    ) -> tuple[int, list[Any]]:
        """Run ``call(lane, stop, node_limit)`` on every lane at once; a
        result for which ``done`` holds ends the race. Returns the index of
        the lane that finished first (-1 when every lane was stopped: the
        engine's flag, or the node budget) and every lane's result. The
        lanes' counters are added to ``counters`` (see the module
        docstring)."""
        lanes = self.lanes
        stop = self.stop
        stop[0] = 0
        self.flags[O_BUSY:] = 0
        left = max(0, node_limit - int(counters[0]))
        share = max(1, left // len(lanes))
        results: list[Any] = [None] * len(lanes)
        first = [-1]
        lock = threading.Lock()

        def run(index: int) -> None:
            lane = lanes[index]
            lane.counters[:] = 0
            result = call(lane, stop, share)
            results[index] = result
            if done(result):
                with lock:
                    if first[0] < 0:
                        first[0] = index
                        stop[0] = 1

        futures = [_executor(len(lanes)).submit(run, i) for i in range(len(lanes))]
        pending: set[Any] = set(futures)
        while pending:
            _finished, pending = concurrent.futures.wait(pending, timeout=POLL_S)
            if engine_stop[0] != 0:
                stop[0] = 1
        for future in futures:
            future.result()  # an error in a lane is raised here
        winner = first[0]
        for lane in lanes:
            counters[:C_HORIZON] += lane.counters[:C_HORIZON]
        if winner >= 0:
            counters[C_HORIZON] += lanes[winner].counters[C_HORIZON]
        return winner, results


def shared_flags(switches: list[int], threads: int) -> Any:
    """The kernel's ``options`` array: ``switches`` (hooks, killers,
    history, PVS, table), and for more than one thread the plies that share
    out moves and the table of moves being searched."""
    if threads <= 1:
        return np.array(switches, dtype=np.int64)
    flags = np.zeros(O_BUSY + BUSY_SLOTS, dtype=np.int64)
    flags[: len(switches)] = switches
    flags[O_SHARE] = SHARE_PLIES
    return flags


def aborted(value: Any) -> bool:
    """Whether a kernel's value says it was stopped."""
    return bool(value == ABORTED)
