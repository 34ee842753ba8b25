"""Time management (``zerosum.search.clock``): the arithmetic of a move's
budget, and the limits no search may take (issue 22, item 2)."""

from __future__ import annotations

import threading
import time

import pytest
from support import run_cli

from zerosum.game import ZerosumError
from zerosum.search.clock import (
    HARD_FACTOR,
    RESERVE_MOST,
    SHORTEST,
    TIME_SHARE,
    MoveBudget,
    move_budget,
    wait_limit,
)
from zerosum.search.types import MAX_BUDGET, MAX_SECONDS, Limits


def test_movetime_keeps_a_proportional_reserve() -> None:
    # issue 26 item 17: a fixed 30 ms reserve left 1 ms of 'movetime 20'
    budget = move_budget(movetime=0.020)
    assert budget.soft == budget.hard == pytest.approx(0.018)
    assert move_budget(movetime=0.005).soft == pytest.approx(0.0045)
    # the reserve stops growing at RESERVE_MOST
    assert move_budget(movetime=1.0).soft == pytest.approx(1.0 - RESERVE_MOST)
    assert move_budget(movetime=100.0).soft == pytest.approx(100.0 - RESERVE_MOST)
    # nothing left: answer at once, never a budget of zero
    assert move_budget(movetime=0.0) == MoveBudget(SHORTEST, SHORTEST)


@pytest.mark.parametrize("remaining", [0.05, 0.5, 3.0, 60.0, 3600.0])
@pytest.mark.parametrize("increment", [0.0, 0.1, 2.0])
@pytest.mark.parametrize("moves_to_go", [None, 1, 2, 40])
def test_a_clock_is_never_spent_on_one_move(
    remaining: float, increment: float, moves_to_go: int | None
) -> None:
    budget = move_budget(remaining=remaining, increment=increment, moves_to_go=moves_to_go)
    assert SHORTEST <= budget.soft <= budget.hard
    # at most half of what is left (or the shortest answer when nothing is)
    assert budget.hard <= max(remaining / 2, SHORTEST)
    share = 1 / moves_to_go if moves_to_go else TIME_SHARE
    target = remaining * share + increment * 3 / 4
    assert budget.soft <= target
    assert budget.hard <= target * HARD_FACTOR


def test_clock_figures_worked_by_hand() -> None:
    # 60 s and 1 s a move: 60/20 + 0.75 = 3.75 s, less a 0.05 s reserve;
    # the hard limit three times that (11.25 s), less the reserve
    budget = move_budget(remaining=60.0, increment=1.0)
    assert budget.soft == pytest.approx(3.70)
    assert budget.hard == pytest.approx(11.20)
    # 10 s for 5 moves: 2 s (less 0.05), hard capped at half the clock (5 s)
    budget = move_budget(remaining=10.0, moves_to_go=5)
    assert budget.soft == pytest.approx(1.95)
    assert budget.hard == pytest.approx(4.95)
    # 100 ms left: 5 ms less a 0.5 ms reserve; hard 15 ms less 1.5 ms
    budget = move_budget(remaining=0.1)
    assert budget.soft == pytest.approx(0.0045)
    assert budget.hard == pytest.approx(0.0135)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"movetime": 1e10},
        {"movetime": -1.0},
        {"movetime": float("nan")},
        {"remaining": 1e20},
        {"remaining": 10.0, "increment": float("inf")},
        {"remaining": 10.0, "moves_to_go": 0},
        {},
    ],
)
def test_impossible_clocks_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        move_budget(**kwargs)  # type: ignore[arg-type]


def test_waits_are_bounded() -> None:
    assert wait_limit(1.0, 5.0) == 6.0
    assert wait_limit(-3.0, 5.0) == 5.0
    assert wait_limit(MAX_SECONDS, 5.0) == MAX_SECONDS


def test_limits_beyond_the_sane_maximum_are_refused() -> None:
    # issue 22 item 2: 1e10 s overflowed the deadline thread's timeout
    with pytest.raises(ZerosumError, match="at most"):
        Limits(time=1e10)
    with pytest.raises(ZerosumError, match="at most"):
        Limits(nodes=10**23)
    with pytest.raises(ZerosumError, match="at most"):
        Limits(iterations=MAX_BUDGET + 1)
    assert Limits(time=MAX_SECONDS).time == MAX_SECONDS
    assert Limits(nodes=MAX_BUDGET).nodes == MAX_BUDGET


def test_the_deadline_thread_survives_a_deadline_too_far_to_sleep_until() -> None:
    """Issue 22 item 2: a deadline 1e10 s away made the watcher's wait raise
    OverflowError, which ended the thread for good; a later deadline then
    never fired. (Failed before the change: the second deadline never came.)"""
    pytest.importorskip("numpy")
    from zerosum.native.core import _Watcher

    watcher = _Watcher()
    fired = threading.Event()

    class Search:
        def far(self) -> None:  # pragma: no cover - never due
            raise AssertionError("a deadline 1e10 s away fired")

        def soon(self) -> None:
            fired.set()

        def broken(self) -> None:
            raise RuntimeError("an expiry that fails")

    search = Search()
    watcher.add(time.perf_counter() + 1e10, search.far)
    watcher.add(time.perf_counter() + 0.001, search.broken)
    watcher.add(time.perf_counter() + 0.01, search.soon)
    # a bound on waiting, not a speed verdict: the deadline is 10 ms away
    assert fired.wait(60), "the deadline thread died"
    assert watcher.alive()


@pytest.mark.parametrize(
    "args",
    [
        ("analyze", "connect4", "--time", "1e10"),
        ("analyze", "connect4", "--nodes", "99999999999999999999999"),
        ("match", "tictactoe", "engine:time=1e10", "random", "--games", "1"),
        ("match", "tictactoe", 'cmd:"zerosum engine tictactoe",time=1e10', "random"),
    ],
)
def test_the_command_line_refuses_limits_beyond_the_maximum(args: tuple[str, ...]) -> None:
    """Issue 22 item 2 (failed before: the first ran on with a dead deadline
    thread, the match played on with it, and the program's wait overflowed)."""
    done = run_cli(*args)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "at most" in lines[0], done.stderr
    assert "Traceback" not in done.stderr
