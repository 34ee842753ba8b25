"""zerosum: a toolkit for two-player, zero-sum, perfect-information games.

>>> import zerosum
>>> game = zerosum.load("tictactoe")
>>> state = game.play(["0", "4", "1"])
>>> game.to_move(state)
1
"""

# The compiled backend registers with the search (which never imports it);
# cheap: numba is imported only when a search first uses it.
from . import native as native

# The opening books' finder: every search consults a game's book (shipped
# in the package, or built by the user) unless told not to.
from .book import shipped as _books  # noqa: F401  (it registers the finder)
from .game import Game, MoveError, Param, Player, PositionError, ZerosumError
from .registry import games_table, load, register, register_alias
from .search.types import Limits, MoveScore, Score, SearchResult, SearchStats

__all__ = [
    "Game",
    "Limits",
    "MoveError",
    "MoveScore",
    "Param",
    "Player",
    "PositionError",
    "Score",
    "SearchResult",
    "SearchStats",
    "ZerosumError",
    "games_table",
    "load",
    "register",
    "register_alias",
]

__version__ = "0.1.0"

# Inside IPython (Jupyter, VS Code notebooks), search and match results get
# their HTML view with no set-up; elsewhere nothing is imported.
if "IPython" in __import__("sys").modules:
    from .notebook.display import register as _register_displays

    _register_displays()
