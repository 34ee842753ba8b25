"""Checkers of the evaluation and MCTS exercises: the tutorials' Domineering
mobility, and the UCT score of Monte Carlo tree search."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..game import Game
from ..i18n import _
from .board import Board
from .positions import run, sample, where
from .verdict import Verdict, passed


def domineering_moves(game: Any) -> Callable[[Any, int], list[int]]:
    """Where ``player`` could place a tile on a Domineering position, whoever
    is to move: the tiles' top (Vertical) or left (Horizontal) cells."""

    def moves_for(state: Any, player: int) -> list[int]:
        bits = game.moves_bits(state[0], player)
        return [cell for cell in range(game.rows * game.cols) if bits >> cell & 1]

    return moves_for


def check_evaluate(function: Callable[[Board, int], Any], games: list[Game[Any, Any]]) -> Verdict:
    """``function(board, player)``: the tutorials' mobility, the tiles
    ``player`` could place minus those the opponent could place, on
    Domineering boards of several sizes, for both players."""
    name = "evaluate"
    checked = 0
    for game in games:
        moves_for = domineering_moves(game)
        for index, position in enumerate(sample(game, 25, range(0, 8), terminal=True)):
            for player in (index % 2, 1 - index % 2):
                checked += 1
                board = Board(game, position.state, moves_for)
                answer, failed = run(
                    name, game, position, board, function, (board, player), player
                )
                if failed is not None:
                    return failed
                mine = len(moves_for(position.state, player))
                theirs = len(moves_for(position.state, 1 - player))
                expected = mine - theirs
                if answer == expected:
                    continue
                mover = game.to_move(position.state)
                if answer == -expected:
                    why = _(
                        "the evaluation is from the opponent's point of view: count the"
                        " player's moves minus the opponent's"
                    )
                elif answer == mine:
                    why = _(
                        "only the player's own moves were counted ({mine}): subtract the"
                        " opponent's ({theirs})"
                    ).format(mine=mine, theirs=theirs)
                elif player != mover and answer == len(moves_for(position.state, mover)) - len(
                    moves_for(position.state, player)
                ):
                    why = _("the evaluation is for the side to move, not for the player asked")
                else:
                    why = _("expected {mine} - {theirs} = {expected}, got {answer!r}").format(
                        mine=mine, theirs=theirs, expected=expected, answer=answer
                    )
                return Verdict(
                    name,
                    False,
                    checked,
                    why,
                    game.render(position.state),
                    where(game, position, player),
                )
    return passed(name, checked)


#: (wins, visits, parent visits) the UCT checker tries, with c = sqrt(2) and c = 0.5.
_NODES = [
    (w, v, p)
    for p in (1, 2, 10, 57, 1000)
    for v in (0, 1, 3, 10)
    if v <= p
    for w in (0.0, 0.5 * v, float(v))
]


def uct_value(wins: float, visits: int, parent: int, c: float) -> float:
    """The UCT score: wins / visits + c * sqrt(ln(parent) / visits); an
    unvisited child scores infinity (it is tried first)."""
    if visits == 0:
        return math.inf
    return wins / visits + c * math.sqrt(math.log(parent) / visits)


def check_uct(function: Callable[[float, int, int, float], Any]) -> Verdict:
    """``function(wins, visits, parent_visits, c)``: the UCT score."""
    name = "uct"
    checked = 0
    for c in (math.sqrt(2), 0.5):
        for wins, visits, parent in _NODES:
            checked += 1
            try:
                answer = function(wins, visits, parent, c)
            except Exception as error:
                if visits == 0 and isinstance(error, ZeroDivisionError):
                    why = _(
                        "an unvisited child must score infinity (math.inf), so that every move"
                        " is tried once before any is tried twice"
                    )
                else:
                    why = _("your function raised {error} here").format(
                        error=f"{type(error).__name__}: {error}"
                    )
                return _uct_wrong(checked, why, wins, visits, parent, c)
            expected = uct_value(wins, visits, parent, c)
            if isinstance(answer, (int, float)) and _close(float(answer), expected):
                continue
            if visits == 0:
                why = _(
                    "an unvisited child must score infinity (math.inf), so that every move"
                    " is tried once before any is tried twice"
                )
            elif not isinstance(answer, (int, float)):
                why = _("expected a number, got {answer!r}").format(answer=answer)
            elif _close(
                answer, wins / visits + c * math.sqrt(math.log(visits) / visits) if visits else 0
            ):
                why = _("the logarithm is of the parent's visits, not the child's")
            elif _close(answer, wins / visits + c * math.log(parent) / visits):
                why = _("the exploration term needs a square root: c * sqrt(ln(N) / n)")
            elif _close(
                answer, visits / max(wins, 1e-300) + c * math.sqrt(math.log(parent) / visits)
            ):
                why = _("the exploitation term is the mean result, wins / visits")
            elif _close(answer, wins / visits):
                why = _("the exploration term is missing: c * sqrt(ln(N) / n)")
            else:
                why = _("expected {expected:.6f}, got {answer!r}").format(
                    expected=expected, answer=answer
                )
            return _uct_wrong(checked, why, wins, visits, parent, c)
    return passed(name, checked)


def _close(a: float, b: float) -> bool:
    return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _uct_wrong(checked: int, why: str, wins: float, visits: int, parent: int, c: float) -> Verdict:
    return Verdict(
        "uct",
        False,
        checked,
        why,
        where=_(
            "First wrong child: wins = {w}, visits = {n}, parent visits = {N}, c = {c:.4f}"
        ).format(w=wins, n=visits, N=parent, c=c),
    )
