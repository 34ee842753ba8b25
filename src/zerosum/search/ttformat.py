"""What both transposition tables share, defined once: the score encoding,
an entry's fields (the Python table's tuple and the native table's packed
word, with its generation), the table's generations, and the replacement
policy.

The Python table (:mod:`.tt`) and the compiled one (``zerosum.native.table``
and the kernel, ``zerosum.native.kernel``) take every constant and rule from
here: the kernel imports the constants at module level (numba freezes them
into the machine code) and compiles :func:`is_live` and :func:`store_action`
as they are written here. ``tests/test_native_table.py`` checks that the
compiled values agree with these.

Score encoding
--------------
Scores are from the side to move (``search/types.py``): a win ``p`` plies
from the root is ``WIN - p``, a loss ``-(WIN - p)``. A table stores a
decisive value relative to the *position* (:func:`to_table`) and converts it
back at the ply it is read (:func:`from_table`), so a reused entry keeps its
exact distance. :data:`NO_LOWER` / :data:`NO_UPPER` mean "no bound on that
side"; they lie beyond every score by more than a ply adjustment can move
them.

Entries
-------
The Python table's entry is a tuple indexed by :data:`KEY`, :data:`LOWER`,
:data:`UPPER`, :data:`DEPTH`, :data:`MOVE`, :data:`GENERATION`. The native
table's slot is two 64-bit words: the full key, and this word::

    bits  0-20  lower bound + BOUND_OFFSET
    bits 21-41  upper bound + BOUND_OFFSET
    bits 42-51  best move's code + 1    (0: none)
    bits 52-59  depth code: 1-254 searched, 255 exact (DEPTH_INF), 0 empty
    bits 60-63  generation, modulo GENERATIONS

Generations
-----------
A table lives as long as the process that searches with it (one per batch,
per engine protocol session, per game in the browser): a new search opens a
generation (entries of older ones stay readable but become replaceable), and
*clearing* the table is opening a generation that forgets every older one:
an entry is live when its generation is one of the ``window`` latest
(:func:`is_live` on the table's ``clock``); a dead entry counts as empty. So
a clear writes nothing, where zeroing a 64 MB table cost milliseconds of
page faults per position (issue 26). :class:`Generations` keeps the clock
and says when the 16 values have all been used since the slots were last
zeroed (then, once every 16 clears, they must be).

Replacement policy
------------------
One entry per slot: depth-preferred within a search, replace-if-older
across searches, a position's deepest result kept. :func:`store_action`
decides a store for key ``k`` at a slot whose resident entry is

1. none, or dead: write;
2. the same position: write if the new depth is greater; at the same depth
   merge the two (the larger lower bound, the smaller upper bound: the
   solver's null-window probes each learn one side; if they cross, the new
   bounds replace the old); keep the resident if it was searched deeper,
   whatever its age (an exact entry is never lost to a horizon-limited one);
3. another position: write if the resident is of an older generation or
   was searched no deeper; otherwise (a deeper entry of this search) keep it.

In an exact solve every depth is :data:`DEPTH_INF`, so rule 3 always writes:
"always replace", as in Pascal Pons' Connect Four solver.
"""

from __future__ import annotations

from .types import MAX_PLY, WIN

# -- scores ----------------------------------------------------------------------
#: Scores at least this far from zero are decisive (a win or loss with its
#: distance); the table stores them relative to the position.
MATE = WIN - MAX_PLY
#: "No bound" sentinels, beyond every score by more than any ply adjustment.
NO_UPPER = WIN + 3 * MAX_PLY
NO_LOWER = -NO_UPPER
#: Depth of an entry no heuristic leaf influenced: valid at any depth.
DEPTH_INF = 1 << 31

# -- the Python table's tuple ------------------------------------------------------
KEY, LOWER, UPPER, DEPTH, MOVE, GENERATION = range(6)

# -- the native table's packed word ------------------------------------------------
BOUND_BITS = 21
#: Added to a bound so that it packs as an unsigned field.
BOUND_OFFSET = 1 << (BOUND_BITS - 1)
UPPER_SHIFT = BOUND_BITS
MOVE_SHIFT = 2 * BOUND_BITS
MOVE_BITS = 10
DEPTH_SHIFT = MOVE_SHIFT + MOVE_BITS
DEPTH_BITS = 8
GENERATION_SHIFT = DEPTH_SHIFT + DEPTH_BITS
GENERATION_BITS = 64 - GENERATION_SHIFT
#: Generations are counted modulo this (the packed word's 4 bits).
GENERATIONS = 1 << GENERATION_BITS
GENERATION_MASK = GENERATIONS - 1
#: The depth code of an exact entry, and the largest searched depth stored
#: (a deeper one is kept as this: less reuse, never a wrong value).
DEPTH_CODE_EXACT = (1 << DEPTH_BITS) - 1
DEPTH_CODE_MAX = DEPTH_CODE_EXACT - 1
#: The native kernel's depth of an exact entry (an int64, unlike DEPTH_INF's
#: int, which it never meets: the packed word holds the code).
DEPTH_INF_N = 2**31 - 1
#: Bits of the clock (see :class:`Generations`) that hold the generation.
CLOCK_SHIFT = GENERATION_BITS


