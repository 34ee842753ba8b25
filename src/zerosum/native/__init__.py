"""Compiled search for the built-in games (the ``fast`` extra: numba).

Nothing here is imported unless a search asks for the native backend:
importing numba and numpy costs about 0.3 s, so :func:`available` only looks
for the package, and :func:`adapter_for` imports the compiled code on first
use.

Layout
------
* :mod:`.contract`  -- what a game supplies: :class:`~.contract.Primitives`
  (compiled move generation, play, terminal test, key, evaluation and
  optional hooks over a state held in a row of ``uint64`` words) and a
  :class:`~.contract.NativeGame` adapter (Python state to words, moves to
  small integer codes);
* :mod:`.kernel`    -- the generic compiled search built from a game's
  primitives: negamax alpha-beta with PVS on an explicit stack, an array
  transposition table, killers, history, the game's hooks;
* :mod:`.table`     -- the array transposition table, sized in megabytes;
* :mod:`.core`      -- the engine's search core backed by the kernel, so the
  engine's iterative deepening, analysis and solver run unchanged on it;
* one module per game: ``connect4`` (and ``connect4_wide`` for boards whose
  layout needs two words), ``domineering``, ``othello``, ``mnk``.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from ..search.backends import register_native


def available() -> bool:
    """Whether numba (and numpy) can be imported, without importing them."""
    return (
        importlib.util.find_spec("numba") is not None
        and importlib.util.find_spec("numpy") is not None
    )


def unavailable_reason() -> str:
    """Why the native backend cannot be used ("" when it can)."""
    if available():
        return ""
    return "numba is not installed (python3 -m pip install 'zerosum[fast]')"


def adapter_for(game: Any) -> Any:
    """The :class:`~.contract.NativeGame` adapter for ``game``, or None when
    the game (or this size of it) has no native backend or numba is missing.
    Imports the compiled code on first use."""
    if not available():
        return None
    from .registry import adapter_for as find

    return find(game)


def unsupported_reason(game: Any, options: Any = None) -> str:
    """Why ``game`` cannot be searched natively ("" when it can): numba is
    missing, or the game (or this size of it) has no native code."""
    reason = unavailable_reason()
    if reason:
        return reason
    if adapter_for(game) is None:
        return f"{game.spec()} has no native code (the Python backend searches it)"
    return ""


class _Backend:
    """This package as the search sees it (:mod:`zerosum.search.backends`):
    each compiled part is imported on first use."""

    def unavailable_reason(self) -> str:
        return unavailable_reason()

    def unsupported_reason(self, game: Any, options: Any = None) -> str:
        return unsupported_reason(game, options)

    def adapter_for(self, game: Any) -> Any:
        return adapter_for(game)

    def table(self, adapter: Any, hash_mb: float | None, slots: int | None) -> Any:
        from .table import default_megabytes, slots_of_megabytes, take_table

        if slots is None:
            slots = slots_of_megabytes(hash_mb or default_megabytes(adapter.prims.max_plies))
        return take_table(slots)

    def give_back(self, table: Any) -> None:
        from .table import give_back

        give_back(table)

    def stop_flag(self) -> Any:
        import numpy as np

        return np.zeros(1, dtype=np.int64)

    def warm_up(self, game: Any, adapter: Any, options: Any) -> None:
        from .core import warm_up

        warm_up(game, adapter, options)

    def core(
        self,
        game: Any,
        adapter: Any,
        options: Any,
        table: Any,
        stop_flag: Any,
        deadline: float | None,
        nodes: int | None,
        stop: type[Exception],
    ) -> Any:
        from .core import NativeCore

        return NativeCore(game, adapter, options, table, stop_flag, deadline, nodes, stop)

    def playouts(self, adapter: Any, to_move: Any) -> Any:
        from .playout import NativePlayouts

        return NativePlayouts(adapter, to_move)

    def tree(self, adapter: Any, max_nodes: int) -> Any:
        from .tree import NativeTree

        return NativeTree(adapter, max_nodes)

    def margin_solver(self, game: Any) -> Any:
        if adapter_for(game) is None:
            return None
        from .othello_end import margin_solver

        return margin_solver(game)


register_native(_Backend())
