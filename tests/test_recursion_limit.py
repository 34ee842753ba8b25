"""Nothing a search does changes Python's process-wide recursion limit
(issue 26, item 2).

The reference search and the browser's message decoder once lowered the
limit around their work while another thread searched a deep game with it
raised: that thread then failed with RecursionError. They now bound their
depth themselves, so the limit stays where it was set once.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import zerosum
from zerosum.game import ZerosumError
from zerosum.search import reference
from zerosum.search.engine import EngineOptions
from zerosum.search.solver import solve
from zerosum.web.messages import ProtocolError, decode

ROOT = Path(__file__).resolve().parents[1]


def _countdown(pile: int) -> Any:
    spec = importlib.util.spec_from_file_location("countdown", ROOT / "examples" / "countdown.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # registers the game
    return zerosum.load(f"countdown(pile={pile})")


def test_no_search_sets_the_recursion_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every setrecursionlimit call during a reference search, a rejected
    deep reference search, an engine solve and a message decode is noted:
    there must be none."""
    game = _countdown(1000)  # importing the engine has set the limit once already
    calls: list[int] = []
    monkeypatch.setattr(sys, "setrecursionlimit", calls.append)
    tictactoe = zerosum.load("tictactoe")
    reference.value(tictactoe, tictactoe.play("0 4".split()))
    reference.solve(tictactoe, tictactoe.play("0 4 8".split()))
    with pytest.raises(ZerosumError, match="too long"):
        reference.value(game, game.initial_state())
    result = solve(game, game.initial_state(), options=EngineOptions(backend="python"))
    # A multiple of 4 loses; the loser takes 1 a turn, the winner 3: 500 plies.
    assert (result.score.outcome, result.score.plies) == (-1, 500)
    decode('{"type": "hello"}')
    with pytest.raises(ProtocolError, match="nested too deeply"):
        decode("[" * 5000 + "]" * 5000)
    assert calls == []


def test_a_deep_solve_beside_reference_searches_and_messages() -> None:
    """One thread solves Countdown with 1,000 counters on the Python backend
    (1,000 plies deep: it needs the raised limit) again and again while
    another runs reference searches and decodes deeply nested messages:
    no RecursionError, and the limit is never lowered."""
    game = _countdown(1000)
    tictactoe = zerosum.load("tictactoe")
    start = tictactoe.play("0 4".split())
    limit = sys.getrecursionlimit()
    failures: list[BaseException] = []
    done = threading.Event()

    def other() -> None:
        try:
            while not done.is_set():
                reference.value(tictactoe, start)
                with contextlib.suppress(ProtocolError):
                    decode("[" * 3000 + "]" * 3000)
                assert sys.getrecursionlimit() == limit
        except BaseException as error:  # reported below
            failures.append(error)

    thread = threading.Thread(target=other)
    thread.start()
    try:
        for _ in range(10):
            result = solve(game, game.initial_state(), options=EngineOptions(backend="python"))
            assert result.score.plies == 500
    finally:
        done.set()
        thread.join()
    assert failures == []
    assert sys.getrecursionlimit() == limit
