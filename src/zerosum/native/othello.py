"""Compiled primitives for Othello on 4x4, 6x6 and 8x8 boards (see
:mod:`zerosum.native.contract` for what each primitive promises).

State row (``words = 2``), always from the side to move::

    s[0] = mine    discs of the side to move
    s[1] = theirs  discs of its opponent

Each word is a bitboard with the Python game's layout, bit ``r*size + c``
for row ``r`` from the top and column ``c`` from the left (8x8 shown; 6x6
and 4x4 use the low 36 or 16 bits the same way, row after row)::

         a   b   c   d   e   f   g   h
    1    0   1   2   3   4   5   6   7
    2    8   9  10  11  12  13  14  15
    ...
    8   56  57  58  59  60  61  62  63

Move codes: a square's bit index, and ``cells`` (16, 36 or 64) for a pass
(the Python game's ``PASS`` is -1). Whose turn it is, is not stored: the
colours never matter to the rules, only who moves.

* ``gen``: the Python game's ``ordered_actions`` order (corners, edges, the
  inside, C-squares, X-squares; row-major within a group), or the pass
  alone when the mover has no square but the opponent has one.
* ``status``: ONGOING while either side has a move, else the sign of the
  disc difference for the side to move.
* ``key``: a 64-bit hash of ``(mine, theirs)`` (128 bits of board do not
  fit in a word: ``exact_key`` is false; two positions share a key with a
  probability near 2**-64).
* ``evaluate``: exactly ``Othello.evaluate(state, to_move(state))``.
* ``canonical`` / ``map_move``: all eight symmetries of the square. The
  rules are the same under each, so a position and its images have the same
  value. Transforms 0-3 are the Python game's own (identity, the a1-h8
  diagonal, the h1-a8 diagonal, the half-turn, which keep the start
  position); 4-7 add the mirrors and quarter turns (see :data:`TRANSFORMS`).
  The representative is the image with the least ``(mine, theirs)``, the
  lowest transform on ties, as the Python game chooses among its four.

Othello is not ``mover_wins_only`` and has no cheap win test, so there are
no ``win_move`` / ``nonlosing`` / ``bound`` hooks.

>>> import zerosum
>>> native = adapter(zerosum.load("othello(size=6)"))
>>> native.prims.words, native.code(-1), native.action(36)
(2, 36, -1)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, cast

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..games import othello as rules
from . import bits
from .contract import ONGOING, Primitives

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

# -- the constants array g -------------------------------------------------------
G_N = 0  #: side of the board
G_CELLS = 1  #: n*n, also the pass's move code
G_FULL = 2  #: every square
G_INNER = 3  #: squares off the first and last columns
G_CORNERS = 4  #: the four corners
G_ENDGAME = 5  #: empties at or below which the disc difference counts
G_PAIR_STEPS = 6  #: (n - 4) // 2 two-square steps after two single ones
G_NX = 7  #: corner/X-square pairs (4 on boards of 6 and 8, else 0)
G_XSQ = 8  #: 4 pairs (corner bit, X-square bit), in the Python game's order
G_RANK = 16  #: 5 masks: the squares of each ordering rank (0 first)
G_W_MOBILITY = 21  #: the evaluation weights, from zerosum.games.othello
G_W_CORNER = 22
G_W_X_SQUARE = 23
G_W_DISC = 24
G_ROW0 = 25  #: the first row
G_COL0 = 26  #: the first column
G_DIAG = 27  #: 15 masks: squares with c - r = d at G_DIAG + d + n - 1
G_MAP = 42  #: 8 tables of n*n: square -> its image under transform t
G_SIZE = G_MAP  #: plus 8 * cells

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


def constants(size: int) -> U64:
    """The ``g`` array for a board of side ``size`` (4, 6 or 8)."""
    if size not in rules.SIZES:
        raise ValueError(f"Othello size must be one of {rules.SIZES}, got {size}")
    n = size
    cells = n * n
    g = np.zeros(G_SIZE + 8 * cells, dtype=np.uint64)
    full = (1 << cells) - 1
    col0 = sum(1 << (r * n) for r in range(n))
    g[G_N], g[G_CELLS], g[G_FULL] = n, cells, full
    g[G_INNER] = full & ~col0 & ~(col0 << (n - 1))
    corners = (0, n - 1, n * (n - 1), cells - 1)
    g[G_CORNERS] = sum(1 << sq for sq in corners)
    g[G_ENDGAME] = cells // rules.ENDGAME_SHARE
    g[G_PAIR_STEPS] = (n - 4) // 2
    if n >= 6:  # as the Python game: on 4x4 the "X-square" is the centre
        g[G_NX] = 4
        for i, sq in enumerate(corners):
            r, c = divmod(sq, n)
            x = (r + (1 if r == 0 else -1)) * n + c + (1 if c == 0 else -1)
            g[G_XSQ + 2 * i], g[G_XSQ + 2 * i + 1] = 1 << sq, 1 << x
    for sq in range(cells):  # the Python game's ordering ranks
        r, c = divmod(sq, n)
        dr, dc = min(r, n - 1 - r), min(c, n - 1 - c)
        if dr == 0 and dc == 0:
            rank = 0
        elif dr <= 1 and dc <= 1:
            rank = 4 if dr == dc == 1 else 3
        elif dr == 0 or dc == 0:
            rank = 1
        else:
            rank = 2
        g[G_RANK + rank] |= np.uint64(1 << sq)
    g[G_W_MOBILITY] = rules.W_MOBILITY
    g[G_W_CORNER] = rules.W_CORNER
    g[G_W_X_SQUARE] = rules.W_X_SQUARE
    g[G_W_DISC] = rules.W_DISC
    g[G_ROW0], g[G_COL0] = (1 << n) - 1, col0
    for d in range(-(n - 1), n):
        g[G_DIAG + d + n - 1] = sum(1 << (r * n + r + d) for r in range(n) if 0 <= r + d < n)
    for t, f in enumerate(TRANSFORMS):
        for sq in range(cells):
            r, c = f(n, *divmod(sq, n))
            g[G_MAP + t * cells + sq] = r * n + c
    return g


# -- move generation and flips ------------------------------------------------------
_INNER8 = np.uint64(0x7E7E7E7E7E7E7E7E)
_ALL8 = np.uint64(0xFFFFFFFFFFFFFFFF)
_S1, _S7, _S8, _S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
_S14, _S16, _S18 = np.uint64(14), np.uint64(16), np.uint64(18)


@njit(cache=True)
def _moves8(mine: np.uint64, theirs: np.uint64) -> np.uint64:
    """The 8x8 case of :func:`moves_bits` unrolled (the Python game's
    ``_moves_8x8``: one step, a second, then two steps of two squares over
    pairs of ``theirs``, per direction; lines of up to six discs)."""
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
    """The squares where ``mine`` may play against ``theirs`` (the Python
    game's ``moves_bits``): per direction, a line grows from ``mine`` over
    ``theirs``, one square twice, then two squares at a time over pairs,
    until it covers the longest line that fits (``n - 2`` discs); one more
    step lands on the empty squares. Horizontal and diagonal lines pass only
    over discs off the edge columns, so they never wrap round a row end."""
    n = g[G_N]
    if n == 8:
        return _moves8(mine, theirs)
    inner = theirs & g[G_INNER]
    steps = as_int(g[G_PAIR_STEPS])
    moves = _0
    for direction in range(4):
        if direction == 0:
            shift, mask = _1, inner
        elif direction == 1:
            shift, mask = n, theirs
        elif direction == 2:
            shift, mask = n - _1, inner
        else:
            shift, mask = n + _1, inner
        double = shift + shift
        pair = mask & (mask << shift)
        line = mask & (mine << shift)
        line |= mask & (line << shift)
        for _ in range(steps):
            line |= pair & (line << double)
        moves |= line << shift
        pair >>= shift
        line = mask & (mine >> shift)
        line |= mask & (line >> shift)
        for _ in range(steps):
            line |= pair & (line >> double)
        moves |= line >> shift
    full: np.uint64 = g[G_FULL]
    return moves & (full ^ (mine | theirs))


@njit(cache=True)
def flips(g: U64, mine: np.uint64, theirs: np.uint64, square: int) -> np.uint64:
    """The discs of ``theirs`` that a disc of ``mine`` on ``square`` flips.

    Per direction, walk from the square over ``theirs`` (off the edge
    columns for lines that cross columns, so a walk never wraps to the next
    row); the run is flipped when the walk then meets a disc of ``mine``.
    A step past either end of the word or of the board meets neither."""
    n = g[G_N]
    inner = theirs & g[G_INNER]
    bit = _1 << np.uint64(square)
    flipped = _0
    for direction in range(4):
        if direction == 0:
            shift, mask = _1, inner
        elif direction == 1:
            shift, mask = n, theirs
        elif direction == 2:
            shift, mask = n - _1, inner
        else:
            shift, mask = n + _1, inner
        run = _0
        step = bit << shift
        while step & mask:
            run |= step
            step <<= shift
        if step & mine:
            flipped |= run
        run = _0
        step = bit >> shift
        while step & mask:
            run |= step
            step >>= shift
        if step & mine:
            flipped |= run
    return flipped


# -- the primitives -------------------------------------------------------------------


@njit(cache=True)
def gen(g: U64, s: U64, out: I32) -> int:
    """Legal moves of the side to move in ``ordered_actions`` order: rank by
    rank (corners, edges, inside, C-squares, X-squares), each rank from the
    lowest square up; the pass alone when the mover has no square and the
    opponent has one; none when neither side can move."""
    moves = moves_bits(g, s[0], s[1])
    if moves == 0:
        if moves_bits(g, s[1], s[0]) == 0:
            return 0
        out[0] = np.int32(g[G_CELLS])
        return 1
    count = 0
    for rank in range(5):
        bits = moves & g[G_RANK + rank]
        while bits:
            out[count] = ctz(bits)
            count += 1
            bits &= bits - _1
    if count > 1 and informed_order(g, s):
        # Fastest first (as the Python game): fewest opponent replies first,
        # a stable insertion sort keeping the rank order among equals.
        replies = np.empty(count, dtype=np.int64)
        for i in range(count):
            square = out[i]
            flipped = flips(g, s[0], s[1], square)
            mover = s[0] | flipped | (_1 << np.uint64(square))
            r = popcount(moves_bits(g, s[1] ^ flipped, mover))
            j = i
            while j > 0 and replies[j - 1] > r:
                replies[j] = replies[j - 1]
                out[j] = out[j - 1]
                j -= 1
            replies[j] = r
            out[j] = square
    return count


@njit(cache=True)
def informed_order(g: U64, s: U64) -> bool:
    """Whether ``gen`` orders fastest first here (at most
    ``FASTEST_FIRST`` empty squares): the search then keeps that order."""
    return bool(as_int(g[G_CELLS]) - popcount(s[0] | s[1]) <= rules.FASTEST_FIRST)


@njit(cache=True)
def play(g: U64, s: U64, m: int, d: U64) -> None:
    """Write into ``d`` the position after move ``m`` (a square, or the pass
    code ``cells``), seen from the new side to move."""
    mine = s[0]
    theirs = s[1]
    if m == as_int(g[G_CELLS]):
        d[0] = theirs
        d[1] = mine
        return
    flipped = flips(g, mine, theirs, m)
    d[0] = theirs ^ flipped
    d[1] = mine | flipped | (_1 << np.uint64(m))


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
    """Column ``c`` to column ``n - 1 - c``."""
    n = g[G_N]
    if n == 8:  # reverse the bits of every byte: swap halves, quarters, bits
        b = ((b >> _S1) & _M1) | ((b & _M1) << _S1)
        b = ((b >> _2) & _M2) | ((b & _M2) << _2)
        return ((b >> _S4) & _M4) | ((b & _M4) << _S4)
    col0 = g[G_COL0]
    out = _0
    for c in range(n):
        out |= ((b >> np.uint64(c)) & col0) << (n - _1 - np.uint64(c))
    return out


@njit(cache=True)
def _flip_rows(g: U64, b: np.uint64) -> np.uint64:
    """Row ``r`` to row ``n - 1 - r``."""
    n = g[G_N]
    if n == 8:  # reverse the bytes
        b = ((b >> _S8) & _B1) | ((b & _B1) << _S8)
        b = ((b >> _S16) & _B2) | ((b & _B2) << _S16)
        return (b >> _S32) | (b << _S32)
    row0 = g[G_ROW0]
    out = _0
    for r in range(n):
        out |= ((b >> (np.uint64(r) * n)) & row0) << ((n - _1 - np.uint64(r)) * n)
    return out


@njit(cache=True)
def _transpose(g: U64, b: np.uint64) -> np.uint64:
    """Square ``(r, c)`` to ``(c, r)``: each diagonal ``c - r = d`` moves
    ``d * (n - 1)`` bits."""
    n = g[G_N]
    if n == 8:  # three delta swaps, as the Python game's _transpose_8x8
        t = _T4 & (b ^ (b << _S28))
        b ^= t ^ (t >> _S28)
        t = _T2 & (b ^ (b << _S14))
        b ^= t ^ (t >> _S14)
        t = _T1 & (b ^ (b << _S7))
        return b ^ t ^ (t >> _S7)
    last = as_int(n) - 1
    out = _0
    for d in range(-last, last + 1):
        part = b & g[G_DIAG + d + last]
        if d > 0:
            out |= part << np.uint64(d * last)
        elif d < 0:
            out |= part >> np.uint64(-d * last)
        else:
            out |= part
    return out


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
def canonical(g: U64, s: U64) -> tuple[np.uint64, int]:
    """The key of the least image of ``s`` over the eight symmetries (least
    ``mine``, then least ``theirs``; the lowest transform on ties) and the
    transform giving it."""
    mine = s[0]
    theirs = s[1]
    best_mine, best_theirs, best_t = mine, theirs, 0
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
        if a < best_mine or (a == best_mine and b < best_theirs):
            best_mine, best_theirs, best_t = a, b, t
    return _hash(best_mine, best_theirs), best_t


@njit(cache=True)
def map_move(g: U64, m: int, t: int, inverse: bool) -> int:
    """Move ``m`` under transform ``t`` (or its inverse); the pass stays."""
    cells = as_int(g[G_CELLS])
    if m == cells:
        return m
    if inverse:
        t = 7 if t == 6 else 6 if t == 7 else t
    return as_int(g[G_MAP + t * cells + m])


# -- the adapter ------------------------------------------------------------------------


def primitives(size: int) -> Primitives:
    """The :class:`Primitives` for a board of side ``size``."""
    cells = size * size
    return Primitives(
        words=2,
        # Every empty square at most (the start has four discs), and the pass.
        max_moves=cells - 4,
        move_codes=cells + 1,
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
        mover_wins_only=False,
        exact_key=False,
    )


class OthelloNative:
    """The :class:`~.contract.NativeGame` for an :class:`Othello` game."""

    kind = "othello"

    def __init__(self, game: rules.Othello) -> None:
        self.game = game
        self.size = game.size
        self.cells = game.cells
        self.prims = primitives(game.size)
        self.constants = constants(game.size)

    def encode(self, state: Hashable) -> Sequence[int]:
        mine, theirs, _player, _moves = cast("rules.State", state)
        return [mine, theirs]

    def code(self, action: Any) -> int:
        return self.cells if action == rules.PASS else int(action)

    def action(self, code: int) -> Any:
        return rules.PASS if code == self.cells else int(code)


def adapter(game: Any) -> OthelloNative | None:
    """The native adapter for ``game`` (an :class:`Othello` of size 4, 6 or
    8 -- every size the Python game has), or None for anything else."""
    if type(game) is not rules.Othello or game.size not in rules.SIZES:
        return None
    return OthelloNative(game)
