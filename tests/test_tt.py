"""The transposition table: distance conversion, bounds, the replacement
policy, the size bound, and the table as the engine leaves it."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

import zerosum
import zerosum.native
from zerosum.game import ZerosumError
from zerosum.search import reference
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import solve
from zerosum.search.tt import TranspositionTable
from zerosum.search.ttformat import (
    DEPTH_INF,
    MATE,
    NO_LOWER,
    NO_UPPER,
    from_table,
    to_table,
)
from zerosum.search.types import INF, WIN, loss_in, win_in

SCORES = [0, 1, -1, 57, -3000, win_in(1), win_in(9), loss_in(2), loss_in(40), win_in(9_000)]


@pytest.mark.parametrize("score", SCORES)
def test_scores_round_trip_at_the_same_ply(score: int) -> None:
    for ply in (0, 1, 7, 200):
        assert from_table(to_table(score, ply), ply) == score


def test_a_stored_win_keeps_its_distance_from_the_position() -> None:
    # A win 5 plies below a position found at ply 3 (root-relative WIN - 8)
    # is the same win when the position is reached at ply 1 or at ply 6.
    stored = to_table(win_in(3 + 5), 3)
    assert from_table(stored, 1) == win_in(1 + 5)
    assert from_table(stored, 6) == win_in(6 + 5)
    stored = to_table(loss_in(3 + 4), 3)
    assert from_table(stored, 0) == loss_in(4)
    assert from_table(stored, 10) == loss_in(14)


def test_heuristic_scores_are_not_adjusted() -> None:
    assert to_table(123, 9) == 123 and from_table(-77, 4) == -77
    assert to_table(MATE - 1, 50) == MATE - 1


def test_missing_bounds_stay_missing_after_conversion() -> None:
    table = TranspositionTable(11)
    table.store("k", ply=9, lower=NO_LOWER, upper=20, depth=3)
    entry = table.probe("k", ply=0)
    assert entry is not None
    assert entry.lower < -INF and entry.upper == 20 and entry.bound == "upper"
    entry = table.probe("k", ply=500)
    assert entry is not None and entry.lower < -INF


def test_store_probe_and_merge_of_two_bounds() -> None:
    table = TranspositionTable(101)
    table.store("a", ply=2, lower=NO_LOWER, upper=win_in(9), depth=DEPTH_INF, move=4)
    table.store("a", ply=2, lower=win_in(9), upper=NO_UPPER, depth=DEPTH_INF)
    entry = table.probe("a", ply=2)
    assert entry is not None
    assert entry.lower == entry.upper == win_in(9) and entry.bound == "exact"
    assert entry.move == 4  # a store without a move keeps the old one
    assert table.probe("b", ply=2) is None


def test_inconsistent_bounds_never_make_lower_above_upper() -> None:
    table = TranspositionTable(5)
    table.store("a", ply=0, lower=10, upper=NO_UPPER, depth=4)
    table.store("a", ply=0, lower=NO_LOWER, upper=3, depth=4)  # disagrees: replaces
    entry = table.probe("a", ply=0)
    assert entry is not None and entry.lower <= entry.upper and entry.upper == 3


def test_depth_preferred_within_a_search_and_replaced_across_searches() -> None:
    table = TranspositionTable(1)  # every key shares the one slot
    table.store("deep", ply=0, lower=1, upper=1, depth=9)
    table.store("shallow", ply=0, lower=2, upper=2, depth=3)
    assert table.probe("deep", ply=0) is not None  # kept: deeper, same search
    assert table.probe("shallow", ply=0) is None
    table.store("equal", ply=0, lower=2, upper=2, depth=9)
    assert table.probe("equal", ply=0) is not None  # as deep: replaces
    table.new_search()
    table.store("new", ply=0, lower=0, upper=0, depth=1)
    assert table.probe("new", ply=0) is not None  # older generation: replaced
    assert table.probe("equal", ply=0) is None


def test_size_is_a_hard_bound() -> None:
    table = TranspositionTable(13)
    rng = random.Random(3)
    for i in range(2_000):
        depth = rng.randrange(1, 20)
        table.store(rng.randrange(10**9), ply=0, lower=i, upper=i, depth=depth)
        if i % 500 == 0:
            table.new_search()
    assert len(table.slots) == 13
    assert len(table) <= 13
    table.clear()
    assert len(table) == 0 and len(table.slots) == 13


def test_bad_size_is_refused() -> None:
    with pytest.raises(ZerosumError):
        TranspositionTable(0)
    with pytest.raises(ZerosumError):
        EngineOptions(tt_size=0)


#: The backends to test (the native one when numba is installed).
BACKENDS = ["python", *(["native"] if zerosum.native.available() else [])]


def _all_entries_consistent(table: Iterable[tuple[Any, int, int, int, Any, int]]) -> None:
    for key, lower, upper, depth, _move, _generation in table:
        assert lower <= upper, (key, lower, upper)
        assert lower < WIN + 1 or lower == NO_UPPER  # never an impossible bound
        assert depth >= 0


@pytest.fixture(scope="module")
def tictactoe_sample() -> list[tuple[Any, int]]:
    """120 seeded tic-tac-toe positions (2 to 6 marks) with reference values."""
    game = zerosum.load("tictactoe")
    rng = random.Random(11)
    sample: list[tuple[Any, int]] = []
    while len(sample) < 120:
        state = game.initial_state()
        for _ in range(rng.randrange(2, 7)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
        if not game.is_terminal(state):
            sample.append((state, reference.value(game, state)[0]))
    return sample


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("size", [1, 7, 101, 100_003])
def test_engine_is_exact_with_any_table_size(
    size: int, backend: str, tictactoe_sample: list[tuple[Any, int]]
) -> None:
    """Tiny tables force collisions and replacements on nearly every store;
    values must stay exact and every entry consistent (on each backend)."""
    game = zerosum.load("tictactoe")
    engine = Engine(game, EngineOptions(tt_size=size, backend=backend))
    for state, expected in tictactoe_sample:
        assert engine.search(state).score.raw == expected
        assert solve(game, state, engine=engine).score.raw == expected
    assert engine.table is not None
    assert len(engine.table) <= size
    _all_entries_consistent(engine.table)


def test_symmetric_table_holds_one_entry_per_class_in_the_canonical_frame() -> None:
    game: Any = zerosum.load("tictactoe")
    engine = Engine(game, EngineOptions(symmetry=True, backend="python"))
    solve(game, game.initial_state(), engine=engine)
    assert engine.table is not None
    entries = list(engine.table)
    assert entries
    cells = game.cells
    for key, lower, upper, _depth, move, _generation in entries:
        x, o = key >> cells, key & ((1 << cells) - 1)
        state = game.parse_position(
            "/".join(
                "".join(
                    "x" if x >> (3 * r + c) & 1 else "o" if o >> (3 * r + c) & 1 else "."
                    for c in range(3)
                )
                for r in range(3)
            )
        )
        canonical_key, _ = game.canonical(state)
        assert key == canonical_key  # stored under its class representative
        if move is not None:
            assert move in game.actions(state)  # the move is in that frame
        assert lower <= upper
    keys = [entry[0] for entry in entries]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("backend", BACKENDS)
def test_symmetry_shrinks_the_table(backend: str) -> None:
    game = zerosum.load("tictactoe")
    plain = Engine(game, EngineOptions(symmetry=False, backend=backend))
    symmetric = Engine(game, EngineOptions(symmetry=True, backend=backend))
    solve(game, game.initial_state(), engine=plain)
    solve(game, game.initial_state(), engine=symmetric)
    assert plain.table is not None and symmetric.table is not None
    assert len(symmetric.table) * 3 < len(plain.table)


def test_stored_moves_are_legal_and_values_match_the_reference() -> None:
    """Every exact entry the solver leaves is the position's true value, at
    the position's own distance (the conversion is the one the engine uses)."""
    game: Any = zerosum.load("connect4(width=4,height=4)")
    engine = Engine(game)
    state = game.play(list("1212"))
    solve(game, state, engine=engine)
    assert engine.table is not None
    positions: dict[Any, Any] = {}
    stack = [state]
    while stack and len(positions) < 4000:
        s = stack.pop()
        if game.key(s) in positions or game.is_terminal(s):
            continue
        positions[game.key(s)] = s
        stack.extend(game.result(s, m) for m in game.actions(s))
    checked = 0
    for key, lower, upper, _depth, move, _generation in engine.table:
        s = positions.get(key)
        if s is None:
            continue
        if move is not None:
            assert move in game.actions(s)
        if lower == upper and checked < 60:
            value, _ = reference.value(game, s)
            assert from_table(lower, 0) == value
            checked += 1
    assert checked > 10


