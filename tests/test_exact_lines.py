"""Every exact result carries its distance and a line of perfect play to the
end of the game, on both backends (issue 26, item 1).

The truth is a plain memoised negamax written here, sharing no code with
the engine: the value of each position for its side to move as the win's,
loss's or draw's result with the distance of perfect play (the quickest
win, the slowest loss). Each solve must give that value; its principal
variation, replayed, must keep the value at every ply (one ply nearer) and
reach the end of the game with that result after exactly the distance;
a draw's distance is its line's length.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest
from support import playout_positions, reachable

import zerosum
from zerosum.report import plies_of
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import solve
from zerosum.search.types import Score

BIG = 1_000_000  # a result's size; a distance is subtracted from it
#: One game object a spec, so both backends' tests share its memoised truth.
GAMES = {
    spec: zerosum.load(spec)
    for spec in ("connect4(width=4,height=4)", "connect4(width=5,height=4)")
}


@functools.cache
def perfect_value(game: Any) -> Callable[[Any], int]:
    """``value(state)``: for the side to move, ``BIG - d`` for a win in
    ``d`` plies with perfect play, ``-(BIG - d)`` for a loss in ``d``, 0 for
    a draw (memoised negamax over every move; no pruning, no table of the
    engine's, no move order)."""

    @functools.cache
    def value(state: Any) -> int:
        me = game.to_move(state)
        if game.is_terminal(state):
            return int(game.utility(state, me)) * BIG
        best = None
        for move in game.actions(state):
            child = game.result(state, move)
            v = value(child)
            if game.to_move(child) != me:
                v = -v
            # One ply further from here than from the child.
            v = v - 1 if v > 0 else v + 1 if v < 0 else 0
            best = v if best is None else max(best, v)
        assert best is not None
        return best

    return value


def check(game: Any, value: Callable[[Any], int], state: Any, engine: Engine[Any]) -> None:
    result = solve(game, state, engine=engine)
    check_line(game, value, state, result.score, result.pv)


def check_line(
    game: Any, value: Callable[[Any], int], state: Any, score: Score, pv: tuple[Any, ...]
) -> None:
    """``score`` is the exact value of ``state`` for its side to move, and
    ``pv``, replayed, keeps it one ply nearer at every move and ends the
    game with that result after exactly its distance."""
    where = game.format_position(state)
    truth = value(state)
    assert score.exact and score.raw == truth, where
    plies = plies_of(game, state, score, pv)
    assert plies is not None, where
    if truth != 0:
        assert plies == BIG - abs(truth), where
    assert len(pv) == plies, (where, pv)
    # The line, replayed, keeps the value one ply nearer at every move.
    me, expected = game.to_move(state), truth
    for move in pv:
        assert not game.is_terminal(state), where
        assert move in game.actions(state), where
        state = game.result(state, move)
        expected = expected + 1 if expected > 0 else expected - 1 if expected < 0 else 0
        seen = value(state) if game.to_move(state) == me else -value(state)
        assert seen == expected, (where, pv)
    assert game.is_terminal(state), (where, pv)
    result_sign = game.utility(state, me)
    assert result_sign == (truth > 0) - (truth < 0), where


@pytest.mark.parametrize("backend", ["python", "native"])
def test_every_move_of_an_exact_analysis_has_its_line_to_the_end(backend: str) -> None:
    """``analyze`` without a limit values every move exactly: each move's
    line goes to the end of the game too (it stopped where the table's line
    did: 'loss in 4' with 3 moves). A quarter of tic-tac-toe's positions."""
    if backend == "native":
        pytest.importorskip("numba")
    game = zerosum.load("tictactoe")
    value = perfect_value(game)
    engine = Engine(game, EngineOptions(backend=backend))
    states = sorted(reachable(game), key=game.format_position)[::4]
    analysed = 0
    for state in states:
        if game.is_terminal(state):
            continue
        result = engine.analyze(state)
        assert len(result.moves) == len(game.actions(state))
        if result.depth is not None:
            # Every move decisive before the iteration was free of heuristic
            # leaves (how soon depends on what the table holds): no lines.
            continue
        for entry in result.moves:
            assert entry.pv[0] == entry.move
            # The move's value is the root's value were the move forced.
            child = game.result(state, entry.move)
            check_line(game, value, child, _seen_from(game, child, state, entry.score),
                       entry.pv[1:])
        analysed += 1
    assert analysed > 500


def _seen_from(game: Any, child: Any, state: Any, score: Score) -> Score:
    """A root move's ``score`` (for the root's side, counted from the root)
    as the child's own value (for its side to move, one ply nearer)."""
    raw = score.raw
    raw = raw + 1 if raw > 0 else raw - 1 if raw < 0 else 0
    if game.to_move(child) != game.to_move(state):
        raw = -raw
    return Score(raw, exact=score.exact)


@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("symmetry", [None, False])
def test_every_tictactoe_position(backend: str, symmetry: bool | None) -> None:
    """All 4,520 positions with a move to make (the table keyed by symmetry
    class by default, and plainly)."""
    if backend == "native":
        pytest.importorskip("numba")
    game = zerosum.load("tictactoe")
    value = perfect_value(game)
    engine = Engine(game, EngineOptions(backend=backend, symmetry=symmetry))
    states = sorted(reachable(game), key=game.format_position)
    count = 0
    for state in states:
        if not game.is_terminal(state):
            check(game, value, state, engine)
            count += 1
    assert count == 4520


@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize(
    ("spec", "count", "stones"),
    [("connect4(width=4,height=4)", 150, 4), ("connect4(width=5,height=4)", 60, 8)],
)
def test_small_connect_four_positions(backend: str, spec: str, count: int, stones: int) -> None:
    if backend == "native":
        pytest.importorskip("numba")
    game = GAMES[spec]
    value = perfect_value(game)
    engine = Engine(game, EngineOptions(backend=backend))
    states = list(dict.fromkeys(playout_positions(game, count * 3, seed=26)))
    # Positions with a few stones down keep the memoised truth small.
    states = [s for s in states if s[1].bit_count() >= stones][:count]
    assert len(states) == count
    for state in states:
        check(game, value, state, engine)


def test_the_issues_positions() -> None:
    """The issue's examples: tic-tac-toe after 0 1 2 is a draw in 6 plies
    with a line of 6 (it gave no distance and a line of 4)."""
    game = zerosum.load("tictactoe")
    for backend in ("python", "native"):
        if backend == "native":
            pytest.importorskip("numba")
        state = game.play("0 1 2".split())
        result = solve(game, state, options=EngineOptions(backend=backend))
        assert result.score.raw == 0
        assert plies_of(game, state, result.score, result.pv) == 6
        assert len(result.pv) == 6
