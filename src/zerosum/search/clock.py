"""Time management: how long one move may take, from the time control.

Every front end that plays under a clock asks this module, never does its own
arithmetic: the engine protocol (``go p1time ... movestogo ...`` or ``go
movetime``), the match runner (how long to wait for a program's answer) and
any clock a browser shows. It knows nothing of games or of the search; it
turns the clock's figures into a :class:`MoveBudget`:

* ``soft`` -- the time the search is given (``Limits.time``): the engine
  starts no new iteration after half of it and stops at it;
* ``hard`` -- the most this move may take before its player is late: a
  caller waiting for the move gives up after it (plus its own delays).

The reserve kept in hand for the protocol's own delays (reading the command,
writing ``bestmove``, the other side's reading) is proportional to the time,
within bounds: a fixed reserve took 30 ms of ``movetime 20`` (1 ms left to
search, and a blunder); a tenth, at most :data:`RESERVE_MOST`, keeps
``movetime 20`` at 18 ms and ``movetime 1000`` at 950 ms.

>>> budget = move_budget(movetime=20)
>>> round(budget.soft, 4), round(budget.hard, 4)
(0.018, 0.018)
>>> budget = move_budget(remaining=60.0, increment=1.0)
>>> round(budget.soft, 3), round(budget.hard, 3)
(3.7, 11.2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .types import MAX_SECONDS

#: The share of the time left spent on one move when the number of moves to
#: the next time control is not given (a game of about 40 moves a side spends
#: its clock slowly at first, as engines do).
TIME_SHARE = 1 / 20
#: The share of the increment spent on top (the rest builds a cushion).
INCREMENT_SHARE = 3 / 4
#: The reserve for the protocol's delays: this share of the move's time ...
RESERVE_SHARE = 1 / 10
#: ... but never more than this (seconds).
RESERVE_MOST = 0.05
#: Nor less than this (seconds): a clock this short is answered at once.
SHORTEST = 0.001
#: The hard limit allows this many times the soft one (an iteration that
#: started before the soft limit may finish) ...
HARD_FACTOR = 3.0
#: ... but never more than this share of the time left (a clock is never
#: spent on one move).
HARD_SHARE = 1 / 2


@dataclass(frozen=True)
class MoveBudget:
    """What one move may spend, in seconds: ``soft`` (the search's time
    limit) and ``hard`` (the most before the player is late); ``0 <
    soft <= hard``."""

    soft: float
    hard: float


def _reserve(seconds: float) -> float:
    return min(seconds * RESERVE_SHARE, RESERVE_MOST)


def move_budget(
    *,
    remaining: float | None = None,
    increment: float = 0.0,
    moves_to_go: int | None = None,
    movetime: float | None = None,
) -> MoveBudget:
    """The budget of the move to make now, in seconds.

    ``movetime`` (a fixed time for this move) wins over a clock: the whole
    of it less the reserve, soft and hard alike. Otherwise ``remaining`` (the
    mover's time left), ``increment`` (added after each move) and
    ``moves_to_go`` (moves to the next time control; None: sudden death)
    give ``soft = remaining / moves_to_go`` (or :data:`TIME_SHARE` of it)
    plus :data:`INCREMENT_SHARE` of the increment, and ``hard`` up to
    :data:`HARD_FACTOR` times that, never above :data:`HARD_SHARE` of the time
    left; both less the reserve, and at least :data:`SHORTEST`.

    Raises ``ValueError`` for a time that is negative, not a number, or
    above :data:`~zerosum.search.types.MAX_SECONDS`, or when neither
    ``movetime`` nor ``remaining`` is given."""
    for name, value in (("remaining", remaining), ("increment", increment),
                        ("movetime", movetime)):  # fmt: skip
        if value is not None and not (0 <= value <= MAX_SECONDS):  # NaN fails too
            raise ValueError(f"{name} must be between 0 and {MAX_SECONDS:g} s, got {value}")
    if moves_to_go is not None and moves_to_go < 1:
        raise ValueError(f"moves_to_go must be at least 1, got {moves_to_go}")
    if movetime is not None:
        seconds = max(movetime - _reserve(movetime), SHORTEST)
        return MoveBudget(seconds, seconds)
    if remaining is None:
        raise ValueError("expected movetime or remaining")
    share = 1 / moves_to_go if moves_to_go is not None else TIME_SHARE
    target = remaining * share + increment * INCREMENT_SHARE
    cap = remaining * HARD_SHARE  # a clock is never spent on one move
    soft = min(target, cap)
    hard = min(target * HARD_FACTOR, cap)
    soft = max(soft - _reserve(soft), SHORTEST)
    hard = max(hard - _reserve(hard), soft)
    assert math.isfinite(hard)
    return MoveBudget(soft, hard)


def wait_limit(seconds: float, grace: float) -> float:
    """How long a caller waits for a move given ``seconds`` to think: the
    time, plus ``grace`` for starting, compiling or a loaded machine, and
    never beyond :data:`~zerosum.search.types.MAX_SECONDS` (a wait that long
    could not be passed to the operating system's timers)."""
    return min(max(seconds, 0.0) + grace, MAX_SECONDS)
