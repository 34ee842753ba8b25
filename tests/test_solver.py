"""The exact solver against the reference, on every tic-tac-toe position,
samples of the other games and the published Connect Four benchmark set."""

from __future__ import annotations

import itertools
import threading
from functools import cache
from typing import Any

import pytest
from conftest import shared_data
from hypothesis import given
from hypothesis import strategies as st
from support import reachable, sample_positions

import zerosum
from zerosum.datasets import connect4_score
from zerosum.game import Game, ZerosumError
from zerosum.search import reference
from zerosum.search.engine import Engine, EngineOptions, Progress
from zerosum.search.solver import (
    SolveInterrupted,
    from_ordinal,
    ordinal,
    probe_point,
    solve,
)
from zerosum.search.types import MAX_PLY, Limits, loss_in, win_in


def open_positions(game: Game[Any, Any]) -> list[Any]:
    """Every reachable non-terminal position, in a fixed order."""
    return sorted(s for s in reachable(game) if not game.is_terminal(s))


@cache
def truth(spec: str, plies: tuple[int, ...] = (), count: int = 0) -> list[tuple[Any, Any]]:
    """Positions with the reference's exact analysis (every move's value)."""
    game = zerosum.load(spec)
    positions = open_positions(game) if not plies else sample_positions(game, plies, count, seed=7)
    return [(s, reference.solve(game, s)) for s in positions]


def outcome(raw: int) -> int:
    return (raw > 0) - (raw < 0)


def check_strong(game: Game[Any, Any], cases: list[tuple[Any, Any]], engine: Engine[Any]) -> None:
    for state, ref in cases:
        result = solve(game, state, engine=engine)
        where = game.format_position(state)
        assert result.score.raw == ref.score.raw, where
        assert result.score.exact
        assert set(result.best_moves) == set(ref.best_moves), where
        assert result.best_move == result.best_moves[0]
        assert result.pv[0] == result.best_move
        assert result.depth is None


def check_weak(game: Game[Any, Any], cases: list[tuple[Any, Any]], engine: Engine[Any]) -> None:
    for state, ref in cases:
        result = solve(game, state, engine=engine, weak=True)
        where = game.format_position(state)
        assert outcome(result.score.raw) == outcome(ref.score.raw), where
        assert result.score.outcome == ref.score.outcome
        if ref.score.raw > 0:  # a win: the bound is never quicker than the truth
            assert result.score.raw <= ref.score.raw
        same = {m.move for m in ref.moves if outcome(m.score.raw) == outcome(ref.score.raw)}
        assert set(result.best_moves) == same, where


@pytest.mark.parametrize(
    "options",
    [EngineOptions(), EngineOptions.plain(), EngineOptions(symmetry=True, killers=False)],
    ids=["default", "plain", "symmetry"],
)
def test_every_tictactoe_position_strong_and_weak(options: EngineOptions) -> None:
    game = zerosum.load("tictactoe")
    cases = truth("tictactoe")
    assert len(cases) == 4520
    engine = Engine(game, options)
    check_strong(game, cases, engine)
    check_weak(game, cases, engine)


OTHER = [
    ("mnk(m=3,n=4,k=3)", tuple(range(3, 8)), 120),
    ("mnk(m=4,n=4,k=3)", tuple(range(7, 11)), 100),
    ("connect4(width=4,height=4)", tuple(range(6, 12)), 150),
    ("connect4(width=5,height=4)", tuple(range(10, 16)), 100),
    ("connect4", tuple(range(32, 38)), 60),
    ("nim(heaps=3-4-5)", tuple(range(2, 9)), 150),
    ("domineering(rows=4,cols=4)", tuple(range(0, 6)), 120),
    ("othello(size=4)", tuple(range(3, 9)), 120),
]


@pytest.mark.parametrize(("spec", "plies", "count"), OTHER, ids=[o[0] for o in OTHER])
def test_other_games_strong_and_weak(spec: str, plies: tuple[int, ...], count: int) -> None:
    game = zerosum.load(spec)
    cases = truth(spec, plies, count)
    assert len(cases) >= count * 0.8
    engine = Engine(game)
    check_strong(game, cases, engine)
    check_weak(game, cases, engine)


@pytest.mark.parametrize(
    "spec",
    [
        "connect4(width=4,height=4)",
        "connect4(width=5,height=4)",
        "mnk(m=4,n=4,k=3)",
        "domineering(rows=4,cols=4)",
        "nim(heaps=3-4-5)",
    ],
)
def test_mover_wins_only_bounds_are_sound_for_games_that_qualify(spec: str) -> None:
    """Games that end only by the mover's win or a draw, turns alternating,
    declare ``mover_wins_only``; the tighter bounds must not change any
    value (checked against the reference, and against the loose bounds)."""
    game: Any = zerosum.load(spec)
    assert game.mover_wins_only
    plies = dict((o[0], o[1]) for o in OTHER)[spec]
    count = dict((o[0], o[2]) for o in OTHER)[spec]
    engine = Engine(game)
    check_strong(game, truth(spec, plies, count), engine)
    for state, ref in truth(spec, plies, count)[:40]:
        assert Engine(game).search(state).score.raw == ref.score.raw
    loose: Any = zerosum.load(spec)
    loose.mover_wins_only = False
    for state, ref in truth(spec, plies, count)[:40]:
        assert Engine(loose).search(state).score.raw == ref.score.raw


