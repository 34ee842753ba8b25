"""Issue 22.4: ``zerosum match`` options that gave tracebacks, cost without
bound, or silently did the wrong thing; and a seeded fuzz of match specs and
options run in this process (no traceback, exit 0 or 2, bounded memory)."""

from __future__ import annotations

import json
import random
import resource
from pathlib import Path
from typing import Any

import pytest

from zerosum.cli import main
from zerosum.games.tictactoe import TicTacToe
from zerosum.play.runner import opening


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    done = capsys.readouterr()
    return code, done.out, done.err


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert err.startswith("zerosum: error: ") and len(err.splitlines()) == 1, err
    for word in words:
        assert word in err, err


@pytest.mark.parametrize(
    ("option", "words"),
    [
        (("--jobs", "99999999999999999999"), ("--jobs", "256")),
        (("--jobs", "0"), ("--jobs",)),
        (("--sprt", "elo0=-1e308,elo1=1e308"), ("elo0", "2000")),
        (("--sprt", "elo0=0,elo1=1e6"), ("elo1", "2000")),
        (("--max-plies", "-1"), ("--max-plies", "at least 1")),
        (("--max-plies", "0"), ("--max-plies",)),
        (("--openings", "random:99999"), ("--openings", "1000")),
        (("--openings", "random:²"), ("--openings",)),
        (("--openings", "random:" + "9" * 5000), ("--openings",)),
    ],
)
def test_bad_match_options_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: tuple[str, ...],
    words: tuple[str, ...],
) -> None:
    code, _out, err = run(
        capsys, "match", "tictactoe", "random", "random", "--games", "2",
        "--record", str(tmp_path / "r.jsonl"), *option,
    )  # fmt: skip
    one_line_error(code, err, *words)


def test_a_failed_write_of_the_record_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    code, _out, err = run(
        capsys, "match", "tictactoe", "random", "random", "--games", "2",
        "--record", "/dev/full", "--force",
    )  # fmt: skip
    one_line_error(code, err, "/dev/full")


def test_an_existing_record_is_kept_unless_forced(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("precious\n")
    args = ("match", "tictactoe", "random", "random", "--games", "2", "--record", str(path))
    code, _out, err = run(capsys, *args)
    one_line_error(code, err, "exists", "--force")
    assert path.read_text() == "precious\n"
    code, _out, err = run(capsys, *args, "--force")
    assert code == 0, err
    assert json.loads(path.read_text().splitlines()[0])["type"] == "match"


class CountingTicTacToe(TicTacToe):
    """Tic-tac-toe that counts the moves played (``result`` calls)."""

    played = 0

    def result(self, state: Any, action: Any) -> Any:
        CountingTicTacToe.played += 1
        return super().result(state, action)


def test_a_long_opening_costs_about_the_games_length() -> None:
    game = CountingTicTacToe()
    moves = opening(game, 0, 0, 1000)
    # The longest opening that never ends tic-tac-toe has 8 moves; draws
    # cost at most 100 walks of at most 9 moves for each length from 9 down
    # (the old loop tried every length from 1000 down: about 900,000 moves).
    assert len(moves) <= 8 and not game.is_terminal(_play(game, moves))
    assert CountingTicTacToe.played <= 100 * 9 * 10
    # A short opening is what it was: the same seeded walk.
    assert len(opening(game, 0, 0, 3)) == 3


def _play(game: TicTacToe, moves: list[Any]) -> Any:
    state = game.initial_state()
    for move in moves:
        state = game.result(state, move)
    return state


PLAYERS = ["random", "minimax:depth=1", "alphabeta:depth=1", "engine:depth=1", "mcts:iterations=20",
           "random:x=1", "engine:depth=0", "engine:depth=-1", "engine:time=0",
           "engine:level=hard,depth=2", "mcts:c=-1", "cmd:", 'cmd:"', "alien", "", "engine:depth=²",
           "mcts:iterations=99999999999999999999999", "minimax:depth=1,depth=2", "engine:time=nan",
           "cmd:/nonexistent/program", "engine:level=perfect"]
OPTIONS: list[tuple[str, ...]] = [
    ("--games", "1"), ("--games", "2"), ("--games", "0"), ("--games", "-3"), ("--games", "x"),
    ("--jobs", "1"), ("--jobs", "0"), ("--jobs", "99999999999999999999"), ("--jobs", "²"),
    ("--seed", "7"), ("--seed", "-1"), ("--seed", "9" * 40),
    ("--openings", "random:2"), ("--openings", "random:1000"), ("--openings", "random:-1"),
    ("--openings", "random"), ("--openings", "walk:3"), ("--openings", "random:³"),
    ("--sprt", "elo0=0,elo1=30"), ("--sprt", "elo0=-1e308,elo1=1e308"), ("--sprt", "x"),
    ("--sprt", "elo0=0,elo1=30,alpha=0.6"), ("--sprt", "elo0=nan,elo1=1"), ("--sprt", ""),
    ("--max-plies", "3"), ("--max-plies", "-1"), ("--max-plies", "0"),
    ("--max-plies", "99999999999999999999"), ("--json",), ("--progress",), ("--force",),
]
GAMES = ["tictactoe", "nim(3,4)", "mnk(m=3,n=3,k=3)", "connect4(width=4,height=4)", "chess", "nim("]


def test_fuzzed_match_command_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The process's peak so far: the whole suite may have run in it before.
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rng = random.Random(22_4)
    for number in range(200):
        record = tmp_path / f"r{number}.jsonl"
        if rng.random() < 0.1:
            record.write_text("old\n")
        args = ["match", rng.choice(GAMES), rng.choice(PLAYERS), rng.choice(PLAYERS)]
        for option in rng.sample(OPTIONS, rng.randint(0, 4)):
            args.extend(option)
        if "--games" not in args:
            args.extend(["--games", "2"])
        args.extend(["--record", str(record)])
        try:
            code = main(args)
        except SystemExit as exit_:  # argparse's own refusal
            code = exit_.code  # type: ignore[assignment]
        _out, err = capsys.readouterr()
        assert code in (0, 2), (args, err)
        assert "Traceback" not in err, (args, err)
        if code == 2:
            assert len(err.strip().splitlines()) == 1, (args, err)
    # (The runaway cases of issue 22 reached 1.5 GB and more.)
    # Bounded memory: the fuzz raised the peak by less than 1 GB.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before < 1024 * 1024