def test_a_positions_deeper_result_survives_a_new_search() -> None:
    table = TranspositionTable(3)
    table.store("p", ply=0, lower=0, upper=0, depth=DEPTH_INF)
    table.new_search()
    table.store("p", ply=0, lower=NO_LOWER, upper=40, depth=4)  # a horizon-limited result
    entry = table.probe("p", ply=0)
    assert entry is not None and entry.lower == entry.upper == 0
    assert entry.depth == DEPTH_INF


def test_generations_count_exactly_the_entries_stored_since_the_last_clear() -> None:
    """``ttformat.Generations`` against a model that remembers when each
    entry was stored: over 3,000 seeded steps of searches, clears and stores
    into 50 slots, an entry is live (``is_live`` on the clock) exactly when
    it was stored after the last clear, once the slots are zeroed whenever
    ``new_search`` or ``clear`` says so; and a table cleared before every
    search is zeroed once every 16 searches, not more."""
    from zerosum.search.ttformat import GENERATIONS, Generations, is_live

    rng = random.Random(26)
    generations = Generations()
    slots: list[tuple[int, int] | None] = [None] * 50  # (generation, epoch stored)
    epoch = 0  # clears so far
    zeroings = 0
    for _step in range(3000):
        action = rng.random()
        if action < 0.1:
            epoch += 1
            if generations.clear():
                slots = [None] * 50
                zeroings += 1
        elif action < 0.3:
            if generations.new_search():
                slots = [None] * 50
                zeroings += 1
        else:
            slots[rng.randrange(50)] = (generations.current, epoch)
        for slot in slots:
            if slot is not None:
                assert is_live(slot[0], generations.clock) == (slot[1] == epoch)
    assert zeroings > 0

    cleared = Generations()
    zeroed = 0
    for _search in range(10 * GENERATIONS):
        zeroed += cleared.clear()
        zeroed += cleared.new_search()
    assert zeroed == 10
