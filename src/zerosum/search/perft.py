"""Perft: counting move sequences, the standard check of move generation.

``perft(game, state, depth)`` is the number of sequences of exactly ``depth``
plies from ``state`` in which the game did not end before the last ply (a pass,
where a game has one, is a ply like any other). It is the figure engine authors
publish per depth: tic-tac-toe from the empty board gives 1, 9, 72, 504, ...
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any

from ..game import Game, ZerosumError
from ..i18n import _


def perft(game: Game[Any, Any], state: Hashable, depth: int) -> int:
    """Move sequences of exactly ``depth`` plies from ``state`` with no end of
    the game before the last ply."""
    if depth < 0:
        raise ZerosumError(_("perft depth must be 0 or more, got {depth}").format(depth=depth))
    if depth == 0:
        return 1
    if game.is_terminal(state):
        return 0
    moves = game.actions(state)
    if depth == 1:
        return len(moves)  # bulk count: the last ply may end the game
    result = game.result
    return sum(perft(game, result(state, move), depth - 1) for move in moves)


def divide(game: Game[Any, Any], state: Hashable, depth: int) -> list[tuple[Any, int]]:
    """Perft split by first move: ``[(move, count), ...]`` in the game's
    move order; the counts add up to ``perft(game, state, depth)``."""
    if depth < 1:
        raise ZerosumError(
            _("perft --divide needs a depth of 1 or more, got {depth}").format(depth=depth)
        )
    if game.is_terminal(state):
        return []
    return [(m, perft(game, game.result(state, m), depth - 1)) for m in game.actions(state)]


def timed_perft(game: Game[Any, Any], state: Hashable, depth: int) -> tuple[int, float]:
    """``perft`` and the seconds it took."""
    started = time.perf_counter()
    count = perft(game, state, depth)
    return count, time.perf_counter() - started
