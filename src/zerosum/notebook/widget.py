"""The notebook widgets (anywidget, the ``notebook`` extra): the browser's
search-tree view of a position, and a game to play against the AI.

Both run the browser app's own modules (:mod:`.assets`) with data from the
same functions the server answers with: the trace object of
:func:`zerosum.report.trace_object` (``GET /api/trace``) and boards of
:func:`zerosum.report.board_object`.
"""

from __future__ import annotations

import contextvars
import random
from typing import Any

try:
    import anywidget
    import traitlets
except ImportError as missing:  # pragma: no cover - the extra is not installed
    from ..game import ZerosumError
    from ..i18n import _

    raise ZerosumError(
        _("the notebook widgets need anywidget: pip install 'zerosum[notebook]'")
    ) from missing

from .. import i18n
from ..game import Game, ZerosumError
from ..i18n import _
from ..report import board_object, trace_object
from ..search import front
from ..search.trace import Trace, TraceNode, trace
from ..search.types import Limits
from ..web.strings import PAGE_STRINGS
from .assets import bundle, scoped_css

#: The most positions whose small boards go with the trace; a bigger tree's
#: boards are asked of the kernel when a node is selected.
SENT_BOARDS = 3000


def _catalog(lang: str) -> dict[str, str]:
    catalog = i18n.translations(lang)
    return {text: catalog.gettext(text) for text in PAGE_STRINGS}


def _path_boards(game: Game[Any, Any], runs: list[Trace]) -> dict[str, Any]:
    """The small board of every node, keyed by the moves from the root as
    the tree view writes them (``"b1 a3"``)."""
    boards: dict[str, Any] = {}
    for run in runs:
        nodes: list[TraceNode] = run.nodes
        paths: dict[int, tuple[str, list[tuple[int, Any]]]] = {}
        for node in nodes:
            if node.parent is None:
                paths[node.id] = ("", [])
            else:
                text, placed = paths[node.parent]
                parent = nodes[node.parent]
                cells = [tuple(c) for c in game.move_cells(parent.state, node.move)]
                move = game.format_move(node.move)
                paths[node.id] = (
                    (text + " " + move).strip(),
                    [*placed, (game.to_move(parent.state), cells)],
                )
            key, placed = paths[node.id]
            if key not in boards:
                boards[key] = _position(game, node.state, placed)
            if len(boards) >= SENT_BOARDS:
                return boards
    return boards


def _position(game: Game[Any, Any], state: Any, placed: list[tuple[int, Any]]) -> dict[str, Any]:
    return {
        "type": "position",
        "board": board_object(game.board(state), placed),
        "text": game.render(state),
    }


class TreeWidget(anywidget.AnyWidget):
    """The search tree of one position, as the browser's tree view shows it:
    step, rewind, play at a speed, alpha and beta at every node, the reason
    of each cut-off, practice mode; minimax and alpha-beta side by side with
    ``algorithm="both"``."""

    _esm = bundle()
    _css = scoped_css()
    kind = traitlets.Unicode("tree").tag(sync=True)
    traces = traitlets.Dict().tag(sync=True)
    boards = traitlets.Dict().tag(sync=True)
    algorithm = traitlets.Unicode("alphabeta").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    catalog = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        game: Game[Any, Any],
        state: Any,
        runs: list[Trace],
        algorithm: str,
        title: str,
        lang: str,
    ) -> None:
        super().__init__(
            traces={run.algorithm: trace_object(run) for run in runs},
            boards=_path_boards(game, runs),
            algorithm=algorithm,
            title=title,
            lang=lang,
            catalog=_catalog(lang),
        )
        self._game, self._state = game, state
        self.on_msg(self._answer)

    def _answer(self, _widget: Any, message: Any, _buffers: Any) -> None:
        """A selected node's board, for a tree too big to send them all."""
        if not isinstance(message, dict) or message.get("type") != "position":
            return
        try:
            state, placed = self._state, []
            for token in self._game.split_moves(str(message.get("moves", ""))):
                move = self._game.parse_move(state, token)
                placed.append((self._game.to_move(state), list(self._game.move_cells(state, move))))
                state = self._game.result(state, move)
            body = _position(self._game, state, placed)
        except ZerosumError as error:
            body = {"type": "error", "message": str(error)}
        self.send({"type": "position", "id": message.get("id"), "body": body})


