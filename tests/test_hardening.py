"""Bad input from a hostile user, at the command line and in the library:
every case is answered in one clear line (exit status 2 at the command
line), never a traceback, never silently accepted (issue 13, items 1-6)."""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import zerosum
from zerosum.cli import main
from zerosum.game import MAX_MOVE_TEXT, MoveError, PositionError, ZerosumError, whole_number
from zerosum.registry import register_alias
from zerosum.search import reference
from zerosum.search.tt import TranspositionTable
from zerosum.search.types import Limits

ROOT = Path(__file__).resolve().parents[1]
#: The longest error line we accept (the issue asks for "about 200"; an Othello
#: position error quoting the 8x8 start as its example is 229).
LONGEST = 240


def cli(
    capsys: pytest.CaptureFixture[str], *args: str, stdin: bytes = b""
) -> tuple[int, str, str]:
    """Run the command line in this process, English, with ``stdin`` as
    UTF-8 bytes; the exit status, stdout and stderr."""
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        code = main(["--lang", "en", *args])
    finally:
        sys.stdin = saved
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("zerosum: error: "), err
    assert "Traceback" not in err
    assert len(lines[0]) <= LONGEST, lines[0]
    return lines[0]


# -- item 1: digits that str.isdigit() accepts and int() does not ----------------------
@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("analyze", "connect4", "--moves", "²", "--depth", "1"), "cannot read move '²'"),
        (("analyze", "connect4", "--moves", "₃", "--depth", "1"), "cannot read move '₃'"),
        (("analyze", "connect4", "--moves", "①", "--depth", "1"), "cannot read move '①'"),
        (("solve", "nim", "--moves", "1:²"), "cannot read move '1:²'"),
        (("solve", "nim", "--moves", "²:1"), "cannot read move '²:1'"),
        (("analyze", "gomoku", "--moves", "a²", "--depth", "1"), "cannot read move 'a²'"),
        (("solve", "nim", "--position", "²-4-5 first"), "cannot read position"),
        (("solve", "connect4", "--position", "4²"), "cannot read position"),
        (("analyze", "domineering", "--moves", "b²", "--depth", "1"), "cannot read move 'b²'"),
        (("analyze", "domineering", "--moves", "(0,١)", "--depth", "1"), "cannot read move"),
        (("analyze", "othello", "--moves", "d³", "--depth", "1"), "cannot read move 'd³'"),
    ],
)
def test_unicode_digits_are_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], needle: str
) -> None:
    code, _out, err = cli(capsys, *args)
    assert code == 2
    assert needle in one_error_line(err)


def test_a_bad_batch_line_does_not_end_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(
        capsys, "analyze", "connect4", "--batch", "--depth", "2", stdin="4\n²\n4\n".encode()
    )
    assert code == 2
    kinds = [line.split('"type": "')[1].split('"')[0] for line in out.splitlines()]
    assert kinds == ["analysis", "error", "analysis"]
    assert "line 2: cannot read move '²'" in err


def test_whole_number_reads_ascii_digits_only() -> None:
    assert whole_number("7") == 7
    for text in ("²", "₃", "①", "٧", "١٨٩٠٥", "1_0", "-1", "", " ", "7a"):
        assert whole_number(text) is None, text


# -- item 2: invalid UTF-8 on standard input --------------------------------------------
def test_invalid_utf8_in_batch_is_an_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "solve", "tictactoe", "--batch", stdin=b"0 4\n\xff\n4\n")
    assert code == 2
    lines = out.splitlines()
    assert len(lines) == 3
    assert '"type": "error"' in lines[1] and '"line": 2' in lines[1]
    assert '"type": "result"' in lines[2]
    assert "line 2: the line is not valid text" in err and "Traceback" not in err


def test_invalid_utf8_in_play_is_an_unreadable_move() -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "zerosum", "--lang", "en", "play", "tictactoe", "--o", "human"],
        input=b"4\n\xff\n0\nquit\n",
        capture_output=True,
        env={**__import__("os").environ, "PYTHONIOENCODING": "utf-8"},
        timeout=60,
    )
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert "cannot read move" in out
    assert "1. X 4  2. O 0" in out


# -- item 3: games deeper than Python's recursion ------------------------------------
LONG_NIM = "nim(heaps=100-100-100-100-100-100-100-100-100-100)"


@pytest.mark.parametrize("algorithm", ["alphabeta", "minimax"])
def test_a_game_too_long_to_recurse_is_one_line(
    capsys: pytest.CaptureFixture[str], algorithm: str
) -> None:
    """The reference algorithms recurse: they say in one line they cannot."""
    code, _out, err = cli(capsys, "solve", LONG_NIM, "--algorithm", algorithm)
    assert code == 2
    assert "too long" in one_error_line(err)


