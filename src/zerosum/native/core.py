"""The engine's search core on the native backend.

:class:`NativeCore` offers what the engine's root code (iterative deepening,
analysis, the solver's probes: ``zerosum.search.engine`` and ``solver``)
asks of the Python core: ``child_value`` (one compiled search of a root
move's position), the counters, the principal variation, the table's move
and line. So both backends share every line of the root logic, and give the
same values, progress records and limits.

Time limits and ``Engine.stop()`` reach the compiled search through a flag
it polls (every 256 positions): the deadline is a timer thread that sets it,
so the kernel runs without the GIL and needs no clock.
"""

from __future__ import annotations

import contextlib
import heapq
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..game import Game
from ..search.node import CoreReports
from ..search.ttformat import NO_LOWER
from ..search.types import MAX_PLY, loss_in, win_in
from .kernel import ABORTED, UNLIMITED_N, kernel_for
from .probe import strong_kernel_for
from .pvline import line_kernel_for
from .smp import Lane, Lanes, aborted, shared_flags
from .table import NativeTable


class _Watcher:
    """One daemon thread for every search's deadline: it sleeps until the
    earliest one and calls its function (a thread per search would cost
    milliseconds to start on a busy machine).

    Nothing may stop this thread, since every later search in the process
    relies on it: it sleeps at most :data:`LONGEST_SLEEP` at a time (a
    deadline 9.2e9 s away once overflowed the lock's timeout and killed it),
    an error in a function is ignored, and :meth:`add` starts a new thread if
    the last one died all the same."""

    LONGEST_SLEEP = 60.0

    def __init__(self) -> None:
        self._due: list[tuple[float, int, Any]] = []
        self._count = 0
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def add(self, deadline: float, expire: Any) -> None:
        """Call ``expire`` (a bound method, held weakly: a finished search's
        core and its table are not kept alive until its deadline) then."""
        with self._wake:
            self._count += 1
            heapq.heappush(self._due, (deadline, self._count, weakref.WeakMethod(expire)))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="zerosum-deadlines", daemon=True
                )
                self._thread.start()
            self._wake.notify()

    def alive(self) -> bool:
        """Whether the thread runs (it starts with the first deadline)."""
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._due:
                    self._wake.wait()
                deadline, _n, expire = self._due[0]
                left = deadline - time.perf_counter()
                if left > 0:
                    self._wake.wait(min(left, self.LONGEST_SLEEP))
                    continue
                heapq.heappop(self._due)
            function = expire()
            if function is not None:
                # the thread serves every later search: an error here ends nothing
                with contextlib.suppress(Exception):
                    function()


_WATCHER = _Watcher()


