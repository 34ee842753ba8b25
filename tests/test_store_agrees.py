"""An answer taken from the store is never different from a fresh search's:
on thousands of positions of every built-in game, solving with the store
(answered from the position itself, from its moves' results, or from a
symmetric image) gives the same value, distance and set of best moves as
solving without it; weak solves the same outcome and moves; analyses the
same score for every move."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from support import reachable, sample_positions

import zerosum
from zerosum.game import Game
from zerosum.search.front import Searcher, SearchOptions
from zerosum.search.types import Limits
from zerosum.store import Store

#: Game spec, how many positions (None: every reachable one), plies drawn.
CASES: list[tuple[str, int | None, range]] = [
    ("tictactoe", None, range(0)),
    ("connect4(width=4,height=4)", 600, range(2, 12)),
    ("connect4(width=5,height=4)", 300, range(4, 14)),
    ("domineering(rows=4,cols=4)", 400, range(0, 7)),
    ("domineering(rows=3,cols=5)", 300, range(0, 6)),
    ("nim(heaps=3-5-6-7)", 400, range(0, 10)),
    ("mnk(m=3,n=4,k=3)", 400, range(1, 9)),
    ("othello(size=4)", 400, range(0, 10)),
]

FRESH = SearchOptions(use_store=False, use_book=False, backend="python")


def _positions(game: Game[Any, Any], count: int | None, plies: range) -> list[Any]:
    if count is None:
        found = [s for s in reachable(game) if not game.is_terminal(s)]
        return sorted(found, key=game.key)  # type: ignore[arg-type]
    return sample_positions(game, plies, count, seed=18)


def _answer(result: Any) -> tuple[int, frozenset[Any]]:
    return result.score.raw, frozenset(result.best_moves)


def _weak(result: Any) -> tuple[int | None, frozenset[Any]]:
    return result.score.outcome, frozenset(result.best_moves)


@pytest.mark.parametrize(("spec", "count", "plies"), CASES, ids=[c[0] for c in CASES])
def test_solving_with_the_store_changes_no_answer(
    spec: str, count: int | None, plies: range, tmp_path: Path
) -> None:
    game = zerosum.load(spec)
    positions = _positions(game, count, plies)
    assert len(positions) >= min(count or 1000, 300)
    fresh = Searcher(game, FRESH)
    truth = {p: _answer(fresh.solve(p)) for p in positions}
    weak_truth = {p: _weak(fresh.solve(p, weak=True)) for p in positions}

    rng = random.Random(18)
    with Store.open(tmp_path / "store.sqlite") as store:
        keeping = Searcher(game, SearchOptions(store=store, use_book=False, backend="python"))
        # Fill the store with half of the positions (strong), a quarter weak.
        for p in positions:
            draw = rng.random()
            if draw < 0.5:
                keeping.solve(p)
            elif draw < 0.75:
                keeping.solve(p, weak=True)
        # A new searcher (a fresh table): every answer agrees, wherever it
        # came from (the store, the moves' results in the store, a search).
        asking = Searcher(game, SearchOptions(store=store, use_book=False, backend="python"))
        sources = {"store": 0, "search": 0}
        for p in positions:
            strong = asking.solve(p)
            sources[strong.source] += 1
            assert _answer(strong) == truth[p], game.format_position(p)
            weak = asking.solve(p, weak=True)
            assert _weak(weak) == weak_truth[p], game.format_position(p)
        if game.max_margin() is not None:
            # A strong solve of a game with sized results finds the margin,
            # which the store (of outcomes) does not keep: always a search.
            assert sources["store"] == 0
            return
        assert sources["store"] > len(positions) // 3
        # Symmetric images are answered from their class's row.
        if game.symmetry_count() > 1:
            for p in positions[:100]:
                for t in range(1, game.symmetry_count()):
                    image = game.transform(p, t)
                    got = asking.solve(image)
                    assert got.source == "store"
                    assert _answer(got) == _answer(fresh.solve(image))


ANALYSED = [
    ("tictactoe", 60),
    ("connect4(width=4,height=4)", 25),
    ("domineering(rows=3,cols=4)", 60),
    ("nim(heaps=2-3-4)", 60),
    ("othello(size=4)", 40),
]


@pytest.mark.parametrize(("spec", "count"), ANALYSED, ids=[a[0] for a in ANALYSED])
def test_analysis_from_the_store_scores_every_move_alike(
    spec: str, count: int, tmp_path: Path
) -> None:
    game = zerosum.load(spec)
    positions = sample_positions(game, range(0, 6), count, seed=5)
    fresh = Searcher(game, FRESH)
    with Store.open(tmp_path / "store.sqlite") as store:
        keeping = Searcher(game, SearchOptions(store=store, use_book=False, backend="python"))
        answered = 0
        for p in positions:
            first = keeping.analyze(p, Limits())
            again = keeping.analyze(p, Limits())
            truth = fresh.analyze(p, Limits())
            for result in (first, again):
                assert {m.move: m.score.raw for m in result.moves} == {
                    m.move: m.score.raw for m in truth.moves
                }
                assert all(m.score.exact for m in result.moves)
            answered += again.source == "store"
            # What the analysis kept answers a solve as a fresh solve would.
            solved = keeping.solve(p)
            assert _answer(solved) == _answer(fresh.solve(p))
        assert answered == len(positions)
