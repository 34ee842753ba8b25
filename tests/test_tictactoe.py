"""Tic-tac-toe against published figures and the tutorials' examples."""

from __future__ import annotations

from typing import Any

import pytest
from support import reachable

import zerosum
from zerosum.game import MoveError, PositionError
from zerosum.games.tictactoe import TicTacToe
from zerosum.search import reference
from zerosum.search.perft import perft

GAME = TicTacToe()
# Move sequences of each length 0..9 in which nobody had won before the last.
SEQUENCES = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]


def test_sequences_by_length() -> None:
    assert [perft(GAME, GAME.initial_state(), n) for n in range(10)] == SEQUENCES


def test_complete_games_and_distinct_positions() -> None:
    complete = 0

    def walk(state: Any) -> None:
        nonlocal complete
        if GAME.is_terminal(state):
            complete += 1
            return
        for move in GAME.actions(state):
            walk(GAME.result(state, move))

    walk(GAME.initial_state())
    assert complete == 255_168
    assert len(reachable(GAME)) == 5_478


def test_value_is_a_draw_and_minimax_visits_549946() -> None:
    result = reference.best_move(GAME, GAME.initial_state(), algorithm="minimax")
    assert result.score.outcome == 0 and result.score.exact
    assert result.stats.nodes == 549_946
    assert result.stats.leaves == 255_168
    pruned = reference.best_move(GAME, GAME.initial_state(), algorithm="alphabeta")
    assert pruned.score == result.score
    assert pruned.stats.nodes < result.stats.nodes // 10


def test_tutorial_position_o_plays_2() -> None:
    state = GAME.play(["0", "4", "1"])  # X on 0 and 1, O on 4, O to move
    for algorithm in reference.ALGORITHMS:
        result = reference.best_move(GAME, state, algorithm=algorithm)
        assert result.best_move == 2
        assert result.best_moves == (2,)


def test_same_rules_as_mnk_333() -> None:
    mnk = zerosum.load("mnk(3,3,3)")
    for state in reachable(GAME):
        assert GAME.actions(state) == mnk.actions(state)
        assert GAME.is_terminal(state) == mnk.is_terminal(state)
        for player in (0, 1):
            if GAME.is_terminal(state):
                assert GAME.utility(state, player) == mnk.utility(state, player)
        for move in GAME.actions(state):
            assert GAME.result(state, move) == mnk.result(state, move)


@pytest.mark.parametrize(
    ("moves", "player", "expected"),
    [
        ("", 0, 0),
        ("0 3 1 4 2", 0, 100),  # X has a line
        ("0 3 1 4 2", 1, -100),
        ("0 4 1", 1, -50),  # X threatens 2: O sees the threat first
        ("0 4 1", 0, 50),
        ("0 1 4 2", 0, 50),  # only X threatens (8)
        # Both threaten 8, X to move: the mover's threat counts first, so the
        # values are opposite (antisymmetric; the tutorial's first version
        # gave -50 to both).
        ("0 2 4 5", 0, 50),
        ("0 2 4 5", 1, -50),
        ("0 4 8 2 6 3 5 7 1", 0, 0),  # full board, no line
    ],
)
def test_tutorial_evaluation(moves: str, player: int, expected: int) -> None:
    assert GAME.evaluate(GAME.play(moves.split()), player) == expected


def test_opening_table_prefers_the_centre() -> None:
    table = GAME.opening_scores(GAME.initial_state())
    assert table is not None
    assert max(table, key=lambda m: table[m]) == 4
    assert [table[c] for c in range(9)] == [3, 2, 3, 2, 4, 2, 3, 2, 3]
    assert GAME.opening_scores(GAME.play(["4"])) is None


def test_board_prints_as_three_rows() -> None:
    text = GAME.render(GAME.play(["4", "0"]))
    rows = [line for line in text.splitlines() if "|" in line]
    assert rows == [" O | 1 | 2", " 3 | X | 5", " 6 | 7 | 8"]


@pytest.mark.parametrize("text", ["9", "-1", "a1", "", "44", "x"])
def test_bad_moves_are_refused_with_the_legal_ones(text: str) -> None:
    with pytest.raises(MoveError, match="0 1 2 3 5 6 7 8"):
        GAME.parse_move(GAME.play(["4"]), text)


@pytest.mark.parametrize(
    "text", ["xx./.../...", "xxx/ooo/...", "oo./.../...", "x../...", "xq./.../..."]
)
def test_bad_positions_are_refused(text: str) -> None:
    with pytest.raises(PositionError):
        GAME.parse_position(text)


def test_symmetry_classes() -> None:
    """The 5,478 positions fall into 765 classes under the board's 8
    symmetries (a published figure)."""
    assert GAME.symmetry_count() == 8
    assert len({GAME.canonical(s)[0] for s in reachable(GAME)}) == 765
