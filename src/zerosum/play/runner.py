"""The match runner: many games between two players, reproducibly, in
parallel worker processes, every game recorded.

Game ``i`` (0-based) of a match belongs to pair ``i // 2``: player A has the
first move in the even game of a pair and player B in the odd one, and both
games of a pair start from the same opening (``openings`` random plies from
the start, drawn from the match seed), so an unbalanced opening favours
neither player. Every random choice of a game (the opening, the players'
seeds) derives from the match seed and the game's number: the same seed
gives the same games (players limited by time may still choose differently
from run to run, as their search depends on the machine's speed).

A player that fails -- an external program that crashes, times out, or
answers an illegal move, or any error inside an agent -- loses that game,
the reason is recorded, and the match goes on.

Records are JSON objects (one per line in the file ``zerosum match``
writes): a ``match`` header, then one ``game`` per game in order:

* ``number`` (1-based), ``game`` (the spec), ``a``, ``b`` (the players'
  specs), ``players`` (first and second player's specs), ``a_first``;
* ``seed`` (the game's), ``opening`` (its moves), ``start`` (the position
  after them, in the game's notation), ``moves`` (the moves played from
  there);
* ``outcome`` (+1, 0, -1 for the first player), ``result`` (``"1-0"``,
  ``"0-1"``, ``"1/2-1/2"``), ``score_a`` (1, 0.5, 0), ``reason`` (``end``:
  the game ended by its rules; ``failure``: the loser failed, ``detail``
  says how; ``max_plies``: adjudicated a draw at the ply limit);
* ``time`` (seconds each player spent choosing: first, second), ``plies``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..game import Game
from ..registry import load
from .agents import Agent

RESULTS = {1: "1-0", 0: "1/2-1/2", -1: "0-1"}


@dataclass(frozen=True)
class MatchSetup:
    """What a match plays (``players`` as spec texts: A, then B)."""

    game: str
    players: tuple[str, str]
    games: int
    seed: int = 0
    openings: int = 0
    max_plies: int | None = None
    imports: tuple[str, ...] = ()
    lang: str = "en"


def game_seed(match_seed: int, number: int) -> int:
    """The seed of game ``number`` (0-based) of a match."""
    return random.Random(f"zerosum-match:{match_seed}:game:{number}").getrandbits(31)


def opening(game: Game[Any, Any], match_seed: int, pair: int, plies: int) -> list[Any]:
    """The opening of ``pair``: ``plies`` uniformly random moves from the
    start, drawn again (up to 100 times) when they end the game, shorter
    when every draw does."""
    rng = random.Random(f"zerosum-match:{match_seed}:opening:{pair}")
    for length in range(plies, -1, -1):
        for _attempt in range(100):
            state = game.initial_state()
            moves: list[Any] = []
            for _ply in range(length):
                if game.is_terminal(state):
                    break
                move = rng.choice(list(game.actions(state)))
                moves.append(move)
                state = game.result(state, move)
            if not game.is_terminal(state):
                return moves
    return []


def play_game(setup: MatchSetup, number: int) -> dict[str, Any]:
    """Play game ``number`` (0-based) of ``setup``; its record."""
    from .players import parse_player

    game = load(setup.game)
    specs = [parse_player(text) for text in setup.players]
    a_first = number % 2 == 0
    seed = game_seed(setup.seed, number)
    seeds = random.Random(seed)
    agents = [spec.agent(seeds.getrandbits(31)) for spec in specs]  # A, B
    sides: tuple[Agent, Agent] = (agents[0], agents[1]) if a_first else (agents[1], agents[0])
    names = [specs[0].describe(), specs[1].describe()]
    first, second = (names[0], names[1]) if a_first else (names[1], names[0])

    start_moves = opening(game, setup.seed, number // 2, setup.openings)
    state = game.initial_state()
    for move in start_moves:
        state = game.result(state, move)
    start = state
    moves: list[str] = []
    spent = [0.0, 0.0]
    outcome: int | None = None
    reason, detail = "end", ""
    try:
        while not game.is_terminal(state):
            if setup.max_plies is not None and len(moves) >= setup.max_plies:
                outcome, reason = 0, "max_plies"
                break
            player = game.to_move(state)
            began = time.perf_counter()
            try:
                move = sides[player].choose(game, state).move
                legal = move in game.actions(state)
                detail = "" if legal else f"illegal move {move!r}"
            except Exception as error:  # a failing player loses; the match goes on
                detail = getattr(error, "reason", None) or f"{type(error).__name__}: {error}"
                legal = False
            spent[player] += time.perf_counter() - began
            if not legal:
                outcome, reason = (-1 if player == 0 else 1), "failure"
                detail = f"{game.player_name(player)} ({(first, second)[player]}): {detail}"
                break
            moves.append(game.format_move(move))
            state = game.result(state, move)
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if close is not None:
                close()
    if outcome is None:
        outcome = game.utility(state, 0)
    score_first = (outcome + 1) / 2
    return {
        "type": "game",
        "number": number + 1,
        "game": game.spec(),
        "a": names[0],
        "b": names[1],
        "players": [first, second],
        "a_first": a_first,
        "seed": seed,
        "opening": [game.format_move(m) for m in start_moves],
        "start": game.format_position(start),
        "moves": moves,
        "outcome": outcome,
        "result": RESULTS[outcome],
        "score_a": score_first if a_first else 1 - score_first,
        "reason": reason,
        "detail": detail,
        "time": [round(spent[0], 4), round(spent[1], 4)],
        "plies": len(moves),
    }


def _worker_init(imports: Sequence[str], lang: str) -> None:
    """In a worker process: the user's game modules and the language."""
    from .. import i18n

    i18n.activate(lang)
    if imports:
        from ..cli import import_games

        for name in imports:
            import_games(name)


def play_games(setup: MatchSetup, jobs: int = 1) -> Generator[dict[str, Any], None, None]:
    """The records of the match's games, in order, as they finish; with
    ``jobs`` above 1 in that many worker processes (a few games ahead).
    Closing the iterator early (an SPRT stop) cancels the games not yet
    started."""
    if jobs <= 1:
        for number in range(setup.games):
            yield play_game(setup, number)
        return
    import multiprocessing

    # spawn: a clean interpreter per worker (no threads or compiled state
    # copied from this process); the user's games are imported again.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=_worker_init,
        initargs=(setup.imports, setup.lang),
    ) as pool:
        pending: dict[int, Future[dict[str, Any]]] = {}
        submitted = 0
        try:
            for number in range(setup.games):
                while submitted < setup.games and submitted < number + 2 * jobs:
                    pending[submitted] = pool.submit(play_game, setup, submitted)
                    submitted += 1
                yield pending.pop(number).result()
        finally:
            for future in pending.values():
                future.cancel()