def test_connect4_benchmark_end_game_set() -> None:
    """The first 150 positions of the published end-game set, checked against
    the published scores (strong), and their signs (weak)."""
    path = shared_data("connect4/Test_L3_R1")
    game: Any = zerosum.load("connect4")
    engine = Engine(game, EngineOptions(tt_size=100_003))
    lines = path.read_text(encoding="ascii").split("\n")[:150]
    for line in lines:
        moves, score = line.split()
        state = game.parse_position(moves)
        engine.clear()
        result = solve(game, state, engine=engine, all_moves=False)
        assert connect4_score(game, state, result.score.raw) == int(score), moves
        weak = solve(game, state, engine=engine, weak=True, all_moves=False)
        assert outcome(weak.score.raw) == outcome(int(score)), moves


def test_connect4_benchmark_middle_game_set_sample() -> None:
    path = shared_data("connect4/Test_L2_R1")
    game: Any = zerosum.load("connect4")
    engine = Engine(game, EngineOptions(tt_size=100_003))
    for line in path.read_text(encoding="ascii").split("\n")[:12]:
        moves, score = line.split()
        state = game.parse_position(moves)
        engine.clear()
        result = solve(game, state, engine=engine)
        assert connect4_score(game, state, result.score.raw) == int(score), moves
        for move in result.best_moves:  # every optimal move keeps the score
            child = game.result(state, move)
            if not game.is_terminal(child):
                engine.clear()
                reply = solve(game, child, engine=engine, all_moves=False)
                # One ply nearer the end: a win or loss one ply sooner.
                value = result.score.raw
                assert -reply.score.raw == value + (value > 0) - (value < 0)


def test_progress_narrows_to_the_value() -> None:
    game: Any = zerosum.load("connect4(width=5,height=4)")
    state = game.play(list("33"))
    records: list[Progress[Any]] = []
    result = solve(game, state, on_progress=records.append)
    assert records
    lowers = [p.lower for p in records]
    uppers = [p.upper for p in records]
    assert all(
        lo is not None and up is not None and lo <= up
        for lo, up in zip(lowers, uppers, strict=True)
    )
    assert lowers == sorted(lowers)  # type: ignore[type-var]
    assert uppers == sorted(uppers, reverse=True)  # type: ignore[type-var]
    assert lowers[-1] == uppers[-1] == result.score.raw
    assert records[-1].score.exact and records[-1].best_move in result.best_moves
    assert all(a.nodes <= b.nodes for a, b in itertools.pairwise(records))
    assert all(p.depth is None for p in records)


def test_budget_interrupts_with_proven_bounds() -> None:
    game: Any = zerosum.load("connect4")
    state = game.play(list("44"))
    with pytest.raises(SolveInterrupted) as info:
        solve(game, state, limits=Limits(nodes=2_000))
    stopped = info.value
    assert stopped.lower <= stopped.upper
    assert stopped.stats.nodes <= 2_000 + 20
    assert isinstance(stopped, ZerosumError)


def test_stop_from_another_thread_interrupts_the_solve() -> None:
    """Solving Connect Four from the start takes far too long; stop() ends it
    with the bounds proven so far. (stop() is repeated: a request made before
    the solve has started is cleared by its start.)"""
    game: Any = zerosum.load("connect4")
    engine = Engine(game)
    box: list[BaseException] = []

    def work() -> None:
        try:
            solve(game, game.initial_state(), engine=engine)
        except SolveInterrupted as exc:
            box.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    for _ in range(600):
        thread.join(0.05)
        if not thread.is_alive():
            break
        engine.stop()
    assert not thread.is_alive()
    assert len(box) == 1


def test_bad_requests_are_refused() -> None:
    game = zerosum.load("tictactoe")
    won = game.play("0 3 1 4 2".split())
    with pytest.raises(ZerosumError):
        solve(game, won)
    with pytest.raises(ZerosumError):
        solve(game, game.initial_state(), limits=Limits(depth=3))
    with pytest.raises(ZerosumError):
        solve(game, game.initial_state(), engine=Engine(zerosum.load("connect4")))


def test_one_best_move_when_asked() -> None:
    game = zerosum.load("tictactoe")
    result = solve(game, game.initial_state(), all_moves=False)
    assert len(result.best_moves) == 1 and result.score.raw == 0
    every = solve(game, game.initial_state())
    assert set(every.best_moves) == set(range(9))


def test_immediate_wins_and_forced_losses_at_the_root() -> None:
    game = zerosum.load("tictactoe")
    winning = game.play("0 3 1 5 4 6".split())  # X to move: 2, 7, 8 win at once
    result = solve(game, winning)
    assert result.score.raw == win_in(1) and set(result.best_moves) == {2, 7, 8}
    assert set(solve(game, winning, weak=True).best_moves) == set(game.actions(winning))
    forked = game.play("0 4 8 2 6".split())  # X threatens 3 and 7: O loses in 2
    result = solve(game, forked)
    assert result.score.raw == loss_in(2)
    assert set(result.best_moves) == set(reference.solve(game, forked).best_moves)


# -- the probe points ---------------------------------------------------------

DECISIVE = st.one_of(
    st.just(0),
    st.integers(1, MAX_PLY - 1).map(win_in),
    st.integers(1, MAX_PLY - 1).map(loss_in),
)


@given(DECISIVE)
def test_ordinal_round_trips(score: int) -> None:
    assert from_ordinal(ordinal(score)) == score


@given(DECISIVE, DECISIVE)
def test_ordinal_preserves_order(a: int, b: int) -> None:
    assert (a < b) == (ordinal(a) < ordinal(b))


@given(DECISIVE, DECISIVE)
def test_probe_point_always_narrows(a: int, b: int) -> None:
    if a == b:
        return
    lower, upper = min(a, b), max(a, b)
    point = probe_point(lower, upper)
    assert lower <= point < upper
