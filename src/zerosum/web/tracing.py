"""The browser's search-tree view, server side: two read-only GET endpoints.

* ``GET /api/trace?game=&position=&moves=&algorithm=&depth=&evaluate_terminals=&root=&top=&lang=``
  -- the ``trace`` object (``docs/messages.md``) of the reference search from
  the position reached by ``moves`` from ``position`` (default: the start);
* ``GET /api/position?game=&position=&moves=&lang=`` -- that position as the
  page draws it (``board`` as in the ``state`` object, ``text``, whose turn):
  the small board of a node the learner clicks.

Both answer a bad request with status 400 and an ``error`` object in the
language of ``lang``. They hold no state: the tree view does not touch the
game being played on the page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..game import Game, ZerosumError
from ..i18n import _
from ..registry import load
from ..report import board_object, trace_object
from ..search.trace import trace

#: Longest query value accepted (a long record fits).
MAX_PARAM = 8_000
#: Deepest ``top`` (listed plies of a big tree) the page may ask for.
MAX_TOP = 4
#: A whole number in ASCII digits, of a sane length (``int()`` also takes
#: "³", "١" or "1_0", and a 5,000-digit one raises ValueError).
_WHOLE = re.compile(r"\s*-?[0-9]{1,6}\s*", re.ASCII)


def _param(query: Mapping[str, str], key: str) -> str | None:
    value = query.get(key)
    if value is not None and len(value) > MAX_PARAM:
        raise ZerosumError(_("{key} is too long").format(key=key))
    return value or None


def _small_int(query: Mapping[str, str], key: str, low: int, high: int) -> int | None:
    text = _param(query, key)
    if text is None:
        return None
    if not _WHOLE.fullmatch(text) or not low <= int(text) <= high:
        raise ZerosumError(
            _("{key} must be a whole number from {low} to {high}, got {value!r}").format(
                key=key, low=low, high=high, value=text[:20]
            )
        )
    return int(text)


def _position(query: Mapping[str, str]) -> tuple[Game[Any, Any], Any, list[Any], Any]:
    """The game, the position at the start of ``moves``, the moves, and the
    position they reach."""
    spec = _param(query, "game")
    if spec is None:
        raise ZerosumError(_("game is missing; expected a game spec such as tictactoe"))
    game = load(spec)
    text = _param(query, "position")
    start = game.initial_state() if text is None else game.parse_position(text)
    moves: list[Any] = []
    state = start
    for token in game.split_moves(_param(query, "moves") or ""):
        if game.is_terminal(state):
            raise ZerosumError(
                _("the game is over in this position; expected a position with a move to make")
            )
        move = game.parse_move(state, token)
        moves.append(move)
        state = game.result(state, move)
    return game, start, moves, state


def trace_response(query: Mapping[str, str]) -> dict[str, Any]:
    """The ``trace`` object for ``GET /api/trace`` (raises ZerosumError)."""
    game, _start, _moves, state = _position(query)
    algorithm = _param(query, "algorithm") or "alphabeta"
    root = _param(query, "root") or "best"
    if root not in ("best", "every"):
        raise ZerosumError(_("root must be best or every, got {value!r}").format(value=root[:20]))
    run = trace(
        game,
        state,
        algorithm=algorithm,
        depth=_small_int(query, "depth", -1000, 1000),
        evaluate_terminals=_param(query, "evaluate_terminals") in ("1", "true"),
        root_search="every" if root == "every" else "best",
        keep_depth=_small_int(query, "top", 0, MAX_TOP),
    )
    return trace_object(run)


def position_response(query: Mapping[str, str]) -> dict[str, Any]:
    """The ``position`` object for ``GET /api/position`` (raises ZerosumError)."""
    game, start, moves, state = _position(query)
    # Who placed each neutral piece along ``moves`` (a Domineering tile is
    # drawn in its player's colour, as on the main board).
    placed: list[tuple[int, tuple[tuple[int, int], ...]]] = []
    before = start
    for move in moves:
        placed.append((game.to_move(before), tuple(game.move_cells(before, move))))
        before = game.result(before, move)
    board_json = board_object(game.board(state), placed)
    return {
        "type": "position",
        "game": game.spec(),
        "position": game.format_position(state),
        "to_move": game.to_move(state),
        "player_names": [game.player_name(0), game.player_name(1)],
        "over": game.is_terminal(state),
        "board": board_json,
        "text": game.render(state),
    }
