"""Native Domineering (``zerosum.native.domineering``) against the Python
game: every primitive on random positions of many board sizes (both first
movers, irregular positions too), a compiled perft against the Python one,
and the native search's answers against the Python backend, exhaustive
minimax and the published outcome classes."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

import numpy as np
from conftest import shared_data
from numpy.typing import NDArray
from support import playout_positions
from test_domineering import exact_values, outcome_class, published_outcomes

import zerosum
from zerosum.game import ZerosumError
from zerosum.games.domineering import Domineering, State
from zerosum.native import adapter_for
from zerosum.native import domineering as native
from zerosum.native.contract import ONGOING
from zerosum.native.perft import walk
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.perft import perft
from zerosum.search.solver import solve
from zerosum.search.types import loss_in, win_in

U64 = NDArray[np.uint64]

BOARDS = [(3, 3), (2, 7), (4, 5), (5, 4), (6, 6), (7, 7), (8, 8), (5, 9), (4, 16), (16, 4)]
FIRSTS = ("vertical", "horizontal")


def row(adapter: native.DomineeringNative, state: State) -> U64:
    return np.array(adapter.encode(state), dtype=np.uint64)


def irregular_positions(game: Domineering, count: int, seed: int) -> list[State]:
    """Random sets of covered cells (any number, so the side to move often
    disagrees with the tile count), either side to move."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        density = rng.random()
        occupied = sum(1 << cell for cell in range(game.cells) if rng.random() < density)
        states.append((occupied, rng.randrange(2)))
    return states


def moves_of(adapter: native.DomineeringNative, codes: NDArray[np.int32], n: int) -> list[int]:
    return [adapter.action(int(code)) for code in codes[:n]]


@pytest.mark.parametrize(("rows", "cols"), BOARDS)
@pytest.mark.parametrize("first", FIRSTS)
def test_primitives_agree_with_the_python_game(rows: int, cols: int, first: str) -> None:
    game = Domineering(rows=rows, cols=cols, first=first)
    adapter = native.adapter(game)
    assert adapter is not None
    g = adapter.constants
    out = np.zeros(adapter.prims.max_moves, dtype=np.int32)
    child = np.zeros(2, dtype=np.uint64)
    states = playout_positions(game, 120, rows * 37 + cols, terminal=True)
    states += irregular_positions(game, 60, rows * 41 + cols)
    decided = informed = 0
    for state in states:
        s = row(adapter, state)
        over = game.is_terminal(state)
        assert native.status(g, s) == (-1 if over else ONGOING)
        assert native.evaluate(g, s) == game.evaluate(state, game.to_move(state))
        bound = native.bound(g, s)
        assert bound == game.static_bound(state)
        decided += bound != 0
        key, transform = native.canonical(g, s)
        assert transform == game.canonical(state)[1]
        for t in range(4):
            image = game.transform(state, t)
            assert int(native.transform(g, s[0], t)) == image[0]
            assert native.canonical(g, row(adapter, image))[0] == key
        if over:
            continue
        n = native.gen(g, s, out)
        assert moves_of(adapter, out, n) == list(game.ordered_actions(state))
        win = native.win_move(g, s)
        expected_win = game.winning_action(state)
        assert (win == -1) == (expected_win is None)
        if win != -1:
            assert adapter.action(win) == expected_win
        n = native.nonlosing(g, s, out)
        safe = game.non_losing_actions(state)
        assert safe is not None and moves_of(adapter, out, n) == list(safe)
        informed += len(safe) != len(game.actions(state))
        for move in game.actions(state):
            code = adapter.code(move)
            assert 0 <= code < adapter.prims.move_codes and adapter.action(code) == move
            native.play(g, s, code, child)
            assert [int(w) for w in child] == list(adapter.encode(game.result(state, move)))
            for t in range(4):
                mapped = native.map_move(g, code, t, False)
                assert adapter.action(mapped) == game.map_move(move, t)
                assert native.map_move(g, mapped, t, True) == code
    assert decided > 0 and informed > 0


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (5, 5), (6, 6), (7, 9), (8, 8)])
def test_keys_tell_positions_apart_as_the_python_keys_do(rows: int, cols: int) -> None:
    """``key`` is injective where the module says it is: every position of
    a board under 64 cells; on 64 cells, positions reached by play (the
    others hashed apart from them). The class key is shared exactly by the
    Python game's symmetry classes."""
    game = Domineering(rows=rows, cols=cols)
    adapter = native.adapter(game)
    assert adapter is not None and adapter.prims.exact_key == (game.cells < 64)
    g = adapter.constants
    played = playout_positions(game, 400, rows * cols, terminal=True)
    states = list(played)
    if game.cells < 64:
        states += irregular_positions(game, 400, cols)
        # the same cells with the other side to move
        states += [(occupied, 1 - player) for occupied, player in states[:50]]
    keys: dict[int, State] = {}
    classes: dict[int, object] = {}
    for state in set(states):
        s = row(adapter, state)
        k = int(native.key(g, s))
        assert keys.setdefault(k, state) == state
        ck = int(native.canonical(g, s)[0])
        assert classes.setdefault(ck, game.canonical(state)[0]) == game.canonical(state)[0]
    assert len(set(classes.values())) == len(classes)
    if game.cells == 64:
        # The other side to move, against the tile count: a hashed key, here
        # different from every key of the sample.
        for occupied, player in played[:100]:
            assert int(native.key(g, row(adapter, (occupied, 1 - player)))) not in keys


