"""Compiled primitives for Domineering on boards of up to 64 cells (see
:mod:`zerosum.native.contract` for what each primitive promises). Larger
boards (up to the Python game's 16x16) have no native backend:
:func:`adapter` returns None and the search uses the Python game.

State row (``words = 2``)::

    s[0] = occupied   the covered cells, the Python game's layout
                      (bit ``r*cols + c``, row ``r`` from the top)
    s[1] = side       0 when Vertical is to move, 1 when Horizontal is

The side to move is stored because a position written by hand may cover
any cells with either side to move (the Python state carries it too).

Move codes: the tile's named cell (its top cell for Vertical, its left
cell for Horizontal) plus 64 for a Horizontal tile: ``map_move`` is given
no position, so the code itself must say which way the tile lies (on an
up-down flip a Vertical tile's named cell moves by one row more than a
Horizontal one's).

* ``gen``: the Python game's ``ordered_actions`` order: by how many of the
  opponent's placements the tile takes away (4 first, then 3 ... 0; the
  same bit-parallel count as ``Domineering.order_buckets``), ties by
  ``place_key`` and then row-major (the named cells in that order are in
  ``g``).
* ``status``: ONGOING while the side to move has a tile to place, else -1.
* ``key``: the occupied cells, when the side to move is the one the number
  of tiles implies (``first`` moves when an even number of tiles is down:
  every position played from the start). Otherwise (a position written by
  hand) bit 63 is flipped on boards under 64 cells, whose top bit is free,
  so the key is injective there (``exact_key``). On 64-cell boards (8x8,
  4x16, 16x4) a fixed 64-bit pattern is xor-ed in instead: injective on
  the positions played from the start (and within one search: all its
  positions share the root's parity), a hash for the others, so
  ``exact_key`` is false there.
* ``evaluate``: the tutorial's mobility, ``Domineering.evaluate(state,
  to_move(state))``.
* ``win_move``: the first tile in row-major order after which the opponent
  has no placement (``Domineering.winning_action``), or -1.
* ``nonlosing``: ``Domineering.non_losing_actions``, in ``gen`` order.
* ``bound``: ``Domineering.static_bound``: safe moves and protective areas
  against the opponent's most moves (the proof is in the Python game).
* ``canonical`` / ``map_move``: the four symmetries that keep a tile's
  orientation, in the Python game's numbering (identity, left-right mirror,
  up-down mirror, half-turn; each its own inverse). The representative is
  the image with the least occupied word (the lowest transform on ties),
  which is the Python game's choice, so the transforms agree.

>>> import zerosum
>>> native = adapter(zerosum.load("domineering(rows=6,cols=6)"))
>>> native.prims.words, native.prims.exact_key, native.code(0b11 << 7)
(2, True, 71)
>>> adapter(zerosum.load("domineering(rows=9,cols=9)")) is None
True
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, cast

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..games import domineering as rules
from .bits import lowest_index, popcount
from .contract import ONGOING, Primitives

U64 = NDArray[np.uint64]
I32 = NDArray[np.int32]

#: The most cells a board may have here (one word).
MAX_CELLS = 64
#: Added to a Horizontal tile's named cell in its move code.
H_CODE = 64
#: Xor-ed into the key of a 64-cell position whose side to move is not the
#: one the tile count implies (splitmix64's increment: no board structure).
_FLIP64 = 0x9E3779B97F4A7C15

# numba types ``uint64 op int64`` as float64: every constant that meets a
# bitboard is a uint64.
_0 = np.uint64(0)
_1 = np.uint64(1)
_2 = np.uint64(2)
_63 = np.uint64(63)
_64 = np.uint64(64)

# -- the constants array g ---------------------------------------------------------
# Sides are native: 0 Vertical, 1 Horizontal. Per-side entries are at
# ``index + side``.
G_ROWS = 0
G_COLS = 1
G_CELLS = 2
G_FULL = 3
G_FIRST = 4  #: the side that moves first (0 Vertical, 1 Horizontal)
G_KEYFLIP = 5  #: xor-ed into the key of a position against the tile count
G_ROWMASK = 6  #: the first row's cells
G_SHIFT = 8  #: from a tile's named cell to its other cell (cols or 1)
G_NAMES = 10  #: cells that may name a tile of the side
G_PARITY = 12  #: cells at an even place in their line (the side's lines)
G_FIRST_IN_LINE = 14  #: cells with no cell before them in their line
G_LAST_IN_LINE = 16  #: cells with no cell after them in their line
G_BEFORE_LAST = 18  #: cells whose next cell is the last of its line
G_NSTEPS = 20  #: doubling steps that fill a run as long as a line
G_STEPS = 22  #: 4 shifts per side: G_STEPS + 4 * side + i
G_NORDER = 30  #: how many cells may name a tile of the side
G_ORDER = 32  #: those cells in tie-break order: G_ORDER + MAX_CELLS * side + i
G_SIZE = G_ORDER + 2 * MAX_CELLS


def constants(game: rules.Domineering) -> U64:
    """The ``g`` array for ``game`` (a board of at most 64 cells)."""
    rows, cols = game.rows, game.cols
    cells = rows * cols
    if cells > MAX_CELLS:
        raise ValueError(f"a Domineering board of {cells} cells does not fit in one word")
    full = (1 << cells) - 1
    g = np.zeros(G_SIZE, dtype=np.uint64)
    g[G_ROWS], g[G_COLS], g[G_CELLS], g[G_FULL] = rows, cols, cells, full
    g[G_FIRST] = 0 if game.vertical == 0 else 1
    # Under 64 cells the top bit is free: the flag makes the key injective.
    # On 64 cells no bit is free: a fixed 64-bit pattern instead, so such a
    # position's key is a hash, unlikely to meet another position's.
    g[G_KEYFLIP] = (1 << 63) if cells < 64 else _FLIP64
    g[G_ROWMASK] = (1 << cols) - 1
    # Written out from the rules, not copied from the Python game's private
    # tables (the tests compare the two).
    shifts = (cols, 1)
    lengths = (rows, cols)
    names = (full >> cols, sum(((1 << (cols - 1)) - 1) << (r * cols) for r in range(rows)))
    parity = (
        sum(((1 << cols) - 1) << (r * cols) for r in range(0, rows, 2)),
        sum(1 << (r * cols + c) for r in range(rows) for c in range(0, cols, 2)),
    )
    for side in (0, 1):
        d = shifts[side]
        g[G_SHIFT + side] = d
        g[G_NAMES + side] = names[side]
        g[G_PARITY + side] = parity[side]
        g[G_FIRST_IN_LINE + side] = full & ~(names[side] << d)
        g[G_LAST_IN_LINE + side] = full & ~names[side]
        g[G_BEFORE_LAST + side] = full & ~(names[side] >> d)
        steps = [k * d for k in (1, 2, 4, 8) if k < lengths[side]]
        g[G_NSTEPS + side] = len(steps)
        for i, step in enumerate(steps):
            g[G_STEPS + 4 * side + i] = step
        named = rules.tie_order(rows, cols, vertical=side == 0)
        g[G_NORDER + side] = len(named)
        for i, cell in enumerate(named):
            g[G_ORDER + MAX_CELLS * side + i] = cell
    return g


# -- shared pieces -------------------------------------------------------------------


@njit(cache=True)
def _moves(g: U64, occ: np.uint64, side: int) -> np.uint64:
    """The named cells of ``side``'s legal tiles."""
    empty = g[G_FULL] ^ occ
    return np.uint64(empty & (empty >> g[G_SHIFT + side]) & g[G_NAMES + side])


