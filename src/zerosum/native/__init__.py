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
import sys
from typing import Any


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


#: The module numba imports only to ask whether SciPy's BLAS is there.
_BLAS_PROBE = "scipy.linalg.cython_blas"


def import_numba() -> None:
    """Import numba without SciPy, when SciPy is not loaded yet.

    numba's ``np.arraymath`` imports ``scipy.linalg`` (about 0.06-0.11 s,
    a fifth of a cached start) only to set a flag that picks BLAS for one
    inner product; the compiled searches use no linear algebra. So the probe
    fails once, while numba loads: ``np.dot`` and friends, compiled later in
    the same process, still import SciPy themselves when they need it."""
    if "numba.np.arraymath" in sys.modules or _BLAS_PROBE in sys.modules:
        return
    sys.modules[_BLAS_PROBE] = None  # type: ignore[assignment]  # import fails
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if sys.modules.get(_BLAS_PROBE, 0) is None:
            del sys.modules[_BLAS_PROBE]


def unsupported_reason(game: Any, options: Any = None) -> str:
    """Why ``game`` cannot be searched natively ("" when it can): numba is
    missing, or the game (or this size of it) has no native code."""
    reason = unavailable_reason()
    if reason:
        return reason
    if adapter_for(game) is None:
        return f"{game.spec()} has no native code (the Python backend searches it)"
    return ""
