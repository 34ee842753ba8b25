"""Ctrl+C: one rule for play, solve, analyze and match (issue 20, item 6):
stop at once, print what was finished (for a match, the table of the games
played so far), exit with status 130.

Each command runs as a real process; SIGINT is sent once its output shows
it is under way (never after a number of seconds); the wait afterwards is a
hang guard, not a verdict."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from support import HANG_GUARD


def _interrupt(args: list[str], wait_for: str, stream: str = "stderr") -> tuple[int, str, str]:
    """Run ``zerosum ARGS``, send SIGINT once ``stream`` shows ``wait_for``;
    the exit status, stdout and stderr."""
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "--lang", "en", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "LANGUAGE": "en"},
    )
    watched = process.stderr if stream == "stderr" else process.stdout
    assert watched is not None
    seen = b""
    while wait_for.encode() not in seen:
        chunk = os.read(watched.fileno(), 4096)
        assert chunk, seen.decode(errors="replace")
        seen += chunk
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=HANG_GUARD)
    if stream == "stderr":
        err = seen + err
    else:
        out = seen + out
    return process.returncode, out.decode(), err.decode()


def test_analyze_prints_what_it_found_and_exits_130() -> None:
    args = ["analyze", "connect4", "--backend", "python", "--time", "120", "--no-store"]
    code, out, err = _interrupt([*args, "--progress"], "depth 3:", stream="stdout")
    assert code == 130, err
    assert "Traceback" not in err
    assert "Stopped after" in err and "the analysis below is what it had found" in err
    assert "Analysis by the engine" in out and "principal variation" in out


def test_analyze_json_prints_its_object_and_exits_130() -> None:
    args = ["analyze", "connect4", "--backend", "python", "--time", "120", "--no-store"]
    code, out, err = _interrupt([*args, "--json", "--progress"], '"depth": 3,', stream="stdout")
    assert code == 130, err
    last = json.loads(out.strip().splitlines()[-1])
    assert last["type"] == "analysis" and last["moves"]


def test_solve_prints_what_is_proven_and_exits_130() -> None:
    args = ["solve", "connect4", "--backend", "python", "--no-store", "--progress"]
    code, _out, err = _interrupt(args, "value between")
    assert code == 130, err
    last = err.replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith("Stopped after"), err


def test_play_prints_the_record_and_exits_130() -> None:
    args = ["play", "connect4", "--x", "ai", "--o", "ai", "--time", "30", "--backend", "python"]
    code, out, err = _interrupt(args, "Red plays", stream="stdout")
    assert code == 130, err
    assert "Interrupted; the game was not finished." in out
    assert "Record of the moves:" in out and "1. Red " in out


def test_match_prints_the_table_so_far_and_exits_130(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    args = [
        "match", "nim", "random", "engine:depth=1", "--games", "100000",
        "--record", str(record), "--progress",
    ]  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "--lang", "en", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "LANGUAGE": "en"},
    )
    deadline = time.monotonic() + HANG_GUARD
    while not record.exists() or record.read_text().count("\n") < 4:  # header + 3 games
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "Interrupted after" in err and "of 100000 games" in err
    total = next(line for line in out.splitlines() if line.strip().startswith("total"))
    played = int(total.split()[1])
    assert played >= 3
    assert record.read_text().count("\n") >= played + 1  # every game in the table is recorded
    assert f"{played} games in" in out
