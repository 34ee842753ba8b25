"""Opening books: the positions a book holds, what a build writes (checked
against fresh solves by a second algorithm), the same book whatever the
order, the workers or the route (export and import), and every bad input
as one line with exit status 2."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from support import reachable, run_cli

import zerosum
from zerosum.book.build import build_book
from zerosum.book.positions import enumerate_positions
from zerosum.book.workers import WorkerSetup
from zerosum.game import Game, ZerosumError
from zerosum.search.front import Searcher, SearchOptions
from zerosum.store import Store

FRESH = SearchOptions(use_store=False, use_book=False)


def _build(spec: str, plies: int, path: Path, **kwargs: Any) -> Any:
    game = zerosum.load(spec)
    with Store.open(path, label="book") as book:
        return build_book(game, plies, book, WorkerSetup(spec), **kwargs)


def _contents(path: Path) -> list[tuple[str, str, int, int, tuple[str, ...]]]:
    """A book's positions without what depends on the run (time, positions
    searched, which proof came first)."""
    with Store.open(path, readonly=True) as book:
        return sorted(
            (r.game.spec, r.key, r.lower, r.upper, tuple(sorted(r.moves))) for r in book.entries()
        )


# -- the positions ----------------------------------------------------------------------
def test_tictactoe_has_627_positions_to_play_in_765_classes() -> None:
    # Published: 765 essentially different positions (symmetry classes), 138
    # of them finished; a book holds the 627 others.
    tree = enumerate_positions(zerosum.load("tictactoe"), 9)
    assert len(tree) == 627
    assert tree.counts() == [1, 3, 12, 38, 108, 153, 183, 95, 34]


def test_positions_are_every_symmetry_class_at_its_first_ply() -> None:
    # Against a plain search of every reachable position.
    game = zerosum.load("connect4(width=4,height=4)")
    classes: dict[Any, int] = {}
    for state in reachable(game):
        if not game.is_terminal(state):
            ply = bin(state[1]).count("1")
            key = game.canonical(state)[0]
            classes[key] = min(ply, classes.get(key, ply))
    tree = enumerate_positions(game, 7)
    assert {tree.key[i]: tree.ply[i] for i in range(len(tree))} == {
        k: p for k, p in classes.items() if p <= 7
    }


@pytest.mark.parametrize("plies", [-1, 201, True])
def test_plies_out_of_range_are_refused(plies: Any) -> None:
    with pytest.raises(ZerosumError, match="plies must be a whole number from 0 to 200"):
        enumerate_positions(zerosum.load("tictactoe"), plies)


def test_too_many_positions_is_one_clear_error() -> None:
    with pytest.raises(ZerosumError, match="more than 100 positions; expected fewer plies"):
        enumerate_positions(zerosum.load("connect4"), 6, max_positions=100)


# -- what a build writes -------------------------------------------------------------------
def _agrees(game: Game[Any, Any], path: Path, options: SearchOptions) -> int:
    """Every entry of the book against a fresh strong solve; how many."""
    searcher = Searcher(game, options)
    tree = enumerate_positions(game, 9)
    checked = 0
    with Store.open(path, readonly=True) as book:
        for number in range(len(tree)):
            state = tree.state(number)
            entry = book.get(game, state)
            if entry is None:
                continue
            fresh = searcher.solve(state)
            assert (entry.lower, entry.upper) == (fresh.score.raw, fresh.score.raw), number
            assert set(entry.best_moves) == set(fresh.best_moves), number
            checked += 1
    return checked


def test_a_tictactoe_book_agrees_with_minimax_everywhere(tmp_path: Path) -> None:
    game = zerosum.load("tictactoe")
    report = _build("tictactoe", 9, tmp_path / "b.sqlite", jobs=0)
    assert report.total == report.done == 627 and not report.stopped
    minimax = SearchOptions(algorithm="minimax", use_store=False, use_book=False)
    assert _agrees(game, tmp_path / "b.sqlite", minimax) == 627


def test_a_connect4_4x4_book_agrees_with_fresh_solves(tmp_path: Path) -> None:
    game = zerosum.load("connect4(width=4,height=4)")
    report = _build("connect4(width=4,height=4)", 5, tmp_path / "b.sqlite", jobs=0)
    assert report.done == report.total == sum(enumerate_positions(game, 5).counts())
    assert report.solved == enumerate_positions(game, 5).counts()[5]  # the rest settled
    assert _agrees(game, tmp_path / "b.sqlite", FRESH) == report.total


def test_settling_from_children_equals_searching_every_position(tmp_path: Path) -> None:
    spec = "connect4(width=5,height=4)"
    _build(spec, 4, tmp_path / "settled.sqlite", jobs=0)
    report = _build(spec, 4, tmp_path / "searched.sqlite", jobs=0, derive=False)
    assert report.derived == 0 and report.solved == report.total
    assert _contents(tmp_path / "settled.sqlite") == _contents(tmp_path / "searched.sqlite")


def test_a_weak_book_keeps_outcomes_that_a_strong_one_refines(tmp_path: Path) -> None:
    spec = "connect4(width=4,height=4)"
    game = zerosum.load(spec)
    with Store.open(tmp_path / "b.sqlite", label="book") as book:
        weak = build_book(game, 4, book, WorkerSetup(spec, weak=True), jobs=0)
        outcomes = {r.key: (r.lower > 0) - (r.upper < 0) for r in book.entries(game)}
        # A draw is exact (and so is what is settled from exact children).
        exact = sum(r.lower == r.upper for r in book.entries(game))
        assert 0 < exact < weak.total == len(outcomes)
        strong = build_book(game, 4, book, WorkerSetup(spec), jobs=0)
        assert strong.skipped == exact and strong.done == weak.done  # outcomes are not enough
        for record in book.entries(game):
            assert record.lower == record.upper
            assert (record.lower > 0) - (record.lower < 0) == outcomes[record.key]
        again = build_book(game, 4, book, WorkerSetup(spec, weak=True), jobs=0)
        assert again.skipped == again.total  # exact values are more than enough


def test_two_workers_build_the_same_book_as_one(tmp_path: Path) -> None:
    spec = "connect4(width=5,height=4)"
    one = _build(spec, 5, tmp_path / "one.sqlite", jobs=1)
    two = _build(spec, 5, tmp_path / "two.sqlite", jobs=2)
    assert one.solved == two.solved > 0
    assert _contents(tmp_path / "one.sqlite") == _contents(tmp_path / "two.sqlite")


def test_a_second_run_finds_everything_done(tmp_path: Path) -> None:
    _build("tictactoe", 9, tmp_path / "b.sqlite", jobs=0)
    again = _build("tictactoe", 9, tmp_path / "b.sqlite", jobs=0)
    assert again.skipped == again.total == 627 and again.solved == again.derived == 0


# -- the command line ---------------------------------------------------------------------
def test_export_then_import_round_trips_exactly(tmp_path: Path) -> None:
    book, copy = tmp_path / "b.sqlite", tmp_path / "c.sqlite"
    _build("connect4(width=4,height=4)", 4, book, jobs=0)
    first = run_cli("book", "export", str(book), "-o", str(tmp_path / "b.jsonl"))
    assert first.returncode == 0, first.stderr
    done = run_cli("book", "import", str(tmp_path / "b.jsonl"), "--into", str(copy))
    assert done.returncode == 0, done.stderr
    again = run_cli("book", "export", str(copy))
    assert again.stdout == (tmp_path / "b.jsonl").read_text()
    with Store.open(book, readonly=True) as a, Store.open(copy, readonly=True) as b:
        assert list(a.entries()) == list(b.entries())  # nodes, times and sources too
    line = json.loads(again.stdout.splitlines()[1])
    assert line["game"] == "connect4(width=4,height=4)" and line["rules"] == 1
    assert line["ply"] == 1 and line["moves"] in ("1", "2")


def test_import_reports_each_bad_line_and_keeps_the_good_ones(tmp_path: Path) -> None:
    good = {"game": "tictactoe", "rules": 1, "moves": "4", "lower": 0, "upper": 0,
            "best": ["0", "2", "6", "8"], "nodes": 5}
    bad = [
        "not json",
        json.dumps({**good, "game": "chess"}),
        json.dumps({**good, "moves": "4 4"}),
        json.dumps({**good, "rules": 2}),
        json.dumps({**good, "lower": 5, "upper": 1}),
        json.dumps({**good, "best": ["4"]}),
        json.dumps({**good, "moves": "0 3 1 4 2"}),
        json.dumps({**good, "position": "x../.../..."}),
        json.dumps({k: v for k, v in good.items() if k != "moves"}),
    ]
    lines = [json.dumps(good), *bad, json.dumps({**good, "moves": "0", "best": ["4"]})]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    done = run_cli("book", "import", str(source), "--into", str(tmp_path / "b.sqlite"))
    assert done.returncode == 2
    errors = done.stderr.strip().splitlines()
    assert [e.split(":")[2].strip() for e in errors] == [
        f"line {n}" for n in range(2, 2 + len(bad))
    ]
    assert all(e.startswith("zerosum: error: line ") for e in errors)
    assert "Traceback" not in done.stderr
    with Store.open(tmp_path / "b.sqlite", readonly=True) as book:
        assert book.count() == 2


def test_verify_agrees_then_catches_a_tampered_entry(tmp_path: Path) -> None:
    book = tmp_path / "b.sqlite"
    _build("tictactoe", 9, book, jobs=0)
    fine = run_cli("book", "verify", str(book), "--sample", "1000", "--backend", "python")
    assert fine.returncode == 0, fine.stdout + fine.stderr
    assert "All 627 positions checked agree" in fine.stdout
    with sqlite3.connect(book) as db:  # the start is a draw; say it is a win in 5
        db.execute("UPDATE positions SET lower = 999995, upper = 999995 WHERE key = 'x0'")
    caught = run_cli("book", "verify", str(book), "--sample", "1000", "--backend", "python")
    assert caught.returncode == 1
    assert caught.stdout.count("MISMATCH") == 1
    assert "the book says win in 5 plies" in caught.stdout
    assert "the solver says draw" in caught.stdout


def test_build_info_and_a_resumed_build_on_the_command_line(tmp_path: Path) -> None:
    book = tmp_path / "b.sqlite"
    built = run_cli("book", "build", "tictactoe", "--plies", "9", "--jobs", "1", "--out", str(book))
    assert built.returncode == 0, built.stderr
    assert "627 of 627 positions are in the book" in built.stdout
    again = run_cli("book", "build", "tictactoe", "--plies", "9", "--jobs", "1", "--out", str(book))
    assert "627 there before" in again.stdout
    info = run_cli("book", "info", str(book), "--json")
    obj = json.loads(info.stdout)
    assert obj["games"][0]["positions"] == obj["games"][0]["exact"] == 627
    plies = [p["positions"] for p in obj["games"][0]["plies"]]
    assert plies == [1, 3, 12, 38, 108, 153, 183, 95, 34]
    assert obj["bytes"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["build", "chess", "--plies", "2"], "unknown game"),
        (["build", "tictactoe", "--plies", "-1"], "plies must be a whole number from 0 to 200"),
        (["build", "tictactoe", "--plies", "5000"], "plies must be a whole number from 0 to 200"),
        (["build", "connect4", "--plies", "9", "--max-positions", "1000"], "more than 1,000"),
        (["build", "tictactoe", "--plies", "2", "--jobs", "0"], "--jobs must be at least 1"),
        (["info", "nowhere.sqlite"], "no such file"),
        (["verify", "nowhere.sqlite", "--sample", "3"], "no such file"),
        (["import", "nowhere.jsonl"], "cannot read nowhere.jsonl"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = ["--out", str(tmp_path / "b.sqlite")] if args[0] == "build" else []
    done = run_cli("--lang", "en", "book", *args, *out)
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_book_of_another_game_or_a_damaged_file_is_left_as_it_was(tmp_path: Path) -> None:
    book = tmp_path / "ttt.sqlite"
    _build("tictactoe", 3, book, jobs=0)
    before = book.read_bytes()
    other = run_cli("book", "build", "connect4(width=4,height=4)", "--plies", "2", "--out",
                    str(book))
    assert other.returncode == 2
    assert "is a book of tictactoe (rules version 1), not of connect4(width=4,height=4)" in (
        other.stderr
    )
    assert _contents(book) and book.read_bytes() == before
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"this is not a book" * 100)
    lines = tmp_path / "one.jsonl"
    lines.write_text('{"game": "tictactoe", "moves": "4", "lower": 0, "upper": 0}\n')
    for args in (["build", "tictactoe", "--plies", "2", "--out", str(damaged)],
                 ["info", str(damaged)], ["export", str(damaged)],
                 ["verify", str(damaged), "--sample", "2"],
                 ["import", str(lines), "--into", str(damaged)]):
        done = run_cli("book", *args)
        assert done.returncode == 2, args
        assert str(damaged) in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert damaged.read_bytes() == b"this is not a book" * 100


def test_an_unwritable_book_path_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    done = run_cli("book", "build", "tictactoe", "--plies", "2", "--out",
                   str(blocker / "b.sqlite"))
    assert done.returncode == 2
    assert "cannot be created" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    export = run_cli("book", "export", str(tmp_path / "none.sqlite"), "-o",
                     str(blocker / "x.jsonl"))
    assert export.returncode == 2 and "no such file" in export.stderr


def test_a_built_book_is_found_and_read_only_by_solve(tmp_path: Path) -> None:
    # The default --out is the user's books folder beside the store; solve
    # then answers from it (and --no-book does not).
    store = tmp_path / "store.sqlite"
    env = {"ZEROSUM_STORE": str(store), "ZEROSUM_NO_BOOK": "0"}  # the suite turns books off
    built = run_cli("book", "build", "connect4(width=4,height=4)", "--plies", "3", "--jobs",
                    "1", env=env)
    assert built.returncode == 0, built.stderr
    path = tmp_path / "books" / "connect4-width4-height4.r1.sqlite"
    assert path.is_file() and str(path) in built.stdout
    from_book = run_cli("solve", "connect4(width=4,height=4)", "--moves", "1 2", "--json",
                        "--no-store", env=env)
    assert json.loads(from_book.stdout)["source"] == "book", from_book.stderr
    searched = run_cli("solve", "connect4(width=4,height=4)", "--moves", "1 2", "--json",
                       "--no-store", "--no-book", env=env)
    fresh, kept = json.loads(searched.stdout), json.loads(from_book.stdout)
    assert fresh["source"] == "search"
    assert (fresh["value"], fresh["best_moves"]) == (kept["value"], kept["best_moves"])


def test_a_book_in_the_package_is_found_read_only_and_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zerosum.book import shipped

    spec = "connect4(width=4,height=4)"
    game = zerosum.load(spec)
    folder = tmp_path / "shipped"
    folder.mkdir()
    path = folder / shipped.book_file_name(game)
    assert path.name == "connect4-width4-height4.r1.sqlite"
    _build(spec, 3, path, jobs=0)
    before = path.read_bytes()
    monkeypatch.setattr(shipped, "SHIPPED_DIR", folder)
    shipped.forget_opened()
    try:
        assert shipped.find_book_file(game) == path
        assert shipped.find_book_file(zerosum.load("connect4(width=5,height=4)")) is None
        state = game.play_text("1 2")
        kept = Searcher(game, SearchOptions(use_store=False)).solve(state)
        fresh = Searcher(game, FRESH).solve(state)
        assert (kept.source, fresh.source) == ("book", "search")
        assert kept.score == fresh.score and set(kept.best_moves) == set(fresh.best_moves)
        off = Searcher(game, SearchOptions(use_store=False, use_book=False)).solve(state)
        assert off.source == "search"
        book = shipped.open_book(game)
        assert book is not None and getattr(book, "readonly", False)
    finally:
        shipped.forget_opened()
    assert path.read_bytes() == before
