"""The README's "own game" example is complete, correct and shown verbatim."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import zerosum
from zerosum.search import reference

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "countdown.py"


def load_example() -> None:
    spec = importlib.util.spec_from_file_location("countdown", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


def test_readme_shows_the_example_verbatim() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert EXAMPLE.read_text(encoding="utf-8").strip() in readme


def test_example_game_values_follow_the_multiple_of_four_rule() -> None:
    load_example()
    for pile in range(1, 21):
        game = zerosum.load(f"countdown(pile={pile})")
        result = reference.solve(game, game.initial_state())
        # The side to move loses exactly when the pile is a multiple of 4.
        assert result.score.outcome == (-1 if pile % 4 == 0 else 1)
        if pile % 4:
            assert result.best_moves == (pile % 4,)


def test_example_game_passes_the_conformance_checks() -> None:
    load_example()
    game = zerosum.load("countdown(pile=9)")
    state = game.initial_state()
    while not game.is_terminal(state):
        assert game.parse_position(game.format_position(state)) == state
        for move in game.actions(state):
            assert game.parse_move(state, game.format_move(move)) == move
        state = game.result(state, game.actions(state)[-1])
    assert game.utility(state, 0) + game.utility(state, 1) == 0


def test_example_game_works_from_the_command_line() -> None:
    code = (
        "import runpy, sys; runpy.run_path(sys.argv[1]); "
        "from zerosum.cli import main; raise SystemExit(main(sys.argv[2:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(EXAMPLE), "solve", "countdown(pile=7)", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["best_moves"] == ["3"]
