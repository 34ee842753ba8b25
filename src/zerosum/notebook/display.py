"""Rich displays in Jupyter: a position as its board in SVG, a search result
as a table of moves with scores and principal variations, a match as its
moves and outcome.

Objects of zerosum's own (:class:`~zerosum.search.types.SearchResult`,
:class:`~zerosum.play.match.MatchResult`) get an HTML view through
IPython's formatters, registered by :func:`register` when zerosum is
imported inside IPython; their plain text (``repr``) is unchanged. A state
alone does not know its game, so a position is shown with
:func:`board` (``zerosum.notebook.board(game, state)``), and a search
result with the moves in the game's notation with :func:`result`.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from ..game import Game
from ..i18n import _
from ..play.match import MatchResult
from ..report import board_object
from ..search.types import SearchResult
from .svg import board_svg

#: Most moves a result's table lists.
MAX_ROWS = 40


def _cells_of(game: Game[Any, Any], before: Any, move: Any) -> list[tuple[int, int]]:
    try:
        return [tuple(cell) for cell in game.move_cells(before, move)]  # type: ignore[misc]
    except Exception:  # a game without cells for its moves
        return []


@dataclass(frozen=True)
class BoardDisplay:
    """A position of ``game`` as the notebook shows it: the board in SVG
    (the browser's drawing) with whose turn it is; its text is the game's
    own rendering, as the terminal prints it."""

    game: Game[Any, Any]
    state: Any
    moves: tuple[Any, ...] = ()  # the moves that led here from ``start``
    start: Any = None
    size: int = 240

    def svg(self) -> str:
        """The board as SVG ("" for a game without a grid)."""
        board = self.game.board(self.state)
        if board is None:
            return ""
        placed, before = [], self.game.initial_state() if self.start is None else self.start
        last: list[tuple[int, int]] = []
        for move in self.moves:
            last = _cells_of(self.game, before, move)
            placed.append((self.game.to_move(before), last))
            before = self.game.result(before, move)
        drawn = board_object(board, placed)
        assert drawn is not None
        return board_svg(drawn, last, self.size)

    def caption(self) -> str:
        game, state = self.game, self.state
        if game.is_terminal(state):
            outcome = game.utility(state, 0)
            if outcome == 0:
                return _("The game is over: a draw.")
            winner = game.player_name(0 if outcome > 0 else 1)
            return _("The game is over: {name} wins.").format(name=winner)
        return _("{name} to move").format(name=game.player_name(game.to_move(state)))

    def _repr_svg_(self) -> str | None:
        return self.svg() or None

    def _repr_html_(self) -> str:
        drawing = self.svg() or f"<pre>{escape(self.game.render(self.state))}</pre>"
        return (
            f'<figure class="zerosum-position" style="margin:0">{drawing}'
            f"<figcaption>{escape(self.caption())}</figcaption></figure>"
        )

    def __repr__(self) -> str:
        return self.game.render(self.state)


def board(
    game: Game[Any, Any], state: Any = None, moves: Any = (), size: int = 240
) -> BoardDisplay:
    """The position ``state`` of ``game`` (default: the start) for display;
    ``moves`` (a list, or text such as ``"0 4 1"``) are played from it first
    and the last one is highlighted."""
    start = game.initial_state() if state is None else state
    if isinstance(moves, str):
        moves = game.split_moves(moves)
    played, current = [], start
    for move in moves:
        move = game.parse_move(current, move) if isinstance(move, str) else move
        played.append(move)
        current = game.result(current, move)
    return BoardDisplay(game, current, tuple(played), start, size)


def _move_text(game: Game[Any, Any] | None, move: Any) -> str:
    return str(move) if game is None else game.format_move(move)


def result_html(result: SearchResult[Any], game: Game[Any, Any] | None = None) -> str:
    """A search result as an HTML table: each move scored (best first) with
    its principal variation and positions searched, then the totals."""
    # The labels are translated outside the f-string: xgettext does not look
    # inside one, so a message marked there never reaches the catalog.
    labels = [escape(t) for t in (_("move"), _("score"), _("principal variation"), _("positions"))]
    head = (
        '<table class="zerosum-result"><thead><tr>'
        + "".join(f"<th>{label}</th>" for label in labels)
        + "</tr></thead><tbody>"
    )
    rows = []
    lines = list(result.moves) if result.moves else []
    if not lines and result.best_move is not None:
        rows.append((result.best_move, result.score.describe(), result.pv, result.stats.nodes))
    for line in lines[:MAX_ROWS]:
        rows.append((line.move, line.score.describe(), line.pv, line.nodes))
    body = []
    for move, score, pv, nodes in rows:
        best = (
            ' style="font-weight:bold"'
            if move in result.best_moves or move == result.best_move
            else ""
        )
        pv_text = " ".join(_move_text(game, m) for m in pv)
        body.append(
            f"<tr{best}><td>{escape(_move_text(game, move))}</td><td>{escape(score)}</td>"
            f"<td>{escape(pv_text)}</td><td>{nodes:,}</td></tr>"
        )
    stats = result.stats
    depth = _("to the end") if result.depth is None else str(result.depth)
    foot = escape(
        _("{nodes} positions, {leaves} leaves, {cutoffs} cut-offs; depth {depth}").format(
            nodes=f"{stats.nodes:,}",
            leaves=f"{stats.leaves:,}",
            cutoffs=f"{stats.cutoffs:,}",
            depth=depth,
        )
    )
    return head + "".join(body) + f'</tbody></table><p class="zerosum-stats">{foot}</p>'


@dataclass(frozen=True)
class ResultDisplay:
    """A search result with its game: the table in the game's notation,
    beside the position searched."""

    game: Game[Any, Any]
    state: Any
    result: SearchResult[Any]

    def _repr_html_(self) -> str:
        position = BoardDisplay(self.game, self.state, size=180)._repr_html_()
        return (
            f'<div class="zerosum-analysis" style="display:flex;gap:16px;align-items:flex-start">'
            f"<div>{position}</div><div>{result_html(self.result, self.game)}</div></div>"
        )

    def __repr__(self) -> str:
        return repr(self.result)


def result(game: Game[Any, Any], state: Any, found: SearchResult[Any]) -> ResultDisplay:
    """``found`` (a search of ``state``) for display in ``game``'s notation."""
    return ResultDisplay(game, state, found)


def match_html(match: MatchResult) -> str:
    """A match result as HTML: how it ended and its moves."""
    if match.outcome is None:
        verdict = _("unfinished ({reason})").format(reason=match.reason)
    else:
        verdict = {1: _("the first player won"), 0: _("a draw"), -1: _("the second player won")}[
            match.outcome
        ]
    moves = " ".join(str(m) for m in match.moves)
    result, played, spent = (escape(t) for t in (_("result"), _("moves"), _("seconds spent")))
    return (
        f'<table class="zerosum-match"><tr><th>{result}</th>'
        f"<td>{escape(verdict)}</td></tr>"
        f"<tr><th>{played}</th><td>{len(match.moves)}: {escape(moves)}</td></tr>"
        f"<tr><th>{spent}</th>"
        f"<td>{match.spent[0]:.2f} / {match.spent[1]:.2f}</td></tr>"
        "</table>"
    )


def register() -> bool:
    """Register the HTML views of search and match results with the running
    IPython (if any); returns whether there was one. Called when zerosum is
    imported inside IPython; plain text stays what it was."""
    try:
        import IPython
    except ImportError:
        return False
    # Looked up, not imported by name: IPython's type information differs
    # between its versions (get_ipython typed in some, untyped in others).
    get_ipython: Any = getattr(IPython, "get_ipython", None)
    shell = None if get_ipython is None else get_ipython()
    if shell is None:
        return False
    html = shell.display_formatter.formatters["text/html"]
    html.for_type(SearchResult, lambda r: result_html(r))
    html.for_type(MatchResult, match_html)
    return True
