"""The bench signature: node counts of fixed searches on fixed positions.

Any change in how the engine (or a game's ordering hooks) searches changes
some of these counts, so a recorded copy (``benchmarks/signature.json``) and
a test that recomputes it catch accidental changes -- Stockfish's ``bench``
idea. Node counts do not depend on the machine or the clock: every search
here is limited by depth or runs to the end, never by time.

>>> compute_signature([{"name": "t", "spec": "tictactoe", "moves": "0 4",
...                     "mode": "search", "depth": 3}]) == compute_signature(
...     [{"name": "t", "spec": "tictactoe", "moves": "0 4", "mode": "search", "depth": 3}])
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..registry import load
from .engine import Engine, EngineOptions
from .solver import solve
from .types import Limits

#: The fixed searches: a game spec, a move list in the game's notation, what
#: to run (``search``, ``analyze``, ``solve`` or ``weak``), a depth (None: to
#: the end) and a backend (default ``python``). Each starts from a fresh
#: engine with the default options.
DEFAULT_POSITIONS: list[dict[str, Any]] = [
    {"name": "tictactoe search, empty board", "spec": "tictactoe", "moves": "",
     "mode": "search", "depth": None},
    {"name": "tictactoe solve, empty board", "spec": "tictactoe", "moves": "",
     "mode": "solve", "depth": None},
    {"name": "tictactoe analyze after 0 4", "spec": "tictactoe", "moves": "0 4",
     "mode": "analyze", "depth": None},
    {"name": "mnk(4,4,3) depth 5", "spec": "mnk(m=4,n=4,k=3)", "moves": "",
     "mode": "search", "depth": 5},
    {"name": "connect4 depth 8 after 4453", "spec": "connect4", "moves": "4453",
     "mode": "search", "depth": 8},
    {"name": "connect4 analyze depth 5", "spec": "connect4", "moves": "44",
     "mode": "analyze", "depth": 5},
    {"name": "connect4 solve, end game", "spec": "connect4",
     "moves": "6566436366312174154134345453", "mode": "solve", "depth": None},
    {"name": "connect4 solve, middle game", "spec": "connect4",
     "moves": "32131537322374512174", "mode": "solve", "depth": None},
    {"name": "connect4 weak solve, middle game", "spec": "connect4",
     "moves": "543526637125655562162772", "mode": "weak", "depth": None},
    {"name": "connect4(5x4) solve after 3", "spec": "connect4(width=5,height=4)",
     "moves": "3", "mode": "solve", "depth": None},
    {"name": "othello(4) solve", "spec": "othello(size=4)", "moves": "",
     "mode": "solve", "depth": None},
    {"name": "domineering(4x4) solve", "spec": "domineering(rows=4,cols=4)", "moves": "",
     "mode": "solve", "depth": None},
    {"name": "nim(3-4-5) solve", "spec": "nim(heaps=3-4-5)", "moves": "",
     "mode": "solve", "depth": None},
]
#: The same searches on the native backend, for the games it compiles.
DEFAULT_POSITIONS += [
    {**entry, "name": f"{entry['name']} (native)", "backend": "native"}
    for entry in DEFAULT_POSITIONS
    if entry["spec"].split("(")[0] in ("tictactoe", "mnk", "connect4", "othello", "domineering")
]


def run_entry(entry: Mapping[str, Any]) -> int:
    """The positions one signature entry visits."""
    game = load(entry["spec"])
    moves = entry.get("moves", "")
    state = game.play(game.split_moves(moves)) if moves else game.initial_state()
    engine: Engine[Any] = Engine(game, EngineOptions(backend=entry.get("backend", "python")))
    mode, depth = entry["mode"], entry.get("depth")
    limits = Limits(depth=depth)
    if mode == "search":
        return engine.search(state, limits).stats.nodes
    if mode == "analyze":
        return engine.analyze(state, limits).stats.nodes
    if mode in ("solve", "weak"):
        return solve(game, state, engine=engine, weak=mode == "weak").stats.nodes
    raise ValueError(f"unknown signature mode {mode!r}; expected search, analyze, solve or weak")


def compute_signature(entries: Sequence[Mapping[str, Any]] | None = None) -> list[int]:
    """The node count of every entry (default: :data:`DEFAULT_POSITIONS`)."""
    return [run_entry(entry) for entry in (DEFAULT_POSITIONS if entries is None else entries)]
