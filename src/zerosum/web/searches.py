"""The searches a session runs, as coroutines on its :class:`~.runner.SearchRunner`.

Each takes what it searches (game, position, engine or agent) and returns
what it found; it streams its ``progress`` (or ``review``) objects through
the runner, stamped with the search's id and dropped once stale. None
changes the session: the session decides what a result means (play the AI's
move, remember the analysis for a hint), after checking the search is still
wanted (:meth:`~.runner.SearchRunner.current`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any

from ..game import Game
from ..play.agents import Agent, Decision, EngineAgent
from ..play.match import decide
from ..report import progress_object
from ..search.engine import Progress
from ..search.front import Searcher
from ..search.types import Limits, SearchResult
from .review import Thresholds, classify_line, review_entry, review_limits
from .runner import SearchRunner


async def ai_decision(
    runner: SearchRunner,
    search_id: int,
    game: Game[Any, Any],
    state: Any,
    agent: Agent,
    delay: float,
) -> Decision:
    """The computer's move in ``state`` after ``delay`` seconds: a turn of
    the one game loop (:func:`~zerosum.play.match.decide`); an engine (MCTS
    included) searches in the worker thread, streaming its progress."""
    if delay:
        await asyncio.sleep(delay)
    if isinstance(agent, EngineAgent):
        report = runner.reporter(search_id, lambda p: progress_object(game, state, p))
        decision: Decision = await runner.in_thread(
            agent.stop, lambda: decide(game, state, agent, report)
        )
        return decision
    return decide(game, state, agent)


async def analysis(
    runner: SearchRunner,
    search_id: int,
    game: Game[Any, Any],
    state: Any,
    engine: Searcher,
    limits: Limits,
    seen: Callable[[Progress[Any]], None] | None = None,
) -> SearchResult[Any]:
    """Every move of ``state`` scored within ``limits``, streaming a
    ``progress`` object per completed depth (``seen`` gets each one sent)."""
    report = runner.reporter(search_id, lambda p: progress_object(game, state, p), seen)
    result: SearchResult[Any] = await runner.in_thread(
        engine.stop, lambda: engine.analyze(state, limits, on_progress=report)
    )
    return result


async def review(
    runner: SearchRunner,
    search_id: int,
    game: Game[Any, Any],
    engine: Searcher,
    line: list[Any],
    states: list[Any],
    stopped: Callable[[], bool],
) -> None:
    """Score each position of a line (``states[p]`` after ``p`` moves of
    ``line``) with a search bounded in positions, streaming ``review``
    objects with every entry so far, each move judged (:mod:`.review`); the
    last has ``done`` true. Reproducible: the same line gets the same
    entries every time, on the same backend (each position is searched with
    ``engine``'s table cleared, and a node budget,
    :func:`.review.review_limits`, a share of the whole review's in a long
    game; an exact answer from the solver, the store or a book is the same
    each time). Ends early when
    ``stopped()``; sends nothing more once the search is no longer wanted."""
    generation = runner.generation
    # In the worker thread: making the engine may load compiled code.
    backend = await runner.in_thread(engine.stop, lambda: engine.backend)
    if not runner.current(generation):
        return
    each = review_limits(backend, len(states))
    scored: list[dict[str, Any]] = []
    thresholds = Thresholds.of(game)

    def send(done: bool) -> None:
        # Copies: an entry's class changes once the next position is scored,
        # and an object already sent must not change under the writer.
        plies = [dict(entry) for entry in scored]
        runner.send(search_id, {"type": "review", "plies": plies, "done": done})

    for ply, state in enumerate(states):
        if stopped():
            break
        result: SearchResult[Any] | None = None
        if not game.is_terminal(state):
            result = await runner.in_thread(engine.stop, partial(_fresh_move, engine, state, each))
            if not runner.current(generation):
                return
        move = line[ply] if ply < len(line) else None
        scored.append(review_entry(game, state, ply, move, result))
        classify_line(scored, thresholds)
        send(False)
    send(True)


def _fresh_move(engine: Searcher, state: Any, limits: Limits) -> SearchResult[Any]:
    """The best move in ``state`` searched from an empty table: what earlier
    searches left in it (even the previous position's, whose entries a
    native table keeps readable or not depending on its generations' past)
    would make the answer under a node budget depend on history."""
    engine.clear()
    return engine.best_move(state, limits)
