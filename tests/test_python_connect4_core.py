"""The Connect Four core of the Python backend
(``zerosum.search.cores.connect4``) against the generic ``PythonCore``: the
same values, distances, best moves, principal variations and position
counts, under every option it accepts and under limits; the published
scores of the benchmark sets; and the registry's choices."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

import pytest
from conftest import shared_data
from support import HANG_GUARD, playout_positions

import zerosum
from zerosum.datasets import connect4_score, read_connect4_set
from zerosum.games.connect4 import ConnectFour
from zerosum.search.cores import python_core_for
from zerosum.search.cores.connect4 import ConnectFourCore
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.node import PythonCore, SearchCore
from zerosum.search.solver import SolveInterrupted, solve
from zerosum.search.types import Limits, SearchResult

BASE = EngineOptions(backend="python")


class CoreEngine(Engine[Any]):
    """An engine whose searches run on ``core_class``: the engine's own
    ``_new_core`` does the bookkeeping (stop flag, table generation), then
    the core it built is replaced by one of ``core_class``, whatever the
    engine would have chosen."""

    core_class: Any = PythonCore

    def _new_core(self, limits: Limits, started: float) -> SearchCore:
        super()._new_core(limits, started)
        deadline = None if limits.time is None else started + limits.time
        core: SearchCore = self.core_class(
            self.game, self.options, self.table, self._stop, deadline, limits.nodes,
            self._scratch,
        )
        self._core = core
        return core


class GenericEngine(CoreEngine):
    core_class = PythonCore


class FastEngine(CoreEngine):
    core_class = ConnectFourCore


def pair(game: Any, options: EngineOptions = BASE) -> tuple[Engine[Any], Engine[Any]]:
    return GenericEngine(game, options), FastEngine(game, options)


def same(fast: SearchResult[Any], slow: SearchResult[Any], what: str) -> None:
    """Everything but the times: score, moves, line, depth, and the counts."""
    assert fast.score == slow.score, what
    assert fast.best_move == slow.best_move, what
    assert fast.best_moves == slow.best_moves, what
    assert fast.pv == slow.pv, what
    assert fast.depth == slow.depth, what
    assert fast.moves == slow.moves, what
    counts = ("nodes", "leaves", "cutoffs", "tt_probes", "tt_hits")
    assert [getattr(fast.stats, c) for c in counts] == [
        getattr(slow.stats, c) for c in counts
    ], what


def check_solves(game: Any, state: Any, engines: tuple[Engine[Any], Engine[Any]]) -> Any:
    """Strong and weak solves agree (each with a fresh table); returns the
    strong result."""
    generic, fast = engines
    strong = None
    for weak in (False, True):
        generic.clear()
        fast.clear()
        slow = solve(game, state, engine=generic, weak=weak)
        quick = solve(game, state, engine=fast, weak=weak)
        same(quick, slow, f"{game.format_position(state)} weak={weak}")
        if not weak:
            strong = quick
    return strong


# -- the registry ----------------------------------------------------------------
def test_the_registry_picks_the_core_only_where_it_gives_the_same_search() -> None:
    game: Any = zerosum.load("connect4")
    assert python_core_for(game, BASE) is ConnectFourCore
    assert python_core_for(zerosum.load("connect4(width=5,height=4)"), BASE) is ConnectFourCore
    for options in (
        replace(BASE, tt=False),
        replace(BASE, symmetry=True),
        replace(BASE, pvs=False, killers=False, history=False, static_order=False),
    ):
        assert python_core_for(game, options) is ConnectFourCore
    # Without the hooks the generic core searches every move with killers
    # and history: declined.
    assert python_core_for(game, replace(BASE, hooks=False)) is None
    assert python_core_for(game, EngineOptions.plain()) is None
    assert python_core_for(zerosum.load("tictactoe"), BASE) is None

    class Variant(ConnectFour):  # a subclass may change the rules
        pass

    assert python_core_for(Variant(), BASE) is None
    # A traced search watches the generic core's game and table calls.
    assert python_core_for(game, BASE, recorder=object()) is None
    scratch = Engine(game, BASE)._scratch
    with pytest.raises(ValueError, match="hooks"):
        ConnectFourCore(game, replace(BASE, hooks=False), None, threading.Event(), None, None,
                        scratch)
    with pytest.raises(ValueError, match="traced"):
        ConnectFourCore(game, BASE, None, threading.Event(), None, None, scratch, object())


# -- the published sets ----------------------------------------------------------
@pytest.mark.parametrize(("name", "count"), [("Test_L3_R1", 100), ("Test_L2_R1", 30)])
def test_solves_agree_with_the_generic_core_and_the_published_scores(
    name: str, count: int
) -> None:
    game = zerosum.load("connect4")
    engines = pair(game)
    for moves, expected in read_connect4_set(shared_data(f"connect4/{name}"), count):
        state = game.parse_position(moves)
        strong = check_solves(game, state, engines)
        assert connect4_score(game, state, strong.score.raw) == expected, moves


def test_a_table_shared_with_the_generic_core_gives_the_same_values() -> None:
    """The cores write the same entries: a table filled by one serves the
    other (a solve, then a search, then an analysis on the same engine)."""
    game = zerosum.load("connect4")
    rows = read_connect4_set(shared_data("connect4/Test_L2_R1"), 5)
    generic, fast = pair(game)
    for moves, _expected in rows:
        state = game.parse_position(moves)
        same(solve(game, state, engine=fast), solve(game, state, engine=generic), moves)
        same(fast.search(state, Limits(depth=7)), generic.search(state, Limits(depth=7)), moves)
        same(fast.analyze(state), generic.analyze(state), moves)


# -- random positions ------------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "count", "stones"),
    [
        ("connect4(width=4,height=4)", 80, 0),
        ("connect4(width=5,height=4)", 80, 4),
        ("connect4", 150, 18),
    ],
)
def test_solves_agree_on_random_positions(spec: str, count: int, stones: int) -> None:
    """Strong and weak solves of positions along random games (7x6: those
    with at least 18 stones, which the Python backend solves quickly)."""
    game = zerosum.load(spec)
    engines = pair(game)
    states = [
        s
        for s in playout_positions(game, count, seed=7)
        if not game.is_terminal(s) and s[1].bit_count() >= stones
    ]
    assert len(states) >= 10
    for state in states:
        check_solves(game, state, engines)


@pytest.mark.parametrize(
    ("spec", "count"),
    [
        ("connect4", 60),
        ("connect4(width=5,height=4)", 40),
        ("connect4(width=4,height=4)", 40),
        # Keys beyond 60 bits (the table's slot is hash(key) % size) and
        # lopsided boards.
        ("connect4(width=9,height=9)", 15),
        ("connect4(width=9,height=4)", 20),
        ("connect4(width=4,height=9)", 20),
    ],
)
def test_depth_limited_analysis_agrees_heuristic_scores_included(spec: str, count: int) -> None:
    """Every move's score at depth 5: the core's leaves are the game's
    ``evaluate``, its table entries the generic core's."""
    game = zerosum.load(spec)
    generic, fast = pair(game)
    for state in playout_positions(game, count, seed=3):
        if game.is_terminal(state):
            continue
        what = game.format_position(state)
        same(fast.analyze(state, Limits(depth=5)), generic.analyze(state, Limits(depth=5)), what)
        same(fast.search(state, Limits(depth=5)), generic.search(state, Limits(depth=5)), what)
    state = game.play(list("1"))
    same(
        fast.analyze(state, Limits(depth=4), multipv=2),
        generic.analyze(state, Limits(depth=4), multipv=2),
        "multipv",
    )


