"""The positions the checkers try, and how a wrong one is described."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game import Game
from ..i18n import _
from .board import Board
from .verdict import Verdict


@dataclass(frozen=True)
class Position:
    """A position to check: the moves from the start and the state."""

    moves: tuple[Any, ...]
    state: Any


def sample(
    game: Game[Any, Any], count: int, plies: range, seed: int = 2024, terminal: bool = False
) -> list[Position]:
    """``count`` distinct positions reached by random moves (seeded), each
    ``plies`` moves from the start; terminal ones only with ``terminal``.
    Ordered with the smallest game tree first (the most moves played), so
    that the first wrong position is the simplest one."""
    rng = random.Random(seed)
    found: dict[Any, Position] = {}
    tries = 0
    while len(found) < count and tries < count * 50:
        tries += 1
        state, moves = game.initial_state(), list[Any]()
        length = rng.choice(plies)
        while len(moves) < length and not game.is_terminal(state):
            move = rng.choice(list(game.actions(state)))
            moves.append(move)
            state = game.result(state, move)
        if game.is_terminal(state) and not terminal:
            continue
        found.setdefault(state, Position(tuple(moves), state))
    return sorted(found.values(), key=lambda p: -len(p.moves))


def where(game: Game[Any, Any], position: Position, player: int | None = None) -> str:
    """How the position was reached, whose turn it is, and for whom the
    value is asked."""
    moves = " ".join(game.format_move(m) for m in position.moves)
    text = (
        _("First wrong position: after the moves {moves}").format(moves=moves)
        if moves
        else _("First wrong position: the start of the game")
    )
    text += "; " + _("{name} to move").format(name=game.player_name(game.to_move(position.state)))
    if player is not None:
        text += "; " + _("the value asked for {name}").format(name=game.player_name(player))
    return text


def run(
    exercise: str,
    game: Game[Any, Any],
    position: Position,
    board: Board,
    function: Callable[..., Any],
    args: tuple[Any, ...],
    player: int | None = None,
) -> tuple[Any, Verdict | None]:
    """Call the student's function on ``board``; a verdict when it raised or
    left the board changed, else (its answer, None)."""

    def wrong(message: str) -> Verdict:
        return Verdict(
            exercise, False, 0, message, game.render(position.state), where(game, position, player)
        )

    try:
        answer = function(*args)
    except RecursionError:
        return None, wrong(
            _("your function recursed without end: does it stop at a finished game?")
        )
    except Exception as error:
        return None, wrong(
            _("your function raised {error} here").format(error=f"{type(error).__name__}: {error}")
        )
    if board.played != 0:
        return None, wrong(
            _(
                "the move was not undone: when your function returned, the board had {n} more"
                " move(s) on it than it started with"
                " (call board.undo() after each board.play(move))"
            ).format(n=board.played)
        )
    return answer, None
