"""Search results as plain data (for ``--json`` and any front end).

The keys are documented in the README ("JSON output") and stay English
whatever the language of the terminal.
"""

from __future__ import annotations

from typing import Any

from .game import Game
from .search.types import MoveScore, Score, SearchResult


def game_over_after(game: Game[Any, Any], state: Any, line: tuple[Any, ...]) -> bool:
    """True when playing ``line`` from ``state`` reaches the end of the game."""
    for move in line:
        if game.is_terminal(state):
            return False
        state = game.result(state, move)
    return game.is_terminal(state)


def plies_of(game: Game[Any, Any], state: Any, score: Score, line: tuple[Any, ...]) -> int | None:
    """Plies until the game ends under perfect play: the distance a proven
    win or loss carries; for a proven draw the length of its principal
    variation when that reaches the end of the game; else None."""
    if score.plies is not None:
        return score.plies
    if score.exact and game_over_after(game, state, line):
        return len(line)
    return None


def position_fields(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    return {
        "game": game.spec(),
        "position": game.format_position(state),
        "to_move": game.player_name(game.to_move(state)),
    }


def move_entry(game: Game[Any, Any], state: Any, entry: MoveScore[Any]) -> dict[str, Any]:
    return {
        "move": game.format_move(entry.move),
        "score": entry.score.raw,
        "exact": entry.score.exact,
        "value": entry.score.outcome,
        "plies": plies_of(game, state, entry.score, entry.pv),
        "pv": [game.format_move(m) for m in entry.pv],
        "nodes": entry.nodes,
    }


def result_fields(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> dict[str, Any]:
    """The fields common to analyze and solve."""
    stats = result.stats
    return {
        **position_fields(game, state),
        "value": result.score.outcome,
        "score": result.score.raw,
        "exact": result.score.exact,
        "plies": plies_of(game, state, result.score, result.pv),
        "best_move": None if result.best_move is None else game.format_move(result.best_move),
        "pv": [game.format_move(m) for m in result.pv],
        "depth": result.depth,
        "nodes": stats.nodes,
        "leaves": stats.leaves,
        "cutoffs": stats.cutoffs,
        "time_s": round(stats.time_s, 6),
    }


def solve_object(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> dict[str, Any]:
    """The ``zerosum solve --json`` object."""
    return {
        **result_fields(game, state, result),
        "best_moves": [game.format_move(m) for m in result.best_moves],
    }


def analyze_object(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> dict[str, Any]:
    """The ``zerosum analyze --json`` object."""
    return {
        **result_fields(game, state, result),
        "moves": [move_entry(game, state, m) for m in result.moves],
    }
