"""The one game loop: a turn (:func:`decide`) and the game made of turns
(:func:`play_match`).

Every game is played through here: the terminal's ``zerosum play`` and the
match runner's games run :func:`play_match`; the browser, whose game moves
on by messages (a human's move, undo, the AI's turn as a search it can
cancel), takes each computer turn through :func:`decide`, the same turn the
loop takes. A front end shows what happens through an observer; the loop
itself prints nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..game import Game, Player
from ..search.engine import Progress
from .agents import Agent, AgentFailure, Decision, EngineAgent, Quit, Undo


class Observer(Protocol):
    """What a front end is told as the game goes on."""

    def position(self, game: Game[Any, Any], state: Any) -> None:
        """A position to show: the start, and after every move."""

    def moved(self, game: Game[Any, Any], state: Any, player: Player, decision: Decision) -> None:
        """``player`` chose ``decision`` in ``state`` (before it is played)."""

    def undone(self, game: Game[Any, Any], plies: int) -> None:
        """The last ``plies`` moves were taken back (``position`` follows;
        0: the player asked but had no move to take back)."""


class SilentObserver:
    """An observer that shows nothing (AI-vs-AI experiments, tests)."""

    def position(self, game: Game[Any, Any], state: Any) -> None:
        pass

    def moved(self, game: Game[Any, Any], state: Any, player: Player, decision: Decision) -> None:
        pass

    def undone(self, game: Game[Any, Any], plies: int) -> None:
        pass


@dataclass
class MatchResult:
    """How a game went: the moves in order, the final state, and the
    outcome for the first player (+1, 0, -1; None when the game did not
    end: someone quit, or ``max_plies`` moves were made).

    ``reason`` says how it ended: ``end`` (the rules), ``quit``,
    ``max_plies`` or ``failure`` (``failed_by``'s agent failed, with
    ``detail``; that side loses, so ``outcome`` is set). ``spent`` is the
    seconds each player's agent took, by player."""

    moves: list[Any] = field(default_factory=list)
    final: Any = None
    outcome: int | None = None
    quit_by: Player | None = None
    reason: str = "end"
    failed_by: Player | None = None
    detail: str = ""
    spent: list[float] = field(default_factory=lambda: [0.0, 0.0])


def decide(
    game: Game[Any, Any],
    state: Any,
    agent: Agent,
    on_progress: Callable[[Progress[Any]], None] | None = None,
) -> Decision:
    """One turn: ``agent``'s decision in ``state``, its move checked legal
    (an illegal one raises :class:`~.agents.AgentFailure`). ``on_progress``
    receives a searching agent's report after each completed depth (a front
    end showing the AI think)."""
    if on_progress is not None and isinstance(agent, EngineAgent):
        decision = agent.choose(game, state, on_progress)
    else:
        decision = agent.choose(game, state)
    if decision.move not in game.actions(state):
        raise AgentFailure(f"illegal move {decision.move!r}")
    return decision


def play_match(
    game: Game[Any, Any],
    agents: tuple[Agent, Agent],
    observer: Observer | None = None,
    start: Any = None,
    max_plies: int | None = None,
    contain: tuple[type[Exception], ...] = (),
) -> MatchResult:
    """Play from ``start`` (default: the initial state) until the game ends,
    a player quits, or ``max_plies`` moves have been made. ``agents[p]``
    moves for player ``p``, each turn through :func:`decide`. An error of a
    ``contain`` type from an agent (the match runner: any error, as an
    external program may fail) ends the game with that side's loss
    (``reason`` ``failure``); otherwise it propagates (an agent returning an
    illegal move is then a bug: :class:`~.agents.AgentFailure`)."""
    watch = observer or SilentObserver()
    state = game.initial_state() if start is None else start
    result = MatchResult(final=state)
    history = [state]  # every position of the game, for undo
    watch.position(game, state)
    clock = time.perf_counter
    while not game.is_terminal(state):
        if max_plies is not None and len(result.moves) >= max_plies:
            result.reason = "max_plies"
            break
        player = game.to_move(state)
        began = clock()
        try:
            decision = decide(game, state, agents[player])
        except Quit:
            result.quit_by, result.reason = player, "quit"
            break
        except Undo:
            # Back to where this player last moved (the reply taken back
            # too); nothing to take back: the same position is asked again.
            plies = _undo_plies(game, history, player)
            watch.undone(game, plies)
            if plies:
                del history[-plies:], result.moves[-plies:]
                state = result.final = history[-1]
                watch.position(game, state)
            continue
        except contain as error:
            result.spent[player] += clock() - began
            result.reason, result.failed_by = "failure", player
            result.detail = getattr(error, "reason", None) or f"{type(error).__name__}: {error}"
            result.outcome = -1 if player == 0 else 1
            return result
        result.spent[player] += clock() - began
        watch.moved(game, state, player, decision)
        state = game.result(state, decision.move)
        result.moves.append(decision.move)
        history.append(state)
        result.final = state
        watch.position(game, state)
    if game.is_terminal(state):
        result.outcome = game.utility(state, 0)
    return result


def _undo_plies(game: Game[Any, Any], history: list[Any], player: Player) -> int:
    """How many moves to take back so that ``player`` is to move again at
    the position where they last moved (0: they have not moved yet)."""
    for index in range(len(history) - 2, -1, -1):
        if game.to_move(history[index]) == player:
            return len(history) - 1 - index
    return 0
