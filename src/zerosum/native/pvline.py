"""The table's line, compiled: the best moves that the transposition table
holds from a position, followed in one call.

The Python root code asks for it after every solve and for every line of an
analysis (``CoreReports.table_line``). Followed from Python it costs a key,
a table read and a legality check per move, about 20 µs a solve on Connect
Four's short end-game lines, as much as the search of an easy position;
compiled it costs well under a microsecond a move.

:func:`line_kernel_for` returns ``table_line(g, S, tt, clock, symmetric,
length, out, moves) -> n``: from the state in ``S[0]``, while the game goes
on and ``n < length``, the entry of the position (its canonical key when
``symmetric``) must exist and be live (``clock``: the table's), hold a
move and a proven lower bound, and the move must be legal (``gen``); the
move's code goes into ``out[n]`` and the next state into ``S[n + 1]``.
``moves`` is a move buffer (``max_moves`` long). This is
``CoreReports.table_line``'s rule, so both give the same line.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..search.ttformat import NO_LOWER
from ..search.types import MAX_PLY
from .binding import bind, primitives_digest
from .contract import ONGOING, Primitives
from .kernel import announce_compiling, identity_key, same_move
from .table import entry_generation, entry_lower, entry_move, is_live

#: A lower bound at most this is none (as ``NativeCore.stored_move``).
NO_PROOF = NO_LOWER + MAX_PLY

# The game's primitives, as seen by the template (each game type's copy
# gets its own; these placeholders are never used).
gen: Any = None
play: Any = None
status: Any = None
key_of: Any = None
canonical: Any = None
map_move: Any = None

_kernels: dict[str, Any] = {}


def line_kernel_for(kind: str, prims: Primitives) -> Any:
    """The compiled line follower for one game type (made once per process;
    numba caches it on disk). Games without symmetry get placeholders that
    are never called."""
    if kind not in _kernels:
        names = dict(globals())
        names.update(
            gen=prims.gen,
            play=prims.play,
            status=prims.status,
            key_of=prims.key,
            canonical=prims.canonical or identity_key,
            map_move=prims.map_move or same_move,
        )
        tag = f"{kind}_{primitives_digest(prims)}"
        _kernels[kind] = bind(_table_line, f"table_line_{tag}", names)
        announce_compiling(kind, _kernels[kind])
    return _kernels[kind]


def _table_line(
    g: Any, S: Any, tt: Any, clock: int, symmetric: bool, length: int, out: Any, moves: Any
) -> Any:
    size = np.uint64(tt.shape[0])
    n = 0
    limit = min(length, S.shape[0] - 1, out.shape[0])
    while n < limit:
        s = S[n]
        if status(g, s) != ONGOING:
            break
        trans = 0
        if symmetric:
            k, trans = canonical(g, s)
        else:
            k = key_of(g, s)
        slot = np.int64(k % size)
        data = tt[slot, 1]
        if data == 0 or (tt[slot, 0] ^ data) != k or not is_live(entry_generation(data), clock):
            break
        move = entry_move(data)
        if move < 0 or entry_lower(data) <= NO_PROOF:
            break
        if symmetric:
            move = map_move(g, move, trans, True)
        legal = False
        for i in range(gen(g, s, moves)):
            if moves[i] == move:
                legal = True
                break
        if not legal:
            break
        out[n] = move
        play(g, s, move, S[n + 1])
        n += 1
    return n
