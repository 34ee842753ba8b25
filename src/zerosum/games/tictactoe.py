"""Tic-tac-toe as the tutorials describe it: cells numbered 0-8 row by row,
X moves first, the board printed as three rows.

It is exactly ``mnk(3,3,3)`` (the same states and rules) with the tutorials'
notation, their evaluation function and their opening table::

     0 | 1 | 2
    ---+---+---
     3 | 4 | 5
    ---+---+---
     6 | 7 | 8
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..game import Board, MoveError, Player, excerpt
from ..i18n import N_, _
from ..registry import register
from .mnk import MNK, State

CORNERS = (0, 2, 6, 8)
CENTRE = 4

#: The tutorial's evaluation: a won line, and a line with two marks of one
#: side and an empty cell (a threat).
WIN_LINE_SCORE = 100
THREAT_SCORE = 50


@register
class TicTacToe(MNK):
    """Tic-tac-toe with the tutorials' 0-8 cell numbers."""

    name = "tictactoe"
    title = N_("tic-tac-toe: three in a row on 3x3, cells 0-8 (as in the tutorials)")
    params = ()
    compact_moves = True

    def __init__(self) -> None:
        super().__init__(3, 3, 3)

    def spec(self) -> str:
        return "tictactoe"

    def format_move(self, action: int) -> str:
        return str(action)

    def board(self, state: State) -> Board:
        # The tutorial numbers the cells 0-8; letter/number coordinates
        # would only confuse.
        return replace(super().board(state), row_labels=(), col_labels=())

    def parse_move(self, state: State, text: str) -> int:
        if self.is_terminal(state):
            raise MoveError(
                _("the game is over; no move {text!r} can be played").format(text=excerpt(text))
            )
        text = text.strip()
        if len(text) != 1 or text not in "012345678":
            raise MoveError(
                _("cannot read move {text!r}; expected a cell number 0-8: one of {moves}").format(
                    text=excerpt(text), moves=self.legal_moves_text(state)
                )
            )
        return self._check_legal(state, int(text), text)

    def render(self, state: State) -> str:
        x, o, _status = state
        rows = []
        for r in range(3):
            cells = []
            for c in range(3):
                cell = 3 * r + c
                cells.append("X" if x >> cell & 1 else "O" if o >> cell & 1 else str(cell))
            rows.append(" " + " | ".join(cells))
        return "\n---+---+---\n".join(rows)

    def evaluate(self, state: State, player: Player) -> int:
        """The tutorial's evaluation for ``player``: a won line +-100; else a
        line with two marks of one side and the third cell empty (a threat)
        +-50, the threat of the side to move taking precedence (it completes
        its line next move, so its threat decides); else 0 (a full board
        without a line is 0).

        Antisymmetric, as :meth:`Game.evaluate` requires: the value for one
        player is minus the value for the other (the tutorial's first
        version let the opponent's threat count first for *either* side, so
        with a threat each both sides scored -50, and the engine, scoring
        for the side to move, and the reference, for the root player,
        disagreed)."""
        x, o, _status = state
        mover = self.to_move(state)
        mine, theirs = (x, o) if mover == 0 else (o, x)
        sign = 1 if player == mover else -1
        empty = ~(x | o) & self.full
        if any(mine & line == line for line in self.lines):
            return sign * WIN_LINE_SCORE
        if any(theirs & line == line for line in self.lines):
            return -sign * WIN_LINE_SCORE

        def threat(bits: int) -> bool:
            return any((bits & line).bit_count() == 2 and empty & line for line in self.lines)

        if threat(mine):
            return sign * THREAT_SCORE
        if threat(theirs):
            return -sign * THREAT_SCORE
        return 0

    def opening_scores(self, state: State) -> Mapping[int, int] | None:
        """The tutorial's opening table for the first move: centre 4, corners
        3, edges 2 (so the AI opens in the centre)."""
        if state[0] or state[1]:
            return None
        return {cell: 4 if cell == CENTRE else 3 if cell in CORNERS else 2 for cell in range(9)}