# -- options ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [
        replace(BASE, tt=False),
        replace(BASE, symmetry=True),
        replace(BASE, pvs=False),
        replace(BASE, killers=False, history=False),
        replace(BASE, static_order=False),
        replace(BASE, tt_size=1009),  # collisions: the replacement rules at work
    ],
    ids=["no-tt", "symmetry", "no-pvs", "no-killers-history", "column-order", "small-table"],
)
def test_every_accepted_option_gives_the_generic_search(options: EngineOptions) -> None:
    game = zerosum.load("connect4")
    engines = pair(game, options)
    rows = read_connect4_set(shared_data("connect4/Test_L3_R1"), 15)
    for moves, expected in rows:
        state = game.parse_position(moves)
        strong = check_solves(game, state, engines)
        assert connect4_score(game, state, strong.score.raw) == expected, moves
    small = zerosum.load("connect4(width=5,height=4)")
    generic, fast = pair(small, options)
    for state in playout_positions(small, 30, seed=2)[3::3]:
        if not small.is_terminal(state):
            what = small.format_position(state)
            same(fast.analyze(state, Limits(depth=5)), generic.analyze(state, Limits(depth=5)),
                 what)


def test_the_loose_bounds_of_a_game_without_mover_wins_only() -> None:
    game = zerosum.load("connect4")
    game.mover_wins_only = False  # the instance's declaration is honoured
    engines = pair(game)
    for moves, expected in read_connect4_set(shared_data("connect4/Test_L3_R1"), 10):
        state = game.parse_position(moves)
        strong = check_solves(game, state, engines)
        assert connect4_score(game, state, strong.score.raw) == expected, moves


