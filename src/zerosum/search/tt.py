"""The transposition table: what a search learnt about a position, kept so
that the position need not be searched again when another move order reaches
it.

Layout
------
A fixed number of slots (``size``, chosen by the caller); a position's slot is
``hash(key) % size``, where the key is ``game.key(state)`` or, with symmetry,
``game.canonical(state)[0]``. A prime ``size`` spreads structured integer keys
(bitboards) best. Each slot holds ``None`` or one entry, a plain tuple (tuples
are the cheapest value Python builds, and the engine touches the table at
every node)::

    (key, lower, upper, depth, move, generation)

* ``key``        -- the full key, compared on every probe, so two positions
                    that share a slot are never confused;
* ``lower``, ``upper`` -- bounds on the position's value for the side to move
                    (``lower == upper``: exact; :data:`NO_LOWER` /
                    :data:`NO_UPPER`: no bound on that side). Decisive values
                    are stored *relative to the position* (see below);
* ``depth``      -- the remaining depth the bounds were searched to;
                    :data:`DEPTH_INF` when no heuristic leaf influenced them,
                    so they hold at any depth;
* ``move``       -- the best move found, in the frame of the key (mapped with
                    ``game.map_move`` when symmetry is on), or None;
* ``generation`` -- the search that stored it (see :meth:`new_search`).

Scores, the entry's fields, generations and the replacement policy
------------------------------------------------------------------
Defined once for both backends in :mod:`.ttformat` (read it there): decisive
values are stored relative to the position (:func:`to_table`,
:func:`from_table`), and a store keeps a position's deepest result,
depth-preferred within a search and replace-if-older across searches. This
table is emptied in place by :meth:`clear`, so all its entries are live.

The engine calls :meth:`entry` and :meth:`put` (raw, position-relative
values: it converts scores itself, once per position); :meth:`probe` and
:meth:`store` convert root-relative scores for other callers. One
implementation of the rules, used by the engine and by the tests.
"""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any

from .ttformat import (
    MERGE,
    NO_LOWER,
    NO_UPPER,
    WRITE,
    from_table,
    store_action,
    to_table,
)
from .types import WIN

#: Default number of slots: a prime, about 262,000 entries (some 30 MB when
#: full). Larger tables help long solves (pass ``tt_size``), but a fresh
#: list of a million slots also costs the first search several milliseconds
#: of garbage-collector traversal.
DEFAULT_SIZE = 262_111

Entry = tuple[Hashable, int, int, int, Any, int]

#: What one full slot costs in this table, measured (the entry tuple, its
#: key and bound ints, the slot's pointer): sizes given in megabytes become
#: ``megabytes * 2**20 // ENTRY_BYTES`` slots.
ENTRY_BYTES = 200


def memory_bytes() -> int:
    """The machine's physical memory (16 GiB where it cannot be read)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 1 << 34


def _status_bytes(field: str) -> int:
    """A size from /proc/self/status (``VmSize``, ``VmData``), 0 where it
    cannot be read."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _cgroup_bytes() -> int | None:
    """The memory limit of this process's cgroup (v2 ``memory.max``, v1
    ``memory.limit_in_bytes``), None when there is none or it cannot be read."""
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path, encoding="ascii") as limit:
                text = limit.read().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 1 << 60:  # v1 says "no limit" with ~2**63
            return int(text)
    return None


def usable_bytes() -> int:
    """The memory this process may still take: the machine's physical
    memory, bounded by the cgroup's limit and by what is left under the
    process's own limits (``ulimit -v``: RLIMIT_AS less the address space
    already mapped; ``ulimit -d``: RLIMIT_DATA less the data already used)."""
    most = memory_bytes()
    cgroup = _cgroup_bytes()
    if cgroup is not None:
        most = min(most, cgroup)
    try:
        import resource
    except ImportError:  # not on POSIX
        return most
    for limit, used in ((resource.RLIMIT_AS, "VmSize"), (resource.RLIMIT_DATA, "VmData")):
        try:
            soft = resource.getrlimit(limit)[0]
        except (OSError, ValueError):
            continue
        if soft != resource.RLIM_INFINITY and soft >= 0:
            most = min(most, max(0, soft - _status_bytes(used)))
    return most


def max_megabytes() -> int:
    """The largest table a user may ask for, in whole megabytes (half of
    what this process may still use, :func:`usable_bytes`): what
    :func:`check_megabytes` accepts, and what an option's declared maximum
    should say."""
    return usable_bytes() // 2 // 2**20


def check_megabytes(megabytes: object) -> float:
    """``megabytes`` as a table size a user may ask for: a number above 0
    and at most half of what this process may still use
    (:func:`usable_bytes`: the machine's memory, the cgroup's limit, the
    process's resource limits); else a one-line
    :class:`~zerosum.game.ZerosumError`."""
    from ..game import ZerosumError
    from ..i18n import _

    if isinstance(megabytes, bool) or not isinstance(megabytes, int | float):
        raise ZerosumError(
            _("the table size must be a number of megabytes, got {value}").format(
                value=str(megabytes)[:40]
            )
        )
    if not (megabytes > 0 and math.isfinite(megabytes)):
        raise ZerosumError(
            _("the table size must be above 0 megabytes, got {value}").format(value=megabytes)
        )
    most = max_megabytes()
    if megabytes > most:
        raise ZerosumError(
            _(
                "a table of {value:g} MB does not fit in the memory this process may use; "
                "expected at most {most} MB (half of it)"
            ).format(value=megabytes, most=most)
        )
    return float(megabytes)


