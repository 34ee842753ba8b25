"""The lessons' exercise checkers (zerosum.exercises): each accepts a right
solution and rejects each typical mistake with its own message, in English
and in Chinese, naming the first wrong position."""

from __future__ import annotations

import math
from typing import Any

import pytest

from zerosum.errors import ZerosumError
from zerosum.exercises import Board, check

# -- right solutions, as a student writes them ---------------------------------


def minimax(board: Board, player: int) -> int:
    if board.is_terminal():
        return board.utility(player)
    values = []
    for move in board.actions():
        board.play(move)
        values.append(minimax(board, player))
        board.undo()
    return max(values) if board.to_move() == player else min(values)


def minimax_depth(board: Board, player: int, depth: int) -> int:
    if board.is_terminal():
        return board.utility(player) * (10 - depth)
    values = []
    for move in board.actions():
        board.play(move)
        values.append(minimax_depth(board, player, depth + 1))
        board.undo()
    return max(values) if board.to_move() == player else min(values)


def alphabeta(
    board: Board,
    player: int,
    alpha: float,
    beta: float,
    strict: bool = False,
    prune: bool = True,
    update: bool = True,
) -> float:
    if board.is_terminal():
        return board.utility(player)
    maximizing = board.to_move() == player
    value = -math.inf if maximizing else math.inf
    for move in board.actions():
        board.play(move)
        child = alphabeta(board, player, alpha, beta, strict, prune, update)
        board.undo()
        if maximizing:
            value = max(value, child)
            alpha = max(alpha, value) if update else alpha
        else:
            value = min(value, child)
            beta = min(beta, value) if update else beta
        if prune and (alpha > beta if strict else alpha >= beta):
            break
    return value


def best_moves(game: Any, state: Any) -> list[Any]:
    scores = {}
    for move in game.actions(state):
        board = Board(game, game.result(state, move))
        scores[move] = -minimax_depth(board, game.to_move(board.state), 1)
    best = max(scores.values())
    return [m for m, s in scores.items() if s == best]


def iterative_deepening(
    search: Any,
    max_depth: int,
    time_left: Any,
    check_time: bool = True,
    keep_unfinished: bool = False,
) -> Any:
    best = None
    for depth in range(1, max_depth + 1):
        if check_time and not time_left():
            break
        move = search(depth)
        if move is None and not keep_unfinished:
            break
        best = move
    return best


def evaluate(board: Board, player: int) -> int:
    return len(board.moves_for(player)) - len(board.moves_for(1 - player))


def uct(wins: float, visits: int, parent: int, c: float) -> float:
    if visits == 0:
        return math.inf
    return wins / visits + c * math.sqrt(math.log(parent) / visits)


# -- typical mistakes ------------------------------------------------------------


def minimax_min_takes_max(board: Board, player: int) -> int:
    if board.is_terminal():
        return board.utility(player)
    values = []
    for move in board.actions():
        board.play(move)
        values.append(minimax_min_takes_max(board, player))
        board.undo()
    return max(values)


def minimax_not_undone(board: Board, player: int) -> int:
    if board.is_terminal():
        return board.utility(player)
    values = []
    for move in board.actions():
        board.play(move)
        values.append(minimax_not_undone(board, player))
    return max(values) if board.to_move() == player else min(values)


def minimax_no_depth(board: Board, player: int, depth: int) -> int:
    return minimax(board, player) * 10


RIGHT: dict[str, Any] = {
    "minimax": minimax,
    "minimax_depth": minimax_depth,
    "alphabeta": alphabeta,
    "best_moves": best_moves,
    "evaluate": evaluate,
    "iterative_deepening": iterative_deepening,
    "uct": uct,
}

