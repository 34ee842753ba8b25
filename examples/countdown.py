"""A complete small game: Countdown. A pile of counters; each turn a player
takes 1, 2 or 3; whoever takes the last counter wins."""

from collections.abc import Sequence

import zerosum
from zerosum import Game, MoveError, Param, PositionError

State = tuple[int, int]  # (counters left, player to move)


@zerosum.register
class Countdown(Game[State, int]):
    name = "countdown"
    title = "Countdown: take 1-3 counters, whoever takes the last one wins"
    params = (Param("pile", 10, "counters at the start", minimum=1, maximum=1000),)
    compact_moves = True

    def __init__(self, pile: int = 10) -> None:
        self.pile = pile

    def initial_state(self) -> State:
        return (self.pile, 0)

    def to_move(self, state: State) -> int:
        return state[1]

    def actions(self, state: State) -> Sequence[int]:
        return [n for n in (1, 2, 3) if n <= state[0]]

    def result(self, state: State, action: int) -> State:
        return (state[0] - action, 1 - state[1])

    def is_terminal(self, state: State) -> bool:
        return state[0] == 0

    def utility(self, state: State, player: int) -> int:
        # The player to move at the end has nothing to take: they lost.
        return -1 if player == state[1] else 1

    def format_move(self, action: int) -> str:
        return str(action)

    def parse_move(self, state: State, text: str) -> int:
        if text not in {str(n) for n in self.actions(state)}:
            raise MoveError(f"cannot take {text!r}; expected one of {self.legal_moves_text(state)}")
        return int(text)

    def format_position(self, state: State) -> str:
        return f"{state[0]}:{state[1]}"

    def parse_position(self, text: str) -> State:
        left, _, player = text.partition(":")
        if not (left.isdigit() and player in ("0", "1")):
            raise PositionError(f"cannot read {text!r}; expected COUNTERS:PLAYER, e.g. 7:0")
        return (int(left), int(player))
