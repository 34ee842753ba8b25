"""Connect Four's compiled primitives for the boards whose layout does not
fit one 64-bit word (``width * (height + 1) > 64``: 9x7, 8x8, 7x9, 9x8, 8x9
and 9x9, 72 to 90 bits); :mod:`.connect4` serves the smaller ones.

The layout is the Python game's (``zerosum.games.connect4``: column ``c``
at bits ``c*(height+1)`` upwards, a sentinel bit on top), held as a 128-bit
number in two words: ``lo`` holds bits 0-63, ``hi`` bits 64-127 (bit ``b``
is bit ``b - 64`` of ``hi``). Drawn for 9x9, ten bits a column::

     9 19 29 39 49 59 69 79 89   <- sentinel row (never holds a stone)
     8 18 28 38 48 58 68 78 88
     7 17 27 37 47 57 67 77 87
     6 16 26 36 46 56 66 76 86
     5 15 25 35 45 55 65 75 85
     4 14 24 34 44 54 64 74 84   <- 64: bit 0 of hi
     3 13 23 33 43 53 63 73 83   <- 63: bit 63 of lo
     2 12 22 32 42 52 62 72 82
     1 11 21 31 41 51 61 71 81
     0 10 20 30 40 50 60 70 80   <- bottom row
     1  2  3  4  5  6  7  8  9   <- move (column) numbers

Columns 1-6 (bits 0-59) lie in ``lo``, column 7 (bits 60-69) straddles the
two words, columns 8 and 9 (bits 70-89) lie in ``hi``, whose bits 26-63
stay empty.

State row (``words = 4``): ``[current_lo, current_hi, mask_lo, mask_hi]``:
the stones of the side to move and every stone, without the Python state's
status, which ``status`` works out from the previous mover's stones.
Moves are columns (codes 0..width-1).

Every formula is the one-word module's on 128-bit values, through the small
helpers below: shifts by ``0 < n < 64`` (every shift of the threat, four
and window formulas: at most ``3 * (height + 2) = 33``) move the bits that
cross the boundary from one word to the other; ``mask + bottom`` carries
from ``lo`` into ``hi`` (a column straddling the boundary fills across it).
A bit shifted past bit 127 or below bit 0 is lost, as past bit 63 in the
one-word module: such a cell is off the board, which every result is masked
to.

``key`` is not injective (``exact_key`` is false): ``current + mask`` (the
Python game's key, up to 90 bits) mixed down to 64 bits. For a fixed high
word the mix is a bijection of the low word, so two keys that differ only
in their low 64 bits never collide; any other pair collides with a
probability near 2**-64 per probe. (A key that packs each column's contents
cannot fit: a column has ``2**(height+1) - 1`` of them, and already on 9x7
``(2**8 - 1)**9 > 2**64``; ranking only the reachable positions would be no
cheap key.) ``canonical`` picks the Python game's representative (the
smaller of the 128-bit key and its mirror image, the key on a tie) with its
transform, and returns the representative's mix.

The answers are the Python game's, in the same order: ``gen`` the columns
from the centre outwards (``ordered_actions``); ``win_move`` the leftmost
winning column; ``nonlosing`` the columns after which the opponent cannot
win at once, most threats after the move first, ties from the centre
outwards (``non_losing_actions`` at a position where the mover cannot win
at once, the only kind the kernel asks: it tries ``win_move`` first, or
the parent's list already excluded a win); ``evaluate`` the same windows,
threats, parity, centre and tempo terms.

Five stones in column 7 of 9x9: four in ``lo`` (bits 60-63), the fifth in
``hi`` (bit 64); Yellow to move, with the second and fourth:

>>> import zerosum
>>> game = zerosum.load("connect4(width=9,height=9)")
>>> native = adapter(game)
>>> native.kind, native.prims.words, native.prims.exact_key
('connect4_wide', 4, False)
>>> [hex(word) for word in native.encode(game.play(list("77777")))]
['0xa000000000000000', '0x0', '0xf000000000000000', '0x1']
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
from numba import njit

from ..games import connect4 as rules
from .bits import ONE, ZERO, lowest_index, popcount
from .contract import ONGOING, Primitives

# -- the constants array g ----------------------------------------------------
# A 128-bit constant takes two slots: low word, then high word.
G_WIDTH, G_HEIGHT, G_H1 = 0, 1, 2
G_BOTTOM = 3  #: the bottom row (2 slots)
G_BOARD = 5  #: every playable cell (2 slots)
G_ODD_ROWS = 7  #: rows 1, 3, 5... from the bottom: Red's parity (2 slots)
G_EVEN_ROWS = 9  #: the others: Yellow's (2 slots)
G_ORDER = 11  #: 9 slots: columns from the centre outwards
G_COLUMN = 20  #: 9 pairs: each column's cells
G_TOP_CELL = 38  #: 9 pairs: each column's top cell (full when it holds a stone)
G_BOTTOM_CELL = 56  #: 9 pairs: each column's bottom cell
G_CENTRE_N = 74  #: how many (weight, cells) centre terms
G_CENTRE = 75  #: up to 4 triples (weight, cells lo, cells hi)
G_WINDOW = 87  #: 4 triples (step, anchors lo, anchors hi)
G_SIZE = 99

#: The boards this module serves: their layout needs more than one word.
WORD_BITS = 64

_WORD = (1 << 64) - 1
_TWO = np.uint64(2)
_THREE = np.uint64(3)
_FOUR = np.uint64(4)
_64 = np.uint64(64)
# The key's mix: MurmurHash3's 64-bit finaliser (a bijection of the word).
_M1 = np.uint64(0xFF51AFD7ED558CCD)
_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_33 = np.uint64(33)
_SALT = np.uint64(0x9E3779B97F4A7C15)


def _put(g: Any, index: int, value: int) -> None:
    """A 128-bit ``value`` into ``g[index]`` (low word), ``g[index + 1]``."""
    g[index], g[index + 1] = value & _WORD, value >> 64


def constants(game: rules.ConnectFour) -> Any:
    """The ``g`` array for ``game``'s size (from the game's public
    :class:`~zerosum.games.connect4.BitLayout`, so both sides share one
    definition of each table)."""
    layout = game.bit_layout
    g = np.zeros(G_SIZE, dtype=np.uint64)
    g[G_WIDTH], g[G_HEIGHT], g[G_H1] = game.width, game.height, game.height + 1
    _put(g, G_BOTTOM, layout.bottom_row)
    _put(g, G_BOARD, layout.board)
    _put(g, G_ODD_ROWS, layout.parity_rows[0])
    _put(g, G_EVEN_ROWS, layout.parity_rows[1])
    for i, column in enumerate(layout.centre_order):
        g[G_ORDER + i] = column
    for column, cells in enumerate(layout.column_mask):
        _put(g, G_COLUMN + 2 * column, cells)
        _put(g, G_TOP_CELL + 2 * column, cells & layout.top_row)
        _put(g, G_BOTTOM_CELL + 2 * column, layout.bottom[column])
    g[G_CENTRE_N] = len(layout.centre_cells)
    for i, (weight, cells) in enumerate(layout.centre_cells):
        g[G_CENTRE + 3 * i] = weight
        _put(g, G_CENTRE + 3 * i + 1, cells)
    for i, (step, anchors) in enumerate(layout.windows):
        g[G_WINDOW + 3 * i] = step
        _put(g, G_WINDOW + 3 * i + 1, anchors)
    return g


# -- 128-bit helpers: a value is a pair (lo, hi) --------------------------------
# The helpers and the hot formulas (threats, has_four, _playable) are inlined
# into their callers at numba's level (``inline="always"``): the pairs then
# never cross a call, and the kernel visited about 13% more positions per
# second of CPU on 9x9 (4.8 million against 4.2), for about a second more of
# the one-time compilation.


@njit(cache=True, nogil=True, inline="always")
def shl(lo: Any, hi: Any, n: Any) -> tuple[Any, Any]:
    """``(lo, hi) << n`` for ``0 < n < 64`` (``lo >> 64`` is undefined: the
    callers never shift by 0)."""
    return lo << n, (hi << n) | (lo >> (_64 - n))


@njit(cache=True, nogil=True, inline="always")
def shr(lo: Any, hi: Any, n: Any) -> tuple[Any, Any]:
    """``(lo, hi) >> n`` for ``0 < n < 64``."""
    return (lo >> n) | (hi << (_64 - n)), hi >> n


@njit(cache=True, nogil=True, inline="always")
def add(alo: Any, ahi: Any, blo: Any, bhi: Any) -> tuple[Any, Any]:
    """``a + b`` modulo 2**128: the low words' carry goes into the high."""
    lo = alo + blo
    carry = ONE if lo < alo else ZERO
    return lo, ahi + bhi + carry


