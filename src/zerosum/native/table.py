"""The native transposition table: parallel numpy arrays, one slot per
index, sized in megabytes.

The entries hold what the Python table's tuples hold (``search/tt.py``, whose
docstring states the replacement policy, kept here): the full 64-bit key,
the lower and upper bounds (decisive values relative to the position), the
depth searched (:data:`~zerosum.search.tt.DEPTH_INF` for a result no
heuristic leaf influenced), the best move's code (-1: none) and the
generation (the search that stored it). An empty slot has depth 0 (a
stored entry's depth is at least 1: positions at the depth limit are scored,
not stored), so a new table is all zeros, which the operating system hands
out lazily: a 64 MB table costs nothing until the search touches it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..search.tt import _odd_size, check_megabytes

#: Bytes per slot: key 8, bounds 2 x 4, depth 4, move 2, generation 2.
ENTRY_BYTES = 24
#: The default table: 64 MB, about 2.8 million slots; for games of at most
#: :data:`SHORT_GAME` plies, 2 MB (a big table's pages would cost a small
#: search more than it saves: each first touch of a page is a page fault).
DEFAULT_MB = 64.0
SMALL_MB = 2.0
SHORT_GAME = 16


def default_megabytes(max_plies: int) -> float:
    """The table size used when none is given, for a game whose games last
    at most ``max_plies`` plies."""
    return SMALL_MB if max_plies <= SHORT_GAME else DEFAULT_MB


@dataclass
class NativeTable:
    """The arrays of one table (``size`` slots) and its generation."""

    size: int
    keys: Any
    lower: Any
    upper: Any
    depth: Any
    move: Any
    gen: Any
    generation: int = 0

    @classmethod
    def of_megabytes(cls, megabytes: float) -> NativeTable:
        """A table filling ``megabytes`` (checked against the machine's
        memory: a one-line error rather than an attempt)."""
        slots = max(11, int(check_megabytes(megabytes) * 2**20) // ENTRY_BYTES)
        size = _odd_size(slots)
        table = cls(
            size=size,
            keys=np.zeros(size, dtype=np.uint64),
            lower=np.zeros(size, dtype=np.int32),
            upper=np.zeros(size, dtype=np.int32),
            depth=np.zeros(size, dtype=np.int32),
            move=np.zeros(size, dtype=np.int16),
            gen=np.zeros(size, dtype=np.int16),
        )
        return table

    def new_search(self) -> int:
        """Open a new generation (entries of older ones become replaceable)."""
        self.generation = (self.generation + 1) % 32000
        return self.generation

    def clear(self) -> None:
        self.depth.fill(0)
        self.generation = 0

    def __len__(self) -> int:
        return int(np.count_nonzero(self.depth))
