"""Every game works with every command: play, analyze, solve and perft."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest
from support import run_cli

# (spec, a short opening in the game's notation, a depth)
GAMES = [
    ("tictactoe", "0 4", 2),
    ("mnk(m=4,n=4,k=3)", "a1 b2", 2),
    ("connect4", "4453", 3),
    ("connect4(width=5,height=4)", "3 3", 2),
    ("domineering(rows=4,cols=4)", "a1 (2,0)", 2),
    ("othello(size=6)", "c2 b2", 2),
    ("othello", "f5 d6", 3),
    ("nim(heaps=2-3-4)", "1:1", 2),
    ("gomoku", "h8 h9", 1),
]


run = run_cli


def last_json(done: subprocess.CompletedProcess[str]) -> Any:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _domineering_4x4_after_a1_and_a3() -> int:
    """Vertical's tiles, then Horizontal's, on a 4x4 board after Vertical
    covered a1-a2 and Horizontal a3-b3: counted from a plain set of cells,
    independently of the game's bitboards."""
    covered = {(0, 0), (1, 0), (2, 0), (2, 1)}  # (row, col)
    cells = {(r, c) for r in range(4) for c in range(4)}

    def tiles(free: set[tuple[int, int]], dr: int, dc: int) -> list[tuple[tuple[int, int], ...]]:
        return [((r, c), (r + dr, c + dc)) for r, c in sorted(free) if (r + dr, c + dc) in free]

    free = cells - covered
    total = 0
    for tile in tiles(free, 1, 0):  # Vertical: a cell and the one below
        total += len(tiles(free - set(tile), 0, 1))  # Horizontal: and the one to the right
    return total


# (spec, opening, depth, the count of move sequences, derived independently of
# the library: published perft figures, or counted by hand / a separate model)
PERFT = [
    ("tictactoe", "", 4, 3024),  # 9*8*7*6: no game ends before ply 5 (published)
    ("tictactoe", "0 4", 2, 42),  # 7*6
    ("mnk(m=4,n=4,k=3)", "a1 b2", 2, 182),  # 14*13: no line of 3 within 4 plies
    ("connect4", "", 4, 2401),  # 7^4 (published perft of 7x6)
    ("connect4", "", 6, 117_649),  # 7^6 (published perft of 7x6)
    ("connect4", "4453", 3, 343),  # 7^3: no column fills, no four within 7 plies
    ("connect4(width=5,height=4)", "3 3", 2, 25),  # 5*5
    ("domineering(rows=4,cols=4)", "a1 (2,0)", 2, _domineering_4x4_after_a1_and_a3()),
    ("othello", "", 5, 1396),  # published Othello perft: 4, 12, 56, 244, 1396
    ("othello", "", 7, 55092),
    ("nim(heaps=2-3-4)", "1:1", 2, 47),  # heaps 1-3-4: sum over first moves of 8-k
    ("gomoku", "h8 h9", 1, 223),  # 225 cells less 2
]


@pytest.mark.parametrize(("spec", "opening", "depth", "expected"), PERFT)
def test_perft_command(spec: str, opening: str, depth: int, expected: int) -> None:
    args = ("perft", spec, str(depth), "--moves", opening, "--json")
    data = last_json(run(*args))
    assert data["nodes"] == expected
    assert data["type"] == "perft" and data["depth"] == depth
    split = last_json(run(*args, "--divide"))
    assert sum(split["divide"].values()) == expected


@pytest.mark.parametrize(("spec", "opening", "depth"), GAMES)
def test_analyze_command_under_a_time_limit(spec: str, opening: str, depth: int) -> None:
    data = last_json(run("analyze", spec, "--moves", opening, "--time", "0.5", "--json"))
    import zerosum

    game = zerosum.load(spec)
    state = game.play(game.split_moves(opening))
    legal = {game.format_move(m) for m in game.actions(state)}
    assert {m["move"] for m in data["moves"]} == legal
    assert data["best_move"] in legal
    scores = [m["score"] for m in data["moves"]]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize(
    ("spec", "moves", "value"),
    [
        ("connect4", "2252576253462244111563365343671351441", -1),  # Test_L3_R1, line 1
        ("domineering(rows=3,cols=3)", "", 1),
        ("othello(size=4)", "", -1),
        ("nim(heaps=1-2-3)", "", -1),
        ("nim(heaps=1-2-4)", "", 1),
        ("mnk(m=4,n=4,k=4)", "a1 b2 c3 d4 a2 a3 b1 c1", None),
    ],
)
def test_solve_command(spec: str, moves: str, value: int | None) -> None:
    data = last_json(run("solve", spec, "--moves", moves, "--json"))
    assert data["value"] in (-1, 0, 1) and data["exact"] is True
    if value is not None:
        assert data["value"] == value
    assert data["best_moves"] and data["best_move"] in data["best_moves"]
    ref = last_json(run("solve", spec, "--moves", moves, "--json", "--algorithm", "alphabeta"))
    assert ref["value"] == data["value"]


@pytest.mark.parametrize(
    ("spec", "stdin"),
    [
        ("connect4", "4\n4\n4\n4\n4\n4\n4\nquit\n"),
        ("othello(size=4)", "a1\nb1\nquit\n"),
        ("domineering(rows=3,cols=3)", "(0,1)\nb1\nquit\n"),
        ("nim(heaps=1-2)", "9:9\n2:2\n"),
        ("mnk(m=3,n=4,k=3)", "b2\nz9\nquit\n"),
    ],
)
def test_play_command_with_a_human(spec: str, stdin: str) -> None:
    done = run("play", spec, "--o", "ai", "--time", "0.2", stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert "Record of the moves:" in done.stdout and "1. " in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("spec", ["othello(size=4)", "domineering(rows=3,cols=4)", "nim"])
def test_ai_against_ai_finishes(spec: str) -> None:
    done = run("play", spec, "--x", "ai", "--o", "random", "--depth", "2", "--seed", "5")
    assert done.returncode == 0, done.stderr
    assert "Result:" in done.stdout
