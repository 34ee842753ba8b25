"""Connect Four's compiled primitives (boards whose layout fits 64 bits:
``width * (height + 1) <= 64``, so 7x6, 8x7, 9x6 and the smaller ones).

The state row is ``[current, mask]``: the Python game's bitboards
(``zerosum.games.connect4``, whose docstring draws the layout: a column per
``height + 1`` bits, a sentinel bit on top), without its status, which
``status`` works out from the previous mover's stones. ``current + mask`` is
the exact key (Pons). Moves are columns (codes 0..width-1).

The hooks are the Python game's, with the same answers in the same order:
``win_move`` the leftmost winning column; ``nonlosing`` the columns after
which the opponent cannot win at once (Pons' "possible non-losing moves"),
most threats after the move first, ties from the centre outwards;
``evaluate`` the same windows, threats, parity, centre and tempo terms.

Larger boards (9x7, 8x8, 7x9 and up) do not fit one word: :func:`adapter`
hands them to :mod:`.connect4_wide`, the same primitives on two-word
bitboards.
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
G_WIDTH, G_HEIGHT, G_H1, G_BOTTOM, G_BOARD, G_TOP, G_ODD_ROWS, G_EVEN_ROWS = range(8)
G_ORDER = 8  #: 9 slots: columns from the centre outwards
G_COLUMN = 17  #: 9 slots: each column's cells
G_CENTRE_N = 26  #: how many (weight, cells) centre terms
G_CENTRE = 27  #: up to 4 pairs
G_WINDOW = 35  #: 4 pairs (step, anchors)
G_SIZE = 43

_THREE = np.uint64(3)
_TWO = np.uint64(2)


def constants(game: rules.ConnectFour) -> Any:
    """The ``g`` array for ``game``'s size (from the game's public
    :class:`~zerosum.games.connect4.BitLayout`: one definition of each
    table, shared with the Python rules)."""
    layout = game.bit_layout
    g = np.zeros(G_SIZE, dtype=np.uint64)
    g[G_WIDTH], g[G_HEIGHT], g[G_H1] = game.width, game.height, game.height + 1
    g[G_BOTTOM], g[G_BOARD], g[G_TOP] = layout.bottom_row, layout.board, layout.top_row
    g[G_ODD_ROWS], g[G_EVEN_ROWS] = layout.parity_rows
    for i, column in enumerate(layout.centre_order):
        g[G_ORDER + i] = column
    for column, cells in enumerate(layout.column_mask):
        g[G_COLUMN + column] = cells
    g[G_CENTRE_N] = len(layout.centre_cells)
    for i, (weight, cells) in enumerate(layout.centre_cells):
        g[G_CENTRE + 2 * i], g[G_CENTRE + 2 * i + 1] = weight, cells
    for i, (step, anchors) in enumerate(layout.windows):
        g[G_WINDOW + 2 * i], g[G_WINDOW + 2 * i + 1] = step, anchors
    return g


@njit(cache=True, nogil=True)
def threats(g: Any, stones: Any, mask: Any) -> Any:
    """Empty cells where one more of ``stones`` makes four in a row."""
    h = g[G_HEIGHT]
    # vertical: three stones directly below
    r = (stones << ONE) & (stones << _TWO) & (stones << _THREE)
    for step in (h, h + ONE, h + _TWO):  # down-diagonal, across, up-diagonal
        p = (stones << step) & (stones << (_TWO * step))
        r |= p & (stones << (_THREE * step))
        r |= p & (stones >> step)
        p = (stones >> step) & (stones >> (_TWO * step))
        r |= p & (stones << step)
        r |= p & (stones >> (_THREE * step))
    return r & (g[G_BOARD] ^ mask)


@njit(cache=True, nogil=True)
def has_four(g: Any, stones: Any) -> bool:
    h = g[G_HEIGHT]
    for step in (ONE, h, h + ONE, h + _TWO):
        pair = stones & (stones >> step)
        if pair & (pair >> (_TWO * step)):
            return True
    return False


@njit(cache=True, nogil=True)
def status(g: Any, s: Any) -> Any:
    if has_four(g, s[0] ^ s[1]):
        return -1  # the previous mover made four
    if s[1] == g[G_BOARD]:
        return 0
    return ONGOING


@njit(cache=True, nogil=True)
def gen(g: Any, s: Any, out: Any) -> Any:
    mask = s[1]
    n = 0
    for i in range(g[G_WIDTH]):
        column = g[G_ORDER + i]
        if mask & g[G_COLUMN + column] & g[G_TOP] == ZERO:
            out[n] = column
            n += 1
    return n


@njit(cache=True, nogil=True)
def play(g: Any, s: Any, m: int, d: Any) -> None:
    mask = s[1]
    bottom = ONE << (np.uint64(m) * g[G_H1])
    d[0] = s[0] ^ mask  # the opponent is to move next
    d[1] = mask | (mask + bottom)


@njit(cache=True, nogil=True)
def key(g: Any, s: Any) -> Any:
    return s[0] + s[1]


@njit(cache=True, nogil=True)
def win_move(g: Any, s: Any) -> Any:
    mask = s[1]
    playable = (mask + g[G_BOTTOM]) & g[G_BOARD]
    wins = threats(g, s[0], mask) & playable
    if wins == ZERO:
        return -1
    return lowest_index(wins) // np.int64(g[G_H1])  # the leftmost column


@njit(cache=True, nogil=True)
def nonlosing(g: Any, s: Any, out: Any) -> Any:
    current, mask = s[0], s[1]
    playable = (mask + g[G_BOTTOM]) & g[G_BOARD]
    theirs = threats(g, current ^ mask, mask)
    forced = playable & theirs
    # two threats to block: every move loses; one: it must be blocked
    candidates = playable if not forced else ZERO if forced & (forced - ONE) else forced
    candidates &= ~(theirs >> ONE)  # never play beneath an opponent threat
    # Sorted in ``out`` itself as packed keys (no buffer allocated at each
    # position): threats after the move << 8 | tie (nearer the centre:
    # higher) << 4 | column; the column is unpacked at the end.
    n = 0
    width = g[G_WIDTH]
    for rank in range(width):
        column = g[G_ORDER + rank]
        move = candidates & g[G_COLUMN + column]
        if move:
            count = popcount(threats(g, current | move, mask))
            k = (count << 8) | ((rules.MAX_SIZE - rank) << 4) | np.int64(column)
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
def _side_score(g: Any, mine: Any, mask: Any, parity: Any) -> Any:
    t = threats(g, mine, mask)
    score = popcount(t) * rules.THREAT_WEIGHT
    score += popcount(t & parity) * rules.PARITY_THREAT_WEIGHT
    for i in range(g[G_CENTRE_N]):
        weight = np.int64(g[G_CENTRE + 2 * i])
        score += weight * popcount(mine & g[G_CENTRE + 2 * i + 1])
    return score


@njit(cache=True, nogil=True)
def _window_score(g: Any, mine: Any, theirs: Any) -> Any:
    score = 0
    for i in range(4):
        step = g[G_WINDOW + 2 * i]
        anchors = g[G_WINDOW + 2 * i + 1]
        m1, m2, m3 = mine >> step, mine >> (_TWO * step), mine >> (_THREE * step)
        blocked = theirs | (theirs >> step) | (theirs >> (_TWO * step))
        blocked |= theirs >> (_THREE * step)
        open_ = anchors & ~blocked
        a, b = mine ^ m1, m2 ^ m3
        low = a ^ b
        twos = (mine & m1) ^ (m2 & m3) ^ (a & b)
        score += rules.WINDOW_WEIGHT[1] * popcount(open_ & low & ~twos)
        score += rules.WINDOW_WEIGHT[2] * popcount(open_ & twos & ~low)
        score += rules.WINDOW_WEIGHT[3] * popcount(open_ & low & twos)
    return score


@njit(cache=True, nogil=True)
def evaluate(g: Any, s: Any) -> Any:
    current, mask = s[0], s[1]
    red_to_move = popcount(mask) & 1 == 0
    red = current if red_to_move else current ^ mask
    yellow = current ^ mask if red_to_move else current
    score = _side_score(g, red, mask, g[G_ODD_ROWS]) - _side_score(
        g, yellow, mask, g[G_EVEN_ROWS]
    )
    score += _window_score(g, red, yellow) - _window_score(g, yellow, red)
    if win_move(g, s) >= 0:
        score += rules.PLAYABLE_WIN_WEIGHT if red_to_move else -rules.PLAYABLE_WIN_WEIGHT
    # The mover's move in hand (the rules' evaluate: why).
    return (score if red_to_move else -score) + rules.TEMPO_WEIGHT


@njit(cache=True, nogil=True)
def _mirror(g: Any, bits: Any) -> Any:
    h1 = g[G_H1]
    column = (ONE << h1) - ONE
    last = g[G_WIDTH] - ONE
    out = ZERO
    for c in range(g[G_WIDTH]):
        cc = np.uint64(c)
        out |= ((bits >> (cc * h1)) & column) << ((last - cc) * h1)
    return out


@njit(cache=True, nogil=True)
def canonical(g: Any, s: Any) -> tuple[Any, int]:
    k = s[0] + s[1]
    mirrored = _mirror(g, k)
    if k <= mirrored:
        return k, 0
    return mirrored, 1


@njit(cache=True, nogil=True)
def map_move(g: Any, m: int, t: int, inverse: bool) -> Any:
    return np.int64(g[G_WIDTH]) - 1 - m if t else m


PRIMITIVES = Primitives(
    words=2,
    max_moves=rules.MAX_SIZE,
    move_codes=rules.MAX_SIZE,
    max_plies=64,
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
    exact_key=True,
    prefetch=True,
)


class ConnectFourNative:
    """The adapter (:class:`~.contract.NativeGame`) for one board size."""

    kind = "connect4"
    prims = PRIMITIVES

    def __init__(self, game: rules.ConnectFour) -> None:
        self.constants = constants(game)

    def encode(self, state: Hashable) -> Sequence[int]:
        return (state[0], state[1])  # type: ignore[index]

    def code(self, action: Any) -> int:
        return int(action)

    def action(self, code: int) -> Any:
        return int(code)


def adapter(game: rules.ConnectFour) -> Any:
    """The adapter for ``game``'s size: this module's when the board's
    layout fits 64 bits, else :mod:`.connect4_wide`'s (two words a
    bitboard), imported only then."""
    if game.width * (game.height + 1) > 64:
        from . import connect4_wide

        return connect4_wide.adapter(game)
    return ConnectFourNative(game)