def slots_for(megabytes: float, entry_bytes: int = ENTRY_BYTES) -> int:
    """The number of slots of a table of ``megabytes`` (checked), at least 1,
    a prime-ish odd number (see the layout notes: not 2**k +- 1)."""
    count = max(1, int(check_megabytes(megabytes) * 2**20) // entry_bytes)
    return odd_size(count)


def odd_size(count: int) -> int:
    """``count`` or just below it: odd, not divisible by 3, 5 or 7 and not of
    the form 2**k +- 1 (structured bitboard keys collide on those)."""
    if count < 11:
        return count
    n = count if count % 2 else count - 1
    while n % 3 == 0 or n % 5 == 0 or n % 7 == 0 or _near_power_of_two(n):
        n -= 2
    return n


def _near_power_of_two(n: int) -> bool:
    return ((n + 1) & n) == 0 or ((n - 1) & (n - 2)) == 0


@dataclass(frozen=True)
class Probe:
    """An entry as :meth:`TranspositionTable.probe` returns it, with scores
    converted back to root-relative at the probing ply. ``lower`` is
    ``-INF``-like (:data:`NO_LOWER` region) when there is no lower bound."""

    lower: int
    upper: int
    depth: int
    move: Any
    generation: int

    @property
    def bound(self) -> str:
        """``"exact"``, ``"lower"``, ``"upper"`` or ``"none"``."""
        has_lower = self.lower > -WIN - 1
        has_upper = self.upper < WIN + 1
        if has_lower and has_upper:
            return "exact" if self.lower == self.upper else "both"
        return "lower" if has_lower else "upper" if has_upper else "none"


class TranspositionTable:
    """A bounded table of search results keyed by position key. See the
    module docstring for the entry layout and the replacement policy.

    >>> table = TranspositionTable(101)
    >>> table.store("a", ply=3, lower=WIN - 7, upper=WIN - 7, depth=5, move=2)
    >>> entry = table.probe("a", ply=1)   # the same win, seen two plies higher
    >>> entry.lower == WIN - 5, entry.move
    (True, 2)
    """

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        from ..game import ZerosumError
        from ..i18n import _

        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ZerosumError(
                _("table size must be a whole number of at least 1, got {value}").format(
                    value=str(size)[:40]
                )
            )
        if size * ENTRY_BYTES > memory_bytes() // 2:
            raise ZerosumError(
                _(
                    "a table of {value} entries does not fit in this machine's memory; "
                    "expected at most {most}"
                ).format(value=size, most=memory_bytes() // 2 // ENTRY_BYTES)
            )
        self.size = size
        self.slots: list[Entry | None] = [None] * size
        self.generation = 0
        self._empty: list[Entry | None] | None = None

    def new_search(self) -> int:
        """Start a new generation: entries stored so far become replaceable
        by any later store (rule 2). Returns the new generation number."""
        self.generation += 1
        return self.generation

    def clear(self) -> None:
        """Forget every entry. The slot list is emptied in place: a fresh list
        of a million slots would be young again for the garbage collector,
        which then walks it at its next few collections (milliseconds each)."""
        if self._empty is None:
            self._empty = [None] * self.size  # kept: copying it is the fastest reset
        self.slots[:] = self._empty
        self.generation = 0

    def slot_of(self, key: Hashable) -> int:
        return hash(key) % self.size

    def entry(self, key: Hashable) -> Entry | None:
        """The raw entry for ``key`` (decisive bounds relative to the
        position), or None. The engine's lookup at every position."""
        entry = self.slots[hash(key) % self.size]
        return entry if entry is not None and entry[0] == key else None

    def put(self, key: Hashable, lower: int, upper: int, depth: int, move: Any) -> None:
        """Store raw bounds (decisive ones relative to the position: see
        :func:`to_table`) for ``key`` under the replacement policy of the
        module docstring. The engine's store at every position."""
        slot = hash(key) % self.size
        old = self.slots[slot]
        if old is not None:
            action = store_action(True, old[0] == key, old[3], depth, old[5] == self.generation)
            if action != WRITE:
                if action != MERGE:
                    return
                # The same position to the same depth: keep both sides.
                merged_lo = old[1] if old[1] > lower else lower
                merged_hi = old[2] if old[2] < upper else upper
                if merged_lo <= merged_hi:
                    lower, upper = merged_lo, merged_hi
                if move is None:
                    move = old[4]
        self.slots[slot] = (key, lower, upper, depth, move, self.generation)

    def probe(self, key: Hashable, ply: int) -> Probe | None:
        """The entry for ``key`` with its bounds converted for a position
        ``ply`` plies from the root, or None."""
        entry = self.entry(key)
        if entry is None:
            return None
        _, lower, upper, depth, move, generation = entry
        return Probe(from_table(lower, ply), from_table(upper, ply), depth, move, generation)

    def store(
        self,
        key: Hashable,
        *,
        ply: int,
        lower: int,
        upper: int,
        depth: int,
        move: Any = None,
    ) -> None:
        """Record bounds ``lower <= value <= upper`` (root-relative scores at
        ``ply``; pass :data:`NO_LOWER` / :data:`NO_UPPER` for a missing side)
        for ``key``, under the replacement policy."""
        lo = lower if lower <= NO_LOWER else to_table(lower, ply)
        hi = upper if upper >= NO_UPPER else to_table(upper, ply)
        self.put(key, lo, hi, depth, move)

    def __iter__(self) -> Iterator[Entry]:
        """Every stored entry (raw, position-relative values)."""
        return (entry for entry in self.slots if entry is not None)

    def __len__(self) -> int:
        """How many slots hold an entry (counted: O(size))."""
        return sum(1 for entry in self.slots if entry is not None)
