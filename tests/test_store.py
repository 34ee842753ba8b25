"""The store of proven results (zerosum.store): round trips, symmetry, the
merge rule, identities, bad files, and several processes at once."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import zlib
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

import zerosum
from zerosum.game import Game
from zerosum.search import solver
from zerosum.search.proven import Entry, merge, outcome_bounds
from zerosum.search.types import MAX_PLY, loss_in, win_in
from zerosum.store import (
    SCHEMA_VERSION,
    Store,
    StoreError,
    default_store_path,
    identity_of,
    open_store,
    position_key,
    user_data_dir,
)

WEAK_WIN = Entry.outcome_only(1, [2], nodes=5, solved_at=1.0)
EXACT_WIN = Entry.exact_value(win_in(7), [2, 3], nodes=9, solved_at=2.0)


def kinds() -> list[Entry]:
    """One entry of every kind a store keeps."""
    return [
        Entry.exact_value(win_in(7), [3], nodes=1234, solved_at=1.5, source="solve"),
        Entry.exact_value(loss_in(12), [0, 1, 2], nodes=7, solved_at=2.5, source="analyze"),
        Entry.exact_value(0, [2, 4], nodes=0, solved_at=3.0, source="book"),
        Entry.outcome_only(1, [3, 4], nodes=99, solved_at=4.0),
        Entry.outcome_only(-1, [0, 1, 2, 3, 4, 5, 6], nodes=5, solved_at=5.0),
        Entry(0, win_in(1), (3,), 11, 6.0, "solve"),  # at least a draw
        Entry(loss_in(1), 0, (2,), 12, 7.0, "solve"),  # at most a draw
        Entry.exact_value(0, [3], nodes=3, solved_at=8.0, source="book").with_ply(4),
    ]


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with Store.open(tmp_path / "store.sqlite") as opened:
        yield opened


def test_every_kind_of_entry_round_trips(store: Store) -> None:
    game = zerosum.load("connect4")
    positions = [
        game.play_text(m) for m in ("4", "44", "444", "4444", "43", "434", "4343", "4321")
    ]
    for state, entry in zip(positions, kinds(), strict=True):
        assert store.get(game, state) is None
        store.put(game, state, entry)
    for state, entry in zip(positions, kinds(), strict=True):
        assert store.get(game, state) == entry
    assert store.count(game) == len(positions) == store.count()
    assert store.games() == [identity_of(game)]
    assert sorted(r.ply or 0 for r in store.entries(game)) == [0] * 7 + [4]


def test_entries_iterates_records_of_the_representative(store: Store) -> None:
    game = zerosum.load("connect4")
    # "1" and "7" are one class: the second put merges into the first row.
    store.put(game, game.play_text("1"), Entry.exact_value(-3, [1], solved_at=1.0))
    store.put(game, game.play_text("7"), Entry.exact_value(-3, [5], solved_at=1.0))
    records = list(store.entries(game))
    assert len(records) == 1 == store.count(game)
    # The representative of {"1", "7"} is whichever has the smaller key; its
    # best move is column 1 or 5 accordingly, written in the game's notation.
    assert records[0].moves in (("2",), ("6",))
    assert list(store.entries(zerosum.load("tictactoe"))) == []


def test_mirrored_connect_four_positions_map_best_moves_back(store: Store) -> None:
    game = zerosum.load("connect4(width=5,height=4)")
    assert game.symmetry_count() == 2
    for moves in ("1", "12", "1223", "113", "2"):
        state = game.play_text(moves)
        mirror = game.transform(state, 1)
        assert state != mirror
        fresh = solver.solve(game, state)
        store.put(game, state, Entry.exact_value(fresh.score.raw, fresh.best_moves))
        got = store.get(game, mirror)
        truth = solver.solve(game, mirror)
        assert got is not None
        assert (got.lower, set(got.best_moves)) == (truth.score.raw, set(truth.best_moves))
        assert store.get(game, state) == Entry.exact_value(
            fresh.score.raw, fresh.best_moves, solved_at=got.solved_at
        )


def test_rotated_tictactoe_positions_map_best_moves_back(store: Store) -> None:
    game = zerosum.load("tictactoe")
    state = game.play(["0", "1"])  # corner and edge: no symmetry of its own
    fresh = solver.solve(game, state)
    store.put(game, state, Entry.exact_value(fresh.score.raw, fresh.best_moves))
    images = {game.transform(state, t) for t in range(game.symmetry_count())}
    assert len(images) == 8
    for image in images:
        got = store.get(game, image)
        truth = solver.solve(game, image)
        assert got is not None
        assert got.lower == truth.score.raw
        assert set(got.best_moves) == set(truth.best_moves)
    assert store.count(game) == 1


def test_merge_rule() -> None:
    win7 = Entry.exact_value(win_in(7), [1])
    win9 = Entry.exact_value(win_in(9), [2])
    weak = Entry.outcome_only(1, [1, 2])
    at_least_draw = Entry(0, win_in(1), (1,))
    win_within_9 = Entry(win_in(9), win_in(1), (1,))
    # Exact beats a bound, whichever comes first.
    assert merge(weak, win7) is win7 and merge(win7, weak) is win7
    # A first exact value stays (a second one would be a contradiction).
    assert merge(win7, win9) is win7
    # A tighter bound beats a looser one; never the other way round.
    assert merge(at_least_draw, weak) is weak and merge(weak, at_least_draw) is weak
    assert merge(weak, win_within_9) is win_within_9
    assert merge(win_within_9, weak) is win_within_9
    # Two bounds that each tell something are joined.
    joined = merge(Entry(0, win_in(20), (1,)), Entry(win_in(30), win_in(1), (2,)))
    assert (joined.lower, joined.upper, joined.best_moves) == (win_in(30), win_in(20), (2,))
    # Contradicting bounds keep the old one.
    loss = Entry.outcome_only(-1, [0])
    assert merge(weak, loss) is weak


def test_put_keeps_the_better_answer(store: Store) -> None:
    game = zerosum.load("tictactoe")
    state = game.play(["4"])
    store.put(game, state, Entry.exact_value(0, [0, 2, 6, 8], nodes=50, solved_at=1.0))
    store.put(game, state, Entry.outcome_only(0, [0, 1, 2, 3, 5, 6, 7, 8], solved_at=2.0))
    store.put(game, state, Entry(0, win_in(1), (0,), 3, 3.0, "solve"))
    got = store.get(game, state)
    assert got is not None and (got.nodes, got.solved_at) == (50, 1.0)
    assert set(got.best_moves) == {0, 2, 6, 8}
    other = game.play(["0"])
    store.put(game, other, Entry(0, win_in(1), (4,), 3, 3.0, "solve"))
    store.put(game, other, Entry.exact_value(0, [4], nodes=8, solved_at=4.0))
    got = store.get(game, other)
    assert got is not None and got.exact and got.nodes == 8


def test_put_many_is_one_transaction_and_counts_writes(store: Store) -> None:
    game = zerosum.load("nim")
    start = game.initial_state()
    items = [(game.result(start, m), Entry.outcome_only(1, [])) for m in game.actions(start)]
    assert store.put_many(game, items) == len(items)
    assert store.put_many(game, items) == 0  # nothing better to write
    assert store.count(game) == len(items)


def test_another_rules_version_or_parameters_is_never_used(store: Store) -> None:
    game = zerosum.load("connect4(width=5,height=4)")
    state = game.play_text("1")
    store.put(game, state, Entry.exact_value(0, [2]))

    class Changed(type(game)):  # type: ignore[misc]
        rules_version = 2

    changed = Changed(width=5, height=4)
    assert identity_of(changed).rules_version == 2
    assert store.get(changed, state) is None
    assert store.get(zerosum.load("connect4(width=5,height=5)"), state) is None
    assert store.get(game, state) is not None
    # Reported once, as one line, by a store that reports its problems; the
    # store goes on answering for the rules it holds.
    notes: list[str] = []
    with Store.open(store.path, on_error=notes.append) as reporting:
        assert reporting.get(changed, state) is None
        assert reporting.get(changed, state) is None
        assert reporting.get(game, state) is not None
    assert len(notes) == 1 and str(store.path) in notes[0]
    assert "rules version 1, not 2" in notes[0]
    assert identity_of(zerosum.load("connect4")) == identity_of(
        zerosum.load("connect4(width=7,height=6)")
    )


def test_outcome_bounds_cover_every_distance() -> None:
    low, high = outcome_bounds(1)
    assert low <= win_in(MAX_PLY) and high >= win_in(1)
    low, high = outcome_bounds(-1)
    assert low <= loss_in(1) and high >= loss_in(MAX_PLY) and high < 0
    assert outcome_bounds(0) == (0, 0)
    assert Entry.outcome_only(1, []).describe() == "win"
    assert Entry(0, win_in(1), ()).describe() == "at least a draw"


# -- where the store lives ----------------------------------------------------------------
def test_default_path_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEROSUM_STORE", "/somewhere/else.sqlite")
    assert default_store_path() == Path("/somewhere/else.sqlite")


def test_default_path_follows_xdg_without_platformdirs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import builtins
    import sys

    if sys.platform in ("win32", "darwin"):
        pytest.skip("the XDG rule is the fallback on other systems")
    real_import = builtins.__import__

    def no_platformdirs(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "platformdirs":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_platformdirs)
    monkeypatch.delenv("ZEROSUM_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_store_path() == tmp_path / "zerosum" / "store.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert user_data_dir() == tmp_path / ".local" / "share" / "zerosum"


def test_the_test_suite_never_uses_the_real_store() -> None:
    """conftest.py points ZEROSUM_STORE at a temporary file, and turns the
    front ends' default store off."""
    path = default_store_path()
    assert ".local/share" not in str(path)
    assert os.environ.get("ZEROSUM_STORE") and os.environ.get("ZEROSUM_NO_STORE") == "1"


