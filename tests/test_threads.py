"""One native search on several threads (``zerosum.native.smp``): the same
exact values and best-move sets as one thread, over every built-in game
with native code; stopping; node counts summed over the threads; the
table's slots safe to share; ``--threads`` at the command line."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from support import HANG_GUARD, run_cli, sample_positions

import zerosum
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import SolveInterrupted, solve
from zerosum.search.types import Limits

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from zerosum.native.smp import Lanes, shared_flags  # noqa: E402
from zerosum.native.table import NativeTable  # noqa: E402

#: Games with native code, and how far into a random game their positions
#: are (small enough that each solve takes a few thousand positions).
CASES = [
    ("tictactoe", range(0, 7), 300),
    ("mnk(m=4,n=4,k=3)", range(2, 10), 300),
    ("connect4(width=5,height=4)", range(4, 15), 300),
    ("connect4", range(22, 36), 300),
    ("domineering(rows=5,cols=5)", range(1, 7), 300),
    ("domineering(rows=4,cols=7)", range(1, 6), 200),
    ("othello(size=6)", range(20, 28), 200),
    ("othello", range(48, 56), 200),
]


def _engines(game: Any) -> dict[int, Engine[Any]]:
    return {
        threads: Engine(game, EngineOptions(threads=threads, backend="native", hash_mb=4))
        for threads in (1, 2)
    }


@pytest.mark.parametrize(("spec", "plies", "count"), CASES, ids=[c[0] for c in CASES])
def test_threaded_solves_agree_with_one_thread(spec: str, plies: range, count: int) -> None:
    """A strong solve's value and every optimal move (the solver's compiled
    loop, and its Python loop when progress is asked for) on 1 and 2
    threads, each position from an empty table."""
    game = zerosum.load(spec)
    engines = _engines(game)
    states = sample_positions(game, plies, count, seed=19)
    assert len(states) == count
    nodes = {1: 0, 2: 0}
    for index, state in enumerate(states):
        found = {}
        for threads, engine in engines.items():
            engine.clear()
            progress = (lambda _p: None) if index % 2 else None
            result = solve(game, state, engine=engine, on_progress=progress)
            assert result.score.exact
            found[threads] = (result.score.raw, result.best_moves)
            nodes[threads] += result.stats.nodes
        assert found[2] == found[1], game.format_position(state)
    assert nodes[1] > 10 * count  # real searches, not table or hook answers


@pytest.mark.parametrize(
    ("spec", "plies", "count"), [CASES[2], CASES[4], CASES[6]], ids=["connect4", "dom", "oth"]
)
def test_threaded_analyses_agree_with_one_thread(spec: str, plies: range, count: int) -> None:
    """Every root move's exact score by the engine's analysis (its open
    windows, iterative deepening to the end) on 1 and 2 threads."""
    game = zerosum.load(spec)
    engines = _engines(game)
    for state in sample_positions(game, plies, count // 5, seed=23):
        found = {}
        for threads, engine in engines.items():
            engine.clear()
            result = engine.analyze(state, Limits())
            assert all(line.score.exact for line in result.moves)
            found[threads] = sorted((str(line.move), line.score.raw) for line in result.moves)
        assert found[2] == found[1], game.format_position(state)


def test_stop_ends_a_threaded_solve_and_every_thread() -> None:
    """``Engine.stop`` from another thread ends a 2-thread solve of the
    empty Connect Four board (hours of work): the solve is interrupted and
    no thread writes the table afterwards."""
    game = zerosum.load("connect4")
    engine = Engine(game, EngineOptions(threads=2, backend="native", hash_mb=8))
    outcome: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            solve(game, game.initial_state(), engine=engine)
        except SolveInterrupted as stopped:
            outcome.append(stopped)
        finally:
            done.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    time.sleep(0.3)
    # (a stop before the search starts is cleared by it: ask until it ends)
    while not done.wait(0.02):
        engine.stop()
    thread.join(HANG_GUARD)
    assert done.is_set() and len(outcome) == 1
    assert isinstance(outcome[0], SolveInterrupted)
    assert outcome[0].stats.nodes > 0
    assert engine.table is not None
    before = engine.table.slots.copy()
    time.sleep(0.2)
    assert (engine.table.slots == before).all()


@pytest.mark.parametrize("progress", [False, True], ids=["compiled-loop", "python-loop"])
def test_a_node_budget_bounds_the_positions_summed_over_threads(progress: bool) -> None:
    """Each of the 2 threads searches its half of the budget: the solve
    stops with the positions of both (each thread's share used up, the
    root's count besides)."""
    game = zerosum.load("connect4")
    engine = Engine(game, EngineOptions(threads=2, backend="native", hash_mb=8))
    budget = 200_000
    with pytest.raises(SolveInterrupted) as stopped:
        solve(
            game, game.initial_state(), engine=engine, limits=Limits(nodes=budget),
            on_progress=(lambda _p: None) if progress else None,
        )
    nodes = stopped.value.stats.nodes
    assert budget * 0.9 <= nodes <= budget + 200, nodes


def test_a_race_sums_the_counters_and_keeps_the_winners_horizon() -> None:
    """``Lanes.race``: the first lane to finish stops the others; positions,
    leaves, cut-offs, probes and hits are summed over the lanes, the horizon
    count (which says whether the value is exact) is the winner's."""
    game = zerosum.load("tictactoe")
    from zerosum.native import adapter_for

    prims = adapter_for(game).prims
    lanes = Lanes(prims, 3, shared_flags([1, 1, 1, 1, 1], 3))
    counters = np.zeros(8, dtype=np.int64)
    counters[5] = 7

    def call(lane: Any, stop: Any, limit: int) -> Any:
        index = next(i for i, other in enumerate(lanes.lanes) if other is lane)
        lane.counters[:6] = [10 * (index + 1), 1, 2, 3, 4, 100 + index]
        if index == 1:
            return 42  # finishes
        while stop[0] == 0:  # the others run until stopped
            time.sleep(0.001)
        return None

    winner, results = lanes.race(call, lambda v: v == 42, np.zeros(1, np.int64), counters, 1000)
    assert winner == 1 and results[1] == 42
    assert counters[:6].tolist() == [60, 3, 6, 9, 12, 7 + 101]


def test_a_slot_torn_by_two_writers_matches_no_key() -> None:
    """Word 0 of a slot is the key xor word 1: a slot whose word 1 comes
    from another write than its word 0 is no entry of the key."""
    table = NativeTable.of_slots(11)
    key = 12345
    data = (3 << 40) | 77  # some depth, bounds and generation
    other = (5 << 40) | 99
    slot = key % 11
    table.slots[slot, 0] = key ^ data
    table.slots[slot, 1] = data
    assert table.entry(key) is not None
    table.slots[slot, 1] = other  # the other writer's word 1
    assert table.entry(key) is None


def test_threads_at_the_command_line() -> None:
    bad = run_cli("solve", "tictactoe", "--threads", "0")
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "threads from 1 to 256" in bad.stderr
    one = run_cli("solve", "tictactoe", "--moves", "0 4", "--threads", "1")
    two = run_cli("solve", "tictactoe", "--moves", "0 4", "--threads", "2", "--backend", "native")
    assert one.returncode == two.returncode == 0
    # the same value and optimal moves (the counts of positions may differ)
    assert one.stdout.split("Principal")[0] == two.stdout.split("Principal")[0]
    python = run_cli(
        "solve", "tictactoe", "--moves", "0 4", "--threads", "2", "--backend", "python"
    )
    assert python.returncode == 0
    assert "--threads needs the native backend; searching on one thread" in python.stderr
    assert python.stdout.split("Principal")[0] == one.stdout.split("Principal")[0]


def test_the_default_thread_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every core for solve and analyze (or $ZEROSUM_THREADS), one for play;
    --threads over both."""
    import argparse

    from zerosum.cli.commands import threads_for
    from zerosum.cli.usage import UsageError
    from zerosum.search.engine import every_core

    def asked(command: str, threads: int | None = None) -> int:
        return threads_for(argparse.Namespace(command=command, threads=threads))

    monkeypatch.delenv("ZEROSUM_THREADS", raising=False)
    assert asked("solve") == asked("analyze") == every_core() >= 1
    assert asked("play") == 1 and asked("play", 3) == 3 and asked("solve", 2) == 2
    monkeypatch.setenv("ZEROSUM_THREADS", "3")
    assert asked("solve") == 3 and asked("play") == 1 and asked("analyze", 1) == 1
    monkeypatch.setenv("ZEROSUM_THREADS", "many")
    with pytest.raises(UsageError, match="ZEROSUM_THREADS must be a number of threads"):
        asked("solve")
    done = run_cli("solve", "tictactoe", env={"ZEROSUM_THREADS": "0"})
    assert done.returncode == 2 and done.stderr.count("\n") == 1
