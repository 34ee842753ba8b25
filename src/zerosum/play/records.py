"""Match records beside the match runner: what a match file holds and what
``zerosum match --json`` prints, built here; front ends only render them.

A match file is JSON lines: a ``match`` header (:func:`match_header`), then
one ``game`` record per game as it finishes (:func:`game_record`).
:func:`match_summary` is the match's result (``zerosum match --json``);
:func:`read_records` reads a file's game records back (``zerosum replay``,
the browser).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..game import Game, ZerosumError
from ..i18n import _
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


def read_records(path: str) -> list[dict[str, Any]]:
    """The ``game`` records of a match file (one JSON object per line)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ZerosumError(
            _("cannot read {path}: {error}").format(path=path, error=error.strerror)
        ) from None
    games = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            raise ZerosumError(
                _("{path} line {number} is not a JSON record").format(path=path, number=number)
            ) from None
        if isinstance(obj, dict) and obj.get("type") == "game":
            games.append(obj)
    return games