def test_the_engine_solves_games_deeper_than_the_default_recursion(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The engine follows games up to MAX_PLY plies: the longest declared
    Countdown (1,000 counters, a multiple of 4: a loss) is solved, and the
    ten-heap Nim's weak solve is decided by the nim-sum bound."""
    code, out, err = cli(
        capsys, "--import", str(ROOT / "examples" / "countdown.py"), "solve",
        "countdown(pile=1000)", "--json",
    )
    assert code == 0, err
    assert json.loads(out.strip().splitlines()[-1])["value"] == -1
    code, out, err = cli(capsys, "solve", LONG_NIM, "--weak", "--json")
    assert code == 0, err
    assert json.loads(out.strip().splitlines()[-1])["value"] == -1


def _interrupt_when_started(args: list[str], wait_for: str) -> tuple[int, str, float]:
    """Run ``zerosum ARGS --progress``, press Ctrl+C once stderr shows
    ``wait_for`` (the search is running), and return the exit status, the
    stderr and the seconds from Ctrl+C to the end."""
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", *args, "--progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "LANGUAGE": "en"},
    )
    assert process.stderr is not None
    seen = b""
    while wait_for.encode() not in seen:
        chunk = os.read(process.stderr.fileno(), 4096)
        assert chunk, seen.decode(errors="replace")
        seen += chunk
    time.sleep(0.5)  # well inside the search
    pressed = time.perf_counter()
    process.send_signal(signal.SIGINT)
    _out, rest = process.communicate(timeout=60)
    return process.returncode, (seen + rest).decode(), time.perf_counter() - pressed


def test_ctrl_c_ends_a_hopeless_strong_solve_with_what_is_proven() -> None:
    """Ten heaps of 100: the outcome is the nim-sum's (a loss, shown before
    the first probe), the distance needs an astronomic search; Ctrl+C says
    in one line what was proven, and exits 130."""
    code, err, _seconds = _interrupt_when_started(["solve", LONG_NIM], "value between")
    assert code == 130
    last = err.replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith("Stopped after"), err
    assert "first to move loses" in last and "loss in 1000 plies" in last
    assert "--weak" in last and "Traceback" not in err


def test_ctrl_c_reaches_a_compiled_search() -> None:
    """The native kernel runs without Python between its probes; Ctrl+C
    still stops a weak Connect Four solve (minutes long) at once."""
    pytest.importorskip("numba")
    args = ["solve", "connect4", "--weak", "--backend", "native"]
    code, err, _seconds = _interrupt_when_started(args, "value between")
    # A weak solve from the start runs for minutes: its summary line and exit
    # status show the interrupt reached it (no verdict on how fast: item 13).
    assert code == 130
    last = err.replace("\r", "\n").strip().splitlines()[-1]
    assert re.match(r"Stopped after [0-9.]+ s and [0-9,]+ positions: Red to move", last), err


def test_reference_search_too_deep_raises_zerosum_error() -> None:
    game = zerosum.load(LONG_NIM)
    with pytest.raises(ZerosumError, match="too long"):
        reference.value(game, game.initial_state())
    with pytest.raises(ZerosumError, match="too long"):
        reference.solve(game, game.initial_state(), algorithm="minimax")


# -- item 4: the library's own errors ----------------------------------------------
def test_table_sizes_are_checked_against_memory() -> None:
    from zerosum.search.engine import EngineOptions

    for size in (2**63, 10**12):
        with pytest.raises(ZerosumError):
            TranspositionTable(size)
    with pytest.raises(ZerosumError):
        EngineOptions(tt_size=10**9)


@pytest.mark.parametrize(
    "spec", ["tictactoe", "connect4", "gomoku", "nim", "othello", "domineering"]
)
def test_non_strings_are_type_errors_with_a_message(spec: str) -> None:
    game: Any = zerosum.load(spec)  # Any: the calls below break the types on purpose
    state = game.initial_state()
    for junk in (4, None, b"4", ["4"]):
        with pytest.raises(TypeError, match="must be a string"):
            game.parse_move(state, junk)
        with pytest.raises(TypeError, match="must be a string"):
            game.parse_position(junk)
    with pytest.raises(TypeError):
        game.play_text(4)


def test_a_users_game_gets_the_same_checks() -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        importlib.import_module("countdown")  # registers countdown
    finally:
        sys.path.remove(str(ROOT / "examples"))
    game: Any = zerosum.load("countdown")
    with pytest.raises(TypeError):
        game.parse_move(game.initial_state(), 1)
    with pytest.raises(MoveError, match="characters long"):
        game.parse_move(game.initial_state(), "1" * 1000)


def test_junk_limits_are_a_type_error() -> None:
    from zerosum.search import front

    game = zerosum.load("tictactoe")
    with pytest.raises(TypeError):
        front.Searcher(game).analyze(game.initial_state(), "fast")  # type: ignore[arg-type]


def test_an_agent_with_junk_limits_is_a_type_error() -> None:
    from zerosum.play.agents import EngineAgent

    with pytest.raises(TypeError, match="Limits"):
        EngineAgent("fast")  # type: ignore[arg-type]


def test_aliases_and_specs_are_the_projects_errors() -> None:
    with pytest.raises(ZerosumError, match="unknown game 'nosuch'"):
        register_alias("x", "nosuch")
    with pytest.raises(ZerosumError, match="between"):
        register_alias("x", "connect4(width=99)")
    with pytest.raises(TypeError):
        zerosum.load(7)  # type: ignore[arg-type]
    with pytest.raises(ZerosumError):
        Limits(depth=-1)


