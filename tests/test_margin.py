"""Exact margins (the final disc difference of Othello): the Python margin
solver and the native endgame solver against a plain full-width search,
against each other, against the published FFO answers, and through the
front door and the command line."""

from __future__ import annotations

import functools
import importlib.util
import json
import random
from typing import Any

import pytest
from conftest import shared_data
from support import run_cli, sample_positions

import zerosum
from zerosum.games.othello import Othello, State
from zerosum.search import margin
from zerosum.search.front import Searcher, SearchOptions
from zerosum.search.types import Limits


def plain_margin(game: Othello, state: State) -> int:
    """The margin by full-width negamax with no pruning and no table, the
    final count taken from the disc counts (the empty squares to the
    winner): the independent truth."""

    @functools.cache
    def value(s: State) -> int:
        if game.is_terminal(s):
            black, white = game.disc_counts(s)
            diff = black - white
            empty = game.cells - black - white
            diff += empty if diff > 0 else -empty if diff < 0 else 0
            return diff if game.to_move(s) == 0 else -diff
        return max(-value(game.result(s, a)) for a in game.actions(s))

    return value(state)


def endgames(size: int, empties: tuple[int, ...], count: int, seed: int) -> list[State]:
    """Seeded random positions (not over) with one of ``empties`` empty squares."""
    game = Othello(size)
    plies = [game.cells - 4 - e for e in empties]
    found = sample_positions(game, plies, 8 * count, seed)
    keep = [s for s in found if game.cells - sum(game.disc_counts(s)) in empties]
    return keep[:count]


@pytest.mark.parametrize("size, empties", [(4, (8, 10)), (6, (7, 8)), (8, (6, 7, 8))])
def test_python_margin_agrees_with_full_width(size: int, empties: tuple[int, ...]) -> None:
    game = Othello(size)
    states = endgames(size, empties, 6, seed=size)
    assert len(states) >= 4
    _agrees_with_full_width(game, margin.PythonMargin(game), states)


def _agrees_with_full_width(game: Othello, solver: Any, states: list[Any]) -> None:
    """``solver``'s value on each state is the full-width search's, and its
    best moves are exactly the moves that reach it."""
    for state in states:
        want = plain_margin(game, state)
        value, best, _positions = solver.solve(state, True, 0)
        assert value == want, game.format_position(state)
        for move in game.actions(state):
            reached = -plain_margin(game, game.result(state, move)) == want
            assert (move in best) == reached


def test_the_4x4_start() -> None:
    # White wins 4x4 Othello: the full-width search says by 10 (13-3 with
    # the empty squares going to the winner).
    game = Othello(4)
    state = game.initial_state()
    assert plain_margin(game, state) == -10
    result = margin.solve(game, state)
    assert result.margin == -10 and result.score.outcome == -1
    # The line reaches the end of the game with that margin.
    end = state
    for move in result.pv:
        end = game.result(end, move)
    assert game.is_terminal(end)
    assert game.margin(end, game.to_move(state)) == -10


def test_a_game_without_sized_results_has_none() -> None:
    game = zerosum.load("tictactoe")
    assert game.max_margin() is None and not margin.sized(game)
    with pytest.raises(zerosum.ZerosumError, match="no sized results"):
        margin.PythonMargin(game)


def test_the_position_budget_stops_the_python_solve() -> None:
    game = Othello(6)
    with pytest.raises(margin.Stopped):
        margin.solve(game, game.initial_state(), limits=Limits(nodes=500))


# -- the native solver -------------------------------------------------------------
needs_numba = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="numba is not installed"
)


def native_margin(size: int) -> Any:
    from zerosum.native.othello_end import margin_solver

    return margin_solver(Othello(size))


@pytest.mark.parametrize("size, empties", [(4, (9, 10)), (6, (8, 9)), (8, (7, 8, 9))])
@needs_numba
def test_native_margin_agrees_with_full_width(size: int, empties: tuple[int, ...]) -> None:
    game = Othello(size)
    solver = native_margin(size)
    states = endgames(size, empties, 5, seed=10 + size)
    assert len(states) >= 4
    _agrees_with_full_width(game, solver, states)


@needs_numba
def test_both_backends_agree_up_to_12_empties() -> None:
    game = Othello(8)
    states = endgames(8, (10, 11, 12), 6, seed=3)
    assert len(states) >= 4
    compiled = native_margin(8)
    python = margin.PythonMargin(game)
    for state in states:
        native_value, native_best, _n = compiled.solve(state, True, 0)
        python_value, python_best, _p = python.solve(state, True, 0)
        assert native_value == python_value, game.format_position(state)
        assert set(native_best) == set(python_best)


