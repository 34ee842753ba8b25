"""Compiled primitives for the m,n,k-games: tic-tac-toe, ``mnk(m,n,k)`` and
gomoku (see :mod:`zerosum.native.contract` for what each primitive
promises). Every board the Python game allows (up to 26x26) is supported.

Cells are numbered as in the Python game, ``r*n + c`` for row ``r`` from
the top and column ``c`` from the left; a side's marks are a bitboard of
``W = ceil(m*n / 64)`` words, cell ``i`` being bit ``i % 64`` of word
``i // 64`` (gomoku: 225 cells, ``W = 4``). State row, from the side to
move (``words = 2*W + 3``)::

    s[0 .. W-1]     mine     marks of the side to move
    s[W .. 2W-1]    theirs   marks of the side that just moved
    s[2W]           status   0 on, 1 the last move made k in a row, 2 full
    s[2W+1]         hash     Zobrist: A-codes of mine ^ B-codes of theirs
    s[2W+2]         swapped  Zobrist: B-codes of mine ^ A-codes of theirs

The Python state carries its status (worked out in ``result`` from the
lines through the new mark); here ``play`` sets the status word the same
way, from the runs through the new mark. Keeping both Zobrist hashes lets
``play`` update the key with one xor although mine and theirs trade places
every ply (the new hash is the old swapped one ^ the new mark's B-code).

Move codes are the cells. X moves first, so the side to move is X exactly
when both sides have as many marks; the colours matter only there.

* ``gen``: empty cells nearest the centre first, the Python game's
  ``ordered_actions`` order (its sort, precomputed).
* ``status``: -1 after a winning move (the side to move lost), 0 on a full
  board, else ONGOING.
* ``win_move``: the first k-window (in the Python game's ``lines`` order)
  holding k-1 of the mover's marks and one empty cell: its empty cell, as
  ``MNK.winning_action`` returns; -1 when there is none. Complete: any
  winning move completes such a window.
* ``evaluate``: ``MNK.evaluate`` over the same windows, or tic-tac-toe's
  tutorial evaluation for the :class:`TicTacToe` game.
* ``key``: ``mine << cells | theirs`` when it fits in 64 bits (boards of up
  to 32 cells: injective, ``exact_key``); else the Zobrist hash (a false
  match has a probability near 2**-64 per probe).
* ``canonical`` / ``map_move``: the Python game's symmetries (8 on a
  square board, 4 otherwise) with its transform numbers. With an exact key
  the representative is the Python game's (least ``x << cells | o``) and the
  transform is the one the Python game returns; with a hash the
  representative is the image with the least Zobrist hash.

>>> import zerosum
>>> native = adapter(zerosum.load("gomoku"))
>>> native.prims.words, native.prims.exact_key, native.prims.mover_wins_only
(11, False, True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, cast

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..games import mnk as rules
from ..games import tictactoe
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

_0 = np.uint64(0)
_1 = np.uint64(1)
_63 = np.uint64(63)

#: Status word values.
ON, WON, FULL = 0, 1, 2

#: Evaluations: the Python ``MNK.evaluate`` (open windows) or
#: ``TicTacToe.evaluate`` (the tutorial's lines and threats).
EVAL_WINDOWS, EVAL_TUTORIAL = 0, 1

# -- the constants array g: a header of sizes and offsets, then tables --------
G_M = 0  #: rows
G_N = 1  #: columns
G_K = 2  #: marks in a row that win
G_CELLS = 3
G_W = 4  #: words per side
G_EXACT = 5  #: 1 when key is mine << cells | theirs
G_EVAL = 6  #: EVAL_WINDOWS or EVAL_TUTORIAL
G_NT = 7  #: symmetries (8 or 4)
G_NWIN = 8  #: k-windows
G_P = 9  #: (word, mask) pairs per window: the most words a window touches
G_TOP = 10  #: last index of the weights
G_WIN_SCORE = 11  #: tic-tac-toe: a completed line
G_THREAT = 12  #: tic-tac-toe: two marks and an empty cell
G_WEIGHTS = 13  #: offset: the open-window weights by marks held
G_ORDER = 14  #: offset: the cells in ordered_actions order
G_MAP = 15  #: offset: NT tables of cells: cell -> image under t
G_INV = 16  #: offset: NT tables: cell -> image under the inverse of t
G_WINDOWS = 17  #: offset: NWIN * P pairs (word, mask), in Python lines order
G_ZA = 18  #: offset: a Zobrist code per cell, for the side to move
G_ZB = 19  #: offset: another per cell, for the other side
G_HEADER = 20


def _transforms(m: int, n: int) -> list[list[int]]:
    """The Python game's symmetries as cell permutations (cell ``i`` goes to
    ``perm[i]``), written out independently of it (the tests compare)."""
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (m - 1 - r, c),
        lambda r, c: (m - 1 - r, n - 1 - c),
    ]
    if m == n:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (n - 1 - c, r),
            lambda r, c: (c, m - 1 - r),
            lambda r, c: (n - 1 - c, m - 1 - r),
        ]
    perms = []
    for f in maps:
        perm = []
        for cell in range(m * n):
            r, c = f(*divmod(cell, n))
            perm.append(r * n + c)
        perms.append(perm)
    return perms


def _zobrist(count: int) -> list[int]:
    """``count`` fixed pseudo-random 64-bit codes (splitmix64 from a fixed
    seed: the same codes in every process, so hashes are reproducible)."""
    mask = (1 << 64) - 1
    state = 0x5A17_0B0A_2D5E_ED01
    codes = []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        codes.append(z ^ (z >> 31))
    return codes


def constants(game: rules.MNK) -> U64:
    """The ``g`` array for ``game`` (an MNK or TicTacToe of any size)."""
    m, n, k = game.m, game.n, game.k
    cells = m * n
    words = -(-cells // 64)
    perms = _transforms(m, n)
    lines = list(game.lines)  # the Python game's windows, in its order
    pairs: list[list[tuple[int, int]]] = []
    for line in lines:
        touched = [(j, (line >> (64 * j)) & ((1 << 64) - 1)) for j in range(words)]
        pairs.append([(j, mask) for j, mask in touched if mask])
    per_window = max(len(p) for p in pairs)
    weights = rules.LINE_WEIGHT
    # The Python ordered_actions sort, on every cell (stable, so ties keep
    # the cell order).
    cr, cc = (m - 1) / 2, (n - 1) / 2
    order = sorted(range(cells), key=lambda cell: abs(cell // n - cr) + abs(cell % n - cc))

    offsets = {}
    size = G_HEADER
    for name, length in (
        (G_WEIGHTS, len(weights)),
        (G_ORDER, cells),
        (G_MAP, len(perms) * cells),
        (G_INV, len(perms) * cells),
        (G_WINDOWS, len(lines) * per_window * 2),
        (G_ZA, cells),
        (G_ZB, cells),
    ):
        offsets[name] = size
        size += length
    g = np.zeros(size, dtype=np.uint64)
    g[G_M], g[G_N], g[G_K], g[G_CELLS], g[G_W] = m, n, k, cells, words
    g[G_EXACT] = 1 if 2 * cells <= 64 else 0
    g[G_EVAL] = EVAL_TUTORIAL if type(game) is tictactoe.TicTacToe else EVAL_WINDOWS
    g[G_NT], g[G_NWIN], g[G_P] = len(perms), len(lines), per_window
    g[G_TOP] = len(weights) - 1
    g[G_WIN_SCORE], g[G_THREAT] = tictactoe.WIN_LINE_SCORE, tictactoe.THREAT_SCORE
    for name, start in offsets.items():
        g[name] = start
    g[offsets[G_WEIGHTS] : offsets[G_WEIGHTS] + len(weights)] = weights
    g[offsets[G_ORDER] : offsets[G_ORDER] + cells] = order
    for t, perm in enumerate(perms):
        inverse = [0] * cells
        for cell, image in enumerate(perm):
            inverse[image] = cell
        g[offsets[G_MAP] + t * cells : offsets[G_MAP] + (t + 1) * cells] = perm
        g[offsets[G_INV] + t * cells : offsets[G_INV] + (t + 1) * cells] = inverse
    for i, window in enumerate(pairs):
        base = offsets[G_WINDOWS] + 2 * per_window * i
        for p, (j, mask) in enumerate(window):
            g[base + 2 * p], g[base + 2 * p + 1] = j, mask
    codes = _zobrist(2 * cells)
    g[offsets[G_ZA] : offsets[G_ZA] + cells] = codes[:cells]
    g[offsets[G_ZB] : offsets[G_ZB] + cells] = codes[cells:]
    return g


# -- bit access ---------------------------------------------------------------------


@njit(cache=True)
def _has(s: U64, offset: int, cell: int) -> bool:
    """Whether ``cell`` is set in the bitboard at ``s[offset:]``."""
    word: np.uint64 = s[offset + (cell >> 6)]
    return bool((word >> np.uint64(cell & 63)) & _1)


@njit(cache=True)
def _completes(g: U64, s: U64, offset: int, cell: int) -> bool:
    """Whether the marks at ``s[offset:]`` hold a run of k or more through
    ``cell``, across, down or along a diagonal (the Python game checks the
    k-windows through the new mark: a window full of marks is such a run)."""
    m = as_int(g[G_M])
    n = as_int(g[G_N])
    k = as_int(g[G_K])
    r0 = cell // n
    c0 = cell % n
    for direction in range(4):
        if direction == 0:
            dr, dc = 0, 1
        elif direction == 1:
            dr, dc = 1, 0
        elif direction == 2:
            dr, dc = 1, 1
        else:
            dr, dc = 1, -1
        run = 1
        r, c = r0 + dr, c0 + dc
        while 0 <= r < m and 0 <= c < n and _has(s, offset, r * n + c):
            run += 1
            r += dr
            c += dc
        r, c = r0 - dr, c0 - dc
        while 0 <= r < m and 0 <= c < n and _has(s, offset, r * n + c):
            run += 1
            r -= dr
            c -= dc
        if run >= k:
            return True
    return False


# -- the primitives -------------------------------------------------------------------


@njit(cache=True)
def gen(g: U64, s: U64, out: I32) -> int:
    """The empty cells, nearest the centre first (``ordered_actions``)."""
    cells = as_int(g[G_CELLS])
    words = as_int(g[G_W])
    order = as_int(g[G_ORDER])
    count = 0
    for i in range(cells):
        cell = as_int(g[order + i])
        word = cell >> 6
        if not ((s[word] | s[words + word]) >> np.uint64(cell & 63)) & _1:
            out[count] = cell
            count += 1
    return count


@njit(cache=True)
def play(g: U64, s: U64, m: int, d: U64) -> None:
    """Write into ``d`` the position after the side to move marks cell ``m``:
    the sides trade places, the status word says whether the mark made k in
    a row (checked first, as the Python game does) or filled the board."""
    words = as_int(g[G_W])
    for j in range(words):
        d[j] = s[words + j]
        d[words + j] = s[j]
    d[words + (m >> 6)] |= _1 << np.uint64(m & 63)
    if _completes(g, d, words, m):
        d[2 * words] = WON
    else:
        marks = 0
        for j in range(2 * words):
            marks += popcount(d[j])
        d[2 * words] = FULL if marks == as_int(g[G_CELLS]) else ON
    d[2 * words + 1] = s[2 * words + 2] ^ g[as_int(g[G_ZB]) + m]
    d[2 * words + 2] = s[2 * words + 1] ^ g[as_int(g[G_ZA]) + m]


@njit(cache=True)
def status(g: U64, s: U64) -> int:
    """-1 when the last move made k in a row (the side to move lost), 0 on a
    full board, else ONGOING."""
    word = s[2 * as_int(g[G_W])]
    if word == WON:
        return -1
    if word == FULL:
        return 0
    return ONGOING


@njit(cache=True)
def key(g: U64, s: U64) -> np.uint64:
    """``mine << cells | theirs`` on boards of up to 32 cells (injective:
    the side to move follows from the counts), else the Zobrist hash."""
    word: np.uint64 = (s[0] << g[G_CELLS]) | s[1] if g[G_EXACT] else s[2 * as_int(g[G_W]) + 1]
    return word


@njit(cache=True)
def win_move(g: U64, s: U64) -> int:
    """A cell that gives the side to move k in a row, or -1: the empty cell
    of the first window (Python ``lines`` order) that holds k-1 of the
    mover's marks and no opponent mark, as ``MNK.winning_action``."""
    words = as_int(g[G_W])
    if s[2 * words] != ON:
        return -1
    marks = 0
    for j in range(words):
        marks += popcount(s[j])
    if marks < as_int(g[G_K]) - 1:
        return -1  # too few marks to fill a window with one more
    per_window = as_int(g[G_P])
    base = as_int(g[G_WINDOWS])
    for _ in range(as_int(g[G_NWIN])):
        missing = 0
        cell = -1
        for p in range(per_window):
            word = as_int(g[base + 2 * p])
            mask = g[base + 2 * p + 1]
            if mask & s[words + word]:
                missing = 2  # an opponent mark: this window is dead
                break
            gap = mask & ~s[word]
            if gap:
                missing += popcount(gap)
                cell = word * 64 + ctz(gap)
        if missing == 1:
            return cell
        base += 2 * per_window
    return -1


