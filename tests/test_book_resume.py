"""A book build stopped in the middle -- killed with SIGKILL, or Ctrl+C --
and run again with the same command ends with the same book as a build run
in one go, having kept what was written before the stop.

The build is stopped at a known point whatever the machine's speed: the
test game (``tests/book_gate_game.py``) makes every task wait while the book
holds at least ``GATE`` positions, so the build stands still there, its
workers in the middle of their tasks, until the test stops it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from support import run_cli

from zerosum.store import Store

GATE_GAME = str(Path(__file__).resolve().parent / "book_gate_game.py")
SPEC = "gatedconnect4(width=4,height=4)"
PLIES = "6"
GATE = 40
#: Seconds to wait for the build to reach the gate (a bound, not a measure).
PATIENCE = 600.0


def _command(book: Path) -> list[str]:
    return ["--import", GATE_GAME, "book", "build", SPEC, "--plies", PLIES, "--jobs", "2",
            "--backend", "python", "--out", str(book)]


def _count(book: Path) -> int:
    if not book.exists():
        return 0
    with Store.open(book, readonly=True) as store:
        return store.count()


def _contents(book: Path) -> list[tuple[str, int, int, tuple[str, ...]]]:
    with Store.open(book, readonly=True) as store:
        return sorted((r.key, r.lower, r.upper, tuple(sorted(r.moves))) for r in store.entries())


def _gated_build(book: Path) -> subprocess.Popen[str]:
    """Start the build in its own process group; return once it stands still
    at the gate (the book's count unchanged for a second)."""
    env = {**os.environ, "ZEROSUM_TEST_GATE_BOOK": str(book), "ZEROSUM_TEST_GATE_AT": str(GATE)}
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", *_command(book)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + PATIENCE
    last = -1
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        count = _count(book)
        if count >= GATE and count == last:
            return process
        last = count
        time.sleep(1.0)
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError("the build never reached the gate")


def _one_go(tmp_path: Path) -> list[tuple[str, int, int, tuple[str, ...]]]:
    whole = tmp_path / "whole.sqlite"
    done = run_cli(*_command(whole))
    assert done.returncode == 0, done.stderr
    return _contents(whole)


def test_a_build_killed_and_run_again_equals_one_built_in_one_go(tmp_path: Path) -> None:
    book = tmp_path / "book.sqlite"
    process = _gated_build(book)
    os.killpg(process.pid, signal.SIGKILL)  # the leader and its workers at once
    process.wait()
    kept = _count(book)
    assert GATE <= kept < GATE + 3  # the gate, and what was in flight at it
    resumed = run_cli(*_command(book))
    assert resumed.returncode == 0, resumed.stderr
    assert f"{kept} there before" in resumed.stdout
    assert _contents(book) == _one_go(tmp_path)


def test_ctrl_c_stops_the_build_cleanly_and_it_goes_on_later(tmp_path: Path) -> None:
    book = tmp_path / "book.sqlite"
    process = _gated_build(book)
    process.send_signal(signal.SIGINT)  # the leader only, as the workers ignore it
    _out, err = process.communicate(timeout=PATIENCE)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "Stopped." in err and "Run the same command again" in err
    kept = _count(book)
    assert f"{kept:,} of 901 positions are in the book" in err
    resumed = run_cli(*_command(book))
    assert resumed.returncode == 0, resumed.stderr
    assert f"{kept} there before" in resumed.stdout
    assert _contents(book) == _one_go(tmp_path)