#: (exercise, wrong function, the English message's start, the Chinese one's)
MISTAKES: list[tuple[str, Any, str, str]] = [
    (
        "iterative_deepening",
        lambda s, m, t: iterative_deepening(s, m, t, check_time=False),
        "a new iteration started after the time was up",
        "时间用完后又开始了新的一轮迭代",
    ),
    (
        "iterative_deepening",
        lambda s, m, t: iterative_deepening(s, m, t, keep_unfinished=True),
        "an unfinished iteration's answer (None) was used",
        "用了未完成那一轮的答案（None）",
    ),
    (
        "minimax",
        minimax_min_takes_max,
        "the minimizing player took the maximum",
        "最小化一方取了最大值",
    ),
    ("minimax", minimax_not_undone, "the move was not undone", "走的棋没有撤回"),
    (
        "minimax",
        lambda b, p: -minimax(b, p),
        "the value is from the other player's point of view",
        "这个值是从对方的角度算的",
    ),
    (
        "minimax_depth",
        minimax_no_depth,
        "a quick win should score better than a slow one",
        "快赢应该比慢赢得分高",
    ),
    (
        "alphabeta",
        lambda b, p, a, c: alphabeta(b, p, a, c, strict=True),
        "the cut-off should happen when alpha ≥ beta",
        "应当在 alpha ≥ beta 时剪枝",
    ),
    (
        "alphabeta",
        lambda b, p, a, c: alphabeta(b, p, a, c, prune=False),
        "nothing was pruned",
        "什么都没剪掉",
    ),
    (
        "alphabeta",
        lambda b, p, a, c: alphabeta(b, p, a, c, update=False),
        "nothing was pruned",
        "什么都没剪掉",
    ),
    (
        "best_moves",
        lambda g, s: best_moves(g, s)[:1],
        "only one of the equally good moves",
        "只给出了同样好的走法中的一个",
    ),
    ("best_moves", lambda g, s: list(g.actions(s)), "", ""),
    (
        "evaluate",
        lambda b, p: -evaluate(b, p),
        "the evaluation is from the opponent's point of view",
        "评估是从对手的角度算的",
    ),
    (
        "evaluate",
        lambda b, p: len(b.moves_for(p)),
        "only the player's own moves were counted",
        "只数了这一方自己的走法",
    ),
    (
        "uct",
        lambda w, n, N, c: w / n + c * math.sqrt(math.log(N) / n) if n else 0.0,
        "an unvisited child must score infinity",
        "没访问过的子节点必须得无穷大",
    ),
    (
        "uct",
        lambda w, n, N, c: w / n + c * math.log(N) / n if n else math.inf,
        "the exploration term needs a square root",
        "探索项需要开平方",
    ),
    (
        "uct",
        lambda w, n, N, c: w / n + c * math.sqrt(math.log(n) / n) if n else math.inf,
        "the logarithm is of the parent's visits",
        "对数取的是父节点的访问次数",
    ),
]


@pytest.mark.parametrize("exercise", sorted(RIGHT))
def test_a_right_solution_passes(exercise: str) -> None:
    for lang in ("en", "zh"):
        verdict = check(exercise, RIGHT[exercise], lang=lang)
        assert verdict.ok, str(verdict)
        assert verdict.checked >= 30
        assert str(verdict).startswith("✔")


@pytest.mark.parametrize(("exercise", "function", "english", "chinese"), MISTAKES)
def test_each_typical_mistake_is_named(
    exercise: str, function: Any, english: str, chinese: str
) -> None:
    en = check(exercise, function, lang="en")
    zh = check(exercise, function, lang="zh")
    assert not en.ok and not zh.ok
    assert english in en.message, en.message
    assert chinese in zh.message, zh.message
    assert en.where and zh.where and en.where != zh.where
    assert en.checked == zh.checked  # the same first wrong position


def test_the_first_wrong_position_is_shown() -> None:
    verdict = check("minimax", minimax_min_takes_max, lang="en")
    assert verdict.where.startswith("First wrong position: after the moves ")
    assert "---+---+---" in verdict.position  # the board drawn
    assert "<pre>" in verdict._repr_html_()


def test_the_answer_language_does_not_change_the_callers() -> None:
    from zerosum.i18n import _, activate

    activate("en")
    check("minimax", minimax_min_takes_max, lang="zh")
    assert _("draw") == "draw"


def test_bad_requests_are_one_line_errors() -> None:
    with pytest.raises(ZerosumError, match="unknown exercise 'minmax'; expected one of"):
        check("minmax", minimax)
    with pytest.raises(ZerosumError, match="expected your function for minimax, got int"):
        check("minimax", 3)  # type: ignore[arg-type]
    with pytest.raises(ZerosumError, match="unknown language 'fr'"):
        check("minimax", minimax, lang="fr")
