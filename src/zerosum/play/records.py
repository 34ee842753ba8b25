"""Match records beside the match runner: what a match file holds and what
``zerosum match --json`` prints, built here; front ends only render them.

A match file is JSON lines: a ``match`` header (:func:`match_header`), then
one ``game`` record per game as it finishes (:func:`game_record`).
:func:`match_summary` is the match's result (``zerosum match --json``);
:func:`game_records` reads a file's game records back, bounded, from a file
anyone may have edited, and :func:`replay_record` checks one against the
rules (the opening reaches ``start``, every move is legal, and ``result`` is
what the moves and ``reason`` give), so what a front end then shows is the
game the rules say, never a tampered result (``zerosum replay``).
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..game import Game, ZerosumError, excerpt
from ..i18n import _
from ..registry import load
from .elo import SPRT, Tally
from .match import MatchResult

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


def match_header(setup: MatchSetup) -> dict[str, Any]:
    """The first line of a match file: what the match plays."""
    return {
        "type": "match",
        "game": setup.game,
        "a": setup.players[0],
        "b": setup.players[1],
        "games": setup.games,
        "seed": setup.seed,
        "openings": setup.openings,
        "max_plies": setup.max_plies,
    }


def game_record(
    game: Game[Any, Any],
    number: int,
    names: tuple[str, str],
    a_first: bool,
    seed: int,
    start_moves: list[Any],
    start: Any,
    played: MatchResult,
) -> dict[str, Any]:
    """The record of game ``number`` (0-based) of a match between players
    ``names`` (A, B), ``a_first`` when A moved first, played from ``start``
    (after the opening ``start_moves``) by the game loop: a failing player's
    side loses, a game stopped at ``max_plies`` is a draw."""
    first, second = names if a_first else (names[1], names[0])
    moves = [game.format_move(move) for move in played.moves]
    detail = played.detail
    loser = played.failed_by
    if loser is not None:
        detail = f"{game.player_name(loser)} ({(first, second)[loser]}): {detail}"
    outcome = 0 if played.outcome is None else played.outcome  # max_plies: a draw
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
        "reason": played.reason,
        "detail": detail,
        "time": [round(played.spent[0], 4), round(played.spent[1], 4)],
        "plies": len(moves),
    }


def _number(value: float) -> float | None:
    return None if math.isinf(value) or math.isnan(value) else round(value, 2)


def tally_object(tally: Tally) -> dict[str, int]:
    return {"wins": tally.wins, "draws": tally.draws, "losses": tally.losses}


def match_summary(
    setup: MatchSetup,
    tally: Tally,
    sides: dict[bool, Tally],
    failures: list[str],
    path: str,
    seconds: float,
    sprt: SPRT | None = None,
    verdict: str | None = None,
) -> dict[str, Any]:
    """The match's result (``zerosum match --json``): player A's wins,
    draws and losses, in total and by who moved first (``sides[True]``: A
    first), the Elo difference with its 95% interval (None where infinite),
    the failures, where the record is, and the SPRT's state when one ran."""
    low, high = tally.interval()
    obj: dict[str, Any] = {
        "type": "match",
        "game": setup.game,
        "a": setup.players[0],
        "b": setup.players[1],
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "a_first": tally_object(sides[True]),
        "a_second": tally_object(sides[False]),
        "score": round(tally.score, 4),
        "elo": _number(tally.elo()),
        "elo_low": _number(low),
        "elo_high": _number(high),
        "failures": failures,
        "record": path,
        "seed": setup.seed,
        "time_s": round(seconds, 3),
    }
    if sprt is not None:
        obj["sprt"] = {
            "elo0": sprt.elo0,
            "elo1": sprt.elo1,
            "alpha": sprt.alpha,
            "beta": sprt.beta,
            "llr": round(sprt.llr(tally), 4),
            "bounds": [round(b, 4) for b in sprt.bounds()],
            "verdict": verdict,
        }
    return obj


#: The longest line read from a record file (bytes): a game of a few
#: thousand moves fits many times over.
MAX_LINE = 1 << 20


def _open(path: str) -> BinaryIO:
    """``path`` opened for reading when it is a regular file."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once (and is
        # then refused below) instead of waiting for one.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise ZerosumError(
            _("cannot read {path}: {error}").format(path=path, error=error.strerror or error)
        ) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ZerosumError(
            _("{path} is not a regular file; expected a record written by zerosum match").format(
                path=path
            )
        )
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def game_records(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The ``game`` records of the match file ``path`` with their line
    numbers, read line by line: only a regular file is opened (``/dev/zero``
    or a FIFO with no writer would read or block forever), and a line longer
    than :data:`MAX_LINE`, not UTF-8 or not JSON is a ZerosumError naming it.
    The records are as written: :func:`replay_record` checks one."""
    with _open(path) as stream:
        for number, raw in enumerate(iter(lambda: stream.readline(MAX_LINE + 1), b""), 1):
            if len(raw) > MAX_LINE:
                raise ZerosumError(
                    _("{path} line {number} is longer than {most} bytes; expected one JSON"
                      " record a line").format(path=path, number=number, most=MAX_LINE)
                )
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ZerosumError(
                    _("{path} line {number} is not UTF-8 text").format(path=path, number=number)
                ) from None
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError):  # RecursionError: nested too deep
                raise ZerosumError(
                    _("{path} line {number} is not a JSON record").format(path=path, number=number)
                ) from None
            if isinstance(obj, dict) and obj.get("type") == "game":
                yield number, obj


def read_records(path: str) -> list[dict[str, Any]]:
    """The ``game`` records of the match file ``path`` (see :func:`game_records`)."""
    return [obj for _number, obj in game_records(path)]


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
