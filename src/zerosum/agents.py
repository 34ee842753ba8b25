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
from .search.engine import Progress
from .search.front import Searcher, SearchOptions
from .search.types import Limits, SearchResult


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


@dataclass(frozen=True)
class Level:
    """A strength a player understands, as search limits and noise: the AI
    searches to ``depth`` plies or for ``time`` seconds (None: no limit of
    that kind; neither: to the end of the game, perfect play) and, with
    probability ``noise``, plays a random legal move instead (a deliberate
    mistake, drawn from the seeded generator)."""

    depth: int | None
    time: float | None
    noise: float


LEVELS: dict[str, Level] = {
    "easy": Level(depth=2, time=None, noise=0.3),
    "medium": Level(depth=4, time=1.0, noise=0.1),
    "hard": Level(depth=None, time=3.0, noise=0.0),
    "perfect": Level(depth=None, time=None, noise=0.0),
}


def _book_move(game: Game[Any, Any], state: Any, rng: random.Random | None) -> Decision | None:
    """The opening table's best move for ``state`` (seeded choice among equal
    scores, else the first), or None when the game has no entry for it."""
    table = game.opening_scores(state)
    if not table:
        return None
    top = max(table.values())
    best = [move for move, score in table.items() if score == top]
    return Decision(rng.choice(best) if rng else best[0], from_book=True)


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
                text = self.read(_("{player}, your move (or quit): ").format(player=name))
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


class EngineAgent:
    """The AI: asks the search front door for the move to play.

    ``options`` says which algorithm (the engine by default, on the best
    backend available; the reference minimax or alpha-beta; any registered
    one); ``limits`` what it may spend (None: the algorithm's default for a
    move, 3 s for the engine; ``Limits()``: no limit, perfect play). With
    ``seed`` it chooses at random, reproducibly, among equally valued moves
    (without one, the first best move in the game's order); with probability
    ``noise`` it plays a random move instead (a deliberate mistake); with
    ``book`` it uses the game's opening table where it has one (tic-tac-toe:
    centre first). The searcher, and so the engine's table, is kept from move
    to move of one game.
    """

    def __init__(
        self,
        limits: Limits | None = None,
        seed: int | None = None,
        noise: float = 0.0,
        book: bool = True,
        options: SearchOptions | None = None,
    ) -> None:
        if limits is not None and not isinstance(limits, Limits):
            raise TypeError(
                _("limits must be a Limits value or None, got {type}").format(
                    type=type(limits).__name__
                )
            )
        self.label = _("AI")
        self.limits = limits
        self.options = options or SearchOptions()
        self.rng = random.Random(seed) if seed is not None else None
        self.noise_rng = random.Random(seed)
        self.noise = noise
        self.book = book
        self._searcher: Searcher | None = None

    @classmethod
    def at_level(cls, level: str, seed: int | None = None) -> EngineAgent:
        """The AI at a named level: easy, medium, hard or perfect."""
        chosen = LEVELS[level]
        return cls(Limits(depth=chosen.depth, time=chosen.time), seed, chosen.noise)

    def choose(
        self,
        game: Game[Any, Any],
        state: Any,
        on_progress: Callable[[Progress[Any]], None] | None = None,
    ) -> Decision:
        """The AI's move; ``on_progress`` receives the search's report after
        each completed depth (for a front end that shows the AI thinking)."""
        if self.noise and self.noise_rng.random() < self.noise:
            return Decision(self.noise_rng.choice(list(game.actions(state))))
        book = _book_move(game, state, self.rng) if self.book else None
        if book is not None:
            return book
        if self._searcher is None or self._searcher.game is not game:
            self._searcher = Searcher(game, self.options)
        result = self._searcher.best_move(
            state, self.limits, rng=self.rng, on_progress=on_progress
        )
        return Decision(result.best_move, search=result)

    def stop(self) -> None:
        """From another thread: make a running :meth:`choose` return now with
        the best move of its last completed depth. A request that comes before
        the search has started is lost (see :meth:`Engine.stop`), so a caller
        that must stop it repeats the request until ``choose`` returns."""
        if self._searcher is not None:
            self._searcher.stop()


class SearchAgent(EngineAgent):
    """The AI played by a reference algorithm, as the tutorials write it:
    ``algorithm`` ``minimax`` or ``alphabeta``, ``depth`` plies (None: to
    the end of the game, so play is perfect), ``seed`` for a reproducible
    choice among equally good moves, ``book`` for the opening table."""

    def __init__(
        self,
        algorithm: reference.Algorithm = "alphabeta",
        depth: int | None = None,
        seed: int | None = None,
        book: bool = True,
    ) -> None:
        super().__init__(
            Limits(depth=depth), seed, book=book, options=SearchOptions(algorithm=algorithm)
        )
        self.algorithm = algorithm
        self.depth = depth
