"""The conformance suite (``zerosum.testing.check_game``) run over every
registered game's default spec, the extra specs below and the README's
example game; and the suite itself shown to catch broken games.

Random playouts (seeded) check the protocol's promises:

* legal moves are non-empty exactly when the state is not terminal;
* at a terminal state the two utilities are in {-1, 0, 1} and sum to zero;
* ``result`` returns a new state and never changes its input (states are
  immutable and hashable, and equal to a copy taken before the move);
* move notation round-trips (parse(format(move)) == move) and position
  notation round-trips (parse(format(state)) == state);
* the engine hooks are consistent: ``canonical`` gives symmetric states one
  key and ``map_move`` maps moves of one onto the other;
* a game drawn as a grid (``board``) places each move where it acts: its
  cells are on the board, a click on its first cell selects it and no other
  move, and the move changes every one of its cells.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import zerosum
from zerosum.games.tictactoe import TicTacToe
from zerosum.registry import entries
from zerosum.testing import CHECKS, Check, ConformanceError, check_game, playout_records

#: Extra specs beyond each game's defaults, to cover other shapes.
EXTRA_SPECS = [
    "mnk(m=4,n=4,k=3)",
    "mnk(m=3,n=5,k=3)",
    "connect4(width=4,height=4)",
    "connect4(width=9,height=7)",
    "domineering(rows=3,cols=5,first=horizontal)",
    "othello(size=4)",
    "othello(size=6)",
    "nim(heaps=1-2-3)",
]

SPECS = [e.name for e in entries()] + [
    s for s in EXTRA_SPECS if s.split("(")[0] in {e.name for e in entries()}
]

PLAYOUTS = 12


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("spec", SPECS)
def test_conformance(spec: str, check: Check) -> None:
    game = zerosum.load(spec)
    check(game, playout_records(game, PLAYOUTS, seed=spec))


@pytest.mark.parametrize("spec", SPECS)
def test_spec_round_trips(spec: str) -> None:
    game = zerosum.load(spec)
    again = zerosum.load(game.spec())
    assert again.spec() == game.spec()
    assert game.format_position(again.initial_state()) == game.format_position(game.initial_state())


def test_the_example_game_conforms() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
    importlib.import_module("countdown")  # registers the game

    check_game(zerosum.load("countdown(pile=13)"))


# -- the suite catches broken games ----------------------------------------------
class _Box:
    """A hashable but mutable state (what the protocol forbids)."""

    def __init__(self, cells: list[int]) -> None:
        self.cells = cells

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Box) and self.cells == other.cells

    def __hash__(self) -> int:
        return 0


class _Mutating(TicTacToe):
    """``result`` that changes its input state in place."""

    def result(self, state: Any, action: Any) -> Any:
        state.cells.append(action)
        return _Box(list(state.cells))


class _Endless(TicTacToe):
    def actions(self, state: Any) -> Sequence[Any]:
        moves = super().actions(state)
        return moves if moves else [0]


class _Unfair(TicTacToe):
    def utility(self, state: Any, player: int) -> int:
        return 1 if state[2] else 0


class _Misread(TicTacToe):
    def parse_move(self, state: Any, text: str) -> int:
        return (super().parse_move(state, text) + 1) % 9


class _FalseWin(TicTacToe):
    def winning_action(self, state: Any) -> int | None:
        moves = self.actions(state)
        return moves[0] if moves else None


class _NoSymmetries(TicTacToe):
    """Asks for a symmetric table but declares no symmetries."""

    def symmetry_count(self) -> int:
        return 1


@pytest.mark.parametrize(
    ("game", "needle"),
    [
        (_Endless(), "actions must be empty exactly at terminal states"),
        (_Unfair(), "sum to 0"),
        (_Misread(), "parse_move(format_move(m)) != m"),
        (_FalseWin(), "winning_action named a move that does not win"),
        (_NoSymmetries(), "symmetric_search needs symmetries"),
    ],
    ids=["endless", "unfair", "misread", "false-win", "no-symmetries"],
)
def test_the_suite_catches_a_broken_game(game: Any, needle: str) -> None:
    with pytest.raises(ConformanceError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        check_game(game, playouts=6)


def test_the_suite_catches_a_mutating_result() -> None:
    game = _Mutating()
    records = [[(_Box([]), 4), (_Box([4]), None)]]
    with pytest.raises(ConformanceError, match="changed its input"):
        CHECKS[2](game, records)
    with pytest.raises(ConformanceError, match="hashable"):
        CHECKS[2](game, [[([], 4), ([4], None)]])


class _ShortSighted(TicTacToe):
    def plies_left(self, state: Any) -> int:
        return 1


def test_the_suite_catches_a_wrong_plies_left() -> None:
    with pytest.raises(ConformanceError, match="plies_left"):
        check_game(_ShortSighted(), playouts=3)
