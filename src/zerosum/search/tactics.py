"""The two-ply safeguard: never miss a win at once, never allow one.

A search cut short by its clock (``go movetime 20`` on a loaded machine) may
not finish even depth 2, and then chooses with less knowledge than a
beginner: a tic-tac-toe engine once let the opponent complete a row after a
depth-1 search. :func:`safeguard` checks the chosen move with the rules
alone, within a budget of positions (never of seconds):

* a move that wins at once is played;
* else, when the chosen move lets the opponent win at once and another move
  does not, the first such move (in the game's order of preference) is
  played instead.

It uses the game's own ``winning_action`` / ``non_losing_actions`` hooks
where the game has them, and otherwise plays the moves out.

>>> import zerosum
>>> game = zerosum.load("tictactoe")
>>> state = game.play("0 3 1 4".split())   # X to move: 2 wins at once
>>> safeguard(game, state, 8)
2
>>> state = game.play("0 3 1".split())     # O to move must block at 2
>>> safeguard(game, state, 8)
2
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..game import Game
from .types import Score, SearchResult, is_decisive, terminal_score

#: Positions the safeguard may play out (a game with 60 moves a side has
#: 3,600 replies to look at; one with more only gets the win-at-once check
#: and as many replies as fit).
BUDGET = 4096


class _Budget:
    def __init__(self, positions: int) -> None:
        self.left = positions

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def _wins_now(game: Game[Any, Any], state: Any, mover: int, budget: _Budget) -> Any:
    """A move of ``mover`` (to move in ``state``) that wins at once, else
    None (also when the budget ran out first)."""
    if type(game).winning_action is not Game.winning_action:
        return game.winning_action(state)
    for move in game.actions(state):
        if not budget.spend():
            return None
        child = game.result(state, move)
        if game.is_terminal(child) and game.utility(child, mover) > 0:
            return move
    return None


def safeguard(game: Game[Any, Any], state: Any, chosen: Any, positions: int = BUDGET) -> Any:
    """``chosen``, or a better move by the two rules of the module
    docstring, looking at most at ``positions`` positions. ``state`` must not
    be terminal; ``chosen`` must be legal there."""
    budget = _Budget(positions)
    me = game.to_move(state)
    win = _wins_now(game, state, me, budget)
    if win is not None:
        return win
    if type(game).non_losing_actions is not Game.non_losing_actions:
        safe = game.non_losing_actions(state)
        if safe is None:
            return chosen
        return chosen if not safe or chosen in safe else safe[0]

    def loses_at_once(move: Any) -> bool | None:
        """Whether the opponent can win at once after ``move`` (None: the
        budget ran out before it was known)."""
        child = game.result(state, move)
        if game.is_terminal(child):
            return False
        opponent = game.to_move(child)
        if opponent == me:
            return False  # the mover moves again: no reply to fear now
        reply = _wins_now(game, child, opponent, budget)
        if budget.left < 0:
            return None
        return reply is not None

    if not loses_at_once(chosen):
        return chosen
    for move in game.ordered_actions(state):
        if move != chosen and loses_at_once(move) is False:
            return move
        if budget.left < 0:
            break
    return chosen


def guarded(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> SearchResult[Any]:
    """``result`` (a search's choice of a move in ``state``) with its move
    checked by :func:`safeguard`: the move every search plays, at every
    depth and budget, on either backend, wins at once when it can and does
    not let the opponent win at once when another move avoids it. A
    proven result (exact, or a decisive score: the search saw the end) is
    kept as it is. A move replaced carries its own score: a win in one,
    else the evaluation after it (a heuristic score), and itself as the
    line."""
    chosen = result.best_move
    if chosen is None or result.score.exact or is_decisive(result.score.raw):
        return result
    move = safeguard(game, state, chosen)
    if move == chosen:
        return result
    me = game.to_move(state)
    child = game.result(state, move)
    if game.is_terminal(child):
        score = Score(terminal_score(game.utility(child, me), 1), exact=True)
    else:
        score = next(
            (line.score for line in result.moves if line.move == move),
            Score(game.evaluate(child, me)),
        )
    return replace(result, best_move=move, score=score, pv=(move,), best_moves=(move,))
