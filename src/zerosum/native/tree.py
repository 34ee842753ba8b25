"""Monte Carlo tree search with its tree in compiled code.

The same algorithm as :mod:`zerosum.search.mcts` (UCT, one uniformly random
playout per iteration, the score-bounded MCTS-Solver with distances), with
the tree held in numpy arrays and every iteration -- selection, expansion,
playout, backpropagation, proofs -- inside one compiled function, so that
an iteration costs what its playout costs. The Python side
(:class:`NativeTree`) calls it in chunks of iterations, looking at the
clock, ``stop()`` and progress between chunks, and reads the root's children
back as the Python search's results.

One difference from the Python tree: a node's children are all created
when it is first expanded (the node's second visit; the root at once), and
its unvisited children are tried first, in random order -- the usual array
layout. The tree is reused between searches as the Python one is
(:meth:`NativeTree.reroot` moves the subtree of the new position, in
breadth-first order, to the front of the arrays).

Node arrays (``capacity`` nodes; node 0 the root): ``states`` (the position
as its words), ``parent``, ``first``/``count`` (the children, contiguous),
``move`` (the move code from the parent), ``visits``, ``reward`` (total
result for the player who moved into the node: win 1, draw 1/2),
``pess``/``opti`` (proven bounds on its outcome for that player: -1, 0, +1),
``dist`` and ``exact`` (plies to the end along the proof and whether that is
exact), ``depth`` (plies below the root: turns alternate, so it tells whose
node it is).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from .binding import primitives_digest
from .contract import ONGOING, Primitives
from .kernel import announce_compiling
from .playout import MULTIPLIER, bind_game

# As in :mod:`.playout`: the primitives bound per game kind as globals.
gen: Any = None
play: Any = None
status: Any = None

#: Counters of a search, in the ``counters`` array.
C_NODES, C_DONE, C_PLAYOUTS, C_EXHAUSTED = 0, 1, 2, 3

_kernels: dict[str, Callable[..., Any]] = {}


def _iterate(  # pragma: no cover - compiled
    g: Any,
    iterations: int,
    c: float,
    seed: Any,
    counters: Any,
    states: Any,
    parent: Any,
    first: Any,
    count: Any,
    move: Any,
    visits: Any,
    reward: Any,
    pess: Any,
    opti: Any,
    dist: Any,
    exact: Any,
    depth: Any,
    max_moves: int,
) -> None:
    """Run ``iterations`` more iterations on the tree (see the module
    docstring); stops early once every root move is proven
    (``counters[C_EXHAUSTED]`` is then 1)."""
    capacity = parent.shape[0]
    words = states.shape[1]
    moves = np.empty(max_moves, np.int32)
    a = np.empty(words, np.uint64)
    b = np.empty(words, np.uint64)
    x = seed[0]
    for _it in range(iterations):
        # -- selection (and expansion) ---------------------------------------
        node = 0
        while True:
            if node != 0 and pess[node] == opti[node]:
                break  # proven: its value is the result
            if first[node] < 0:
                if node != 0 and visits[node] == 0:
                    break  # a new leaf: played out from here
                nodes = counters[C_NODES]
                if nodes + max_moves > capacity:
                    break  # the tree is full: played out from here
                n = gen(g, states[node], moves)
                first[node] = nodes
                count[node] = n
                for i in range(n):
                    ch = nodes + i
                    play(g, states[node], moves[i], states[ch])
                    parent[ch] = node
                    first[ch] = -1
                    count[ch] = 0
                    move[ch] = moves[i]
                    visits[ch] = 0.0
                    reward[ch] = 0.0
                    depth[ch] = depth[node] + 1
                    dist[ch] = 0
                    exact[ch] = True
                    st = status(g, states[ch])
                    if st != ONGOING:
                        # st is for the side to move there; the owner moved last
                        pess[ch] = -st
                        opti[ch] = -st
                    else:
                        pess[ch] = -1
                        opti[ch] = 1
                counters[C_NODES] = nodes + n
            # UCT among the children worth searching
            lo = first[node]
            n = count[node]
            # the chooser's proven floor (node's bounds are for its owner)
            floor = -2 if node == 0 else -opti[node]
            logn = np.log(max(visits[node], 1.0))
            best = -1
            best_value = -1.0
            x ^= x >> np.uint64(12)
            x ^= x << np.uint64(25)
            x ^= x >> np.uint64(27)
            offset = np.int64(((x * np.uint64(MULTIPLIER)) >> np.uint64(33)) % np.uint64(n))
            for j in range(n):
                ch = lo + (offset + j) % n
                if opti[ch] <= floor or (node == 0 and pess[ch] == opti[ch]):
                    continue
                if visits[ch] == 0.0:
                    best = ch  # untried children first, in random order
                    break
                value = reward[ch] / visits[ch] + c * np.sqrt(logn / visits[ch])
                if value > best_value:
                    best_value = value
                    best = ch
            if best < 0:
                counters[C_EXHAUSTED] = 1  # the root: every move proven
                seed[0] = x
                return
            node = best

        # -- the result for the node's owner ------------------------------------------
        if pess[node] == opti[node]:
            r = (pess[node] + 1) * 0.5
        else:
            for w in range(words):
                a[w] = states[node, w]
            ply = 0
            while True:
                st = status(g, a)
                if st != ONGOING:
                    break
                m = gen(g, a, moves)
                x ^= x >> np.uint64(12)
                x ^= x << np.uint64(25)
                x ^= x >> np.uint64(27)
                k = (x * np.uint64(MULTIPLIER)) >> np.uint64(33)
                play(g, a, moves[np.int64(k % np.uint64(m))], b)
                a, b = b, a
                ply += 1
            # st is for the side to move at the end; at the node that side
            # is the owner's opponent when ply is even
            u = -st if ply % 2 == 0 else st
            r = (u + 1) * 0.5
            counters[C_PLAYOUTS] += 1
        counters[C_DONE] += 1

        # -- backpropagation, and proofs (score-bounded MCTS-Solver) --------------------
        proven = pess[node] == opti[node]
        v = node
        while True:
            visits[v] += 1.0
            reward[v] += r
            r = 1.0 - r
            if v == 0:
                break
            p = parent[v]
            if proven and p != 0 and pess[p] != opti[p]:
                lo = first[p]
                n = count[p]
                best_lo = -2
                best_hi = -2
                for j in range(n):
                    ch = lo + j
                    best_lo = max(best_lo, pess[ch])
                    best_hi = max(best_hi, opti[ch])
                new_pess = -best_hi
                new_opti = -best_lo
                if new_pess != pess[p] or new_opti != opti[p]:
                    pess[p] = new_pess
                    opti[p] = new_opti
                    if new_pess == new_opti:
                        value = best_lo  # for the chooser at p
                        if value == 0:
                            dist[p] = 0
                            exact[p] = True
                        else:
                            d = -1
                            complete = True
                            for j in range(n):
                                ch = lo + j
                                if pess[ch] != opti[ch] or not exact[ch]:
                                    complete = False
                                if (pess[ch] == value and opti[ch] == value) and (
                                    d < 0
                                    or (value > 0 and dist[ch] < d)
                                    or (value < 0 and dist[ch] > d)
                                ):
                                    d = dist[ch]
                            dist[p] = d + 1
                            exact[p] = complete or (value > 0 and d == 0)
                else:
                    proven = False
            elif p != 0:
                proven = False
            v = p
    seed[0] = x


@njit(cache=True, nogil=True)
def _line(  # pragma: no cover - compiled
    node: int, first: Any, count: Any, visits: Any, reward: Any, pess: Any, opti: Any,
    dist: Any, out: Any,
) -> int:
    """The line below ``node`` along the best children, as the Python
    search ranks them (``zerosum.search.mcts._rank``: proven wins quickest
    first; unproven moves that may win and win at least half their playouts,
    most visited first; proven draws; the other unproven moves; proven
    losses, slowest first), skipping unvisited unproven children; node
    indices into ``out``, returns how many."""
    length = 0
    while length < out.shape[0] and first[node] >= 0:
        best = -1
        bk0 = -1.0
        bk1 = 0.0
        bk2 = 0.0
        for ch in range(first[node], first[node] + count[node]):
            proven = pess[ch] == opti[ch]
            if not proven and visits[ch] == 0.0:
                continue
            if proven and pess[ch] > 0:
                k0, k1, k2 = 5.0, -float(dist[ch]), 0.0
            elif proven and pess[ch] < 0:
                k0, k1, k2 = 0.0, float(dist[ch]), 0.0
            elif proven:
                k0, k1, k2 = 3.0, 0.0, 0.0
            else:
                rate = reward[ch] / visits[ch]
                k0 = 4.0 if opti[ch] > 0 and rate >= 0.5 else 2.0
                k1, k2 = visits[ch], rate
            if best < 0 or (k0, k1, k2) > (bk0, bk1, bk2):
                best, bk0, bk1, bk2 = ch, k0, k1, k2
        if best < 0:
            break
        out[length] = best
        length += 1
        node = best
    return length


@njit(cache=True, nogil=True)
def _subtree(root: int, first: Any, count: Any, order: Any) -> int:  # pragma: no cover
    """The nodes below ``root`` (itself first) in breadth-first order, into
    ``order``; returns how many. Each node's children stay contiguous in
    this order, as the tree's layout needs."""
    order[0] = root
    n = 1
    i = 0
    while i < n:
        u = order[i]
        i += 1
        if first[u] >= 0:
            for j in range(count[u]):
                order[n] = first[u] + j
                n += 1
    return n


