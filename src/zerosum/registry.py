"""The game registry and game specs.

A spec names a game and, optionally, its parameters, the convention OpenSpiel
uses: ``tictactoe``, ``connect4(width=7,height=6)``, ``mnk(m=4,n=4,k=3)``.
Parameters may also be given by position in the order the game lists them
(``mnk(4,4,3)``). Every module in :mod:`zerosum.games` registers its games
when imported; :func:`load` imports them all on first use.

>>> game = load("tictactoe")
>>> game.spec()
'tictactoe'
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass
from typing import Any, TypeVar

from .game import Game, Param, ZerosumError
from .i18n import _

G = TypeVar("G", bound=type[Game[Any, Any]])


@dataclass(frozen=True)
class Entry:
    """A registered name: a game class, or an alias for a spec of one."""

    name: str
    cls: type[Game[Any, Any]]
    alias_of: str = ""
    description: str = ""


_REGISTRY: dict[str, Entry] = {}
_loaded = False


def register(cls: G) -> G:
    """Class decorator: make a game available to :func:`load` by its ``name``."""
    if not cls.name:
        raise TypeError(f"{cls.__name__} has no name")
    _REGISTRY[cls.name] = Entry(cls.name, cls, description=cls.title)
    return cls


def register_alias(name: str, spec: str, description: str = "") -> None:
    """Register ``name`` as a shorthand for ``spec`` (e.g. gomoku)."""
    base = _split_spec(spec)[0]
    _REGISTRY[name] = Entry(name, _REGISTRY[base].cls, alias_of=spec, description=description)


def _discover() -> None:
    global _loaded
    if _loaded:
        return
    from . import games

    for module in pkgutil.iter_modules(games.__path__):
        importlib.import_module(f"{games.__name__}.{module.name}")  # registers its games
    _loaded = True


def entries() -> list[Entry]:
    """Every registered game and alias, sorted by name."""
    _discover()
    return sorted(_REGISTRY.values(), key=lambda e: e.name)


_SPEC = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)


def _split_spec(spec: str) -> tuple[str, str]:
    match = _SPEC.match(spec)
    if not match:
        raise ZerosumError(
            _(
                "malformed game spec {spec!r}; expected NAME or NAME(key=value,...),"
                " e.g. connect4(width=7,height=6)"
            ).format(spec=spec)
        )
    return match.group(1).lower(), (match.group(2) or "").strip()


def _convert(param: Param, text: str, game: str) -> int | str:
    if isinstance(param.default, int):
        try:
            value: int | str = int(text)
        except ValueError:
            raise ZerosumError(
                _("parameter {name} of {game} must be a whole number, got {text!r}").format(
                    name=param.name, game=game, text=text
                )
            ) from None
        assert isinstance(value, int)
        low, high = param.minimum, param.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            raise ZerosumError(
                _(
                    "parameter {name} of {game} must be between {low} and {high}, got {value}"
                ).format(name=param.name, game=game, low=low, high=high, value=value)
            )
        return value
    if param.choices and text not in param.choices:
        raise ZerosumError(
            _("parameter {name} of {game} must be one of {choices}, got {text!r}").format(
                name=param.name, game=game, choices=", ".join(param.choices), text=text
            )
        )
    return text


def parse_spec(spec: str) -> tuple[type[Game[Any, Any]], dict[str, int | str]]:
    """Resolve a spec to a game class and its keyword arguments, checking
    every name and value. Raises :class:`ZerosumError` with a one-line reason."""
    _discover()
    name, args = _split_spec(spec)
    entry = _REGISTRY.get(name)
    if entry is None:
        known = ", ".join(sorted(_REGISTRY))
        raise ZerosumError(
            _("unknown game {name!r}; expected one of: {known}").format(name=name, known=known)
        )
    kwargs: dict[str, int | str] = {}
    if entry.alias_of:
        kwargs = parse_spec(entry.alias_of)[1]
    params = {p.name: p for p in entry.cls.params}
    if args:
        for index, item in enumerate(args.split(",")):
            item = item.strip()
            if "=" in item:
                key, _sep, value = item.partition("=")
                key = key.strip().lower()
            elif index < len(entry.cls.params):
                key, value = entry.cls.params[index].name, item
            else:
                raise ZerosumError(
                    _("too many parameters for {name}; expected at most {count} ({names})").format(
                        name=name, count=len(params), names=", ".join(params) or "-"
                    )
                )
            if key not in params:
                raise ZerosumError(
                    _("unknown parameter {key!r} for {name}; expected {expected}").format(
                        key=key, name=name, expected=", ".join(params) or "-"
                    )
                )
            kwargs[key] = _convert(params[key], value.strip(), name)
    return entry.cls, kwargs


def load(spec: str) -> Game[Any, Any]:
    """Return the game a spec names, e.g. ``load("connect4(width=7,height=6)")``.

    Raises :class:`ZerosumError` for an unknown game, unknown parameter, value
    out of range or a malformed spec.
    """
    cls, kwargs = parse_spec(spec)
    try:
        return cls(**kwargs)
    except ZerosumError:
        raise
    except (TypeError, ValueError) as exc:  # a game's own consistency check
        raise ZerosumError(
            _("bad parameters for {name}: {reason}").format(name=cls.name, reason=exc)
        ) from None


def games_table() -> list[tuple[str, str, str]]:
    """Rows of (name, parameters with defaults, description) for listings."""
    rows = []
    for entry in entries():
        if entry.alias_of:
            params = f"= {entry.alias_of}"
        else:
            params = ", ".join(f"{p.name}={p.default}" for p in entry.cls.params)
        rows.append((entry.name, params, _(entry.description)))
    return rows
