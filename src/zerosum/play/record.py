"""A game record of a match, checked against the rules.

The records ``zerosum match`` writes (see :mod:`.runner`) come back from a
file anyone may have edited: :func:`replay_record` takes one decoded record
and checks every field a replay uses (its type, and the game's own rules:
the opening reaches ``start``, every move is legal, and ``result`` is what
the moves and ``reason`` give), so what a front end then shows is the game
the rules say, never a tampered result. A bad record is one
:class:`~zerosum.game.ZerosumError` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game import Game, ZerosumError, excerpt
from ..i18n import _
from ..registry import load
from .records import RESULTS

#: What ``reason`` may say (see :mod:`.runner`).
REASONS = ("end", "failure", "max_plies")


@dataclass(frozen=True)
class Replayed:
    """A checked record: the game, the opening's moves, the position they
    reach, the moves played from there, and what the record says of them
    (``players`` the first and second player's specs; ``detail`` as written,
    to be escaped by whoever prints it)."""

    game: Game[Any, Any]
    opening: tuple[Any, ...]
    start: Any
    moves: tuple[Any, ...]
    players: tuple[str, str]
    result: str
    reason: str
    detail: str

    def states(self) -> list[Any]:
        """The positions from ``start``, one after each move."""
        states = [self.start]
        for move in self.moves:
            states.append(self.game.result(states[-1], move))
        return states


def _field(entry: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    value = entry.get(key, default)
    if value is None and default is None:
        raise ZerosumError(_("the record has no {key!r}").format(key=key))
    if kind is list:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ZerosumError(
                _("the record's {key!r} must be a list of moves (strings), got {value}").format(
                    key=key, value=excerpt(value)
                )
            )
    elif not isinstance(value, kind):
        raise ZerosumError(
            _("the record's {key!r} must be {kind}, got {value}").format(
                key=key, kind=_("a string"), value=excerpt(value)
            )
        )
    return value


def _moves(game: Game[Any, Any], state: Any, texts: list[str], key: str) -> list[Any]:
    moves = []
    for ply, text in enumerate(texts, 1):
        if game.is_terminal(state):
            raise ZerosumError(
                _("the record's {key!r} goes on after the game is over (move {ply})").format(
                    key=key, ply=ply
                )
            )
        try:
            move = game.parse_move(state, text)
        except ZerosumError as error:
            raise ZerosumError(
                _("the record's {key!r} has an illegal move {ply}: {error}").format(
                    key=key, ply=ply, error=error
                )
            ) from None
        moves.append(move)
        state = game.result(state, move)
    return moves


def expected_result(game: Game[Any, Any], final: Any, reason: str) -> str | None:
    """The result the rules give a game that stopped at ``final`` for
    ``reason`` (None: that reason cannot stop a game there)."""
    if game.is_terminal(final):
        return str(RESULTS[game.utility(final, 0)]) if reason == "end" else None
    if reason == "max_plies":
        return RESULTS[0]
    if reason == "failure":  # the side to move failed to move, and lost
        return str(RESULTS[-1 if game.to_move(final) == 0 else 1])
    return None


def replay_record(entry: dict[str, Any]) -> Replayed:
    """Check one ``game`` record against the rules (see the module
    docstring); raises ZerosumError for a bad one."""
    game = load(_field(entry, "game", str))
    opening_texts = _field(entry, "opening", list, [])
    opening = _moves(game, game.initial_state(), opening_texts, "opening")
    reached = game.initial_state()
    for move in opening:
        reached = game.result(reached, move)
    start = game.parse_position(_field(entry, "start", str))
    if game.format_position(start) != game.format_position(reached):
        raise ZerosumError(_("the record's 'start' is not the position its opening reaches"))
    moves = _moves(game, start, _field(entry, "moves", list), "moves")
    players = entry.get("players", ["?", "?"])
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) for p in players)
    ):
        raise ZerosumError(
            _("the record's 'players' must be two strings, got {value}").format(
                value=excerpt(players)
            )
        )
    result = _field(entry, "result", str)
    reason = _field(entry, "reason", str)
    if reason not in REASONS:
        raise ZerosumError(
            _("the record's 'reason' must be one of {reasons}, got {value}").format(
                reasons=", ".join(REASONS), value=excerpt(reason)
            )
        )
    final = start
    for move in moves:
        final = game.result(final, move)
    expected = expected_result(game, final, reason)
    if expected is None or expected != result:
        raise ZerosumError(
            _(
                "the record's result {result} ({reason}) does not follow from its moves;"
                " expected {expected}"
            ).format(
                result=excerpt(result),
                reason=reason,
                expected=expected or _("another reason"),
            )
        )
    detail = _field(entry, "detail", str, "")
    return Replayed(
        game, tuple(opening), start, tuple(moves), (players[0], players[1]), result, reason,
        detail,
    )
