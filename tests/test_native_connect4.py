"""The native backend on Connect Four: the compiled primitives give the
Python game's answers, and a search gives the Python backend's values,
distances and best moves, under the same limits."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from conftest import shared_data
from support import HANG_GUARD, playout_positions

import zerosum
from zerosum.game import ZerosumError
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import solve
from zerosum.search.types import Limits

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from zerosum.native import adapter_for  # noqa: E402
from zerosum.native.contract import ONGOING  # noqa: E402

SIZES = ["connect4", "connect4(width=4,height=4)", "connect4(width=5,height=4)",
         "connect4(width=8,height=7)", "connect4(width=9,height=6)"]


def native_engine(game: Any, **options: Any) -> Engine[Any]:
    return Engine(game, EngineOptions(backend="native", **options))


def python_engine(game: Any, **options: Any) -> Engine[Any]:
    return Engine(game, EngineOptions(backend="python", **options))


@pytest.mark.parametrize("spec", SIZES)
def test_primitives_agree_with_the_game(spec: str) -> None:
    game = zerosum.load(spec)
    native = adapter_for(game)
    assert native is not None
    prims, g = native.prims, native.constants
    out = np.zeros(prims.max_moves, dtype=np.int32)
    row = np.zeros(prims.words, dtype=np.uint64)
    child = np.zeros(prims.words, dtype=np.uint64)
    states = playout_positions(game, 400, seed=5)
    assert len(states) >= 400
    for state in states:
        row[:] = native.encode(state)
        if game.is_terminal(state):
            assert prims.status(g, row) == game.utility(state, game.to_move(state))
            continue
        assert prims.status(g, row) == ONGOING
        moves = list(game.ordered_actions(state))
        n = prims.gen(g, row, out)
        assert [native.action(c) for c in out[:n]] == moves
        assert prims.evaluate(g, row) == game.evaluate(state, game.to_move(state))
        assert prims.key(g, row) == game.key(state)
        key, transform = prims.canonical(g, row)
        assert (int(key), int(transform)) == game.canonical(state)
        win = game.winning_action(state)
        assert prims.win_move(g, row) == (-1 if win is None else native.code(win))
        if win is None:
            n = prims.nonlosing(g, row, out)
            assert [native.action(c) for c in out[:n]] == list(game.non_losing_actions(state) or ())
        for move in moves:
            prims.play(g, row, native.code(move), child)
            assert tuple(int(w) for w in child) == tuple(native.encode(game.result(state, move)))


def test_boards_beyond_one_word_use_the_two_word_primitives() -> None:
    game = zerosum.load("connect4(width=9,height=9)")
    native = adapter_for(game)
    assert native is not None and native.kind == "connect4_wide"
    assert native.prims.words == 4
    assert Engine(game).backend == "native"
    assert native_engine(game).backend == "native"
    with pytest.raises(ZerosumError, match="native"):
        native_engine(zerosum.load("nim"))  # a game with no native code


def benchmark_positions(name: str, count: int) -> list[tuple[str, int]]:
    lines = shared_data(f"connect4/{name}").read_text().split("\n")
    return [(m, int(s)) for m, s in (line.split() for line in lines[:count])]


@pytest.mark.parametrize(("name", "count"), [("Test_L3_R1", 60), ("Test_L2_R1", 25)])
def test_strong_solve_agrees_with_the_published_scores_and_python(name: str, count: int) -> None:
    game = zerosum.load("connect4")
    cells = 42
    native, python = native_engine(game), python_engine(game)
    for moves, expected in benchmark_positions(name, count):
        state = game.play(list(moves))
        fast = solve(game, state, engine=native)
        slow = solve(game, state, engine=python)
        assert fast.score == slow.score, moves
        assert set(fast.best_moves) == set(slow.best_moves), moves
        end = state[1].bit_count() + (fast.score.plies or 0)
        value = 0 if fast.score.raw == 0 else (cells + 2 - end) // 2
        assert value * (1 if fast.score.raw >= 0 else -1) == expected, moves


@pytest.mark.parametrize("spec", ["connect4(width=4,height=4)", "connect4(width=5,height=4)"])
def test_every_value_agrees_on_small_boards(spec: str) -> None:
    game = zerosum.load(spec)
    native, python = native_engine(game), python_engine(game)
    for state in playout_positions(game, 120, seed=11):
        if game.is_terminal(state):
            continue
        for weak in (False, True):
            fast = solve(game, state, engine=native, weak=weak)
            slow = solve(game, state, engine=python, weak=weak)
            assert fast.score.outcome == slow.score.outcome
            assert set(fast.best_moves) == set(slow.best_moves)
            if not weak:
                assert fast.score == slow.score


def test_depth_limited_analysis_gives_the_same_scores() -> None:
    game = zerosum.load("connect4")
    native, python = native_engine(game), python_engine(game)
    for state in playout_positions(game, 40, seed=3)[5::5]:
        if game.is_terminal(state):
            continue
        fast = native.analyze(state, Limits(depth=5))
        slow = python.analyze(state, Limits(depth=5))
        assert [(m.move, m.score) for m in fast.moves] == [(m.move, m.score) for m in slow.moves]


def test_symmetric_table_gives_the_same_values() -> None:
    game = zerosum.load("connect4")
    plain, mirrored = native_engine(game), native_engine(game, symmetry=True)
    for moves, _score in benchmark_positions("Test_L3_R1", 30):
        state = game.play(list(moves))
        assert solve(game, state, engine=plain).score == solve(game, state, engine=mirrored).score


def test_limits_and_progress_behave_as_on_python() -> None:
    game = zerosum.load("connect4")
    engine = native_engine(game)
    start = game.initial_state()
    result = engine.search(start, Limits(nodes=5000))
    assert 0 < result.stats.nodes <= 5000
    assert result.best_move in game.actions(start)
    records: list[Any] = []
    result = engine.search(start, Limits(depth=6), on_progress=records.append)
    assert [p.depth for p in records] == [1, 2, 3, 4, 5, 6]
    assert records[-1].best_move == result.best_move
    began = time.perf_counter()
    result = engine.search(start, Limits(time=0.3))
    # The limit ended it (a solve takes minutes): no verdict on how soon,
    # which depends on the machine's load; the guard only catches a hang.
    assert not result.score.exact
    assert time.perf_counter() - began < HANG_GUARD
    assert result.best_move in game.actions(start)
    top = engine.analyze(game.play(list("44")), Limits(depth=4), multipv=2)
    assert len(top.moves) == 2


def test_stop_from_another_thread_ends_a_solve_of_the_empty_board() -> None:
    game = zerosum.load("connect4")
    engine = native_engine(game)
    timer = threading.Timer(0.3, engine.stop)
    timer.start()
    began = time.perf_counter()
    result = engine.search(game.initial_state())  # an exact solve: minutes
    stopped = time.perf_counter() - began
    assert not result.score.exact  # stopped, not solved (the latency is a benchmark's)
    assert stopped < HANG_GUARD
    assert result.best_move in game.actions(game.initial_state())


def test_the_table_size_is_bounded_and_checked() -> None:
    game = zerosum.load("connect4")
    engine = native_engine(game, hash_mb=1)
    assert engine.table.size * 16 <= 2**20
    # a middle-game solve (tens of thousands of positions) in the small table
    small = solve(game, game.play(list("32131537322374512174")), engine=engine)
    assert small.score == solve(game, game.play(list("32131537322374512174"))).score
    with pytest.raises(ZerosumError, match="megabytes"):
        EngineOptions(hash_mb=0)
    with pytest.raises(ZerosumError, match="does not fit"):
        EngineOptions(hash_mb=10**9)


def test_seeded_ties_are_reproducible() -> None:
    game = zerosum.load("connect4")
    state = game.play(list("4455"))
    first = native_engine(game).search(state, Limits(depth=3), rng=random.Random(4))
    again = native_engine(game).search(state, Limits(depth=3), rng=random.Random(4))
    assert first.best_move == again.best_move and first.best_moves == again.best_moves
