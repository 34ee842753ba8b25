"""Player specs: one short text names an agent, for ``zerosum match``.

>>> parse_player("mcts:iterations=5000")
PlayerSpec(kind='mcts', params=(('iterations', 5000),), command=())
>>> parse_player("engine:level=hard").describe()
'engine:level=hard'
>>> parse_player('cmd:"zerosum engine connect4",time=0.2').command
('zerosum', 'engine', 'connect4')

The forms:

* ``engine`` -- the engine; ``level=easy|medium|hard|perfect``, or
  ``time=S`` and/or ``depth=N`` (default: 3 s a move);
* ``mcts`` -- Monte Carlo tree search; ``time=S`` and/or ``iterations=N``
  (default 3 s), ``c=X`` the exploration constant, ``playout=random|win``,
  ``backend=auto|python|native``;
* ``minimax`` / ``alphabeta`` -- the reference algorithms; ``depth=N``
  (default: to the end of the game);
* ``random`` -- a uniformly random legal move;
* ``cmd:"PROGRAM ARGS"`` -- an external program speaking the engine
  protocol (UGI, see :mod:`zerosum.cli.engine`); ``time=S`` its time per move
  (default 1 s; ``go movetime``), or ``depth=N`` / ``nodes=N``.

A bad spec is a :class:`~zerosum.game.ZerosumError` of one line.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from ..game import ZerosumError
from ..i18n import _
from ..search.mcts import MCTSConfig
from ..search.types import Limits
from .agents import (
    LEVELS,
    Agent,
    EngineAgent,
    MCTSAgent,
    ProgramAgent,
    RandomAgent,
    SearchAgent,
)

#: Each kind's parameters and their types.
_PARAMS: dict[str, dict[str, type]] = {
    "engine": {"level": str, "time": float, "depth": int},
    "mcts": {"time": float, "iterations": int, "c": float, "playout": str, "backend": str},
    "minimax": {"depth": int},
    "alphabeta": {"depth": int},
    "random": {},
    "cmd": {"time": float, "depth": int, "nodes": int},
}
KINDS = tuple(_PARAMS)
EXAMPLES = (
    'engine:level=hard, engine:time=0.5, mcts:iterations=5000, minimax:depth=3, random, '
    'cmd:"PROGRAM ARGS"'
)


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player spec: its kind, its parameters in order, and for
    ``cmd`` the program's command line."""

    kind: str
    params: tuple[tuple[str, Any], ...] = ()
    command: tuple[str, ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)

    def describe(self) -> str:
        """The spec written back (what records and tables show)."""
        values = ",".join(f"{k}={_plain(v)}" for k, v in self.params)
        if self.kind == "cmd":
            text = f"cmd:{shlex.join(self.command)!r}" if len(self.command) > 1 else (
                f"cmd:{self.command[0]}"
            )
            return text + ("," + values if values else "")
        return f"{self.kind}:{values}" if values else self.kind

    def agent(self, seed: int | None) -> Agent:
        """A fresh agent for one game (seeded)."""
        if self.kind == "random":
            return RandomAgent(seed)
        if self.kind == "engine":
            level = self.get("level")
            if level is not None:
                return EngineAgent.at_level(level, seed)
            limits = Limits(depth=self.get("depth"), time=self.get("time"))
            return EngineAgent(None if limits == Limits() else limits, seed)
        if self.kind in ("minimax", "alphabeta"):
            return SearchAgent(self.kind, self.get("depth"), seed)  # type: ignore[arg-type]
        if self.kind == "mcts":
            limits = Limits(time=self.get("time"), iterations=self.get("iterations"))
            backend = self.get("backend", "auto")
            config = MCTSConfig(
                exploration=self.get("c", MCTSConfig.exploration),
                playout=self.get("playout", "random"),
                backend=backend,
            )
            return MCTSAgent(None if limits == Limits() else limits, seed, backend, config)
        return ProgramAgent(
            self.command,
            time=self.get("time"),
            depth=self.get("depth"),
            nodes=self.get("nodes"),
            label=self.describe(),
        )