def test_a_missing_store_is_created(tmp_path: Path) -> None:
    path = tmp_path / "new" / "folder" / "store.sqlite"
    with Store.open(path) as store:
        assert store.count() == 0
    assert path.exists()


# -- bad files: one line naming the file and what is wrong, then on without it -----------
def _game_state() -> tuple[Game[Any, Any], Any]:
    game = zerosum.load("tictactoe")
    return game, game.play(["4"])


def _bad(path: Path, expected: str, readonly: bool = False) -> None:
    with pytest.raises(StoreError) as raised:
        Store.open(path, readonly=readonly).get(*_game_state())
    message = str(raised.value)
    assert "\n" not in message and str(path) in message and expected in message
    warnings: list[str] = []
    opened = open_store(path, readonly=readonly, warn=warnings.append)
    game, state = _game_state()
    if opened is not None:
        assert opened.get(game, state) is None
        opened.put(game, state, Entry.exact_value(0, [0]))
        assert opened.get(game, state) is None
        opened.close()
    assert len(warnings) == 1, warnings
    assert str(path) in warnings[0] and expected in warnings[0] and "\n" not in warnings[0]


def test_missing_read_only_store(tmp_path: Path) -> None:
    _bad(tmp_path / "nothing.sqlite", "no such file", readonly=True)