def obf(line: str) -> tuple[int, int, int, set[int]]:
    """(mine, theirs, score, best squares) of a line of an .obf file (8x8:
    the Python game's squares are the internal ones)."""
    board, rest = line.split(None, 1)
    x = sum(1 << i for i, ch in enumerate(board) if ch == "X")
    o = sum(1 << i for i, ch in enumerate(board) if ch == "O")
    answers = [a.strip().split(":") for a in rest.split(";")[1:] if ":" in a]
    score = int(answers[0][1])
    best = {
        "ABCDEFGH".index(m[0].upper()) + 8 * (int(m[1]) - 1)
        for m, v in answers
        if int(v) == score
    }
    return (x, o, score, best) if rest[0] == "X" else (o, x, score, best)


@needs_numba
def test_ffo_1_to_19() -> None:
    # The published answers of FFO #1-#19 (14-16 empties): about 2.3 M
    # positions in all, well under a second natively.
    from zerosum.native.othello_end import EndgameSolver

    lines = shared_data("othello/fforum-1-19.obf").read_text().splitlines()
    assert len(lines) == 19
    solver = EndgameSolver(8, 1 << 20)
    for number, line in enumerate(lines, start=1):
        mine, theirs, score, best = obf(line)
        solver.clear()
        solved = solver.solve(mine, theirs, all_moves=True)
        assert solved.margin == score, f"FFO #{number}"
        # The file lists every move with the best score only for some: each
        # listed best move is among ours, and ours has that score.
        assert best <= set(solved.best_moves), f"FFO #{number}"


@needs_numba
def test_stable_discs_never_flip() -> None:
    import numpy as np

    from zerosum.native.othello import to_internal
    from zerosum.native.othello_end import constants, stable_discs

    game = Othello(8)
    rng = random.Random(5)
    c = constants(8)
    checked = 0
    for state in sample_positions(game, range(30, 58), 40, seed=6):
        black_white = [state[0], state[1]]
        occupied = to_internal(state[0] | state[1], 8)
        stable = [
            int(stable_discs(c, np.uint64(to_internal(b, 8)), np.uint64(occupied)))
            for b in black_white
        ]
        checked += sum(bin(s).count("1") for s in stable)
        # Random continuations to the end: a stable disc keeps its colour.
        for _ in range(10):
            s = state
            while not game.is_terminal(s):
                s = game.result(s, rng.choice(list(game.actions(s))))
            ours = s[0] if game.to_move(s) == game.to_move(state) else s[1]
            assert to_internal(ours, 8) & stable[0] == stable[0]
            assert to_internal(ours, 8) & stable[1] == 0
    assert checked > 100  # the test saw stable discs


# -- the front door and the command line --------------------------------------------


@pytest.mark.parametrize(
    "backend", ["python", pytest.param("native", marks=needs_numba)]
)
def test_solve_gives_the_margin(backend: str) -> None:
    game = zerosum.load("othello(size=4)")
    searcher = Searcher(game, SearchOptions(backend=backend, use_store=False, use_book=False))
    result = searcher.solve(game.initial_state())
    assert result.margin == -10
    assert set(game.format_move(m) for m in result.best_moves) == {"b1", "a2", "d3", "c4"}
    weak = searcher.solve(game.initial_state(), weak=True)
    assert weak.margin is None and weak.score.outcome == -1


def test_cli_json_margin() -> None:
    done = run_cli("solve", "othello(size=4)", "--backend", "python", "--json", "--no-store")
    assert done.returncode == 0, done.stderr
    obj = json.loads(done.stdout.splitlines()[-1])
    assert obj["margin"] == -10 and obj["value"] == -1 and obj["plies"] is None
    assert len(obj["pv"]) >= 10  # to the end of the game (a 4x4 game fills 12 squares at most)
    done = run_cli("solve", "othello(size=4)", "--backend", "python", "--weak", "--json")
    assert done.returncode == 0, done.stderr
    obj = json.loads(done.stdout.splitlines()[-1])
    assert obj["margin"] is None and obj["value"] == -1
    done = run_cli("solve", "othello(size=4)", "--backend", "python", "--no-store")
    assert "by a final margin of -10 with perfect play" in done.stdout


def test_margins_off_gives_the_outcome_with_its_distance() -> None:
    # Books and the store keep outcomes with their distances: asked so, a
    # strong solve of Othello is the outcome solver's, as before margins.
    game = zerosum.load("othello(size=4)")
    options = SearchOptions(backend="python", use_store=False, use_book=False, margins=False)
    result = Searcher(game, options).solve(game.initial_state())
    assert result.margin is None
    assert result.score.outcome == -1 and result.score.plies is not None
