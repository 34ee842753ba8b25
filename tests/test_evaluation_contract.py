"""The evaluation's contract (issue 20, item 3): antisymmetric, checked by
``check_game``, and what makes the engine (scoring for the side to move)
and the reference alpha-beta (for the root player) give the same scores."""

from __future__ import annotations

from typing import Any

import pytest
from support import run_cli

import zerosum
from zerosum.games.mnk import State
from zerosum.games.tictactoe import THREAT_SCORE, WIN_LINE_SCORE, TicTacToe
from zerosum.search import front
from zerosum.search.front import SearchOptions
from zerosum.testing import ConformanceError, check_game


class FirstTutorialTicTacToe(TicTacToe):
    """The tutorial's first evaluation: the opponent's threat counts first
    for either player, so with a threat each both sides score -50."""

    name = ""

    def evaluate(self, state: State, player: int) -> int:
        x, o, _status = state
        mine, theirs = (x, o) if player == 0 else (o, x)
        empty = ~(x | o) & self.full
        if any(mine & line == line for line in self.lines):
            return WIN_LINE_SCORE
        if any(theirs & line == line for line in self.lines):
            return -WIN_LINE_SCORE

        def threat(bits: int) -> bool:
            return any((bits & line).bit_count() == 2 and empty & line for line in self.lines)

        if threat(theirs):
            return -THREAT_SCORE
        return THREAT_SCORE if threat(mine) else 0


def test_check_game_rejects_an_evaluation_that_is_not_antisymmetric() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(FirstTutorialTicTacToe())
    message = str(caught.value)
    assert "\n" not in message
    assert "check evaluation: evaluate must be antisymmetric" in message
    assert "-50 for player 0 and -50 for player 1" in message


def test_check_game_rejects_an_evaluation_out_of_range() -> None:
    class Huge(TicTacToe):
        name = ""

        def evaluate(self, state: State, player: int) -> int:
            return 10**6 if player == 0 else -(10**6)

    with pytest.raises(ConformanceError, match="evaluate returned 1,000,000; expected strictly"):
        check_game(Huge())


def test_builtin_games_keep_the_contract() -> None:
    for spec in ("tictactoe", "mnk(4,4,3)", "connect4", "othello", "domineering", "nim"):
        check_game(zerosum.load(spec), playouts=4)


def _scores(game: Any, state: Any, algorithm: str, depth: int, backend: str = "auto") -> Any:
    options = SearchOptions(algorithm=algorithm, backend=backend, use_store=False, use_book=False)
    result = front.analyze(game, state, options, depth=depth)
    return {line.move: line.score.raw for line in result.moves}


def test_engine_and_alphabeta_agree_on_every_depth_limited_score() -> None:
    """Every tic-tac-toe position after up to three moves, depths 1 and 2:
    the engine's score of each move is the reference's."""
    game = zerosum.load("tictactoe")
    states = {game.initial_state()}
    frontier = list(states)
    for _ply in range(3):
        frontier = [game.result(s, m) for s in frontier for m in game.actions(s)]
        states.update(frontier)
    for state in sorted(states, key=game.format_position):
        for depth in (1, 2):
            reference = _scores(game, state, "alphabeta", depth)
            assert _scores(game, state, "engine", depth, "python") == reference, (
                game.format_position(state),
                depth,
            )


def test_tutorial_position_scores_alike_from_the_command_line() -> None:
    """``analyze --moves "0 4 1" --depth 1``: only 2 (the block) scores +50,
    with the engine on both backends and with alpha-beta."""
    tables = []
    for extra in (["--backend", "python"], ["--backend", "native"], ["--algorithm", "alphabeta"]):
        if extra[-1] == "native":
            pytest.importorskip("numba")
        result = run_cli(
            "analyze", "tictactoe", "--moves", "0 4 1", "--depth", "1", "--no-store", *extra
        )
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        rows = [line.split()[:2] for line in lines if line.startswith("  ") and "(" in line]
        tables.append(sorted(rows))
    expected = [["2", "+50"]] + [[cell, "-50"] for cell in "35678"]
    assert tables[0] == expected
    assert all(table == tables[0] for table in tables)
