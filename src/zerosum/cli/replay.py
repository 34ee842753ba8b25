"""``zerosum replay``: a game of a match record, move by move.

The file may come from anywhere: it is read line by line with a bound on
each line (:data:`MAX_LINE`), only a regular file is opened (``/dev/zero``
or a FIFO with no writer would read or block forever), every line must be
UTF-8 JSON, the game shown is checked against the rules
(:func:`zerosum.play.record.replay_record`), and what the record says in
its own words (players, detail) is printed escaped. A bad record is one
line naming the file and the line.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
from collections.abc import Callable
from typing import Any, BinaryIO

from ..game import ZerosumError
from ..i18n import _
from ..play.record import replay_record
from .parser import UsageError, one_line

#: The longest line read from a record (bytes): a game of a few thousand
#: moves fits many times over.
MAX_LINE = 1 << 20


def _open(path: str) -> BinaryIO:
    """``path`` opened for reading when it is a regular file."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once (and is
        # then refused below) instead of waiting for one.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise ZerosumError(
            _("cannot read {path}: {error}").format(
                path=one_line(path), error=error.strerror or error
            )
        ) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ZerosumError(
            _("{path} is not a regular file; expected a record written by zerosum match").format(
                path=one_line(path)
            )
        )
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def find_game(path: str, number: int) -> tuple[dict[str, Any] | None, int, int]:
    """Read the record file ``path``: the ``game`` record numbered
    ``number`` (None when there is none), its line, and how many game records
    the file holds. A line that is too long, not UTF-8 or not JSON is a
    ZerosumError naming it."""
    found: dict[str, Any] | None = None
    where = 0
    count = 0
    with _open(path) as stream:
        for line_number, raw in enumerate(iter(lambda: stream.readline(MAX_LINE + 1), b""), 1):
            if len(raw) > MAX_LINE:
                raise ZerosumError(
                    _("{path} line {number} is longer than {most} bytes; expected one JSON"
                      " record a line").format(
                        path=one_line(path), number=line_number, most=MAX_LINE
                    )
                )
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ZerosumError(
                    _("{path} line {number} is not UTF-8 text").format(
                        path=one_line(path), number=line_number
                    )
                ) from None
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError):  # RecursionError: nested too deep
                raise ZerosumError(
                    _("{path} line {number} is not a JSON record").format(
                        path=one_line(path), number=line_number
                    )
                ) from None
            if isinstance(obj, dict) and obj.get("type") == "game":
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
            reason=record.reason,
            detail=f": {one_line(record.detail)}" if record.detail else "",
        )
    )
    moves = [*opening, *(game.format_move(m) for m in record.moves)]
    out(_("Record (paste into the browser): {record}").format(record=" ".join(moves)))
    return 0
