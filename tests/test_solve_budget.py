"""A solve whose output is not a terminal still says what it proved, and
``solve`` takes a budget like ``analyze`` (issue 26, item 3).

Ten heaps of a hundred Nim sticks: the nim-sum decides the outcome at once
(the side to move loses) but a strong solve of the distance never ends.
Every verdict here is on what the command printed, with budgets in
positions; the subprocesses' timeouts only guard against a hang.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

from support import run_cli

TEN_HEAPS = "nim(heaps=100-100-100-100-100-100-100-100-100-100)"
#: Seconds to wait for a line before failing rather than hanging.
HANG_GUARD = 300


def test_the_first_report_goes_out_to_a_pipe() -> None:
    """With stdout and stderr pipes (no terminal), the first line on
    stderr, flushed while the solve still runs, says the side to move
    loses: the nim-sum's answer."""
    environment = {**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": ""}
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "solve", TEN_HEAPS, "--backend", "python"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    lines: list[str] = []
    assert process.stderr is not None
    stream = process.stderr
    # The line is read in a thread; the join's timeout only guards the test
    # against hanging when the line never comes (as before the fix).
    reader = threading.Thread(target=lambda: lines.append(stream.readline()), daemon=True)
    reader.start()
    try:
        reader.join(HANG_GUARD)
        running = process.poll() is None
    finally:
        process.kill()
        process.communicate(timeout=60)
    assert lines, "nothing on stderr"
    assert running  # the line came while the strong solve still ran
    first = lines[0]
    assert first.startswith("value between loss in"), first
    assert "and loss in" in first, first


def test_a_node_budget_ends_with_what_was_proven() -> None:
    done = run_cli("solve", TEN_HEAPS, "--nodes", "3000", "--backend", "python")
    assert done.returncode == 0, done.stderr
    assert "first to move loses" in done.stdout, done.stdout
    assert "Not a full solve" in done.stdout, done.stdout
    assert "Traceback" not in done.stderr


def test_a_node_budget_in_json() -> None:
    done = run_cli("solve", TEN_HEAPS, "--nodes", "3000", "--json", "--backend", "python")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["type"] == "result" and result["solved"] is False
    assert result["value"] == -1 and result["exact"] is False
    assert result["lower"] <= result["upper"] < 0
    assert result["nodes"] >= 3000


def test_a_budget_that_suffices_gives_the_full_solve() -> None:
    done = run_cli("solve", "tictactoe", "--moves", "0 1 2", "--nodes", "100000", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["exact"] is True and result["plies"] == 6


def test_a_budget_in_batch_mode_is_an_answer_per_line() -> None:
    done = run_cli("solve", TEN_HEAPS, "--batch", "--nodes", "2000", stdin="\n\n")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 2 and all(line["solved"] is False for line in lines)


def test_bad_budgets_are_one_line_errors() -> None:
    for args in (("--nodes", "0"), ("--time", "-1"), ("--time", "nan")):
        done = run_cli("solve", "tictactoe", *args)
        assert done.returncode == 2, args
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    done = run_cli("solve", "tictactoe", "--algorithm", "minimax", "--time", "1")
    assert done.returncode == 2 and "takes no time limit" in done.stderr
