"""m,n,k-games: m rows, n columns, k in a row (across, down or diagonally)
wins; X moves first. Tic-tac-toe is ``mnk(3,3,3)``, gomoku ``mnk(15,15,5)``.

State: ``(x, o, status)`` -- bitboards of X's and O's marks (bit ``r*n + c``
for row ``r`` from the top and column ``c`` from the left) and the game status
(:data:`ONGOING`, :data:`X_WON`, :data:`O_WON` or :data:`DRAW`), worked out
once in :meth:`MNK.result` from the lines through the new mark.

Notation: a cell is its column letter and row number, ``a1`` the top-left.
A position is its rows from the top, separated by ``/``, each cell ``x``,
``o`` or ``.`` (``x.o/.x./..o``); the side to move follows from the counts.

Published values checked by the tests: (3,3,3) is a draw, (4,4,3) a first
player win, (4,4,4) a draw.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import ClassVar

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
    whole_number,
)
from ..i18n import N_, _
from ..registry import register, register_alias
from .bitboards import permutation_tables, permute

ONGOING, X_WON, O_WON, DRAW = 0, 1, 2, 3

State = tuple[int, int, int]

#: Weight of an open line (a window of k cells holding marks of one side only)
#: by how many marks it holds, for the heuristic evaluation.
LINE_WEIGHT = (0, 1, 8, 64, 512, 4096)


def _popcount(bits: int) -> int:
    return bits.bit_count()


@register
class MNK(Game[State, int]):
    """The m,n,k-game: see the module docstring."""

    name = "mnk"
    title = N_("m,n,k-game: k in a row on an m-by-n board (tic-tac-toe, gomoku)")
    params: ClassVar[tuple[Param, ...]] = (
        Param("m", 3, N_("rows"), minimum=1, maximum=26, label=N_("Rows")),
        Param("n", 3, N_("columns"), minimum=1, maximum=26, label=N_("Columns")),
        Param("k", 3, N_("marks in a row that win"), minimum=1, maximum=26, label=N_("In a row")),
    )
    player_names = ("X", "O")
    mover_wins_only = True
    #: Open lines of two are worth 8 and of three 64 (see evaluate).
    evaluation_unit: int | None = 40

    def __init__(self, m: int = 3, n: int = 3, k: int = 3) -> None:
        if k > max(m, n):
            raise ValueError(
                _("k={k} is longer than the board's sides ({m}x{n}); expected k <= {most}").format(
                    k=k, m=m, n=n, most=max(m, n)
                )
            )
        self.m, self.n, self.k = m, n, k
        self.cells = m * n
        #: Small boards key the table by symmetry class by default
        #: (tic-tac-toe's solve: 1,114 positions instead of 4,101 in Python).
        self.symmetric_search = self.cells <= 16
        self.full = (1 << self.cells) - 1
        self.lines = self._make_lines()
        self.lines_through: list[list[int]] = [
            [line for line in self.lines if line >> cell & 1] for cell in range(self.cells)
        ]
        self._transforms = self._make_transforms()
        self._tables = [permutation_tables(perm) for perm in self._transforms]

    # -- construction helpers -------------------------------------------------
    def _make_lines(self) -> list[int]:
        m, n, k = self.m, self.n, self.k
        lines = []
        for r in range(m):
            for c in range(n):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                    if 0 <= end_r < m and 0 <= end_c < n:
                        mask = 0
                        for i in range(k):
                            mask |= 1 << ((r + dr * i) * n + c + dc * i)
                        if mask not in lines:  # k = 1 gives the same cell four times
                            lines.append(mask)
        return lines

    def _make_transforms(self) -> list[list[int]]:
        """Cell permutations of the board's symmetries: 8 on a square board,
        4 otherwise. Index 0 is the identity."""
        m, n = self.m, self.n
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
            for cell in range(self.cells):
                r, c = f(*divmod(cell, n))
                perm.append(r * n + c)
            perms.append(perm)
        return perms

    # -- the formalism ---------------------------------------------------------
    def initial_state(self) -> State:
        return (0, 0, ONGOING)

    def to_move(self, state: State) -> Player:
        x, o, _status = state
        return 0 if _popcount(x) == _popcount(o) else 1

    def actions(self, state: State) -> Sequence[int]:
        x, o, status = state
        if status:
            return ()
        empty = ~(x | o) & self.full
        return [cell for cell in range(self.cells) if empty >> cell & 1]

    def result(self, state: State, action: int) -> State:
        x, o, _status = state
        bit = 1 << action
        if _popcount(x) == _popcount(o):
            x |= bit
            mine, win = x, X_WON
        else:
            o |= bit
            mine, win = o, O_WON
        for line in self.lines_through[action]:
            if mine & line == line:
                return (x, o, win)
        return (x, o, DRAW if (x | o) == self.full else ONGOING)

    def is_terminal(self, state: State) -> bool:
        return state[2] != ONGOING

    def utility(self, state: State, player: Player) -> int:
        status = state[2]
        if status == X_WON:
            return 1 if player == 0 else -1
        if status == O_WON:
            return -1 if player == 0 else 1
        return 0

    def winner(self, state: State) -> Player | None:
        """The player who has k in a row, if any."""
        return {X_WON: 0, O_WON: 1}.get(state[2])

    def evaluate(self, state: State, player: Player) -> int:
        """Open lines: each window of k cells that holds marks of one side only
        scores by how many it holds, for that side; mine minus theirs."""
        x, o, _status = state
        score = 0
        weights = LINE_WEIGHT
        top = len(weights) - 1
        for line in self.lines:
            xs, os_ = x & line, o & line
            if xs and not os_:
                score += weights[min(_popcount(xs), top)]
            elif os_ and not xs:
                score -= weights[min(_popcount(os_), top)]
        return score if player == 0 else -score

    # -- notation --------------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        row, col = divmod(cell, self.n)
        return f"{chr(ord('a') + col)}{row + 1}"

    def format_move(self, action: int) -> str:
        return self.cell_name(action)

    def _cell_from_text(self, text: str) -> int | None:
        text = text.strip().lower()
        number = whole_number(text[1:]) if len(text) >= 2 and "a" <= text[0] <= "z" else None
        if number is not None and text[1:] == text[1:].strip():
            col, row = ord(text[0]) - ord("a"), number - 1
            if 0 <= col < self.n and 0 <= row < self.m:
                return row * self.n + col
        return None

    def parse_move(self, state: State, text: str) -> int:
        cell = self._cell_from_text(text)
        if self.is_terminal(state):
            raise MoveError(
                _("the game is over; no move {text!r} can be played").format(text=excerpt(text))
            )
        if cell is None:
            last = self.cell_name(self.cells - 1)
            raise MoveError(
                _(
                    "cannot read move {text!r}; expected a cell a1..{last}"
                    " (column letter, row number): one of {moves}"
                ).format(text=excerpt(text), last=last, moves=self.legal_moves_text(state))
            )
        return self._check_legal(state, cell, text)

    def _check_legal(self, state: State, cell: int, text: str) -> int:
        x, o, _status = state
        if (x | o) >> cell & 1:
            raise MoveError(
                _("cell {text!r} is already taken; expected one of {moves}").format(
                    text=excerpt(text), moves=self.legal_moves_text(state)
                )
            )
        return cell

    def format_position(self, state: State) -> str:
        x, o, _status = state
        rows = []
        for r in range(self.m):
            row = ""
            for c in range(self.n):
                cell = r * self.n + c
                row += "x" if x >> cell & 1 else "o" if o >> cell & 1 else "."
            rows.append(row)
        return "/".join(rows)

    def parse_position(self, text: str) -> State:
        rows = text.strip().lower().split("/")
        problem = PositionError(
            _(
                "cannot read position {text!r}; expected {m} rows of {n} cells"
                " (x, o or .) separated by '/'"
            ).format(text=excerpt(text), m=self.m, n=self.n)
        )
        if len(rows) != self.m or any(len(r) != self.n for r in rows):
            raise problem
        x = o = 0
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                bit = 1 << (r * self.n + c)
                if ch == "x":
                    x |= bit
                elif ch == "o":
                    o |= bit
                elif ch != ".":
                    raise problem
        return self._validated(x, o, text)

    def _validated(self, x: int, o: int, text: str) -> State:
        nx, no = _popcount(x), _popcount(o)
        if nx not in (no, no + 1):
            raise PositionError(
                _(
                    "position {text!r} is unreachable: X moves first, so X has as many marks"
                    " as O or one more"
                ).format(text=excerpt(text))
            )
        x_line = any(x & line == line for line in self.lines)
        o_line = any(o & line == line for line in self.lines)
        if (x_line and (o_line or nx == no)) or (o_line and nx != no):
            raise PositionError(
                _(
                    "position {text!r} is unreachable: the game stops at the first k in a row"
                ).format(text=excerpt(text))
            )
        status = X_WON if x_line else O_WON if o_line else DRAW if (x | o) == self.full else ONGOING
        return (x, o, status)

    def render(self, state: State) -> str:
        x, o, _status = state
        header = "   " + " ".join(chr(ord("a") + c) for c in range(self.n))
        lines = [header]
        for r in range(self.m):
            cells = []
            for c in range(self.n):
                cell = r * self.n + c
                cells.append("X" if x >> cell & 1 else "O" if o >> cell & 1 else ".")
            lines.append(f"{r + 1:>2} " + " ".join(cells))
        return "\n".join(lines)

    def spec(self) -> str:
        return f"mnk(m={self.m},n={self.n},k={self.k})"

    def board(self, state: State) -> Board:
        x, o, _status = state
        cells = tuple(
            0 if x >> cell & 1 else 1 if o >> cell & 1 else None for cell in range(self.cells)
        )
        return Board(
            self.m,
            self.n,
            cells,
            ("x", "o"),
            row_labels=numbers(self.m),
            col_labels=letters(self.n),
        )

    def winning_cells(self, state: State) -> tuple[Cell, ...]:
        """Every cell of every line of k the winner holds (none for a draw
        or a game still on), row by row."""
        winner = self.winner(state)
        if winner is None:
            return ()
        mine = state[winner]
        cells = 0
        for line in self.lines:
            if mine & line == line:
                cells |= line
        return tuple(divmod(cell, self.n) for cell in range(self.cells) if cells >> cell & 1)

    def move_cells(self, state: State, action: int) -> tuple[Cell, ...]:
        return (divmod(action, self.n),)

    # -- engine hooks ------------------------------------------------------------
    def key(self, state: State) -> Hashable:
        return state[0] << self.cells | state[1]

    def symmetry_count(self) -> int:
        return len(self._transforms)

    def transform(self, state: State, transform: int) -> State:
        tables = self._tables[transform]
        return (permute(tables, state[0]), permute(tables, state[1]), state[2])

    def canonical(self, state: State) -> tuple[Hashable, int]:
        x, o, _status = state
        best, best_t = -1, 0
        shift = self.cells
        for t, tables in enumerate(self._tables):
            k = permute(tables, x) << shift | permute(tables, o)
            if best < 0 or k < best:
                best, best_t = k, t
        return best, best_t

    def map_move(self, action: int, transform: int, inverse: bool = False) -> int:
        perm = self._transforms[transform]
        return perm.index(action) if inverse else perm[action]

    def plies_left(self, state: State) -> int:
        """At most one ply per empty cell."""
        return self.cells - _popcount(state[0] | state[1])

    def ordered_actions(self, state: State) -> Sequence[int]:
        """Cells near the centre first."""
        moves = list(self.actions(state))
        cr, cc = (self.m - 1) / 2, (self.n - 1) / 2
        moves.sort(key=lambda cell: abs(cell // self.n - cr) + abs(cell % self.n - cc))
        return moves

    def winning_action(self, state: State) -> int | None:
        x, o, status = state
        if status:
            return None
        mine = x if _popcount(x) == _popcount(o) else o
        occupied = x | o
        for line in self.lines:
            missing = line & ~mine
            if missing and missing & (missing - 1) == 0 and not missing & occupied:
                return missing.bit_length() - 1
        return None


register_alias("gomoku", "mnk(m=15,n=15,k=5)", N_("gomoku: five in a row on 15x15 (an m,n,k-game)"))
