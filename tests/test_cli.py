"""The real ``zerosum`` command, driven as a user drives it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support import run_cli

run = run_cli


def run_json(*args: str) -> Any:
    """The final JSON object a command printed (the engine's analysis streams
    progress objects before it)."""
    done = run(*args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_games_lists_every_game_with_defaults() -> None:
    done = run("games")
    assert done.returncode == 0
    assert "tictactoe" in done.stdout and "m=3, n=3, k=3" in done.stdout
    listed = {g["name"] for g in run_json("games", "--json")}
    assert {"tictactoe", "mnk", "gomoku"} <= listed


def test_play_human_against_ai_with_scripted_input() -> None:
    # The human (X) plays badly; the AI (O) must win, and the garbage and the
    # illegal move re-prompt with the legal moves.
    done = run("play", "tictactoe", "--x", "human", "--o", "ai", stdin="0\nfoo\n0\n1\n3\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "cannot read move 'foo'" in out and "already taken" in out
    assert "Result: O wins." in out
    assert "Record of the moves:" in out and "1. X 0  2. O 4" in out
    assert out.count("---+---+---") >= 8  # the board after every move


def test_play_ends_cleanly_on_quit_and_on_end_of_input() -> None:
    for stdin in ("4\nquit\n", "4\n"):
        done = run("play", "tictactoe", stdin=stdin)
        assert done.returncode == 0, done.stderr
        assert "quit" in done.stdout and "1. X 4" in done.stdout
        assert "Traceback" not in done.stderr


def test_ai_against_ai_is_a_draw_and_random_games_are_seeded() -> None:
    done = run("play", "tictactoe", "--x", "ai", "--o", "ai")
    assert done.returncode == 0 and "Result: draw." in done.stdout
    first = run("play", "tictactoe", "--x", "random", "--o", "random", "--seed", "7")
    again = run("play", "tictactoe", "--x", "random", "--o", "random", "--seed", "7")
    assert first.stdout == again.stdout
    shallow = run(
        "play", "tictactoe", "--x", "ai", "--o", "ai", "--algorithm", "minimax", "--depth", "3"
    )
    assert shallow.returncode == 0, shallow.stderr
    # The reference algorithm plays a whole game at its depth, silently.
    assert "Result:" in shallow.stdout and shallow.stderr == ""


def test_analyze_json_lists_every_move_best_first() -> None:
    data = run_json(
        "analyze", "tictactoe", "--moves", "0 4 1", "--algorithm", "alphabeta", "--json"
    )
    assert data["game"] == "tictactoe" and data["to_move"] == "O"
    assert data["position"] == "xx./.o./..."
    moves = data["moves"]
    assert moves[0]["move"] == "2" and len(moves) == 6
    assert moves[0]["value"] == 0 and moves[0]["exact"] is True and moves[0]["plies"] == 6
    assert all(m["value"] == -1 and m["plies"] == 2 for m in moves[1:])
    assert all(m["pv"][0] == m["move"] and m["nodes"] > 0 for m in moves)
    assert data["nodes"] == 1 + sum(m["nodes"] for m in moves)
    for key in ("value", "plies", "nodes", "time_s"):
        assert key in data


def test_analyze_depth_limited_is_heuristic() -> None:
    data = run_json("analyze", "tictactoe", "--depth", "2", "--algorithm", "alphabeta", "--json")
    assert all(m["exact"] is False and m["value"] is None for m in data["moves"])
    # Two plies hold at most one mark each: no line, no threat, all 0.
    assert [m["score"] for m in data["moves"]] == [0] * 9
    deeper = run_json(
        "analyze", "tictactoe", "--moves", "0 4", "--depth", "1", "--algorithm", "minimax", "--json"
    )
    assert deeper["moves"][0]["score"] == 50  # X makes a threat


def test_solve_json() -> None:
    data = run_json("solve", "tictactoe", "--json")
    assert data["value"] == 0 and data["plies"] == 9
    assert data["best_moves"] == [str(c) for c in range(9)]
    assert data["nodes"] > 0 and data["time_s"] >= 0
    win = run_json("solve", "tictactoe", "--moves", "0 3 1 4", "--json")
    assert win["value"] == 1 and win["plies"] == 1 and win["best_moves"] == ["2"]
    minimax = run_json("solve", "tictactoe", "--moves", "041", "--algorithm", "minimax", "--json")
    assert minimax["best_moves"] == ["2"]


def test_batch_mode_one_json_line_per_input_line() -> None:
    done = run("solve", "tictactoe", "--batch", stdin="0 4 1\n041\n4\n")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["best_moves"] for line in lines] == [["2"], ["2"], ["0", "2", "6", "8"]]
    bad = run("analyze", "tictactoe", "--batch", stdin="0 4 1\n00\n")
    assert bad.returncode == 2
    assert "line 2" in bad.stderr and "Traceback" not in bad.stderr
    answers = [json.loads(line) for line in bad.stdout.splitlines()]
    assert [a["type"] for a in answers] == ["analysis", "error"]
    assert answers[1]["line"] == 2 and answers[1]["moves"] == "00" and answers[1]["message"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("solve", "chess"), "unknown game"),
        (("solve", "mnk(q=3)"), "unknown parameter"),
        (("solve", "mnk(m=x)"), "whole number"),
        (("solve", "mnk(m=3"), "malformed game spec"),
        (("solve", "mnk(m=99)"), "between"),
        (("solve", "mnk(m=3,n=3,k=7)"), "k=7"),
        (("solve", "tictactoe", "--moves", "0 0"), "already taken"),
        (("solve", "tictactoe", "--moves", "zz"), "cannot read move"),
        (("solve", "tictactoe", "--moves", "0 3 1 4 2 5"), "game is over"),
        (("solve", "tictactoe", "--moves", "0 3 1 4 2"), "game is over"),
        (("analyze", "tictactoe", "--depth", "0"), "depth"),
        (("analyze", "tictactoe", "--depth", "-3"), "depth"),
        (("analyze", "tictactoe", "--depth", "two"), "whole number"),
        (("analyze", "tictactoe", "--multipv", "0"), "multipv"),
        (("analyze", "tictactoe", "--position", "xyz"), "cannot read position"),
        (("solve", "tictactoe", "--algorithm", "magic"), "invalid choice"),
        (("perft", "tictactoe", "-1"), "depth"),
        (("play", "tictactoe", "--x", "robot"), "invalid choice"),
        (("frobnicate",), "invalid choice"),
        (("--lang", "fr", "games"), "unknown language"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: tuple[str, ...], needle: str) -> None:
    done = run(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert needle in lines[0]
    assert lines[0].startswith("zerosum: error:")


def test_perft_json_and_divide() -> None:
    data = run_json("perft", "tictactoe", "4", "--json")
    assert data["nodes"] == 3024 and data["depth"] == 4
    split = run_json("perft", "tictactoe", "3", "--divide", "--json")
    assert sum(split["divide"].values()) == split["nodes"] == 504


def test_chinese_output() -> None:
    done = run("--lang", "zh", "solve", "tictactoe", "--moves", "041", "--algorithm", "alphabeta")
    assert done.returncode == 0
    assert "α-β剪枝" in done.stdout and "和棋" in done.stdout
    engine = run("--lang", "zh", "solve", "tictactoe", "--moves", "041")
    assert "求解器" in engine.stdout and "solver" not in engine.stdout
    by_locale = run(
        "analyze",
        "tictactoe",
        "--moves",
        "041",
        "--algorithm",
        "alphabeta",
        env={"LANG": "zh_CN.UTF-8"},
    )
    assert "α-β剪枝" in by_locale.stdout
    minimax = run(
        "--lang", "zh", "analyze", "tictactoe", "--moves", "041", "--algorithm", "minimax"
    )
    assert "极大极小搜索" in minimax.stdout
    data = run_json("--lang", "zh", "solve", "tictactoe", "--json")
    assert "best_moves" in data  # keys stay English
    played = run("--lang", "zh", "play", "tictactoe", stdin="4\nquit\n")
    assert "走棋" in played.stdout or "轮到" in played.stdout
    bad = run("--lang", "zh", "solve", "tictactoe", "--moves", "0 0")
    assert bad.returncode == 2 and "已" in bad.stderr


def test_engine_analysis_streams_progress_then_the_result() -> None:
    done = run("analyze", "tictactoe", "--moves", "0 4 1", "--json")
    assert done.returncode == 0, done.stderr
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    progress, final = objects[:-1], objects[-1]
    assert progress and all(p["type"] == "progress" for p in progress)
    depths = [p["depth"] for p in progress if p["depth"] is not None]
    assert depths == sorted(depths)
    for key in ("score", "best_move", "pv", "nodes", "nps", "time_s", "tt_hit_rate"):
        assert key in progress[0]
    assert final["moves"][0]["move"] == "2" and final["moves"][0]["exact"] is True
    reference_run = run_json(
        "analyze", "tictactoe", "--moves", "0 4 1", "--algorithm", "alphabeta", "--json"
    )
    assert [(m["move"], m["score"]) for m in final["moves"]] == [
        (m["move"], m["score"]) for m in reference_run["moves"]
    ]


def test_engine_progress_updates_in_place() -> None:
    done = run("analyze", "tictactoe", "--moves", "4", "--progress")
    assert done.returncode == 0, done.stderr
    # One rewrite of the line ("\r" + erase) per completed depth; text mode
    # reads "\r" as a line end, so count the erase sequences.
    assert done.stdout.count("\033[K") >= 3
    assert "positions/s" in done.stdout
    solved = run("solve", "tictactoe", "--moves", "4", "--progress")
    assert "value between" in solved.stderr and "\033[K" in solved.stderr


def test_engine_solve_matches_the_reference() -> None:
    lines = "\n".join(["", "4", "0", "0 4", "0 4 8", "0 1 4", "4 0 8", "1 4 7"]) + "\n"
    engine = run("solve", "tictactoe", "--batch", stdin=lines)
    ref = run("solve", "tictactoe", "--batch", "--algorithm", "alphabeta", stdin=lines)
    assert engine.returncode == 0 and ref.returncode == 0
    for ours, theirs in zip(engine.stdout.splitlines(), ref.stdout.splitlines(), strict=True):
        a, b = json.loads(ours), json.loads(theirs)
        assert (a["value"], a["plies"], a["best_moves"]) == (
            b["value"],
            b["plies"],
            b["best_moves"],
        )
    weak = run_json("solve", "tictactoe", "--moves", "0 1 4", "--weak", "--json")
    assert weak["value"] == -1 and weak["weak"] is True and weak["plies"] is None


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "perfect"])
def test_play_levels(level: str) -> None:
    done = run("play", "tictactoe", "--x", "ai", "--o", "random", "--level", level, "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "Result:" in done.stdout
    if level == "perfect":
        assert "O wins" not in done.stdout


def test_play_with_a_time_budget() -> None:
    done = run("play", "tictactoe", "--x", "ai", "--o", "ai", "--time", "0.2")
    assert done.returncode == 0 and "Result: draw." in done.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("analyze", "tictactoe", "--time", "0"), "time"),
        (("analyze", "tictactoe", "--time", "-2"), "time"),
        (("analyze", "tictactoe", "--time", "soon"), "seconds"),
        (("analyze", "tictactoe", "--time", "nan"), "time"),
        (("analyze", "tictactoe", "--nodes", "0"), "nodes"),
        (("analyze", "tictactoe", "--algorithm", "minimax", "--time", "1"), "no time limit"),
        (("solve", "tictactoe", "--algorithm", "minimax", "--weak"), "weak solve"),
        (("analyze", "tictactoe", "--hash", "0"), "above 0 megabytes"),
        (("analyze", "tictactoe", "--hash", "-5"), "above 0 megabytes"),
        (("solve", "tictactoe", "--hash", "1e12"), "does not fit"),
        (("solve", "tictactoe", "--hash", "lots"), "megabytes"),
        (("play", "tictactoe", "--level", "godlike"), "invalid choice"),
        (("play", "tictactoe", "--algorithm", "minimax", "--level", "easy"), "--level"),
    ],
)
def test_bad_engine_options(args: tuple[str, ...], needle: str) -> None:
    done = run(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], done.stderr


def test_solve_with_a_depth_limit() -> None:
    """--depth on solve: exact when the game ends within it, heuristic
    (value null) when it does not; the engine agrees with the reference."""
    for algorithm in ("alphabeta", "minimax", "engine"):
        near = run_json(
            "solve",
            "tictactoe",
            "--moves",
            "0 4 1",
            "--depth",
            "6",
            "--algorithm",
            algorithm,
            "--json",
        )
        assert near["value"] == 0 and near["exact"] is True and near["best_moves"] == ["2"]
        far = run_json("solve", "tictactoe", "--depth", "2", "--algorithm", algorithm, "--json")
        assert far["value"] is None and far["exact"] is False
    text = run("solve", "tictactoe", "--depth", "2")
    assert text.returncode == 0 and "(heuristic)" in text.stdout
    bad = run("solve", "tictactoe", "--depth", "3", "--weak")
    assert bad.returncode == 2 and "weak solve" in bad.stderr


@pytest.mark.parametrize("backend", ["python", "native"])
def test_symmetry_option_shares_table_entries(backend: str) -> None:
    plain = run_json("solve", "tictactoe", "--no-symmetry", "--backend", backend, "--json")
    symmetric = run_json("solve", "tictactoe", "--symmetry", "--backend", backend, "--json")
    assert symmetric["best_moves"] == plain["best_moves"] and symmetric["value"] == 0
    assert symmetric["nodes"] < plain["nodes"]
    default = run_json("solve", "tictactoe", "--backend", backend, "--json")
    # tic-tac-toe asks for a symmetric table unless told not to (both backends)
    assert default["nodes"] == symmetric["nodes"]
