"""The README's "own game" example is complete, correct and shown verbatim."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

import zerosum
from zerosum.search import reference
from zerosum.web.session import Session

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
    done = run_cli("--import", str(EXAMPLE), "solve", "countdown(pile=7)", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["best_moves"] == ["3"]


@pytest.mark.parametrize(
    ("module", "needle"),
    [("no/such/file.py", "no such file"), ("no_such_module_xyz", "ModuleNotFoundError")],
)
def test_a_bad_import_is_one_clear_error(module: str, needle: str) -> None:
    done = run_cli("--import", module, "games")
    assert done.returncode == 2
    assert needle in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_game_without_a_board_plays_in_the_browser_session() -> None:
    """The web session shows a game with no grid as text, its moves as
    buttons (moves without cells), and plays it."""
    load_example()

    async def scenario() -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []
        session = Session(sent.append)
        await session.start()
        await session.handle(json.dumps({
            "type": "new", "game": "countdown(pile=5)",
            "players": [{"kind": "human"}, {"kind": "ai", "level": "perfect"}]}))
        await session.handle(json.dumps({"type": "move", "move": "1"}))
        for _ in range(500):  # the AI answers at once
            if sent[-1]["type"] == "state" and sent[-1]["ply"] == 2:
                break
            await asyncio.sleep(0.01)
        await session.close()
        return sent

    sent = asyncio.run(scenario())
    states = [m for m in sent if m["type"] == "state"]
    first = next(m for m in states if m["game"] == "countdown(pile=5)")
    assert first["board"] is None and first["text"]
    assert [m["move"] for m in first["legal"]] == ["1", "2", "3"]
    assert all(m["cells"] == [] for m in first["legal"])
    last = states[-1]
    # The AI answered the human's move.
    assert last["ply"] == 2 and last["record"].startswith("1 ")