def kernel_for(kind: str, prims: Primitives) -> Callable[..., Any]:
    """The compiled tree search for one game kind, made once per process
    (numba's disk cache keeps it across processes)."""
    if kind not in _kernels:
        name = f"mcts_{kind}_{primitives_digest(prims)}"
        _kernels[kind] = bind_game(_iterate, name, prims, globals())
        announce_compiling(f"{kind} (MCTS)", _kernels[kind])  # once with the playouts'
    return _kernels[kind]


class NativeTree:
    """One search's tree in arrays, for one game (through its adapter)."""

    def __init__(self, adapter: Any, capacity: int) -> None:
        self.adapter = adapter
        self.kernel = kernel_for(adapter.kind, adapter.prims)
        words = adapter.prims.words
        self.capacity = capacity
        self.states = np.zeros((capacity, words), dtype=np.uint64)
        self.parent = np.zeros(capacity, dtype=np.int32)
        self.first = np.full(capacity, -1, dtype=np.int32)
        self.count = np.zeros(capacity, dtype=np.int32)
        self.move = np.zeros(capacity, dtype=np.int32)
        self.visits = np.zeros(capacity, dtype=np.float64)
        self.reward = np.zeros(capacity, dtype=np.float64)
        self.pess = np.full(capacity, -1, dtype=np.int8)
        self.opti = np.ones(capacity, dtype=np.int8)
        self.dist = np.zeros(capacity, dtype=np.int32)
        self.exact = np.ones(capacity, dtype=np.bool_)
        self.depth = np.zeros(capacity, dtype=np.int32)
        self.counters = np.zeros(4, dtype=np.int64)
        self.seed = np.ones(1, dtype=np.uint64)

    def start(self, state: Any, seed: int) -> None:
        """A fresh tree rooted at ``state`` (not over)."""
        self.states[0] = np.array(self.adapter.encode(state), dtype=np.uint64)
        self.first[0] = -1
        self.count[0] = 0
        self.visits[0] = 0.0
        self.reward[0] = 0.0
        self.pess[0], self.opti[0] = -1, 1
        self.counters[:] = 0
        self.counters[C_NODES] = 1
        self.seed[0] = seed | 1

    def reroot(self, state: Any, seed: int, plies: int) -> bool:
        """Keep the subtree of ``state`` when it is among the last root's
        descendants up to ``plies`` below: it becomes the root (node 0),
        the rest is dropped, and the counters restart. False (nothing
        changed) when it is not there."""
        if int(self.counters[C_NODES]) <= 1:
            return False
        words = np.array(self.adapter.encode(state), dtype=np.uint64)
        level = [0]
        found = -1
        for _ply in range(plies + 1):
            for node in level:
                if np.array_equal(self.states[node], words):
                    found = node
                    break
            if found >= 0:
                break
            level = [child for node in level for child in self.children(node)]
        if found < 0 or int(self.first[found]) < 0:
            return False
        order = np.empty(int(self.counters[C_NODES]), dtype=np.int64)
        n = int(_subtree(found, self.first, self.count, order))
        order = order[:n]
        index = np.full(self.capacity, -1, dtype=np.int64)
        index[order] = np.arange(n)
        for field in (
            self.states, self.move, self.visits, self.reward, self.pess, self.opti,
            self.dist, self.exact, self.count, self.depth,
        ):  # fmt: skip
            field[:n] = field[order]
        old_first = self.first[order]
        self.first[:n] = np.where(old_first >= 0, index[np.maximum(old_first, 0)], -1)
        self.parent[:n] = index[self.parent[order]]
        self.parent[0] = 0
        self.depth[:n] -= self.depth[0]
        self.counters[:] = 0
        self.counters[C_NODES] = n
        self.seed[0] = seed | 1
        return True

    def run(self, iterations: int, exploration: float) -> None:
        self.kernel(
            self.adapter.constants, iterations, exploration, self.seed, self.counters,
            self.states, self.parent, self.first, self.count, self.move, self.visits,
            self.reward, self.pess, self.opti, self.dist, self.exact, self.depth,
            self.adapter.prims.max_moves,
        )  # fmt: skip

    @property
    def done(self) -> int:
        return int(self.counters[C_DONE])

    @property
    def playouts(self) -> int:
        return int(self.counters[C_PLAYOUTS])

    @property
    def exhausted(self) -> bool:
        return bool(self.counters[C_EXHAUSTED])

    def root_proven(self) -> bool:
        """Whether the root's value is proven (from its children)."""
        lo, n = int(self.first[0]), int(self.count[0])
        if lo < 0:
            return False
        best_lo = max(int(self.pess[i]) for i in range(lo, lo + n))
        best_hi = max(int(self.opti[i]) for i in range(lo, lo + n))
        return best_lo == best_hi

    def line(self, node: int, longest: int = 64) -> list[int]:
        """The nodes of the line below ``node`` (see :func:`_line`)."""
        out = np.empty(longest, dtype=np.int64)
        n = _line(
            node, self.first, self.count, self.visits, self.reward, self.pess, self.opti,
            self.dist, out,
        )  # fmt: skip
        return [int(i) for i in out[:n]]

    def children(self, node: int) -> list[int]:
        lo = int(self.first[node])
        return [] if lo < 0 else list(range(lo, lo + int(self.count[node])))