def test_move_codes_name_each_tile_and_its_direction() -> None:
    game = Domineering(rows=3, cols=3)
    adapter = native.adapter(game)
    assert adapter is not None
    start = game.initial_state()
    b1 = game.parse_move(start, "b1")
    assert adapter.code(b1) == 1  # Vertical: the top cell
    after = game.result(start, b1)
    a3 = game.parse_move(after, "a3")
    assert adapter.code(a3) == native.H_CODE + 6  # Horizontal: the left cell, +64
    one_column = native.adapter(Domineering(rows=4, cols=1))
    assert one_column is not None and one_column.code(0b11) == 0  # a1-a2 is Vertical
    assert one_column.action(0) == 0b11


def test_adapters_exist_up_to_64_cells() -> None:
    for rows, cols in ((8, 8), (4, 16), (16, 4), (1, 1), (9, 7)):
        adapter = adapter_for(Domineering(rows=rows, cols=cols))
        assert isinstance(adapter, native.DomineeringNative) and adapter.kind == "domineering"
    for rows, cols in ((9, 8), (8, 9), (9, 9), (16, 16)):
        assert native.adapter(Domineering(rows=rows, cols=cols)) is None
        assert adapter_for(Domineering(rows=rows, cols=cols)) is None

    class Other(Domineering):
        pass

    assert native.adapter(Other(rows=4, cols=4)) is None


@pytest.mark.parametrize(
    ("rows", "cols", "depth"), [(4, 4, 6), (3, 7, 5), (5, 5, 4), (8, 8, 3), (2, 2, 3), (1, 5, 2)]
)
@pytest.mark.parametrize("first", FIRSTS)
def test_native_perft_equals_the_python_perft(rows: int, cols: int, depth: int, first: str) -> None:
    game = Domineering(rows=rows, cols=cols, first=first)
    adapter = native.adapter(game)
    assert adapter is not None
    for state in [game.initial_state(), *playout_positions(game, 3, depth, terminal=True)]:
        got = walk(adapter, state, depth)[0]  # every ply 0..depth in one walk
        for d in range(depth + 1):
            assert got[d] == perft(game, state, d), (game.format_position(state), d)


# -- the native search ------------------------------------------------------------------


def solved(game: Domineering, state: State, backend: str, weak: bool) -> tuple[int, list[int]]:
    result = solve(game, state, weak=weak, options=EngineOptions(backend=backend))
    assert result.score.exact
    return result.score.raw, sorted(result.best_moves)


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (4, 5), (3, 6), (5, 5)])
@pytest.mark.parametrize("first", FIRSTS)
def test_native_and_python_solves_agree(rows: int, cols: int, first: str) -> None:
    """Strong solves: the same value, distance and set of best moves on both
    backends, and the value exhaustive minimax gives; weak solves: the same
    outcome and the same moves."""
    game = Domineering(rows=rows, cols=cols, first=first)
    states = [
        state
        for state in playout_positions(game, 300, rows * cols + len(first))
        if game.cells - state[0].bit_count() <= 14
    ][::15][:8]
    if game.cells <= 16:
        states.append(game.initial_state())
    assert len(states) >= 6
    exact = exact_values(game, states)
    for state in states:
        value, moves = solved(game, state, "native", weak=False)
        assert (value, moves) == solved(game, state, "python", weak=False)
        wins, plies = exact[state]
        assert value == (win_in(plies) if wins else loss_in(plies))
        weak_value, weak_moves = solved(game, state, "native", weak=True)
        python_value, python_moves = solved(game, state, "python", weak=True)
        assert (weak_value > 0) == (python_value > 0) == wins
        assert weak_moves == python_moves


def first_player_wins_natively(rows: int, cols: int, first: str) -> bool:
    game = zerosum.load(f"domineering(rows={rows},cols={cols},first={first})")
    state = game.initial_state()
    if game.is_terminal(state):
        return False
    result = solve(game, state, weak=True, options=EngineOptions(backend="native"))
    return result.score.raw > 0


def test_published_outcomes_natively() -> None:
    shared_data("domineering/outcomes_small.csv")
    wrong = []
    for rows, cols, published in published_outcomes():
        wins = {first: first_player_wins_natively(rows, cols, first) for first in FIRSTS}
        if outcome_class(wins) != published:
            wrong.append((rows, cols, published, outcome_class(wins)))
    assert wrong == []


def test_the_native_backend_is_chosen_and_solves_6x6() -> None:
    """The published result: the first player wins 6x6, either way round;
    the engine picks the native backend by itself."""
    for first in FIRSTS:
        game = zerosum.load(f"domineering(rows=6,cols=6,first={first})")
        assert isinstance(game, Domineering) and Engine(game).backend == "native"
        result = solve(game, game.initial_state(), weak=True, all_moves=False)
        assert result.score.raw > 0
    board = Domineering(rows=6, cols=6)
    with pytest.raises(ZerosumError):
        solve(board, (board.full, 0), weak=True)  # a full board: the game is over