def test_not_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "text.sqlite"
    path.write_text("these are my notes, not a database\n" * 100)
    _bad(path, "not a zerosum store or damaged")


def test_truncated_store(tmp_path: Path) -> None:
    path = tmp_path / "cut.sqlite"
    game = zerosum.load("connect4(width=5,height=4)")
    with Store.open(path) as store:
        states = [game.play_text(m) for m in ("1", "2", "3", "12", "13", "14", "23", "123")]
        store.put_many(game, [(s, Entry.exact_value(0, [2] * 200)) for s in states])
    # Closing the last connection moved the write-ahead log into the file.
    assert not Path(f"{path}-wal").exists()
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2 + 100])
    _bad(path, "damaged")


def test_a_foreign_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute("CREATE TABLE notes (text TEXT)")
    _bad(path, "not a zerosum store")


def test_a_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite"
    Store.open(path).close()
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    _bad(path, "newer zerosum")


def test_a_folder_in_the_way(tmp_path: Path) -> None:
    path = tmp_path / "folder.sqlite"
    path.mkdir()
    _bad(path, "cannot be opened")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_store(tmp_path: Path) -> None:
    path = tmp_path / "secret.sqlite"
    Store.open(path).close()
    path.chmod(0)
    try:
        _bad(path, "cannot be opened")
    finally:
        path.chmod(0o600)