@njit(cache=True)
def evaluate(g: U64, s: U64) -> int:
    """The Python game's evaluation for the side to move: ``MNK.evaluate``
    (each k-window holding marks of one side only scores its weight by how
    many it holds; mine minus theirs), or for tic-tac-toe the tutorial's
    (a full line +-100, else a threat -- two marks and an empty cell --
    +50 for the mover's first, -50 for the opponent's)."""
    words = as_int(g[G_W])
    per_window = as_int(g[G_P])
    windows = as_int(g[G_NWIN])
    start = as_int(g[G_WINDOWS])
    if g[G_EVAL] == EVAL_TUTORIAL:
        # Four passes over the lines, in the order of the Python tests.
        for phase in range(4):
            base = start
            for _ in range(windows):
                mine = 0
                theirs = 0
                empty = 0
                size = 0
                for p in range(per_window):
                    word = as_int(g[base + 2 * p])
                    mask = g[base + 2 * p + 1]
                    a = s[word] & mask
                    b = s[words + word] & mask
                    mine += popcount(a)
                    theirs += popcount(b)
                    empty += popcount(mask & ~(a | b))
                    size += popcount(mask)
                base += 2 * per_window
                if phase == 0 and mine == size:
                    return as_int(g[G_WIN_SCORE])
                if phase == 1 and theirs == size:
                    return -as_int(g[G_WIN_SCORE])
                if phase == 2 and mine == 2 and empty:
                    return as_int(g[G_THREAT])
                if phase == 3 and theirs == 2 and empty:
                    return -as_int(g[G_THREAT])
        return as_int(0)
    weights = as_int(g[G_WEIGHTS])
    top = as_int(g[G_TOP])
    score = as_int(0)
    base = start
    for _ in range(windows):
        mine = 0
        theirs = 0
        for p in range(per_window):
            word = as_int(g[base + 2 * p])
            mask = g[base + 2 * p + 1]
            mine += popcount(s[word] & mask)
            theirs += popcount(s[words + word] & mask)
        base += 2 * per_window
        if mine and not theirs:
            score += as_int(g[weights + min(mine, top)])
        elif theirs and not mine:
            score -= as_int(g[weights + min(theirs, top)])
    return score


