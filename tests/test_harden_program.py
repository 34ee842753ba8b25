"""Issue 22.3: a match against a misbehaving ``cmd:`` program: every line
read is bounded, its output decoded leniently, every wait limited, a time
that cannot be waited refused at once, and the true reason recorded."""

from __future__ import annotations

import resource
import sys
from pathlib import Path
from typing import Any

import pytest

from zerosum.game import ZerosumError
from zerosum.play.agents import ProgramAgent
from zerosum.play.players import parse_player
from zerosum.play.runner import MatchSetup, play_games

ENGINE = """
import sys
mode = sys.argv[1]
out = sys.stdout.buffer
fen = ""
for line in sys.stdin.buffer:
    words = line.decode().split()
    if not words:
        continue
    if words[0] == "ugi":
        if mode == "flood":
            while True:  # never a newline
                out.write(b"x" * 65536); out.flush()
        if mode == "garbage":
            out.write(b"id name \\xff\\xfe\\xc3(\\n\\xff\\n")
        out.write(b"ugiok\\n"); out.flush()
    elif words[0] == "isready":
        out.write(b"readyok\\n"); out.flush()
    elif words[0] == "position":
        fen = words[2].replace("/", "")
    elif words[0] == "go":
        if mode == "hang":
            continue
        out.write(b"info \\xff\\xfe\\n" if mode == "garbage" else b"")
        out.write(f"bestmove {fen.index('.')}\\n".encode()); out.flush()
    elif words[0] == "quit":
        break
"""


def play(tmp_path: Path, mode: str, params: str, games: int = 2) -> list[dict[str, Any]]:
    script = tmp_path / "engine.py"
    script.write_text(ENGINE)
    program = f'cmd:"{sys.executable} {script} {mode}",{params}'
    setup = MatchSetup(game="tictactoe", players=(program, "random"), games=games)
    return list(play_games(setup))


def test_a_program_that_writes_without_a_newline_loses_with_that_reason(
    tmp_path: Path,
) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for record in play(tmp_path, "flood", "time=0.05"):
        assert record["reason"] == "failure" and record["score_a"] == 0.0
        assert f"longer than {ProgramAgent.MAX_LINE} bytes" in record["detail"]
    # The reader kept at most a line's bound (64 KiB) of the flood, not GBs.
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 200 * 1024


def test_invalid_utf8_from_a_program_is_only_a_line_not_understood(tmp_path: Path) -> None:
    for record in play(tmp_path, "garbage", "time=0.05"):
        assert record["reason"] == "end", record["detail"]


def test_a_hung_program_searching_to_a_depth_is_waited_a_bounded_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ProgramAgent, "UNTIMED", 0.2)
    monkeypatch.setattr(ProgramAgent, "GRACE", 0.2)
    for params in ("depth=3", "nodes=100"):
        for record in play(tmp_path, "hang", params, games=1):
            assert record["reason"] == "failure" and "no 'bestmove'" in record["detail"]


def test_a_time_that_cannot_be_waited_is_refused_at_once() -> None:
    for spec in ('cmd:"prog",time=1e308', "engine:time=1e10", "mcts:time=1e300"):
        with pytest.raises(ZerosumError, match="at most 86400"):
            parse_player(spec)
    assert parse_player('cmd:"prog",time=86400').get("time") == 86400


def test_a_long_time_control_does_not_make_an_honest_program_lose(tmp_path: Path) -> None:
    for record in play(tmp_path, "plays", "time=86400"):
        assert record["reason"] == "end", record["detail"]
