"""The native transposition table: one ``uint64[size, 2]`` array, sized in
megabytes, 16 bytes a slot (a probe costs one cache miss, not one per field).

A slot holds what the Python table's tuples hold: word 1 the entry, packed
as ``search/ttformat.py`` lays it out (with the generation), and word 0 the
full 64-bit key xor word 1; that module also states the replacement policy
and the generations, which the kernel compiles from there. The xor is for
threads sharing one table (``smp.py``): each word is written whole, but a
reader may see word 0 of one write and word 1 of another, and such a slot
then matches no key (Hyatt and Mann's lockless hashing) instead of lending
one position's bounds to another.

A stored depth is at least 1 (positions at the depth limit are scored, not
stored), so a new table is all zeros, which the operating system hands out
lazily. A table is kept for the life of the process (:func:`take_table`,
:func:`give_back`): its pages are then faulted in once, and clearing it is
opening a generation (zeroing only once every 16 clears), where a fresh
64 MB table per position cost more system time than the search (issue 26).
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ..search import ttformat as fmt
from ..search.tt import check_megabytes, odd_size

#: Bytes per slot.
ENTRY_BYTES = 16
#: The default table: 64 MB, about 4.2 million slots; for games of at most
#: :data:`SHORT_GAME` plies, 2 MB (a big table's pages would cost a small
#: search more than it saves: each first touch of a page is a page fault).
DEFAULT_MB = 64.0
SMALL_MB = 2.0
SHORT_GAME = 16

#: The kernel's depth of an exact entry (the Python table's DEPTH_INF).
DEPTH_INF_N = fmt.DEPTH_INF_N
GEN_MASK = fmt.GENERATION_MASK
_OFFSET = fmt.BOUND_OFFSET
_CODE_EXACT = fmt.DEPTH_CODE_EXACT
_CODE_MAX = fmt.DEPTH_CODE_MAX
_BOUND = np.uint64((1 << fmt.BOUND_BITS) - 1)
_MOVE = np.uint64((1 << fmt.MOVE_BITS) - 1)
_DEPTH = np.uint64((1 << fmt.DEPTH_BITS) - 1)
_UPPER = np.uint64(fmt.UPPER_SHIFT)
_MOVE_AT = np.uint64(fmt.MOVE_SHIFT)
_DEPTH_AT = np.uint64(fmt.DEPTH_SHIFT)
_GEN_AT = np.uint64(fmt.GENERATION_SHIFT)

#: The policy of ``search/ttformat.py``, compiled as written there.
is_live = njit(cache=True, nogil=True, inline="always")(fmt.is_live)
store_action = njit(cache=True, nogil=True, inline="always")(fmt.store_action)
to_table = njit(cache=True, nogil=True, inline="always")(fmt.to_table)
from_table = njit(cache=True, nogil=True, inline="always")(fmt.from_table)


def default_megabytes(max_plies: int) -> float:
    """The table size used when none is given, for a game whose games last
    at most ``max_plies`` plies."""
    return SMALL_MB if max_plies <= SHORT_GAME else DEFAULT_MB


@njit(cache=True, nogil=True, inline="always")
def pack_entry(lower: Any, upper: Any, move: Any, depth: Any, generation: Any) -> Any:
    """Word 1 of a slot (see the module docstring)."""
    code = _CODE_EXACT if depth >= DEPTH_INF_N else (depth if depth < _CODE_MAX else _CODE_MAX)
    return (
        np.uint64(lower + _OFFSET)
        | (np.uint64(upper + _OFFSET) << _UPPER)
        | (np.uint64(move + 1) << _MOVE_AT)
        | (np.uint64(code) << _DEPTH_AT)
        | (np.uint64(generation & GEN_MASK) << _GEN_AT)
    )


@njit(cache=True, nogil=True, inline="always")
def entry_lower(data: Any) -> Any:
    return np.int64(data & _BOUND) - _OFFSET


@njit(cache=True, nogil=True, inline="always")
def entry_upper(data: Any) -> Any:
    return np.int64((data >> _UPPER) & _BOUND) - _OFFSET


@njit(cache=True, nogil=True, inline="always")
def entry_move(data: Any) -> Any:
    return np.int64((data >> _MOVE_AT) & _MOVE) - 1


@njit(cache=True, nogil=True, inline="always")
def entry_depth(data: Any) -> Any:
    """0 for an empty slot, :data:`DEPTH_INF_N` for an exact entry."""
    code = np.int64((data >> _DEPTH_AT) & _DEPTH)
    return DEPTH_INF_N if code == _CODE_EXACT else code


@njit(cache=True, nogil=True, inline="always")
def entry_generation(data: Any) -> Any:
    return np.int64(data >> _GEN_AT)


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
        bound = (1 << fmt.BOUND_BITS) - 1
        code = (data >> fmt.DEPTH_SHIFT) & ((1 << fmt.DEPTH_BITS) - 1)
        return cls(
            (data & bound) - _OFFSET,
            ((data >> fmt.UPPER_SHIFT) & bound) - _OFFSET,
            ((data >> fmt.MOVE_SHIFT) & ((1 << fmt.MOVE_BITS) - 1)) - 1,
            DEPTH_INF_N if code == _CODE_EXACT else code,
            data >> fmt.GENERATION_SHIFT,
        )


class NativeTable:
    """The slots of one table and its generations (``search/ttformat.py``)."""

    def __init__(self, size: int, slots: Any) -> None:
        self.size = size
        self.slots = slots
        self.generations = fmt.Generations()

    @classmethod
    def of_megabytes(cls, megabytes: float) -> NativeTable:
        """A table filling ``megabytes`` (checked against the machine's
        memory: a one-line error rather than an attempt)."""
        return cls.of_slots(slots_of_megabytes(megabytes))

    @classmethod
    def of_slots(cls, size: int) -> NativeTable:
        """A table of exactly ``size`` slots (checked by the caller)."""
        return cls(size, np.zeros((size, 2), dtype=np.uint64))

    @property
    def generation(self) -> int:
        """The current generation (modulo 16)."""
        return self.generations.current

    @property
    def clock(self) -> int:
        """The generation and its live window, as the kernel takes them."""
        return self.generations.clock

    def new_search(self) -> int:
        """Open a new generation (entries of older ones become replaceable)."""
        if self.generations.new_search():
            self._zero()
        return self.generations.current

    def clear(self) -> None:
        """Forget every entry: a new generation that counts every older one
        as empty; the slots are zeroed only when the 16 generation values
        have all been used since they last were."""
        if self.generations.clear():
            self._zero()

    def _zero(self) -> None:
        """By the C library's ``memset``: for a table larger than the caches
        it writes around them (non-temporal stores), so the search that
        follows still finds its code and data cached (``ndarray.fill``
        evicts them all: 30-60 µs more for the next solve of a few hundred
        positions, measured)."""
        if self.slots.flags.c_contiguous:
            ctypes.memset(self.slots.ctypes.data, 0, self.slots.nbytes)
        else:
            self.slots.fill(0)

    def _live(self, data: int) -> bool:
        return data != 0 and fmt.is_live(data >> fmt.GENERATION_SHIFT, self.clock)

    def entry(self, key: int) -> Entry | None:
        """The live entry stored for ``key``, or None."""
        slot = key % self.size
        data = int(self.slots[slot, 1])
        if not self._live(data) or int(self.slots[slot, 0]) ^ data != key:
            return None
        return Entry.unpack(data)

    def __iter__(self) -> Iterator[tuple[int, int, int, int, int, int]]:
        """Every live entry as the Python table's tuples: ``(key, lower,
        upper, depth, move, generation)`` (the exact depth as the kernel's
        :data:`DEPTH_INF_N`, a missing move as -1)."""
        for slot in np.flatnonzero(self.slots[:, 1]):
            data = int(self.slots[slot, 1])
            if not self._live(data):
                continue
            entry = Entry.unpack(data)
            yield (
                int(self.slots[slot, 0]) ^ data,
                entry.lower,
                entry.upper,
                entry.depth,
                entry.move,
                entry.generation,
            )

    def __len__(self) -> int:
        return sum(1 for _entry in self)


def slots_of_megabytes(megabytes: float) -> int:
    """The slots of a native table of ``megabytes`` (checked)."""
    return odd_size(max(11, int(check_megabytes(megabytes) * 2**20) // ENTRY_BYTES))


#: Tables no engine uses now, kept for the next (see :func:`take_table`).
_free: list[NativeTable] = []
_free_lock = threading.Lock()
#: At most this many tables are kept unused (a process that searches with
#: more engines at once than this allocates the others anew).
KEEP_FREE = 2
#: Tables made by :func:`take_table` in this process (for tests: a batch
#: makes one).
made = 0


def take_table(size: int) -> NativeTable:
    """A cleared table of ``size`` slots for one engine: one that an engine
    gave back, when one of that size is free, else a new one. So a process
    that searches one position after another (a batch, an engine protocol
    session, a game in the browser) keeps one table, whose pages are
    faulted in once, however many engines it makes in turn."""
    global made
    with _free_lock:
        for index, table in enumerate(_free):
            if table.size == size:
                del _free[index]
                table.clear()
                return table
        made += 1
    return NativeTable.of_slots(size)


def give_back(table: NativeTable) -> None:
    """``table`` is no longer used by its engine (called when the engine is
    collected): keep it for the next, up to :data:`KEEP_FREE` tables."""
    with _free_lock:
        _free.insert(0, table)
        del _free[KEEP_FREE:]
