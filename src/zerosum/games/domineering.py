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
    title = N_("Domineering (dominoes): Vertical and Horizontal place tiles; who cannot move loses")
    params = (
        Param("rows", 8, N_("rows of the board"), minimum=1, maximum=MAX_SIDE),
        Param("cols", 8, N_("columns of the board"), minimum=1, maximum=MAX_SIDE),
        Param("first", VERTICAL, N_("who moves first"), choices=(VERTICAL, HORIZONTAL)),
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
        self.player_names = (
            ("Vertical", "Horizontal") if first == VERTICAL else ("Horizontal", "Vertical")
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
        who = self.player_names[player]
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
        who = self.player_names[player]
        if self.is_terminal(state):
            lines.append(
                _("{player} cannot move: {winner} wins ({counts})").format(
                    player=who, winner=self.player_names[1 - player], counts=counts
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

    def ordered_actions(self, state: State) -> Sequence[int]:
        """Tiles that take away the most opponent placements for the fewest of
        one's own first (ties in row-major order)."""
        occupied, player = state
        moves = self.actions(state)
        mine = self.moves_bits(occupied, player)
        theirs = self.moves_bits(occupied, 1 - player)
        my_shift, their_shift = self._shift[player], self._shift[1 - player]

        def cost(tile: int) -> int:
            lost = (mine & (tile | tile >> my_shift)).bit_count()
            taken = (theirs & (tile | tile >> their_shift)).bit_count()
            return lost - taken

        return sorted(moves, key=cost)

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
