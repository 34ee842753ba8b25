"""Exercises that check themselves, for the lessons (``zerosum lessons``).

A student writes a function and calls :func:`check` with the exercise's
name; the checker runs it against the reference on many positions and
answers in the student's language: right everywhere, or the first position
where it is wrong and why.

>>> from zerosum.exercises import check
>>> def minimax(board, player):
...     if board.is_terminal():
...         return board.utility(player)
...     values = []
...     for move in board.actions():
...         board.play(move)
...         values.append(minimax(board, player))
...         board.undo()
...     return max(values) if board.to_move() == player else min(values)
>>> check("minimax", minimax, lang="en").ok
True

The exercises and what the function is given:

* ``minimax(board, player)`` -- the value for ``player``: +1, 0, -1;
* ``minimax_depth(board, player, depth)`` -- the quick-win score
  (a win ``d`` plies away scores ``10 - d``), called with depth 0;
* ``alphabeta(board, player, alpha, beta)`` -- alpha-beta with +1/0/-1;
* ``best_moves(game, state)`` -- every move as good as the best;
* ``evaluate(board, player)`` -- Domineering's mobility
  (``board.moves_for(player)`` lists a player's tiles);
* ``iterative_deepening(search, max_depth, time_left)`` -- depths 1, 2,
  ... while ``time_left()``; the move of the last completed depth
  (``search(depth)`` returns None for a depth cut short);
* ``uct(wins, visits, parent_visits, c)`` -- the UCT score.

``board`` is a :class:`Board`: ``play(move)``, ``undo()``, ``actions()``,
``to_move()``, ``is_terminal()``, ``utility(player)``.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

from .. import i18n
from ..game import ZerosumError
from ..i18n import _
from ..registry import load
from .board import Board
from .deepening import check_deepening
from .heuristics import check_evaluate, check_uct
from .searches import check_alphabeta, check_best_moves, check_minimax, check_minimax_depth
from .verdict import Verdict

EXERCISES = (
    "minimax",
    "minimax_depth",
    "alphabeta",
    "best_moves",
    "evaluate",
    "iterative_deepening",
    "uct",
)


def _run(exercise: str, function: Callable[..., Any]) -> Verdict:
    if exercise == "minimax":
        return check_minimax(function, load("tictactoe"))
    if exercise == "minimax_depth":
        return check_minimax_depth(function, load("tictactoe"))
    if exercise == "alphabeta":
        return check_alphabeta(function, load("tictactoe"))
    if exercise == "best_moves":
        return check_best_moves(function, load("tictactoe"))
    if exercise == "evaluate":
        games = [load(f"domineering(rows={r},cols={c})") for r, c in ((3, 3), (4, 4), (3, 5))]
        return check_evaluate(function, games)
    if exercise == "iterative_deepening":
        return check_deepening(function)
    return check_uct(function)


def check(exercise: str, function: Callable[..., Any], *, lang: str | None = None) -> Verdict:
    """Run the student's ``function`` for ``exercise`` (one of
    :data:`EXERCISES`) against the reference; the answer in ``lang`` (en or
    zh; None: the locale's). Raises ZerosumError for an unknown exercise or
    language, or when ``function`` is not callable."""
    if exercise not in EXERCISES:
        raise ZerosumError(
            _("unknown exercise {name!r}; expected one of {names}").format(
                name=exercise, names=", ".join(EXERCISES)
            )
        )
    if not callable(function):
        raise ZerosumError(
            _("expected your function for {name}, got {type}").format(
                name=exercise, type=type(function).__name__
            )
        )
    i18n.translations(lang or i18n.language_from_environment())  # an unknown language: one line

    def checked() -> Verdict:
        i18n.activate(lang)
        return _run(exercise, function)

    # In a context of its own: the answer's language does not change the caller's.
    return contextvars.copy_context().run(checked)


__all__ = ["EXERCISES", "Board", "Verdict", "check"]
