"""Published figures the README states, asserted (issue 13, item 17). The
slow ones are checked by benchmarks that exit non-zero when a figure is
wrong: ``benchmarks/bench_othello_perft.py --depth 9`` (Othello perft to
depth 9), ``benchmarks/bench_games.py`` (Domineering 6x6 and Othello 4x4
solved) and ``benchmarks/bench_connect4.py`` (whole Connect Four sets)."""

from __future__ import annotations

import pytest
from conftest import shared_data

import zerosum
from zerosum.datasets import connect4_score
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import solve


def test_mnk_443_is_a_first_player_win() -> None:
    game = zerosum.load("mnk(4,4,3)")
    result = solve(game, game.initial_state())
    assert result.score.exact and result.score.outcome == 1


def test_mnk_444_is_a_draw() -> None:
    game = zerosum.load("mnk(4,4,4)")
    engine = Engine(game, EngineOptions(symmetry=True))
    result = solve(game, game.initial_state(), weak=True, engine=engine)
    assert result.score.exact and result.score.outcome == 0


def test_mnk_333_is_a_draw() -> None:
    game = zerosum.load("mnk(3,3,3)")
    assert solve(game, game.initial_state()).score.outcome == 0


# Positions of the two hardest published Connect Four sets (beginning of the
# game, medium and hard), chosen among the set's lines for being quick for the
# pure-Python solver (a few hundred thousand positions at most); each set is
# read from the data file and the position found there by its moves, so the
# expected score is the published one, not ours.
HARD_SETS = [
    ("L1_R2", "13134411534775"),
    ("L1_R2", "23766176641753"),
    ("L1_R3", "6143156275532"),
]


@pytest.mark.parametrize(("name", "moves"), HARD_SETS)
def test_connect4_hard_sets_sample(name: str, moves: str) -> None:
    lines = shared_data(f"connect4/Test_{name}").read_text().splitlines()
    published = {line.split()[0]: int(line.split()[1]) for line in lines if line.strip()}
    assert moves in published
    game = zerosum.load("connect4")
    state = game.play(list(moves))
    result = solve(game, state)
    assert connect4_score(game, state, result.score.raw) == published[moves]


def test_the_readmes_reference_node_counts() -> None:
    """The README's table of positions visited from the empty tic-tac-toe
    board by the tutorials' algorithms (plain minimax, 549,946, is checked
    in test_tictactoe). The reference algorithms are the fixed ground truth,
    so these figures must not drift."""
    from zerosum.search import reference

    game = zerosum.load("tictactoe")
    start = game.initial_state()
    assert reference.best_move(game, start, algorithm="alphabeta").stats.nodes == 20_866
    assert reference.analyze(game, start, algorithm="alphabeta").stats.nodes == 34_203
