"""Checkers of the search exercises: a student's minimax, minimax with the
quick-win score, alpha-beta, and the choice among equally good moves.

Each runs the student's function on tic-tac-toe positions (seeded, the
smallest trees first) against the reference, and explains the first
difference by the typical mistakes: each is a variant of the right search
(the minimizing player taking the maximum, a cut-off only when alpha > beta,
no window...) whose answer is compared with the student's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..game import Game
from ..i18n import _
from ..search import reference
from ..search.types import WIN, is_decisive
from .board import Board
from .positions import Position, run, sample, where
from .verdict import Verdict, passed

#: The tutorials' quick-win score: a win ``d`` plies away scores ``10 - d``.
QUICK_WIN = 10


def outcome(game: Game[Any, Any], state: Any, player: int, mode: str = "right") -> int:
    """The minimax value of ``state`` for ``player``: +1 win, 0 draw, -1
    loss. ``mode``: ``right``; ``max`` (the minimizing player takes the
    maximum too); ``min`` (the maximizing player takes the minimum too)."""
    if game.is_terminal(state):
        return game.utility(state, player)
    values = [outcome(game, game.result(state, m), player, mode) for m in game.actions(state)]
    maximizing = game.to_move(state) == player
    if mode == "max" or (mode == "right" and maximizing):
        return max(values)
    if mode == "min" or (mode == "right" and not maximizing):
        return min(values)
    raise AssertionError(mode)


def quick(game: Game[Any, Any], state: Any, player: int, depth: int, mode: str = "right") -> int:
    """The tutorials' quick-win minimax: a win ``depth`` plies below the
    call scores ``10 - depth``, a loss ``depth - 10``, a draw 0. ``mode``:
    ``right``; ``flat`` (a win scores 10 however far away); ``reversed``
    (a win scores ``depth - 10``: a slow win better)."""
    if game.is_terminal(state):
        utility = game.utility(state, player)
        if mode == "flat":
            return utility * QUICK_WIN
        if mode == "reversed":
            return utility * (QUICK_WIN + depth)
        return utility * (QUICK_WIN - depth)
    values = [
        quick(game, game.result(state, m), player, depth + 1, mode) for m in game.actions(state)
    ]
    return max(values) if game.to_move(state) == player else min(values)


class _Count:
    visits = 0


def alphabeta(
    game: Game[Any, Any],
    state: Any,
    player: int,
    alpha: float,
    beta: float,
    rule: str,
    count: _Count,
) -> float:
    """The tutorials' alpha-beta with +1/0/-1 values, counting moves played.
    ``rule``: ``ge`` (cut when alpha >= beta: right), ``gt`` (only when
    alpha > beta), ``none`` (never cut: also what a search that never raises
    alpha or lowers beta does, its window never closing)."""
    if game.is_terminal(state):
        return game.utility(state, player)
    maximizing = game.to_move(state) == player
    value = -math.inf if maximizing else math.inf
    for move in game.actions(state):
        count.visits += 1
        child = alphabeta(game, game.result(state, move), player, alpha, beta, rule, count)
        if maximizing:
            value = max(value, child)
            alpha = max(alpha, value)
        else:
            value = min(value, child)
            beta = min(beta, value)
        if (rule == "ge" and alpha >= beta) or (rule == "gt" and alpha > beta):
            break
    return value


def _players(game: Game[Any, Any], position: Position, index: int) -> int:
    """For whom the value is asked: the side to move, every third position
    the other side (a search must not assume MAX moves first)."""
    mover = game.to_move(position.state)
    return 1 - mover if index % 3 == 2 else mover


def _wrong(
    exercise: str,
    game: Game[Any, Any],
    position: Position,
    checked: int,
    message: str,
    player: int | None,
) -> Verdict:
    return Verdict(
        exercise,
        False,
        checked,
        message,
        game.render(position.state),
        where(game, position, player),
    )


def _is_number(answer: object) -> bool:
    return isinstance(answer, (int, float)) and not isinstance(answer, bool)


def check_minimax(function: Callable[[Board, int], Any], game: Game[Any, Any]) -> Verdict:
    """``function(board, player)``: the value for ``player`` (+1, 0, -1)."""
    name = "minimax"
    positions = sample(game, 60, range(2, 9))
    for index, position in enumerate(positions):
        player = _players(game, position, index)
        board = Board(game, position.state)
        answer, failed = run(name, game, position, board, function, (board, player), player)
        if failed is not None:
            return failed
        expected = outcome(game, position.state, player)
        if answer == expected:
            continue
        if not _is_number(answer):
            why = _("expected a number (+1, 0 or -1), got {answer!r}").format(answer=answer)
        elif answer == outcome(game, position.state, player, "max"):
            why = _(
                "the minimizing player took the maximum: at the opponent's turn take the"
                " smallest value"
            )
        elif answer == outcome(game, position.state, player, "min"):
            why = _(
                "the maximizing player took the minimum: at the player's own turn take the"
                " largest value"
            )
        elif answer == -expected:
            why = _(
                "the value is from the other player's point of view: score the end of the"
                " game with utility(player) for the player asked"
            )
        else:
            why = _("expected {expected}, got {answer}").format(expected=expected, answer=answer)
        return _wrong(name, game, position, index + 1, why, player)
    return passed(name, len(positions))


def check_minimax_depth(
    function: Callable[[Board, int, int], Any], game: Game[Any, Any]
) -> Verdict:
    """``function(board, player, depth)`` called with depth 0: a win ``d``
    plies away scores ``10 - d``, a loss ``d - 10``, a draw 0."""
    name = "minimax_depth"
    positions = sample(game, 60, range(2, 9))
    for index, position in enumerate(positions):
        player = _players(game, position, index)
        board = Board(game, position.state)
        answer, failed = run(
            name, game, position, board, function, (board, player, 0), player
        )
        if failed is not None:
            return failed
        expected = quick(game, position.state, player, 0)
        if answer == expected:
            continue
        if not _is_number(answer):
            why = _("expected a number, got {answer!r}").format(answer=answer)
        elif answer == quick(game, position.state, player, 0, "flat"):
            why = _(
                "a quick win should score better than a slow one: a win {d} plies away"
                " scores 10 - {d}"
            ).format(d=abs(QUICK_WIN - abs(expected)))
        elif answer == quick(game, position.state, player, 0, "reversed"):
            why = _(
                "the depth counts the wrong way: a win {d} plies away scores 10 - {d},"
                " so that the quickest win scores best"
            ).format(d=abs(QUICK_WIN - abs(expected)))
        elif answer == outcome(game, position.state, player):
            why = _("the score has no depth in it: a win {d} plies away scores 10 - {d}").format(
                d=abs(QUICK_WIN - abs(expected))
            )
        else:
            why = _("expected {expected}, got {answer}").format(expected=expected, answer=answer)
        return _wrong(name, game, position, index + 1, why, player)
    return passed(name, len(positions))


#: The windows each position is searched with: the full one and narrow ones
#: that make cut-offs at the root's children likely.
_WINDOWS = ((-math.inf, math.inf), (0, math.inf), (-math.inf, 0), (-1, 1))


def check_alphabeta(
    function: Callable[[Board, int, float, float], Any], game: Game[Any, Any]
) -> Verdict:
    """``function(board, player, alpha, beta)``: alpha-beta with +1/0/-1
    values; within the window the exact value, outside it a bound on the
    right side; and exactly the positions the tutorials' alpha-beta visits
    (cut-off as soon as alpha >= beta).

    A wrong number of positions is explained by the mistaken variant whose
    counts agree with the student's on every position tried (one position
    alone may not tell the variants apart)."""
    name = "alphabeta"
    positions = sample(game, 24, range(3, 8))
    runs: list[tuple[Position, int, float, float, int]] = []
    first: tuple[int, Position, int, str] | None = None
    for index, position in enumerate(positions):
        player = _players(game, position, index)
        for alpha, beta in _WINDOWS:
            board = Board(game, position.state)
            answer, failed = run(
                name, game, position, board, function, (board, player, alpha, beta), player
            )
            if failed is not None:
                return failed
            runs.append((position, player, alpha, beta, board.visits))
            exact = outcome(game, position.state, player)
            prefix = _("with alpha = {alpha}, beta = {beta}: ").format(
                alpha=_bound(alpha), beta=_bound(beta)
            )
            why = _value_mistake(game, position, player, answer, exact, alpha, beta)
            if why is not None:
                return _wrong(name, game, position, len(runs), prefix + why, player)
            if first is None and board.visits != _visits(game, position, player, alpha, beta, "ge"):
                first = (len(runs), position, player, prefix)
    if first is None:
        return passed(name, len(runs))
    checked, position, player, prefix = first
    rule = next(
        (
            rule
            for rule in ("gt", "none")
            if all(v == _visits(game, p, pl, a, b, rule) for p, pl, a, b, v in runs)
        ),
        None,
    )
    _p, _pl, alpha, beta, visits = runs[checked - 1]
    why = _visits_mistake(game, position, player, alpha, beta, visits, rule)
    return _wrong(name, game, position, checked, prefix + why, player)


def _visits(
    game: Game[Any, Any], position: Position, player: int, alpha: float, beta: float, rule: str
) -> int:
    count = _Count()
    alphabeta(game, position.state, player, alpha, beta, rule, count)
    return count.visits


def _bound(value: float) -> str:
    return "-∞" if value == -math.inf else "+∞" if value == math.inf else str(int(value))


def _value_mistake(
    game: Game[Any, Any],
    position: Position,
    player: int,
    answer: Any,
    exact: int,
    alpha: float,
    beta: float,
) -> str | None:
    """Why ``answer`` is not a right alpha-beta value, or None."""
    if not _is_number(answer):
        return _("expected a number, got {answer!r}").format(answer=answer)
    if alpha < exact < beta and answer == exact:
        return None
    if exact <= alpha and answer <= alpha:
        return None
    if exact >= beta and answer >= beta:
        return None
    if answer == outcome(game, position.state, player, "max"):
        return _(
            "the minimizing player took the maximum: at the opponent's turn take the smallest value"
        )
    if answer == outcome(game, position.state, player, "min"):
        return _(
            "the maximizing player took the minimum: at the player's own turn take the"
            " largest value"
        )
    return (
        _(
            "the value {exact} lies inside the window, so alpha-beta must return it exactly;"
            " got {answer}"
        ).format(exact=exact, answer=answer)
        if alpha < exact < beta
        else _(
            "the value {exact} lies outside the window, so any value on the same side of it will"
            " do; got {answer}"
        ).format(exact=exact, answer=answer)
    )


def _visits_mistake(
    game: Game[Any, Any],
    position: Position,
    player: int,
    alpha: float,
    beta: float,
    visits: int,
    rule: str | None,
) -> str:
    """Why the student's search visited another number of positions than
    alpha-beta: by ``rule``, the mistaken variant that visits as many
    positions as the student's everywhere (None: no variant does)."""
    right = _visits(game, position, player, alpha, beta, "ge")
    if rule == "gt":
        return _(
            "the cut-off should happen when alpha ≥ beta: cutting only when alpha > beta"
            " searched {visits} positions where {right} are enough"
        ).format(visits=visits, right=right)
    if rule == "none":
        return _(
            "nothing was pruned: the search visited all {visits} positions, as minimax"
            " does; raise alpha at the player's turn and lower beta at the opponent's as"
            " better values are found, and stop trying moves once alpha ≥ beta"
        ).format(visits=visits)
    if visits < right:
        return _(
            "the search pruned moves that alpha-beta must try: {visits} positions searched"
            " where alpha-beta searches {right}"
        ).format(visits=visits, right=right)
    return _(
        "the search visited {visits} positions where alpha-beta (trying the moves in"
        " order) visits {right}"
    ).format(visits=visits, right=right)


