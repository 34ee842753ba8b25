"""The compiled m,n,k primitives (zerosum.native.mnk) against the Python game,
position by position on seeded random games (tic-tac-toe, 4x4x3, 4x4x4,
5x6x4, gomoku), and a compiled perft against tic-tac-toe's published
counts."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numba")

import numpy as np
from support import playout_positions, sample_positions

import zerosum
from zerosum.games.mnk import MNK, State
from zerosum.native import mnk as native
from zerosum.native.contract import ONGOING
from zerosum.native.perft import walk
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.perft import perft
from zerosum.search.solver import solve
from zerosum.search.types import Limits

SPECS = ("tictactoe", "mnk(3,3,3)", "mnk(4,4,3)", "mnk(4,4,4)", "mnk(5,6,4)", "gomoku")
#: Positions per game (terminal ones included), from seeded random games.
SAMPLE = 300

#: Tic-tac-toe's move sequences by length from the empty board (published).
SEQUENCES = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]


def row(words: Any) -> Any:
    return np.array(list(words), dtype=np.uint64)


def setup(spec: str) -> tuple[MNK, native.MNKNative, list[State]]:
    game = zerosum.load(spec)
    assert isinstance(game, MNK)
    adapter = native.adapter(game)
    assert adapter is not None
    # Every 4th position of whole games (a few seeds), and every game's end.
    states: list[State] = []
    seed = 0
    while len(states) < SAMPLE:
        games = playout_positions(game, 4 * SAMPLE, seed, terminal=True)
        states += [s for i, s in enumerate(games) if i % 4 == 0 or game.is_terminal(s)]
        seed += 1
    return game, adapter, states[:SAMPLE]


@pytest.mark.parametrize("spec", SPECS)
def test_gen_play_and_status_agree_with_the_python_game(spec: str) -> None:
    game, adapter, states = setup(spec)
    g, prims = adapter.constants, adapter.prims
    out = np.zeros(prims.max_moves, dtype=np.int32)
    after = np.zeros(prims.words, dtype=np.uint64)
    outcomes = set()
    for state in states:
        s = row(adapter.encode(state))
        if game.is_terminal(state):
            outcome = native.status(g, s)
            assert outcome == game.utility(state, game.to_move(state))
            outcomes.add(outcome)
            continue
        assert native.status(g, s) == ONGOING
        count = native.gen(g, s, out)
        assert [adapter.action(int(c)) for c in out[:count]] == list(game.ordered_actions(state))
        for code in out[:count]:
            native.play(g, s, int(code), after)
            # The whole row: marks, status word and both incremental hashes.
            assert list(after) == list(adapter.encode(game.result(state, int(code))))
    assert -1 in outcomes  # wins were met (and draws on the small boards)
    if spec in ("tictactoe", "mnk(3,3,3)", "mnk(4,4,4)"):  # random games fill these often
        assert 0 in outcomes


@pytest.mark.parametrize("spec", SPECS)
def test_evaluate_equals_the_python_evaluation(spec: str) -> None:
    game, adapter, states = setup(spec)
    values = set()
    for state in states:  # ends too: the formula holds there (search never asks)
        value = native.evaluate(adapter.constants, row(adapter.encode(state)))
        assert value == game.evaluate(state, game.to_move(state))
        values.add(value)
    if spec == "tictactoe":  # the tutorial's scale: a lost line, threats, nothing
        assert values == {-100, -50, 0, 50}
    else:
        assert len(values) >= 10


@pytest.mark.parametrize("spec", SPECS)
def test_win_move_is_pythons_and_complete(spec: str) -> None:
    """``win_move`` returns the Python game's ``winning_action``, and (checked
    by playing every move) -1 exactly when no move wins at once."""
    game, adapter, states = setup(spec)
    g = adapter.constants
    out = np.zeros(adapter.prims.max_moves, dtype=np.int32)
    after = np.zeros(adapter.prims.words, dtype=np.uint64)
    found = 0
    for state in states:
        s = row(adapter.encode(state))
        move = native.win_move(g, s)
        expected = game.winning_action(state)
        assert move == (-1 if expected is None else expected)
        if game.is_terminal(state):
            continue
        winners = []
        for code in out[: native.gen(g, s, out)]:
            native.play(g, s, int(code), after)
            if native.status(g, after) == -1:
                winners.append(int(code))
        assert (move in winners) if winners else move == -1
        found += bool(winners)
    assert found > 10


@pytest.mark.parametrize("spec", SPECS)
def test_keys_are_equal_exactly_for_equal_positions(spec: str) -> None:
    game, adapter, states = setup(spec)
    seen: dict[State, int] = {}
    keys: dict[int, State] = {}
    for state in states:
        k = int(native.key(adapter.constants, row(adapter.encode(state))))
        assert seen.setdefault(state, k) == k
        assert keys.setdefault(k, state) == state  # no collision in the sample
        if adapter.prims.exact_key:
            x, o, _status = state
            mine, theirs = (x, o) if x.bit_count() == o.bit_count() else (o, x)
            assert k == mine << game.cells | theirs
    assert len(keys) > SAMPLE // 3


@pytest.mark.parametrize("spec", SPECS)
def test_symmetries_agree_with_the_python_game(spec: str) -> None:
    game, adapter, states = setup(spec)
    g = adapter.constants
    count = game.symmetry_count()
    assert count == (8 if game.m == game.n else 4)
    for t in range(count):
        for cell in range(game.cells):
            assert native.map_move(g, cell, t, False) == game.map_move(cell, t)
            assert native.map_move(g, cell, t, True) == game.map_move(cell, t, True)
    for state in states[:120]:
        key, t = native.canonical(g, row(adapter.encode(state)))
        images = [game.transform(state, u) for u in range(count)]
        image_keys = [int(native.key(g, row(adapter.encode(im)))) for im in images]
        # Transform t leads to the representative, whose key is the class key.
        assert image_keys[t] == key
        for im in images:
            assert native.canonical(g, row(adapter.encode(im)))[0] == key
        if adapter.prims.exact_key:
            # The Python game's representative and transform.
            assert t == game.canonical(state)[1]
        else:
            assert key == min(image_keys)


def test_native_perft_matches_tictactoe_published_counts() -> None:
    game = zerosum.load("tictactoe")
    adapter = native.adapter(game)
    assert adapter is not None
    nodes, ends = walk(adapter, game.initial_state(), 9)
    assert nodes == SEQUENCES
    assert sum(nodes[1:]) == 549_945  # positions visited below the root
    assert sum(ends) == 255_168  # complete games
    assert ends[:5] == [0] * 5 and ends[5] == 1440  # X's quickest wins


def test_native_perft_matches_python_perft_on_4x4x3() -> None:
    game = zerosum.load("mnk(4,4,3)")
    adapter = native.adapter(game)
    assert adapter is not None
    start = game.play(["b2", "c3"])
    nodes, _ends = walk(adapter, start, 5)
    assert nodes == [perft(game, start, d) for d in range(6)]


def test_adapters_and_layout() -> None:
    tic = native.adapter(zerosum.load("tictactoe"))
    assert tic is not None and tic.kind == "mnk"
    assert tic.prims.words == 5 and tic.prims.exact_key and tic.prims.mover_wins_only
    gomoku = native.adapter(zerosum.load("gomoku"))
    assert gomoku is not None
    assert gomoku.prims.words == 11 and not gomoku.prims.exact_key
    assert gomoku.prims.max_moves == gomoku.prims.move_codes == 225
    wide = native.adapter(zerosum.load("mnk(26,26,6)"))
    assert wide is not None and wide.prims.words == 2 * 11 + 3
    assert native.adapter(zerosum.load("othello")) is None


# -- search on the native backend against the Python backend ------------------------


def same_solution(game: MNK, state: State, **options: Any) -> int | None:
    """Native and Python solves agree: value, distance and every best move.
    Returns the outcome."""
    python = solve(game, state, options=EngineOptions(backend="python", **options))
    fast = solve(game, state, options=EngineOptions(backend="native", **options))
    assert fast.score == python.score  # the raw value (with its distance), exact
    assert fast.score.exact
    assert set(fast.best_moves) == set(python.best_moves)
    return fast.score.outcome


def positions_after(game: MNK, plies: int) -> list[State]:
    """Every position reachable in exactly ``plies`` plies, game still on."""
    states = {game.initial_state()}
    for _ in range(plies):
        states = {game.result(s, m) for s in states for m in game.actions(s)}
    return sorted(s for s in states if not game.is_terminal(s))


def test_native_solves_every_tictactoe_position_after_two_and_three_plies() -> None:
    game = zerosum.load("tictactoe")
    assert isinstance(game, MNK)
    states = [game.initial_state(), *positions_after(game, 2), *positions_after(game, 3)]
    assert len(states) == 1 + 72 + 252
    outcomes = {same_solution(game, s, symmetry=i % 2 == 1) for i, s in enumerate(states)}
    assert outcomes == {-1, 0, 1}


@pytest.mark.parametrize("spec", ["mnk(4,4,3)", "mnk(4,4,4)"])
def test_native_solves_4x4_samples_as_python(spec: str) -> None:
    game = zerosum.load(spec)
    assert isinstance(game, MNK)
    outcomes = set()
    for i, state in enumerate(sample_positions(game, range(5, 9), 20, seed=7)):
        outcomes.add(same_solution(game, state, symmetry=i % 3 == 0))
    assert len(outcomes) >= 2


@pytest.mark.parametrize(
    ("spec", "depth"), [("tictactoe", 3), ("mnk(4,4,4)", 3), ("mnk(7,7,4)", 2)]
)
def test_native_depth_limited_analysis_scores_every_move_as_python(spec: str, depth: int) -> None:
    """Heuristic scores at a depth limit test the compiled evaluation (the
    tutorial's for tic-tac-toe, open windows otherwise) inside the search."""
    game = zerosum.load(spec)
    assert isinstance(game, MNK)
    for state in sample_positions(game, range(1, 4), 3, seed=3):
        limits = Limits(depth=depth)
        python = Engine(game, EngineOptions(backend="python")).analyze(state, limits)
        fast = Engine(game, EngineOptions(backend="native")).analyze(state, limits)
        assert [(m.move, m.score) for m in fast.moves] == [(m.move, m.score) for m in python.moves]
        assert any(not m.score.exact for m in fast.moves)