@njit(cache=True, nogil=True)
def _shl_any(lo: Any, hi: Any, n: Any) -> tuple[Any, Any]:
    """``(lo, hi) << n`` for any ``0 <= n < 128`` (the mirror's column moves)."""
    if n == ZERO:
        return lo, hi
    if n < _64:
        return shl(lo, hi, n)
    return ZERO, lo << (n - _64)


@njit(cache=True, nogil=True)
def _shr_any(lo: Any, hi: Any, n: Any) -> tuple[Any, Any]:
    """``(lo, hi) >> n`` for any ``0 <= n < 128``."""
    if n == ZERO:
        return lo, hi
    if n < _64:
        return shr(lo, hi, n)
    return hi >> (n - _64), ZERO


@njit(cache=True, nogil=True, inline="always")
def _fmix(x: Any) -> Any:
    x ^= x >> _33
    x *= _M1
    x ^= x >> _33
    x *= _M2
    return x ^ (x >> _33)


@njit(cache=True, nogil=True)
def mix(lo: Any, hi: Any) -> Any:
    """The 64-bit key of the 128-bit ``(lo, hi)``: for a fixed ``hi`` a
    bijection of ``lo`` (an xor with a constant, then a bijective mix)."""
    return _fmix(lo ^ _fmix(hi ^ _SALT))


