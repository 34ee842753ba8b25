"""Compiled random playouts for Monte Carlo tree search.

A kernel is made once per game kind from its
:class:`~zerosum.native.contract.Primitives` (``gen``, ``play``, ``status``):
one call plays a whole batch of uniformly random games to their end from one
state and returns the sum of their results, so the cost of calling into
compiled code (a few microseconds) is paid once per batch, not per move.

Random numbers come from a xorshift64* generator whose state the caller
seeds (from the search's seeded Python generator, at every call): the same
seed gives the same playouts. For example (needs numba)::

    game = zerosum.load("connect4")
    playouts = NativePlayouts(zerosum.native.adapter_for(game), game.to_move)
    playouts.run(game.initial_state(), 8, random.Random(1))  # player 0's points of 8 games
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from .binding import bind, primitives_digest
from .contract import ONGOING, Primitives
from .kernel import announce_compiling

#: xorshift64* multiplier (Vigna 2016).
MULTIPLIER = 2685821657736338717

_kernels: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {}

# The game's primitives, as the templates below see them: each game kind's
# copy of the templates gets its own (see :func:`kernels_for`; bound as
# globals, not closure cells, so numba's disk cache holds them, as in
# :mod:`.kernel`). Sizes are arguments, not globals: one kind serves every
# board size. These placeholders are never used.
gen: Any = None
play: Any = None
status: Any = None


def _batch(  # pragma: no cover - compiled
    g: Any, start: Any, count: int, seed: Any, max_moves: int
) -> int:
    """``count`` random games from ``start``; returns the sum of their
    results for the side to move at ``start`` (+1 win, 0 draw, -1 loss
    each). ``seed[0]`` (nonzero) is the xorshift64* state, updated."""
    words = start.shape[0]
    a = np.empty(words, np.uint64)
    b = np.empty(words, np.uint64)
    moves = np.empty(max_moves, np.int32)
    x = seed[0]
    total = 0
    for _game in range(count):
        for w in range(words):
            a[w] = start[w]
        ply = 0
        while True:
            st = status(g, a)
            if st != ONGOING:
                break
            n = gen(g, a, moves)
            x ^= x >> np.uint64(12)
            x ^= x << np.uint64(25)
            x ^= x >> np.uint64(27)
            r = (x * np.uint64(MULTIPLIER)) >> np.uint64(33)
            play(g, a, moves[np.int64(r % np.uint64(n))], b)
            a, b = b, a
            ply += 1
        total += st if ply % 2 == 0 else -st
    seed[0] = x
    return total


def _trace(  # pragma: no cover - compiled
    g: Any, start: Any, seed: Any, out: Any, max_moves: int
) -> Any:
    """One random game from ``start``: its move codes into ``out`` (at most
    its length); returns (plies, the final status for the side to move
    there)."""
    words = start.shape[0]
    a = np.empty(words, np.uint64)
    b = np.empty(words, np.uint64)
    moves = np.empty(max_moves, np.int32)
    x = seed[0]
    for w in range(words):
        a[w] = start[w]
    ply = 0
    st = status(g, a)
    while st == ONGOING and ply < out.shape[0]:
        n = gen(g, a, moves)
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        r = (x * np.uint64(MULTIPLIER)) >> np.uint64(33)
        m = moves[np.int64(r % np.uint64(n))]
        out[ply] = m
        play(g, a, m, b)
        a, b = b, a
        ply += 1
        st = status(g, a)
    seed[0] = x
    return ply, st


def kernels_for(kind: str, prims: Primitives) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The playout kernels of one game kind (batch, trace), made once per
    process and compiled on first call (later processes load them from
    numba's disk cache)."""
    if kind not in _kernels:
        tag = f"{kind}_{primitives_digest(prims)}"
        _kernels[kind] = (
            bind_game(_batch, f"playouts_{tag}", prims, globals()),
            bind_game(_trace, f"trace_{tag}", prims, globals()),
        )
        # MCTS's first use compiled for up to a minute without a word
        # (issue 22 item 10): say so once, as the engine's kernels do.
        announce_compiling(f"{kind} (MCTS)", _kernels[kind][0])
    return _kernels[kind]


def bind_game(
    template: Callable[..., Any], name: str, prims: Primitives, names: dict[str, Any]
) -> Callable[..., Any]:
    """:func:`~.binding.bind` with ``names`` plus the game's ``gen``,
    ``play`` and ``status``."""
    scope = dict(names)
    scope.update(gen=prims.gen, play=prims.play, status=prims.status)
    return bind(template, name, scope)


class NativePlayouts:
    """Random playouts of one game in compiled code, through its adapter
    (:func:`zerosum.native.adapter_for`)."""

    def __init__(self, adapter: Any, to_move: Callable[[Any], int]) -> None:
        import numpy as np

        self.np = np
        self.adapter = adapter
        self.to_move = to_move
        self.batch, self.trace_kernel = kernels_for(adapter.kind, adapter.prims)
        self.seed = np.ones(1, dtype=np.uint64)
        self.max_plies = adapter.prims.max_plies
        self.max_moves = adapter.prims.max_moves

    def _start(self, state: Any, rng: random.Random) -> Any:
        # A nonzero generator state drawn from the search's generator.
        self.seed[0] = rng.getrandbits(64) | 1
        return self.np.array(self.adapter.encode(state), dtype=self.np.uint64)

    def run(self, state: Any, count: int, rng: random.Random) -> float:
        """``count`` random games from ``state`` (not over): player 0's
        total result, a win counting 1 and a draw 1/2 (so 0 to ``count``)."""
        total = int(
            self.batch(
                self.adapter.constants, self._start(state, rng), count, self.seed, self.max_moves
            )
        )
        if self.to_move(state) != 0:
            total = -total
        return (total + count) / 2

    def trace(self, state: Any, rng: random.Random) -> tuple[list[Any], int]:
        """One random game from ``state``: its moves (as the Python game's
        moves) and the final status for the side to move at its end (+1,
        0, -1; or ``ONGOING`` if it did not end within ``max_plies``)."""
        out = self.np.zeros(self.max_plies + 1, dtype=self.np.int32)
        plies, status = self.trace_kernel(
            self.adapter.constants, self._start(state, rng), self.seed, out, self.max_moves
        )
        return [self.adapter.action(int(code)) for code in out[: int(plies)]], int(status)
