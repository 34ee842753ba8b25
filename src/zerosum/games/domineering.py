"""Domineering (the tutorials' "dominoes"): two players take turns placing
dominoes on a rectangular board. Vertical places 2x1 tiles (a cell and the
one below it), Horizontal 1x2 tiles (a cell and the one to its right). Tiles
never overlap; whoever cannot place a tile on their turn loses, so there are
no draws.

``domineering(rows=R,cols=C,first=vertical|horizontal)``: the player who
moves first is player 0, so :attr:`Domineering.player_names` depends on
``first``.

State: ``(occupied, player)`` -- a bitboard of the covered cells (bit
``r*cols + c`` for row ``r`` from the top and column ``c`` from the left) and
the player to move (0 or 1). Only the covered cells matter for the rest of
the game, so the state does not remember who placed which tile. Any set of
covered cells is a legal position (irregular boards are written by covering
cells), and the side to move is part of the state: it cannot be told from the
board.

Bit layout of a 3x4 board (``a1`` is the top-left cell, bit 0)::

         a   b   c   d
    1    0   1   2   3
    2    4   5   6   7
    3    8   9  10  11

A move (an *action*) is the bitboard of the two cells its tile covers, so
``result`` is one ``|``. It is written by the tile's top cell (Vertical) or
left cell (Horizontal): column letter and row number, ``a1`` the top-left.
:meth:`Domineering.parse_move` also reads the tutorial's zero-based
``(row, col)`` form: ``(0,1)`` is ``b1``.

Position notation: the side to move (``V`` or ``H``), a colon, then the rows
from the top separated by ``/``, each cell ``.`` (empty) or ``#`` (covered)::

    V:.#../.#../....

Search hints: :meth:`Domineering.ordered_actions` tries first the tiles that
take away the most of the opponent's placements (ties by
:func:`place_key`), the table keeps one entry per symmetry class (the four
flips that keep a tile's orientation), and :meth:`Domineering.static_bound`
decides a position without search when one side's safe moves and
protective areas outlast everything the other side can still play (after
Bullock's Obsequi; proved in the comment above it). Safe moves are still
searched like any move: Obsequi leaves them out, a claim about who wins
that says nothing of the exact distances (and sets of best moves) this
package reports.

Published outcomes of small boards (``../shared/data/domineering``) are
checked by the tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping, Sequence

from ..game import (
    NEUTRAL,
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
from .bitboards import CHUNK, permutation_tables, permute

#: ``(occupied, player to move)``; see the module docstring.
State = tuple[int, int]

VERTICAL, HORIZONTAL = "vertical", "horizontal"
MAX_SIDE = 16
_COORDS = re.compile(r"^\(?\s*(\d+)\s*[,\s]\s*(\d+)\s*\)?$", re.ASCII)
_CELL = re.compile(r"^([a-z])(\d+)$", re.ASCII)


def place_key(rows: int, cols: int, r: int, c: int, vertical: bool) -> tuple[int, int, int]:
    """Where a tile named at row ``r``, column ``c`` lies, as a sort key
    (smallest tried first): the tie-break of the move order among tiles
    that take away as many opponent placements, after Bullock's positional
    values in Obsequi. Counted along the tile's own lines (rows for
    Horizontal, columns for Vertical): ``line`` is the distance of its line
    from the nearest edge line, ``place`` the distance of the tile from the
    nearer end of its line. The key is ``(class, line, place)``, the class

    * 0: ``line`` odd, ``place`` even;  1: ``line`` odd, ``place`` odd;
    * 2: ``line`` even (not 0), ``place`` even;  3: the same, ``place`` odd;
    * 4: on an edge line;

    so within a class tiles nearer the edges come first (the board's
    symmetries keep the key). Why: a Horizontal tile one row in from an edge
    leaves the cells between it and the edge to Horizontal alone (safe
    moves); a tile an even number of cells from a line's end leaves a gap of
    even length there, which wastes none of one's own placements. Measured
    (weak solves from the start, Vertical first, native backend, 256 MB
    table; positions): 7x7 356,241 with this key, 996,710 with the class
    alone, 1,290,238 with row-major ties; 7x8 1.45 M, 5.56 M, 94 M; 8x8
    (1 GB table) 76 M with this key, 375 M with the class alone, not solved
    in 5 CPU minutes with row-major ties."""
    if vertical:
        line, place = min(c, cols - 1 - c), min(r, rows - 2 - r)
    else:
        line, place = min(r, rows - 1 - r), min(c, cols - 2 - c)
    if line % 2 == 1:
        rank = place % 2
    elif line > 0:
        rank = 2 + place % 2
    else:
        rank = 4
    return rank, line, place


def tie_order(rows: int, cols: int, vertical: bool) -> list[int]:
    """The cells that may name a tile of a side (its top cell for Vertical,
    its left cell for Horizontal), sorted by :func:`place_key`, then
    row-major: the tie-break order of the move order."""
    named = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        if (r < rows - 1) if vertical else (c < cols - 1):
            named.append((*place_key(rows, cols, r, c, vertical), cell))
    return [entry[-1] for entry in sorted(named)]


@register
class Domineering(Game[State, int]):
    """Domineering on a ``rows`` x ``cols`` board: see the module docstring.

    >>> game = Domineering(rows=3, cols=3)
    >>> state = game.play(["b1"])
    >>> game.format_position(state)
    'H:.#./.#./...'
    >>> game.legal_moves_text(state)
    'a3 b3'
    """

    name = "domineering"
    mover_wins_only = True
    #: ``canonical`` costs a fraction of a position and the four images of a
    #: position are searched once (6x6, weak solve in Python: 87,391
    #: positions with it, 344,451 without).
    symmetric_search = True
    title = N_("Domineering (dominoes): Vertical and Horizontal place tiles; who cannot move loses")
    params = (
        Param(
            "rows", 8, N_("rows of the board"), minimum=1, maximum=MAX_SIDE, label=N_("Rows")
        ),
        Param(
            "cols", 8, N_("columns of the board"), minimum=1, maximum=MAX_SIDE,
            label=N_("Columns"),
        ),
        Param(
            "first",
            VERTICAL,
            N_("who moves first"),
            choices=(VERTICAL, HORIZONTAL),
            label=N_("First player"),
        ),
    )

    def __init__(self, rows: int = 8, cols: int = 8, first: str = VERTICAL) -> None:
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise ValueError(
                _(
                    "a {rows}x{cols} board is not supported; expected 1 to {most} rows and columns"
                ).format(rows=rows, cols=cols, most=MAX_SIDE)
            )
        if first not in (VERTICAL, HORIZONTAL):
            raise ValueError(
                _("first must be {vertical} or {horizontal}, got {first!r}").format(
                    vertical=VERTICAL, horizontal=HORIZONTAL, first=first
                )
            )
        self.rows, self.cols, self.first = rows, cols, first
        self.cells = rows * cols
        self.full = (1 << self.cells) - 1
        #: The player index (0 or 1) of Vertical.
        self.vertical = 0 if first == VERTICAL else 1
        vertical, horizontal = N_("Vertical"), N_("Horizontal")
        self.player_names = (
            (vertical, horizontal) if first == VERTICAL else (horizontal, vertical)
        )
        # Where a tile may be named: Vertical's top cell is not in the last
        # row, Horizontal's left cell is not in the last column.
        v_names = self.full >> cols
        h_names = 0
        for r in range(rows):
            h_names |= ((1 << (cols - 1)) - 1) << (r * cols)
        # Indexed by player: the shift from a tile's named cell to its other
        # cell, and the cells that may name a tile.
        v, h = self.vertical, 1 - self.vertical
        self._shift = [0, 0]
        self._names = [0, 0]
        self._shift[v], self._names[v] = cols, v_names
        self._shift[h], self._names[h] = 1, h_names
        # For the static bound, indexed by player, along that player's lines
        # (columns for Vertical, rows for Horizontal): the cells at an even
        # place in their line, the cells with no cell before them or after
        # them in their line, those whose next cell is last in its line, and
        # the doubling shifts that fill a run as long as a line.
        even_rows = sum(((1 << cols) - 1) << (r * cols) for r in range(0, rows, 2))
        even_cols = sum(1 << (r * cols + c) for r in range(rows) for c in range(0, cols, 2))
        self._parity = [0, 0]
        self._parity[v], self._parity[h] = even_rows, even_cols
        self._line_first = [self.full & ~(self._names[p] << self._shift[p]) for p in (0, 1)]
        self._line_last = [self.full & ~self._names[p] for p in (0, 1)]
        self._before_last = [self.full & ~(self._names[p] >> self._shift[p]) for p in (0, 1)]
        lengths = [0, 0]
        lengths[v], lengths[h] = rows, cols
        self._fill_steps = [
            [k * self._shift[p] for k in (1, 2, 4, 8) if k < lengths[p]] for p in (0, 1)
        ]
        #: Indexed by player, then by named cell: its place in the
        #: tie-break order of :meth:`ordered_actions` (see :func:`place_key`).
        self._place_rank: list[list[int]] = []
        for p in (0, 1):
            rank = [0] * self.cells
            for i, cell in enumerate(tie_order(rows, cols, vertical=p == v)):
                rank[cell] = i
            self._place_rank.append(rank)
        self._transforms = [permutation_tables(p) for p in self._make_permutations()]
        # Indexed by player, then by the position of 8 cells in the board:
        # for each pattern of named cells there, its tiles in cell order.
        self._tile_tables = [self._make_tile_table(p) for p in (0, 1)]

    def _make_tile_table(self, player: Player) -> list[list[tuple[int, ...]]]:
        tile = 1 | 1 << self._shift[player]
        return [
            [
                tuple(tile << (start + i) for i in range(CHUNK) if value >> i & 1)
                for value in range(1 << CHUNK)
            ]
            for start in range(0, self.cells, CHUNK)
        ]

    def _make_permutations(self) -> list[list[int]]:
        """Cell permutations of the board's symmetries that keep tiles'
        orientation: identity, left-right mirror, up-down mirror, half-turn.
        Each is its own inverse."""
        rows, cols = self.rows, self.cols
        maps: list[Callable[[int, int], tuple[int, int]]] = [
            lambda r, c: (r, c),
            lambda r, c: (r, cols - 1 - c),
            lambda r, c: (rows - 1 - r, c),
            lambda r, c: (rows - 1 - r, cols - 1 - c),
        ]
        perms = []
        for f in maps:
            perm = []
            for cell in range(self.cells):
                r, c = f(*divmod(cell, cols))
                perm.append(r * cols + c)
            perms.append(perm)
        return perms

    # -- moves as bitboards ----------------------------------------------------
    def moves_bits(self, occupied: int, player: Player) -> int:
        """The cells that name a legal tile of ``player`` (whoever is to move)."""
        empty = self.full ^ occupied
        return empty & (empty >> self._shift[player]) & self._names[player]

    def _tile(self, cell: int, player: Player) -> int:
        return (1 | 1 << self._shift[player]) << cell

    # -- the formalism -----------------------------------------------------------
    def initial_state(self) -> State:
        return (0, 0)

    def to_move(self, state: State) -> Player:
        return state[1]

    def actions(self, state: State) -> Sequence[int]:
        """The tiles the side to move can place, as two-cell bitboards, in
        row-major order of their named (top or left) cell."""
        occupied, player = state
        empty = self.full ^ occupied
        free = empty & (empty >> self._shift[player]) & self._names[player]
        tables = self._tile_tables[player]
        moves: list[int] = []
        chunk = 0
        while free:
            if free & 0xFF:
                moves += tables[chunk][free & 0xFF]
            free >>= CHUNK
            chunk += 1
        return moves

    def result(self, state: State, action: int) -> State:
        return (state[0] | action, 1 - state[1])

    def is_terminal(self, state: State) -> bool:
        """True when the side to move has no tile to place (and so has lost)."""
        occupied, player = state
        empty = self.full ^ occupied
        return not empty & (empty >> self._shift[player]) & self._names[player]

    def utility(self, state: State, player: Player) -> int:
        """At a terminal state the side to move has lost."""
        return -1 if player == state[1] else 1

    def winner(self, state: State) -> Player | None:
        """The player who has won, once the game is over."""
        return 1 - state[1] if self.is_terminal(state) else None

    def evaluate(self, state: State, player: Player) -> int:
        """The tutorial's mobility: the legal tiles ``player`` could place
        minus those the opponent could place, whoever is to move."""
        occupied = state[0]
        mine = self.moves_bits(occupied, player).bit_count()
        theirs = self.moves_bits(occupied, 1 - player).bit_count()
        return mine - theirs

    # -- notation ------------------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        """``a1`` for the top-left cell (bit 0)."""
        row, col = divmod(cell, self.cols)
        return f"{chr(ord('a') + col)}{row + 1}"

    def format_move(self, action: int) -> str:
        """The tile's top (Vertical) or left (Horizontal) cell, e.g. ``b1``."""
        return self.cell_name((action & -action).bit_length() - 1)

    def _cell_from_text(self, text: str) -> int | None:
        """The cell that ``b1`` or ``(0, 1)`` names, or None."""
        text = text.strip().lower()
        match = _CELL.match(text)
        if match:
            col, row = ord(match.group(1)) - ord("a"), int(match.group(2)) - 1
        else:
            match = _COORDS.match(text)
            if not match:
                return None
            row, col = int(match.group(1)), int(match.group(2))
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return row * self.cols + col
        return None

    def parse_move(self, state: State, text: str) -> int:
        """A tile named by its top (Vertical) or left (Horizontal) cell, as
        ``b1`` or as the tutorial's zero-based ``(row, col)``, ``(0, 1)``."""
        player = state[1]
        who = self.player_name(player)
        if self.is_terminal(state):
            raise MoveError(
                _(
                    "the game is over ({player} cannot place a tile);"
                    " no move {text!r} can be played"
                ).format(player=who, text=excerpt(text))
            )
        legal = self.legal_moves_text(state)
        cell = self._cell_from_text(text)
        if cell is None:
            last = self.cell_name(self.cells - 1)
            raise MoveError(
                _(
                    "cannot read move {text!r}; expected a cell a1..{last} (column letter, row"
                    " number) or (row, col) counted from 0: one of {moves}"
                ).format(text=excerpt(text), last=last, moves=legal)
            )
        if not self.moves_bits(state[0], player) >> cell & 1:
            if player == self.vertical:
                message = _(
                    "{player} cannot place a tile at {cell} (it covers that cell and"
                    " the one below it, which must be on the board and empty);"
                    " expected one of {moves}"
                )
            else:
                message = _(
                    "{player} cannot place a tile at {cell} (it covers that cell and"
                    " the one to the right of it, which must be on the board and empty);"
                    " expected one of {moves}"
                )
            raise MoveError(message.format(player=who, cell=self.cell_name(cell), moves=legal))
        return self._tile(cell, player)

    def _side_letter(self, player: Player) -> str:
        return "V" if player == self.vertical else "H"

    def format_position(self, state: State) -> str:
        occupied, player = state
        rows = []
        for r in range(self.rows):
            bits = occupied >> (r * self.cols)
            rows.append("".join("#" if bits >> c & 1 else "." for c in range(self.cols)))
        return f"{self._side_letter(player)}:{'/'.join(rows)}"

    def parse_position(self, text: str) -> State:
        expected = _(
            "V: or H: (the side to move) then {rows} rows of {cols} cells"
            " ('.' empty, '#' covered) separated by '/', e.g. {example}"
        ).format(
            rows=self.rows,
            cols=self.cols,
            example=excerpt(self.format_position(self.initial_state()), 30),
        )
        side, colon, board = text.strip().partition(":")
        side = side.strip().upper()
        if not colon or side not in ("V", "H"):
            raise PositionError(
                _("cannot read position {text!r}; expected {expected}").format(
                    text=excerpt(text), expected=expected
                )
            )
        rows = [row.strip() for row in board.split("/")]
        if len(rows) != self.rows or any(len(row) != self.cols for row in rows):
            raise PositionError(
                _("cannot read position {text!r}: wrong board size; expected {expected}").format(
                    text=excerpt(text), expected=expected
                )
            )
        occupied = 0
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "#":
                    occupied |= 1 << (r * self.cols + c)
                elif ch != ".":
                    raise PositionError(
                        _(
                            "cannot read position {text!r}: bad cell {cell!r}; expected {expected}"
                        ).format(text=excerpt(text), cell=ch, expected=expected)
                    )
        player = self.vertical if side == "V" else 1 - self.vertical
        return (occupied, player)

    def board(self, state: State) -> Board:
        """Covered cells are :data:`NEUTRAL` (``"covered"``): the position
        does not record who placed each tile."""
        occupied = state[0]
        pieces = ("vertical", "horizontal") if self.vertical == 0 else ("horizontal", "vertical")
        return Board(
            self.rows,
            self.cols,
            tuple(NEUTRAL if occupied >> cell & 1 else None for cell in range(self.cells)),
            pieces,
            neutral="covered",
            row_labels=numbers(self.rows),
            col_labels=letters(self.cols),
        )

    def move_cells(self, state: State, action: int) -> tuple[Cell, ...]:
        """The tile's two cells, the named (top or left) one first."""
        first = (action & -action).bit_length() - 1
        second = action.bit_length() - 1
        return (divmod(first, self.cols), divmod(second, self.cols))

    def render(self, state: State) -> str:
        return self.render_played(state, {})

    def render_played(self, state: State, owners: Mapping[Cell, Player]) -> str:
        """The board with each tile drawn as its player's letter (``V`` or
        ``H``) where ``owners`` knows who placed it, ``#`` where not."""
        occupied, player = state
        letters = {p: self._side_letter(p) for p in (0, 1)}

        def cell(r: int, c: int) -> str:
            if not occupied >> (r * self.cols + c) & 1:
                return "."
            owner = owners.get((r, c))
            return "#" if owner is None else letters[owner]

        lines = ["   " + " ".join(chr(ord("a") + c) for c in range(self.cols))]
        for r in range(self.rows):
            lines.append(f"{r + 1:>2} " + " ".join(cell(r, c) for c in range(self.cols)))
        v = self.vertical
        counts = _("tiles that fit: Vertical {vertical}, Horizontal {horizontal}").format(
            vertical=self.moves_bits(occupied, v).bit_count(),
            horizontal=self.moves_bits(occupied, 1 - v).bit_count(),
        )
        who = self.player_name(player)
        if self.is_terminal(state):
            lines.append(
                _("{player} cannot move: {winner} wins ({counts})").format(
                    player=who, winner=self.player_name(1 - player), counts=counts
                )
            )
        else:
            if player == v:
                shape = _("2x1, a cell and the one below")
            else:
                shape = _("1x2, a cell and the next")
            lines.append(
                _("{player} to move ({shape}); {counts}").format(
                    player=who, shape=shape, counts=counts
                )
            )
        return "\n".join(lines)

    # -- engine hooks -----------------------------------------------------------------
    def key(self, state: State) -> Hashable:
        return state[0] << 1 | state[1]

    def symmetry_count(self) -> int:
        return len(self._transforms)

    def transform(self, state: State, transform: int) -> State:
        """The image of ``state`` under symmetry ``transform`` (an involution)."""
        return (permute(self._transforms[transform], state[0]), state[1])

    def canonical(self, state: State) -> tuple[Hashable, int]:
        """The least key over the four symmetric images, and the transform
        (identity, left-right mirror, up-down mirror, half-turn) giving it."""
        occupied, player = state
        best, best_t = occupied << 1 | player, 0
        for t in range(1, len(self._transforms)):
            key = permute(self._transforms[t], occupied) << 1 | player
            if key < best:
                best, best_t = key, t
        return best, best_t

    def map_move(self, action: int, transform: int, inverse: bool = False) -> int:
        """Map a tile through a symmetry; every transform is its own inverse,
        and a tile's orientation is kept (a Vertical tile named ``a1`` is
        named ``a2`` after an up-down flip of a 3-row board)."""
        return permute(self._transforms[transform], action)

    def _kills(self, tile: int, player: Player) -> int:
        """The named cells of ``player``'s tiles that ``tile`` overlaps."""
        return tile | tile >> self._shift[player]

    def order_buckets(self, occupied: int, player: Player) -> tuple[int, int, int, int, int]:
        """The named cells of ``player``'s legal tiles split by how many of
        the opponent's placements each tile takes away: 4, 3, 2, 1, 0.

        A tile named ``x`` (covering ``x`` and ``x + ms``) overlaps the
        opponent's tile named ``y`` (covering ``y`` and ``y + ts``) exactly
        when ``y`` is one of ``x``, ``x + ms``, ``x - ts``, ``x + ms - ts``
        (four distinct cells: the two directions differ). So the count is
        the sum of four shifted copies of the opponent's named cells, added
        bit-parallel (a tile takes away at most 4, three bits)."""
        empty = self.full ^ occupied
        ms, ts = self._shift[player], self._shift[1 - player]
        mine = empty & (empty >> ms) & self._names[player]
        theirs = empty & (empty >> ts) & self._names[1 - player]
        a = theirs
        b = theirs >> ms
        c = theirs << ts
        d = c >> ms
        s1, c1 = a ^ b, a & b
        s2, c2 = c ^ d, c & d
        bit0 = s1 ^ s2
        carry = s1 & s2
        bit1 = c1 ^ c2 ^ carry
        bit2 = (c1 & c2) | ((c1 ^ c2) & carry)
        return (
            mine & bit2,
            mine & bit1 & bit0,
            mine & bit1 & ~bit0,
            mine & ~bit1 & bit0,
            mine & ~(bit0 | bit1 | bit2),
        )

    def plies_left(self, state: State) -> int:
        """Each ply covers two empty cells."""
        return (self.cells - state[0].bit_count()) // 2

    def ordered_actions(self, state: State) -> Sequence[int]:
        """Tiles that take away the most opponent placements first; among
        equals, by :func:`place_key`, then in row-major order of the named
        cell. (Measured on 7x7: ordering by the opponent's placements taken
        alone searches far fewer positions than also subtracting, or adding,
        one's own placements lost.)"""
        occupied, player = state
        rank = self._place_rank[player]
        tile = 1 | 1 << self._shift[player]
        moves: list[int] = []
        for bucket in self.order_buckets(occupied, player):
            cells = []
            while bucket:
                low = bucket & -bucket
                cells.append(low.bit_length() - 1)
                bucket ^= low
            if len(cells) > 1:
                cells.sort(key=rank.__getitem__)
            moves += [tile << cell for cell in cells]
        return moves

    # -- the static bound (Bullock's Obsequi, proved here) -----------------------------
    #
    # Write X for a side, Y for the other, and count along lines: X's lines
    # are rows for Horizontal, columns for Vertical.
    #
    # * max_moves(X) = the sum over X's lines of floor(run / 2) for each
    #   maximal run of empty cells. X can never make more moves than that:
    #   each X tile lies in one run of length L and leaves runs totalling
    #   L - 2 (so the sum drops by at least 1), and a Y tile only removes
    #   cells (the sum never grows).
    # * A cell is *protected* for X when Y can never cover it: both its
    #   neighbours along Y's lines are occupied or off the board (cells only
    #   fill up). A *safe move* of X is an X tile on two protected cells;
    #   safe(X) = the most disjoint ones = the sum of floor(run / 2) over
    #   runs of protected cells along X's lines. Y can never take them.
    # * A *protective area* of X is an empty 2x2 block whose two cells just
    #   before it along Y's lines (above it, for Horizontal) are both occupied
    #   or off the board -- or the two just after it. X "converts" it by
    #   playing the X tile on the far side from that wall: the near tile is
    #   then a safe move (the wall on one side, X's own tile on the other),
    #   and the two Y-runs through the block each lose floor-value 1 (a run
    #   beginning at the wall loses its first two cells), so max_moves(Y)
    #   drops by exactly 2. Areas are packed greedily (lowest cell first)
    #   so that no single Y tile can touch two of them; k(X) counts them.
    #
    # Claim: if X is to move and safe(X) + 4*ceil(k(X)/2) > max_moves(Y),
    # X wins, within 2*max_moves(Y) + 1 plies. X's strategy: convert an
    # intact area while one is left, else play a banked safe move. With s
    # the banked safe moves and k the intact areas at X's turn, let
    # I = s + 4*ceil(k/2) - max_moves(Y). No round (X's move, then Y's)
    # lowers I:
    #   - X converts: s + 1, k - 1, max_moves(Y) - 2; Y's reply takes at
    #     least 1 more from max_moves(Y) and spoils at most one area, so
    #     k - 2 at worst: I changes by 1 + 4*(ceil(k/2 - 1) - ceil(k/2))
    #     + 3 = 0, or more when Y spoils nothing;
    #   - no area left: X's safe move takes 1 from s, Y's reply at least 1
    #     from max_moves(Y): I does not fall.
    # While I > 0 X has a move (an area to convert, or s > max_moves(Y)
    # >= 0), so Y is the one who runs out, after at most max_moves(Y)
    # moves of its own.
    #
    # And X to move loses when safe(Y) + 4*floor(k(Y)/2) >= max_moves(X)
    # >= 1, within 2*max_moves(X) plies: X's first move takes at least 1
    # from max_moves(X) and spoils at most one of Y's areas, after which
    # the claim above holds for Y, now to move (ceil((k - 1)/2) =
    # floor(k/2)).
    #
    # tests/test_domineering.py checks both claims, distances included,
    # against exact values on every position of boards up to 16 cells.

    def _half_runs(self, cells: int, player: Player) -> int:
        """The sum of floor(run / 2) over the maximal runs of ``cells`` along
        ``player``'s lines: the most disjoint tiles of ``player`` inside
        ``cells``. Bit-parallel: the cells at an odd distance from the start
        of their run, found by filling each run with the parity of its first
        cell (doubling steps, as far as a line is long)."""
        d = self._shift[player]
        parity = self._parity[player]
        inside = cells & ((cells & self._names[player]) << d)  # predecessor in the run
        fill = cells & ~inside & parity  # runs that start on an even cell
        for step in self._fill_steps[player]:
            fill |= inside & (fill << step)
            inside &= inside << step
        return (cells & (fill ^ parity)).bit_count()

    def _protected(self, occupied: int, player: Player) -> int:
        """Empty cells the opponent of ``player`` can never cover."""
        other = 1 - player
        d = self._shift[other]
        empty = self.full ^ occupied
        return (
            empty
            & (self._line_last[other] | occupied >> d)
            & (self._line_first[other] | occupied << d)
        )

    def _areas(self, occupied: int, player: Player) -> int:
        """How many protective areas of ``player`` the greedy packing finds
        (see the comment above)."""
        xs, ys = self._shift[player], self._shift[1 - player]
        x_names, y_names = self._names[player], self._names[1 - player]
        empty = self.full ^ occupied
        pairs = empty & (empty >> xs) & x_names
        blocks = pairs & (pairs >> ys) & y_names
        if not blocks:
            return 0
        walls = occupied & (occupied >> xs) & x_names
        blocks &= (
            self._line_first[1 - player]
            | walls << ys
            | self._before_last[1 - player]
            | walls >> (2 * ys)
        )
        count = 0
        taken = 0
        shape = 1 | 1 << xs | 1 << ys | 1 << (xs + ys)
        while blocks:
            low = blocks & -blocks
            blocks ^= low
            area = low * shape
            if not area & taken:
                count += 1
                taken |= area | area << ys | area >> ys
        return count

    def static_bound(self, state: State) -> int:
        """``+p``: the side to move wins within ``p`` plies; ``-p``: it loses
        within ``p`` plies; 0: the counts cannot tell (also at the end of the
        game). From Bullock's Obsequi: safe moves and protective areas
        against the opponent's most moves; the proof is in the comment
        above this method."""
        occupied, player = state
        other = 1 - player
        empty = self.full ^ occupied
        if not empty & (empty >> self._shift[player]) & self._names[player]:
            return 0
        theirs = self._half_runs(empty, other)
        if theirs == 0:
            return 1
        safe = self._half_runs(self._protected(occupied, player), player)
        if safe + 4 * ((self._areas(occupied, player) + 1) // 2) > theirs:
            return 2 * theirs + 1
        mine = self._half_runs(empty, player)
        safe = self._half_runs(self._protected(occupied, other), other)
        if safe + 4 * (self._areas(occupied, other) // 2) >= mine:
            return -2 * mine
        return 0

    def winning_action(self, state: State) -> int | None:
        """A tile after which the opponent cannot move, if there is one."""
        occupied, player = state
        theirs = self.moves_bits(occupied, 1 - player)
        if theirs.bit_count() > 4:  # one tile overlaps at most 4 placements
            return None
        their_shift = self._shift[1 - player]
        for tile in self.actions(state):
            if not theirs & ~(tile | tile >> their_shift):
                return tile
        return None

    def non_losing_actions(self, state: State) -> Sequence[int] | None:
        """Tiles after which the opponent has no tile that leaves us without
        a move, in :meth:`ordered_actions` order."""
        occupied, player = state
        mine = self.moves_bits(occupied, player)
        theirs = self.moves_bits(occupied, 1 - player)
        my_shift, their_shift = self._shift[player], self._shift[1 - player]
        safe = []
        for tile in self.ordered_actions(state):
            left = mine & ~(tile | tile >> my_shift)
            if left.bit_count() <= 4:
                replies = theirs & ~(tile | tile >> their_shift)
                tiles = 1 | 1 << their_shift
                losing = False
                while replies:
                    low = replies & -replies
                    reply = low * tiles
                    if not left & ~(reply | reply >> my_shift):
                        losing = True
                        break
                    replies ^= low
                if losing:
                    continue
            safe.append(tile)
        return safe