def check_best_moves(
    function: Callable[[Game[Any, Any], Any], Any], game: Game[Any, Any]
) -> Verdict:
    """``function(game, state)``: every move as good as the best by the
    quick-win score (the moves to choose from at random)."""
    name = "best_moves"
    positions = sample(game, 40, range(2, 8))
    for index, position in enumerate(positions):
        board = Board(game, position.state)
        answer, failed = run(name, game, position, board, function, (game, position.state))
        if failed is not None:
            return failed
        result = reference.analyze(game, position.state, algorithm="alphabeta")
        expected = set(result.best_moves)
        try:
            got = set(answer)
        except TypeError:
            return _wrong(
                name,
                game,
                position,
                index + 1,
                _("expected a list of moves, got {answer!r}").format(answer=answer),
                None,
            )
        if got == expected:
            continue
        scores = {m.move: m.score.raw for m in result.moves}
        missing = sorted(expected - got)
        extra = sorted(got - expected)
        if extra:
            bad = extra[0]
            why = (
                _("{move} is not a legal move here").format(move=game.format_move(bad))
                if bad not in scores
                else _("{move} is worse than the best: it scores {score}, the best {best}").format(
                    move=game.format_move(bad),
                    score=_quick(scores[bad]),
                    best=_quick(result.score.raw),
                )
            )
        elif len(got) == 1 and len(expected) > 1:
            why = _(
                "only one of the equally good moves: {moves} are as good; choose among all of them"
            ).format(moves=" ".join(game.format_move(m) for m in missing))
        else:
            why = _("missing equally good moves: {moves}").format(
                moves=" ".join(game.format_move(m) for m in missing)
            )
        return _wrong(name, game, position, index + 1, why, None)
    return passed(name, len(positions))


def _quick(raw: int) -> int:
    """A reference score as the quick-win score of the lessons."""
    if not is_decisive(raw):
        return raw
    plies = WIN - abs(raw)
    return (QUICK_WIN - plies) if raw > 0 else -(QUICK_WIN - plies)
