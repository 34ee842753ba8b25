"""Compiled primitives for Othello on 4x4, 6x6 and 8x8 boards (see
:mod:`zerosum.native.contract` for what each primitive promises).

State row (``words = 2``), always from the side to move::

    s[0] = mine    discs of the side to move
    s[1] = theirs  discs of its opponent

Each word is a bitboard in the 8x8 layout whatever the size: square
``(r, c)`` (row ``r`` from the top, column ``c`` from the left) is bit
``8*r + c``, so a 6x6 or 4x4 board sits in the top-left corner of an 8x8
word and every size runs the same unrolled 8x8 code (the squares outside the
board stay empty, so no line crosses them, and a move landing there is
masked off)::

         a   b   c   d   e   f   g   h
    1    0   1   2   3   4   5   6   7
    2    8   9  10  11  12  13  14  15
    ...
    8   56  57  58  59  60  61  62  63

The Python game numbers squares ``r*size + c``; the adapter's ``encode``,
``code`` and ``action`` (and :func:`to_internal` / :func:`to_external`)
translate. Move codes: a square's internal bit index, and :data:`PASS_CODE`
(64) for a pass (the Python game's ``PASS`` is -1). Whose turn it is, is not
stored: the colours never matter to the rules, only who moves.

* ``gen``: the Python game's static order (corners, edges, the inside,
  C-squares, X-squares; row-major within a group), with at most
  :data:`FASTEST_EMPTIES` empty squares fastest first: the fewest opponent
  replies, a reply on a corner counting twice (native only: the Python
  game's ``ordered_actions`` counts every reply once, from 16 empties); or
  the pass alone when the mover has no square but the opponent has one.
* ``status``: ONGOING while either side has a move, else the sign of the
  disc difference for the side to move.
* ``key``: a 64-bit hash of ``(mine, theirs)`` (128 bits of board do not
  fit in a word: ``exact_key`` is false; two positions share a key with a
  probability near 2**-64).
* ``evaluate``: exactly ``Othello.evaluate(state, to_move(state))``.
* ``canonical`` / ``map_move``: all eight symmetries of the square (keys
  by class within :data:`SYMMETRIC_PLIES` discs of the start, the plain key
  later; on by default: the adapter's ``symmetric``). The
  rules are the same under each, so a position and its images have the same
  value. Transforms 0-3 are the Python game's own (identity, the a1-h8
  diagonal, the h1-a8 diagonal, the half-turn, which keep the start
  position); 4-7 add the mirrors and quarter turns (see :data:`TRANSFORMS`).
  The representative is the image with the least ``(mine, theirs)`` (in the
  Python game's numbering, so the choice is the Python game's own among its
  four), the lowest transform on ties.
* ``exact``: the value of a position with at most :func:`exact_empties`
  empty squares, searched to the end by a small recursive alpha-beta with no
  table and no frames (:func:`solve_end`), when the search asks for a
  null window and its depth reaches the end of the game.

Othello is not ``mover_wins_only`` and has no cheap win test, so there are
no ``win_move`` / ``nonlosing`` / ``bound`` hooks.

>>> import zerosum
>>> native = adapter(zerosum.load("othello(size=6)"))
>>> native.prims.words, native.code(-1), native.action(64), native.code(7), native.action(9)
(2, 64, -1, 9, 7)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, cast

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..games import othello as rules
from ..search.types import WIN
from . import bits
from .contract import NOT_EXACT, ONGOING, Primitives

U64 = NDArray[np.uint64]
I32 = NDArray[np.int32]

# What mypy is told about the compiled helpers (numba sees the objects
# themselves): the shared bit intrinsics map a word to an int, and
# ``np.int64`` (the cast of a small count or offset read from ``g``) gives
# an int.
popcount = cast("Callable[[Any], int]", bits.popcount)
ctz = cast("Callable[[Any], int]", bits.lowest_index)
as_int = cast("Callable[[Any], int]", np.int64)

# numba types ``uint64 op int64`` as float64: every constant that meets a
# bitboard is a uint64.
_0 = np.uint64(0)
_1 = np.uint64(1)
_2 = np.uint64(2)
_33 = np.uint64(33)
_MIX1 = np.uint64(0xFF51AFD7ED558CCD)
_MIX2 = np.uint64(0xC4CEB9FE1A85EC53)
_SALT = np.uint64(0x9E3779B97F4A7C15)
_ODD = np.uint64(0xD6E8FEB86659FD93)

#: The pass's move code (one past the last square of the 8x8 layout).
PASS_CODE = 64
#: Empty squares at or below which :func:`exact` solves a position without
#: the kernel (per board side). Measured (benchmarks/README.md): below these
#: the kernel's frames and table cost more than they save; above, the table
#: saves more than they cost.
EXACT_EMPTIES = {4: 7, 6: 7, 8: 7}
#: Empty squares at or below which the exact solve orders moves by parity
#: alone; above, fastest first (:func:`solve_end`).
PARITY_EMPTIES = 6
#: ``canonical`` keys a position by its symmetry class only within this many
#: discs of the start (where symmetric transpositions are frequent: the
#: first move's four choices are images of one another); later it is the
#: plain key, which costs no transform.
SYMMETRIC_PLIES = 12
#: Empty squares at or below which ``gen`` orders fastest first (native
#: only: the Python game's ``FASTEST_FIRST`` is 16). Measured (see
#: benchmarks/README.md): on 6x6 every position gains, on 8x8 endgames
#: starting at 24 gains over 16; 4x4 has 12 empty squares at the start.
FASTEST_EMPTIES = {4: rules.FASTEST_FIRST, 6: 36, 8: 24}

# -- the constants array g -------------------------------------------------------
G_N = 0  #: side of the board
G_CELLS = 1  #: n*n
G_FULL = 2  #: the board's squares (in the 8x8 layout)
G_PASS = 3  #: the pass's move code
G_CORNERS = 4  #: the four corners
G_ENDGAME = 5  #: empties at or below which the disc difference counts
G_SHIFT = 6  #: 8 - n: columns (and rows) of the 8x8 word off the board
G_NX = 7  #: corner/X-square pairs (4 on boards of 6 and 8, else 0)
G_XSQ = 8  #: 4 pairs (corner bit, X-square bit), in the Python game's order
G_RANK = 16  #: 5 masks: the squares of each ordering rank (0 first)
G_W_MOBILITY = 21  #: the evaluation weights, from zerosum.games.othello
G_W_CORNER = 22
G_W_X_SQUARE = 23
G_W_DISC = 24
G_EXACT = 25  #: empties at or below which ``exact`` solves
G_GOOD = 26  #: squares ``solve_end`` tries first (all but C- and X-squares)
G_FASTEST = 27  #: empties at or below which ``gen`` orders fastest first
G_QUADRANT = 28  #: the top-left quadrant (side n / 2)
G_HALF = 29  #: n / 2
G_SYMMETRIC = 30  #: empties at or above which ``canonical`` keys by class
G_MAP = 31  #: 8 tables of 64: square -> its image under transform t
G_SIZE = G_MAP + 8 * 64

#: The eight symmetries: cell ``(r, c)`` goes to ``f(r, c)`` (side ``n``).
#: 0-3 are the Python game's transforms, in its order.
TRANSFORMS: tuple[Callable[[int, int, int], tuple[int, int]], ...] = (
    lambda n, r, c: (r, c),
    lambda n, r, c: (c, r),
    lambda n, r, c: (n - 1 - c, n - 1 - r),
    lambda n, r, c: (n - 1 - r, n - 1 - c),
    lambda n, r, c: (r, n - 1 - c),
    lambda n, r, c: (n - 1 - r, c),
    lambda n, r, c: (c, n - 1 - r),
    lambda n, r, c: (n - 1 - c, r),
)
#: The inverse of each transform: the quarter turns 6 and 7 undo each other,
#: the rest are their own inverses.
INVERSE = (0, 1, 2, 3, 4, 5, 7, 6)


def to_internal(board: int, size: int) -> int:
    """A bitboard of the Python game (bit ``r*size + c``) in the 8x8 layout
    (bit ``8*r + c``)."""
    row = (1 << size) - 1
    return sum(((board >> (r * size)) & row) << (8 * r) for r in range(size))


def to_external(board: int, size: int) -> int:
    """The inverse of :func:`to_internal` (squares off the board dropped)."""
    row = (1 << size) - 1
    return sum(((board >> (8 * r)) & row) << (r * size) for r in range(size))


def exact_empties(size: int) -> int:
    """Empty squares at or below which ``exact`` takes over on this size."""
    return EXACT_EMPTIES[size]


def constants(size: int, exact: int | None = None) -> U64:
    """The ``g`` array for a board of side ``size`` (4, 6 or 8); ``exact``
    overrides :func:`exact_empties` (0: never; the tests and benchmarks
    compare)."""
    if size not in rules.SIZES:
        raise ValueError(f"Othello size must be one of {rules.SIZES}, got {size}")
    n = size
    cells = n * n
    g = np.zeros(G_SIZE, dtype=np.uint64)

    def bit(r: int, c: int) -> int:
        return 1 << (8 * r + c)

    g[G_N], g[G_CELLS], g[G_PASS], g[G_SHIFT] = n, cells, PASS_CODE, 8 - n
    g[G_FULL] = sum(bit(r, c) for r in range(n) for c in range(n))
    corners = ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1))
    g[G_CORNERS] = sum(bit(r, c) for r, c in corners)
    g[G_ENDGAME] = cells // rules.ENDGAME_SHARE
    if n >= 6:  # as the Python game: on 4x4 the "X-square" is the centre
        g[G_NX] = 4
        for i, (r, c) in enumerate(corners):
            x = (r + (1 if r == 0 else -1), c + (1 if c == 0 else -1))
            g[G_XSQ + 2 * i], g[G_XSQ + 2 * i + 1] = bit(r, c), bit(*x)
    good = 0
    for r in range(n):  # the Python game's ordering ranks
        for c in range(n):
            dr, dc = min(r, n - 1 - r), min(c, n - 1 - c)
            if dr == 0 and dc == 0:
                rank = 0
            elif dr <= 1 and dc <= 1:
                rank = 4 if dr == dc == 1 else 3
            elif dr == 0 or dc == 0:
                rank = 1
            else:
                rank = 2
            g[G_RANK + rank] |= np.uint64(bit(r, c))
            if rank < 3 or n == 4:
                good |= bit(r, c)
    g[G_GOOD] = good
    g[G_W_MOBILITY] = rules.W_MOBILITY
    g[G_W_CORNER] = rules.W_CORNER
    g[G_W_X_SQUARE] = rules.W_X_SQUARE
    g[G_W_DISC] = rules.W_DISC
    g[G_EXACT] = exact_empties(size) if exact is None else exact
    g[G_FASTEST] = FASTEST_EMPTIES[size]
    g[G_HALF] = n // 2
    g[G_SYMMETRIC] = max(cells - 4 - SYMMETRIC_PLIES, 0)
    g[G_QUADRANT] = sum(bit(r, c) for r in range(n // 2) for c in range(n // 2))
    for t, f in enumerate(TRANSFORMS):
        for r in range(n):
            for c in range(n):
                rr, cc = f(n, r, c)
                g[G_MAP + t * 64 + 8 * r + c] = 8 * rr + cc
    return g


# -- move generation and flips ------------------------------------------------------
_INNER8 = np.uint64(0x7E7E7E7E7E7E7E7E)
_ALL8 = np.uint64(0xFFFFFFFFFFFFFFFF)
_S1, _S7, _S8, _S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
_S14, _S16, _S18 = np.uint64(14), np.uint64(16), np.uint64(18)


@njit(cache=True)
def _moves8(mine: np.uint64, theirs: np.uint64) -> np.uint64:
    """The squares where ``mine`` may play against ``theirs`` in the 8x8
    layout, off-board squares not masked (the Python game's ``_moves_8x8``:
    per direction, a line grows from ``mine`` over ``theirs``, one square
    twice, then two squares at a time over pairs of ``theirs``, up to the
    six discs that fit; one more step lands on the empty squares).
    Horizontal and diagonal lines pass only over discs off the a and h
    columns, so they never wrap round a row end; on a smaller board the
    columns and rows beyond it are empty, so no line crosses them."""
    inner = theirs & _INNER8
    pair = inner & (inner << _S1)
    line = inner & (mine << _S1)
    line |= inner & (line << _S1)
    line |= pair & (line << _2)
    line |= pair & (line << _2)
    moves = line << _S1
    pair >>= _S1
    line = inner & (mine >> _S1)
    line |= inner & (line >> _S1)
    line |= pair & (line >> _2)
    line |= pair & (line >> _2)
    moves |= line >> _S1
    pair = theirs & (theirs << _S8)
    line = theirs & (mine << _S8)
    line |= theirs & (line << _S8)
    line |= pair & (line << _S16)
    line |= pair & (line << _S16)
    moves |= line << _S8
    pair >>= _S8
    line = theirs & (mine >> _S8)
    line |= theirs & (line >> _S8)
    line |= pair & (line >> _S16)
    line |= pair & (line >> _S16)
    moves |= line >> _S8
    pair = inner & (inner << _S7)
    line = inner & (mine << _S7)
    line |= inner & (line << _S7)
    line |= pair & (line << _S14)
    line |= pair & (line << _S14)
    moves |= line << _S7
    pair >>= _S7
    line = inner & (mine >> _S7)
    line |= inner & (line >> _S7)
    line |= pair & (line >> _S14)
    line |= pair & (line >> _S14)
    moves |= line >> _S7
    pair = inner & (inner << _S9)
    line = inner & (mine << _S9)
    line |= inner & (line << _S9)
    line |= pair & (line << _S18)
    line |= pair & (line << _S18)
    moves |= line << _S9
    pair >>= _S9
    line = inner & (mine >> _S9)
    line |= inner & (line >> _S9)
    line |= pair & (line >> _S18)
    line |= pair & (line >> _S18)
    moves |= line >> _S9
    return moves & (_ALL8 ^ (mine | theirs))


@njit(cache=True)
def moves_bits(g: U64, mine: np.uint64, theirs: np.uint64) -> np.uint64:
    """The squares of the board where ``mine`` may play against ``theirs``
    (the Python game's ``moves_bits``, in the 8x8 layout)."""
    full: np.uint64 = g[G_FULL]
    return _moves8(mine, theirs) & full


@njit(cache=True, inline="always")
def _up(bit: np.uint64, mine: np.uint64, mask: np.uint64, shift: np.uint64) -> np.uint64:
    """The run of ``mask`` squares from ``bit`` towards higher bits by
    ``shift``, when a disc of ``mine`` closes it; else 0. (The run grows as
    in :func:`_moves8`: one square twice, then pairs; its squares are not
    ``mine``, so the shifted run meets ``mine`` only past its end.)"""
    pair = mask & (mask << shift)
    line = mask & (bit << shift)
    line |= mask & (line << shift)
    double = shift + shift
    line |= pair & (line << double)
    line |= pair & (line << double)
    if (line << shift) & mine:
        return line
    return _0


@njit(cache=True, inline="always")
def _down(bit: np.uint64, mine: np.uint64, mask: np.uint64, shift: np.uint64) -> np.uint64:
    """:func:`_up` towards lower bits."""
    pair = mask & (mask >> shift)
    line = mask & (bit >> shift)
    line |= mask & (line >> shift)
    double = shift + shift
    line |= pair & (line >> double)
    line |= pair & (line >> double)
    if (line >> shift) & mine:
        return line
    return _0


@njit(cache=True)
def _flips8(mine: np.uint64, theirs: np.uint64, bit: np.uint64) -> np.uint64:
    """The discs of ``theirs`` that a disc of ``mine`` on the square ``bit``
    flips, in the 8x8 layout (no branch per square of a run: each of the
    eight directions is one fill)."""
    inner = theirs & _INNER8
    flipped = _up(bit, mine, inner, _S1) | _down(bit, mine, inner, _S1)
    flipped |= _up(bit, mine, theirs, _S8) | _down(bit, mine, theirs, _S8)
    flipped |= _up(bit, mine, inner, _S7) | _down(bit, mine, inner, _S7)
    flipped |= _up(bit, mine, inner, _S9) | _down(bit, mine, inner, _S9)
    return flipped


@njit(cache=True)
def flips(g: U64, mine: np.uint64, theirs: np.uint64, square: int) -> np.uint64:
    """The discs of ``theirs`` that a disc of ``mine`` on ``square`` (an
    internal square index) flips."""
    return _flips8(mine, theirs, _1 << np.uint64(square))


# -- the primitives -------------------------------------------------------------------


@njit(cache=True)
def gen(g: U64, s: U64, out: I32) -> int:
    """Legal moves of the side to move: rank by rank (corners, edges,
    inside, C-squares, X-squares), each rank from the lowest square up, then
    fastest first with at most ``g[G_FASTEST]`` empty squares (the module
    docstring); the pass alone when the mover has no square and the
    opponent has one; none when neither side can move."""
    mine = s[0]
    theirs = s[1]
    moves = moves_bits(g, mine, theirs)
    if moves == 0:
        if moves_bits(g, theirs, mine) == 0:
            return 0
        out[0] = np.int32(g[G_PASS])
        return 1
    count = 0
    for rank in range(5):
        todo = moves & g[G_RANK + rank]
        while todo:
            out[count] = ctz(todo)
            count += 1
            todo &= todo - _1
    if count > 1 and informed_order(g, s):
        # Fastest first (as the Python game): fewest opponent replies first,
        # ties in the rank order. The keys (replies, index, square) are
        # sorted in ``out`` itself, so nothing is allocated.
        corners = g[G_CORNERS]
        for i in range(count):
            square = out[i]
            bit = _1 << np.uint64(square)
            flipped = _flips8(mine, theirs, bit)
            answers = moves_bits(g, theirs ^ flipped, mine | flipped | bit)
            replies = popcount(answers) + popcount(answers & corners)
            packed = (replies << 14) | (i << 7) | square
            j = i
            while j > 0 and out[j - 1] > packed:
                out[j] = out[j - 1]
                j -= 1
            out[j] = packed
        for i in range(count):
            out[i] &= 127
    return count


@njit(cache=True)
def informed_order(g: U64, s: U64) -> bool:
    """Whether ``gen`` orders fastest first here (at most
    ``g[G_FASTEST]`` empty squares): the search then keeps that order."""
    return bool(as_int(g[G_CELLS]) - popcount(s[0] | s[1]) <= as_int(g[G_FASTEST]))


@njit(cache=True)
def play(g: U64, s: U64, m: int, d: U64) -> None:
    """Write into ``d`` the position after move ``m`` (a square, or the pass
    code), seen from the new side to move."""
    mine = s[0]
    theirs = s[1]
    if m == PASS_CODE:
        d[0] = theirs
        d[1] = mine
        return
    bit = _1 << np.uint64(m)
    flipped = _flips8(mine, theirs, bit)
    d[0] = theirs ^ flipped
    d[1] = mine | flipped | bit


@njit(cache=True)
def status(g: U64, s: U64) -> int:
    """ONGOING while either side has a move; else +1, 0 or -1 as the side to
    move has more, as many or fewer discs."""
    mine = s[0]
    theirs = s[1]
    if moves_bits(g, mine, theirs) or moves_bits(g, theirs, mine):
        return ONGOING
    diff = popcount(mine) - popcount(theirs)
    return 1 if diff > 0 else -1 if diff < 0 else 0


@njit(cache=True)
def _mix(h: np.uint64) -> np.uint64:
    """MurmurHash3's 64-bit finaliser: a bijection that spreads every input
    bit over the whole word."""
    h ^= h >> _33
    h *= _MIX1
    h ^= h >> _33
    h *= _MIX2
    h ^= h >> _33
    return h


@njit(cache=True)
def _hash(mine: np.uint64, theirs: np.uint64) -> np.uint64:
    # For a fixed ``mine`` the map from ``theirs`` is a bijection (odd
    # multiplier, xor, bijective mix): positions differing only in one side's
    # discs never collide.
    return _mix(_mix(mine ^ _SALT) ^ (theirs * _ODD))


@njit(cache=True)
def key(g: U64, s: U64) -> np.uint64:
    """A 64-bit hash of ``(mine, theirs)``; not injective (``exact_key`` is
    false)."""
    return _hash(s[0], s[1])


@njit(cache=True)
def evaluate(g: U64, s: U64) -> int:
    """``Othello.evaluate(state, to_move(state))``: mobility, corners,
    discs beside an empty corner, and the disc difference near the end."""
    mine = s[0]
    theirs = s[1]
    mobility = popcount(moves_bits(g, mine, theirs)) - popcount(moves_bits(g, theirs, mine))
    score = as_int(g[G_W_MOBILITY]) * mobility
    corners = g[G_CORNERS]
    score += as_int(g[G_W_CORNER]) * (popcount(mine & corners) - popcount(theirs & corners))
    occupied = mine | theirs
    x_weight = as_int(g[G_W_X_SQUARE])
    for i in range(as_int(g[G_NX])):
        if not occupied & g[G_XSQ + 2 * i]:
            x_square = g[G_XSQ + 2 * i + 1]
            if mine & x_square:
                score -= x_weight
            elif theirs & x_square:
                score += x_weight
    if as_int(g[G_CELLS]) - popcount(occupied) <= as_int(g[G_ENDGAME]):
        score += as_int(g[G_W_DISC]) * (popcount(mine) - popcount(theirs))
    return score


# -- the last empty squares without the kernel ------------------------------------


@njit(cache=True, inline="always")
def _odd_regions(empties: np.uint64, quadrant: np.uint64, half: np.uint64) -> np.uint64:
    """The union of the board's four quadrants (``quadrant`` the top-left
    one, of side ``half``) that hold an odd number of ``empties``."""
    odd = _0
    if popcount(empties & quadrant) & 1:
        odd |= quadrant
    region = quadrant << half
    if popcount(empties & region) & 1:
        odd |= region
    region = quadrant << (half * _S8)
    if popcount(empties & region) & 1:
        odd |= region
    region = quadrant << (half * _S9)
    if popcount(empties & region) & 1:
        odd |= region
    return odd


@njit(cache=True, inline="always")
def reply_classes(
    mine: np.uint64, theirs: np.uint64, empties: np.uint64, corners: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:
    """The moves of ``mine`` in six classes by the opponent's replies after
    each (a reply on one of ``corners`` counting twice): 0, 1, 2, 3, 4-5, 6 or
    more -- fastest-first order, class by class. Inlined into both endgame
    searches (this module's and :mod:`.othello_end`'s), so sharing it costs
    no call."""
    c0 = c1 = c2 = c3 = c4 = c5 = _0
    todo = _moves8(mine, theirs) & empties
    while todo:
        bit = todo & (_0 - todo)
        todo ^= bit
        flipped = _flips8(mine, theirs, bit)
        answers = _moves8(theirs ^ flipped, mine | flipped | bit) & (empties ^ bit)
        replies = popcount(answers) + popcount(answers & corners)
        if replies == 0:
            c0 |= bit
        elif replies == 1:
            c1 |= bit
        elif replies == 2:
            c2 |= bit
        elif replies == 3:
            c3 |= bit
        elif replies <= 5:
            c4 |= bit
        else:
            c5 |= bit
    return c0, c1, c2, c3, c4, c5


@njit(cache=True, inline="always")
def _outcome(diff: int, ply: int) -> int:
    """The value of a game ending at ``ply`` with disc difference ``diff``
    for the side to move (the kernel's units)."""
    return WIN - ply if diff > 0 else ply - WIN if diff < 0 else 0


@njit(cache=True, inline="always")
def _last(mine: np.uint64, theirs: np.uint64, bit: np.uint64, ply: int) -> tuple[int, int]:
    """``(value, positions)`` of a position (``ply`` plies below the root)
    with one empty square ``bit``: the side to move fills it if that flips
    something, else the opponent after a pass, else the game is over here.
    :func:`solve_end` without the call and the loop."""
    flipped = _flips8(mine, theirs, bit)
    if flipped:
        return _outcome(popcount(mine) - popcount(theirs) + 2 * popcount(flipped) + 1, ply + 1), 2
    flipped = _flips8(theirs, mine, bit)
    if flipped:
        return _outcome(popcount(mine) - popcount(theirs) - 2 * popcount(flipped) - 1, ply + 2), 3
    return _outcome(popcount(mine) - popcount(theirs), ply), 1


@njit(cache=True)
def solve_end(
    mine: np.uint64, theirs: np.uint64, empties: np.uint64,
    good: np.uint64, quadrant: np.uint64, half: np.uint64, corners: np.uint64,
    alpha: int, beta: int, ply: int,
) -> tuple[int, int]:
    """Fail-soft alpha-beta to the end of the game from ``(mine, theirs)``
    with the empty squares ``empties`` (of the board), ``ply`` plies below
    the search's root; returns ``(value, positions)``. Values are the
    kernel's (a win ending the game at ply ``q`` is ``WIN - q``, a loss
    ``q - WIN``, a draw 0), so within ``(alpha, beta)`` the value is exact and
    outside it a bound on the right side, as the kernel's own search.

    Move order: with more than :data:`PARITY_EMPTIES` empty squares, fastest
    first: the moves fall into six classes by the opponent's replies (a
    reply on one of ``corners`` counting twice: 0, 1, 2, 3, 4-5, 6 or more),
    tried class by class, each from the lowest square up. With fewer, that
    costs more than it saves: the empty squares in turn (a square is a move
    when it flips something), those in a quadrant with an odd number of
    empties first (the endgame's parity: the side that fills such a region
    last keeps the last disc there), within that those in ``good`` first.
    With no move the side passes when the opponent has one, else the game is
    over. Recursion on scalars only: no array, so no reference counting and
    no frames (and numba's on-disk cache links it; recursion through array
    arguments it did not)."""
    nodes = 1
    best = -WIN - 1
    moved = False
    sorting = popcount(empties) > PARITY_EMPTIES
    if sorting:
        c0, c1, c2, c3, c4, c5 = reply_classes(mine, theirs, empties, corners)
        odd = _0
    else:
        odd = _odd_regions(empties, quadrant, half)
    for phase in range(6 if sorting else 4):
        if sorting:
            todo = (
                c0 if phase == 0 else c1 if phase == 1 else c2 if phase == 2
                else c3 if phase == 3 else c4 if phase == 4 else c5
            )
        else:
            todo = empties & (odd if phase < 2 else ~odd) & (good if phase % 2 == 0 else ~good)
        while todo:
            bit = todo & (_0 - todo)
            todo ^= bit
            flipped = _flips8(mine, theirs, bit)
            if flipped == 0:
                continue
            moved = True
            rest = empties ^ bit
            child_mine = theirs ^ flipped
            child_theirs = mine | flipped | bit
            if rest == 0:  # the board is full: the game ends at ply + 1
                nodes += 1
                diff = popcount(child_theirs) - popcount(child_mine)
                value = WIN - ply - 1 if diff > 0 else ply + 1 - WIN if diff < 0 else 0
            elif rest & (rest - _1) == 0:  # one square left
                value, below = _last(child_mine, child_theirs, rest, ply + 1)
                value = -value
                nodes += below
            else:
                floor = alpha if alpha > best else best
                value, below = solve_end(
                    child_mine, child_theirs, rest, good, quadrant, half, corners,
                    -beta, -floor, ply + 1,
                )
                value = -value
                nodes += below
            if value > best:
                best = value
                if value >= beta:
                    return best, nodes
    if moved:
        return best, nodes
    if _moves8(theirs, mine) & empties:  # a pass
        value, below = solve_end(
            theirs, mine, empties, good, quadrant, half, corners, -beta, -alpha, ply + 1
        )
        return -value, nodes + below
    diff = popcount(mine) - popcount(theirs)
    return (WIN - ply if diff > 0 else ply - WIN if diff < 0 else 0), nodes


@njit(cache=True)
def exact(g: U64, s: U64, ply: int, depth: int, alpha: int, beta: int, counters: Any) -> int:
    """The ``exact`` hook: the value by :func:`solve_end` when the position
    (not over) has at most ``g[G_EXACT]`` empty squares and ``depth``
    reaches the end of the game (every ply fills a square, or passes before
    one: at most twice the empties), else :data:`NOT_EXACT`. Adds the
    positions it visited below this one to ``counters[0]``."""
    mine = s[0]
    theirs = s[1]
    empties = g[G_FULL] & ~(mine | theirs)
    count = popcount(empties)
    if count > as_int(g[G_EXACT]) or depth < 2 * count:
        return NOT_EXACT
    value, nodes = solve_end(
        mine, theirs, empties, g[G_GOOD], g[G_QUADRANT], g[G_HALF], g[G_CORNERS],
        alpha, beta, ply,
    )
    counters[0] += nodes - 1
    return value


# -- symmetries -------------------------------------------------------------------------
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_B1 = np.uint64(0x00FF00FF00FF00FF)
_B2 = np.uint64(0x0000FFFF0000FFFF)
_T4 = np.uint64(0x0F0F0F0F00000000)
_T2 = np.uint64(0x3333000033330000)
_T1 = np.uint64(0x5500550055005500)
_S4, _S28, _S32 = np.uint64(4), np.uint64(28), np.uint64(32)


@njit(cache=True)
def _mirror_cols(g: U64, b: np.uint64) -> np.uint64:
    """Column ``c`` to column ``n - 1 - c``: reverse the bits of every byte
    (swap halves, quarters, bits: ``c`` to ``7 - c``), then move the board
    back to the first column."""
    b = ((b >> _S1) & _M1) | ((b & _M1) << _S1)
    b = ((b >> _2) & _M2) | ((b & _M2) << _2)
    b = ((b >> _S4) & _M4) | ((b & _M4) << _S4)
    shift: np.uint64 = g[G_SHIFT]
    return b >> shift


@njit(cache=True)
def _flip_rows(g: U64, b: np.uint64) -> np.uint64:
    """Row ``r`` to row ``n - 1 - r``: reverse the bytes, then move the
    board back to the first row."""
    b = ((b >> _S8) & _B1) | ((b & _B1) << _S8)
    b = ((b >> _S16) & _B2) | ((b & _B2) << _S16)
    b = (b >> _S32) | (b << _S32)
    shift: np.uint64 = g[G_SHIFT] * _S8
    return b >> shift


@njit(cache=True)
def _transpose(g: U64, b: np.uint64) -> np.uint64:
    """Square ``(r, c)`` to ``(c, r)``: three delta swaps, as the Python
    game's _transpose_8x8 (the top-left corner maps onto itself)."""
    t = _T4 & (b ^ (b << _S28))
    b ^= t ^ (t >> _S28)
    t = _T2 & (b ^ (b << _S14))
    b ^= t ^ (t >> _S14)
    t = _T1 & (b ^ (b << _S7))
    return b ^ t ^ (t >> _S7)


@njit(cache=True)
def _image(g: U64, b: np.uint64, t: int) -> np.uint64:
    """``b`` under transform ``t`` (:data:`TRANSFORMS`)."""
    if t == 0:
        return b
    if t == 3:
        return _flip_rows(g, _mirror_cols(g, b))
    if t == 4:
        return _mirror_cols(g, b)
    if t == 5:
        return _flip_rows(g, b)
    b = _transpose(g, b)  # 1, 2, 6 and 7 start with the transpose
    if t == 2:
        return _flip_rows(g, _mirror_cols(g, b))
    if t == 6:
        return _mirror_cols(g, b)
    if t == 7:
        return _flip_rows(g, b)
    return b


@njit(cache=True)
def transform(g: U64, s: U64, t: int, d: U64) -> None:
    """Write the image of ``s`` under transform ``t`` into ``d``."""
    d[0] = _image(g, s[0], t)
    d[1] = _image(g, s[1], t)


@njit(cache=True)
def _rank(g: U64, b: np.uint64) -> np.uint64:
    """``b`` packed as the Python game numbers the squares (bit ``r*n +
    c``): the order in which images are compared."""
    n = g[G_N]
    if n == 8:
        return b
    row = (_1 << n) - _1
    out = _0
    for r in range(as_int(n)):
        out |= ((b >> np.uint64(8 * r)) & row) << (np.uint64(r) * n)
    return out


@njit(cache=True)
def canonical(g: U64, s: U64) -> tuple[np.uint64, int]:
    """The key of the least image of ``s`` over the eight symmetries (least
    ``mine``, then least ``theirs``, as the Python game numbers squares; the
    lowest transform on ties) and the transform giving it -- for a position
    within :data:`SYMMETRIC_PLIES` discs of the start. Later, the plain
    ``key`` and transform 0 (the number of empty squares is the same for
    every image, so a class is always keyed one way or the other)."""
    mine = s[0]
    theirs = s[1]
    if as_int(g[G_CELLS]) - popcount(mine | theirs) < as_int(g[G_SYMMETRIC]):
        return _hash(mine, theirs), 0
    best_mine, best_theirs, best_t = mine, theirs, 0
    best_a, best_b = _rank(g, mine), _rank(g, theirs)
    h_mine, h_theirs = _mirror_cols(g, mine), _mirror_cols(g, theirs)
    t_mine, t_theirs = _transpose(g, mine), _transpose(g, theirs)
    th_mine, th_theirs = _mirror_cols(g, t_mine), _mirror_cols(g, t_theirs)
    for t in range(1, 8):
        if t == 1:
            a, b = t_mine, t_theirs
        elif t == 2:
            a, b = _flip_rows(g, th_mine), _flip_rows(g, th_theirs)
        elif t == 3:
            a, b = _flip_rows(g, h_mine), _flip_rows(g, h_theirs)
        elif t == 4:
            a, b = h_mine, h_theirs
        elif t == 5:
            a, b = _flip_rows(g, mine), _flip_rows(g, theirs)
        elif t == 6:
            a, b = th_mine, th_theirs
        else:
            a, b = _flip_rows(g, t_mine), _flip_rows(g, t_theirs)
        ra, rb = _rank(g, a), _rank(g, b)
        if ra < best_a or (ra == best_a and rb < best_b):
            best_mine, best_theirs, best_t, best_a, best_b = a, b, t, ra, rb
    return _hash(best_mine, best_theirs), best_t


@njit(cache=True)
def map_move(g: U64, m: int, t: int, inverse: bool) -> int:
    """Move ``m`` under transform ``t`` (or its inverse); the pass stays."""
    if m == PASS_CODE:
        return m
    if inverse:
        t = 7 if t == 6 else 6 if t == 7 else t
    return as_int(g[G_MAP + t * 64 + m])


# -- the adapter ------------------------------------------------------------------------


def primitives(size: int) -> Primitives:
    """The :class:`Primitives` for a board of side ``size``."""
    cells = size * size
    return Primitives(
        words=2,
        # Every empty square at most (the start has four discs), and the pass.
        max_moves=cells - 4,
        move_codes=PASS_CODE + 1,
        # Every placement fills a square, and a pass is always followed by a
        # placement (two passes in a row end the game).
        max_plies=2 * (cells - 4),
        gen=gen,
        play=play,
        status=status,
        key=key,
        evaluate=evaluate,
        canonical=canonical,
        map_move=map_move,
        informed_order=informed_order,
        exact=exact,
        mover_wins_only=False,
        exact_key=False,
    )


class OthelloNative:
    """The :class:`~.contract.NativeGame` for an :class:`Othello` game."""

    kind = "othello"
    #: The table keys positions near the start by symmetry class (cheap:
    #: later positions get the plain key; see ``canonical``).
    symmetric = True

    def __init__(self, game: rules.Othello, exact: int | None = None) -> None:
        self.game = game
        self.size = game.size
        self.cells = game.cells
        self.prims = primitives(game.size)
        self.constants = constants(game.size, exact)
        n = game.size
        self._codes = [8 * (sq // n) + sq % n for sq in range(self.cells)]
        self._squares = {code: sq for sq, code in enumerate(self._codes)}

    def encode(self, state: Hashable) -> Sequence[int]:
        mine, theirs, _player, _moves = cast("rules.State", state)
        return [to_internal(mine, self.size), to_internal(theirs, self.size)]

    def code(self, action: Any) -> int:
        return PASS_CODE if action == rules.PASS else self._codes[int(action)]

    def action(self, code: int) -> Any:
        return rules.PASS if code == PASS_CODE else self._squares[int(code)]


def adapter(game: Any, exact: int | None = None) -> OthelloNative | None:
    """The native adapter for ``game`` (an :class:`Othello` of size 4, 6 or
    8 -- every size the Python game has), or None for anything else.
    ``exact`` overrides the empties at which the ``exact`` hook solves (0:
    never), for the tests and benchmarks that compare."""
    if type(game) is not rules.Othello or game.size not in rules.SIZES:
        return None
    return OthelloNative(game, exact)


# -- public names for the dedicated endgame solver (native/othello_end.py) ---------
#: The moves of ``mine`` against ``theirs`` in the 8x8 layout (off-board
#: squares not masked: on a smaller board they are never reached).
moves8 = _moves8
#: The discs of ``theirs`` that a disc of ``mine`` on the square ``bit`` flips.
flips8 = _flips8
#: The 64-bit hash of a pair of bitboards (the ``key`` primitive's).
hash_pair = _hash
#: The quadrants holding an odd number of empty squares (the parity order).
odd_regions = _odd_regions
