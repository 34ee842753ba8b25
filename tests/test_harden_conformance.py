"""Issue 22.9: ``check_game`` on broken games. A corpus of mutations of a
small game (each method raising, returning the wrong kind of value, endless
move lists, ``None`` moves, unhashable keys, mutated states...): every one
is caught as a :class:`ConformanceError` of one line naming the check, and
the method and position where one is to blame; nothing hangs (the checks
are bounded in moves and positions) and no user exception escapes raw."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from zerosum import Game, MoveError, PositionError
from zerosum.testing import ConformanceError, check_game

State = tuple[int, int]  # (counters left, player to move)


class Pile(Game[State, int]):
    """Take 1 or 2 counters from a pile of 7; whoever takes the last wins."""

    name = "pile"
    title = "Pile"

    def initial_state(self) -> State:
        return (7, 0)

    def to_move(self, state: State) -> int:
        return state[1]

    def actions(self, state: State) -> Sequence[int]:
        return [n for n in (1, 2) if n <= state[0]]

    def result(self, state: State, action: int) -> State:
        return (state[0] - action, 1 - state[1])

    def is_terminal(self, state: State) -> bool:
        return state[0] == 0

    def utility(self, state: State, player: int) -> int:
        return -1 if player == state[1] else 1

    def format_move(self, action: int) -> str:
        return str(action)

    def parse_move(self, state: State, text: str) -> int:
        if text not in {str(n) for n in self.actions(state)}:
            raise MoveError(f"cannot take {text!r}")
        return int(text)

    def format_position(self, state: State) -> str:
        return f"{state[0]}:{state[1]}"

    def parse_position(self, text: str) -> State:
        left, _, player = text.partition(":")
        if not (left.isdigit() and player in ("0", "1")):
            raise PositionError(f"cannot read {text!r}")
        return (int(left), int(player))


def test_the_small_game_passes() -> None:
    check_game(Pile(), playouts=4, max_plies=50)


def mutant(name: str, method: str, body: Callable[..., Any]) -> Game[Any, Any]:
    cls = type(f"Pile_{name}", (Pile,), {method: body})
    return cls()  # type: ignore[no-any-return]


class Boom(Exception):
    pass


def _raise(*_args: Any, **_kwargs: Any) -> Any:
    raise Boom("broken on purpose")


RAISING = ["initial_state", "to_move", "actions", "result", "is_terminal", "utility",
           "format_move", "parse_move", "format_position", "parse_position", "key",
           "ordered_actions", "winning_action", "non_losing_actions", "plies_left",
           "canonical", "board", "symmetry_count"]
WRONG = [None, "x", 1.5, [], object(), {"a": 1}, -7]
WRONG_METHODS = ["to_move", "actions", "utility", "is_terminal", "format_move",
                 "parse_move", "format_position", "parse_position", "ordered_actions",
                 "key", "winning_action", "plies_left", "canonical", "symmetry_count"]


def specials() -> list[tuple[str, Game[Any, Any], str]]:
    """Broken in a particular way: (id, game, what the message names)."""
    return [
        ("endless-actions", mutant("a", "actions", lambda self, s: itertools.count(1)),
         "actions"),
        ("none-move", mutant("b", "actions",
                             lambda self, s: [None, *Pile.actions(self, s)] if s[0] else []),
         "None"),
        ("list-key", mutant("c", "key", lambda self, s: list(s)), "hashable"),
        ("dict-key", mutant("d", "key", lambda self, s: {s: 1}), "hashable"),
        ("turn-2", mutant("e", "to_move", lambda self, s: 2), "to_move"),
        ("half-utility", mutant("f", "utility", lambda self, s, p: 0.5), "utilit"),
        ("same-state", mutant("g", "result", lambda self, s, a: s), "did not end"),
        ("never-ends", mutant("h", "is_terminal", lambda self, s: False), "actions"),
        ("generator-endless", mutant("i", "ordered_actions",
                                     lambda self, s: (n for n in itertools.count())),
         "ordered_actions"),
        ("list-state", mutant("j", "initial_state", lambda self: [7, 0]), "hashable"),
        ("recursing", mutant("k", "actions", lambda self, s: self.actions(s)), "recurs"),
        ("bad-winning", mutant("l", "winning_action", lambda self, s: 99), "winning_action"),
        ("moves-text", mutant("m", "actions", lambda self, s: "12" if s[0] else ""),
         "check"),
    ]


CORPUS: list[tuple[str, Game[Any, Any], str]] = [
    *((f"raise-{m}", mutant(m, m, _raise), f"{m}() raised Boom") for m in RAISING),
    *((f"{m}-returns-{type(v).__name__}", mutant(m, m, lambda self, *a, v=v: v), "check")
      for m in WRONG_METHODS for v in WRONG),
    *specials(),
]


@pytest.mark.parametrize(("game", "needle"), [c[1:] for c in CORPUS], ids=[c[0] for c in CORPUS])
def test_every_broken_game_is_named_in_one_line(game: Game[Any, Any], needle: str) -> None:
    try:
        check_game(game, playouts=4, max_plies=60)
    except ConformanceError as error:
        message = str(error)
    else:
        # A wrong value a check never reads (e.g. an unused optional hint
        # returning a string that still compares) may pass; the raising and
        # special cases may not.
        if needle != "check":
            raise AssertionError("passed") from None
        return
    assert "\n" not in message and message.startswith("pile"), message
    assert needle in message and "check " in message, message
