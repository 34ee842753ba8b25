"""Game-specialised search cores for the Python backend.

The generic :class:`~zerosum.search.node.PythonCore` reaches the rules only
through the game's methods, which costs a method call (and a state tuple) per
rule per position. A specialised core implements the same
:class:`~zerosum.search.node.SearchCore` protocol with one game's rules
written into the node function, for the same values: the engine asks
:func:`python_core_for` which class to build and falls back to
``PythonCore`` when it answers None.

>>> import zerosum
>>> from zerosum.search.engine import EngineOptions
>>> python_core_for(zerosum.load("connect4"), EngineOptions()).__name__
'ConnectFourCore'
>>> python_core_for(zerosum.load("tictactoe"), EngineOptions()) is None
True
"""

from __future__ import annotations

from typing import Any


def python_core_for(game: Any, options: Any, recorder: Any = None) -> type | None:
    """The specialised core class for ``game`` searched with ``options``
    (an ``EngineOptions``), or None when there is none for this game, it
    does not support these options, or the search is traced (a
    ``recorder``: the trace watches the generic core's calls of the game and
    the table, which a specialised core does not make): the generic
    ``PythonCore`` is then used.

    A returned class is built like ``PythonCore``:
    ``cls(game, options, table, stop, deadline, node_limit, scratch)``."""
    if recorder is not None:
        return None
    from .connect4 import ConnectFourCore

    if ConnectFourCore.supports(game, options):
        return ConnectFourCore
    return None


__all__ = ["python_core_for"]
