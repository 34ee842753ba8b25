"""Monte Carlo tree search: strength against perfect play, the MCTS-Solver's
proofs against published values, reproducibility, limits, tree reuse and the
front door."""

from __future__ import annotations

import json
import threading
from functools import cache
from typing import Any

import pytest
from conftest import shared_data
from support import run_cli

import zerosum
from zerosum.game import ZerosumError
from zerosum.search import front, reference
from zerosum.search.mcts import MCTS, MCTSConfig
from zerosum.search.solver import SolveInterrupted
from zerosum.search.types import Limits, win_in

TTT = zerosum.load("tictactoe")


@cache
def perfect_moves(state: Any) -> tuple[Any, ...]:
    """Every optimal move, by the reference minimax (an independent truth)."""
    return reference.solve(TTT, state).best_moves


def mcts_move(state: Any) -> Any:
    return MCTS(TTT, seed=7).best_move(state, Limits(iterations=3000)).best_move


@pytest.mark.parametrize("mcts_player", [0, 1])
def test_mcts_never_loses_tictactoe_against_every_perfect_line(mcts_player: int) -> None:
    """Every line of a perfect opponent (each of its optimal moves, at every
    turn), MCTS with the solver moving with a fixed budget and seed: every
    game is a draw (tic-tac-toe's value), none lost."""
    games = 0
    stack = [TTT.initial_state()]
    while stack:
        state = stack.pop()
        if TTT.is_terminal(state):
            games += 1
            assert TTT.utility(state, mcts_player) == 0
            continue
        if TTT.to_move(state) == mcts_player:
            stack.append(TTT.result(state, mcts_move(state)))
        else:
            stack.extend(TTT.result(state, m) for m in perfect_moves(state))
    assert games >= 2  # several lines were played to their end


def test_tutorial_position_finds_cell_2() -> None:
    """X on 0 and 1, O on 4, O to move: only 2 (blocking) holds the draw."""
    state = TTT.play("0 4 1".split())
    result = MCTS(TTT, seed=3).analyze(state, Limits(iterations=5000))
    assert result.best_move == 2
    assert result.score.exact and result.score.outcome == 0
    # every other move is proven lost: X completes the top row at once
    for entry in result.moves[1:]:
        assert entry.score.exact and entry.score.outcome == -1
        assert entry.score.plies == 2  # X's win one ply later cannot come sooner


def test_empty_board_is_proven_a_draw_with_every_move() -> None:
    result = MCTS(TTT, seed=1).analyze(TTT.initial_state(), Limits(iterations=200_000))
    assert result.score.exact and result.score.outcome == 0
    assert len(result.moves) == 9
    assert all(m.score.exact and m.score.outcome == 0 for m in result.moves)
    assert result.stats.nodes < 200_000  # it stopped once everything was proven


def connect4_endgames(count: int) -> list[tuple[str, int]]:
    path = shared_data("connect4/Test_L3_R1")
    rows = []
    for line in path.read_text().splitlines()[:count]:
        moves, score = line.split()
        rows.append((moves, int(score)))
    return rows


def test_solver_proves_connect4_endgames_with_the_published_sign() -> None:
    """The published end-game set (scores from the side to move: positive a
    win, 0 a draw, negative a loss): the MCTS-Solver proves each value."""
    game = zerosum.load("connect4")
    for moves, score in connect4_endgames(60):
        state = game.play(list(moves))
        result = MCTS(game, MCTSConfig(backend="python"), seed=1).best_move(
            state, Limits(iterations=300_000)
        )
        assert result.score.exact, moves
        assert result.score.outcome == (score > 0) - (score < 0), moves
        if result.score.outcome == 1:
            # the move it plays keeps the win: the reference engine agrees
            after = game.result(state, result.best_move)
            assert front.solve(game, after, front.SearchOptions(backend="python")).score.outcome \
                == -1, moves


def test_same_seed_same_search_and_different_seed_differs() -> None:
    game = zerosum.load("connect4")
    state = game.initial_state()

    def run(seed: int) -> list[tuple[Any, int, float]]:
        result = MCTS(game, MCTSConfig(backend="python"), seed=seed).analyze(
            state, Limits(iterations=1500)
        )
        assert result.stats.nodes == 1500
        return [(m.move, m.visits or 0, m.win_rate or 0.0) for m in result.moves]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_scores_visits_and_win_rates_are_consistent() -> None:
    game = zerosum.load("connect4")
    result = MCTS(game, MCTSConfig(backend="python"), seed=2).analyze(
        game.initial_state(), Limits(iterations=3000)
    )
    # every iteration goes through one root move (the root is never played out)
    assert sum(m.visits or 0 for m in result.moves) == 3000
    assert len(result.moves) == 7
    for entry in result.moves:
        assert entry.win_rate is not None and 0.0 <= entry.win_rate <= 1.0
        assert not entry.score.exact
        assert entry.score.raw == round(1000 * (2 * entry.win_rate - 1))
        assert entry.pv[0] == entry.move
    # best first: the most visited move leads
    assert result.moves[0].visits == max(m.visits or 0 for m in result.moves)
    assert result.best_move == result.moves[0].move


