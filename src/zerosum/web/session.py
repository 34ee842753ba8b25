"""One browser connection's game: the record, who plays, and the searches.

A :class:`Session` knows nothing of HTTP or WebSockets: it takes decoded
messages (:meth:`Session.handle`) and hands the objects to send to an
``emit`` callable, in order. The message schema is ``docs/messages.md``.

Searches (the AI choosing a move, analysis, a hint) run in the session's own
worker thread (one per session, so one tab's endless search can never take
the thread another tab needs) and the event loop keeps serving every
connection. One search runs at a time per session. Every change of the
position shown bumps a *generation*; a search
started for an older generation is stopped and whatever it still reports is
dropped, so a new game, an undo or a closed tab never receives stale lines.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import sys
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar

from .. import i18n
from ..agents import LEVELS, EngineAgent, MCTSAgent, RandomAgent
from ..game import Game, Player, ZerosumError, excerpt
from ..i18n import _
from ..registry import load
from ..report import analyze_object, board_object, error_object, progress_object, solve_object
from ..search.engine import Progress
from ..search.front import Searcher
from ..search.reference import reference_recursion
from ..search.types import Limits

#: Seconds a hint may search.
HINT_SECONDS = 2.0
#: Bounds of the settings a client may choose.
MAX_DELAY = 10.0
MIN_ANALYSIS, MAX_ANALYSIS = 0.1, 600.0
DEFAULT_ANALYSIS = 10.0
#: Seconds a move for a Monte Carlo tree search player given no time.
MCTS_SECONDS = 1.0
#: Longest message a client may send (a pasted record of a long game fits).
MAX_MESSAGE = 64_000

Emit = Callable[[dict[str, Any]], None]
log = logging.getLogger("zerosum.web")


def internal_error() -> str:
    """The ``error`` text for a bug: nothing the user did, nothing lost."""
    return _("internal error; the game is unchanged (see the server's log)")


def too_deep() -> str:
    """The ``error`` text for a search deeper than Python's recursion."""
    return _(
        "the game is too long for the Python search: it recurses one level a ply"
        " and Python allows about {limit}; expected a depth limit or a shorter game"
    ).format(limit=sys.getrecursionlimit())


class ProtocolError(ZerosumError):
    """A message that breaks the schema; its text goes back as an ``error``."""


@dataclass(frozen=True)
class PlayerSpec:
    """Who plays one side: ``human``, ``random``, ``ai`` at a ``level``
    (easy, medium, hard, perfect) or with ``time`` seconds a move, or
    ``mcts`` (Monte Carlo tree search) with ``time`` seconds a move."""

    kind: str = "human"
    level: str | None = None
    time: float | None = None

    @classmethod
    def parse(cls, data: Any) -> PlayerSpec:
        if not isinstance(data, dict):
            raise ProtocolError(_("a player must be an object such as {example}").format(
                example='{"kind": "ai", "level": "hard"}'))
        kind = data.get("kind")
        if kind in ("human", "random"):
            return cls(kind)
        if kind == "mcts":
            seconds = _number(data, "time", 0.01, 3600.0)
            return cls("mcts", time=MCTS_SECONDS if seconds is None else seconds)
        if kind != "ai":
            raise ProtocolError(
                _("unknown player kind {kind}; expected human, ai, random or mcts").format(
                    kind=_quoted(kind)
                )
            )
        time = _number(data, "time", 0.01, 3600.0)
        if time is not None:
            return cls("ai", time=time)
        level = data.get("level")
        level = "hard" if level is None else level
        if not isinstance(level, str) or level not in LEVELS:
            raise ProtocolError(
                _("unknown level {level}; expected one of {levels}").format(
                    level=_quoted(level), levels=", ".join(LEVELS)
                )
            )
        return cls("ai", level=level)

    def to_json(self) -> dict[str, Any]:
        if self.kind == "mcts":
            return {"kind": "mcts", "time": self.time}
        if self.kind != "ai":
            return {"kind": self.kind}
        if self.time is not None:
            return {"kind": "ai", "time": self.time}
        return {"kind": "ai", "level": self.level}


DEFAULT_PLAYERS = (PlayerSpec("human"), PlayerSpec("ai", level="hard"))