def tree(
    game: Game[Any, Any],
    position: Any = None,
    algorithm: str = "alphabeta",
    depth: int | None = None,
    *,
    moves: str = "",
    evaluate_terminals: bool = False,
    top: int | None = None,
    lang: str | None = None,
) -> TreeWidget:
    """The search tree of ``position`` (a state, a position's text, or None
    for the start; ``moves`` are played from it first) as a widget.
    ``algorithm``: ``minimax``, ``alphabeta``, ``both`` (side by side) or
    ``engine``; ``depth`` limits the search (the game's evaluation scores
    the leaves there); ``top`` lists only the first plies of a big tree.
    Raises ZerosumError when the tree is too big to trace (the message says
    which depth fits)."""
    chosen = lang or i18n.language_from_environment()
    i18n.translations(chosen)
    state = (
        game.initial_state()
        if position is None
        else (game.parse_position(position) if isinstance(position, str) else position)
    )
    for token in game.split_moves(moves):
        state = game.result(state, game.parse_move(state, token))
    algorithms = ["minimax", "alphabeta"] if algorithm == "both" else [algorithm]
    runs = [
        trace(
            game,
            state,
            algorithm=a,
            depth=depth,
            evaluate_terminals=evaluate_terminals,
            keep_depth=top,
        )
        for a in algorithms
    ]
    title = f"{game.spec()} · {game.format_position(state)}"
    return TreeWidget(game, state, runs, algorithm, title, chosen)


class PlayWidget(anywidget.AnyWidget):
    """A game against the AI: click a cell to move; the AI answers."""

    _esm = bundle()
    _css = scoped_css()
    kind = traitlets.Unicode("play").tag(sync=True)
    state = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        game: Game[Any, Any],
        human: int,
        options: front.SearchOptions,
        limits: Limits,
        seed: int | None,
        lang: str,
    ) -> None:
        super().__init__()
        self._game, self._human, self._options, self._limits = game, human, options, limits
        self._rng = random.Random(seed)
        self._lang = lang
        self.moves: list[Any] = []
        self.on_msg(self._message)
        self.restart()

    @property
    def position(self) -> Any:
        """The current state."""
        state = self._game.initial_state()
        for move in self.moves:
            state = self._game.result(state, move)
        return state

    def restart(self) -> None:
        self.moves = []
        self._reply()

    def play(self, move: Any) -> None:
        """Make the human's ``move`` (text or move) and let the AI answer."""
        state = self.position
        if self._game.is_terminal(state) or self._game.to_move(state) != self._human:
            raise ZerosumError(_("it is not your turn"))
        self.moves.append(self._game.parse_move(state, move) if isinstance(move, str) else move)
        self._reply()

    def _reply(self) -> None:
        state = self.position
        while not self._game.is_terminal(state) and self._game.to_move(state) != self._human:
            found = front.best_move(
                self._game, state, self._options, limits=self._limits, rng=self._rng
            )
            self.moves.append(found.best_move)
            state = self._game.result(state, found.best_move)
        self._show()

    def _message(self, _widget: Any, message: Any, _buffers: Any) -> None:
        if not isinstance(message, dict):
            return
        if message.get("type") == "new":
            self.restart()
        elif message.get("type") == "play":
            try:
                self.play(str(message.get("move", "")))
            except ZerosumError:
                self._show()

    def _show(self) -> None:
        # In a context of its own: the widget's language is not the kernel's.
        contextvars.copy_context().run(self._show_in_language)

    def _show_in_language(self) -> None:
        game = self._game
        i18n.activate(self._lang)
        states, history = [game.initial_state()], list[dict[str, Any]]()
        for move in self.moves:
            before = states[-1]
            history.append(
                {
                    "move": game.format_move(move),
                    "player": game.to_move(before),
                    "cells": [list(c) for c in game.move_cells(before, move)],
                }
            )
            states.append(game.result(before, move))
        state = states[-1]
        over = game.is_terminal(state)
        if over:
            utility = game.utility(state, self._human)
            status = {1: _("You won."), 0: _("A draw."), -1: _("The AI won.")}[utility]
        else:
            status = _("Your move: click a cell.")
        self.state = {
            "board": board_object(
                game.board(state), [(int(h["player"]), h["cells"]) for h in history]
            ),
            "legal": []
            if over
            else [
                {"move": game.format_move(m), "cells": [list(c) for c in game.move_cells(state, m)]}
                for m in game.actions(state)
            ],
            "history": history,
            "ply": len(history),
            "can_play": not over,
            "status": status,
            "new_game": _("New game"),
        }


def play(
    game: Game[Any, Any],
    *,
    human: int = 0,
    algorithm: str = "alphabeta",
    depth: int | None = None,
    seed: int | None = None,
    lang: str | None = None,
) -> PlayWidget:
    """A game of ``game`` in the notebook: the human plays ``human`` (0
    moves first) by clicking; the AI answers with ``algorithm`` searched to
    ``depth`` (None: to the end), choosing at random (``seed``) among
    equally good moves."""
    chosen = lang or i18n.language_from_environment()
    i18n.translations(chosen)
    if human not in (0, 1):
        raise ZerosumError(
            _("human must be 0 (moves first) or 1, got {value!r}").format(value=human)
        )
    options = front.SearchOptions(algorithm=algorithm)
    return PlayWidget(game, human, options, Limits(depth=depth), seed, chosen)
