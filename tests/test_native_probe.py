"""The solver's strong loop compiled (``native/probe.py``) is the Python
loop: the same probe points, and solves that give the same answers, lines,
node counts and interrupted bounds. (The Python loop runs when a progress
callback is given: it reports after every probe.)"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import shared_data

import zerosum
from zerosum.datasets import read_connect4_set
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import SolveInterrupted, probe_point, solve
from zerosum.search.types import MAX_PLY, Limits, loss_in, win_in

pytest.importorskip("numba")

from zerosum.native.probe import probe_point as compiled_probe_point


def test_the_probe_points_are_the_solvers() -> None:
    scores = [loss_in(p) for p in range(1, 60)] + [0] + [win_in(p) for p in range(1, 60)]
    scores.sort()
    compared = 0
    for horizon in (1, 4, 41, 42, MAX_PLY):
        for i, lower in enumerate(scores):
            for upper in scores[i + 1 :]:
                assert compiled_probe_point(lower, upper, horizon) == probe_point(
                    lower, upper, horizon
                ), (lower, upper, horizon)
                compared += 1
    assert compared > 5 * 7000


def _both(game: Any, state: Any, **kwargs: Any) -> tuple[Any, Any]:
    """A solve by the compiled loop and one by the Python loop (a progress
    callback), each on a cleared native engine."""
    engine: Engine[Any] = Engine(game, EngineOptions(backend="native"))
    compiled = solve(game, state, engine=engine, **kwargs)
    engine.clear()
    records: list[Any] = []
    python = solve(game, state, engine=engine, on_progress=records.append, **kwargs)
    assert records  # the Python loop did run
    return compiled, python


@pytest.mark.parametrize(("name", "count"), [("Test_L2_R1", 40), ("Test_L1_R1", 10)])
def test_solves_are_the_python_loops(name: str, count: int) -> None:
    game = zerosum.load("connect4")
    for moves, _score in read_connect4_set(shared_data(f"connect4/{name}"), count):
        state = game.parse_position(moves)
        for all_moves in (False, True):
            compiled, python = _both(game, state, all_moves=all_moves)
            assert compiled.score == python.score
            assert compiled.best_moves == python.best_moves
            assert compiled.pv == python.pv
            assert compiled.stats.nodes == python.stats.nodes


def test_tictactoe_solves_are_the_python_loops() -> None:
    game = zerosum.load("tictactoe")
    for moves in ("", "4", "0 4", "0 1 2"):
        state = game.play(moves.split())
        compiled, python = _both(game, state)
        assert (compiled.score, compiled.best_moves) == (python.score, python.best_moves)
        assert compiled.stats.nodes == python.stats.nodes


def test_an_interrupted_solve_has_the_python_loops_bounds() -> None:
    game = zerosum.load("connect4")
    state = game.parse_position("4453")
    for budget in (3_000, 20_000, 60_000):
        stopped = []
        for on_progress in (None, lambda record: None):
            engine: Engine[Any] = Engine(game, EngineOptions(backend="native"))
            with pytest.raises(SolveInterrupted) as info:
                solve(game, state, engine=engine, limits=Limits(nodes=budget),
                      on_progress=on_progress)
            exc = info.value
            stopped.append((exc.lower, exc.upper, exc.best_move, exc.stats.nodes))
        assert stopped[0] == stopped[1]
        assert stopped[0][0] < stopped[0][1]


def test_compiling_is_announced_once_for_the_kernel_and_what_is_built_on_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The strong loop and the table's line compile apart from the kernel
    (a machine whose cache holds an older kernel's copy compiles them
    alone): any of them compiled rather than loaded says so, once, as
    numba's public event API reports it; a function already compiled (as
    one loaded from the disk cache) says nothing."""
    from numba import njit

    from zerosum.native.kernel import announce_compiling

    def made() -> Any:
        # A new function each time: nothing in any cache.
        return njit(cache=False)(lambda x: x + 1)

    ready = made()
    assert ready(1) == 2  # compiled before it is watched
    announce_compiling("test-game", ready)
    assert ready(2) == 3
    assert capsys.readouterr().err == ""
    first, second = made(), made()
    announce_compiling("test-game", first)
    announce_compiling("test-game", second)
    assert first(1) == 2 and second(1) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "zerosum: compiling the native search for test-game "
        "(once on this machine; it takes a few seconds)"
    ]
