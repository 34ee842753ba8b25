"""The two backends give the same answers: on every reachable tic-tac-toe
position and on a thousand positions each of small Connect Four, Othello
and m,n,k boards, the exact solver's value (with its distance) and its set
of optimal moves are the same on the native backend as on the Python one,
and both equal the reference alpha-beta's value where it is cheap."""

from __future__ import annotations

from typing import Any

import pytest
from support import playout_positions, reachable

import zerosum
from zerosum.search import reference
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import solve

pytest.importorskip("numba")


def engines(game: Any) -> tuple[Engine[Any], Engine[Any]]:
    return (
        Engine(game, EngineOptions(backend="python")),
        Engine(game, EngineOptions(backend="native")),
    )


def agree(game: Any, states: list[Any], check_reference: bool = False) -> int:
    """Solve every non-terminal state on both backends; returns how many."""
    python, native = engines(game)
    count = 0
    for state in states:
        if game.is_terminal(state):
            continue
        slow = solve(game, state, engine=python)
        fast = solve(game, state, engine=native)
        where = game.format_position(state)
        assert fast.score == slow.score, where
        assert set(fast.best_moves) == set(slow.best_moves), where
        if check_reference:
            assert reference.value(game, state)[0] == slow.score.raw, where
        count += 1
    return count


def test_every_tictactoe_position() -> None:
    game = zerosum.load("tictactoe")
    states = sorted(reachable(game), key=game.format_position)
    assert agree(game, states, check_reference=True) == 4520  # 5,478 less the 958 ended


@pytest.mark.parametrize(
    ("spec", "count"),
    [
        ("connect4(width=4,height=4)", 1000),
        ("connect4(width=5,height=4)", 400),
        ("othello(size=4)", 1000),
        ("mnk(m=4,n=4,k=3)", 600),
    ],
)
def test_positions_of_small_boards(spec: str, count: int) -> None:
    game = zerosum.load(spec)
    states = list(dict.fromkeys(playout_positions(game, count * 2, seed=17)))[:count]
    assert agree(game, states) >= count * 0.8
