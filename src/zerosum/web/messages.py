"""Checking what the browser sends: the schema's words, in the user's words.

Every function here either returns a checked value or raises
:class:`ProtocolError` with one line that says what is wrong and what is
expected, naming a field as the page shows it ("Analysis time", not
``analysis_time``). Nothing here changes a session: a session checks a whole
message first and only then acts, so a refused message changes nothing.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from typing import Any

from ..game import ZerosumError, excerpt
from ..i18n import N_, _
from ..play.agents import LEVELS
from ..search.reference import reference_recursion

#: Longest message a client may send (a pasted record of a long game fits).
MAX_MESSAGE = 64_000
#: Bounds of the settings a client may choose (seconds).
MIN_DELAY, MAX_DELAY = 0.0, 10.0
MIN_ANALYSIS, MAX_ANALYSIS = 0.1, 600.0
DEFAULT_ANALYSIS = 10.0
#: Seconds a computer player may be given for a move.
MIN_PLAYER_TIME, MAX_PLAYER_TIME = 0.1, 600.0
#: Seconds a move for a Monte Carlo tree search player given no time.
MCTS_SECONDS = 1.0
#: How many engine lines the page may show (multi-PV).
MIN_LINES, MAX_LINES, DEFAULT_LINES = 1, 5, 3

#: The page's names of the fields a number check may refuse (translated
#: where the message is made).
FIELD_NAMES = {
    "delay": N_("Delay"),
    "analysis_time": N_("Analysis time"),
    "time": N_("Player time"),
}


class ProtocolError(ZerosumError):
    """A message that breaks the schema; its text goes back as an ``error``."""


def internal_error() -> str:
    """The ``error`` text for a bug: nothing the user did, nothing lost."""
    return _("internal error; the game is unchanged (see the server's log)")


def too_deep() -> str:
    """The ``error`` text for a search deeper than Python's recursion."""
    return _(
        "the game is too long for the Python search: it recurses one level a ply"
        " and Python allows about {limit}; expected a depth limit or a shorter game"
    ).format(limit=sys.getrecursionlimit())


def quoted(value: Any) -> str:
    """A short excerpt of a JSON value a client sent, for a message."""
    return excerpt(json.dumps(value, ensure_ascii=False))


def decode(text: str) -> dict[str, Any]:
    """One message's text as a JSON object with a string ``type``."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(
            _("message too long ({size} characters); the most is {most}").format(
                size=len(text), most=MAX_MESSAGE
            )
        )
    try:
        # Under Python's default recursion limit whatever the engine set (it
        # raises it for deep games): deep nesting stays an error.
        with reference_recursion():
            data = json.loads(text)
    except ValueError:
        raise ProtocolError(
            _("malformed message: expected a JSON object with a \"type\"")
        ) from None
    except RecursionError:  # "[[[[...]]]]": nested beyond Python's recursion
        raise ProtocolError(
            _("malformed message: nested too deeply; expected a flat JSON object")
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError(_("malformed message: expected a JSON object with a \"type\""))
    return data


def _figure(value: float) -> str:
    """A bound as people write it: ``600``, not ``600.0``."""
    return f"{value:g}"


def number(data: dict[str, Any], key: str, low: float, high: float) -> float | None:
    """``data[key]`` as a number of seconds within [low, high], None when
    absent; anything else (out of range, not a number) is an error naming
    the field as the page does. Never clamped: the caller keeps what it had."""
    value = data.get(key)
    if value is None:
        return None
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise ProtocolError(
            _("{field} must be a number of seconds from {low} to {high}, got {value}").format(
                field=_(FIELD_NAMES.get(key, key)),
                low=_figure(low),
                high=_figure(high),
                value=quoted(value),
            )
        )
    return float(value)


def whole(data: dict[str, Any], key: str, low: int, high: int, field: str) -> int | None:
    """``data[key]`` as a whole number within [low, high], None when absent;
    ``field`` is the page's (translated) name of it."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProtocolError(
            _("{field} must be a whole number from {low} to {high}, got {value}").format(
                field=field, low=low, high=high, value=quoted(value)
            )
        )
    return value


def text(data: dict[str, Any], key: str, required: bool = False) -> str | None:
    """``data[key]`` as a string; None when absent and not ``required``."""
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ProtocolError(_("{key} must be a string").format(key=key))
    return value


def flag(data: dict[str, Any], key: str) -> bool:
    """``data[key]`` as true or false (required)."""
    value = data.get(key)
    if not isinstance(value, bool):
        raise ProtocolError(_("{key} must be true or false").format(key=key))
    return value


@dataclass(frozen=True)
class PlayerSpec:
    """Who plays one side: ``human``, ``random``, ``ai`` at a ``level``
    (easy, medium, hard, perfect) or with ``time`` seconds a move, or
    ``mcts`` (Monte Carlo tree search) with ``time`` seconds a move."""

    kind: str = "human"
    level: str | None = None
    time: float | None = None

    @classmethod
    def parse(cls, data: Any) -> PlayerSpec:
        if not isinstance(data, dict):
            raise ProtocolError(_("a player must be an object such as {example}").format(
                example='{"kind": "ai", "level": "hard"}'))
        kind = data.get("kind")
        if kind in ("human", "random"):
            return cls(kind)
        if kind == "mcts":
            seconds = number(data, "time", MIN_PLAYER_TIME, MAX_PLAYER_TIME)
            return cls("mcts", time=MCTS_SECONDS if seconds is None else seconds)
        if kind != "ai":
            raise ProtocolError(
                _("unknown player kind {kind}; expected human, ai, random or mcts").format(
                    kind=quoted(kind)
                )
            )
        time = number(data, "time", MIN_PLAYER_TIME, MAX_PLAYER_TIME)
        if time is not None:
            return cls("ai", time=time)
        level = data.get("level")
        level = "hard" if level is None else level
        if not isinstance(level, str) or level not in LEVELS:
            raise ProtocolError(
                _("unknown level {level}; expected one of {levels}").format(
                    level=quoted(level), levels=", ".join(LEVELS)
                )
            )
        return cls("ai", level=level)

    def to_json(self) -> dict[str, Any]:
        if self.kind == "mcts":
            return {"kind": "mcts", "time": self.time}
        if self.kind != "ai":
            return {"kind": self.kind}
        if self.time is not None:
            return {"kind": "ai", "time": self.time}
        return {"kind": "ai", "level": self.level}


DEFAULT_PLAYERS = (PlayerSpec("human"), PlayerSpec("ai", level="hard"))


def players(data: dict[str, Any]) -> tuple[PlayerSpec, PlayerSpec]:
    """``data["players"]``: a list of two players, first player first."""
    listed = data.get("players")
    if not isinstance(listed, list) or len(listed) != 2:
        raise ProtocolError(_("players must be a list of two players"))
    return (PlayerSpec.parse(listed[0]), PlayerSpec.parse(listed[1]))


def seed(data: dict[str, Any]) -> int | None:
    """``data["seed"]``: a whole number, or None."""
    value = data.get("seed")
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise ProtocolError(_("seed must be a whole number"))
    return value


def ply(data: dict[str, Any], most: int) -> int:
    """``data["ply"]``: a whole number from 0 to ``most``."""
    value = data.get("ply")
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
        raise ProtocolError(
            _("ply must be a whole number from 0 to {most}, got {value}").format(
                most=most, value=quoted(value)
            )
        )
    return value
