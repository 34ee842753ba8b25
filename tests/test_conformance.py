"""The conformance suite every game runs through, built-in or added later.

Random playouts (seeded) from each registered game's default spec, plus the
extra specs listed below, check the protocol's promises:

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

import copy
import itertools
import random
from typing import Any

import pytest

import zerosum
from zerosum.registry import entries

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


def _playouts(spec: str) -> list[list[tuple[Any, Any]]]:
    """Seeded random games: lists of (state, action) pairs, the last state
    terminal (action None)."""
    game = zerosum.load(spec)
    rng = random.Random(spec)
    games = []
    for _ in range(PLAYOUTS):
        state = game.initial_state()
        record: list[tuple[Any, Any]] = []
        for _ply in range(400):
            moves = game.actions(state)
            if not moves:
                break
            action = rng.choice(list(moves))
            record.append((state, action))
            state = game.result(state, action)
        record.append((state, None))
        games.append(record)
    return games


@pytest.mark.parametrize("spec", SPECS)
def test_moves_exist_exactly_until_the_end(spec: str) -> None:
    game = zerosum.load(spec)
    for record in _playouts(spec):
        for state, _action in record:
            terminal = game.is_terminal(state)
            assert bool(game.actions(state)) == (not terminal), game.render(state)
            assert game.to_move(state) in (0, 1)
        final = record[-1][0]
        assert game.is_terminal(final), "a playout of 400 plies did not end"


@pytest.mark.parametrize("spec", SPECS)
def test_utilities_sum_to_zero(spec: str) -> None:
    game = zerosum.load(spec)
    for record in _playouts(spec):
        final = record[-1][0]
        first, second = game.utility(final, 0), game.utility(final, 1)
        assert first in (-1, 0, 1)
        assert first + second == 0


@pytest.mark.parametrize("spec", SPECS)
def test_result_never_mutates_its_input(spec: str) -> None:
    game = zerosum.load(spec)
    for record in _playouts(spec)[:4]:
        for state, action in record[:-1]:
            before = copy.deepcopy(state)
            key = hash(state)
            after = game.result(state, action)
            assert state == before and hash(state) == key
            assert after != state


@pytest.mark.parametrize("spec", SPECS)
def test_notation_round_trips(spec: str) -> None:
    game = zerosum.load(spec)
    for record in _playouts(spec)[:4]:
        for state, _action in record:
            text = game.format_position(state)
            assert game.parse_position(text) == state, text
            assert game.format_position(game.parse_position(text)) == text
            for move in game.actions(state):
                written = game.format_move(move)
                assert game.parse_move(state, written) == move, written


@pytest.mark.parametrize("spec", SPECS)
def test_spec_round_trips(spec: str) -> None:
    game = zerosum.load(spec)
    again = zerosum.load(game.spec())
    assert again.spec() == game.spec()
    assert game.format_position(again.initial_state()) == game.format_position(game.initial_state())


@pytest.mark.parametrize("spec", SPECS)
def test_symmetry_hooks_agree(spec: str) -> None:
    """Every symmetric image of a position has the position's canonical key;
    the canonical transform maps the position onto the key's representative;
    a move mapped with ``map_move`` is legal in the image and leads to the
    image of the move's result; and mapping back gives the move again."""
    game = zerosum.load(spec)
    count = game.symmetry_count()
    assert count >= 1
    for record in _playouts(spec)[:3]:
        for state, _action in record[:12]:
            key, t = game.canonical(state)
            assert 0 <= t < count
            assert game.canonical(state) == (key, t)  # deterministic
            assert game.key(game.transform(state, t)) == key
            for u in range(count):
                image = game.transform(state, u)
                assert game.canonical(image)[0] == key
                for move in game.actions(state):
                    mapped = game.map_move(move, u)
                    assert mapped in game.actions(image)
                    assert game.result(image, mapped) == game.transform(
                        game.result(state, move), u
                    )
                    assert game.map_move(mapped, u, inverse=True) == move


def _wins_at_once(game: Any, state: Any, move: Any) -> bool:
    child = game.result(state, move)
    return bool(game.is_terminal(child) and game.utility(child, game.to_move(state)) == 1)


@pytest.mark.parametrize("spec", SPECS)
def test_search_hooks_agree_with_brute_force(spec: str) -> None:
    """``winning_action`` only names moves that win at once (and, where a game
    implements it, finds one whenever one exists); ``non_losing_actions`` is
    exactly the set of moves after which the opponent cannot win at once."""
    game = zerosum.load(spec)
    knows_wins = type(game).winning_action is not zerosum.Game.winning_action
    for record in _playouts(spec)[:4]:
        for state, _action in record[:-1]:
            moves = list(game.actions(state))
            win = game.winning_action(state)
            if win is not None:
                assert win in moves and _wins_at_once(game, state, win)
                continue
            if knows_wins:
                assert not any(_wins_at_once(game, state, m) for m in moves)
            safe = game.non_losing_actions(state)
            if safe is None:
                continue
            expected = set()
            for move in moves:
                child = game.result(state, move)
                if game.is_terminal(child) or not any(
                    _wins_at_once(game, child, reply) for reply in game.actions(child)
                ):
                    expected.add(move)
            assert set(safe) == expected and len(safe) == len(set(safe))


@pytest.mark.parametrize("spec", SPECS)
def test_mover_wins_only_is_declared_truthfully(spec: str) -> None:
    """A game that declares ``mover_wins_only`` never ends with a loss for
    the player who made the last move, and its turns alternate."""
    game = zerosum.load(spec)
    if not game.mover_wins_only:
        return
    for record in _playouts(spec):
        for (state, _action), (after, _next) in itertools.pairwise(record):
            assert game.to_move(after) != game.to_move(state)
        (last, _a), (final, _n) = record[-2], record[-1]
        assert game.utility(final, game.to_move(last)) >= 0


def _selected_by_click(board: Any, legal: list[tuple[Any, tuple[tuple[int, int], ...]]],
                       cell: tuple[int, int]) -> list[Any]:
    """The moves a click on ``cell`` selects, by the rule of docs/messages.md:
    a drop board selects the move in the clicked column; otherwise the moves
    whose first cell is the clicked cell, else those that include it."""
    if board.drop:
        return [m for m, cells in legal if cells and cells[0][1] == cell[1]]
    first = [m for m, cells in legal if cells and cells[0] == cell]
    return first or [m for m, cells in legal if cell in cells]


@pytest.mark.parametrize("spec", SPECS)
def test_board_places_moves_where_they_act(spec: str) -> None:
    game = zerosum.load(spec)
    for record in _playouts(spec)[:4]:
        for state, _action in record:
            board = game.board(state)
            legal = [(m, game.move_cells(state, m)) for m in game.actions(state)]
            if board is None:
                assert all(cells == () for _m, cells in legal)
                continue
            assert len(board.cells) == board.rows * board.cols
            assert all(v in (None, 0, 1, 2) for v in board.cells)
            for move, cells in legal:
                assert len(set(cells)) == len(cells)
                assert all(0 <= r < board.rows and 0 <= c < board.cols for r, c in cells)
                if not cells:
                    continue
                assert _selected_by_click(board, legal, cells[0]) == [move], game.format_move(move)
                after = game.board(game.result(state, move))
                assert after is not None
                for r, c in cells:
                    i = r * board.cols + c
                    assert after.cells[i] != board.cells[i], (game.format_move(move), (r, c))