def _quoted(value: Any) -> str:
    """A short excerpt of a JSON value a client sent, for a message."""
    return excerpt(json.dumps(value, ensure_ascii=False))


def _number(data: dict[str, Any], key: str, low: float, high: float) -> float | None:
    """``data[key]`` as a number within [low, high], None when absent."""
    value = data.get(key)
    if value is None:
        return None
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise ProtocolError(
            _("{key} must be a number from {low} to {high}, got {value}").format(
                key=key, low=low, high=high, value=_quoted(value)
            )
        )
    return float(value)


def _text(data: dict[str, Any], key: str, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ProtocolError(_("{key} must be a string").format(key=key))
    return value


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
        self.generation = 0
        self.searching: str | None = None
        self._task: asyncio.Task[None] | None = None
        self._stop_search: Callable[[], None] | None = None
        self._worker: asyncio.Future[Any] | None = None
        self._winding_down: asyncio.Future[Any] | None = None
        self._background: set[asyncio.Task[Any]] = set()
        #: This session's search thread (made on the first search).
        self._executor: ThreadPoolExecutor | None = None
        self._set_game(load("tictactoe"), None, [], seed=None)

    # -- the record ------------------------------------------------------------
    def _set_game(
        self, game: Game[Any, Any], start: Any, moves: list[Any], seed: int | None
    ) -> None:
        self.game = game
        self.origin = game.initial_state() if start is None else start
        self.record = moves
        self.states = [self.origin]
        for move in moves:
            self.states.append(game.result(self.states[-1], move))
        self.ply = len(moves)
        self.paused = False
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self._make_agents()
        self.analyst = Searcher(game)

    def _make_agents(self) -> None:
        """Fresh agents for both sides, seeded from the session's seed (so a
        game with the same seed and moves replays the same)."""
        self.agents: list[EngineAgent | RandomAgent | None] = []
        for index, spec in enumerate(self.players):
            seed = self.seed * 2 + index
            if spec.kind == "random":
                self.agents.append(RandomAgent(seed))
            elif spec.kind == "mcts":
                self.agents.append(MCTSAgent(Limits(time=spec.time or MCTS_SECONDS), seed=seed))
            elif spec.kind == "ai" and spec.time is not None:
                self.agents.append(EngineAgent(Limits(time=spec.time), seed=seed))
            elif spec.kind == "ai":
                self.agents.append(EngineAgent.at_level(spec.level or "hard", seed=seed))
            else:
                self.agents.append(None)

    @property
    def state(self) -> Any:
        """The position shown."""
        return self.states[self.ply]

    def _over(self) -> bool:
        return self.game.is_terminal(self.state)

    def _mover_is_human(self, ply: int) -> bool:
        state = self.states[ply]
        return self.players[self.game.to_move(state)].kind == "human"

    def _play(self, move: Any) -> None:
        """Play ``move`` at the position shown, cutting off the record after it."""
        del self.record[self.ply :]
        del self.states[self.ply + 1 :]
        self.record.append(move)
        self.states.append(self.game.result(self.state, move))
        self.ply += 1
        self.paused = False

    # -- messages in -------------------------------------------------------------
    async def handle(self, text: str) -> None:
        """Act on one message from the browser; a bad one gets an ``error``
        back and changes nothing."""
        i18n.activate(self.lang)
        try:
            if len(text) > MAX_MESSAGE:
                raise ProtocolError(
                    _("message too long ({size} characters); the most is {most}").format(
                        size=len(text), most=MAX_MESSAGE
                    )
                )
            try:
                # Under Python's default recursion limit whatever the engine
                # set (it raises it for deep games): deep nesting stays an error.
                with reference_recursion():
                    data = json.loads(text)
            except ValueError:
                raise ProtocolError(
                    _("malformed message: expected a JSON object with a \"type\"")
                ) from None
            except RecursionError:  # "[[[[...]]]]": nested beyond Python's recursion
                raise ProtocolError(
                    _("malformed message: nested too deeply; expected a flat JSON object")
                ) from None
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                raise ProtocolError(_("malformed message: expected a JSON object with a \"type\""))
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
        spec = _text(data, "game") or self.game.spec()
        players = self._parse_players(data) if "players" in data else self.players
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ProtocolError(_("seed must be a whole number"))
        game = load(spec)
        position = _text(data, "position")
        start = game.parse_position(position.strip()) if position and position.strip() else None
        state = game.initial_state() if start is None else start
        moves = []
        for word in game.split_moves(_text(data, "moves") or ""):
            if game.is_terminal(state):
                raise ZerosumError(
                    _("move {text!r} comes after the game is over; expected no more moves").format(
                        text=word
                    )
                )
            move = game.parse_move(state, word)
            moves.append(move)
            state = game.result(state, move)
        # Everything parsed: only now replace what the user had.
        self.players = players
        self._set_game(game, start, moves, seed)
        self._changed()

    def _parse_players(self, data: dict[str, Any]) -> tuple[PlayerSpec, PlayerSpec]:
        players = data.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise ProtocolError(_("players must be a list of two players"))
        return (PlayerSpec.parse(players[0]), PlayerSpec.parse(players[1]))

    def _on_players(self, data: dict[str, Any]) -> None:
        self.players = self._parse_players(data)
        self._make_agents()
        self._changed()

    def _on_move(self, data: dict[str, Any]) -> None:
        text = _text(data, "move", required=True)
        assert text is not None
        if self._over():
            raise ZerosumError(_("the game is over; start a new game or go back"))
        player = self.game.to_move(self.state)
        if self.players[player].kind != "human" and not self.paused:
            raise ZerosumError(
                _("it is not your turn: {player} is played by the computer").format(
                    player=self.game.player_name(player)
                )
            )
        self._play(self.game.parse_move(self.state, text))
        self._changed()

    def _on_undo(self, data: dict[str, Any]) -> None:
        if self.ply == 0:
            raise ZerosumError(_("nothing to undo: this is the start of the record"))
        target = self.ply - 1
        if any(p.kind == "human" for p in self.players):
            while target > 0 and not self._mover_is_human(target):
                target -= 1
        self._goto(target)

    def _on_redo(self, data: dict[str, Any]) -> None:
        if self.ply == len(self.record):
            raise ZerosumError(_("nothing to redo: this is the end of the record"))
        target = self.ply + 1
        if any(p.kind == "human" for p in self.players):
            while target < len(self.record) and not self._mover_is_human(target):
                target += 1
        self._goto(target)

    def _on_goto(self, data: dict[str, Any]) -> None:
        ply = data.get("ply")
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= len(self.record):
            raise ProtocolError(
                _("ply must be a whole number from 0 to {most}, got {value}").format(
                    most=len(self.record), value=_quoted(ply)
                )
            )
        self._goto(ply)

    def _goto(self, ply: int) -> None:
        self.ply = ply
        # Stepping through the record must not let the AI overwrite it.
        self.paused = ply < len(self.record)
        self._changed()

    def _on_resume(self, data: dict[str, Any]) -> None:
        self.paused = False
        self._changed()

    def _on_settings(self, data: dict[str, Any]) -> None:
        delay = _number(data, "delay", 0.0, MAX_DELAY)
        analysis_time = _number(data, "analysis_time", MIN_ANALYSIS, MAX_ANALYSIS)
        if delay is not None:
            self.delay = delay
        if analysis_time is not None:
            self.analysis_time = analysis_time
        self._emit(self.state_object())

    def _on_analysis(self, data: dict[str, Any]) -> None:
        on = data.get("on")
        if not isinstance(on, bool):
            raise ProtocolError(_("on must be true or false"))
        self.analysis_on = on
        if (on and self.searching is None) or (not on and self.searching == "analysis"):
            self._changed()
        else:
            self._emit(self.state_object())

    def _on_hint(self, data: dict[str, Any]) -> None:
        if self._over():
            raise ZerosumError(_("the game is over: there is no move to hint"))
        if self.searching == "ai":
            raise ZerosumError(_("the computer is thinking; wait for its move"))
        self._cancel_search()
        self._start("hint", lambda: self._analyse(Limits(time=HINT_SECONDS), hint=True))

    def _on_stop(self, data: dict[str, Any]) -> None:
        # The search returns its best so far; a thinking AI then plays it.
        if self.searching is None:
            raise ZerosumError(_("nothing to stop: no search is running"))
        if self._stop_search is not None:  # else it has not reached its thread yet
            self._stop_search()

    def _on_lang(self, data: dict[str, Any]) -> None:
        lang = _text(data, "lang", required=True)
        assert lang is not None
        i18n.translations(lang)  # an unknown language is an error, not the locale's
        self.lang = i18n.activate(lang)
        self._emit(self.state_object())

    _handlers: ClassVar[dict[str, Callable[[Session, dict[str, Any]], None]]] = {
        "new": _on_new,
        "move": _on_move,
        "undo": _on_undo,
        "redo": _on_redo,
        "goto": _on_goto,
        "resume": _on_resume,
        "players": _on_players,
        "settings": _on_settings,
        "analysis": _on_analysis,
        "hint": _on_hint,
        "stop": _on_stop,
        "lang": _on_lang,
    }

    # -- what happens after a change -----------------------------------------------
    def _changed(self) -> None:
        """The position shown (or who plays) changed: stop what was running,
        tell the browser, and start what comes next (the AI's move, or
        analysis)."""
        self._cancel_search()
        if not self._over():
            if not self.paused and not self._mover_is_human(self.ply):
                self._start("ai", self._ai_move)
                return
            if self.analysis_on:
                self._start("analysis", lambda: self._analyse(Limits(time=self.analysis_time)))
                return
        self._emit(self.state_object())

    def _start(self, kind: str, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Start a search task running ``work()`` (made only once the task
        runs, so a task cancelled before it starts leaves nothing behind)."""
        self.searching = kind
        self._emit(self.state_object())
        self._task = asyncio.get_running_loop().create_task(self._run(work))

    async def _run(self, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        try:
            if self._winding_down is not None:  # one search at a time per engine
                await asyncio.shield(self._winding_down)
            await work()
        except ZerosumError as error:
            if self._task is asyncio.current_task():
                self._emit(error_object(str(error)))
        except RecursionError:  # a game deeper than Python's recursion allows
            if self._task is asyncio.current_task():
                self._emit(error_object(too_deep()))
        except Exception:  # a bug: say so, keep serving
            log.exception("search failed in %s", self.game.spec())
            if self._task is asyncio.current_task():
                self._emit(error_object(internal_error()))
        finally:
            if self._task is asyncio.current_task():  # ended by itself, not replaced
                kind = self.searching
                self._finished()
                if kind == "hint" and self.analysis_on:
                    self._changed()  # the hint interrupted analysis: take it up again
                else:
                    self._emit(self.state_object())

    def _finished(self) -> None:
        """The running search is over (its result is in hand)."""
        self._task, self._stop_search, self._worker, self.searching = None, None, None, None

    def _cancel_search(self) -> None:
        """Stop the running search and drop what it still reports (a new
        generation); its thread winds down in the background and the next
        search waits for it (they may share an engine)."""
        self.generation += 1
        task, stop, worker = self._task, self._stop_search, self._worker
        self._finished()
        if task is None or task.done():
            return
        task.cancel()
        if stop is not None and worker is not None:
            self._winding_down = self._spawn(self._wind_down(worker, stop))

    @staticmethod
    async def _wind_down(worker: asyncio.Future[Any], stop: Callable[[], None]) -> None:
        # A stop request made before the engine starts searching is lost
        # (the engine clears it at the start), so repeat it until the worker
        # thread has returned.
        while not worker.done():
            stop()
            await asyncio.sleep(0.005)
        await asyncio.gather(worker, return_exceptions=True)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _in_thread(self, stop: Callable[[], None], call: Callable[[], Any]) -> Any:
        """Run ``call`` in a worker thread (in this session's language),
        stoppable with ``stop``."""
        lang = self.lang

        def work() -> Any:
            i18n.activate(lang)
            return call()

        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="zerosum-search")
        self._stop_search = stop
        loop = asyncio.get_running_loop()
        self._worker = asyncio.ensure_future(loop.run_in_executor(self._executor, work))
        return await asyncio.shield(self._worker)

    def _reporter(self, state: Any) -> Callable[[Progress[Any]], None]:
        """A progress callback for a worker thread: posts ``progress``
        objects to the event loop, which drops them once stale."""
        loop = asyncio.get_running_loop()
        generation, game = self.generation, self.game

        def report(progress: Progress[Any]) -> None:
            obj = progress_object(game, state, progress)
            loop.call_soon_threadsafe(self._post, generation, obj)

        return report

    def _post(self, generation: int, obj: dict[str, Any]) -> None:
        if generation == self.generation:
            self._emit(obj)

    async def _ai_move(self) -> None:
        generation, state, game = self.generation, self.state, self.game
        player: Player = game.to_move(state)
        agent = self.agents[player]
        assert agent is not None
        if self.delay:
            await asyncio.sleep(self.delay)
        if isinstance(agent, EngineAgent):
            report = self._reporter(state)
            decision = await self._in_thread(agent.stop, lambda: agent.choose(game, state, report))
        else:
            decision = agent.choose(game, state)
        if generation != self.generation:
            return
        if decision.search is not None:
            self._emit({**solve_object(game, state, decision.search), "player": player})
        self._finished()
        self._play(decision.move)
        self._changed()

    async def _analyse(self, limits: Limits, hint: bool = False) -> None:
        generation, state, game, engine = self.generation, self.state, self.game, self.analyst
        report = self._reporter(state)
        result = await self._in_thread(
            engine.stop, lambda: engine.analyze(state, limits, on_progress=report)
        )
        if generation != self.generation:
            return
        self._emit(analyze_object(game, state, result))
        if hint and result.best_move is not None:
            self._emit(
                {
                    "type": "hint",
                    "position": game.format_position(state),
                    "move": game.format_move(result.best_move),
                    "score": result.score.raw,
                    "exact": result.score.exact,
                }
            )

    async def start(self) -> None:
        """The connection opened: show the starting game."""
        self._changed()

    async def close(self) -> None:
        """The connection ended: stop its search and wait for the thread."""
        self._cancel_search()
        if self._winding_down is not None:
            await asyncio.gather(self._winding_down, return_exceptions=True)
        if self._executor is not None:
            self._executor.shutdown(wait=False)
            self._executor = None

    # -- messages out --------------------------------------------------------------
    def state_object(self) -> dict[str, Any]:
        """The ``state`` object: everything the page shows."""
        game, state = self.game, self.state
        over = game.is_terminal(state)
        winner: int | None = None
        banner: str | None = None
        if over:
            utility = game.utility(state, 0)
            winner = 0 if utility > 0 else 1 if utility < 0 else None
            banner = (
                _("{player} wins").format(player=game.player_name(winner))
                if winner is not None
                else _("Draw")
            )
        board = game.board(state)
        history: list[dict[str, Any]] = []
        for ply, move in enumerate(self.record):
            before = self.states[ply]
            history.append(
                {
                    "move": game.format_move(move),
                    "player": game.to_move(before),
                    "cells": [list(c) for c in game.move_cells(before, move)],
                }
            )
        # A neutral piece the record says someone placed (a Domineering
        # tile) is drawn in that player's colour.
        placed = [(entry["player"], entry["cells"]) for entry in history[: self.ply]]
        board_json = board_object(board, placed)
        return {
            "type": "state",
            "game": game.spec(),
            "title": _(type(game).title),
            "player_names": [game.player_name(0), game.player_name(1)],
            "players": [p.to_json() for p in self.players],
            "position": game.format_position(state),
            "start": game.format_position(self.origin),
            "record": " ".join(game.format_move(m) for m in self.record),
            "history": history,
            "ply": self.ply,
            "to_move": game.to_move(state),
            "legal": [
                {"move": game.format_move(m), "cells": [list(c) for c in game.move_cells(state, m)]}
                for m in ([] if over else game.actions(state))
            ],
            "board": board_json,
            "text": game.render(state),
            "over": over,
            "winner": winner,
            "banner": banner,
            "searching": self.searching,
            "paused": self.paused,
            "analysis": self.analysis_on,
            "delay": self.delay,
            "analysis_time": self.analysis_time,
            "seed": self.seed,
        }
