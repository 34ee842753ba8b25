"""The one loop that plays a game between two agents.

Every front end (the terminal now, others later) runs games through
:func:`play_match` and shows what happens through an observer; the loop itself
prints nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..game import Game, Player
from .agents import Agent, Decision, Quit


class Observer(Protocol):
    """What a front end is told as the game goes on."""

    def position(self, game: Game[Any, Any], state: Any) -> None:
        """A position to show: the start, and after every move."""

    def moved(self, game: Game[Any, Any], state: Any, player: Player, decision: Decision) -> None:
        """``player`` chose ``decision`` in ``state`` (before it is played)."""


class SilentObserver:
    """An observer that shows nothing (AI-vs-AI experiments, tests)."""

    def position(self, game: Game[Any, Any], state: Any) -> None:
        pass

    def moved(self, game: Game[Any, Any], state: Any, player: Player, decision: Decision) -> None:
        pass


@dataclass
class MatchResult:
    """How a game went: the moves in order, the final state, and the
    outcome for the first player (+1, 0, -1; None if someone quit)."""

    moves: list[Any] = field(default_factory=list)
    final: Any = None
    outcome: int | None = None
    quit_by: Player | None = None


def play_match(
    game: Game[Any, Any],
    agents: tuple[Agent, Agent],
    observer: Observer | None = None,
    start: Any = None,
    max_plies: int | None = None,
) -> MatchResult:
    """Play from ``start`` (default: the initial state) until the game ends,
    a player quits, or ``max_plies`` moves have been made. ``agents[p]``
    moves for player ``p``. A move an agent returns is checked for legality:
    an agent that returns an illegal move is a bug, reported as ValueError."""
    watch = observer or SilentObserver()
    state = game.initial_state() if start is None else start
    result = MatchResult(final=state)
    watch.position(game, state)
    while not game.is_terminal(state):
        if max_plies is not None and len(result.moves) >= max_plies:
            break
        player = game.to_move(state)
        try:
            decision = agents[player].choose(game, state)
        except Quit:
            result.quit_by = player
            break
        if decision.move not in game.actions(state):
            raise ValueError(
                f"agent {agents[player].label} chose an illegal move {decision.move!r}"
            )
        watch.moved(game, state, player, decision)
        state = game.result(state, decision.move)
        result.moves.append(decision.move)
        result.final = state
        watch.position(game, state)
    if game.is_terminal(state):
        result.outcome = game.utility(state, 0)
    return result
