"""``--backend auto`` takes the backend that answers first for the search at
hand (issue 20, item 4): Python for a tiny game or a shallow search, whose
whole search costs less than loading the compiled code; the compiled one
elsewhere. Figures: benchmarks/README.md, "Which backend answers first"."""

from __future__ import annotations

import os
import subprocess
import sys

import zerosum
from zerosum.search.front import SHALLOW_DEPTH, TINY_PLIES, python_answers_first

PROBE = """
import sys
import zerosum
from zerosum.search.front import Searcher, SearchOptions
from zerosum.search.types import Limits
game = zerosum.load(sys.argv[1])
searcher = Searcher(game, SearchOptions(use_store=False, use_book=False))
depth = int(sys.argv[2]) if len(sys.argv) > 2 else None
if depth is None:
    searcher.solve(game.initial_state())
else:
    searcher.analyze(game.initial_state(), Limits(depth=depth))
print(searcher.backend, "numba" in sys.modules)
"""


def _probe(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True, text=True, timeout=600, env=dict(os.environ), check=True,
    )  # fmt: skip
    return done.stdout.strip()


def test_a_tiny_game_is_solved_in_python_without_loading_numba() -> None:
    assert _probe("tictactoe") == "python False"


def test_a_shallow_analysis_runs_in_python() -> None:
    assert _probe("connect4", "4") == "python False"


def test_the_rule() -> None:
    connect4, tictactoe = zerosum.load("connect4"), zerosum.load("tictactoe")
    start = connect4.initial_state()
    loaded = "numba" in sys.modules
    # Once numba is loaded its cost is paid: the compiled backend then.
    assert python_answers_first(tictactoe, tictactoe.initial_state(), None) is not loaded
    assert python_answers_first(connect4, start, SHALLOW_DEPTH) is not loaded
    assert python_answers_first(connect4, start, SHALLOW_DEPTH + 1) is False
    assert python_answers_first(connect4, start, None) is False
    late = connect4.play_text("4444443333332")  # 42 - 13 = 29 plies left at most
    assert python_answers_first(connect4, late, None) is False
    assert TINY_PLIES < 29
