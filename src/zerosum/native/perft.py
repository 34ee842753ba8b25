"""Move-sequence counts (perft) through a game's compiled primitives: the
tests' check of each native move generator against the Python game's
(published counts where they exist).

:func:`walk` counts, per ply from the root, the positions reached (the
move sequences of exactly that many plies in which the game did not end
before the last ply: ``zerosum.search.perft.perft``) and how many of them
end the game. It runs on an explicit stack, compiled once per game type
(:mod:`.binding`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .binding import bind, primitives_digest
from .contract import ONGOING, Primitives

# The game's primitives, as the template sees them (bound per game type).
gen: Any = None
play: Any = None
status: Any = None

_kernels: dict[str, Any] = {}


def _walk(g: Any, root: Any, depth: int, max_moves: int) -> Any:
    """Positions reached and games ended at each ply ``0..depth``."""
    rows = np.empty((depth + 1, root.shape[0]), dtype=np.uint64)
    moves = np.empty((depth + 1, max_moves), dtype=np.int32)
    count = np.zeros(depth + 1, dtype=np.int64)
    nxt = np.zeros(depth + 1, dtype=np.int64)
    nodes = np.zeros(depth + 1, dtype=np.int64)
    ends = np.zeros(depth + 1, dtype=np.int64)
    rows[0, :] = root
    nodes[0] = 1
    if status(g, rows[0]) != ONGOING:
        ends[0] = 1
        return nodes, ends
    if depth == 0:
        return nodes, ends
    count[0] = gen(g, rows[0], moves[0])
    ply = 0
    while ply >= 0:
        if nxt[ply] == count[ply]:
            ply -= 1
            continue
        move = moves[ply, nxt[ply]]
        nxt[ply] += 1
        child = ply + 1
        play(g, rows[ply], move, rows[child])
        nodes[child] += 1
        if status(g, rows[child]) != ONGOING:
            ends[child] += 1
        elif child < depth:
            count[child] = gen(g, rows[child], moves[child])
            nxt[child] = 0
            ply = child
    return nodes, ends


def _kernel(kind: str, prims: Primitives) -> Any:
    if kind not in _kernels:
        names = dict(globals())
        names.update(gen=prims.gen, play=prims.play, status=prims.status)
        _kernels[kind] = bind(_walk, f"walk_{kind}_{primitives_digest(prims)}", names)
    return _kernels[kind]


def walk(adapter: Any, state: Any, depth: int) -> tuple[list[int], list[int]]:
    """``(positions, ends)`` per ply ``0..depth`` from ``state`` (a Python
    state of ``adapter``'s game)."""
    root = np.array(adapter.encode(state), dtype=np.uint64)
    kernel = _kernel(adapter.kind, adapter.prims)
    nodes, ends = kernel(adapter.constants, root, depth, adapter.prims.max_moves)
    return [int(n) for n in nodes], [int(n) for n in ends]
