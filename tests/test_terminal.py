"""The terminal as a newcomer meets it (issue 13, item 12): each turn is
announced once, scores say whose view they are and count plies in good
English, the AI shows what it is thinking, Ctrl+C keeps the record, and the
analysis says what its position counts mean."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from support import HANG_GUARD, run_cli

from zerosum.search.types import Score, loss_in, win_in


def test_each_human_turn_is_announced_once() -> None:
    done = run_cli("play", "tictactoe", "--x", "human", "--o", "ai", stdin="0\n1\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "to move" not in out  # no "X (human) to move" line besides the prompt
    # One prompt per human turn (two moves, then quit), naming the player once.
    assert out.count("X, your move (or hint, undo, help, quit):") == 3
    assert "(human) to move" not in out and "(AI) to move" not in out


def test_the_ais_score_says_whose_view_it_is() -> None:
    done = run_cli(
        "play", "tictactoe", "--x", "human", "--o", "ai", "--time", "1", stdin="0\nquit\n"
    )
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if "O plays" in line)
    assert "for O:" in line, line


def test_one_ply_is_singular() -> None:
    assert Score(win_in(1), exact=True).describe() == "win in 1 ply"
    assert Score(loss_in(1), exact=True).describe() == "loss in 1 ply"
    assert Score(win_in(3), exact=True).describe() == "win in 3 plies"
    done = run_cli("solve", "tictactoe", "--moves", "0 3 1 4")
    assert "ends in 1 ply with" in done.stdout and "1 plies" not in done.stdout
    done = run_cli("analyze", "tictactoe", "--moves", "0 3 1 4", "--algorithm", "alphabeta")
    assert "win in 1 ply " in done.stdout and "1 plies" not in done.stdout


def test_the_ai_shows_its_search_while_it_thinks() -> None:
    done = run_cli(
        "play", "connect4", "--o", "ai", "--time", "0.5", "--progress", stdin="4\nquit\n"
    )
    assert done.returncode == 0, done.stderr
    assert "Yellow (AI) is thinking: depth 1, best so far" in done.stdout
    # The live line is cleared before the move is announced.
    assert "\033[KYellow plays" in done.stdout


def test_othello_labels_columns_as_moves_are_typed() -> None:
    done = run_cli("play", "othello", "--x", "human", "--o", "human", stdin="C4\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "   a b c d e f g h" in done.stdout and "A B C" not in done.stdout
    assert "1. Black c4" in done.stdout  # typed in capitals, read all the same


def test_ctrl_c_prints_the_record_and_exits_130() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "--lang", "en", "play", "connect4",
         "--x", "ai", "--o", "ai", "--time", "0.3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    seen = ""
    while "Red plays" not in seen:  # a move made (no sleep: the load decides when)
        line = process.stdout.readline()
        assert line, seen
        seen += line
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=HANG_GUARD)
    out = seen + out
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "Interrupted; the game was not finished." in out
    assert "Record of the moves:" in out and "1. Red " in out


def test_analysis_says_what_its_position_counts_count() -> None:
    engine = run_cli("analyze", "connect4", "--depth", "4")
    assert "at the final depth; the total also counts earlier depths" in engine.stdout
    reference = run_cli("analyze", "tictactoe", "--moves", "0 4", "--algorithm", "alphabeta")
    assert "those its own search visited; the total adds the root" in reference.stdout


def test_a_shortened_line_says_so() -> None:
    done = run_cli("solve", "nim")
    line = next(line for line in done.stdout.splitlines() if line.startswith("Principal"))
    plies = int(done.stdout.split("ends in ")[1].split()[0])
    shown = len(line.split(":", 1)[1].split("(")[0].split())
    assert shown == plies or f"(the first {shown} of {plies} plies)" in line, line


def test_argparse_speaks_chinese_too() -> None:
    """Item 7: argparse's own words follow --lang (English stays English)."""
    shown = run_cli("--lang", "zh", "solve", "--help")
    assert shown.returncode == 0
    for chinese in ("用法：", "选项", "显示此帮助信息并退出"):
        assert chinese in shown.stdout
    for word in ("usage:", "options:", "show this help message and exit"):
        assert word not in shown.stdout
    bad = run_cli("--lang", "zh", "solve", "tictactoe", "--algorithm", "magic")
    assert bad.returncode == 2
    assert bad.stderr.startswith("zerosum：错误：") and "无效的选择" in bad.stderr
    assert "error:" not in bad.stderr and "invalid choice" not in bad.stderr
    english = run_cli("solve", "--help")
    assert "usage:" in english.stdout and "show this help message and exit" in english.stdout


def test_domineering_tiles_show_who_placed_them() -> None:
    done = run_cli(
        "play", "domineering(rows=3,cols=4)", "--o", "ai", "--depth", "2", stdin="a1\nquit\n"
    )
    assert done.returncode == 0, done.stderr
    # Vertical's a1 is drawn V V down column a; the AI's reply (b2) H H across.
    grid = [line for line in done.stdout.splitlines() if line[:3] in (" 1 ", " 2 ", " 3 ")]
    last = grid[-3:]
    assert last[0].startswith(" 1 V") and last[1].startswith(" 2 V")
    assert sum(row.count("H") for row in last) == 2 and "#" not in "".join(grid)