@njit(cache=True)
def _image(g: U64, s: U64, offset: int, table: int) -> np.uint64:
    """The one-word bitboard at ``s[offset]`` under the cell map at
    ``g[table:]`` (boards of up to 32 cells)."""
    bits = s[offset]
    out = _0
    while bits:
        out |= _1 << g[table + ctz(bits)]
        bits &= bits - _1
    return out


@njit(cache=True)
def _image_hash(g: U64, s: U64, table: int) -> np.uint64:
    """The Zobrist hash (as ``key`` has it) of the image of ``s`` under the
    cell map at ``g[table:]``: the codes of the images of the marks, so no
    image board is built."""
    words = as_int(g[G_W])
    za = as_int(g[G_ZA])
    zb = as_int(g[G_ZB])
    h = _0
    for j in range(2 * words):
        codes = za if j < words else zb
        first = (j if j < words else j - words) * 64
        bits = s[j]
        while bits:
            h ^= g[codes + as_int(g[table + first + ctz(bits)])]
            bits &= bits - _1
    return h


@njit(cache=True)
def canonical(g: U64, s: U64) -> tuple[np.uint64, int]:
    """The key of the symmetry class of ``s`` and the transform onto its
    representative (the first transform on ties). Exact keys: the image with
    the least ``x << cells | o``, as the Python game chooses, keyed
    ``mine << cells | theirs``. Hashes: the image with the least hash."""
    cells = as_int(g[G_CELLS])
    table = as_int(g[G_MAP])
    best_t = 0
    if g[G_EXACT]:
        x_moves = popcount(s[0]) == popcount(s[1])
        shift = np.uint64(cells)
        best = _0
        best_key = _0
        for t in range(as_int(g[G_NT])):
            mine = _image(g, s, 0, table + t * cells)
            theirs = _image(g, s, 1, table + t * cells)
            order = (mine << shift | theirs) if x_moves else (theirs << shift | mine)
            if t == 0 or order < best:
                best, best_t, best_key = order, t, mine << shift | theirs
        return best_key, best_t
    best = _0
    for t in range(as_int(g[G_NT])):
        h = _image_hash(g, s, table + t * cells)
        if t == 0 or h < best:
            best, best_t = h, t
    return best, best_t