@njit(cache=True)
def _mismatch(g: U64, occ: np.uint64, side: int) -> np.uint64:
    """1 when ``side`` is not the side the tile count says is to move."""
    tiles = np.uint64(popcount(occ)) >> _1
    expected = (g[G_FIRST] ^ tiles) & _1
    return np.uint64(expected ^ np.uint64(side))


@njit(cache=True)
def gen(g: U64, s: U64, out: I32) -> int:
    """The legal tiles in ``ordered_actions`` order (see the module)."""
    occ = s[0]
    side = int(s[1])
    empty = g[G_FULL] ^ occ
    ms = g[G_SHIFT + side]
    ts = g[G_SHIFT + 1 - side]
    mine = empty & (empty >> ms) & g[G_NAMES + side]
    theirs = empty & (empty >> ts) & g[G_NAMES + 1 - side]
    # How many opponent placements each tile overlaps: the sum of four
    # shifted copies of theirs (Domineering.order_buckets), bit-sliced.
    a = theirs
    b = theirs >> ms
    c = theirs << ts
    d = c >> ms
    s1 = a ^ b
    c1 = a & b
    s2 = c ^ d
    c2 = c & d
    bit0 = s1 ^ s2
    carry = s1 & s2
    bit1 = c1 ^ c2 ^ carry
    bit2 = (c1 & c2) | ((c1 ^ c2) & carry)
    # Where the next tile of each bucket goes in out: 4 taken first, ... 0
    # last (scalars: an array here would be allocated at every node).
    at4 = 0
    at3 = popcount(mine & bit2)
    at2 = at3 + popcount(mine & bit1 & bit0)
    at1 = at2 + popcount(mine & bit1 & ~bit0)
    at0 = at1 + popcount(mine & ~bit1 & bit0)
    base = H_CODE * side
    order = G_ORDER + MAX_CELLS * side
    # One pass over the named cells in tie-break order (place_key, then
    # row-major), each legal tile to the end of its bucket.
    for i in range(int(g[G_NORDER + side])):
        cell = g[order + i]
        bit = _1 << cell
        if mine & bit:
            m = base + int(cell)
            if bit2 & bit:
                out[at4] = m
                at4 += 1
            elif bit1 & bit:
                if bit0 & bit:
                    out[at3] = m
                    at3 += 1
                else:
                    out[at2] = m
                    at2 += 1
            elif bit0 & bit:
                out[at1] = m
                at1 += 1
            else:
                out[at0] = m
                at0 += 1
    return int(popcount(mine))


