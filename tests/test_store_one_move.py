"""A solve that proves one best move (``--weak`` without ``--all-moves``) is
kept in the store as such: it answers the same question again at once, never
the question "every best move"; and a store written before that flag existed
(schema 1) is read and upgraded without losing a row."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from support import run_cli

import zerosum
from zerosum.search.front import Searcher, SearchOptions
from zerosum.search.proven import Entry, merge
from zerosum.search.types import win_in
from zerosum.store import SCHEMA_VERSION, Store

GAME = "domineering(rows=4,cols=5)"


def _weak(path: Path, *extra: str) -> dict[str, Any]:
    done = run_cli(
        "solve", GAME, "--weak", "--json", "--backend", "python", "--store", str(path), *extra
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_a_weak_one_move_solve_is_answered_from_the_store_the_second_time(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.sqlite"
    first = _weak(path)
    second = _weak(path)
    assert first["source"] == "search" and first["nodes"] > 0
    assert second["source"] == "store" and second["nodes"] == 0
    # The outcome and the move; a weak search's score also carries the
    # distance of the win it found, which the store does not claim.
    for key in ("value", "exact", "best_move", "best_moves", "weak"):
        assert second[key] == first[key], key
    game = zerosum.load(GAME)
    with Store.open(path) as store:
        kept = store.get(game, game.initial_state())
    assert kept is not None and not kept.every_best and kept.outcome is not None
    # Every best move is another question: searched, then kept whole.
    every = _weak(path, "--all-moves")
    assert every["source"] == "search"
    truth = Searcher(game, SearchOptions(use_store=False, use_book=False)).solve(
        game.initial_state(), weak=True
    )
    assert set(every["best_moves"]) == {game.format_move(m) for m in truth.best_moves}
    with Store.open(path) as store:
        kept = store.get(game, game.initial_state())
    assert kept is not None and kept.every_best
    assert set(kept.best_moves) == set(truth.best_moves)
    assert _weak(path, "--all-moves")["source"] == "store"


def test_every_best_move_beats_one_of_them_in_the_merge() -> None:
    one = Entry.outcome_only(1, [2], every_best=False)
    every = Entry.outcome_only(1, [2, 3])
    assert merge(one, every) is every
    assert merge(every, one) is every
    exact_one = Entry.exact_value(win_in(7), [2], every_best=False)
    exact_all = Entry.exact_value(win_in(7), [2, 4])
    assert merge(exact_one, exact_all) is exact_all
    assert merge(exact_all, exact_one) is exact_all
    # A bound without moves keeps the moves of the outcome and what they say.
    tighter = merge(one, Entry(win_in(20), win_in(1), ()))
    assert tighter.best_moves == (2,) and not tighter.every_best


def _as_schema_1(path: Path) -> None:
    """Rewrite a store file the way schema 1 laid it out (no every_best)."""
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("ALTER TABLE positions DROP COLUMN every_best")
        raw.execute("PRAGMA user_version = 1")
        raw.commit()


def test_a_schema_1_store_is_read_and_upgraded(tmp_path: Path) -> None:
    game = zerosum.load("tictactoe")
    state = game.play_text("4")
    entry = Entry.exact_value(0, [0, 2, 6, 8], nodes=10, solved_at=1.0)
    path = tmp_path / "old.sqlite"
    with Store.open(path) as store:
        store.put(game, state, entry)
    _as_schema_1(path)
    with Store.open(path, readonly=True) as book:
        read = book.get(game, state)
        assert read is not None and read.every_best
        assert set(read.best_moves) == {0, 2, 6, 8}
        assert [r.every_best for r in book.entries(game)] == [True]
    with Store.open(path) as store:
        again = store.get(game, state)
    assert again is not None and set(again.best_moves) == {0, 2, 6, 8} and again.every_best
    with closing(sqlite3.connect(path)) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
        columns = {row[1] for row in raw.execute("PRAGMA table_info(positions)")}
    assert "every_best" in columns


def test_json_lines_carry_every_best() -> None:
    from zerosum.book.lines import BadLine, read_line

    good = {"game": "tictactoe", "rules": 1, "moves": "4", "lower": 0, "upper": 0,
            "best": ["0"], "nodes": 5}
    games: dict[str, Any] = {}
    assert read_line(json.dumps(good), games)[2].every_best
    one = read_line(json.dumps({**good, "every_best": False}), games)[2]
    assert not one.every_best and one.best_moves == (0,)
    try:
        read_line(json.dumps({**good, "every_best": "no"}), games)
    except BadLine as refused:
        assert "every_best must be true or false" in str(refused)
    else:
        raise AssertionError("a malformed every_best was accepted")