@njit(cache=True)
def map_move(g: U64, m: int, t: int, inverse: bool) -> int:
    """Cell ``m`` under transform ``t`` or its inverse (``MNK.map_move``)."""
    table = as_int(g[G_INV]) if inverse else as_int(g[G_MAP])
    return as_int(g[table + t * as_int(g[G_CELLS]) + m])


# -- the adapter ------------------------------------------------------------------------


class MNKNative:
    """The :class:`~.contract.NativeGame` for an :class:`MNK` game (and
    :class:`TicTacToe`, which differs only in its evaluation)."""

    kind = "mnk"

    def __init__(self, game: rules.MNK) -> None:
        self.game = game
        cells = self.cells = game.cells
        self.words = -(-cells // 64)
        self.constants = constants(game)
        za = int(self.constants[G_ZA])
        zb = int(self.constants[G_ZB])
        self._za = [int(v) for v in self.constants[za : za + cells]]
        self._zb = [int(v) for v in self.constants[zb : zb + cells]]
        self.prims = Primitives(
            words=2 * self.words + 3,
            max_moves=cells,
            move_codes=cells,
            max_plies=cells,
            gen=gen,
            play=play,
            status=status,
            key=key,
            evaluate=evaluate,
            win_move=win_move,
            canonical=canonical,
            map_move=map_move,
            mover_wins_only=True,
            exact_key=2 * cells <= 64,
        )

    def encode(self, state: Hashable) -> Sequence[int]:
        x, o, game_status = cast("rules.State", state)
        mine, theirs = (x, o) if x.bit_count() == o.bit_count() else (o, x)
        word_mask = (1 << 64) - 1
        row = [mine >> (64 * j) & word_mask for j in range(self.words)]
        row += [theirs >> (64 * j) & word_mask for j in range(self.words)]
        if game_status in (rules.X_WON, rules.O_WON):
            row.append(WON)
        else:
            row.append(FULL if game_status == rules.DRAW else ON)
        hash_a = hash_b = 0
        for marks, first, second in ((mine, self._za, self._zb), (theirs, self._zb, self._za)):
            while marks:
                low = marks & -marks
                cell = low.bit_length() - 1
                hash_a ^= first[cell]
                hash_b ^= second[cell]
                marks ^= low
        return [*row, hash_a, hash_b]

    def code(self, action: Any) -> int:
        return int(action)

    def action(self, code: int) -> Any:
        return int(code)


def adapter(game: Any) -> MNKNative | None:
    """The native adapter for ``game``: an :class:`MNK` of any size the
    Python game allows, or :class:`TicTacToe`; None for anything else (a
    subclass may change the rules)."""
    if type(game) not in (rules.MNK, tictactoe.TicTacToe):
        return None
    return MNKNative(game)
