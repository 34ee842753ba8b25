"""The native backend on the Connect Four boards whose layout needs two
words (``width * (height + 1) > 64``: 9x7, 8x8, 7x9 and up): the compiled
primitives give the Python game's answers, and searches give the Python
backend's values and best moves."""

from __future__ import annotations

import random
from typing import Any

import pytest
from support import playout_positions

import zerosum
from zerosum.games.connect4 import MAX_SIZE, MIN_SIZE, ConnectFour
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import solve
from zerosum.search.types import Limits

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from zerosum.native import adapter_for  # noqa: E402
from zerosum.native.connect4_wide import add, mix, shl, shr  # noqa: E402
from zerosum.native.contract import ONGOING  # noqa: E402

SIZES = [
    "connect4(width=9,height=9)",
    "connect4(width=8,height=8)",
    "connect4(width=9,height=7)",
    "connect4(width=7,height=9)",
]
WORD = (1 << 64) - 1


def load(spec: str) -> ConnectFour:
    game = zerosum.load(spec)
    assert isinstance(game, ConnectFour)
    return game


def native_engine(game: Any, **options: Any) -> Engine[Any]:
    return Engine(game, EngineOptions(backend="native", **options))


def python_engine(game: Any, **options: Any) -> Engine[Any]:
    return Engine(game, EngineOptions(backend="python", **options))


def wide_key(key: int) -> int:
    """The native key of a position whose Python key is ``key``."""
    return int(mix(np.uint64(key & WORD), np.uint64(key >> 64)))


