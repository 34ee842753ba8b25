"""Where the compiled backend plugs into the search: a registry, so that the
search (a lower layer) never imports :mod:`zerosum.native` (a higher one).

:mod:`zerosum.native` registers a :class:`NativeBackend` when it is imported
(``import zerosum`` does so; the registration is cheap: numba is imported
only when a search first uses the backend). Without one registered, the
native backend is simply unavailable and every search runs in Python.
"""

from __future__ import annotations

from typing import Any, Protocol


class NativeBackend(Protocol):
    """What the search asks of the compiled backend. ``adapter`` is a game's
    :class:`~zerosum.native.contract.NativeGame` from :meth:`adapter_for`."""

    def unavailable_reason(self) -> str:
        """Why the backend cannot be used here ("" when it can)."""

    def unsupported_reason(self, game: Any, options: Any = None) -> str:
        """Why ``game`` cannot be searched natively ("" when it can)."""

    def adapter_for(self, game: Any) -> Any:
        """The game's adapter, or None when it has no native code."""

    def table(self, adapter: Any, hash_mb: float | None, slots: int | None) -> Any:
        """A transposition table: ``slots`` entries when given, else
        ``hash_mb`` megabytes, else the default size for the game; taken
        from the process's pool of tables (cleared, not zeroed, for reuse)."""

    def give_back(self, table: Any) -> None:
        """Return a table from :meth:`table` to the pool (once; the engine
        does so when it is closed or collected)."""

    def stop_flag(self) -> Any:
        """The flag the compiled search polls (set to 1 to stop it)."""

    def warm_up(self, game: Any, adapter: Any, options: Any) -> None:
        """Compile (or load) the game's kernels before the first search."""

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
        """The engine's search core on the compiled kernel."""

    def playouts(self, adapter: Any, to_move: Any) -> Any:
        """Compiled random playouts for Monte Carlo tree search."""

    def tree(self, adapter: Any, max_nodes: int) -> Any:
        """Monte Carlo tree search with its whole tree in compiled code."""

    def margin_solver(self, game: Any) -> Any:
        """The compiled exact-margin solver for ``game``
        (:class:`~zerosum.search.margin.MarginSolver`), or None."""


_NATIVE: list[NativeBackend] = []

#: Why native search is unavailable when no backend registered.
NOT_REGISTERED = "the native backend is not installed"


def register_native(backend: NativeBackend) -> None:
    """Called by :mod:`zerosum.native` when imported."""
    _NATIVE[:] = [backend]


def native() -> NativeBackend | None:
    """The registered compiled backend, or None."""
    return _NATIVE[0] if _NATIVE else None