def test_root_moves_that_end_the_game() -> None:
    """A root move that wins or fills the board: the child is terminal."""
    game = zerosum.load("connect4(width=4,height=4)")
    generic, fast = pair(game)
    win = game.play(list("112233"))  # Red wins at once in column 4
    full = game.play(list("432131114423423"))  # one cell left
    for state in (win, full):
        same(fast.analyze(state), generic.analyze(state), "terminal children")
        same(fast.analyze(state, Limits(depth=1)), generic.analyze(state, Limits(depth=1)),
             "depth 1")
        check_solves(game, state, (generic, fast))


# -- limits ----------------------------------------------------------------------
def test_a_node_budget_ends_the_search_where_the_generic_core_ends_it() -> None:
    game = zerosum.load("connect4")
    generic, fast = pair(game)
    start = game.initial_state()
    for nodes in (1, 50, 5000):
        quick = fast.search(start, Limits(nodes=nodes))
        slow = generic.search(start, Limits(nodes=nodes))
        assert quick.stats.nodes <= nodes + 1  # the root, counted before the budget is
        same(quick, slow, f"nodes={nodes}")
    with pytest.raises(SolveInterrupted) as stopped:
        solve(game, start, engine=fast, limits=Limits(nodes=2000))
    assert stopped.value.stats.nodes <= 2000 + 1
    assert stopped.value.lower < stopped.value.upper


def test_a_time_limit_ends_the_search() -> None:
    game = zerosum.load("connect4")
    _generic, fast = pair(game)
    start = game.initial_state()
    began = time.perf_counter()
    result = fast.search(start, Limits(time=0.2))
    # The limit ended it (the exact search takes hours): no verdict on how
    # soon, which depends on the machine's load; the guard catches a hang.
    assert not result.score.exact
    assert time.perf_counter() - began < HANG_GUARD
    assert result.best_move in game.actions(start)
    began = time.perf_counter()
    with pytest.raises(SolveInterrupted):
        solve(game, start, engine=fast, limits=Limits(time=0.2))
    assert time.perf_counter() - began < HANG_GUARD


def test_stop_from_another_thread_ends_a_solve_of_the_empty_board() -> None:
    game = zerosum.load("connect4")
    _generic, fast = pair(game)
    timer = threading.Timer(0.2, fast.stop)
    timer.start()
    began = time.perf_counter()
    result = fast.search(game.initial_state())  # an exact solve: hours in Python
    assert not result.score.exact
    assert time.perf_counter() - began < HANG_GUARD
    assert result.best_move in game.actions(game.initial_state())
    timer = threading.Timer(0.2, fast.stop)
    timer.start()
    with pytest.raises(SolveInterrupted):
        solve(game, game.initial_state(), engine=fast)
    timer.join()