# -- the policy (plain integer code: the kernel compiles these as written) --------
#: What :func:`store_action` decides.
KEEP, WRITE, MERGE = 0, 1, 2


def is_live(generation: int, clock: int) -> bool:
    """Whether an entry of ``generation`` counts in a table whose ``clock``
    is :attr:`Generations.clock`: its generation is one of the ``window``
    latest (older ones were cleared)."""
    current = clock & GENERATION_MASK
    window = clock >> CLOCK_SHIFT
    return ((current - generation) & GENERATION_MASK) < window


def store_action(
    live: bool, same_key: bool, resident_depth: int, depth: int, resident_current: bool
) -> int:
    """The replacement policy (module docstring): what a store of a result
    searched to ``depth`` does to the resident entry of its slot (``live``:
    there is one; ``same_key``: of the same position; ``resident_current``:
    stored by the current generation). :data:`KEEP`, :data:`WRITE` or
    :data:`MERGE` (write the bounds intersected with the resident's)."""
    if not live:
        return WRITE
    if same_key:
        if resident_depth < depth:
            return WRITE
        if resident_depth == depth:
            return MERGE
        return KEEP
    if resident_depth <= depth or not resident_current:
        return WRITE
    return KEEP


def to_table(score: int, ply: int) -> int:
    """A score found at ``ply`` plies from the root, as the table stores it:
    decisive scores become relative to the position (distance from it)."""
    if score >= MATE:
        return score + ply
    if score <= -MATE:
        return score - ply
    return score


def from_table(stored: int, ply: int) -> int:
    """Inverse of :func:`to_table`: a stored value read at ``ply`` plies from
    the root. ``from_table(to_table(s, p), p) == s`` for every score, and a
    win stored at one ply and read at another keeps its distance from the
    position."""
    if stored >= MATE:
        return stored - ply
    if stored <= -MATE:
        return stored + ply
    return stored


class Generations:
    """A table's generations: the current one (modulo :data:`GENERATIONS`),
    how many of the latest are live (``window``), and which values the slots
    may hold (``used``: bit ``g`` for generation ``g``, since the slots were
    last zeroed).

    :meth:`new_search` and :meth:`clear` return whether the caller must zero
    the slots before going on: only when the value to open may still hold
    entries that must stay dead. A table cleared before every search uses one
    value per search (a search opens none of its own when nothing was
    stored since the clear), so it is zeroed once every
    :data:`GENERATIONS` searches."""

    def __init__(self) -> None:
        self.current = 0
        self.window = 1
        self.used = 1  # (the current generation may always have entries)
        #: Nothing was stored since the table was made or cleared.
        self.fresh = True

    @property
    def clock(self) -> int:
        """The current generation and the window in one int, as the kernel
        takes it (:func:`is_live`)."""
        return self.current | (self.window << CLOCK_SHIFT)

    def new_search(self) -> bool:
        """Open a generation for a search; entries of the older live ones
        stay readable (and replaceable: rule 3). True: zero the slots."""
        if self.fresh:
            self.fresh = False  # the current generation is still empty
            self.used |= 1 << self.current
            return False
        following = (self.current + 1) & GENERATION_MASK
        # The value reopened is live already when the window spans every
        # value (its entries then read as this search's, as any search's 16
        # back would); otherwise its entries, if any, are dead.
        zero = bool(self.used >> following & 1) and self.window < GENERATIONS
        self._open(following, 1 if zero else min(self.window + 1, GENERATIONS), zero)
        return zero

    def clear(self) -> bool:
        """Forget every entry: open a generation alone in its window. True:
        zero the slots (when its value may hold entries)."""
        following = (self.current + 1) & GENERATION_MASK
        zero = bool(self.used >> following & 1)
        self._open(following, 1, zero)
        self.fresh = True
        return zero

    def _open(self, following: int, window: int, zeroed: bool) -> None:
        if zeroed:
            self.used = 0
        self.current = following
        self.window = window
        self.used |= 1 << following


__all__ = [
    "DEPTH_INF",
    "GENERATIONS",
    "KEEP",
    "MATE",
    "MERGE",
    "NO_LOWER",
    "NO_UPPER",
    "WRITE",
    "Generations",
    "from_table",
    "is_live",
    "store_action",
    "to_table",
]