# -- item 5: garbage accepted silently ----------------------------------------------
@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("solve", "tictactoe", "--moves", "(((("), "bracket"),
        (("solve", "tictactoe", "--moves", "5(0(6(7"), "bracket"),
        (("solve", "tictactoe", "--moves", "0 4)"), "bracket"),
        (("solve", "connect4(width=7,width=8)", "--depth", "1"), "given twice"),
        (("solve", "connect4(width=٧)", "--depth", "1"), "whole number"),
        (("solve", "connect4(width=1_0)", "--depth", "1"), "whole number"),
        (("serve", "--port", "١٨٩٠٥"), "port number"),
        (("serve", "--port", "²"), "port number"),
        (("analyze", "tictactoe", "--depth", "٣"), "whole number"),
        (("analyze", "tictactoe", "--time", "١"), "seconds"),
        (("solve", "tictactoe", "--hash", "١"), "megabytes"),
    ],
)
def test_garbage_is_refused(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], needle: str
) -> None:
    code, out, err = cli(capsys, *args)
    assert code == 2, out
    assert needle in one_error_line(err)


def test_split_moves_keeps_real_brackets() -> None:
    game = zerosum.load("domineering(rows=3,cols=3)")
    assert game.split_moves("(0,1), (2, 0) b1") == ["(0,1)", "(2, 0)", "b1"]
    with pytest.raises(MoveError):
        game.split_moves("(0,1")


# -- item 6: clear, short messages --------------------------------------------------
@pytest.mark.parametrize(
    ("args", "needle", "absent"),
    [
        (("analyze", "connect4", "--moves", "99", "--depth", "1"), "move 1 of '99'", ""),
        (("analyze", "gomoku", "--moves", "zz", "--depth", "1"), "225 moves in all", "o15 a15"),
        (("analyze", "gomoku", "--moves", "a" + "1" * 100_000), "characters long", "1" * 60),
        (("analyze", "tictactoe", "--moves", "x" * 100_000), "move 1 of", "x" * 60),
        (("analyze", "tictactoe(1)"), "tictactoe takes no parameters", "(-)"),
        (("analyze", "connect4", "--nodes", "1"), "before it finished depth 1", ""),
        (("analyze", "tictactoe", "--depth", "x"), "whole number", "invalid literal"),
        (("serve", "--port", "x"), "port number", "_port"),
        (("--import", "", "games"), "cannot import", "Empty module name"),
        (("solve", "nim(heaps=" + "9-" * 5000 + "9)"), "malformed game spec", "9-" * 40),
        (("solve", "domineering(rows=16,cols=16)", "--position", "x"), "cannot read position", ""),
    ],
)
def test_messages_are_short_and_say_what_is_wrong(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], needle: str, absent: str
) -> None:
    code, _out, err = cli(capsys, *args)
    assert code == 2
    line = one_error_line(err)
    assert needle in line
    if absent:
        assert absent not in line


def test_every_games_move_errors_are_short() -> None:
    for spec in ("gomoku", "othello", "domineering(rows=16,cols=16)", "nim", "connect4(9,9)"):
        game = zerosum.load(spec)
        state = game.initial_state()
        for text in ("", "zz", "?" * MAX_MOVE_TEXT, "?" * (MAX_MOVE_TEXT + 1), "(0,99)"):
            with pytest.raises(MoveError) as caught:
                game.parse_move(state, text)
            assert len(str(caught.value)) <= LONGEST, str(caught.value)
            assert "\n" not in str(caught.value)
        with pytest.raises(PositionError) as bad:
            game.parse_position("?" * 5000)
        assert len(str(bad.value)) <= LONGEST, str(bad.value)



def test_ci_fails_without_numba_where_a_developer_skips(tmp_path: Any) -> None:
    """Under ``CI=true`` a missing numba fails the run (as missing shared
    data or Chromium do) instead of skipping the native tests; elsewhere
    they are skipped. numba is hidden by a package of that name that cannot
    be imported."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    hidden = tmp_path / "numba"
    hidden.mkdir()
    (hidden / "__init__.py").write_text(
        "raise ModuleNotFoundError('numba is hidden by the test', name='numba')\n"
    )
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{root / 'src'}"}
    command = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
        str(root / "tests" / "test_native_borrow.py"),
    ]
    local = subprocess.run(
        command, env={**env, "CI": "false"}, capture_output=True, text=True, timeout=120
    )
    # (5: every test was skipped at collection, so none was collected)
    assert local.returncode in (0, 5), local.stdout + local.stderr
    assert "skipped" in local.stdout, local.stdout + local.stderr
    ci = subprocess.run(
        command, env={**env, "CI": "true"}, capture_output=True, text=True, timeout=120
    )
    assert ci.returncode != 0, ci.stdout + ci.stderr
    assert "CI=true but numba" in ci.stdout + ci.stderr
