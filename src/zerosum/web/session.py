"""One browser connection's game: routes each message to the record, the
search runner and the views.

A :class:`Session` knows nothing of HTTP or WebSockets: it takes decoded
messages (:meth:`Session.handle`) and hands the objects to send to an
``emit`` callable, in order. The message schema is ``docs/messages.md``.

The parts, each one idea: :mod:`.messages` checks what comes in (a message
is checked whole before anything changes, so a refused one changes
nothing), :mod:`.record` is the game record with its variations,
:mod:`.runner` runs the searches (one at a time, in the session's own
thread, each with a search id; every change of the position shown cancels
the running one and drops what it still reports), :mod:`.searches` are the
searches themselves (the AI's move, analysis, review), :mod:`.views` builds
what goes out and :mod:`.review` judges the moves of a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from .. import i18n
from ..game import Game, Player, ZerosumError, excerpt
from ..i18n import _
from ..play.agents import Agent, Decision
from ..play.players import PlayerSpec, make_agent, side_seeds
from ..registry import load
from ..report import analyze_object, error_object, solve_object
from ..search.front import Searcher, SearchOptions
from ..search.types import Limits, Score
from . import messages, searches
from .messages import (
    DEFAULT_ANALYSIS,
    DEFAULT_LINES,
    DEFAULT_PLAYERS,
    MAX_ANALYSIS,
    MAX_DELAY,
    MAX_LINES,
    MAX_MESSAGE,
    MIN_ANALYSIS,
    MIN_DELAY,
    MIN_LINES,
    ProtocolError,
    internal_error,
    page_kind,
    too_deep,
)
from .movetext import parse_movetext
from .record import Record
from .runner import Emit, SearchRunner
from .views import Settings, hint_object, state_object

__all__ = [
    "MAX_MESSAGE",
    "PlayerSpec",
    "ProtocolError",
    "Session",
    "internal_error",
    "too_deep",
]

#: Seconds a hint may search.
HINT_SECONDS = 2.0

def played_by(kind: str, decision: Decision) -> str:
    """``last_move.by`` for a computer player's move: ``"random"`` when an
    AI played a deliberate random move (an easy level's noise: no search, no
    book), else the player's kind."""
    if kind == "ai" and decision.search is None and not decision.from_book:
        return "random"
    return kind


