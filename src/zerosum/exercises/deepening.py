"""Checker of the iterative-deepening exercise: search depth 1, 2, 3, ...
while there is time, and answer with the last *completed* depth's move.

The student's ``iterative_deepening(search, max_depth, time_left)`` gets
``search(depth)`` (the best move at that depth, or None when the time ran
out during that iteration) and ``time_left()`` (whether a new iteration may
start). The checker runs it on simulated clocks: each case says after how
many iterations time is up and whether the last one is cut short.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..i18n import _
from .verdict import Verdict, passed

#: (max_depth, iterations that may start, whether the last started one is
#: interrupted).
CASES = [(m, n, cut) for m in (1, 3, 6, 9) for n in range(1, 11) for cut in (False, True)]


def _move(depth: int) -> str:
    return f"move@{depth}"


def check_deepening(
    function: Callable[[Callable[[int], Any], int, Callable[[], bool]], Any],
) -> Verdict:
    """Accept only the right sequence of depths and the right answer."""
    name = "iterative_deepening"
    for index, (max_depth, allowed, cut) in enumerate(CASES, start=1):
        calls: list[int] = []

        def search(
            depth: int, calls: list[int] = calls, allowed: int = allowed, cut: bool = cut
        ) -> str | None:
            calls.append(depth)
            interrupted = len(calls) > allowed or (cut and len(calls) == allowed)
            return None if interrupted else _move(depth)

        def time_left(calls: list[int] = calls, allowed: int = allowed) -> bool:
            return len(calls) < allowed

        where = _("max_depth = {m}; time for {n} iteration(s){cut}").format(
            m=max_depth, n=allowed, cut=_(", the last one cut short") if cut else ""
        )
        try:
            answer = function(search, max_depth, time_left)
        except Exception as error:
            why = _("your function raised {error} here").format(
                error=f"{type(error).__name__}: {error}"
            )
            return Verdict(name, False, index, why, where=where)
        expected_calls = list(range(1, min(max_depth, allowed) + 1))
        completed = [d for d in expected_calls if not (cut and d == allowed)]
        expected = _move(completed[-1]) if completed else None
        if calls == expected_calls and answer == expected:
            continue
        if calls and calls[0] != 1:
            why = _(
                "the search must start at depth 1, then 2, 3, ...: it searched {depths}"
            ).format(depths=calls)
        elif calls != list(range(1, len(calls) + 1)):
            why = _("the depths must go up one at a time: it searched {depths}").format(
                depths=calls
            )
        elif len(calls) > len(expected_calls) and len(calls) > allowed:
            why = _(
                "a new iteration started after the time was up: check time_left() before each depth"
            )
        elif len(calls) > max_depth:
            why = _("it searched deeper than max_depth = {m}").format(m=max_depth)
        elif len(calls) < len(expected_calls):
            why = _("it stopped at depth {d} although there was time for depth {e}").format(
                d=len(calls), e=len(calls) + 1
            )
        elif answer is None and expected is not None:
            why = _(
                "an unfinished iteration's answer (None) was used: keep the move of the last"
                " depth that completed"
            )
        else:
            why = _("expected {expected!r}, got {answer!r}").format(
                expected=expected, answer=answer
            )
        return Verdict(name, False, index, why, where=where)
    return passed(name, len(CASES))
