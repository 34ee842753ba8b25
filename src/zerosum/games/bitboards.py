"""Bitboard helpers shared by the games: applying a board symmetry (a
permutation of cells) to a bitboard quickly.

>>> tables = permutation_tables([2, 1, 0])  # mirror a row of three cells
>>> bin(permute(tables, 0b011))
'0b110'
"""

from __future__ import annotations

from collections.abc import Sequence

#: Bits handled per table lookup.
CHUNK = 8


def permutation_tables(perm: Sequence[int]) -> list[list[int]]:
    """Lookup tables applying the cell permutation ``perm`` (cell ``i`` goes
    to ``perm[i]``) to a bitboard eight bits at a time: ``tables[i][v]`` is
    the image of the bits ``v`` placed at cells ``8i .. 8i+7``."""
    tables = []
    for start in range(0, len(perm), CHUNK):
        width = min(CHUNK, len(perm) - start)
        table = [0] * (1 << width)
        for value in range(1, 1 << width):
            low = value & -value
            table[value] = table[value ^ low] | 1 << perm[start + low.bit_length() - 1]
        tables.append(table)
    return tables


def permute(tables: list[list[int]], bits: int) -> int:
    """Apply a permutation prepared by :func:`permutation_tables` to ``bits``."""
    out = 0
    for table in tables:
        if not bits:
            break
        out |= table[bits & 0xFF]
        bits >>= CHUNK
    return out
