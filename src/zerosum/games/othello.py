"""Othello (Reversi) on a square board of side 4, 6 or 8: ``othello(size=8)``.

Rules: Black moves first (player 0). A move places a disc of the mover's
colour on an empty square so that, in at least one of the eight directions,
an unbroken line of opponent discs runs from it to a disc of the mover's;
every such line is flipped. A side with no legal move must pass (the move
``pass``, a ply like any other); the game ends when neither side can move,
and whoever has more discs wins (equal counts: a draw). The start has the
four centre squares filled, White on the top-left/bottom-right pair (d4, e5
on 8x8) and Black on the other two (d5, e4).

State: ``(mine, theirs, player, moves)`` -- bitboards of the discs of the
side to move and of its opponent, the side to move (0 Black, 1 White), and
the bitboard of the mover's legal squares (a function of the first two,
worked out once in :meth:`Othello.result` because every visit needs it).
Bit ``r*size + c`` is row ``r`` from the top, column ``c`` from the left::

         a   b   c   d   e   f   g   h
    1    0   1   2   3   4   5   6   7
    2    8   9  10  11  12  13  14  15
    ...
    8   56  57  58  59  60  61  62  63

Notation: a square is its column letter and row number (``f5``; read in any
case, written in lower case); :data:`PASS` is written ``pass``. A position
is the board row by row from a1 (``X`` Black, ``O`` White, ``-`` empty), a
space and the side to move (``X`` or ``O``) -- the form endgame test suites
use::

    ---------------------------OX------XO--------------------------- X

Checked by the tests: perft from the 8x8 start against published counts, the
published drawn line of the 2023 weak solution of 8x8 Othello, and 4x4
Othello being a win for White.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence

from ..game import (
    Board,
    Cell,
    Game,
    MoveError,
    Param,
    Player,
    PositionError,
    excerpt,
    letters,
    numbers,
)
from ..i18n import N_, _
from ..registry import register
from .bitboards import permutation_tables, permute

#: ``(mine, theirs, player to move, mover's legal squares)``.
State = tuple[int, int, int, int]

#: The pass move, legal exactly when the side to move has no other move and
#: the opponent has one.
PASS = -1

SIZES = (4, 6, 8)
_RUN_OF_SQUARES = re.compile(r"(?:[a-z][1-9])+", re.IGNORECASE)

# -- evaluation weights (scores for the side being evaluated) -----------------
#: Empty squares at or below which moves are ordered fastest first.
FASTEST_FIRST = 16
#: Per legal move more than the opponent.
W_MOBILITY = 10
#: Per corner held more than the opponent.
W_CORNER = 40
#: Per disc on a square diagonally next to an empty corner (it gives the
#: corner away); only on boards of 6 and more, where that square is not the
#: centre.
W_X_SQUARE = 25
#: Per disc more than the opponent, once few squares are left.
W_DISC = 4
#: "Few squares left": at most this share of the board empty.
ENDGAME_SHARE = 5


_FULL_8X8 = (1 << 64) - 1
_INNER_8X8 = 0x7E7E7E7E7E7E7E7E  # columns b..g


def _moves_8x8(mine: int, theirs: int) -> int:
    """:meth:`Othello.moves_bits` on 8x8, unrolled: per direction, one step
    over ``theirs``, a second, then two steps of two squares over pairs of
    ``theirs`` (lines of up to six discs)."""
    inner = theirs & _INNER_8X8
    pair = inner & (inner << 1)
    line = inner & (mine << 1)
    line |= inner & (line << 1)
    line |= pair & (line << 2)
    line |= pair & (line << 2)
    moves = line << 1
    pair >>= 1
    line = inner & (mine >> 1)
    line |= inner & (line >> 1)
    line |= pair & (line >> 2)
    line |= pair & (line >> 2)
    moves |= line >> 1
    pair = theirs & (theirs << 8)
    line = theirs & (mine << 8)
    line |= theirs & (line << 8)
    line |= pair & (line << 16)
    line |= pair & (line << 16)
    moves |= line << 8
    pair >>= 8
    line = theirs & (mine >> 8)
    line |= theirs & (line >> 8)
    line |= pair & (line >> 16)
    line |= pair & (line >> 16)
    moves |= line >> 8
    pair = inner & (inner << 7)
    line = inner & (mine << 7)
    line |= inner & (line << 7)
    line |= pair & (line << 14)
    line |= pair & (line << 14)
    moves |= line << 7
    pair >>= 7
    line = inner & (mine >> 7)
    line |= inner & (line >> 7)
    line |= pair & (line >> 14)
    line |= pair & (line >> 14)
    moves |= line >> 7
    pair = inner & (inner << 9)
    line = inner & (mine << 9)
    line |= inner & (line << 9)
    line |= pair & (line << 18)
    line |= pair & (line << 18)
    moves |= line << 9
    pair >>= 9
    line = inner & (mine >> 9)
    line |= inner & (line >> 9)
    line |= pair & (line >> 18)
    line |= pair & (line >> 18)
    moves |= line >> 9
    return moves & (_FULL_8X8 ^ (mine | theirs))


#: Each byte's bits in reverse order: on 8x8 a byte is a row, so this
#: mirrors a row left to right.
_REVERSED_BYTES = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _transpose_8x8(bits: int) -> int:
    """Reflect an 8x8 bitboard in the a1-h8 diagonal: three delta swaps (of
    4x4 blocks, 2x2 blocks, then single squares)."""
    t = 0x0F0F0F0F00000000 & (bits ^ (bits << 28))
    bits ^= t ^ (t >> 28)
    t = 0x3333000033330000 & (bits ^ (bits << 14))
    bits ^= t ^ (t >> 14)
    t = 0x5500550055005500 & (bits ^ (bits << 7))
    return bits ^ t ^ (t >> 7)


def _half_turn_8x8(bits: int) -> int:
    """Turn an 8x8 bitboard half round: rows in reverse order, each mirrored."""
    return int.from_bytes(bits.to_bytes(8, "little").translate(_REVERSED_BYTES), "big")


@register
class Othello(Game[State, int]):
    """Othello: see the module docstring.

    >>> game = Othello()
    >>> game.legal_moves_text(game.initial_state())
    'd3 c4 f5 e6'
    >>> state = game.play(["f5", "D6"])
    >>> game.disc_counts(state)
    (3, 3)
    """

    name = "othello"
    #: A corner is worth 40 points and a move of mobility 10 (see evaluate).
    evaluation_unit: int | None = 40
    title = N_("Othello (Reversi): flank and flip discs; the most discs wins (sizes 4, 6, 8)")
    params = (
        Param(
            "size", 8, N_("side of the square board: 4, 6 or 8"), minimum=4, maximum=8,
            label=N_("Size"),
        ),
    )
    player_names = (N_("Black"), N_("White"))

    def __init__(self, size: int = 8) -> None:
        if size not in SIZES:
            raise ValueError(
                _("size must be 4, 6 or 8 (an even side), got {size}").format(size=size)
            )
        n = self.size = size
        self.cells = n * n
        self.full = (1 << self.cells) - 1
        first_col = sum(1 << (r * n) for r in range(n))
        #: Squares off the first and last columns: a line that runs across
        #: the board can only flank discs there, which stops wrap-around.
        self._inner_cols = self.full & ~first_col & ~(first_col << (n - 1))
        self._rays = [self._make_rays(sq) for sq in range(self.cells)]
        corners = (0, n - 1, n * (n - 1), n * n - 1)
        self._corners = sum(1 << sq for sq in corners)
        self._x_squares: list[tuple[int, int]] = []
        if n >= 6:
            for sq in corners:
                r, c = divmod(sq, n)
                x = (r + (1 if r == 0 else -1)) * n + c + (1 if c == 0 else -1)
                self._x_squares.append((1 << sq, 1 << x))
        self._endgame = self.cells // ENDGAME_SHARE
        self._transforms = [permutation_tables(p) for p in self._make_permutations()]
        self._order = self._make_order()

    def _make_rays(self, square: int) -> tuple[tuple[int, ...], ...]:
        """From ``square``, each direction's squares in order, as bits; only
        directions with room for a flanked disc and the mover's disc."""
        n = self.size
        r0, c0 = divmod(square, n)
        rays = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr == dc == 0:
                    continue
                ray = []
                r, c = r0 + dr, c0 + dc
                while 0 <= r < n and 0 <= c < n:
                    ray.append(1 << (r * n + c))
                    r, c = r + dr, c + dc
                if len(ray) >= 2:
                    rays.append(tuple(ray))
        return tuple(rays)

    def _make_permutations(self) -> list[list[int]]:
        """The symmetries that keep the start position: identity, reflection
        in the a1-h8 diagonal, in the h1-a8 diagonal, and the half-turn.
        Each is its own inverse."""
        n = self.size
        maps: list[Callable[[int, int], tuple[int, int]]] = [
            lambda r, c: (r, c),
            lambda r, c: (c, r),
            lambda r, c: (n - 1 - c, n - 1 - r),
            lambda r, c: (n - 1 - r, n - 1 - c),
        ]
        perms = []
        for f in maps:
            perm = []
            for sq in range(self.cells):
                r, c = f(*divmod(sq, n))
                perm.append(r * n + c)
            perms.append(perm)
        return perms

    def _make_order(self) -> list[int]:
        """A static rank per square for :meth:`ordered_actions`: corners
        first, then edges away from corners, the inside, and last the squares
        next to corners."""
        n = self.size
        rank = []
        for sq in range(self.cells):
            r, c = divmod(sq, n)
            dr, dc = min(r, n - 1 - r), min(c, n - 1 - c)
            if dr == 0 and dc == 0:
                rank.append(0)
            elif dr <= 1 and dc <= 1:
                rank.append(4 if dr == dc == 1 else 3)  # X-squares, then C-squares last
            elif dr == 0 or dc == 0:
                rank.append(1)
            else:
                rank.append(2)
        return rank

    # -- move generation -------------------------------------------------------
    def moves_bits(self, mine: int, theirs: int) -> int:
        """The squares where the side with discs ``mine`` may play against
        ``theirs``: empty squares from which a line of ``theirs`` runs to one
        of ``mine``.

        All lines of one direction are followed at once with bitboard shifts:
        ``line`` grows from ``mine`` over ``theirs`` one square a step, then
        two at a time over pairs of ``theirs`` (``pair``), until it covers the
        longest line that fits (``size - 2`` discs); one more step lands on
        the empty squares. Horizontal and diagonal lines may only pass over
        discs off the edge columns, which keeps them from wrapping round."""
        n = self.size
        if n == 8:
            return _moves_8x8(mine, theirs)
        pair_steps = range((n - 4) // 2)
        inner = theirs & self._inner_cols
        moves = 0
        for shift, mask in ((1, inner), (n, theirs), (n - 1, inner), (n + 1, inner)):
            double = shift + shift
            pair = mask & (mask << shift)
            line = mask & (mine << shift)
            line |= mask & (line << shift)
            for _step in pair_steps:
                line |= pair & (line << double)
            moves |= line << shift
            pair >>= shift
            line = mask & (mine >> shift)
            line |= mask & (line >> shift)
            for _step in pair_steps:
                line |= pair & (line >> double)
            moves |= line >> shift
        return moves & (self.full ^ (mine | theirs))

    def flips(self, mine: int, theirs: int, square: int) -> int:
        """The discs of ``theirs`` that a disc of ``mine`` on ``square`` flips."""
        flipped = 0
        for ray in self._rays[square]:
            line = 0
            for bit in ray:
                if theirs & bit:
                    line |= bit
                else:
                    if mine & bit:
                        flipped |= line
                    break
        return flipped

    def _state(self, mine: int, theirs: int, player: Player) -> State:
        return (mine, theirs, player, self.moves_bits(mine, theirs))

    # -- the formalism -----------------------------------------------------------
    def initial_state(self) -> State:
        n = self.size
        m = n // 2
        white = 1 << ((m - 1) * n + m - 1) | 1 << (m * n + m)
        black = 1 << (m * n + m - 1) | 1 << ((m - 1) * n + m)
        return self._state(black, white, 0)

    def to_move(self, state: State) -> Player:
        return state[2]

    def actions(self, state: State) -> Sequence[int]:
        """The squares the side to move can play, in row-major order (a1, b1,
        ..., a2, ...); ``[PASS]`` when it has none but the opponent has a
        move; empty when neither side can move (the game is over)."""
        free = state[3]
        if not free:
            return [PASS] if self.moves_bits(state[1], state[0]) else []
        moves = []
        while free:
            low = free & -free
            moves.append(low.bit_length() - 1)
            free ^= low
        return moves

    def result(self, state: State, action: int) -> State:
        mine, theirs, player, _free = state
        if action >= 0:
            bit = 1 << action
            flipped = 0
            for ray in self._rays[action]:
                line = 0
                for b in ray:
                    if theirs & b:
                        line |= b
                    else:
                        if mine & b:
                            flipped |= line
                        break
            mine |= flipped | bit
            theirs ^= flipped
        return (theirs, mine, 1 - player, self.moves_bits(theirs, mine))

    def is_terminal(self, state: State) -> bool:
        """True when neither side has a legal move."""
        return not state[3] and not self.moves_bits(state[1], state[0])

    def disc_counts(self, state: State) -> tuple[int, int]:
        """(Black's discs, White's discs)."""
        mine, theirs, player, _free = state
        black, white = (mine, theirs) if player == 0 else (theirs, mine)
        return black.bit_count(), white.bit_count()

    def piece_counts(self, state: State) -> tuple[int, int]:
        """Black's and White's discs: the game is decided by their count."""
        return self.disc_counts(state)

    def utility(self, state: State, player: Player) -> int:
        """At the end: +1 if ``player`` has more discs, -1 fewer, 0 equal."""
        diff = state[0].bit_count() - state[1].bit_count()
        sign = (diff > 0) - (diff < 0)
        return sign if player == state[2] else -sign

    def max_margin(self) -> int:
        """Every square: a win 64-0 on 8x8 is +64."""
        return self.cells

    def margin(self, state: State, player: Player) -> int:
        """At the end: ``player``'s discs less the opponent's, the empty
        squares of a game ended before the board is full going to the winner
        (the tournament rules' count, and the FFO test's)."""
        mine, theirs = state[0].bit_count(), state[1].bit_count()
        diff = mine - theirs
        empty = self.cells - mine - theirs
        diff += empty if diff > 0 else -empty if diff < 0 else 0
        return diff if player == state[2] else -diff

    def winner(self, state: State) -> Player | None:
        """The winner once the game is over (None for a draw or a game on)."""
        if not self.is_terminal(state):
            return None
        black, white = self.disc_counts(state)
        return None if black == white else 0 if black > white else 1

    def evaluate(self, state: State, player: Player) -> int:
        """Heuristic for ``player``: mobility (legal moves, the mover's
        against the opponent's), corners held, discs next to an empty corner
        (a penalty), and the disc difference once at most a fifth of the
        board is empty. Scores stay within a few thousand."""
        mine, theirs, to_move, free = state
        score = W_MOBILITY * (free.bit_count() - self.moves_bits(theirs, mine).bit_count())
        corners = self._corners
        score += W_CORNER * ((mine & corners).bit_count() - (theirs & corners).bit_count())
        occupied = mine | theirs
        for corner, x_square in self._x_squares:
            if not occupied & corner:
                if mine & x_square:
                    score -= W_X_SQUARE
                elif theirs & x_square:
                    score += W_X_SQUARE
        if self.cells - occupied.bit_count() <= self._endgame:
            score += W_DISC * (mine.bit_count() - theirs.bit_count())
        return score if player == to_move else -score

    # -- notation ------------------------------------------------------------------
    def square_name(self, square: int) -> str:
        """``a1`` for the top-left square (bit 0)."""
        row, col = divmod(square, self.size)
        return f"{chr(ord('a') + col)}{row + 1}"

    def format_move(self, action: int) -> str:
        return "pass" if action == PASS else self.square_name(action)

    def parse_move(self, state: State, text: str) -> int:
        """A square such as ``f5`` (any case) or ``pass`` when that is the
        only move."""
        who = self.player_name(state[2])
        if self.is_terminal(state):
            raise MoveError(
                _("the game is over; no move {text!r} can be played").format(text=excerpt(text))
            )
        legal = self.actions(state)
        expected = _("expected one of {moves}").format(moves=self.legal_moves_text(state))
        word = text.strip().lower()
        if word == "pass":
            if legal == [PASS]:
                return PASS
            raise MoveError(
                _("{player} cannot pass while having a move; {expected}").format(
                    player=who, expected=expected
                )
            )
        n = self.size
        if len(word) == 2 and "a" <= word[0] < chr(ord("a") + n) and "1" <= word[1] <= str(n):
            square = (int(word[1]) - 1) * n + ord(word[0]) - ord("a")
        else:
            last = self.square_name(self.cells - 1)
            raise MoveError(
                _(
                    "cannot read move {text!r}; expected a square a1..{last} or pass: {expected}"
                ).format(text=excerpt(text), last=last, expected=expected)
            )
        if square in legal:
            return square
        if legal == [PASS]:
            raise MoveError(
                _("{player} has no legal square and must pass; expected pass").format(player=who)
            )
        if (state[0] | state[1]) >> square & 1:
            raise MoveError(
                _("square {square} is taken; {expected}").format(square=word, expected=expected)
            )
        raise MoveError(
            _("a {player} disc on {square} would flip nothing; {expected}").format(
                player=who, square=word, expected=expected
            )
        )

    def split_moves(self, text: str) -> list[str]:
        """Split a move list at spaces and commas; a run of squares written
        without spaces, the usual transcript form (``f5d6C3``), is split
        into squares."""
        moves = []
        for part in super().split_moves(text):
            if len(part) > 2 and _RUN_OF_SQUARES.fullmatch(part):
                moves += [part[i : i + 2] for i in range(0, len(part), 2)]
            else:
                moves.append(part)
        return moves

    def format_position(self, state: State) -> str:
        mine, theirs, player, _free = state
        black, white = (mine, theirs) if player == 0 else (theirs, mine)
        board = "".join(
            "X" if black >> sq & 1 else "O" if white >> sq & 1 else "-" for sq in range(self.cells)
        )
        return f"{board} {'XO'[player]}"

    def parse_position(self, text: str) -> State:
        """Read :meth:`format_position`'s form. Also accepted: any case, ``b``
        / ``w`` / ``*`` for the discs, ``.`` for empty, ``/`` between rows,
        and a trailing ``;``."""
        n = self.size
        expected = _(
            "{count} squares row by row from a1 (X black, O white, - empty), a space and"
            " the side to move (X or O), e.g. {example!r}"
        ).format(count=self.cells, example=self.format_position(self.initial_state()))
        parts = text.strip().rstrip(";").split()
        if len(parts) != 2:
            raise PositionError(
                _("cannot read position {text!r}; expected {expected}").format(
                    text=excerpt(text, 16), expected=expected
                )
            )
        board, side = parts[0].replace("/", "").lower(), parts[1].lower()
        if side not in ("x", "o", "b", "w", "black", "white"):
            raise PositionError(
                _(
                    "cannot read position {text!r}: bad side to move {side!r}; expected X or O"
                    " (also b, w, black, white)"
                ).format(text=excerpt(text, 16), side=excerpt(parts[1], 10))
            )
        if len(board) != self.cells:
            raise PositionError(
                _(
                    "cannot read position {text!r}: {count} squares for a {n}x{n} board;"
                    " expected {cells}, row by row from a1"
                ).format(text=excerpt(text, 16), count=len(board), n=n, cells=self.cells)
            )
        black = white = 0
        for sq, ch in enumerate(board):
            if ch in "xb*":
                black |= 1 << sq
            elif ch in "ow":
                white |= 1 << sq
            elif ch not in "-.":
                raise PositionError(
                    _(
                        "cannot read position {text!r}: bad square {square!r}; expected X (black),"
                        " O (white) or - (empty)"
                    ).format(text=excerpt(text, 16), square=ch)
                )
        m = n // 2
        centre = {(m - 1) * n + m - 1, (m - 1) * n + m, m * n + m - 1, m * n + m}
        if any(not (black | white) >> sq & 1 for sq in centre):
            raise PositionError(
                _(
                    "position {text!r} is unreachable: the four centre squares are never empty"
                ).format(text=excerpt(text, 16))
            )
        player = 0 if side in ("x", "b", "black") else 1
        mine, theirs = (black, white) if player == 0 else (white, black)
        return self._state(mine, theirs, player)

    def board(self, state: State) -> Board:
        mine, theirs, player, _free = state
        black, white = (mine, theirs) if player == 0 else (theirs, mine)
        n = self.size
        cells = tuple(
            0 if black >> sq & 1 else 1 if white >> sq & 1 else None for sq in range(n * n)
        )
        return Board(n, n, cells, ("black", "white"), row_labels=numbers(n), col_labels=letters(n))

    def move_cells(self, state: State, action: int) -> tuple[Cell, ...]:
        return () if action == PASS else (divmod(action, self.size),)

    def render(self, state: State) -> str:
        """The board with coordinates (``X`` Black, ``O`` White, ``*`` the
        mover's legal squares), disc counts and who is to move."""
        mine, theirs, player, free = state
        black, white = (mine, theirs) if player == 0 else (theirs, mine)
        n = self.size
        # Lower case, as moves are written (c4; C4 is read too).
        lines = ["   " + " ".join(chr(ord("a") + c) for c in range(n))]
        for r in range(n):
            cells = []
            for c in range(n):
                sq = r * n + c
                bit = 1 << sq
                cells.append(
                    "X" if black & bit else "O" if white & bit else "*" if free & bit else "."
                )
            lines.append(f"{r + 1:>2} " + " ".join(cells))
        nb, nw = black.bit_count(), white.bit_count()
        counts = _("Black (X) {black}, White (O) {white}").format(black=nb, white=nw)
        who = self.player_name(player)
        if self.is_terminal(state):
            if nb == nw:
                verdict = _("draw")
            else:
                winner = self.player_name(0 if nb > nw else 1)
                verdict = _("{player} wins").format(player=winner)
            lines.append(_("{counts}; game over: {verdict}").format(counts=counts, verdict=verdict))
        elif not free:
            lines.append(
                _("{counts}; {player} has no move and must pass").format(counts=counts, player=who)
            )
        else:
            lines.append(
                _("{counts}; {player} to move (* legal)").format(counts=counts, player=who)
            )
        return "\n".join(lines)

    # -- engine hooks -----------------------------------------------------------------
    def key(self, state: State) -> Hashable:
        return (state[0] << self.cells | state[1]) << 1 | state[2]

    def symmetry_count(self) -> int:
        return len(self._transforms)

    def transform(self, state: State, transform: int) -> State:
        """The image of ``state`` under symmetry ``transform`` (an involution)."""
        tables = self._transforms[transform]
        mine, theirs, player, free = state
        return (permute(tables, mine), permute(tables, theirs), player, permute(tables, free))

    def canonical(self, state: State) -> tuple[Hashable, int]:
        """The least key over the four images of ``state`` under the start
        position's symmetries, and the transform that gives it."""
        mine, theirs, player, _free = state
        cells = self.cells
        best, best_t = (mine << cells | theirs) << 1 | player, 0
        if cells == 64:  # the same keys, with whole-board bit tricks
            key = (_transpose_8x8(mine) << 64 | _transpose_8x8(theirs)) << 1 | player
            if key < best:
                best, best_t = key, 1
            mine, theirs = _half_turn_8x8(mine), _half_turn_8x8(theirs)
            key = (_transpose_8x8(mine) << 64 | _transpose_8x8(theirs)) << 1 | player
            if key < best:
                best, best_t = key, 2
            key = (mine << 64 | theirs) << 1 | player
            if key < best:
                best, best_t = key, 3
            return best, best_t
        for t in range(1, len(self._transforms)):
            tables = self._transforms[t]
            key = (permute(tables, mine) << cells | permute(tables, theirs)) << 1 | player
            if key < best:
                best, best_t = key, t
        return best, best_t

    def map_move(self, action: int, transform: int, inverse: bool = False) -> int:
        """Map a square through a symmetry (each is its own inverse); ``pass``
        stays ``pass``."""
        if action == PASS:
            return PASS
        return permute(self._transforms[transform], 1 << action).bit_length() - 1

    def informed_order(self, state: State) -> bool:
        """In the endgame (at most :data:`FASTEST_FIRST` empty squares) the
        fastest-first order is better than killers and history: keep it."""
        return self.cells - (state[0] | state[1]).bit_count() <= FASTEST_FIRST

    def plies_left(self, state: State) -> int:
        """Each empty square is filled by one ply, and before it at most one
        pass (two passes in a row end the game)."""
        return 2 * (self.cells - (state[0] | state[1]).bit_count())

    def ordered_actions(self, state: State) -> Sequence[int]:
        """Corners first, then edges, the inside, and the squares next to the
        corners last (row-major within each group). With at most
        :data:`FASTEST_FIRST` empty squares, moves that leave the opponent
        the fewest replies come first (ties in that order): the endgame
        solvers' "fastest first", which finds refutations soonest."""
        order = self._order
        moves = sorted(self.actions(state), key=lambda sq: order[sq] if sq >= 0 else 0)
        mine, theirs = state[0], state[1]
        if len(moves) < 2 or not self.informed_order(state):
            return moves

        def replies(square: int) -> int:
            flipped = self.flips(mine, theirs, square)
            return self.moves_bits(theirs ^ flipped, mine | flipped | 1 << square).bit_count()

        return sorted(moves, key=replies)
