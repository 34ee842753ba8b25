"""Which built-in games have native code: exact types only (a subclass may
change the rules the compiled code knows)."""

from __future__ import annotations

import importlib
import weakref
from typing import Any

#: Game class (module, name) -> the native module whose ``adapter(game)``
#: returns the game's :class:`~.contract.NativeGame` (or None for a size it
#: does not support).
_NATIVE_MODULES = {
    ("zerosum.games.connect4", "ConnectFour"): "connect4",
    ("zerosum.games.domineering", "Domineering"): "domineering",
    ("zerosum.games.othello", "Othello"): "othello",
    ("zerosum.games.mnk", "MNK"): "mnk",
    ("zerosum.games.tictactoe", "TicTacToe"): "mnk",
}

_cache: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def adapter_for(game: Any) -> Any:
    """The adapter for ``game``, made once per game object, or None."""
    cls = type(game)
    name = _NATIVE_MODULES.get((cls.__module__, cls.__qualname__))
    if name is None:
        return None
    if game in _cache:
        return _cache[game]
    try:
        module = importlib.import_module(f"{__package__}.{name}")
    except ModuleNotFoundError as error:
        if error.name == f"{__package__}.{name}":
            return None  # that game's native code is not written yet
        raise
    adapter = module.adapter(game)
    _cache[game] = adapter
    return adapter
