"""The board a student's search works on: one position changed in place, as
the tutorials' code does (play a move, search, undo it).

zerosum's own states are immutable, so its searches cannot forget to undo
a move; a student's function gets a :class:`Board` instead, so that the
checkers can see that mistake (the board is not back where it started when
the function returns) and count the positions the search visited.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..game import Game, ZerosumError
from ..i18n import _


class Board:
    """A position of ``game`` that changes in place.

    * ``play(move)`` -- make a legal move (counted in :attr:`visits`);
    * ``undo()``     -- take back the last move played;
    * ``actions()``, ``to_move()``, ``is_terminal()``, ``utility(player)``,
      ``evaluate(player)`` -- the game's rules on the current position;
    * ``moves_for(player)`` -- the moves ``player`` could make here, whoever
      is to move (only where the exercise provides it: Domineering).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        state: Any,
        moves_for: Callable[[Any, int], list[Any]] | None = None,
    ) -> None:
        self.game = game
        self._stack = [state]
        self._moves_for = moves_for
        #: Moves played on this board (each is one position visited).
        self.visits = 0

    @property
    def state(self) -> Any:
        """The current position (an immutable zerosum state)."""
        return self._stack[-1]

    @property
    def played(self) -> int:
        """Moves played and not undone."""
        return len(self._stack) - 1

    def to_move(self) -> int:
        return self.game.to_move(self.state)

    def actions(self) -> list[Any]:
        return list(self.game.actions(self.state))

    def is_terminal(self) -> bool:
        return self.game.is_terminal(self.state)

    def utility(self, player: int) -> int:
        return self.game.utility(self.state, player)

    def evaluate(self, player: int) -> int:
        return self.game.evaluate(self.state, player)

    def moves_for(self, player: int) -> list[Any]:
        if self._moves_for is None:
            raise ZerosumError(_("this board does not list a player's moves out of turn"))
        return self._moves_for(self.state, player)

    def play(self, move: Any) -> None:
        self.visits += 1
        self._stack.append(self.game.result(self.state, move))

    def undo(self) -> None:
        if len(self._stack) == 1:
            raise ZerosumError(_("nothing to undo: the board is at the position it started from"))
        self._stack.pop()

    def __str__(self) -> str:
        return self.game.render(self.state)

    def __repr__(self) -> str:
        return f"Board({self.game.format_position(self.state)!r})"