# -- the rules ------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def threats(g: Any, slo: Any, shi: Any, mlo: Any, mhi: Any) -> tuple[Any, Any]:
    """Empty cells where one more of the stones ``s`` makes four in a row
    (``m`` every stone): the one-word module's formula, on two words."""
    h = g[G_HEIGHT]
    # vertical: three stones directly below
    alo, ahi = shl(slo, shi, ONE)
    blo, bhi = shl(slo, shi, _TWO)
    clo, chi = shl(slo, shi, _THREE)
    rlo, rhi = alo & blo & clo, ahi & bhi & chi
    for step in (h, h + ONE, h + _TWO):  # down-diagonal, across, up-diagonal
        u1lo, u1hi = shl(slo, shi, step)
        u2lo, u2hi = shl(slo, shi, _TWO * step)
        u3lo, u3hi = shl(slo, shi, _THREE * step)
        d1lo, d1hi = shr(slo, shi, step)
        d2lo, d2hi = shr(slo, shi, _TWO * step)
        d3lo, d3hi = shr(slo, shi, _THREE * step)
        # stones at -1 and -2 steps and at -3 or +1; at +1 and +2 and at -1 or +3
        rlo |= (u1lo & u2lo & (u3lo | d1lo)) | (d1lo & d2lo & (u1lo | d3lo))
        rhi |= (u1hi & u2hi & (u3hi | d1hi)) | (d1hi & d2hi & (u1hi | d3hi))
    return rlo & (g[G_BOARD] ^ mlo), rhi & (g[G_BOARD + 1] ^ mhi)


@njit(cache=True, nogil=True, inline="always")
def has_four(g: Any, lo: Any, hi: Any) -> bool:
    """Whether the stones ``(lo, hi)`` hold four in a row."""
    h = g[G_HEIGHT]
    for step in (ONE, h, h + ONE, h + _TWO):
        plo, phi = shr(lo, hi, step)
        plo &= lo
        phi &= hi
        qlo, qhi = shr(plo, phi, _TWO * step)
        if (plo & qlo) | (phi & qhi):
            return True
    return False


@njit(cache=True, nogil=True)
def status(g: Any, s: Any) -> Any:
    if has_four(g, s[0] ^ s[2], s[1] ^ s[3]):
        return -1  # the previous mover made four
    if s[2] == g[G_BOARD] and s[3] == g[G_BOARD + 1]:
        return 0
    return ONGOING


@njit(cache=True, nogil=True)
def gen(g: Any, s: Any, out: Any) -> Any:
    mlo, mhi = s[2], s[3]
    n = 0
    for i in range(np.int64(g[G_WIDTH])):
        column = np.int64(g[G_ORDER + i])
        top = G_TOP_CELL + 2 * column
        if (mlo & g[top]) | (mhi & g[top + 1]) == ZERO:
            out[n] = column
            n += 1
    return n


@njit(cache=True, nogil=True)
def play(g: Any, s: Any, m: int, d: Any) -> None:
    mlo, mhi = s[2], s[3]
    bottom = G_BOTTOM_CELL + 2 * m
    plo, phi = add(mlo, mhi, g[bottom], g[bottom + 1])
    d[0] = s[0] ^ mlo  # the opponent is to move next
    d[1] = s[1] ^ mhi
    d[2] = mlo | plo
    d[3] = mhi | phi


@njit(cache=True, nogil=True)
def key(g: Any, s: Any) -> Any:
    klo, khi = add(s[0], s[1], s[2], s[3])
    return mix(klo, khi)


