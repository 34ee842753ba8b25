"""Search algorithms: the reference minimax and alpha-beta, the engine, the
exact solver and perft. They know nothing of any particular game or of
printing.

* :mod:`.reference` -- plain minimax and alpha-beta, written to be read;
* :class:`Engine`   -- iterative-deepening alpha-beta with a table;
* :func:`solve`     -- the exact value of a position, with its distance;
* :func:`perft`     -- move-sequence counts;
* :mod:`.mcts`      -- Monte Carlo tree search with the MCTS-Solver.
"""

# mcts registers the "mcts" algorithm with the front door when imported,
# enginetrace the engine's traced search with the trace.
from . import enginetrace, mcts
from .engine import Engine, EngineOptions, Progress, SearchRun
from .perft import divide, perft
from .solver import SolveInterrupted, solve

__all__ = [
    "Engine",
    "EngineOptions",
    "Progress",
    "SearchRun",
    "SolveInterrupted",
    "divide",
    "enginetrace",
    "mcts",
    "perft",
    "solve",
]
