"""A dedicated Othello endgame solver: the exact final disc difference.

The generic kernel (:mod:`.kernel`) proves win, draw or loss; the question
every Othello program answers is by how much. This module searches to the
end of the game for the **margin**: the final disc difference for the side
to move under perfect play by both sides, the empty squares of a game that
ends before the board is full going to the winner (the FFO test's and the
tournament rules' count). Values lie in ``[-cells, cells]``.

Positions are two bitboards in :mod:`.othello`'s 8x8 layout (``mine`` the
side to move's discs, ``theirs`` the opponent's); a 4x4 or 6x6 board sits
in the top-left corner and the squares off it stay empty, so one code serves
every size.

The search (fail-soft negamax alpha-beta; every function returns a value
exact inside ``(alpha, beta)`` and a bound on the right side outside it):

* :func:`_small` -- the last :data:`SMALL_EMPTIES` empty squares: recursion
  on scalars only (no table, no arrays: nothing to allocate or count
  references of), fastest first above :data:`PARITY_EMPTIES` empties, below
  that the squares of the quadrants with an odd number of empties first
  (parity), and the last square counted by its flips alone (:func:`_last`).
* :func:`_deep` -- above that: a transposition table of bounds (two entries
  a bucket: the one with more empties kept, the other always replaced),
  the stability cut-off (the opponent's discs that can never flip bound the
  mover's best margin), enhanced transposition cut-offs (a child's stored
  upper bound may cut before anything is searched), moves ordered table
  move first then fastest first (the opponent's replies, a reply on a
  corner counting twice, then fewer own discs exposed), principal variation
  search (the first move with the full window, the others with a null
  window, searched again only when they fail high inside it).
* :class:`EndgameSolver` -- the root in Python: the value by null-window
  probes around an aspiration guess, every best move, and the principal
  variation to the end.

``ctl`` (int64): ``[positions, stop, budget]``; the search adds the
positions it visits to ``ctl[0]``, returns at once (with a meaningless
value, stored nowhere) once ``ctl[1]`` is not 0, and sets ``ctl[1]`` to 2
itself when ``ctl[0]`` passes a budget ``ctl[2]`` above 0.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..games import othello as rules
from ..search.margin import Stopped
from . import bits
from .othello import (
    PASS_CODE,
    flips8,
    hash_pair,
    moves8,
    odd_regions,
    reply_classes,
    to_internal,
)

U64 = NDArray[np.uint64]
I64 = NDArray[np.int64]

popcount = cast("Callable[[Any], int]", bits.popcount)
ctz = cast("Callable[[Any], int]", bits.lowest_index)
as_int = cast("Callable[[Any], int]", np.int64)

_0 = np.uint64(0)
_1 = np.uint64(1)
_2 = np.uint64(2)
_S1, _S7, _S8, _S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
_COL_A = np.uint64(0x0101010101010101)
_COL_H = np.uint64(0x8080808080808080)
_ROW_1 = np.uint64(0x00000000000000FF)
_ROW_8 = np.uint64(0xFF00000000000000)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)

#: Empty squares at or below which :func:`_small` solves (no table).
SMALL_EMPTIES = 7
#: Empty squares at or below which :func:`_small` orders by parity alone.
PARITY_EMPTIES = 5
#: Empty squares at or above which :func:`_deep` looks for enhanced
#: transposition cut-offs before searching.
ETC_EMPTIES = 12
#: The stability cut-off is tried when the window's floor is at least twice
#: the empties less this: below, the opponent would need more stable discs
#: than such positions have (tried at every floor above 0: 113.3 M positions
#: on FFO #21-#34 in 8.0 CPU s; with this rule: see benchmarks/README.md).
STABILITY_SLACK = 4
#: The default table: 2**22 + a prime's worth of entries (16 bytes each).
DEFAULT_SLOTS = 4_194_301

# -- the constants array c -----------------------------------------------------------
C_BOARD = 0  #: the board's squares
C_CELLS = 1  #: their number
C_QUADRANT = 2  #: the top-left quadrant (side n / 2)
C_HALF = 3  #: n / 2
C_CORNERS = 4  #: the four corners
C_SMALL = 5  #: empties at or below which _small solves
C_LINES = 6  #: how many diagonal masks follow
C_LINE0 = 7  #: the diagonals and anti-diagonals of the 8x8 word (30 masks)
C_SIZE = C_LINE0 + 30

# Table entries: keys[i] is the position's hash, vals[i] packs
# (lower + 128) | (upper + 128) << 8 | move << 16 | empties << 24.
_NO_MOVE = 127


def constants(size: int, small: int = SMALL_EMPTIES) -> U64:
    """The ``c`` array for a board of side ``size`` (4, 6 or 8)."""
    if size not in (4, 6, 8):
        raise ValueError(f"Othello size must be 4, 6 or 8, got {size}")
    c = np.zeros(C_SIZE, dtype=np.uint64)
    n = size
    c[C_BOARD] = sum(1 << (8 * r + k) for r in range(n) for k in range(n))
    c[C_CELLS] = n * n
    c[C_QUADRANT] = sum(1 << (8 * r + k) for r in range(n // 2) for k in range(n // 2))
    c[C_HALF] = n // 2
    c[C_CORNERS] = sum(1 << (8 * r + k) for r in (0, n - 1) for k in (0, n - 1))
    c[C_SMALL] = small
    masks = []
    for d in range(-7, 8):  # r - k = d: the a1-h8 direction
        masks.append(sum(1 << (8 * r + r - d) for r in range(8) if 0 <= r - d < 8))
    for s in range(15):  # r + k = s: the h1-a8 direction
        masks.append(sum(1 << (8 * r + s - r) for r in range(8) if 0 <= s - r < 8))
    c[C_LINES] = len(masks)
    for i, m in enumerate(masks):
        c[C_LINE0 + i] = m
    return c


# -- game end and the last square ----------------------------------------------------


@njit(cache=True, inline="always")
def _final(mine: np.uint64, theirs: np.uint64, empty: int) -> int:
    """The margin of a finished game for the side to move: the disc
    difference, the ``empty`` squares going to the winner."""
    diff = popcount(mine) - popcount(theirs)
    if diff > 0:
        return diff + empty
    if diff < 0:
        return diff - empty
    return 0


@njit(cache=True, inline="always")
def _last(mine: np.uint64, theirs: np.uint64, bit: np.uint64) -> tuple[int, int]:
    """``(margin, positions)`` with one empty square ``bit``: the mover
    fills it if that flips something, else the opponent, else nobody (the
    square then goes to the winner)."""
    diff = popcount(mine) - popcount(theirs)
    flipped = flips8(mine, theirs, bit)
    if flipped:
        return diff + 2 * popcount(flipped) + 1, 2
    flipped = flips8(theirs, mine, bit)
    if flipped:
        return diff - 2 * popcount(flipped) - 1, 3
    return (diff + 1 if diff > 0 else diff - 1 if diff < 0 else 0), 1


# -- the last empties: no table ------------------------------------------------------


@njit(cache=True, nogil=True)
def _small(
    mine: np.uint64, theirs: np.uint64, empties: np.uint64, alpha: int, beta: int,
    quadrant: np.uint64, half: np.uint64, corners: np.uint64,
) -> tuple[int, int]:
    """``(margin, positions)``: fail-soft alpha-beta to the end with no
    table (at least two empty squares). Scalars only, so numba's recursion
    allocates nothing."""
    nodes = 1
    count = popcount(empties)
    best = -128
    moved = False
    sorting = count > PARITY_EMPTIES
    c0 = c1 = c2 = c3 = c4 = c5 = _0
    odd = _0
    if sorting:
        c0, c1, c2, c3, c4, c5 = reply_classes(mine, theirs, empties, corners)
    else:
        odd = odd_regions(empties, quadrant, half)
    for phase in range(6 if sorting else 2):
        if sorting:
            todo = (
                c0 if phase == 0 else c1 if phase == 1 else c2 if phase == 2
                else c3 if phase == 3 else c4 if phase == 4 else c5
            )
        else:
            todo = empties & (odd if phase == 0 else ~odd)
        while todo:
            bit = todo & (_0 - todo)
            todo ^= bit
            flipped = flips8(mine, theirs, bit)
            if flipped == 0:
                continue
            moved = True
            rest = empties ^ bit
            child_mine = theirs ^ flipped
            child_theirs = mine | flipped | bit
            if rest & (rest - _1) == 0:  # one square left
                value, below = _last(child_mine, child_theirs, rest)
            else:
                floor = alpha if alpha > best else best
                value, below = _small(
                    child_mine, child_theirs, rest, -beta, -floor, quadrant, half, corners
                )
            value = -value
            nodes += below
            if value > best:
                best = value
                if value >= beta:
                    return best, nodes
    if moved:
        return best, nodes
    if moves8(theirs, mine) & empties:  # a pass
        value, below = _small(theirs, mine, empties, -beta, -alpha, quadrant, half, corners)
        return -value, nodes + below
    return _final(mine, theirs, count), nodes


# -- stability -----------------------------------------------------------------------


@njit(cache=True)
def stable_discs(c: U64, discs: np.uint64, occupied: np.uint64) -> np.uint64:
    """Discs of ``discs`` that can never be flipped: along each of the four
    lines through it, the line is full (no move can ever be made on it) or
    a neighbour on the line is the board's edge or another such disc (a run
    through it could never be bracketed). Grown from the edges to a fixed
    point: sound, not complete."""
    board = c[C_BOARD]
    outside = ~board
    filled = occupied | outside
    full_h = _0
    full_v = _0
    row = _ROW_1
    col = _COL_A
    for _k in range(8):
        if filled & row == row:
            full_h |= row
        if filled & col == col:
            full_v |= col
        row <<= _S8
        col <<= _S1
    full_d = _0
    full_a = _0
    for i in range(15):
        m = c[C_LINE0 + i]
        if filled & m == m:
            full_d |= m
        m = c[C_LINE0 + 15 + i]
        if filled & m == m:
            full_a |= m
    stable = _0
    candidates = discs & board
    while True:
        s = stable | outside
        west = ((s << _S1) & ~_COL_A) | _COL_A
        east = ((s >> _S1) & ~_COL_H) | _COL_H
        north = (s << _S8) | _ROW_1
        south = (s >> _S8) | _ROW_8
        nw = ((s << _S9) & ~_COL_A) | _COL_A | _ROW_1
        se = ((s >> _S9) & ~_COL_H) | _COL_H | _ROW_8
        ne = ((s << _S7) & ~_COL_H) | _COL_H | _ROW_1
        sw = ((s >> _S7) & ~_COL_A) | _COL_A | _ROW_8
        grown = candidates & (full_h | west | east) & (full_v | north | south)
        grown &= (full_d | nw | se) & (full_a | ne | sw)
        if grown == stable:
            return stable
        stable = grown | stable


# -- the table -----------------------------------------------------------------------


@njit(cache=True, inline="always")
def _slot(keys: U64, h: np.uint64) -> int:
    """The first entry of ``h``'s bucket (two entries)."""
    buckets = np.uint64(keys.shape[0] // 2)
    return as_int(h % buckets) * 2


@njit(cache=True)
def _probe(keys: U64, vals: I64, h: np.uint64) -> int:
    """The packed entry of ``h``, or -1."""
    i = _slot(keys, h)
    if keys[i] == h and vals[i] >= 0:
        return as_int(vals[i])
    if keys[i + 1] == h and vals[i + 1] >= 0:
        return as_int(vals[i + 1])
    return -1


@njit(cache=True)
def _store(
    keys: U64, vals: I64, h: np.uint64, lower: int, upper: int, move: int, empty: int
) -> None:
    """Keep the bounds ``[lower, upper]`` of ``h`` (met with what is known
    of it already). The bucket's first entry keeps the position with more
    empties, the second takes the rest."""
    i = _slot(keys, h)
    for j in (i, i + 1):
        if keys[j] == h and vals[j] >= 0:
            old = vals[j]
            old_lower = (old & 255) - 128
            old_upper = ((old >> 8) & 255) - 128
            if old_lower > lower:
                lower = old_lower
            if old_upper < upper:
                upper = old_upper
            if move == _NO_MOVE:
                move = (old >> 16) & 127
            vals[j] = (lower + 128) | ((upper + 128) << 8) | (move << 16) | (empty << 24)
            return
    packed = (lower + 128) | ((upper + 128) << 8) | (move << 16) | (empty << 24)
    if vals[i] < 0 or (vals[i] >> 24) <= empty:
        if vals[i] >= 0:  # the deeper entry moves down
            keys[i + 1] = keys[i]
            vals[i + 1] = vals[i]
        keys[i] = h
        vals[i] = packed
    else:
        keys[i + 1] = h
        vals[i + 1] = packed


# -- the search with the table -------------------------------------------------------


@njit(cache=True)
def _order(
    c: U64, mine: np.uint64, theirs: np.uint64, empties: np.uint64, moves: np.uint64,
    first: int, out: I64,
) -> int:
    """Write ``moves`` into ``out`` best first: ``first`` (the table's move)
    then fastest first (the opponent's replies, a corner reply counting
    twice; then the squares of odd quadrants; then fewer discs flipped);
    returns how many."""
    corners = c[C_CORNERS]
    odd = odd_regions(empties, c[C_QUADRANT], c[C_HALF])
    count = 0
    todo = moves
    while todo:
        bit = todo & (_0 - todo)
        todo ^= bit
        square = ctz(bit)
        flipped = flips8(mine, theirs, bit)
        answers = moves8(theirs ^ flipped, mine | flipped | bit) & (empties ^ bit)
        replies = popcount(answers) + popcount(answers & corners)
        # The opponent's potential mobility: empty squares next to our discs.
        ours = mine | flipped | bit
        near = (ours << _S8) | (ours >> _S8)
        near |= (((ours << _S1) | (ours << _S9) | (ours >> _S7)) & ~_COL_A)
        near |= (((ours >> _S1) | (ours >> _S9) | (ours << _S7)) & ~_COL_H)
        potential = popcount(near & empties & ~bit)
        key = ((replies * 16 + potential) << 12) | (0 if odd & bit else 2048)
        key |= (popcount(flipped) << 6) | square
        if square == first:
            key = square
        j = count
        while j > 0 and out[j - 1] > key:
            out[j] = out[j - 1]
            j -= 1
        out[j] = key
        count += 1
    for i in range(count):
        out[i] &= 63
    return count


@njit(cache=True, nogil=True)
def _deep(
    mine: np.uint64, theirs: np.uint64, empties: np.uint64, alpha: int, beta: int,
    keys: U64, vals: I64, c: U64, ctl: I64,
) -> int:
    """The margin, fail-soft within ``(alpha, beta)``, with the table."""
    count = popcount(empties)
    if count <= as_int(c[C_SMALL]):
        if count == 0:
            ctl[0] += 1
            return _final(mine, theirs, 0)
        if count == 1:
            value, nodes = _last(mine, theirs, empties)
            ctl[0] += nodes
            return value
        value, nodes = _small(
            mine, theirs, empties, alpha, beta, c[C_QUADRANT], c[C_HALF], c[C_CORNERS]
        )
        ctl[0] += nodes
        return value
    ctl[0] += 1
    if ctl[1] != 0:
        return 0
    if ctl[2] > 0 and ctl[0] > ctl[2]:
        ctl[1] = 2
        return 0
    moves = moves8(mine, theirs) & empties
    if moves == 0:
        if moves8(theirs, mine) & empties == 0:
            return _final(mine, theirs, count)
        return -_deep(theirs, mine, empties, -beta, -alpha, keys, vals, c, ctl)
    cells = as_int(c[C_CELLS])
    # The stability cut-off: the opponent's stable discs stay theirs.
    if alpha >= 2 * count - STABILITY_SLACK:
        stable = stable_discs(c, theirs, mine | theirs)
        top = cells - 2 * popcount(stable)
        if top <= alpha:
            return top
        if top < beta:
            beta = top
    h = hash_pair(mine, theirs)
    first = _NO_MOVE
    entry = _probe(keys, vals, h)
    if entry >= 0:
        lower = (entry & 255) - 128
        upper = ((entry >> 8) & 255) - 128
        first = (entry >> 16) & 127
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        if lower == upper:
            return lower
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper
    # Enhanced transposition cut-offs: a child proven bad enough for the
    # opponent answers now.
    if count >= ETC_EMPTIES:
        todo = moves
        while todo:
            bit = todo & (_0 - todo)
            todo ^= bit
            flipped = flips8(mine, theirs, bit)
            below = _probe(keys, vals, hash_pair(theirs ^ flipped, mine | flipped | bit))
            if below >= 0:
                child_upper = ((below >> 8) & 255) - 128
                if -child_upper >= beta:
                    _store(keys, vals, h, -child_upper, cells, ctz(bit), count)
                    return -child_upper
    order = np.empty(32, dtype=np.int64)
    total = _order(c, mine, theirs, empties, moves, first, order)
    best = -128
    best_move = _NO_MOVE
    floor = alpha
    for i in range(total):
        square = order[i]
        bit = _1 << np.uint64(square)
        flipped = flips8(mine, theirs, bit)
        child_mine = theirs ^ flipped
        child_theirs = mine | flipped | bit
        rest = empties ^ bit
        if i == 0:
            value = -_deep(child_mine, child_theirs, rest, -beta, -floor, keys, vals, c, ctl)
        else:
            value = -_deep(child_mine, child_theirs, rest, -floor - 1, -floor, keys, vals, c, ctl)
            if floor < value < beta and ctl[1] == 0:
                value = -_deep(child_mine, child_theirs, rest, -beta, -value, keys, vals, c, ctl)
        if ctl[1] != 0:
            return 0
        if value > best:
            best = value
            best_move = square
            if value > floor:
                floor = value
            if value >= beta:
                break
    if best >= beta:
        _store(keys, vals, h, best, cells, best_move, count)
    elif best > alpha:
        _store(keys, vals, h, best, best, best_move, count)
    else:
        _store(keys, vals, h, -cells, best, _NO_MOVE, count)
    return best


@njit(cache=True, nogil=True)
def search(
    mine: np.uint64, theirs: np.uint64, alpha: int, beta: int,
    keys: U64, vals: I64, c: U64, ctl: I64,
) -> int:
    """The margin of ``(mine, theirs)`` for the side to move, fail-soft
    within ``(alpha, beta)`` (the module docstring)."""
    empties = c[C_BOARD] & ~(mine | theirs)
    return _deep(mine, theirs, empties, alpha, beta, keys, vals, c, ctl)


@njit(cache=True)
def root_moves(c: U64, mine: np.uint64, theirs: np.uint64, first: int, out: I64) -> int:
    """The mover's moves best first into ``out`` (``first`` leading when
    legal; see :func:`_order`); 0 when it must pass or the game is over."""
    empties = c[C_BOARD] & ~(mine | theirs)
    moves = moves8(mine, theirs) & empties
    return _order(c, mine, theirs, empties, moves, first, out)


@njit(cache=True)
def table_move(keys: U64, vals: I64, mine: np.uint64, theirs: np.uint64) -> int:
    """The table's best move for ``(mine, theirs)``, or -1."""
    entry = _probe(keys, vals, hash_pair(mine, theirs))
    if entry < 0:
        return -1
    move = (entry >> 16) & 127
    return -1 if move == _NO_MOVE else as_int(move)


@njit(cache=True)
def play_move(mine: np.uint64, theirs: np.uint64, square: int) -> tuple[np.uint64, np.uint64]:
    """The position after ``square`` (or :data:`PASS_CODE`), from the new
    side to move."""
    if square == PASS_CODE:
        return theirs, mine
    bit = _1 << np.uint64(square)
    flipped = flips8(mine, theirs, bit)
    return theirs ^ flipped, mine | flipped | bit


# -- the root ------------------------------------------------------------------------


@dataclass(frozen=True)
class Margin:
    """An exact solve: ``margin`` for the side to move, every move reaching
    it (internal squares; ``(PASS_CODE,)`` when the side must pass, ``()``
    at the end of the game), and the positions visited."""

    margin: int
    best_moves: tuple[int, ...]
    positions: int


class EndgameSolver:
    """The exact margin of Othello positions on a board of side ``size``,
    with a table of ``slots`` entries kept between solves (clear it with
    :meth:`clear`); :meth:`stop` ends a running solve from another thread.
    The solve's positions go below :data:`SMALL_EMPTIES` (``small``) without
    the table."""

    def __init__(self, size: int, slots: int = DEFAULT_SLOTS, small: int = SMALL_EMPTIES) -> None:
        self.size = size
        self.cells = size * size
        self.c = constants(size, small)
        slots += slots % 2
        self.keys = np.zeros(slots, dtype=np.uint64)
        self.vals = np.full(slots, -1, dtype=np.int64)
        self.ctl = np.zeros(3, dtype=np.int64)
        self._stopped = False

    def clear(self) -> None:
        self.vals[:] = -1

    @property
    def positions(self) -> int:
        """Positions visited since the solver was made."""
        return int(self.ctl[0])

    def stop(self) -> None:
        """From another thread: end the running solve (it raises
        :class:`Stopped`). The next solve starts afresh."""
        self._stopped = True
        self.ctl[1] = 1

    def _search(self, mine: int, theirs: int, alpha: int, beta: int) -> int:
        if self._stopped:
            self.ctl[1] = 1
        value = int(
            search(np.uint64(mine), np.uint64(theirs), alpha, beta,
                   self.keys, self.vals, self.c, self.ctl)
        )
        if self.ctl[1] != 0:
            raise Stopped
        return value

    def value(self, mine: int, theirs: int, guess: int = 0) -> int:
        """The exact margin: null-window probes from ``guess`` (each a
        fail-soft bound that moves the next probe), then the value."""
        lower, upper = -self.cells, self.cells
        x = max(lower + 1, min(upper, guess))
        while lower < upper:
            # Is the value at least x?
            v = self._search(mine, theirs, x - 1, x)
            if v >= x:
                lower = v
                x = v + 1
            else:
                upper = v
                x = v
            x = max(lower + 1, min(upper, x))
        return lower

    def solve(
        self, mine: int, theirs: int, all_moves: bool = True, budget: int = 0
    ) -> Margin:
        """The margin of ``(mine, theirs)`` (8x8-layout bitboards) and its
        best moves (every one with ``all_moves``, else one). Raises
        :class:`Stopped` when stopped or past ``budget`` positions."""
        start = int(self.ctl[0])
        self._stopped = False
        self.ctl[1] = 0
        self.ctl[2] = start + budget if budget > 0 else 0
        empties = int(self.c[C_BOARD]) & ~(mine | theirs)
        m, t = np.uint64(mine), np.uint64(theirs)
        order = np.empty(32, dtype=np.int64)
        count = int(root_moves(self.c, m, t, -1, order))
        if count == 0:
            if int(moves8(t, m)) & empties:  # a pass
                value = -self.value(theirs, mine)
                return Margin(value, (PASS_CODE,), int(self.ctl[0]) - start)
            value = int(_final(m, t, bin(empties).count("1")))
            self.ctl[0] += 1
            return Margin(value, (), int(self.ctl[0]) - start)
        value = self.value(mine, theirs)
        first = int(table_move(self.keys, self.vals, m, t))
        count = int(root_moves(self.c, m, t, first, order))
        best: list[int] = []
        for i in range(count):
            square = int(order[i])
            if best and not all_moves:
                break
            cm, ct = play_move(m, t, square)
            # Does this move reach the value? (Never more.)
            if -self._search(int(cm), int(ct), -value, -value + 1) >= value:
                best.append(square)
        return Margin(value, tuple(best), int(self.ctl[0]) - start)

    def line(self, mine: int, theirs: int, first: int | None = None) -> list[int]:
        """A principal variation to the end of the game (internal squares,
        :data:`PASS_CODE` for a pass), starting with ``first`` when given."""
        moves: list[int] = []
        while True:
            if first is None:
                solved = self.solve(mine, theirs, all_moves=False)
                if not solved.best_moves:
                    return moves
                square = solved.best_moves[0]
            else:
                square, first = first, None
            moves.append(square)
            cm, ct = play_move(np.uint64(mine), np.uint64(theirs), square)
            mine, theirs = int(cm), int(ct)


# -- the game's states -----------------------------------------------------------------


class OthelloMargin:
    """The exact-margin solver as :mod:`zerosum.search.margin` asks for it:
    states and moves of an :class:`~zerosum.games.othello.Othello` game."""

    def __init__(self, game: rules.Othello, slots: int = DEFAULT_SLOTS) -> None:
        self.game = game
        self.size = game.size
        self.solver = EndgameSolver(game.size, slots)

    def _words(self, state: Any) -> tuple[int, int]:
        return to_internal(state[0], self.size), to_internal(state[1], self.size)

    def _action(self, square: int) -> int:
        if square == PASS_CODE:
            return rules.PASS
        return (square // 8) * self.size + square % 8

    def _square(self, action: int) -> int:
        if action == rules.PASS:
            return PASS_CODE
        return (action // self.size) * 8 + action % self.size

    def solve(self, state: Any, all_moves: bool, budget: int) -> tuple[int, tuple[int, ...], int]:
        """``(margin, best moves, positions)`` for the side to move; raises
        :class:`Stopped` when stopped or past ``budget`` positions (0:
        none)."""
        mine, theirs = self._words(state)
        solved = self.solver.solve(mine, theirs, all_moves, budget)
        return solved.margin, tuple(self._action(m) for m in solved.best_moves), solved.positions

    def line(self, state: Any, first: int) -> list[int]:
        """A principal variation to the end, starting with ``first``."""
        mine, theirs = self._words(state)
        return [self._action(m) for m in self.solver.line(mine, theirs, self._square(first))]

    def stop(self) -> None:
        self.solver.stop()

    @property
    def positions(self) -> int:
        return self.solver.positions


def margin_solver(game: Any) -> OthelloMargin | None:
    """The native exact-margin solver for ``game``, or None when it has none
    (every Othello size has one)."""
    if type(game) is not rules.Othello or game.size not in rules.SIZES:
        return None
    return OthelloMargin(game)


__all__ = [
    "EndgameSolver", "Margin", "OthelloMargin", "Stopped", "margin_solver", "stable_discs",
]