class NativeCore(CoreReports):
    """One search on the native backend (see the module docstring). Built by
    the engine's ``start_search``; raises the engine's ``Stop`` from
    ``child_value`` when the search must end."""

    def __init__(
        self,
        game: Any,
        adapter: Any,
        options: Any,
        table: NativeTable | None,
        stop_flag: Any,
        deadline: float | None,
        node_limit: int | None,
        stop_exception: type[Exception],
    ) -> None:
        self.game = game
        self.adapter = adapter
        self.table = table
        prims = adapter.prims
        self.prims = prims
        self.g = adapter.constants
        # Left at None, the symmetric table is on where the game asks for it
        # or where the native primitives make it cheap although the Python
        # game's canonical is not (an adapter's ``symmetric``: Othello's
        # compiled canonical is the plain key after the opening).
        if options.symmetry is None:
            wanted = game.symmetric_search or getattr(adapter, "symmetric", False)
        else:
            wanted = options.symmetry
        self.symmetric = bool(wanted and table is not None and prims.canonical is not None)
        self.kernel = kernel_for(adapter.kind, prims)
        # This thread's scratch: the same arrays as each other thread's lane.
        own = Lane(prims)
        self.S, self.fr, self.mv, self.fk = own.S, own.fr, own.mv, own.fk
        self.killers, self.history, self.counters = own.killers, own.history, own.counters
        self.pv, self.pvlen = own.pv, own.pvlen
        # More than one thread shares the table (smp.py); none to share, one.
        self.threads = max(1, getattr(options, "threads", 1)) if table is not None else 1
        self.flags = shared_flags(
            [options.hooks, options.killers, options.history, options.pvs, table is not None],
            self.threads,
        )
        self._lanes = Lanes(prims, self.threads, self.flags) if self.threads > 1 else None
        # Without a table: one slot, which the kernel never uses (flags[4]).
        self._tt = table.slots if table is not None else np.zeros((1, 2), np.uint64)
        # The table's generation and which older ones are live (ttformat).
        self._clock = table.clock if table is not None else 0
        self.stop_flag = stop_flag
        self.node_limit = node_limit if node_limit is not None else 1 << 62
        self._stop_exception = stop_exception
        self._active = True
        if deadline is not None:
            _WATCHER.add(deadline, self._expire)
        root_hooks = options.hooks
        game_type = type(game)
        self.use_win = root_hooks and game_type.winning_action is not Game.winning_action
        self.use_nl = root_hooks and game_type.non_losing_actions is not Game.non_losing_actions
        nl_top = 3 if game.mover_wins_only else 2
        nl_bottom = 4 if game.mover_wins_only else 1
        self.nl_bounds = (loss_in(nl_bottom), win_in(nl_top))
        self.gen_moves = game.ordered_actions if options.static_order else game.actions
        self._line_kernel: Any = None
        self._line: Any = None
        self._strong_kernel: Any = None
        self._root_nodes = 0

    def _expire(self) -> None:
        if self._active:  # not a later search's flag
            self.stop_flag[0] = 1

    def close(self) -> None:
        """The search is over: its deadline must not stop a later one."""
        self._active = False

    # -- the search ------------------------------------------------------------
    def child_value(self, child: Any, cs: int, me: int, depth: int, alpha: int, beta: int) -> int:
        """The value for the root's side ``me`` of the root move leading to
        ``child``, with the engine's fail-soft contract on ``(alpha, beta)``."""
        if self.stop_flag[0]:
            raise self._stop_exception
        self.S[1, :] = self.adapter.encode(child)
        self.pvlen[1] = 0
        d = depth if depth < UNLIMITED_N else UNLIMITED_N
        negate = cs != me
        a, b = (-beta, -alpha) if negate else (alpha, beta)
        if self._lanes is not None:
            value = self._threaded_value(d, a, b)
            return int(-value if negate else value)
        value = self.kernel(
            self.g, self.S, 1, d, a, b, False,
            self._tt, self.fk, self._clock, self.symmetric, self.flags,
            self.fr, self.mv, self.killers, self.history, self.pv, self.pvlen,
            self.counters, self.stop_flag, self.node_limit,
        )
        if value == ABORTED:
            raise self._stop_exception
        return int(-value if negate else value)

    def _threaded_value(self, depth: int, alpha: int, beta: int) -> Any:
        """The kernel's value of ``S[1]`` on every lane (smp.py); the first
        lane's to finish, its principal variation copied to this core's."""
        assert self._lanes is not None
        row = self.S[1]
        kernel, g, tt, clock, symmetric, flags = (
            self.kernel, self.g, self._tt, self._clock, self.symmetric, self.flags,
        )

        def search(lane: Lane, stop: Any, limit: int) -> Any:
            lane.S[1, :] = row
            lane.pvlen[1] = 0
            return kernel(
                g, lane.S, 1, depth, alpha, beta, False,
                tt, lane.fk, clock, symmetric, flags,
                lane.fr, lane.mv, lane.killers, lane.history, lane.pv, lane.pvlen,
                lane.counters, stop, limit,
            )

        winner, values = self._lanes.race(
            search, lambda v: not aborted(v), self.stop_flag, self.counters, self.node_limit
        )
        if winner < 0:
            raise self._stop_exception
        lane = self._lanes.lanes[winner]
        n = int(lane.pvlen[1])
        self.pvlen[1] = n
        self.pv[1, :n] = lane.pv[1, :n]
        return values[winner]

    def solve_strong(
        self,
        children: list[tuple[Any, Any, int]],
        me: int,
        lower: int,
        upper: int,
        horizon: int,
        depth: int,
    ) -> tuple[bool, int, int, int]:
        """The solver's strong loop in one compiled call (:mod:`.probe`):
        probes at the root over ``children`` (``(move, state, mover)``, in
        search order: reordered in place as the Python loop does) until
        ``lower == upper``. Returns whether it was stopped, the bounds proven
        and the index in ``children`` (as given) of the move proven to reach
        ``lower`` in the last probe that raised it (-1 if none)."""
        if self._strong_kernel is None:
            self._strong_kernel = strong_kernel_for(self.adapter.kind, self.prims, self.kernel)
        encode = self.adapter.encode
        count = len(children)
        rows = np.array([encode(child) for _m, child, _c in children], dtype=np.uint64)
        negate = np.array([mover != me for _m, _c, mover in children], dtype=np.bool_)
        order = np.arange(count, dtype=np.int64)
        d = depth if depth < UNLIMITED_N else UNLIMITED_N
        if self._lanes is not None:
            stopped, lower, upper, best, order = self._threaded_strong(
                rows.reshape(count, self.prims.words), negate, order, lower, upper, horizon, d
            )
            children[:] = [children[i] for i in order]
            return stopped, lower, upper, best
        stopped, lower, upper, best = self._strong_kernel(
            rows.reshape(count, self.prims.words), negate, order, lower, upper, horizon, -1, d,
            self.g, self.S, self._tt, self.fk, self._clock, self.symmetric, self.flags,
            self.fr, self.mv, self.killers, self.history, self.pv, self.pvlen,
            self.counters, self.stop_flag, self.node_limit,
        )
        children[:] = [children[i] for i in order]
        return bool(stopped), int(lower), int(upper), int(best)

    def _threaded_strong(
        self, rows: Any, negate: Any, order: Any, lower: int, upper: int, horizon: int,
        depth: int,
    ) -> tuple[bool, int, int, int, Any]:
        """The strong loop on every lane (smp.py), each with its own copy of
        ``order``: the first lane's to finish; when all were stopped, the
        narrowest bounds one of them proved."""
        assert self._lanes is not None
        strong, g, tt, clock, symmetric, flags = (
            self._strong_kernel, self.g, self._tt, self._clock, self.symmetric, self.flags,
        )

        def loop(lane: Lane, stop: Any, limit: int) -> Any:
            mine = order.copy()
            found = strong(
                rows, negate, mine, lower, upper, horizon, -1, depth,
                g, lane.S, tt, lane.fk, clock, symmetric, flags,
                lane.fr, lane.mv, lane.killers, lane.history, lane.pv, lane.pvlen,
                lane.counters, stop, limit,
            )
            return (*found, mine)

        winner, results = self._lanes.race(
            loop, lambda r: not r[0], self.stop_flag, self.counters, self.node_limit
        )
        if winner < 0:
            winner = min(range(len(results)), key=lambda i: results[i][2] - results[i][1])
        stopped, low, high, best, mine = results[winner]
        return bool(stopped), int(low), int(high), int(best), mine

    def count_root(self) -> None:
        self.counters[0] += 1

    # -- lines and the table ------------------------------------------------------
    def line(self, root: Any, move: Any, length: int) -> tuple[Any, ...]:
        """The principal variation of a root move just searched with an open
        window, extended through the table where it was cut short."""
        action = self.adapter.action
        below = tuple(action(int(c)) for c in self.pv[1, : self.pvlen[1]])
        line = (move, *below)[:length]
        return line + self.table_line(root, line, length - len(line))

    def table_line(self, root: Any, prefix: Sequence[Any], length: int) -> tuple[Any, ...]:
        """As ``CoreReports.table_line`` (the same rule, the same line),
        followed by compiled code (:mod:`.pvline`) in one call."""
        if length <= 0 or self.table is None:
            return ()
        state = root
        for move in prefix:
            state = self.game.result(state, move)
        if self._line_kernel is None:
            self._line_kernel = line_kernel_for(self.adapter.kind, self.prims)
            self._line = np.zeros(self.S.shape[0], dtype=np.int32)
        self.S[0, :] = self.adapter.encode(state)
        n = self._line_kernel(
            self.g, self.S, self._tt, self._clock, self.symmetric, min(length, MAX_PLY),
            self._line, self.mv[0],
        )
        action = self.adapter.action
        return tuple(action(int(code)) for code in self._line[:n])

    def stored_move(self, state: Any, proven: bool) -> Any:
        """The table's best move for ``state`` (None if none), as a Python
        move; with ``proven`` only from an entry with a lower bound (one
        whose move is known to be best)."""
        if self.table is None:
            return None
        row = np.array(self.adapter.encode(state), dtype=np.uint64)
        if self.symmetric:
            key, transform = self.prims.canonical(self.g, row)
        else:
            key, transform = self.prims.key(self.g, row), 0
        found = self.table.entry(int(key))
        if found is None or found.move < 0:
            return None
        if proven and found.lower <= NO_LOWER + MAX_PLY:
            return None
        code = found.move
        if self.symmetric:
            code = int(self.prims.map_move(self.g, code, transform, True))
        return self.adapter.action(code)


    def counts(self) -> tuple[int, int, int, int, int, int]:
        """Positions, leaves, cut-offs, table probes, table hits, horizon."""
        c = self.counters
        return int(c[0]), int(c[1]), int(c[2]), int(c[3]), int(c[4]), int(c[5])


