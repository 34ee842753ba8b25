"""Compiled playouts agree with the Python rules: every native playout is a
legal game that ends where the Python game says it ends, with the result
the Python game gives; moves are drawn uniformly; results average as the
Python playouts' do; MCTS on the native backend still finds what it finds
in Python."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from support import playout_positions

import zerosum
from zerosum import native
from zerosum.search.mcts import MCTS, MCTSConfig
from zerosum.search.types import Limits

GAMES = [
    "connect4",
    "connect4(width=5,height=4)",
    "othello",
    "othello(size=6)",
    "domineering(rows=6,cols=6)",
    "tictactoe",
    "mnk(m=5,n=5,k=4)",
    "gomoku",
]


def playouts_for(spec: str) -> tuple[Any, Any]:
    if not native.available():
        pytest.skip("numba is not installed")
    game = zerosum.load(spec)
    adapter = native.adapter_for(game)
    if adapter is None:
        pytest.skip(f"{spec} has no native code yet")
    from zerosum.native.playout import NativePlayouts

    return game, NativePlayouts(adapter, game.to_move)


@pytest.mark.parametrize("spec", GAMES)
def test_every_native_playout_is_a_legal_game_with_the_python_result(spec: str) -> None:
    game, playouts = playouts_for(spec)
    rng = random.Random(1)
    starts = [game.initial_state(), *playout_positions(game, 20, seed=2)]
    for start in starts:
        for _ in range(5):
            moves, status = playouts.trace(start, rng)
            state = start
            for move in moves:
                assert not game.is_terminal(state)
                assert move in game.actions(state), (spec, moves)
                state = game.result(state, move)
            assert game.is_terminal(state), (spec, moves)
            assert status == game.utility(state, game.to_move(state))


def test_native_moves_are_uniform() -> None:
    game, playouts = playouts_for("connect4")
    rng = random.Random(3)
    counts = [0] * 7
    n = 7000
    for _ in range(n):
        moves, _status = playouts.trace(game.initial_state(), rng)
        counts[moves[0]] += 1
    # chi-square with 6 degrees of freedom: 22.46 is its 0.999 quantile
    chi2 = sum((c - n / 7) ** 2 / (n / 7) for c in counts)
    assert chi2 < 22.46, counts


@pytest.mark.parametrize("spec", ["connect4", "othello(size=6)"])
def test_native_and_python_playouts_average_alike(spec: str) -> None:
    game, playouts = playouts_for(spec)
    start = game.initial_state()
    n = 6000
    native_mean = playouts.run(start, n, random.Random(4)) / n
    rng = random.Random(5)
    total = 0.0
    for _ in range(n):
        state = start
        while not game.is_terminal(state):
            state = game.result(state, rng.choice(list(game.actions(state))))
        total += (game.utility(state, 0) + 1) / 2
    python_mean = total / n
    # two means of n results in [0, 1]: the difference's sd is at most sqrt(2 * 0.25 / n)
    assert abs(native_mean - python_mean) < 5 * math.sqrt(0.5 / n), (native_mean, python_mean)


def test_same_seed_same_native_search() -> None:
    game, _playouts = playouts_for("connect4")

    def run() -> list[tuple[Any, Any]]:
        mcts = MCTS(game, MCTSConfig(backend="native"), seed=9)
        result = mcts.analyze(game.initial_state(), Limits(iterations=4000))
        return [(m.move, m.visits) for m in result.moves]

    assert run() == run()


def test_native_mcts_proves_an_endgame_and_finds_the_win() -> None:
    game, _playouts = playouts_for("connect4")
    state = game.play(list("67152117737262713366376314254"))  # published: a win
    result = MCTS(game, MCTSConfig(backend="native"), seed=1).best_move(
        state, Limits(iterations=200_000)
    )
    assert result.score.exact and result.score.outcome == 1
    assert MCTS(game, MCTSConfig(backend="native")).backend == "native"


def published_plies(moves: str, score: int) -> int:
    """Plies to the end under perfect play, from a published score (22 minus
    the winner's stones at the end; the side to move has len // 2 stones)."""
    n = len(moves)
    if score > 0:
        return 2 * (22 - score - n // 2) - 1
    return 2 * (22 + score - (n + 1) // 2)


@pytest.mark.parametrize("tree", ["native", "python"])
def test_compiled_and_python_trees_prove_published_endgames(tree: str) -> None:
    """The published end-game set: the value's sign, and the distance
    whenever the search claims to know it."""
    game, _playouts = playouts_for("connect4")
    from conftest import shared_data

    lines = shared_data("connect4/Test_L3_R1").read_text().splitlines()[:40]
    claimed = 0
    for line in lines:
        moves, text = line.split()
        score = int(text)
        state = game.play(list(moves))
        config = MCTSConfig(backend="native", tree=tree)
        result = MCTS(game, config, seed=2).best_move(state, Limits(iterations=300_000))
        assert result.score.exact, moves
        assert result.score.outcome == (score > 0) - (score < 0), moves
        if score and result.score.plies is not None:
            claimed += 1
            assert result.score.plies == published_plies(moves, score), moves
    assert claimed > 0


def test_compiled_tree_with_a_tiny_capacity_still_searches() -> None:
    game, _playouts = playouts_for("connect4")
    config = MCTSConfig(backend="native", max_nodes=64)
    result = MCTS(game, config, seed=1).analyze(game.initial_state(), Limits(iterations=5000))
    assert result.stats.nodes == 5000 and len(result.moves) == 7
    assert sum(m.visits or 0 for m in result.moves) == 5000


def test_compiled_tree_is_reused_after_the_opponents_reply() -> None:
    game, _playouts = playouts_for("connect4")
    mcts = MCTS(game, MCTSConfig(backend="native"), seed=1)
    first = mcts.best_move(game.initial_state(), Limits(iterations=20_000))
    reply = first.moves[0].pv[1]
    later = game.result(game.result(game.initial_state(), first.best_move), reply)
    kept = mcts.analyze(later, Limits(iterations=10))
    assert sum(m.visits or 0 for m in kept.moves) > 1000  # the subtree's visits are kept
    fresh = MCTS(game, MCTSConfig(backend="native", reuse=False), seed=1)
    assert sum(m.visits or 0 for m in fresh.analyze(later, Limits(iterations=10)).moves) == 10
    # the kept tree goes on searching soundly: every move, best first, a legal line each
    more = mcts.analyze(later, Limits(iterations=20_000))
    assert len(more.moves) == 7 and more.moves[0].visits == max(m.visits or 0 for m in more.moves)
    for entry in more.moves:
        state = later
        for move in entry.pv:
            assert move in game.actions(state)
            state = game.result(state, move)
    # a position not below the last root: a fresh tree
    elsewhere = game.play(list("1111"))
    assert sum(m.visits or 0 for m in mcts.analyze(elsewhere, Limits(iterations=10)).moves) == 10
