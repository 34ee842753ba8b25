"""The native transposition table's speed devices change nothing a search
finds: the child-slot prefetch (``Primitives.prefetch``) keeps every value
and node count, ``clear`` (by a generation) forgets every entry, one table
serves engine after engine, the kernel's policy is ``search/ttformat.py``'s,
and the
compiled table line (``native/pvline.py``) follows the Python rule
(``CoreReports.table_line``) move for move."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from conftest import shared_data

import zerosum
from zerosum.datasets import read_connect4_set
from zerosum.search.engine import EngineOptions

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from zerosum.native import adapter_for  # noqa: E402
from zerosum.native.core import NativeCore  # noqa: E402
from zerosum.native.table import NativeTable, prefetch_slot  # noqa: E402


class _WithoutPrefetch:
    """Connect Four's adapter with the prefetch switched off (its own
    kernel: the kind names the compiled copy)."""

    def __init__(self, adapter: Any) -> None:
        self.kind = "connect4_noprefetch"
        self.prims = dataclasses.replace(adapter.prims, prefetch=False)
        self.constants = adapter.constants
        self.encode = adapter.encode
        self.action = adapter.action
        self.code = adapter.code


def _search_all(game: Any, adapter: Any, states: list[Any]) -> list[tuple[int, int, int]]:
    """Each state's value for its mover (an exact search with an open
    window), with the core's position and table-hit counts."""
    out = []
    for state in states:
        table = NativeTable.of_megabytes(1)
        core = NativeCore(
            game, adapter, EngineOptions(), table, np.zeros(1, np.int64), None, None,
            RuntimeError,
        )
        value = core.child_value(state, 0, 0, 1 << 30, -(10**6), 10**6)
        nodes, _leaves, _cuts, _probes, hits, _horizon = core.counts()
        out.append((value, nodes, hits))
    return out


def test_the_prefetch_changes_no_value_and_no_node_count() -> None:
    game = zerosum.load("connect4")
    adapter = adapter_for(game)
    assert adapter.prims.prefetch  # (else this test compares a kernel with itself)
    path = shared_data("connect4/Test_L2_R1")
    states = [game.parse_position(moves) for moves, _ in read_connect4_set(path, 40)]
    with_prefetch = _search_all(game, adapter, states)
    without = _search_all(game, _WithoutPrefetch(adapter), states)
    assert with_prefetch == without
    assert sum(nodes for _v, nodes, _h in without) > 40 * 50  # real searches


def test_prefetch_slot_reads_nothing_and_writes_nothing() -> None:
    from numba import njit

    @njit(cache=False)
    def touch(slots: Any, key: int) -> Any:
        prefetch_slot(slots, key % slots.shape[0])
        return slots[key % slots.shape[0], 1]

    slots = np.arange(22, dtype=np.uint64).reshape(11, 2)
    before = slots.copy()
    assert touch(slots, 25) == 7  # slot 3, word 1
    assert (slots == before).all()


def test_a_cleared_table_searches_as_a_new_one() -> None:
    """``clear`` opens a generation instead of zeroing the slots (issue 26):
    one table cleared before each of 40 searches (so its 16 generation
    values wrap round twice, and it is zeroed on the way) gives every value,
    position count and table hit count that a new table gives, and holds no
    live entry right after each clear."""
    game = zerosum.load("connect4")
    adapter = adapter_for(game)
    path = shared_data("connect4/Test_L2_R1")
    states = [game.parse_position(moves) for moves, _ in read_connect4_set(path, 40)]
    fresh = _search_all(game, adapter, states)
    table = NativeTable.of_megabytes(1)
    slots = table.slots
    reused = []
    for state in states:
        table.clear()
        assert len(table) == 0
        table.new_search()
        core = NativeCore(
            game, adapter, EngineOptions(), table, np.zeros(1, np.int64), None, None,
            RuntimeError,
        )
        value = core.child_value(state, 0, 0, 1 << 30, -(10**6), 10**6)
        nodes, _leaves, _cuts, _probes, hits, _horizon = core.counts()
        reused.append((value, nodes, hits))
        assert len(table) > 0
    assert reused == fresh
    assert table.slots is slots