def _plain(value: Any) -> str:
    return repr(value) if isinstance(value, float) and value != int(value) else str(value)


def parse_player(text: str) -> PlayerSpec:
    """Parse a player spec (see the module docstring)."""
    text = text.strip()
    kind, _sep, rest = text.partition(":")
    kind = kind.strip().lower()
    if kind not in _PARAMS:
        raise ZerosumError(
            _("unknown player {spec!r}; expected one of {examples}").format(
                spec=text[:60], examples=EXAMPLES
            )
        )
    command: tuple[str, ...] = ()
    if kind == "cmd":
        command, rest = _command(text, rest)
    params: list[tuple[str, Any]] = []
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, eq, raw = item.partition("=")
        name = name.strip().lower()
        kinds = _PARAMS[kind]
        if not eq or name not in kinds:
            expected = ", ".join(f"{k}=..." for k in kinds) or _("no parameters")
            raise ZerosumError(
                _("bad parameter {item!r} in player {spec!r}; expected {expected}").format(
                    item=item[:40], spec=text[:60], expected=expected
                )
            )
        params.append((name, _value(text, name, raw.strip(), kinds[name])))
    spec = PlayerSpec(kind, tuple(params), command)
    _check(spec, text)
    return spec


def _command(text: str, rest: str) -> tuple[tuple[str, ...], str]:
    """The program of a ``cmd:`` spec, quoted or not, and what follows it."""
    rest = rest.strip()
    if rest[:1] in ("'", '"'):
        end = rest.find(rest[0], 1)
        if end < 0:
            raise ZerosumError(
                _("unterminated quote in player {spec!r}").format(spec=text[:60])
            )
        program, rest = rest[1:end], rest[end + 1 :].lstrip()
        if rest and not rest.startswith(","):
            raise ZerosumError(
                _("bad player {spec!r}; expected cmd:\"PROGRAM ARGS\",time=S").format(
                    spec=text[:60]
                )
            )
    else:
        program, _sep, rest = rest.partition(",")
    try:
        words = tuple(shlex.split(program))
    except ValueError as error:
        raise ZerosumError(
            _("cannot read the command of player {spec!r}: {error}").format(
                spec=text[:60], error=error
            )
        ) from None
    if not words:
        raise ZerosumError(
            _("player {spec!r} names no program; expected cmd:\"PROGRAM ARGS\"").format(
                spec=text[:60]
            )
        )
    return words, rest.lstrip(",")


def _value(text: str, name: str, raw: str, kind: type) -> Any:
    try:
        if kind is int:
            value: Any = int(raw)
            if value < 1:
                raise ValueError
            return value
        if kind is float:
            value = float(raw)
            if not value > 0 or value == float("inf"):
                raise ValueError
            return value
    except ValueError:
        what = _("a whole number of at least 1") if kind is int else _("a number above 0")
        raise ZerosumError(
            _("{name} in player {spec!r} must be {what}, got {value!r}").format(
                name=name, spec=text[:60], what=what, value=raw[:40]
            )
        ) from None
    return raw


def _check(spec: PlayerSpec, text: str) -> None:
    """Values that need more than a type check, with the one-line errors of
    the classes that take them."""
    level = spec.get("level")
    if level is not None:
        if level not in LEVELS:
            raise ZerosumError(
                _("unknown level {level!r}; expected one of {levels}").format(
                    level=level[:40], levels=", ".join(LEVELS)
                )
            )
        if spec.get("time") is not None or spec.get("depth") is not None:
            raise ZerosumError(
                _("player {spec!r}: give a level or a time/depth, not both").format(
                    spec=text[:60]
                )
            )
    if spec.kind == "mcts":
        MCTSConfig(
            exploration=spec.get("c", MCTSConfig.exploration),
            playout=spec.get("playout", "random"),
            backend=spec.get("backend", "auto"),
        )
