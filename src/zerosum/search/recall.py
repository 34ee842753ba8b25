"""Answers from proven results kept between searches (a store, an opening
book), and what a search gives back to them. Used by the front door
(:mod:`zerosum.search.front`); the keepers are any
:class:`~zerosum.search.proven.KnownResults`.

A position is answered without search when

* it is kept itself with an answer good enough for the question (a strong
  solve or a move needs the exact value; a weak solve the outcome and the
  moves that reach it), or
* every move's result is known: each child kept, or finished. The value is
  then the best of the moves' values and the best moves those that reach
  it -- exactly what a search of the position proves.

The answer is the one a fresh search gives: the same value, distance and set
of best moves (the tests compare them on every built-in game). Its
``source`` says where it came from (``store`` or ``book``); its ``stats``
count no positions searched.

Why the children and not deeper: the compiled search keeps its own table
and is not slowed by a look-up per position; a kept answer one ply down
already settles every root a book of depth ``K`` reaches at ``K + 1``, and
look-ups cost some tens of microseconds each.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from ..game import Game
from .proven import Entry, KnownResults, child_value, move_score
from .types import (
    MoveScore,
    Score,
    SearchResult,
    SearchStats,
    loss_in,
    terminal_score,
    win_in,
)

#: How far a principal variation is followed through kept answers.
PV_PLIES = 64
#: The bounds that say nothing: a loss at once, a win at once.
LOWEST_KEPT, HIGHEST_KEPT = loss_in(1), win_in(1)


def _look(
    sources: Sequence[KnownResults], game: Game[Any, Any], state: Any
) -> tuple[Entry, str] | None:
    """The best kept answer for ``state`` (an exact one first) and the label
    of its keeper."""
    found: tuple[Entry, str] | None = None
    for source in sources:
        entry = source.get(game, state)
        if entry is None:
            continue
        if entry.exact:
            return entry, source.label
        if found is None:
            found = (entry, source.label)
    return found


def _ordered(game: Game[Any, Any], state: Any, moves: Sequence[Any]) -> list[Any]:
    order = {m: i for i, m in enumerate(game.actions(state))}
    return sorted(set(moves), key=lambda m: order.get(m, len(order)))


def _children(
    sources: Sequence[KnownResults], game: Game[Any, Any], state: Any, weak: bool
) -> tuple[dict[Any, Entry], str] | None:
    """Every move's value as an entry for the move (its score from the side
    to move here), when every child is known (exactly unless ``weak``) or
    finished; else None."""
    me = game.to_move(state)
    scored: dict[Any, Entry] = {}
    label = ""
    for move in game.actions(state):
        child = game.result(state, move)
        if game.is_terminal(child):
            raw = terminal_score(game.utility(child, me), 1)
            scored[move] = Entry(raw, raw)
            continue
        found = _look(sources, game, child)
        if found is None:
            return None
        entry, label = found
        if entry.outcome is None or (not weak and not entry.exact):
            return None
        same = game.to_move(child) == me
        low, high = move_score(entry.lower, same), move_score(entry.upper, same)
        scored[move] = Entry(min(low, high), max(low, high))
    return scored, label or "store"


def _pv(
    sources: Sequence[KnownResults], game: Game[Any, Any], state: Any, first: Any, value: int
) -> tuple[Any, ...]:
    """The line from ``first`` on, as far as kept exact answers agree with
    ``value``."""
    line = [first]
    expected = value
    current = state
    while len(line) < PV_PLIES:
        mover = game.to_move(current)
        current = game.result(current, line[-1])
        if game.is_terminal(current):
            break
        expected = child_value(expected, game.to_move(current) == mover)
        found = _look(sources, game, current)
        if found is None or not found[0].exact or found[0].lower != expected:
            break
        moves = _ordered(game, current, found[0].best_moves)
        if not moves:
            break
        line.append(moves[0])
    return tuple(line)


def _result(
    game: Game[Any, Any],
    state: Any,
    score: Score,
    best: list[Any],
    pv: tuple[Any, ...],
    started: float,
    source: str,
    moves: tuple[MoveScore[Any], ...] = (),
) -> SearchResult[Any]:
    stats = SearchStats(nodes=0, time_s=time.perf_counter() - started)
    return SearchResult(
        best_move=pv[0],
        score=score,
        pv=pv,
        stats=stats,
        depth=None,
        best_moves=tuple(best),
        moves=moves,
        source=source,
    )


def recall_solve(
    sources: Sequence[KnownResults],
    game: Game[Any, Any],
    state: Any,
    weak: bool,
    all_moves: bool = True,
) -> SearchResult[Any] | None:
    """The solver's answer for ``state`` from kept results, or None. Strong:
    the exact value and every move worth it. Weak: the outcome and every
    move that reaches it (for a loss, every legal move), as
    :func:`~zerosum.search.solver.solve` gives them. With ``all_moves``
    False, one best move is enough (an entry kept by such a solve answers
    only that question)."""
    if not sources:
        return None
    started = time.perf_counter()
    found = _look(sources, game, state)
    if found is not None:
        entry, label = found
        usable = entry.exact if not weak else entry.outcome is not None
        # A weak question wants every move of the outcome, which an exact
        # win's best moves (the fastest only) are not.
        if weak and entry.exact and entry.lower > 0 and all_moves:
            usable = False
        if all_moves and not entry.every_best and entry.outcome != -1:
            usable = False
        if usable:
            best = _ordered(game, state, entry.best_moves)
            if weak and entry.outcome == -1:
                best = list(game.actions(state))
            if best:
                score = entry.score
                pv = _pv(sources, game, state, best[0], entry.lower) if entry.exact else (best[0],)
                return _result(game, state, score, best, pv, started, label)
    known = _children(sources, game, state, weak)
    if known is None:
        return None
    scored, label = known
    if weak:
        outcomes = {m: e.outcome for m, e in scored.items()}
        top = max(o for o in outcomes.values() if o is not None)
        best = [m for m, o in outcomes.items() if o == top] if top >= 0 else list(scored)
        if top == 0:
            score = Score(0, exact=True)
        else:
            bound = Entry.outcome_only(top, [])
            score = bound.score
        return _result(game, state, score, best, (best[0],), started, label)
    value = max(e.lower for e in scored.values())
    best = [m for m, e in scored.items() if e.lower == value]
    pv = _pv(sources, game, state, best[0], value)
    return _result(game, state, Score(value, exact=True), best, pv, started, label)


def recall_move(
    sources: Sequence[KnownResults],
    game: Game[Any, Any],
    state: Any,
    rng: random.Random | None,
) -> SearchResult[Any] | None:
    """A best move by the exact value (the fastest win, the slowest loss),
    drawn with ``rng`` among the best when given; None when not known."""
    found = recall_solve(sources, game, state, weak=False)
    if found is None:
        return None
    if rng is None or len(found.best_moves) < 2:
        return found
    move = rng.choice(list(found.best_moves))
    pv = _pv(sources, game, state, move, found.score.raw)
    return SearchResult(
        move, found.score, pv, found.stats, None, found.best_moves, found.moves, found.source
    )


def recall_analysis(
    sources: Sequence[KnownResults],
    game: Game[Any, Any],
    state: Any,
    multipv: int | None,
) -> SearchResult[Any] | None:
    """Every move with its exact score, best first, when every child is kept
    (or finished); else None."""
    if not sources:
        return None
    started = time.perf_counter()
    known = _children(sources, game, state, weak=False)
    if known is None:
        return None
    scored, label = known
    order = {m: i for i, m in enumerate(game.actions(state))}
    ranked = sorted(scored, key=lambda m: (-scored[m].lower, order[m]))
    lines = []
    for move in ranked:
        value = scored[move].lower
        pv = _pv(sources, game, state, move, value)
        lines.append(MoveScore(move, Score(value, exact=True), pv, 0))
    value = scored[ranked[0]].lower
    best = [m for m in game.actions(state) if scored[m].lower == value]
    shown = tuple(lines if multipv is None else lines[:multipv])
    return _result(
        game, state, Score(value, exact=True), best, lines[0].pv, started, label, shown
    )


def remember_solve(
    store: KnownResults,
    game: Game[Any, Any],
    state: Any,
    result: SearchResult[Any],
    weak: bool,
    source: str = "solve",
    all_moves: bool = True,
) -> None:
    """Keep what a completed solve proved: the exact value and every best
    move, or (weak) the outcome and every move that reaches it; with
    ``all_moves`` False (the solve proved one best move), the entry says it
    names only some."""
    if result.source != "search" or not result.score.exact or not result.best_moves:
        return
    outcome = result.score.outcome
    if outcome is None:
        return
    if weak or not result.score.distance_known:
        entry = Entry.outcome_only(
            outcome, result.best_moves, nodes=result.stats.nodes, source=source,
            every_best=all_moves,
        )
    else:
        entry = Entry.exact_value(
            result.score.raw, result.best_moves, nodes=result.stats.nodes, source=source,
            every_best=all_moves,
        )
    store.put(game, state, entry)


def remember_bounds(
    store: KnownResults, game: Game[Any, Any], state: Any, lower: int, upper: int, nodes: int
) -> None:
    """Keep the bounds an interrupted solve had proven ("at least a draw"),
    without moves (only a finished solve knows every best move), when they
    say anything."""
    if lower > upper or (lower <= LOWEST_KEPT and upper >= HIGHEST_KEPT):
        return
    store.put(game, state, Entry(lower, upper, (), nodes, time.time(), "solve"))


def remember_analysis(
    store: KnownResults, game: Game[Any, Any], state: Any, result: SearchResult[Any]
) -> None:
    """Keep an analysis's root result when it is exact for every legal move
    (then its best moves are all the moves worth the value), and the value
    of the position after each move."""
    if result.source != "search" or not result.moves:
        return
    legal = set(game.actions(state))
    if {m.move for m in result.moves} != legal:
        return
    if not all(m.score.exact and m.score.distance_known for m in result.moves):
        return
    value = max(m.score.raw for m in result.moves)
    best = [m.move for m in result.moves if m.score.raw == value]
    entry = Entry.exact_value(value, best, nodes=result.stats.nodes, source="analyze")
    me = game.to_move(state)
    kept = [(state, entry)]
    # Each move's exact score is its result's value (without its moves), so a
    # later analysis of this position is answered from the store at once.
    for line in result.moves:
        child = game.result(state, line.move)
        if not game.is_terminal(child):
            known = child_value(line.score.raw, game.to_move(child) == me)
            kept.append((child, Entry.exact_value(known, (), nodes=line.nodes, source="analyze")))
    put_many = getattr(store, "put_many", None)
    if put_many is not None:
        put_many(game, kept)
    else:
        for position, known_entry in kept:
            store.put(game, position, known_entry)