def test_the_compiled_policy_is_the_python_policy() -> None:
    """The kernel compiles ``search/ttformat.py``'s rules as written: the
    compiled liveness, replacement decision and score conversion agree with
    the Python functions on every generation, window and depth order, and a
    packed entry unpacks (in Python, by the format's constants) to what was
    packed, at the ends of every field."""
    from numba import njit

    from zerosum.native import table as native_table
    from zerosum.search import ttformat as fmt

    for generation in range(fmt.GENERATIONS):
        for current in range(fmt.GENERATIONS):
            for window in range(1, fmt.GENERATIONS + 1):
                clock = current | (window << fmt.CLOCK_SHIFT)
                assert native_table.is_live(generation, clock) == fmt.is_live(generation, clock)
    for live in (False, True):
        for same in (False, True):
            for current in (False, True):
                for old, new in ((3, 5), (5, 5), (5, 3), (fmt.DEPTH_INF_N, 7)):
                    assert native_table.store_action(live, same, old, new, current) == (
                        fmt.store_action(live, same, old, new, current)
                    )
    for score in (0, 5, -5, fmt.MATE - 1, fmt.MATE, -fmt.MATE, fmt.NO_UPPER, fmt.NO_LOWER):
        for ply in (0, 1, 41):
            assert native_table.to_table(score, ply) == fmt.to_table(score, ply)
            assert native_table.from_table(score, ply) == fmt.from_table(score, ply)

    @njit(cache=False)
    def pack(lower: int, upper: int, move: int, depth: int, generation: int) -> Any:
        return native_table.pack_entry(lower, upper, move, depth, generation)

    from zerosum.native.table import Entry

    for lower, upper, move, depth, generation, stored_depth in (
        (fmt.NO_LOWER, fmt.NO_UPPER, -1, fmt.DEPTH_INF_N, 15, fmt.DEPTH_INF_N),
        (-(fmt.MATE + 3), fmt.MATE + 40, (1 << fmt.MOVE_BITS) - 2, 1, 0, 1),
        (0, 0, 0, 300, 7, fmt.DEPTH_CODE_MAX),
    ):
        entry = Entry.unpack(int(pack(lower, upper, move, depth, generation)))
        assert (entry.lower, entry.upper, entry.move, entry.depth, entry.generation) == (
            lower, upper, move, stored_depth, generation
        )


def test_engines_made_one_after_another_share_one_table() -> None:
    """A batch solves each position with a new engine (``zerosum solve
    --batch``); the table an engine gives back is the next one's, cleared,
    so the process faults its pages in once (issue 26: a new 64 MB table per
    position cost more system time than the search). The values and counts
    are those of a new table."""
    from zerosum.native import table as native_table
    from zerosum.search.engine import Engine
    from zerosum.search.solver import solve

    game = zerosum.load("connect4")
    path = shared_data("connect4/Test_L3_R1")
    states = [game.parse_position(moves) for moves, _ in read_connect4_set(path, 6)]
    made = native_table.made
    seen = set()
    counts = []
    for state in states:
        engine: Engine[Any] = Engine(game, EngineOptions(backend="native", hash_mb=1))
        seen.add(id(engine.table.slots))
        result = solve(game, state, engine=engine)
        counts.append((result.score.raw, result.stats.nodes))
        del engine
    assert native_table.made - made <= 1 and len(seen) == 1
    for state, count in zip(states, counts, strict=True):
        table = NativeTable.of_megabytes(1)
        engine = Engine(game, EngineOptions(backend="native", hash_mb=1))
        engine.table = table  # a table no search has used
        result = solve(game, state, engine=engine)
        assert (result.score.raw, result.stats.nodes) == count


@pytest.mark.parametrize("symmetry", [False, True])
def test_the_compiled_table_line_is_the_python_rule(symmetry: bool) -> None:
    from zerosum.search.engine import Engine
    from zerosum.search.node import CoreReports
    from zerosum.search.solver import solve

    game = zerosum.load("connect4")
    engine: Engine[Any] = Engine(game, EngineOptions(backend="native", symmetry=symmetry))
    path = shared_data("connect4/Test_L2_R1")
    lengths = 0
    for moves, _score in read_connect4_set(path, 30):
        root = game.parse_position(moves)
        engine.clear()
        result = solve(game, root, engine=engine)
        core = engine._core
        assert isinstance(core, NativeCore) and core.symmetric == symmetry
        for prefix, length in (((result.best_move,), 10_000), ((), 10_000), ((), 2)):
            compiled = core.table_line(root, prefix, length)
            assert compiled == CoreReports.table_line(core, root, prefix, length)
            lengths += len(compiled)
    assert lengths > 30 * 3  # lines of some length were compared