def test_a_full_disk_keeps_reading(tmp_path: Path) -> None:
    path = tmp_path / "full.sqlite"
    game, state = _game_state()
    with Store.open(path) as store:
        store.put(game, state, Entry.exact_value(0, [0, 2, 6, 8]))
    warnings: list[str] = []
    store = Store.open(path, on_error=warnings.append, max_bytes=1)
    with store:
        many = [game.play([str(a), str(b)]) for a in range(9) for b in range(9) if a != b]
        store.put_many(game, [(s, Entry.exact_value(0, [0] * 300)) for s in many])
        store.put_many(game, [(s, Entry.exact_value(0, [1])) for s in many])
        # What was there is still read; the failed write is reported once.
        assert store.get(game, state) is not None
    assert len(warnings) == 1 and "disk is full" in warnings[0] and str(path) in warnings[0]
    with pytest.raises(StoreError, match="disk is full"), Store.open(path, max_bytes=1) as s:
        s.put_many(game, [(st, Entry.exact_value(0, [0] * 300)) for st in many])


def test_writing_a_read_only_store(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite"
    game, state = _game_state()
    Store.open(path).close()
    warnings: list[str] = []
    with Store.open(path, readonly=True, on_error=warnings.append) as store:
        store.put(game, state, Entry.exact_value(0, [0]))
        store.put(game, state, Entry.exact_value(0, [0]))
        assert store.get(game, state) is None
    assert len(warnings) == 1 and "read-only" in warnings[0]


# -- several processes ----------------------------------------------------------------------
def _positions() -> list[Any]:
    """Every Connect Four 5x4 position of up to 4 plies, in a fixed order."""
    game = zerosum.load("connect4(width=5,height=4)")
    layer = [game.initial_state()]
    found = []
    for _ in range(4):
        layer = [game.result(s, m) for s in layer for m in game.actions(s)]
        found.extend(layer)
    return found


def _value(key: str) -> int:
    """A made-up exact value per class, the same in every process."""
    return zlib.crc32(key.encode()) % 1000 - 500


def _writer(path: str, first: int, last: int) -> None:
    game = zerosum.load("connect4(width=5,height=4)")
    states = _positions()[first:last]
    with Store.open(path) as store:
        for index, state in enumerate(states):
            value = _value(position_key(game, state)[0])
            entry = Entry.exact_value(value, [], nodes=index)
            if index % 2:
                store.put(game, state, entry)
            else:
                store.put_many(game, [(state, entry)])


def test_two_processes_write_one_store(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    states = _positions()
    half = len(states) // 2
    context = multiprocessing.get_context("spawn")
    # Overlapping ranges: both write the middle third.
    ranges = [(0, half + half // 3), (half - half // 3, len(states))]
    workers = [context.Process(target=_writer, args=(str(path), a, b)) for a, b in ranges]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(300)
        assert worker.exitcode == 0
    with closing(sqlite3.connect(path)) as raw, raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    game = zerosum.load("connect4(width=5,height=4)")
    classes = {position_key(game, s)[0] for s in states}
    with Store.open(path) as store:
        assert store.count(game) == len(classes) > 100
        for state in states:
            got = store.get(game, state)
            assert got is not None and got.lower == _value(position_key(game, state)[0])


# -- opening books: a read-only store found through the book finder ------------------------
def test_a_book_answers_first_and_says_so(tmp_path: Path) -> None:
    from zerosum.search.front import Searcher, SearchOptions
    from zerosum.search.proven import (
        find_book,
        register_book_finder,
        set_books_enabled,
        unregister_book_finder,
    )

    game = zerosum.load("connect4(width=5,height=4)")
    state = game.play_text("3")
    truth = solver.solve(game, state)
    path = tmp_path / "book.sqlite"
    with Store.open(path) as writing:
        kept = Entry.exact_value(truth.score.raw, truth.best_moves, source="book")
        writing.put(game, state, kept)
    book = Store.open(path, readonly=True, label="book")

    def finder(asked: Game[Any, Any]) -> Store | None:
        return book if asked.spec() == game.spec() else None

    register_book_finder(finder)
    try:
        assert find_book(game) is book and find_book(zerosum.load("tictactoe")) is None
        with Store.open(tmp_path / "store.sqlite") as store:
            answer = Searcher(game, SearchOptions(store=store)).solve(state)
            assert answer.source == "book" and answer.stats.nodes == 0
            assert (answer.score.raw, set(answer.best_moves)) == (
                truth.score.raw,
                set(truth.best_moves),
            )
            assert store.count() == 0  # a book's answer is not copied into the store
            off = Searcher(game, SearchOptions(store=store, use_book=False)).solve(state)
            assert off.source == "search"
            set_books_enabled(False)
            assert find_book(game) is None
    finally:
        set_books_enabled(True)
        unregister_book_finder(finder)
        book.close()
    assert find_book(game) is None


def test_an_interrupted_solve_keeps_its_bounds_without_moves(tmp_path: Path) -> None:
    from zerosum.search.front import Searcher, SearchOptions
    from zerosum.search.solver import SolveInterrupted
    from zerosum.search.types import Progress

    game = zerosum.load("connect4(width=5,height=4)")
    state = game.initial_state()
    truth = Searcher(game, SearchOptions(use_store=False, use_book=False)).solve(state)
    with Store.open(tmp_path / "s.sqlite") as store:
        searcher = Searcher(game, SearchOptions(store=store, use_book=False, backend="python"))
        reports: list[Progress[Any]] = []

        def stop_after_two(progress: Progress[Any]) -> None:
            # Stopped from inside the search, after its second probe: the
            # same point on every machine.
            reports.append(progress)
            if len(reports) == 2:
                searcher.stop()

        with pytest.raises(SolveInterrupted) as raised:
            searcher.solve(state, on_progress=stop_after_two)
        stopped = raised.value
        kept = store.get(game, state)
        informative = stopped.lower > loss_in(1) or stopped.upper < win_in(1)
        # Two probes around the draw have proven a bound ("at most a draw").
        assert informative and kept is not None
        assert (kept.lower, kept.upper, kept.best_moves) == (stopped.lower, stopped.upper, ())
        assert kept.lower <= truth.score.raw <= kept.upper
        # A finished solve then replaces the bounds with the exact value.
        again = Searcher(game, SearchOptions(store=store, use_book=False)).solve(state)
        assert again.source == "search" and again.score.raw == truth.score.raw
        final = store.get(game, state)
        assert final is not None and final.exact
        assert set(final.best_moves) == set(truth.best_moves)


def test_bounds_without_moves_keep_the_moves_of_the_outcome() -> None:
    weak = Entry.outcome_only(1, [1, 2])
    assert merge(weak, Entry(0, win_in(1), ())) is weak
    assert merge(Entry(0, win_in(1), ()), weak) is weak
    tighter = merge(weak, Entry(win_in(20), win_in(1), ()))
    assert (tighter.lower, tighter.upper, tighter.best_moves) == (win_in(20), win_in(1), (1, 2))
