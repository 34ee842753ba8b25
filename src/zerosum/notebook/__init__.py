"""zerosum in Jupyter: positions, search results and matches shown richly,
the browser's search-tree view as a widget, and a game to play in a cell.

* :func:`board` -- a position drawn in SVG (the browser's drawing);
* :func:`result` -- a search result as a table in the game's notation;
* :func:`tree` -- the search tree widget (needs the ``notebook`` extra:
  ``pip install 'zerosum[notebook]'``);
* :func:`play` -- a game against the AI in a widget (the same extra).

Search and match results get their HTML view by themselves when zerosum is
imported inside IPython (:func:`.display.register`).

>>> import zerosum
>>> game = zerosum.load("tictactoe")
>>> shown = board(game, moves="0 4")
>>> shown._repr_html_().startswith('<figure class="zerosum-position"')
True
"""

from __future__ import annotations

from typing import Any

from .display import BoardDisplay, ResultDisplay, board, register, result


def tree(*args: Any, **kwargs: Any) -> Any:
    """The search-tree widget: see :func:`zerosum.notebook.widget.tree`."""
    from .widget import tree as make

    return make(*args, **kwargs)


def play(*args: Any, **kwargs: Any) -> Any:
    """A game against the AI: see :func:`zerosum.notebook.widget.play`."""
    from .widget import play as make

    return make(*args, **kwargs)


__all__ = ["BoardDisplay", "ResultDisplay", "board", "play", "register", "result", "tree"]