@njit(cache=True)
def play(g: U64, s: U64, m: int, d: U64) -> None:
    """Write the position after tile ``m`` into ``d``."""
    side = int(s[1])
    cell = np.uint64(m & 63)
    d[0] = s[0] | ((_1 | (_1 << g[G_SHIFT + side])) << cell)
    d[1] = np.uint64(1 - side)


@njit(cache=True)
def status(g: U64, s: U64) -> int:
    """ONGOING while the side to move can place a tile, else -1 (lost)."""
    if _moves(g, s[0], int(s[1])):
        return ONGOING
    return -1


@njit(cache=True)
def key(g: U64, s: U64) -> np.uint64:
    """The occupied cells, bit 63 flagging a side to move against the tile
    count on boards under 64 cells (see the module docstring)."""
    occ = s[0]
    return np.uint64(occ ^ (_mismatch(g, occ, int(s[1])) * g[G_KEYFLIP]))


@njit(cache=True)
def evaluate(g: U64, s: U64) -> np.int64:
    """Mobility: the side to move's placements minus the opponent's."""
    occ = s[0]
    side = int(s[1])
    return np.int64(popcount(_moves(g, occ, side)) - popcount(_moves(g, occ, 1 - side)))


@njit(cache=True)
def win_move(g: U64, s: U64) -> int:
    """The first tile (row-major) that leaves the opponent no placement, or
    -1 (``Domineering.winning_action``)."""
    occ = s[0]
    side = int(s[1])
    theirs = _moves(g, occ, 1 - side)
    if popcount(theirs) > 4:  # one tile overlaps at most 4 placements
        return -1
    ms = g[G_SHIFT + side]
    ts = g[G_SHIFT + 1 - side]
    mine = _moves(g, occ, side)
    while mine:
        low = mine & (~mine + _1)
        tile = low | (low << ms)
        if not theirs & ~(tile | (tile >> ts)):
            return int(H_CODE * side + lowest_index(low))
        mine ^= low
    return -1


@njit(cache=True)
def nonlosing(g: U64, s: U64, out: I32) -> int:
    """The tiles after which the opponent has no tile leaving us without a
    placement, in ``gen`` order (``Domineering.non_losing_actions``)."""
    n = gen(g, s, out)
    occ = s[0]
    side = int(s[1])
    ms = g[G_SHIFT + side]
    ts = g[G_SHIFT + 1 - side]
    mine = _moves(g, occ, side)
    theirs = _moves(g, occ, 1 - side)
    kept = 0
    for i in range(n):
        m = out[i]
        low = _1 << np.uint64(m & 63)
        tile = low | (low << ms)
        left = mine & ~(tile | (tile >> ms))
        losing = False
        if popcount(left) <= 4:
            replies = theirs & ~(tile | (tile >> ts))
            while replies:
                rlow = replies & (~replies + _1)
                reply = rlow | (rlow << ts)
                if not left & ~(reply | (reply >> ms)):
                    losing = True
                    break
                replies ^= rlow
        if not losing:
            out[kept] = m  # kept <= i: filtering in place keeps the order
            kept += 1
    return kept


