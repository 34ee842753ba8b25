"""What names a game and a position in the store.

A game is named by its identity: its registry name, its canonical parameter
spec (``game.spec()``, every parameter in declared order, so
``connect4`` and ``connect4(width=7,height=6)`` are one game) and the
version of its rules (``game.rules_version``, 1 unless the game says
otherwise): a changed rule never reuses old answers.

A position is named by the key of its symmetry class (``game.canonical``),
written as text: an int in hexadecimal, anything else by its ``repr``
(which must not change from one process to the next: ints, strings and
tuples of them do not; a set of strings is printed in an order that
changes with each process's hash seed, so such a key finds nothing kept by
another process -- never a wrong answer, only a miss: give the game a
``key`` of ints or tuples). Moves are kept in the frame of the class
representative, in the game's notation (``format_move``), and mapped back
through the symmetry to the position asked about.

>>> import zerosum
>>> game = zerosum.load("connect4")
>>> identity_of(game)
GameIdentity(name='connect4', spec='connect4(width=7,height=6)', rules_version=1)
>>> left, right = game.play_text("1"), game.play_text("7")
>>> position_key(game, left)[0] == position_key(game, right)[0]
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..game import Game


@dataclass(frozen=True)
class GameIdentity:
    """A game as the store tells games apart."""

    name: str
    spec: str
    rules_version: int


def identity_of(game: Game[Any, Any]) -> GameIdentity:
    """The identity of ``game`` (see the module notes)."""
    version = getattr(game, "rules_version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValueError(f"{type(game).__name__}.rules_version must be a whole number >= 1")
    name = game.name or type(game).__name__
    return GameIdentity(name, game.spec() if game.name else name, version)


class UnstableKey(ValueError):
    """A key whose text would differ in another process (an object shown by
    its address): such positions are not stored."""


def key_text(key: object) -> str:
    """``key`` as the store writes it: ``x`` and hexadecimal for an int,
    ``r`` and the ``repr`` for anything else. Raises :class:`UnstableKey`
    when the repr shows an object's address."""
    if isinstance(key, int) and not isinstance(key, bool):
        return "x" + format(key, "x")
    text = repr(key)
    if " at 0x" in text or " object at " in text:
        raise UnstableKey(f"a key shown as {text[:40]!r} is not the same in another process")
    return "r" + text


def position_key(game: Game[Any, Any], state: Any) -> tuple[str, int]:
    """The text key of ``state``'s symmetry class and the transform that maps
    ``state`` onto the class representative (0 without symmetries)."""
    if game.symmetry_count() > 1:
        key, transform = game.canonical(state)
    else:
        key, transform = game.key(state), 0
    return key_text(key), transform


def moves_text(
    game: Game[Any, Any], moves: tuple[Any, ...], transform: int
) -> str:
    """``moves`` of a position, in the frame of its class representative, as
    the store writes them (a JSON list of the game's notation)."""
    if transform:
        moves = tuple(game.map_move(m, transform) for m in moves)
    return json.dumps([game.format_move(m) for m in moves], ensure_ascii=False)


def read_moves(
    game: Game[Any, Any], state: Any, text: str, transform: int
) -> tuple[Any, ...]:
    """Inverse of :func:`moves_text`: the moves written ``text`` for the
    representative of ``state``'s class, mapped back into ``state``'s frame.
    Raises ValueError when the text is not moves of that position."""
    names = json.loads(text)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError("the moves are not a list of move names")
    frame = game.transform(state, transform) if transform else state
    moves = []
    for name in names:
        move = game.parse_move(frame, name)
        moves.append(game.map_move(move, transform, inverse=True) if transform else move)
    return tuple(moves)
