"""The front ends use the store: the command line (solve, analyze, play),
``zerosum engine`` and the browser session; every bad store file is one
warning line naming it, and the answer is still printed."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from support import run_cli
from web_support import open_session, wait_for

import zerosum
from zerosum.search.front import Searcher, SearchOptions
from zerosum.search.proven import default_store, set_default_store
from zerosum.store import Store

SOLVE = ("solve", "connect4(width=5,height=4)", "--moves", "3 3", "--json", "--backend", "python")


def _solve_json(*extra: str, env: dict[str, str] | None = None) -> tuple[dict[str, Any], str]:
    done = run_cli(*SOLVE, *extra, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def test_solve_twice_the_second_from_the_store(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    first, _ = _solve_json("--store", str(path))
    second, _ = _solve_json("--store", str(path))
    assert first["source"] == "search" and first["nodes"] > 0
    assert second["source"] == "store" and second["nodes"] == 0
    for key in ("value", "score", "exact", "best_moves", "best_move"):
        assert second[key] == first[key], key
    text = run_cli(*SOLVE[:-3], "--store", str(path))
    assert text.returncode == 0
    assert "Answered from the store: " in text.stdout
    # --no-store neither reads nor writes.
    third, _ = _solve_json("--store", str(path), "--no-store")
    assert third["source"] == "search"
    other = tmp_path / "never.sqlite"
    _solve_json("--store", str(other), "--no-store")
    assert not other.exists()


def test_the_environment_names_the_default_store(tmp_path: Path) -> None:
    path = tmp_path / "env.sqlite"
    env = {"ZEROSUM_STORE": str(path), "ZEROSUM_NO_STORE": ""}
    _solve_json(env=env)
    assert path.exists()
    again, _ = _solve_json(env=env)
    assert again["source"] == "store"
    # ZEROSUM_NO_STORE (set for the whole test suite) turns the default off.
    off, _ = _solve_json(env={"ZEROSUM_STORE": str(path), "ZEROSUM_NO_STORE": "1"})
    assert off["source"] == "search"
    game = zerosum.load("connect4(width=5,height=4)")
    with Store.open(path) as store:
        entry = store.get(game, game.play_text("3 3"))
    assert entry is not None and entry.exact and entry.source == "solve" and entry.nodes > 0


def test_analyze_writes_and_reads_the_store(tmp_path: Path) -> None:
    path = str(tmp_path / "a.sqlite")
    args = ("analyze", "tictactoe", "--moves", "0 4", "--json", "--store", path)
    # Progress lines come first; the analysis is the last line.
    first = json.loads(run_cli(*args).stdout.splitlines()[-1])
    second = json.loads(run_cli(*args).stdout.splitlines()[-1])
    assert (first["source"], second["source"]) == ("search", "store")
    assert {m["move"]: m["score"] for m in first["moves"]} == {
        m["move"]: m["score"] for m in second["moves"]
    }


def _bad_file_cases(tmp_path: Path) -> list[tuple[Path, str]]:
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database at all\n" * 200)
    folder = tmp_path / "folder.sqlite"
    folder.mkdir()
    newer = tmp_path / "newer.sqlite"
    Store.open(newer).close()
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(newer)) as raw, raw:
        raw.execute("PRAGMA user_version = 99")
    return [
        (text, "not a zerosum store or damaged"),
        (folder, "cannot be opened"),
        (newer, "newer zerosum"),
    ]


def test_a_bad_store_is_one_line_and_the_answer_is_printed(tmp_path: Path) -> None:
    truth, _ = _solve_json("--no-store")
    for path, problem in _bad_file_cases(tmp_path):
        result, errors = _solve_json("--store", str(path))
        assert result["score"] == truth["score"] and result["best_moves"] == truth["best_moves"]
        lines = errors.strip().splitlines()
        assert len(lines) == 1, errors
        assert lines[0].startswith("zerosum: warning: store ")
        assert str(path) in lines[0] and problem in lines[0] and "going on without it" in lines[0]


def test_play_uses_the_store(tmp_path: Path) -> None:
    path = str(tmp_path / "p.sqlite")
    game = zerosum.load("tictactoe")
    with Store.open(path) as store:
        Searcher(game, SearchOptions(store=store, use_book=False)).solve(game.play(["0", "4"]))
    done = run_cli(
        "play", "tictactoe", "--moves", "0 4", "--x", "ai", "--o", "random", "--seed", "1",
        "--level", "perfect", "--store", path,
    )
    assert done.returncode == 0, done.stderr
    assert "from the store: draw" in done.stdout


def test_the_engine_says_an_answer_came_from_the_store(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite"
    game = zerosum.load("tictactoe")
    with Store.open(path) as store:
        Searcher(game, SearchOptions(store=store, use_book=False)).solve(game.play(["0", "4"]))
    script = "ugi\nisready\nposition startpos moves 0 4\ngo\n"
    env = {"ZEROSUM_STORE": str(path), "ZEROSUM_NO_STORE": ""}
    on = run_cli("engine", "tictactoe", stdin=script, env=env)
    assert "info string from the store: draw" in on.stdout
    off = run_cli(
        "engine", "tictactoe", stdin="setoption name Store value false\n" + script, env=env
    )
    assert "info string" not in off.stdout and "bestmove" in off.stdout
    assert "option name Store type check default true" in on.stdout
    bad = run_cli(
        "engine", "tictactoe", stdin="setoption name Store value maybe\n", env=env
    )
    assert "info string error: Store must be true or false" in bad.stdout


def test_the_browser_session_reads_the_store_and_its_settings_turn_it_off(
    tmp_path: Path,
) -> None:
    game = zerosum.load("tictactoe")
    store = Store.open(tmp_path / "w.sqlite")
    Searcher(game, SearchOptions(store=store, use_book=False)).analyze(
        game.initial_state(), zerosum.Limits()
    )
    previous = set_default_store(store)
    humans = [{"kind": "human"}, {"kind": "human"}]

    async def scenario() -> None:
        session, sent = await open_session(game="tictactoe", players=humans)
        state = [m for m in sent if m["type"] == "state"][-1]
        assert (state["store"], state["book"]) == (True, True)
        await session.handle(json.dumps({"type": "analysis", "on": True}))
        kept = await wait_for(sent, lambda m: m["type"] == "analysis")
        assert kept["source"] == "store" and kept["nodes"] == 0
        await session.handle(json.dumps({"type": "analysis", "on": False}))
        await session.handle(json.dumps({"type": "settings", "store": False}))
        state = [m for m in sent if m["type"] == "state"][-1]
        assert state["store"] is False
        mark = len(sent)
        await session.handle(json.dumps({"type": "analysis", "on": True}))
        fresh = await wait_for(
            sent, lambda m: m["type"] == "analysis" and m is not kept and sent.index(m) >= mark
        )
        assert fresh["source"] == "search" and fresh["score"] == kept["score"]
        bad = len(sent)
        await session.handle(json.dumps({"type": "settings", "store": "yes"}))
        assert any(m["type"] == "error" for m in sent[bad:])
        await session.close()

    try:
        asyncio.run(scenario())
    finally:
        set_default_store(previous)
        store.close()
    assert default_store() is previous


def test_the_suite_runs_the_cli_without_the_users_store() -> None:
    code = "from zerosum.store import *; print(default_store_path(), store_off_by_default())"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert ".local/share" not in done.stdout and done.stdout.split()[-1] == "True"
