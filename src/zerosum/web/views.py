"""The objects a session sends besides the search objects of
:mod:`zerosum.report`: ``state`` (everything the page shows), the game-over
``outcome`` and ``hint``. Pure functions of what they are given; texts in
the active language; keys as ``docs/messages.md`` lists them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game import Game, Player
from ..i18n import _
from ..play.players import PlayerSpec
from ..registry import parse_spec
from ..report import board_object
from ..search.types import Score
from .messages import player_json
from .movetext import format_movetext
from .record import Record, Variation


@dataclass(frozen=True)
class Settings:
    """What the page chose besides the game: echoed in ``state``."""

    delay: float
    analysis_time: float
    analysis: bool
    lines: int
    #: Read and write the store of proven results; read opening books.
    store: bool = True
    book: bool = True


def variation_json(game: Game[Any, Any], variation: Variation[Any]) -> dict[str, Any]:
    """One of ``state.variations``: ``{ply, moves, inner}``."""
    return {
        "ply": variation.ply,
        "moves": [game.format_move(m) for m in variation.moves],
        "inner": [variation_json(game, v) for v in variation.inner],
    }


def capitalised(name: str) -> str:
    """``name`` with its first letter in capitals (a Chinese name unchanged).

    >>> capitalised("first"), capitalised("红方")
    ('First', '红方')
    """
    return name[:1].upper() + name[1:]


def minus(value: int) -> str:
    """A signed whole number with a real minus sign (−86, not -86).

    >>> minus(-86), minus(12), minus(0)
    ('−86', '+12', '0')
    """
    return f"{value:+d}".replace("-", "\u2212") if value else "0"


def hint_object(
    game: Game[Any, Any], state: Any, move: Any, score: int, exact: bool
) -> dict[str, Any]:
    """The ``hint`` object: the best move found in ``state`` and its score
    (from the side to move) with its ``plies`` and ``words`` (the one
    formatter, :meth:`~zerosum.search.types.Score.describe`; no
    "(heuristic)" in a hint), and ``text`` ready to show."""
    shown = game.format_move(move)
    value = Score(score, exact)
    words = value.describe(mark_heuristic=False)
    return {
        "type": "hint",
        "position": game.format_position(state),
        "move": shown,
        "score": score,
        "exact": exact,
        "plies": value.plies,
        "words": words,
        "text": _("Hint: {move}, {score}").format(move=shown, score=words),
    }


def outcome_object(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """The ``outcome`` of a finished position: the winner (None for a draw),
    the winning line's cells, the disc counts where the game counts pieces
    (Othello), and the result in words."""
    utility = game.utility(state, 0)
    winner: Player | None = 0 if utility > 0 else 1 if utility < 0 else None
    cells = [list(cell) for cell in game.winning_cells(state)]
    counts = game.piece_counts(state)
    if winner is None:
        text = _("Draw")
        if counts is not None:
            text = _("Draw {first}–{second}").format(first=counts[0], second=counts[1])
    elif counts is not None:
        text = _("{player} wins {mine}–{theirs}").format(
            player=game.player_name(winner), mine=counts[winner], theirs=counts[1 - winner]
        )
    elif not cells and winner != game.to_move(state):
        # Nothing in a row to show and the side to move lost: it had no move
        # (Domineering, Nim).
        text = _("{player} cannot move: {winner} wins").format(
            player=game.player_name(game.to_move(state)), winner=game.player_name(winner)
        )
    else:
        text = _("{player} wins").format(player=game.player_name(winner))
    return {
        "winner": winner,
        "cells": cells,
        "counts": None if counts is None else list(counts),
        "text": text,
    }


def game_params(game: Game[Any, Any]) -> dict[str, int | str]:
    """The game's parameters as values (every one, defaults included)."""
    cls, given = parse_spec(game.spec())
    return {p.name: given.get(p.name, p.default) for p in cls.params}


def last_move(
    game: Game[Any, Any], record: Record[Any, Any], by: Sequence[str | None]
) -> dict[str, Any] | None:
    """``last_move``: who played the move that led to the position shown,
    and how (``by``, indexed by ply, says who played each move of the line)."""
    if record.ply == 0:
        return None
    before = record.state_at(record.ply - 1)
    return {
        "player": game.to_move(before),
        "move": game.format_move(record.line[record.ply - 1]),
        "by": by[record.ply - 1] or "human",
    }


def state_object(
    game: Game[Any, Any],
    record: Record[Any, Any],
    *,
    players: Sequence[PlayerSpec],
    by: Sequence[str | None],
    searching: str | None,
    search_id: int | None,
    paused: bool,
    settings: Settings,
    seed: int,
) -> dict[str, Any]:
    """The ``state`` object: everything the page shows (``docs/messages.md``)."""
    state, line, states = record.state, record.line, record.states
    over = game.is_terminal(state)
    outcome = outcome_object(game, state) if over else None
    history: list[dict[str, Any]] = []
    for ply, move in enumerate(line):
        before = states[ply]
        history.append(
            {
                "move": game.format_move(move),
                "player": game.to_move(before),
                "cells": [list(c) for c in game.move_cells(before, move)],
            }
        )
    # A neutral piece the record says someone placed (a Domineering tile) is
    # drawn in that player's colour.
    placed = [(entry["player"], entry["cells"]) for entry in history[: record.ply]]
    return {
        "type": "state",
        "game": game.spec(),
        "name": game.name,
        "params": game_params(game),
        "title": _(type(game).title),
        # a name the page shows at the start of a line ("First to move"):
        # capitalised (Nim's are "first" and "second" in its notation)
        "player_names": [capitalised(game.player_name(0)), capitalised(game.player_name(1))],
        "players": [player_json(p) for p in players],
        "position": game.format_position(state),
        "start": game.format_position(record.origin),
        # whether the record starts elsewhere than the game's own start (an
        # exported record then names its start position)
        "custom_start": game.format_position(record.origin)
        != game.format_position(game.initial_state()),
        "record": " ".join(game.format_move(m) for m in line),
        "history": history,
        "variations": [variation_json(game, v) for v in record.variation_tree()],
        "movetext": format_movetext(game, record),
        "ply": record.ply,
        "to_move": game.to_move(state),
        "last_move": last_move(game, record, by),
        "legal": [
            {"move": game.format_move(m), "cells": [list(c) for c in game.move_cells(state, m)]}
            for m in ([] if over else game.actions(state))
        ],
        "board": board_object(game.board(state), placed),
        "text": game.render(state),
        "over": over,
        "winner": None if outcome is None else outcome["winner"],
        "outcome": outcome,
        "banner": None if outcome is None else outcome["text"],
        "searching": searching,
        "search_id": search_id,
        "paused": paused,
        "analysis": settings.analysis,
        "delay": settings.delay,
        "analysis_time": settings.analysis_time,
        "lines": settings.lines,
        "store": settings.store,
        "book": settings.book,
        "seed": seed,
    }
