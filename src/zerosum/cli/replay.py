"""``zerosum replay``: a game of a match record, move by move.

The file may come from anywhere: it is read by
:func:`zerosum.play.records.game_records` (line by line, bounded, a regular
file only), the game shown is checked against the rules
(:func:`zerosum.play.records.replay_record`), and what the record says in
its own words (players, detail) is printed escaped. A bad record is one
line naming the file and the line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..game import ZerosumError
from ..i18n import N_, _
from ..play.records import game_records, replay_record
from .usage import UsageError, one_line

#: How a recorded game ended, in words a reader's language has.
REASON_WORDS = {
    "end": N_("end"),
    "failure": N_("a player failed"),
    "max_plies": N_("move limit reached"),
}


def find_game(path: str, number: int) -> tuple[dict[str, Any] | None, int, int]:
    """The ``game`` record numbered ``number`` in the file ``path`` (None when
    there is none), its line, and how many game records the file holds; a
    bad line is a ZerosumError naming it (:func:`~zerosum.play.records.game_records`)."""
    found: dict[str, Any] | None = None
    where = 0
    count = 0
    for line_number, obj in game_records(path):
        count += 1
        tag = obj.get("number")
        if found is None and type(tag) is int and tag == number:
            found, where = obj, line_number
    return found, where, count


def cmd_replay(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    path = args.file
    entry, line, count = find_game(path, args.game)
    if count == 0:
        raise ZerosumError(_("{path} holds no game records").format(path=one_line(path)))
    if entry is None:
        raise UsageError(
            _("no game {k} in {path}; expected a number from 1 to {n}").format(
                k=args.game, path=one_line(path), n=count
            )
        )
    try:
        record = replay_record(entry)
    except ZerosumError as error:
        raise ZerosumError(
            _("game {k} of {path} (line {line}) is not a valid record: {error}").format(
                k=args.game, path=one_line(path), line=line, error=error
            )
        ) from None
    game = record.game
    first, second = (one_line(p) for p in record.players)
    out(
        _("Game {k}: {first_name} {first} against {second_name} {second}").format(
            k=args.game,
            first_name=game.player_name(0),
            first=first,
            second_name=game.player_name(1),
            second=second,
        )
    )
    opening = [game.format_move(m) for m in record.opening]
    if opening:
        out(_("Opening: {moves}").format(moves=" ".join(opening)))
    states = record.states()
    if not args.final:
        out(game.render(states[0]))
        for ply, move in enumerate(record.moves, 1):
            player = game.player_name(game.to_move(states[ply - 1]))
            out("")
            out(
                _("{ply}. {player} plays {move}").format(
                    ply=ply, player=player, move=game.format_move(move)
                )
            )
            out(game.render(states[ply]))
    else:
        out(game.render(states[-1]))
    out("")
    out(
        _("Result: {result} ({reason}{detail})").format(
            result=record.result,
            reason=_(REASON_WORDS.get(record.reason, record.reason)),
            detail=f": {one_line(record.detail)}" if record.detail else "",
        )
    )
    moves = [*opening, *(game.format_move(m) for m in record.moves)]
    out(_("Record (paste into the browser): {record}").format(record=" ".join(moves)))
    return 0
