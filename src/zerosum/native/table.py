"""The native transposition table: one ``uint64[size, 2]`` array, sized in
megabytes, 16 bytes a slot (a probe costs one cache miss, not one per field).

A slot holds what the Python table's tuples hold (``search/tt.py``, whose
docstring states the replacement policy, kept by the kernel): word 0 the
full 64-bit key; word 1 packs the rest::

    bits  0-20  lower bound + 2**20     (decisive values relative to the
    bits 21-41  upper bound + 2**20      position, as in the Python table)
    bits 42-51  best move's code + 1    (0: none)
    bits 52-59  depth: 1-254 searched, 255 exact (no heuristic leaf
                influenced it: the Python table's DEPTH_INF), 0 empty slot
    bits 60-63  generation (the search that stored it), modulo 16

A stored depth is at least 1 (positions at the depth limit are scored, not
stored), so a new table is all zeros, which the operating system hands out
lazily: a 64 MB table costs nothing until the search touches it. A depth
beyond 254 (in a search with no depth limit, where a heuristic table entry
of an earlier search was used) is kept as 254: such an entry then answers
no unlimited search, which is only less reuse, never a wrong value.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ..search.tt import _odd_size, check_megabytes

#: Bytes per slot.
ENTRY_BYTES = 16
#: The default table: 64 MB, about 4.2 million slots; for games of at most
#: :data:`SHORT_GAME` plies, 2 MB (a big table's pages would cost a small
#: search more than it saves: each first touch of a page is a page fault).
DEFAULT_MB = 64.0
SMALL_MB = 2.0
SHORT_GAME = 16

#: The kernel's depth of an exact entry (the Python table's DEPTH_INF).
DEPTH_INF_N = 2**31 - 1
GEN_MASK = 15
_OFFSET = 1 << 20
_BOUND = np.uint64((1 << 21) - 1)
_MOVE = np.uint64(1023)
_DEPTH = np.uint64(255)
_U21, _U42, _U52, _U60 = np.uint64(21), np.uint64(42), np.uint64(52), np.uint64(60)


def default_megabytes(max_plies: int) -> float:
    """The table size used when none is given, for a game whose games last
    at most ``max_plies`` plies."""
    return SMALL_MB if max_plies <= SHORT_GAME else DEFAULT_MB


@njit(cache=True, nogil=True, inline="always")
def pack_entry(lower: Any, upper: Any, move: Any, depth: Any, generation: Any) -> Any:
    """Word 1 of a slot (see the module docstring)."""
    code = 255 if depth >= DEPTH_INF_N else (depth if depth < 254 else 254)
    return (
        np.uint64(lower + _OFFSET)
        | (np.uint64(upper + _OFFSET) << _U21)
        | (np.uint64(move + 1) << _U42)
        | (np.uint64(code) << _U52)
        | (np.uint64(generation & GEN_MASK) << _U60)
    )


@njit(cache=True, nogil=True, inline="always")
def entry_lower(data: Any) -> Any:
    return np.int64(data & _BOUND) - _OFFSET


@njit(cache=True, nogil=True, inline="always")
def entry_upper(data: Any) -> Any:
    return np.int64((data >> _U21) & _BOUND) - _OFFSET


@njit(cache=True, nogil=True, inline="always")
def entry_move(data: Any) -> Any:
    return np.int64((data >> _U42) & _MOVE) - 1


@njit(cache=True, nogil=True, inline="always")
def entry_depth(data: Any) -> Any:
    """0 for an empty slot, :data:`DEPTH_INF_N` for an exact entry."""
    code = np.int64((data >> _U52) & _DEPTH)
    return DEPTH_INF_N if code == 255 else code


@njit(cache=True, nogil=True, inline="always")
def entry_generation(data: Any) -> Any:
    return np.int64(data >> _U60)


def _prefetch_slot(typingctx: Any, slots: Any, slot: Any) -> Any:
    """Ask the processor to start loading slot ``slot`` of ``slots`` (a
    table's ``uint64[size, 2]``) into its caches (``llvm.prefetch``; a hint:
    it never faults, and changes no value)."""
    if not isinstance(slots, types.Array) or not isinstance(slot, types.Integer):
        return None
    signature = types.none(slots, slot)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        array = context.make_array(sig.args[0])(context, builder, args[0])
        index = context.cast(builder, args[1], sig.args[1], types.intp)
        # Slots are 16 bytes: word 2 * slot of the flat data.
        offset = builder.shl(index, index.type(1))
        pointer = builder.gep(array.data, [offset])
        byte = context.get_value_type(types.int8).as_pointer()
        i32 = context.get_value_type(types.int32)
        function = builder.module.declare_intrinsic(
            "llvm.prefetch", [byte], ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32])
        )
        # read, high temporal locality (keep in every cache level), data cache
        builder.call(
            function,
            [builder.bitcast(pointer, byte), i32(0), i32(3), i32(1)],
        )
        return context.get_dummy_value()

    return signature, codegen


# Typed as Any for mypy (numba's intrinsic takes the typing context itself).
prefetch_slot: Any = intrinsic(_prefetch_slot)


@dataclass(frozen=True)
class Entry:
    """A slot read from Python (tests, the principal variation)."""

    lower: int
    upper: int
    move: int
    depth: int
    generation: int

    @classmethod
    def unpack(cls, data: int) -> Entry:
        """Word 1 of a slot, decoded in Python (the compiled ``entry_*``
        readers would each cost a cache load on their first call)."""
        code = (data >> 52) & 255
        return cls(
            (data & 0x1FFFFF) - _OFFSET,
            ((data >> 21) & 0x1FFFFF) - _OFFSET,
            ((data >> 42) & 1023) - 1,
            DEPTH_INF_N if code == 255 else code,
            data >> 60,
        )


@dataclass
class NativeTable:
    """The slots of one table and its generation."""

    size: int
    slots: Any
    generation: int = 0

    @classmethod
    def of_megabytes(cls, megabytes: float) -> NativeTable:
        """A table filling ``megabytes`` (checked against the machine's
        memory: a one-line error rather than an attempt)."""
        slots = max(11, int(check_megabytes(megabytes) * 2**20) // ENTRY_BYTES)
        return cls.of_slots(_odd_size(slots))

    @classmethod
    def of_slots(cls, size: int) -> NativeTable:
        """A table of exactly ``size`` slots (checked by the caller)."""
        return cls(size=size, slots=np.zeros((size, 2), dtype=np.uint64))

    def new_search(self) -> int:
        """Open a new generation (entries of older ones become replaceable)."""
        self.generation = (self.generation + 1) % (GEN_MASK + 1)
        return self.generation

    def clear(self) -> None:
        """Empty every slot. By the C library's ``memset``: for a table
        larger than the caches it writes around them (non-temporal stores),
        so the search that follows still finds its code and data cached
        (``ndarray.fill`` evicts them all: 30-60 µs more for the next
        solve of a few hundred positions, measured)."""
        if self.slots.flags.c_contiguous:
            ctypes.memset(self.slots.ctypes.data, 0, self.slots.nbytes)
        else:
            self.slots.fill(0)
        self.generation = 0

    def entry(self, key: int) -> Entry | None:
        """The entry stored for ``key``, or None."""
        slot = key % self.size
        data = int(self.slots[slot, 1])
        if not data or int(self.slots[slot, 0]) != key:
            return None
        return Entry.unpack(data)

    def __iter__(self) -> Iterator[tuple[int, int, int, int, int, int]]:
        """Every stored entry as the Python table's tuples: ``(key, lower,
        upper, depth, move, generation)`` (the exact depth as the kernel's
        :data:`DEPTH_INF_N`, a missing move as -1)."""
        for slot in np.flatnonzero(self.slots[:, 1]):
            entry = Entry.unpack(int(self.slots[slot, 1]))
            yield (
                int(self.slots[slot, 0]),
                entry.lower,
                entry.upper,
                entry.depth,
                entry.move,
                entry.generation,
            )

    def __len__(self) -> int:
        return int(np.count_nonzero(self.slots[:, 1]))