# -- the static bound (Domineering.static_bound, proved there) -------------------


@njit(cache=True)
def _half_runs(g: U64, cells: np.uint64, side: int) -> int:
    """Sum of floor(run / 2) over the runs of ``cells`` along ``side``'s
    lines: the cells an odd distance from the start of their run."""
    d = g[G_SHIFT + side]
    parity = g[G_PARITY + side]
    inside = cells & ((cells & g[G_NAMES + side]) << d)
    fill = cells & ~inside & parity
    for i in range(int(g[G_NSTEPS + side])):
        step = g[G_STEPS + 4 * side + i]
        fill |= inside & (fill << step)
        inside &= inside << step
    return int(popcount(cells & (fill ^ parity)))


@njit(cache=True)
def _protected(g: U64, occ: np.uint64, side: int) -> np.uint64:
    """Empty cells the opponent of ``side`` can never cover."""
    other = 1 - side
    d = g[G_SHIFT + other]
    empty = g[G_FULL] ^ occ
    before = g[G_FIRST_IN_LINE + other] | (occ << d)
    after = g[G_LAST_IN_LINE + other] | (occ >> d)
    return np.uint64(empty & before & after)


@njit(cache=True)
def _areas(g: U64, occ: np.uint64, side: int) -> int:
    """The greedy count of ``side``'s protective areas."""
    other = 1 - side
    xs = g[G_SHIFT + side]
    ys = g[G_SHIFT + other]
    empty = g[G_FULL] ^ occ
    pairs = empty & (empty >> xs) & g[G_NAMES + side]
    blocks = pairs & (pairs >> ys) & g[G_NAMES + other]
    if not blocks:
        return 0
    walls = occ & (occ >> xs) & g[G_NAMES + side]
    # A wall just before the block along the opponent's lines, or just after.
    before = g[G_FIRST_IN_LINE + other] | (walls << ys)
    after = g[G_BEFORE_LAST + other] | (walls >> (ys + ys))
    blocks &= before | after
    count = 0
    taken = _0
    while blocks:
        low = blocks & (~blocks + _1)
        blocks ^= low
        area = low | (low << xs) | (low << ys) | (low << (xs + ys))
        if not area & taken:
            count += 1
            taken |= area | (area << ys) | (area >> ys)
    return count