def warm_up(game: Any, adapter: Any, options: Any) -> None:
    """Compile (or load from numba's cache) the game's kernel now, so that
    the first search's clock does not run while it compiles: one search of
    depth 1 from the start, with no table."""
    core = NativeCore(game, adapter, options, None, np.zeros(1, np.int64), None, None, Exception)
    state = game.initial_state()
    if not game.is_terminal(state):
        core.child_value(state, 1, 0, 1, -(10**7), 10**7)
    # The solver's strong loop (an empty range: no probe).
    rows = np.zeros((1, adapter.prims.words), np.uint64)
    strong_kernel_for(adapter.kind, adapter.prims, core.kernel)(
        rows, np.zeros(1, np.bool_), np.zeros(1, np.int64), 0, 0, 1, -1, 1,
        core.g, core.S, core._tt, core.fk, 0, False, core.flags,
        core.fr, core.mv, core.killers, core.history, core.pv, core.pvlen,
        core.counters, core.stop_flag, core.node_limit,
    )
    # The root code follows the table's line after a search.
    core.S[0, :] = adapter.encode(state)
    line_kernel_for(adapter.kind, adapter.prims)(
        core.g, core.S, core._tt, 0, False, 1, np.zeros(1, np.int32), core.mv[0]
    )
    # The root code also asks the table's key from Python (table_move).
    row = np.array(adapter.encode(state), dtype=np.uint64)
    adapter.prims.key(adapter.constants, row)
    if adapter.prims.canonical is not None:
        adapter.prims.canonical(adapter.constants, row)
