"""Agents and the match loop: the AI never loses at tic-tac-toe and takes
every forced win an opponent's mistake allows, checked exhaustively."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from zerosum.games.tictactoe import TicTacToe
from zerosum.play.agents import (
    Agent,
    Decision,
    EngineAgent,
    HumanAgent,
    Quit,
    RandomAgent,
    SearchAgent,
)
from zerosum.play.match import play_match
from zerosum.search import reference

GAME = TicTacToe()


def outcome_for(state: Any, player: int) -> int:
    value, _ = reference.value(GAME, state)
    return (
        (value > 0) - (value < 0) if GAME.to_move(state) == player else -((value > 0) - (value < 0))
    )


#: The AIs that claim perfect play at tic-tac-toe: the one the command line
#: and the browser use (the engine) at its perfect level, at hard (the
#: browser's default, which solves tic-tac-toe well within its 3 s) and with
#: no limit given (the command line's default), each also seeded (a random
#: choice among equally good moves, as the browser plays); and the reference
#: alpha-beta agent of the tutorials.
PERFECT_AIS = {
    "engine-perfect": lambda: EngineAgent.at_level("perfect"),
    "engine-perfect-seeded": lambda: EngineAgent.at_level("perfect", seed=11),
    "engine-hard-seeded": lambda: EngineAgent.at_level("hard", seed=5),
    "engine-default": lambda: EngineAgent(),
    "reference-alphabeta": lambda: SearchAgent(),
}


@pytest.mark.parametrize("ai_player", [0, 1])
@pytest.mark.parametrize("make_ai", list(PERFECT_AIS.values()), ids=list(PERFECT_AIS))
def test_ai_never_loses_and_keeps_every_forced_win(
    ai_player: int, make_ai: Callable[[], Agent]
) -> None:
    ai = make_ai()
    checked = 0

    def walk(state: Any) -> None:
        nonlocal checked
        if GAME.is_terminal(state):
            assert GAME.utility(state, ai_player) >= 0, GAME.render(state)
            return
        if GAME.to_move(state) == ai_player:
            before = outcome_for(state, ai_player)
            move = ai.choose(GAME, state).move
            child = GAME.result(state, move)
            # The AI never throws away what the position is worth: a won
            # position stays won, a drawn one stays at least drawn.
            assert outcome_for(child, ai_player) == before, (GAME.render(state), move)
            checked += 1
            walk(child)
        else:
            for move in GAME.actions(state):  # every opponent reply
                walk(GAME.result(state, move))

    walk(GAME.initial_state())
    assert checked > 80  # AI decisions checked (the engine, winning sooner, meets fewer)


def test_ai_opens_in_the_centre_from_the_table() -> None:
    decision = SearchAgent().choose(GAME, GAME.initial_state())
    assert decision == Decision(4, from_book=True)
    assert SearchAgent(book=False).choose(GAME, GAME.initial_state()).search is not None


def test_seeded_ai_games_are_reproducible() -> None:
    def game(seed: int) -> list[Any]:
        agents = (SearchAgent(seed=seed, depth=2), RandomAgent(seed))
        return play_match(GAME, agents).moves

    assert game(3) == game(3)
    assert len({tuple(game(s)) for s in range(8)}) > 1


def test_human_reprompts_and_quits() -> None:
    lines = iter(["hello", "4", "9", "3"])
    shown: list[str] = []
    human = HumanAgent(read=lambda prompt: next(lines), write=shown.append)
    state = GAME.play(["4"])
    assert human.choose(GAME, state).move == 3
    assert len(shown) == 3 and all("0 1 2 3 5 6 7 8" in s for s in shown)
    for answer in ("quit", "退出"):

        def say(prompt: str, word: str = answer) -> str:
            return word

        with pytest.raises(Quit):
            HumanAgent(read=say, write=shown.append).choose(GAME, state)

    def eof(prompt: str) -> str:
        raise EOFError

    with pytest.raises(Quit):
        HumanAgent(read=eof).choose(GAME, state)


def test_match_records_moves_and_outcome() -> None:
    result = play_match(GAME, (SearchAgent(), SearchAgent()))
    assert result.outcome == 0 and len(result.moves) == 9
    assert GAME.play([GAME.format_move(m) for m in result.moves]) == result.final
    random_game = play_match(GAME, (RandomAgent(1), SearchAgent()))
    assert random_game.outcome in (0, -1)
