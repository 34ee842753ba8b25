"""The line of perfect play behind an exact value, to the end of the game.

A solve proves a value with null-window probes, and the transposition table
they leave holds a best move only where a probe failed high (a lower bound):
along the line of perfect play every other position failed low, so the
table's line (``CoreReports.table_line``) stops after a few plies, and a
draw, whose distance is the length of its line, was reported without one
(issue 26). :func:`perfect_line` finds the line instead: at each position
of the line, with its exact value known, it asks the moves one null window
each, the table's move first, "is this move worth the value?", and plays the
first that is. The probes run on the solve's own core and table, which
already hold most of the answers, so each is mostly a table hit.

Scores are as everywhere in the engine (``zerosum.search.types``): from the
side to move, a win or loss carrying its distance in plies from the
position it is scored for.
"""

from __future__ import annotations

from typing import Any

from ..game import Game
from .node import UNLIMITED, SearchCore, Stop
from .types import MAX_PLY, is_decisive


def one_ply_on(value: int) -> int:
    """The same result, for the same player, seen one ply later: a win or a
    loss in ``p`` plies is one in ``p - 1``; a draw stays a draw."""
    if not is_decisive(value):
        return value
    return value + 1 if value > 0 else value - 1


def perfect_line(
    core: SearchCore,
    game: Game[Any, Any],
    state: Any,
    value: int,
    length: int = MAX_PLY,
) -> tuple[Any, ...]:
    """The moves of perfect play from ``state``, whose exact value for its
    side to move is ``value`` (with its distance), until the game ends or
    for ``length`` plies: each move is one whose value is ``value`` (the
    quickest win, the slowest loss, a drawing move), found by one null
    window ``(v - 1, v)`` per move tried. A win or loss in ``p`` plies
    gives a line of exactly ``p`` plies ending in that result.

    Stopped (the search's time or node budget, ``Engine.stop()``), it
    returns the line found so far. The probes count in the core's positions;
    the caller decides whether to report them.
    """
    line: list[Any] = []
    mover = game.to_move(state)
    try:
        while len(line) < length and not game.is_terminal(state):
            who = game.to_move(state)
            if who != mover:
                value, mover = -value, who
            move = _move_worth(core, game, state, who, value)
            if move is None:  # no move reaches the value: not exact after all
                break
            line.append(move)
            state = game.result(state, move)
            value = one_ply_on(value)
    except Stop:
        pass
    return tuple(line)


def _move_worth(core: SearchCore, game: Game[Any, Any], state: Any, me: int, value: int) -> Any:
    """A move from ``state`` worth ``value`` for its side to move ``me``
    (exactly: no move is worth more), the table's best move tried first;
    None if none is."""
    moves = list(core.gen_moves(state))
    first = core.table_move(state)
    if first in moves:
        moves.remove(first)
        moves.insert(0, first)
    for move in moves:
        child = game.result(state, move)
        found = core.child_value(child, game.to_move(child), me, UNLIMITED - 1, value - 1, value)
        if found >= value:
            return move
    return None