def test_immediate_win_is_exact_and_taken() -> None:
    game = zerosum.load("connect4")
    state = game.play(list("445566"))  # red to move: 7 completes the row... or 3
    result = MCTS(game, seed=1).best_move(state, Limits(iterations=2000))
    assert result.score == zerosum.search.types.Score(win_in(1), exact=True)
    assert game.is_terminal(game.result(state, result.best_move))


def test_time_limit_and_stop() -> None:
    game = zerosum.load("othello")
    mcts = MCTS(game, MCTSConfig(backend="python"), seed=1)
    result = mcts.best_move(game.initial_state(), Limits(time=0.2))
    assert 0.2 <= result.stats.time_s < 1.0
    timer = threading.Timer(0.2, mcts.stop)
    timer.start()
    result = mcts.analyze(game.initial_state(), Limits())  # no limit: until stopped
    timer.join()
    assert result.best_move is not None and result.stats.time_s < 2.0


def test_tree_is_reused_after_the_opponents_reply() -> None:
    game = zerosum.load("connect4")
    mcts = MCTS(game, MCTSConfig(backend="python"), seed=1)
    first = mcts.best_move(game.initial_state(), Limits(iterations=3000))
    reply = first.moves[0].pv[1]
    later = game.result(game.result(game.initial_state(), first.best_move), reply)
    result = mcts.analyze(later, Limits(iterations=10))
    # the subtree's earlier visits are still there
    assert sum(m.visits or 0 for m in result.moves) > 10
    fresh = MCTS(game, MCTSConfig(backend="python", reuse=False), seed=1)
    assert sum(m.visits or 0 for m in fresh.analyze(later, Limits(iterations=10)).moves) == 10


def test_playout_policy_taking_wins() -> None:
    game = zerosum.load("connect4")
    config = MCTSConfig(playout="win")
    mcts = MCTS(game, config, seed=1)
    assert mcts.backend == "python"  # compiled playouts are uniformly random
    result = mcts.best_move(game.initial_state(), Limits(iterations=500))
    assert result.best_move in game.actions(game.initial_state())
    with pytest.raises(ZerosumError, match="uniformly random"):
        MCTS(game, MCTSConfig(playout="win", backend="native"))


def test_front_door_and_limits() -> None:
    options = front.SearchOptions(algorithm="mcts", seed=4)
    state = TTT.play("0 4 1".split())
    result = front.analyze(TTT, state, options, nodes=4000)
    assert result.best_move == 2 and result.moves[0].visits is not None
    assert front.Searcher(TTT, options).analyze(state, Limits(iterations=4000)).best_move == 2
    with pytest.raises(ZerosumError, match="depth"):
        front.analyze(TTT, state, options, depth=3)
    with pytest.raises(ZerosumError, match="iterations"):
        Limits(iterations=0)
    solved = front.solve(TTT, state, options)
    assert solved.score.exact and solved.best_moves == (2,)


def test_solve_stopped_before_a_proof_raises() -> None:
    game = zerosum.load("othello")
    mcts = MCTS(game, MCTSConfig(backend="python"), seed=1)
    timer = threading.Timer(0.2, mcts.stop)
    timer.start()
    with pytest.raises(SolveInterrupted):
        mcts.solve(game.initial_state())
    timer.join()


def test_bad_configuration_is_one_line() -> None:
    with pytest.raises(ZerosumError, match="exploration"):
        MCTSConfig(exploration=-1)
    with pytest.raises(ZerosumError, match="playout"):
        MCTSConfig(playout="smart")


# -- the command line ----------------------------------------------------------------
def last_json(*args: str) -> Any:
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_cli_analyze_json_has_the_mcts_fields() -> None:
    args = ("analyze", "tictactoe", "--moves", "0 4 1", "--algorithm", "mcts")
    obj = last_json(*args, "--iterations", "4000", "--seed", "2", "--json")
    assert obj["type"] == "analysis" and obj["best_move"] == "2"
    assert obj["value"] == 0 and obj["exact"] is True
    for entry in obj["moves"]:
        assert {"visits", "win_rate", "proven"} <= set(entry)
        assert entry["proven"] is True  # every move of this position gets proven
    assert obj["nodes"] == sum(e["visits"] for e in obj["moves"])
    # same seed, same analysis (all but the clock)
    again = last_json(*args, "--iterations", "4000", "--seed", "2", "--json")
    for key in ("moves", "nodes", "pv"):
        assert again[key] == obj[key]


def test_cli_analyze_table_and_progress() -> None:
    done = run_cli(
        "analyze", "connect4", "--algorithm", "mcts", "--iterations", "2000", "--progress"
    )
    assert done.returncode == 0, done.stderr
    assert "visits" in done.stdout and "win rate" in done.stdout
    assert "iterations" in done.stdout and "playouts/s" in done.stdout


def test_cli_play_against_mcts_and_bad_limits() -> None:
    done = run_cli(
        "play", "tictactoe", "--x", "random", "--o", "mcts", "--iterations", "3000", "--seed", "1"
    )
    assert done.returncode == 0, done.stderr
    assert "O plays" in done.stdout and "iterations" in done.stdout
    assert "X wins" not in done.stdout
    bad = run_cli("analyze", "tictactoe", "--iterations", "30")
    assert bad.returncode == 2 and "--iterations needs --algorithm mcts" in bad.stderr
    bad = run_cli("analyze", "tictactoe", "--algorithm", "mcts", "--depth", "3")
    assert bad.returncode == 2 and "mcts takes no depth limit" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