class Session:
    """One game in one browser tab; see the module docstring.

    ``emit`` receives every object to send, in order (from the event loop's
    thread only). Call :meth:`handle` with each message's text and
    :meth:`close` when the connection ends.
    """

    def __init__(self, emit: Emit, lang: str = "en") -> None:
        self._emit = emit
        self.lang = i18n.activate(lang)
        self.players: tuple[PlayerSpec, PlayerSpec] = DEFAULT_PLAYERS
        self.delay = 0.0
        self.analysis_time = DEFAULT_ANALYSIS
        self.analysis_on = False
        self.lines = DEFAULT_LINES
        #: Use the store of proven results and opening books (the page's
        #: settings; the store itself is the server's, see ``zerosum serve``).
        self.use_store = True
        self.use_book = True
        self._options_changed = False
        #: The AI waits at the position shown (the record is being stepped
        #: through); reported as ``paused`` only when the computer is to move.
        self.holding = False
        self._stop_review = False
        self.runner = SearchRunner(emit, self._search_ended)
        self.runner.lang = self.lang
        #: The latest completed depth of an analysis of the position shown:
        #: (position, search id, best move, score, exact); a hint gives it.
        self._analysed: tuple[str, int, Any, int, bool] | None = None
        self._set_game(load("tictactoe"), None, [], seed=None)

    # -- what tests and the app read ---------------------------------------------
    @property
    def searching(self) -> str | None:
        """What is running: None, ``ai``, ``analysis``, ``hint`` or ``review``."""
        return self.runner.kind

    @property
    def state(self) -> Any:
        """The position shown."""
        return self.record.state

    # -- the game and its record -------------------------------------------------
    def _set_game(
        self,
        game: Game[Any, Any],
        start: Any,
        moves: list[Any],
        seed: int | None,
        record: Record[Any, Any] | None = None,
    ) -> None:
        self.game = game
        origin = game.initial_state() if start is None else start
        self.record: Record[Any, Any] = (
            Record(game.result, origin, moves) if record is None else record
        )
        self.holding = False
        self._analysed = None
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self._make_agents()
        self.analyst = Searcher(game, self._options())
        self.runner.label = game.spec()

    def _options(self) -> SearchOptions:
        """The search options of the page's settings (store, book)."""
        return SearchOptions(use_store=self.use_store, use_book=self.use_book)

    def _make_agents(self) -> None:
        """Fresh agents for both sides from the one player factory, seeded
        from the session's seed as every front end seeds a game (so a game
        with the same seed and moves replays the same, here or in the
        terminal); a human side has none (its moves come as messages). The
        engine's agents read the store and books as the page's settings say."""
        seeds = side_seeds(self.seed)
        options = self._options()
        self.agents: list[Agent | None] = [
            None if spec.kind == "human" else make_agent(spec, seeds[index], options=options)
            for index, spec in enumerate(self.players)
        ]

    def _over(self) -> bool:
        return self.game.is_terminal(self.state)

    def _mover_is_human(self, ply: int) -> bool:
        state = self.record.state_at(ply)
        return self.players[self.game.to_move(state)].kind == "human"

    def _play(self, move: Any, by: str) -> None:
        """Play ``move`` at the position shown (a new variation when the
        record went on differently there); ``by`` says who played it."""
        self.record.play(move, by)
        self.holding = False

    # -- messages in -------------------------------------------------------------
    async def handle(self, text: str) -> None:
        """Act on one message from the browser; a bad one gets an ``error``
        back and changes nothing."""
        i18n.activate(self.lang)
        try:
            data = messages.decode(text)
            handler = self._handlers.get(data["type"])
            if handler is None:
                raise ProtocolError(
                    _("unknown message type {kind!r}; expected one of {kinds}").format(
                        kind=excerpt(data["type"]), kinds=", ".join(sorted(self._handlers))
                    )
                )
            handler(self, data)
        except ZerosumError as error:
            self._emit(error_object(str(error)))

    def _on_new(self, data: dict[str, Any]) -> None:
        spec = messages.text(data, "game") or self.game.spec()
        players = messages.players(data) if "players" in data else self.players
        seed = messages.seed(data)
        game = load(spec)
        position = messages.text(data, "position")
        start = game.parse_position(position.strip()) if position and position.strip() else None
        origin = game.initial_state() if start is None else start
        # the moves with their variations, move numbers and comments
        # (docs/records.md); a plain list is the simplest movetext
        record = parse_movetext(game, origin, messages.text(data, "moves") or "")
        # Everything parsed: only now replace what the user had.
        self.players = players
        self._set_game(game, start, [], seed, record)
        self._changed()

    def _on_players(self, data: dict[str, Any]) -> None:
        # Who plays, never which game: the game changes only with ``new``.
        self.players = messages.players(data)
        self._make_agents()
        self._changed()

    def _on_move(self, data: dict[str, Any]) -> None:
        text = messages.text(data, "move", required=True)
        assert text is not None
        if self._over():
            raise ZerosumError(_("the game is over; start a new game or go back"))
        player = self.game.to_move(self.state)
        if self.players[player].kind != "human" and not self.holding:
            raise ZerosumError(
                _("it is not your turn: {player} is played by the computer").format(
                    player=self.game.player_name(player)
                )
            )
        self._play(self.game.parse_move(self.state, text), "human")
        self._changed()

    def _on_line(self, data: dict[str, Any]) -> None:
        ply = messages.ply(data, len(self.record))
        text = messages.text(data, "move", required=True)
        assert text is not None
        state = self.record.state_at(ply)
        if self.game.is_terminal(state):
            raise ZerosumError(_("the game is over there; there is no variation to follow"))
        move = self.game.parse_move(state, text)
        try:
            self.record.switch(ply, move)
        except KeyError:
            raise ZerosumError(
                _("no variation starts with {move} after {ply} moves; expected one of {moves}")
                .format(
                    move=excerpt(text),
                    ply=ply,
                    moves=", ".join(map(self.game.format_move, self.record.next_moves(ply)))
                    or "-",
                )
            ) from None
        self.holding = True
        self._changed()

    def _on_drop(self, data: dict[str, Any]) -> None:
        ply = messages.ply(data, len(self.record))
        text = messages.text(data, "move", required=True)
        assert text is not None
        state = self.record.state_at(ply)
        if self.game.is_terminal(state):
            raise ZerosumError(_("the game is over there; there is no variation to follow"))
        move = self.game.parse_move(state, text)
        others = [
            self.game.format_move(m) for m in self.record.next_moves(ply)
            if ply == len(self.record) or m != self.record.line[ply]
        ]
        try:
            self.record.drop(ply, move)
        except KeyError:
            raise ZerosumError(
                _("no variation starts with {move} after {ply} moves; expected one of {moves}")
                .format(move=excerpt(text), ply=ply, moves=", ".join(others) or "-")
            ) from None
        except ValueError:
            raise ZerosumError(
                _("{move} is the line shown, not a variation; switch to another line to delete it")
                .format(move=excerpt(text))
            ) from None
        self._changed()

    def _on_undo(self, data: dict[str, Any]) -> None:
        ply = self.record.ply
        if ply == 0:
            raise ZerosumError(_("nothing to undo: this is the start of the record"))
        target = ply - 1
        if any(p.kind == "human" for p in self.players):
            while target > 0 and not self._mover_is_human(target):
                target -= 1
        self._goto(target)

    def _on_redo(self, data: dict[str, Any]) -> None:
        end = len(self.record)
        if self.record.ply == end:
            raise ZerosumError(_("nothing to redo: this is the end of the record"))
        target = self.record.ply + 1
        if any(p.kind == "human" for p in self.players):
            while target < end and not self._mover_is_human(target):
                target += 1
        self._goto(target)

    def _on_goto(self, data: dict[str, Any]) -> None:
        self._goto(messages.ply(data, len(self.record)))

    def _goto(self, ply: int) -> None:
        self.record.goto(ply)
        # Stepping through the record must not let the AI play over it.
        self.holding = ply < len(self.record)
        self._changed()

    def _on_resume(self, data: dict[str, Any]) -> None:
        self.holding = False
        self._changed()

    def _on_settings(self, data: dict[str, Any]) -> None:
        # Checked whole first: one bad field and nothing changes.
        delay = messages.number(data, "delay", MIN_DELAY, MAX_DELAY)
        analysis_time = messages.number(data, "analysis_time", MIN_ANALYSIS, MAX_ANALYSIS)
        lines = messages.whole(data, "lines", MIN_LINES, MAX_LINES, _("Lines"))
        store = messages.flag(data, "store") if "store" in data else None
        book = messages.flag(data, "book") if "book" in data else None
        if delay is not None:
            self.delay = delay
        if analysis_time is not None:
            self.analysis_time = analysis_time
        if lines is not None:
            self.lines = lines
        if (store is not None and store != self.use_store) or (
            book is not None and book != self.use_book
        ):
            self.use_store = self.use_store if store is None else store
            self.use_book = self.use_book if book is None else book
            # The next search (the AI's, an analysis) reads them or not.
            if self.searching is None:
                self._make_agents()
                self.analyst = Searcher(self.game, self._options())
            else:
                self._options_changed = True
        self._send_state()

    def _on_analysis(self, data: dict[str, Any]) -> None:
        on = messages.flag(data, "on")
        self.analysis_on = on
        if (on and self.searching is None) or (not on and self.searching == "analysis"):
            self._changed()
        else:
            self._send_state()

    def _on_hint(self, data: dict[str, Any]) -> None:
        if self._over():
            raise ZerosumError(_("the game is over: there is no move to hint"))
        if self.searching == "ai":
            raise ZerosumError(_("the computer is thinking; wait for its move"))
        position = self.game.format_position(self.state)
        known = self._analysed
        if self.analysis_on and known is not None and known[0] == position:
            # The analysis shown has an answer: the hint is that answer (a
            # second search could disagree with the table on the page).
            _position, search_id, move, score, exact = known
            self.runner.send(search_id, hint_object(self.game, self.state, move, score, exact))
            return
        self._cancel()
        self._start("hint", lambda search_id: self._analyse(search_id, Limits(time=HINT_SECONDS)))

    def _on_review(self, data: dict[str, Any]) -> None:
        if self.searching == "ai":
            raise ZerosumError(_("the computer is thinking; wait for its move"))
        self._cancel()
        self._start("review", self._review)

    def _on_stop(self, data: dict[str, Any]) -> None:
        # The search returns its best so far; a thinking AI then plays it.
        if not self.runner.stop():
            raise ZerosumError(_("nothing to stop: no search is running"))
        if self.searching == "review":
            self._stop_review = True

    def _on_lang(self, data: dict[str, Any]) -> None:
        lang = messages.text(data, "lang", required=True)
        assert lang is not None
        i18n.translations(lang)  # an unknown language is an error, not the locale's
        self.lang = self.runner.lang = i18n.activate(lang)
        self._send_state()

    _handlers: ClassVar[dict[str, Callable[[Session, dict[str, Any]], None]]] = {
        "new": _on_new,
        "move": _on_move,
        "line": _on_line,
        "drop": _on_drop,
        "undo": _on_undo,
        "redo": _on_redo,
        "goto": _on_goto,
        "resume": _on_resume,
        "players": _on_players,
        "settings": _on_settings,
        "analysis": _on_analysis,
        "hint": _on_hint,
        "review": _on_review,
        "stop": _on_stop,
        "lang": _on_lang,
    }

    # -- what happens after a change -----------------------------------------------
    def _changed(self) -> None:
        """The position shown (or who plays) changed: stop what was running,
        tell the browser, and start what comes next (the AI's move, or
        analysis)."""
        self._cancel()
        if not self._over():
            if not self.holding and not self._mover_is_human(self.record.ply):
                self._start("ai", self._ai_move)
                return
            if self.analysis_on:
                self._start(
                    "analysis",
                    lambda search_id: self._analyse(search_id, Limits(time=self.analysis_time)),
                )
                return
        self._send_state()

    def _cancel(self) -> None:
        self.runner.cancel()
        self._stop_review = False

    def _start(self, kind: str, work: Callable[[int], Any]) -> None:
        if self._options_changed and self.searching is None:
            # The store and book settings changed during the last search.
            self._options_changed = False
            self._make_agents()
            self.analyst = Searcher(self.game, self._options())
        self.runner.start(kind, work)
        self._send_state()

    def _search_ended(self, kind: str | None) -> None:
        """A search ended by itself: show that, or take analysis up again
        after a hint or a review interrupted it."""
        if kind in ("hint", "review") and self.analysis_on:
            self._changed()
        else:
            self._send_state()

    async def _ai_move(self, search_id: int) -> None:
        runner, state, game = self.runner, self.state, self.game
        generation = runner.generation
        player: Player = game.to_move(state)
        agent, kind = self.agents[player], page_kind(self.players[player])
        assert agent is not None
        decision = await searches.ai_decision(runner, search_id, game, state, agent, self.delay)
        if not runner.current(generation):
            return
        if decision.search is not None:
            runner.send(search_id, {**solve_object(game, state, decision.search), "player": player})
        runner.finish()
        self._play(decision.move, played_by(kind, decision))
        self._changed()

    async def _analyse(self, search_id: int, limits: Limits) -> None:
        runner, state, game = self.runner, self.state, self.game
        generation = runner.generation
        position = game.format_position(state)
        hint = runner.kind == "hint"
        if not hint:  # the page's table restarts: so does what a hint may give
            self._analysed = None

        def remember(best: Any, score: Score) -> None:
            if best is not None and not hint:
                self._analysed = (position, search_id, best, score.raw, score.exact)

        result = await searches.analysis(
            runner, search_id, game, state, self.analyst, limits,
            lambda progress: remember(progress.best_move, progress.score),
        )
        if not runner.current(generation):
            return
        runner.send(search_id, analyze_object(game, state, result))
        remember(result.best_move, result.score)
        if hint and result.best_move is not None:
            runner.send(
                search_id,
                hint_object(game, state, result.best_move, result.score.raw, result.score.exact),
            )

    async def _review(self, search_id: int) -> None:
        await searches.review(
            self.runner, search_id, self.game, self.analyst,
            self.record.line, self.record.states, lambda: self._stop_review,
        )

    async def start(self) -> None:
        """The connection opened: show the starting game."""
        self._changed()

    async def close(self) -> None:
        """The connection ended: stop its search, wait for the thread, and
        release the engines' tables now (an idle server may not run the
        garbage collection that would otherwise find them)."""
        await self.runner.close()
        self.analyst.close()
        for agent in self.agents:
            close = getattr(agent, "close", None)
            if close is not None:
                close()
        self.agents = []

    # -- messages out --------------------------------------------------------------
    def _paused(self) -> bool:
        """The AI is held at the position shown: only when the computer is
        to move there (a human to move is not waiting for anything)."""
        return self.holding and not self._over() and not self._mover_is_human(self.record.ply)

    def _send_state(self) -> None:
        self._emit(self.state_object())

    def state_object(self) -> dict[str, Any]:
        """The ``state`` object: everything the page shows."""
        return state_object(
            self.game,
            self.record,
            players=self.players,
            by=self.record.tags,
            searching=self.runner.kind,
            search_id=self.runner.search_id,
            paused=self._paused(),
            settings=Settings(
                self.delay,
                self.analysis_time,
                self.analysis_on,
                self.lines,
                self.use_store,
                self.use_book,
            ),
            seed=self.seed,
        )
