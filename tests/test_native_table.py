"""The native transposition table's speed devices change nothing a search
finds: the child-slot prefetch (``Primitives.prefetch``) keeps every value
and node count, ``clear`` (by ``memset``) empties every slot, and the
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


def test_clear_empties_every_slot_of_the_same_array() -> None:
    table = NativeTable.of_megabytes(1)
    slots = table.slots
    slots[:, 0] = 12345
    slots[::7, 1] = 99
    table.new_search()
    table.clear()
    assert table.slots is slots
    assert not slots.any()
    assert len(table) == 0 and table.generation == 0


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
