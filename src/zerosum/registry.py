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
import importlib.util
import inspect
import pkgutil
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .game import Game, Param, ZerosumError, excerpt
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
#: The longest spec read (longer is malformed).
MAX_SPEC = 1000
_loaded = False


def register(cls: G) -> G:
    """Class decorator: make a game available to :func:`load` by its ``name``."""
    if not cls.name:
        raise TypeError(f"{cls.__name__} has no name")
    _REGISTRY[cls.name] = Entry(cls.name, cls, description=cls.title)
    return cls


def register_alias(name: str, spec: str, description: str = "") -> None:
    """Register ``name`` as a shorthand for ``spec`` (e.g. gomoku). Raises
    :class:`ZerosumError` when ``spec`` does not name a registered game
    (its parameters are checked too) and TypeError for a non-string."""
    if not isinstance(name, str) or not isinstance(spec, str):
        raise TypeError(_("an alias and its spec must be strings"))
    if not _NAME.fullmatch(name):
        raise ZerosumError(
            _("cannot register alias {name!r}; expected a name of letters, digits and _").format(
                name=excerpt(name)
            )
        )
    _resolve(spec)  # the game exists and the parameters are valid (no discovery)
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


_SPEC = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$", re.S | re.ASCII)
_NAME = re.compile(r"[A-Za-z_][\w-]*", re.ASCII)
_INTEGER = re.compile(r"\s*[-+]?[0-9]+\s*", re.ASCII)


def _split_spec(spec: str) -> tuple[str, str]:
    if not isinstance(spec, str):
        raise TypeError(
            _("a game spec must be a string, got {type}").format(type=type(spec).__name__)
        )
    match = _SPEC.match(spec) if len(spec) <= MAX_SPEC else None
    if not match:
        raise ZerosumError(
            _(
                "malformed game spec {spec!r}; expected NAME or NAME(key=value,...),"
                " e.g. connect4(width=7,height=6)"
            ).format(spec=excerpt(spec))
        )
    return match.group(1).lower(), (match.group(2) or "").strip()


def _convert(param: Param, text: str, game: str) -> int | str:
    if isinstance(param.default, int):
        # ASCII digits only: int() would also take "٧" or "1_0".
        if not _INTEGER.fullmatch(text):
            raise ZerosumError(
                _("parameter {name} of {game} must be a whole number, got {text!r}").format(
                    name=param.name, game=game, text=excerpt(text)
                )
            )
        value = int(text)
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
                name=param.name, game=game, choices=", ".join(param.choices), text=excerpt(text)
            )
        )
    return text


def parse_spec(spec: str) -> tuple[type[Game[Any, Any]], dict[str, int | str]]:
    """Resolve a spec to a game class and its keyword arguments, checking
    every name and value. Raises :class:`ZerosumError` with a one-line reason."""
    _discover()
    return _resolve(spec)


def _resolve(spec: str) -> tuple[type[Game[Any, Any]], dict[str, int | str]]:
    """:func:`parse_spec` among the games registered so far."""
    name, args = _split_spec(spec)
    entry = _REGISTRY.get(name)
    if entry is None:
        known = ", ".join(sorted(_REGISTRY))
        raise ZerosumError(
            _("unknown game {name!r}; expected one of: {known}").format(
                name=excerpt(name), known=known
            )
        )
    kwargs: dict[str, int | str] = {}
    if entry.alias_of:
        kwargs = _resolve(entry.alias_of)[1]
    params = {p.name: p for p in entry.cls.params}
    given: set[str] = set()
    if args:
        for index, item in enumerate(args.split(",")):
            item = item.strip()
            if "=" in item:
                key, _sep, value = item.partition("=")
                key = key.strip().lower()
            elif not params:
                undeclared = _undeclared(entry.cls)
                if undeclared:
                    raise ZerosumError(_undeclared_message(name, undeclared[0]))
                raise ZerosumError(
                    _("{name} takes no parameters; expected just {name}").format(name=name)
                )
            elif index < len(entry.cls.params):
                key, value = entry.cls.params[index].name, item
            else:
                raise ZerosumError(
                    _("too many parameters for {name}; expected at most {count} ({names})").format(
                        name=name, count=len(params), names=", ".join(params)
                    )
                )
            if key not in params:
                if key in _undeclared(entry.cls):
                    raise ZerosumError(_undeclared_message(name, key))
                if not params:
                    raise ZerosumError(
                        _("{name} takes no parameters; expected just {name}").format(name=name)
                    )
                raise ZerosumError(
                    _("unknown parameter {key!r} for {name}; expected {expected}").format(
                        key=excerpt(key), name=name, expected=", ".join(params) or "-"
                    )
                )
            if key in given:
                raise ZerosumError(
                    _("parameter {key} of {name} is given twice; expected it once").format(
                        key=key, name=name
                    )
                )
            given.add(key)
            kwargs[key] = _convert(params[key], value.strip(), name)
    return entry.cls, kwargs


def _undeclared(cls: type[Game[Any, Any]]) -> list[str]:
    """The constructor's keyword parameters that ``params`` does not
    declare (so a spec cannot set them), in the constructor's order."""
    try:
        signature = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        return []
    declared = {p.name for p in cls.params}
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [
        p.name
        for p in list(signature.parameters.values())[1:]
        if p.kind in kinds and p.name not in declared
    ]


def _undeclared_message(name: str, key: str) -> str:
    return _(
        "{name}'s constructor takes {key!r}, but the game does not declare it, so a spec"
        " cannot set it; expected it in the class's params, e.g."
        " params = (Param({key!r}, DEFAULT, \"what it is\"),)"
    ).format(name=name, key=key)


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
    except TypeError as exc:
        # A required constructor argument that params does not declare:
        # no spec can ever give it, so say how to declare it.
        missing = [
            key for key in _undeclared(cls) if key not in kwargs and f"'{key}'" in str(exc)
        ]
        if missing:
            raise ZerosumError(_undeclared_message(cls.name, missing[0])) from None
        raise ZerosumError(
            _("bad parameters for {name}: {reason}").format(name=cls.name, reason=excerpt(exc, 120))
        ) from None
    except ValueError as exc:  # a game's own consistency check
        raise ZerosumError(
            _("bad parameters for {name}: {reason}").format(name=cls.name, reason=excerpt(exc, 120))
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


def import_games(name: str) -> None:
    """Import ``name``, a ``.py`` file or a module name, so that the games it
    registers can be loaded; a failure is one clear error."""
    path = Path(name)
    if not name.strip() or name.startswith("."):
        raise ZerosumError(
            _("cannot import {name!r}; expected a .py file or a module name").format(
                name=excerpt(name)
            )
        )
    try:
        if name.endswith(".py"):
            if not path.is_file():
                raise ZerosumError(
                    _("cannot import {name}: no such file").format(name=name)
                )
            spec = importlib.util.spec_from_file_location(path.stem, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[path.stem] = module
            spec.loader.exec_module(module)
        else:
            importlib.import_module(name)
    except ZerosumError:
        raise
    except Exception as error:  # the user's code: report, don't trace back
        raise ZerosumError(
            _("cannot import {name}: {kind}: {error}").format(
                name=excerpt(name), kind=type(error).__name__, error=excerpt(error, 100)
            )
        ) from None