@njit(cache=True, nogil=True, inline="always")
def _playable(g: Any, mlo: Any, mhi: Any) -> tuple[Any, Any]:
    """The cell each non-full column would fill next."""
    plo, phi = add(mlo, mhi, g[G_BOTTOM], g[G_BOTTOM + 1])
    return plo & g[G_BOARD], phi & g[G_BOARD + 1]


@njit(cache=True, nogil=True)
def win_move(g: Any, s: Any) -> Any:
    mlo, mhi = s[2], s[3]
    plo, phi = _playable(g, mlo, mhi)
    tlo, thi = threats(g, s[0], s[1], mlo, mhi)
    wlo, whi = tlo & plo, thi & phi
    if wlo:
        return lowest_index(wlo) // np.int64(g[G_H1])  # the leftmost column
    if whi:
        return (lowest_index(whi) + 64) // np.int64(g[G_H1])
    return -1


@njit(cache=True, nogil=True)
def nonlosing(g: Any, s: Any, out: Any) -> Any:
    clo, chi, mlo, mhi = s[0], s[1], s[2], s[3]
    plo, phi = _playable(g, mlo, mhi)
    tlo, thi = threats(g, clo ^ mlo, chi ^ mhi, mlo, mhi)  # the opponent's
    flo, fhi = plo & tlo, phi & thi
    forced = popcount(flo) + popcount(fhi)
    # two threats to block: every move loses; one: it must be blocked
    if forced == 0:
        alo, ahi = plo, phi
    elif forced == 1:
        alo, ahi = flo, fhi
    else:
        alo, ahi = ZERO, ZERO
    ulo, uhi = shr(tlo, thi, ONE)
    alo &= ~ulo  # never play beneath an opponent threat
    ahi &= ~uhi
    # Sort by (threats after the move, nearer the centre), descending: each
    # entry of out packs key << 4 | column, key = count << 4 | tie (tie
    # higher nearer the centre, so unique): no array to allocate per node.
    n = 0
    for rank in range(np.int64(g[G_WIDTH])):
        column = np.int64(g[G_ORDER + rank])
        cells = G_COLUMN + 2 * column
        vlo, vhi = alo & g[cells], ahi & g[cells + 1]
        if vlo | vhi:
            xlo, xhi = threats(g, clo | vlo, chi | vhi, mlo, mhi)
            count = popcount(xlo) + popcount(xhi)
            k = (((count << 4) | (rules.MAX_SIZE - rank)) << 4) | column
            j = n
            while j > 0 and out[j - 1] < k:
                out[j] = out[j - 1]
                j -= 1
            out[j] = k
            n += 1
    for i in range(n):
        out[i] &= 15
    return n


@njit(cache=True, nogil=True)
def _side_score(g: Any, lo: Any, hi: Any, mlo: Any, mhi: Any, parity: int) -> Any:
    tlo, thi = threats(g, lo, hi, mlo, mhi)
    score = (popcount(tlo) + popcount(thi)) * rules.THREAT_WEIGHT
    near = popcount(tlo & g[parity]) + popcount(thi & g[parity + 1])
    score += near * rules.PARITY_THREAT_WEIGHT
    for i in range(np.int64(g[G_CENTRE_N])):
        at = G_CENTRE + 3 * i
        weight = np.int64(g[at])
        score += weight * (popcount(lo & g[at + 1]) + popcount(hi & g[at + 2]))
    return score


@njit(cache=True, nogil=True)
def _window_score(g: Any, lo: Any, hi: Any, olo: Any, ohi: Any) -> Any:
    """Open windows of the stones ``(lo, hi)`` (no stone of ``o``), weighted
    by how many stones they hold (the low and twos bits of each count)."""
    score = 0
    for i in range(4):
        at = G_WINDOW + 3 * i
        step = g[at]
        m1lo, m1hi = shr(lo, hi, step)
        m2lo, m2hi = shr(lo, hi, _TWO * step)
        m3lo, m3hi = shr(lo, hi, _THREE * step)
        t1lo, t1hi = shr(olo, ohi, step)
        t2lo, t2hi = shr(olo, ohi, _TWO * step)
        t3lo, t3hi = shr(olo, ohi, _THREE * step)
        open_lo = g[at + 1] & ~(olo | t1lo | t2lo | t3lo)
        open_hi = g[at + 2] & ~(ohi | t1hi | t2hi | t3hi)
        alo, blo = lo ^ m1lo, m2lo ^ m3lo
        ahi, bhi = hi ^ m1hi, m2hi ^ m3hi
        low_lo, low_hi = alo ^ blo, ahi ^ bhi
        twos_lo = (lo & m1lo) ^ (m2lo & m3lo) ^ (alo & blo)
        twos_hi = (hi & m1hi) ^ (m2hi & m3hi) ^ (ahi & bhi)
        ones = popcount(open_lo & low_lo & ~twos_lo) + popcount(open_hi & low_hi & ~twos_hi)
        pairs = popcount(open_lo & twos_lo & ~low_lo) + popcount(open_hi & twos_hi & ~low_hi)
        threes = popcount(open_lo & low_lo & twos_lo) + popcount(open_hi & low_hi & twos_hi)
        score += rules.WINDOW_WEIGHT[1] * ones
        score += rules.WINDOW_WEIGHT[2] * pairs
        score += rules.WINDOW_WEIGHT[3] * threes
    return score


