"""Every search that chooses a move, at every budget, plays a win in one and
blocks the opponent's win in one (issue 20, item 3).

The truth is brute force over the rules (every move played out, every reply
tried), independent of :mod:`zerosum.search.tactics` and of the games'
``winning_action`` / ``non_losing_actions`` hooks. Budgets are depths, node
counts and iterations, never seconds.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import zerosum
from zerosum.game import Game
from zerosum.search.front import Searcher, SearchOptions
from zerosum.search.types import Limits


def _wins(game: Game[Any, Any], state: Any, move: Any) -> bool:
    child = game.result(state, move)
    return game.is_terminal(child) and game.utility(child, game.to_move(state)) > 0


def _loses_at_once(game: Game[Any, Any], state: Any, move: Any) -> bool:
    child = game.result(state, move)
    if game.is_terminal(child):
        return False
    return any(_wins(game, child, reply) for reply in game.actions(child))


def _tactical(game: Game[Any, Any], states: list[Any]) -> list[tuple[Any, set[Any]]]:
    """The positions where a win in one exists or a move must block one,
    each with the moves that are right there."""
    found = []
    for state in states:
        moves = list(game.actions(state))
        wins = {m for m in moves if _wins(game, state, m)}
        if wins:
            found.append((state, wins))
            continue
        safe = {m for m in moves if not _loses_at_once(game, state, m)}
        if safe and len(safe) < len(moves):
            found.append((state, safe))
    return found


def _every_position(game: Game[Any, Any]) -> list[Any]:
    seen = {game.initial_state()}
    todo = [game.initial_state()]
    while todo:
        state = todo.pop()
        for move in game.actions(state):
            child = game.result(state, move)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return [s for s in seen if not game.is_terminal(s)]


def _random_positions(game: Game[Any, Any], count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        state = game.initial_state()
        while not game.is_terminal(state):
            states.append(state)
            state = game.result(state, rng.choice(list(game.actions(state))))
    return states[:count]


#: (algorithm, backend, limits): the smallest budgets there are.
BUDGETS = [
    ("engine", "python", Limits(depth=1)),
    ("engine", "python", Limits(nodes=1)),
    ("engine", "python", Limits(nodes=3)),
    ("alphabeta", "auto", Limits(depth=1)),
    ("minimax", "auto", Limits(depth=1)),
    ("mcts", "auto", Limits(iterations=1)),
]
NATIVE_BUDGETS = [
    ("engine", "native", Limits(depth=1)),
    ("engine", "native", Limits(nodes=1)),
]


def _check_all(
    game: Game[Any, Any], tactical: list[tuple[Any, set[Any]]], budgets: list[Any]
) -> None:
    assert tactical
    for algorithm, backend, limits in budgets:
        options = SearchOptions(
            algorithm=algorithm, backend=backend, use_store=False, use_book=False, seed=1
        )
        searcher = Searcher(game, options)
        wrong = []
        for state, right in tactical:
            move = searcher.best_move(state, limits, rng=random.Random(0)).best_move
            if move not in right:
                wrong.append(game.format_position(state))
        assert not wrong, (algorithm, backend, limits, len(wrong), wrong[:3])


@pytest.fixture(scope="module")
def tictactoe() -> tuple[Game[Any, Any], list[tuple[Any, set[Any]]]]:
    game = zerosum.load("tictactoe")
    return game, _tactical(game, _every_position(game))


@pytest.fixture(scope="module")
def connect4() -> tuple[Game[Any, Any], list[tuple[Any, set[Any]]]]:
    game = zerosum.load("connect4")
    return game, _tactical(game, _random_positions(game, 6000, seed=20))


def test_every_tictactoe_position_wins_and_blocks(tictactoe: Any) -> None:
    game, tactical = tictactoe
    assert len(tactical) > 1000  # every position with a win or a forced block
    _check_all(game, tactical, BUDGETS)


def test_connect4_positions_win_and_block(connect4: Any) -> None:
    game, tactical = connect4
    assert len(tactical) > 1000
    _check_all(game, tactical[:1500], BUDGETS[:4])


def test_native_wins_and_blocks(tictactoe: Any, connect4: Any) -> None:
    pytest.importorskip("numba")
    for game, tactical in (tictactoe, connect4):
        _check_all(game, tactical[:1500], NATIVE_BUDGETS)


def test_the_ai_that_lists_every_score_plays_the_checked_move(tictactoe: Any) -> None:
    """The terminal's learner levels analyse every move (``scores``); the
    move played is the checked one, and the search shown with it is that
    move's. On 4x4 three-in-a-row a depth-1 analysis misses some 150 of these
    positions, so the check must change the move there (it did, and the agent
    played the unchecked move)."""
    from zerosum.play.agents import EngineAgent

    mnk = zerosum.load("mnk(m=4,n=4,k=3)")
    small = (mnk, _tactical(mnk, _random_positions(mnk, 3000, seed=3)))
    for game, tactical in (tictactoe, small):
        options = SearchOptions(backend="python", use_store=False, use_book=False)
        agent = EngineAgent(Limits(depth=1), seed=0, book=False, options=options)
        agent.scores = True
        wrong = []
        for state, right in tactical:
            decision = agent.choose(game, state)
            assert decision.search is not None
            assert decision.search.best_move == decision.move
            if decision.move not in right:
                wrong.append(game.format_position(state))
        assert not wrong, (game.name, len(wrong), wrong[:3])
