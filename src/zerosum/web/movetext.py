"""The record's movetext: the moves of a game with its variations, written
as PGN writes them (``docs/records.md``), and read back into a
:class:`~.record.Record`.

Contract:

* :func:`format_movetext` writes the whole tree: the current line, each
  variation in parentheses right after the move it replaces, nested as
  deep as played, with move numbers (``1. 4 4 (1... 3 5) 2. 3``). The
  numbers count pairs of plies from the record's start and are only for
  the reader.
* :func:`parse_movetext` reads that form and every plain list the game's
  own :meth:`~zerosum.game.Game.split_moves` reads (``"4 4 3"``, ``"443"``,
  Othello's ``f5d6``): move numbers (``1.``, ``1...``), ``{comments}``,
  ``;`` comments, ``$n`` marks and a final result (``1-0``, ``0-1``,
  ``1/2-1/2``, ``*``) are skipped. It returns the record with the first
  line current, shown at its end. A move that is not legal, a move after the
  game is over, an unbalanced parenthesis or a variation with no move
  before it is a :class:`~zerosum.game.ZerosumError` naming it; nothing is
  built then.
* A coordinate pair in brackets (``(0, 1)``) is a move, as
  :meth:`~zerosum.game.Game.split_moves` reads it; any other ``(`` opens a
  variation.
"""

from __future__ import annotations

import re
from typing import Any

from ..game import Game, ZerosumError, excerpt
from ..i18n import _
from .record import Node, Record

#: One token of movetext; the groups say which kind (see _tokens).
_TOKEN = re.compile(
    r"""(?P<skip>\s+|,|\{[^}]*\}|;[^\n]*|\$\d+|\d+\.+)
      | (?P<pair>\(\s*-?\d+\s*,\s*-?\d+\s*\))
      | (?P<open>\()
      | (?P<close>\))
      | (?P<word>[^\s,(){};]+)""",
    re.VERBOSE,
)
_RESULTS = {"1-0", "0-1", "1/2-1/2", "½-½", "*"}
#: Deepest nesting of variations read (a record is typed or pasted by a
#: person; a deeper one is refused rather than recursed into).
MAX_DEPTH = 64


def format_movetext(game: Game[Any, Any], record: Record[Any, Any]) -> str:
    """The whole record as movetext (see the module docstring)."""
    words: list[str] = []
    _write(game, record.root, 0, True, words)
    return " ".join(words)


def _write(
    game: Game[Any, Any], node: Node[Any, Any], ply: int, number: bool, out: list[str]
) -> None:
    # A loop along the current line, recursion only into variations: a long
    # game never nests deeper than its variations do.
    while node.children:
        main = node.children[node.chosen]
        out.append(_numbered(game, main, ply, number))
        others = [child for index, child in enumerate(node.children) if index != node.chosen]
        for child in others:
            out.append("(" + _numbered(game, child, ply, True))
            _write(game, child, ply + 1, False, out)
            out[-1] += ")"
        number = bool(others)
        node = main
        ply += 1


def _numbered(game: Game[Any, Any], node: Node[Any, Any], ply: int, number: bool) -> str:
    assert node.move is not None
    move = game.format_move(node.move)
    if ply % 2 == 0:
        return f"{ply // 2 + 1}. {move}"
    return f"{ply // 2 + 1}... {move}" if number else move


def _tokens(game: Game[Any, Any], text: str) -> list[str]:
    """The movetext's moves and parentheses, in order ("(" and ")" are the
    variations' brackets; every other item is one move's text)."""
    found: list[str] = []
    words: list[str] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        assert match is not None  # every character starts some token
        position = match.end()
        kind = match.lastgroup
        if kind == "word" and match.group() in _RESULTS:
            continue
        if kind in ("word", "pair"):
            words.append(match.group())
            continue
        if kind == "skip":
            continue
        found += _split(game, words)
        words = []
        found.append(match.group())
    return found + _split(game, words)


def _split(game: Game[Any, Any], words: list[str]) -> list[str]:
    # The game's own splitter: a compact run ("443", "f5d6") is several moves.
    return game.split_moves(" ".join(words)) if words else []


def parse_movetext(game: Game[Any, Any], origin: Any, text: str) -> Record[Any, Any]:
    """The record of ``text`` from ``origin`` (see the module docstring)."""
    record: Record[Any, Any] = Record(game.result, origin)
    # The line being read: the ply its next move is played at, and the ply
    # and move of its last move (what a "(" replaces); the stack keeps the
    # lines a variation branched from.
    stack: list[tuple[int, int | None, Any]] = []
    ply: int = 0
    last: int | None = None
    last_move: Any = None
    for token in _tokens(game, text):
        if token == "(":
            if last is None:
                raise ZerosumError(
                    _("a variation in brackets must follow a move it replaces: {text}").format(
                        text=excerpt(text)
                    )
                )
            if len(stack) >= MAX_DEPTH:
                raise ZerosumError(
                    _("variations nest deeper than {most} levels").format(most=MAX_DEPTH)
                )
            stack.append((ply, last, last_move))
            ply, last, last_move = last, None, None
            continue
        if token == ")":
            if not stack:
                raise ZerosumError(
                    _("a ')' closes no variation: {text}").format(text=excerpt(text))
                )
            # back to the line the variation branched from, its move current
            ply, last, last_move = stack.pop()
            assert last is not None
            record.switch(last, last_move)
            continue
        state = record.state_at(ply)
        if game.is_terminal(state):
            raise ZerosumError(
                _("move {text!r} comes after the game is over; expected no more moves").format(
                    text=token
                )
            )
        move = game.parse_move(state, token)
        record.goto(ply)
        record.play(move)
        last, last_move = ply, move
        ply += 1
    if stack:
        raise ZerosumError(
            _("a variation in brackets is not closed: {text}").format(text=excerpt(text))
        )
    # each closed variation switched back to the line it left: the first
    # line is current; show its end
    record.goto(len(record))
    return record