def late_positions(game: Any, count: int, empty: int, seed: int) -> list[Any]:
    """``count`` positions with at most ``empty`` empty cells, one per seeded
    random game. The players pick among their non-losing moves (when they
    have any) so that games last: uniformly random games on these boards
    mostly end long before the board fills."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.cells - state[1].bit_count() <= empty:
                found.append(state)
                break
            moves = list(game.non_losing_actions(state)) or list(game.actions(state))
            state = game.result(state, rng.choice(moves))
    return found


def test_every_size_has_native_code() -> None:
    for width in range(MIN_SIZE, MAX_SIZE + 1):
        for height in range(MIN_SIZE, MAX_SIZE + 1):
            game = zerosum.load(f"connect4(width={width},height={height})")
            native = adapter_for(game)
            wide = width * (height + 1) > 64
            assert native.kind == ("connect4_wide" if wide else "connect4")
            assert native.prims.words == (4 if wide else 2)
            assert Engine(game).backend == "native"


def test_the_128_bit_helpers_carry_across_the_word_boundary() -> None:
    rng = random.Random(2)
    values = [rng.getrandbits(90) for _ in range(200)]
    values += [(1 << 64) - 1, 1 << 63, 1 << 64, ((1 << 64) - 1) << 26]
    for x in values:
        lo, hi = np.uint64(x & WORD), np.uint64(x >> 64)
        for n in (1, 2, 3, 11, 22, 33, 63):
            left = shl(lo, hi, np.uint64(n))
            right = shr(lo, hi, np.uint64(n))
            assert (int(left[0]) | int(left[1]) << 64) == (x << n) & ((1 << 128) - 1)
            assert (int(right[0]) | int(right[1]) << 64) == x >> n
        # half the sums carry out of the low word for certain: their low words
        # add up to exactly 2**64 (unless x's is 0)
        y = rng.getrandbits(90)
        if y & 1:
            y = ((1 << 64) - (x & WORD)) % (1 << 64) | (y >> 64) << 64
        total = add(lo, hi, np.uint64(y & WORD), np.uint64(y >> 64))
        assert (int(total[0]) | int(total[1]) << 64) == (x + y) & ((1 << 128) - 1)


@pytest.mark.parametrize("spec", SIZES)
def test_primitives_agree_with_the_game(spec: str) -> None:
    game = load(spec)
    native = adapter_for(game)
    assert native.kind == "connect4_wide"
    prims, g = native.prims, native.constants
    out = np.zeros(prims.max_moves, dtype=np.int32)
    row = np.zeros(prims.words, dtype=np.uint64)
    child = np.zeros(prims.words, dtype=np.uint64)
    states = playout_positions(game, 300, seed=5, terminal=True)
    seen = {"terminal": 0, "win": 0, "listed": 0, "mirrored": 0}
    for state in states:
        row[:] = native.encode(state)
        if game.is_terminal(state):
            seen["terminal"] += 1
            assert prims.status(g, row) == game.utility(state, game.to_move(state))
            continue
        assert prims.status(g, row) == ONGOING
        moves = list(game.ordered_actions(state))
        n = prims.gen(g, row, out)
        assert [native.action(c) for c in out[:n]] == moves
        assert prims.evaluate(g, row) == game.evaluate(state, game.to_move(state))
        assert int(prims.key(g, row)) == wide_key(game.key(state))
        key, transform = prims.canonical(g, row)
        python_key, python_transform = game.canonical(state)
        assert (int(key), int(transform)) == (wide_key(python_key), python_transform)
        seen["mirrored"] += python_transform
        for move in moves:
            mapped = prims.map_move(g, native.code(move), 1, False)
            assert native.action(mapped) == game.map_move(move, 1)
        win = game.winning_action(state)
        assert prims.win_move(g, row) == (-1 if win is None else native.code(win))
        if win is None:
            # the kernel asks for the list only where the mover cannot win
            n = prims.nonlosing(g, row, out)
            assert [native.action(c) for c in out[:n]] == list(game.non_losing_actions(state))
            seen["listed"] += n > 1
        else:
            seen["win"] += 1
        for move in moves:
            prims.play(g, row, native.code(move), child)
            assert tuple(int(w) for w in child) == tuple(native.encode(game.result(state, move)))
    # the sample exercises every branch
    assert all(count >= 10 for count in seen.values()), seen


def test_keys_of_distinct_positions_differ() -> None:
    game = load("connect4(width=9,height=9)")
    native = adapter_for(game)
    row = np.zeros(native.prims.words, dtype=np.uint64)
    keys: dict[int, int] = {}
    for state in playout_positions(game, 3000, seed=8):
        row[:] = native.encode(state)
        keys[int(native.prims.key(native.constants, row))] = game.key(state)
    assert len(keys) == len(set(keys.values()))


@pytest.mark.parametrize("spec", SIZES)
def test_strong_solve_agrees_with_python(spec: str) -> None:
    game = load(spec)
    native, python = native_engine(game, hash_mb=8), python_engine(game)
    positions = late_positions(game, 10, 14, seed=1) + late_positions(game, 8, 24, seed=2)
    for state in positions:
        fast = solve(game, state, engine=native)
        slow = solve(game, state, engine=python)
        assert fast.score == slow.score, game.format_position(state)
        assert set(fast.best_moves) == set(slow.best_moves), game.format_position(state)


def test_symmetric_table_gives_the_same_values() -> None:
    game = load("connect4(width=9,height=9)")
    plain = native_engine(game, hash_mb=8)
    mirrored = native_engine(game, hash_mb=8, symmetry=True)
    for state in late_positions(game, 8, 22, seed=3):
        first = solve(game, state, engine=plain)
        again = solve(game, state, engine=mirrored)
        assert first.score == again.score
        assert set(first.best_moves) == set(again.best_moves)


@pytest.mark.parametrize("spec", SIZES)
def test_depth_limited_analysis_gives_the_same_scores(spec: str) -> None:
    game = load(spec)
    native, python = native_engine(game, hash_mb=8), python_engine(game)
    for state in playout_positions(game, 60, seed=3)[8::8]:
        fast = native.analyze(state, Limits(depth=4))
        slow = python.analyze(state, Limits(depth=4))
        assert [(m.move, m.score) for m in fast.moves] == [(m.move, m.score) for m in slow.moves]