@njit(cache=True)
def bound(g: U64, s: U64) -> int:
    """``Domineering.static_bound``: +p a win within p plies, -p a loss
    within p plies, 0 unknown (also when the game is over)."""
    occ = s[0]
    side = int(s[1])
    other = 1 - side
    if not _moves(g, occ, side):
        return 0
    empty = g[G_FULL] ^ occ
    theirs = _half_runs(g, empty, other)
    if theirs == 0:
        return 1
    safe = _half_runs(g, _protected(g, occ, side), side)
    if safe + 4 * ((_areas(g, occ, side) + 1) // 2) > theirs:
        return 2 * theirs + 1
    mine = _half_runs(g, empty, side)
    safe = _half_runs(g, _protected(g, occ, other), other)
    if safe + 4 * (_areas(g, occ, other) // 2) >= mine:
        return -2 * mine
    return 0


# -- symmetries ------------------------------------------------------------------------


@njit(cache=True)
def _reverse(x: np.uint64) -> np.uint64:
    """The 64 bits of ``x`` in reverse order."""
    x = ((x >> _1) & np.uint64(0x5555555555555555)) | ((x & np.uint64(0x5555555555555555)) << _1)
    x = ((x >> _2) & np.uint64(0x3333333333333333)) | ((x & np.uint64(0x3333333333333333)) << _2)
    x = ((x >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | (
        (x & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4)
    )
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | (
        (x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8)
    )
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | (
        (x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16)
    )
    return (x >> np.uint64(32)) | (x << np.uint64(32))


@njit(cache=True)
def _half_turn(g: U64, x: np.uint64) -> np.uint64:
    """Cell ``i`` to ``cells - 1 - i``: the half-turn."""
    return np.uint64(_reverse(x) >> (_64 - g[G_CELLS]))


@njit(cache=True)
def _flip_rows(g: U64, x: np.uint64) -> np.uint64:
    """Row ``r`` to row ``rows - 1 - r``: the up-down mirror."""
    rows = int(g[G_ROWS])
    cols = g[G_COLS]
    mask = g[G_ROWMASK]
    out = _0
    for r in range(rows):
        row = (x >> (np.uint64(r) * cols)) & mask
        out |= row << (np.uint64(rows - 1 - r) * cols)
    return out


@njit(cache=True)
def transform(g: U64, x: np.uint64, t: int) -> np.uint64:
    """The image of the cells ``x`` under symmetry ``t`` (the Python
    game's numbering: identity, left-right, up-down, half-turn)."""
    if t == 0:
        return x
    if t == 3:
        return _half_turn(g, x)
    flipped = _flip_rows(g, x)
    if t == 2:
        return flipped
    return _half_turn(g, flipped)  # left-right = half-turn after up-down


@njit(cache=True)
def canonical(g: U64, s: U64) -> tuple[np.uint64, int]:
    """The key of the symmetry class and the transform that maps ``s`` onto
    its representative (the least occupied word, lowest transform on
    ties: the Python game's choice)."""
    occ = s[0]
    best = occ
    best_t = 0
    flipped = _flip_rows(g, occ)
    for t in range(1, 4):
        if t == 1:
            image = _half_turn(g, flipped)
        elif t == 2:
            image = flipped
        else:
            image = _half_turn(g, occ)
        if image < best:
            best = image
            best_t = t
    return best ^ (_mismatch(g, occ, int(s[1])) * g[G_KEYFLIP]), best_t


@njit(cache=True)
def map_move(g: U64, m: int, t: int, inverse: bool) -> int:
    """Move code ``m`` under symmetry ``t`` (each is its own inverse, so
    ``inverse`` changes nothing)."""
    if t == 0:
        return m
    rows = int(g[G_ROWS])
    cols = int(g[G_COLS])
    horizontal = m >= H_CODE
    cell = m & 63
    r = cell // cols
    c = cell % cols
    # A tile spans two columns (Horizontal) or two rows (Vertical): its
    # named cell is the image of its other cell when that direction flips.
    if t == 1 or t == 3:
        c = cols - 2 - c if horizontal else cols - 1 - c
    if t == 2 or t == 3:
        r = rows - 1 - r if horizontal else rows - 2 - r
    return (H_CODE if horizontal else 0) + r * cols + c


def primitives(cells: int) -> Primitives:
    """The :class:`Primitives` for a board of ``cells`` cells (at most 64;
    only ``exact_key`` depends on it)."""
    return Primitives(
        words=2,
        # A side has at most one tile per named cell.
        max_moves=MAX_CELLS,
        move_codes=2 * H_CODE,
        # Every tile covers two cells.
        max_plies=MAX_CELLS // 2,
        gen=gen,
        play=play,
        status=status,
        key=key,
        evaluate=evaluate,
        win_move=win_move,
        nonlosing=nonlosing,
        bound=bound,
        canonical=canonical,
        map_move=map_move,
        mover_wins_only=True,
        exact_key=cells < MAX_CELLS,
    )


class DomineeringNative:
    """The :class:`~.contract.NativeGame` for a :class:`Domineering` game of
    up to 64 cells."""

    kind = "domineering"

    def __init__(self, game: rules.Domineering) -> None:
        self.game = game
        self.cols = game.cols
        self.prims = primitives(game.cells)
        self.constants = constants(game)

    def encode(self, state: Hashable) -> Sequence[int]:
        """``[occupied, side]``, side 0 when Vertical is to move."""
        occupied, player = cast("rules.State", state)
        return [occupied, 0 if player == self.game.vertical else 1]

    def code(self, action: Any) -> int:
        """A tile (two-cell bitboard) as its move code."""
        tile = int(action)
        low = (tile & -tile).bit_length() - 1
        high = tile.bit_length() - 1
        # A Vertical tile's cells are a row apart; on a one-column board
        # that is 1 apart too, but there Horizontal has no tile.
        return low if high - low == self.cols else H_CODE + low

    def action(self, code: int) -> Any:
        """The tile a move code names."""
        if code >= H_CODE:
            return 0b11 << (code - H_CODE)
        return (1 | 1 << self.cols) << code


def adapter(game: Any) -> DomineeringNative | None:
    """The native adapter for ``game`` (a :class:`Domineering` of at most 64
    cells), or None: larger boards are searched by the Python game."""
    if type(game) is not rules.Domineering or game.cells > MAX_CELLS:
        return None
    return DomineeringNative(game)
