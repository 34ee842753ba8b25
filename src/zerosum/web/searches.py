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
from ..play.agents import Decision, EngineAgent, RandomAgent
from ..report import progress_object
from ..search.engine import Progress
from ..search.front import Searcher
from ..search.types import Limits, SearchResult
from .review import REVIEW_SECONDS, REVIEW_TOTAL, classify_line, review_entry
from .runner import SearchRunner


async def ai_decision(
    runner: SearchRunner,
    search_id: int,
    game: Game[Any, Any],
    state: Any,
    agent: EngineAgent | RandomAgent,
    delay: float,
) -> Decision:
    """The computer's move in ``state`` after ``delay`` seconds; an engine
    (MCTS included) searches in the worker thread, streaming its progress."""
    if delay:
        await asyncio.sleep(delay)
    if isinstance(agent, EngineAgent):
        report = runner.reporter(search_id, lambda p: progress_object(game, state, p))
        decision: Decision = await runner.in_thread(
            agent.stop, lambda: agent.choose(game, state, report)
        )
        return decision
    return agent.choose(game, state)


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
    ``line``) with a bounded search, streaming ``review`` objects with every
    entry so far, each move judged (:mod:`.review`); the last has ``done``
    true. Each position may search :data:`REVIEW_SECONDS`, less in a game so
    long that the whole would take more than :data:`REVIEW_TOTAL` seconds.
    Ends early when ``stopped()`` or past the total; sends nothing more once
    the search is no longer wanted."""
    generation = runner.generation
    loop = asyncio.get_running_loop()
    # A long game gets less time a position rather than a review that stops
    # halfway: the whole line fits in the total.
    each = Limits(time=min(REVIEW_SECONDS, REVIEW_TOTAL / max(1, len(states))))
    budget = loop.time() + REVIEW_TOTAL
    scored: list[dict[str, Any]] = []

    def send(done: bool) -> None:
        # Copies: an entry's class changes once the next position is scored,
        # and an object already sent must not change under the writer.
        plies = [dict(entry) for entry in scored]
        runner.send(search_id, {"type": "review", "plies": plies, "done": done})

    for ply, state in enumerate(states):
        if stopped() or loop.time() > budget:
            break
        result: SearchResult[Any] | None = None
        if not game.is_terminal(state):
            result = await runner.in_thread(engine.stop, partial(engine.best_move, state, each))
            if not runner.current(generation):
                return
        move = line[ply] if ply < len(line) else None
        scored.append(review_entry(game, state, ply, move, result))
        classify_line(scored)
        send(False)
    send(True)