@njit(cache=True, nogil=True)
def evaluate(g: Any, s: Any) -> Any:
    clo, chi, mlo, mhi = s[0], s[1], s[2], s[3]
    red_to_move = (popcount(mlo) + popcount(mhi)) & 1 == 0
    if red_to_move:
        rlo, rhi, ylo, yhi = clo, chi, clo ^ mlo, chi ^ mhi
    else:
        rlo, rhi, ylo, yhi = clo ^ mlo, chi ^ mhi, clo, chi
    score = _side_score(g, rlo, rhi, mlo, mhi, G_ODD_ROWS)
    score -= _side_score(g, ylo, yhi, mlo, mhi, G_EVEN_ROWS)
    score += _window_score(g, rlo, rhi, ylo, yhi) - _window_score(g, ylo, yhi, rlo, rhi)
    if win_move(g, s) >= 0:
        score += rules.PLAYABLE_WIN_WEIGHT if red_to_move else -rules.PLAYABLE_WIN_WEIGHT
    # The mover's move in hand (the rules' evaluate: why).
    return (score if red_to_move else -score) + rules.TEMPO_WEIGHT


@njit(cache=True, nogil=True)
def _mirror(g: Any, lo: Any, hi: Any) -> tuple[Any, Any]:
    """The columns of ``(lo, hi)`` in reverse order (a key's columns are
    independent: each one's sum stays inside it)."""
    h1 = g[G_H1]
    column = (ONE << h1) - ONE
    last = g[G_WIDTH] - ONE
    olo, ohi = ZERO, ZERO
    for c in range(np.int64(g[G_WIDTH])):
        cc = np.uint64(c)
        xlo, _ = _shr_any(lo, hi, cc * h1)
        ylo, yhi = _shl_any(xlo & column, ZERO, (last - cc) * h1)
        olo |= ylo
        ohi |= yhi
    return olo, ohi


@njit(cache=True, nogil=True)
def canonical(g: Any, s: Any) -> tuple[Any, int]:
    klo, khi = add(s[0], s[1], s[2], s[3])
    rlo, rhi = _mirror(g, klo, khi)
    if khi < rhi or (khi == rhi and klo <= rlo):
        return mix(klo, khi), 0
    return mix(rlo, rhi), 1


@njit(cache=True, nogil=True)
def map_move(g: Any, m: int, t: int, inverse: bool) -> Any:
    return np.int64(g[G_WIDTH]) - 1 - m if t else m


PRIMITIVES = Primitives(
    words=4,
    max_moves=rules.MAX_SIZE,
    move_codes=rules.MAX_SIZE,
    max_plies=rules.MAX_SIZE * rules.MAX_SIZE,
    gen=gen,
    play=play,
    status=status,
    key=key,
    evaluate=evaluate,
    win_move=win_move,
    nonlosing=nonlosing,
    canonical=canonical,
    map_move=map_move,
    mover_wins_only=True,
    exact_key=False,
)


class ConnectFourWideNative:
    """The adapter (:class:`~.contract.NativeGame`) for one board size whose
    layout needs two words."""

    kind = "connect4_wide"
    prims = PRIMITIVES

    def __init__(self, game: rules.ConnectFour) -> None:
        if game.width * (game.height + 1) <= WORD_BITS:
            raise ValueError("the one-word module (zerosum.native.connect4) serves this size")
        self.constants = constants(game)

    def encode(self, state: Hashable) -> Sequence[int]:
        current, mask = state[0], state[1]  # type: ignore[index]
        return (current & _WORD, current >> 64, mask & _WORD, mask >> 64)

    def code(self, action: Any) -> int:
        return int(action)

    def action(self, code: int) -> Any:
        return int(code)


def adapter(game: rules.ConnectFour) -> ConnectFourWideNative:
    """The adapter for a board whose layout needs more than 64 bits."""
    return ConnectFourWideNative(game)
