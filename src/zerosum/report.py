"""Search results as plain data: the JSON objects that ``--json`` prints and
the browser receives.

The schema is documented once, in ``docs/messages.md``; keys stay English
whatever the language. Every object has a ``type``: ``progress``,
``analysis``, ``result``, ``perft``, ``trace`` or ``error``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .game import NEUTRAL, Board, Cell, Game
from .i18n import _
from .search.engine import Progress
from .search.trace import Trace
from .search.types import INF, MoveScore, Score, SearchResult


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
        # The English name whatever the language: JSON is read by programs.
        "to_move": game.player_names[game.to_move(state)],
    }


def move_words(entry: MoveScore[Any]) -> str:
    """A move's score in words, as every front end shows it: the one
    formatter (:meth:`Score.describe`), or for a move Monte Carlo tree
    search has not proven its win rate over its visits."""
    if entry.visits is not None and not entry.score.exact and entry.win_rate is not None:
        percent = f"{entry.win_rate * 100:.1f}".removesuffix(".0")
        # xgettext: no-python-format
        return _("win rate {percent}% over {visits} visits").format(
            percent=percent, visits=f"{entry.visits:,}"
        )
    return entry.score.describe()


def move_kind(entry: MoveScore[Any]) -> str:
    """A move's ``kind``: its score's (:attr:`Score.kind`), or ``win_rate``
    for a move Monte Carlo tree search has not proven (shown as its win rate
    over its visits, not as a number on the evaluation's scale)."""
    if entry.visits is not None and not entry.score.exact and entry.win_rate is not None:
        return "win_rate"
    return entry.score.kind


def move_entry(game: Game[Any, Any], state: Any, entry: MoveScore[Any]) -> dict[str, Any]:
    """One move of ``moves``, its score also in ``words`` (the page shows
    them as sent); Monte Carlo tree search adds ``visits``, ``win_rate``
    and ``proven``."""
    obj = {
        "move": game.format_move(entry.move),
        "score": entry.score.raw,
        "exact": entry.score.exact,
        "value": entry.score.outcome,
        "kind": move_kind(entry),
        "plies": plies_of(game, state, entry.score, entry.pv),
        "words": move_words(entry),
        "pv": [game.format_move(m) for m in entry.pv],
        "nodes": entry.nodes,
    }
    if entry.visits is not None:
        obj["visits"] = entry.visits
        obj["win_rate"] = None if entry.win_rate is None else round(entry.win_rate, 4)
        obj["proven"] = entry.score.exact
    return obj


def result_fields(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> dict[str, Any]:
    """The fields common to analyze and solve."""
    stats = result.stats
    return {
        **position_fields(game, state),
        "value": result.score.outcome,
        "score": result.score.raw,
        "exact": result.score.exact,
        "kind": result.score.kind,
        # A margin solve proves the margin, not the shortest way to it.
        "plies": None if result.margin is not None else plies_of(
            game, state, result.score, result.pv
        ),
        "margin": result.margin,
        "words": result.score.describe(),
        "best_move": None if result.best_move is None else game.format_move(result.best_move),
        "pv": [game.format_move(m) for m in result.pv],
        "depth": result.depth,
        "nodes": stats.nodes,
        "leaves": stats.leaves,
        "cutoffs": stats.cutoffs,
        "time_s": round(stats.time_s, 6),
        "source": result.source,
    }


def progress_object(game: Game[Any, Any], state: Any, progress: Progress[Any]) -> dict[str, Any]:
    """A ``progress`` object: one completed depth of a running search of
    ``state`` (``moves`` is filled during analysis)."""
    return {
        "type": "progress",
        "position": game.format_position(state),
        "depth": progress.depth,
        "score": progress.score.raw,
        "exact": progress.score.exact,
        "kind": progress.score.kind,
        "plies": progress.score.plies,
        "words": progress.score.describe(),
        "best_move": None if progress.best_move is None else game.format_move(progress.best_move),
        "pv": [game.format_move(m) for m in progress.pv],
        "nodes": progress.nodes,
        "nps": round(progress.nps),
        "time_s": round(progress.time_s, 6),
        "tt_hit_rate": round(progress.tt_hit_rate, 4),
        "lower": progress.lower,
        "upper": progress.upper,
        "moves": [move_entry(game, state, m) for m in progress.moves],
    }


def solve_object(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> dict[str, Any]:
    """The ``result`` object (``zerosum solve --json``; the AI's search in
    the browser)."""
    return {
        "type": "result",
        **result_fields(game, state, result),
        "best_moves": [game.format_move(m) for m in result.best_moves],
    }


def analyze_object(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> dict[str, Any]:
    """The ``analysis`` object (``zerosum analyze --json``)."""
    return {
        "type": "analysis",
        **result_fields(game, state, result),
        "moves": [move_entry(game, state, m) for m in result.moves],
    }


def perft_object(
    game: Game[Any, Any],
    state: Any,
    depth: int,
    nodes: int,
    time_s: float,
    divide: list[tuple[Any, int]] | None = None,
) -> dict[str, Any]:
    """The ``perft`` object (``zerosum perft --json``): the number of move
    sequences of ``depth`` plies from ``state``; with ``divide`` (pairs of
    first move and count) the count per first move too."""
    obj: dict[str, Any] = {
        "type": "perft",
        "game": game.spec(),
        "position": game.format_position(state),
        "depth": depth,
        "nodes": nodes,
        "time_s": round(time_s, 6),
    }
    if divide is not None:
        obj["divide"] = {game.format_move(move): count for move, count in divide}
    return obj


def games_list(rows: list[tuple[str, str, str]]) -> list[dict[str, str]]:
    """The list ``zerosum games --json`` prints: each game's name, its
    parameters with their defaults, and its description (rows as
    :func:`zerosum.registry.games_table` gives them)."""
    return [
        {"name": name, "parameters": params, "description": description}
        for name, params, description in rows
    ]


def _bound(value: int | None) -> int | None:
    """A window bound for JSON: None for an unbounded side (or no window)."""
    return None if value is None or abs(value) >= INF else value


def trace_object(run: Trace) -> dict[str, Any]:
    """The ``trace`` object (``zerosum trace --json``, the browser's tree
    view): the search's own figures and every node in visit order. Values
    are from the root mover's (MAX's) point of view (an engine trace's too)."""
    game = run.game
    tree = []
    for node in run.nodes:
        tree.append(
            {
                "id": node.id,
                "parent": node.parent,
                "move": None if node.move is None else game.format_move(node.move),
                "ply": node.ply,
                "max": node.maximizing,
                "alpha": _bound(node.alpha),
                "beta": _bound(node.beta),
                "value": node.value,
                "leaf": node.leaf,
                "children": node.children,
                "best": node.best,
                "best_move": None if node.best_move is None else game.format_move(node.best_move),
                "cut": node.cut,
                "bound": _bound(node.bound),
                "pruned": [game.format_move(m) for m in node.pruned],
                "reason": node.reason,
                "depth": node.depth,
                "iteration": node.iteration,
                "visits": node.visits,
                "nodes": node.nodes,
                "leaves": node.leaves,
                "opened": node.opened,
                "closed": node.closed,
                "position": game.format_position(node.state),
            }
        )
    stats = run.result.stats
    return {
        "type": "trace",
        **position_fields(game, run.state),
        "algorithm": run.algorithm,
        "depth": run.depth,
        "evaluate_terminals": run.evaluate_terminals,
        "root_search": run.root_search,
        "keep_depth": run.keep_depth,
        "value": run.value,
        "exact": run.result.score.exact,
        "best_move": None if run.best_move is None else game.format_move(run.best_move),
        "nodes": stats.nodes,
        "leaves": stats.leaves,
        "cutoffs": stats.cutoffs,
        "time_s": round(stats.time_s, 6),
        "tree": tree,
    }


def error_object(message: str, **extra: Any) -> dict[str, Any]:
    """An ``error`` object: one line saying what is wrong and what is expected."""
    return {"type": "error", "message": message, **extra}


#: Characters that end a line for some readers (Python's str.splitlines,
#: JavaScript) although JSON leaves them raw: escaped so that one object
#: stays one line.
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def json_line(obj: Any) -> str:
    """``obj`` as one line of JSON (``--json``, ``--batch``): non-ASCII kept
    readable, every character that some reader takes for a line break
    escaped.

    >>> json_line({"move": "\u2028x"})
    '{"move": "\\\\u2028x"}'
    """
    text = json.dumps(obj, ensure_ascii=False)
    for raw, escaped in _LINE_BREAKS.items():
        text = text.replace(raw, escaped)
    return text


def board_object(
    board: Board | None, placed: Iterable[tuple[int, Iterable[Cell]]] = ()
) -> dict[str, Any] | None:
    """A :class:`~zerosum.game.Board` as JSON (None without one). ``placed``
    lists ``(player, cells)`` of the moves that led here: a neutral piece a
    player placed (a Domineering tile) is drawn in that player's colour."""
    if board is None:
        return None
    cells = list(board.cells)
    for player, marked in placed:
        for r, c in marked:
            i = r * board.cols + c
            if 0 <= i < len(cells) and cells[i] == NEUTRAL:
                cells[i] = player
    return {
        "rows": board.rows,
        "cols": board.cols,
        "cells": cells,
        "pieces": list(board.pieces),
        "neutral": board.neutral,
        "drop": board.drop,
        "row_labels": list(board.row_labels),
        "col_labels": list(board.col_labels),
    }
