"""Who chooses a move: a human at the terminal, a random player, or the AI.

Every agent has one method, ``choose(game, state) -> Decision``. A human is
just another agent: front ends and the match loop never ask who is playing.
An agent raises :class:`Quit` when its player wants to stop the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .game import Game, MoveError
from .i18n import _
from .search import reference
from .search.types import SearchResult


class Quit(Exception):
    """The player asked to end the game (``quit``, or end of input)."""


@dataclass(frozen=True)
class Decision:
    """A chosen move, and the search behind it when there was one (so a
    front end can show why the AI moved)."""

    move: Any
    search: SearchResult[Any] | None = None
    from_book: bool = False


class Agent(Protocol):
    """Anything that picks a move for the side to move."""

    label: str

    def choose(self, game: Game[Any, Any], state: Any) -> Decision: ...


class HumanAgent:
    """Reads moves typed at the terminal.

    Garbage or an illegal move re-prompts with the game's message, which
    lists the legal moves; ``quit`` (or ``q``, ``exit``, ``退出``) or the end of input raises
    :class:`Quit`. ``read`` and ``write`` default to ``input`` and ``print``
    and are injectable for tests and other front ends.
    """

    QUIT_WORDS = frozenset({"quit", "q", "exit", "退出"})

    def __init__(
        self,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        self.label = _("human")
        self.read = read
        self.write = write

    def choose(self, game: Game[Any, Any], state: Any) -> Decision:
        name = game.player_name(game.to_move(state))
        while True:
            try:
                text = self.read(_("{player} to move, your move (or quit): ").format(player=name))
            except EOFError:
                raise Quit from None
            text = text.strip()
            if text.lower() in self.QUIT_WORDS:
                raise Quit
            if not text:
                continue
            try:
                return Decision(game.parse_move(state, text))
            except MoveError as error:
                # parse_move's message already lists the legal moves.
                self.write(str(error))


class RandomAgent:
    """Plays a uniformly random legal move from a seedable generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.label = _("random")
        self.rng = random.Random(seed)

    def choose(self, game: Game[Any, Any], state: Any) -> Decision:
        return Decision(self.rng.choice(list(game.actions(state))))


class SearchAgent:
    """The AI: searches the position and plays the best move.

    ``algorithm`` is ``minimax`` or ``alphabeta`` (the reference algorithms);
    ``depth`` limits the search (None: to the end of the game, so play is
    perfect); ``seed`` makes it choose at random, reproducibly, among equally
    good moves (without a seed the first best move in the game's order is
    played). With ``book`` it uses the game's opening table where it has one
    (tic-tac-toe: centre first).
    """

    def __init__(
        self,
        algorithm: reference.Algorithm = "alphabeta",
        depth: int | None = None,
        seed: int | None = None,
        book: bool = True,
    ) -> None:
        self.label = _("AI")
        self.algorithm = algorithm
        self.depth = depth
        self.rng = random.Random(seed) if seed is not None else None
        self.book = book

    def choose(self, game: Game[Any, Any], state: Any) -> Decision:
        table = game.opening_scores(state) if self.book else None
        if table:
            top = max(table.values())
            best = [move for move, score in table.items() if score == top]
            move = self.rng.choice(best) if self.rng else best[0]
            return Decision(move, from_book=True)
        result = reference.best_move(
            game, state, algorithm=self.algorithm, depth=self.depth, rng=self.rng
        )
        return Decision(result.best_move, search=result)
