"""Small mismatches between the words and the facts (issue 20, item 8)."""

from __future__ import annotations

import json
from pathlib import Path

from support import run_cli

from zerosum.play.elo import score_from_elo, sweep_margin


def test_a_match_lost_every_game_says_how_much_weaker_not_minus_infinity(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    done = run_cli(
        "match", "nim", "random", "engine:level=perfect", "--games", "12", "--record", str(record)
    )
    assert done.returncode == 0, done.stderr
    assert "inf" not in done.stdout
    margin = f"{sweep_margin(12):,.0f}"
    assert f"A lost every game: at least {margin} Elo weaker, with 95% confidence" in done.stdout


def test_the_sweep_margin_is_the_score_a_sweep_rules_out() -> None:
    """At the margin, a player losing each game with probability 1 - p
    loses all n with probability 5%."""
    for games in (5, 12, 100):
        p = score_from_elo(-sweep_margin(games))
        assert abs((1 - p) ** games - 0.05) < 1e-9
    assert sweep_margin(4) <= 0 < sweep_margin(5)


def test_solve_with_a_depth_does_not_say_solved_for_a_heuristic_score() -> None:
    done = run_cli("solve", "tictactoe", "--depth", "1", "--no-store")
    assert done.returncode == 0, done.stderr
    assert "Optimal moves" not in done.stdout and "Solved by" not in done.stdout
    assert "Best moves at depth 1 (a heuristic score, not a solution): 0 1 2" in done.stdout
    assert "to depth 1; not solved." in done.stdout


def test_mcts_solve_says_it_lists_the_moves_it_proved() -> None:
    done = run_cli("solve", "tictactoe", "--algorithm", "mcts", "--seed", "1", "--no-store")
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if "Optimal moves" in line)
    assert line.startswith("Optimal moves that Monte Carlo tree search proved")


def test_solve_takes_a_seed_that_reproduces_mcts() -> None:
    """The Python backend's tree search is deterministic given its seed."""
    args = ("solve", "tictactoe", "--algorithm", "mcts", "--no-store", "--json")
    runs = [run_cli(*args, "--backend", "python", "--seed", "1") for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), runs[0].stderr
    first, again = (json.loads(run.stdout) for run in runs)
    assert (first["pv"], first["nodes"]) == (again["pv"], again["nodes"])


def test_position_counts_have_thousands_separators() -> None:
    done = run_cli("solve", "tictactoe", "--no-store", "--no-book")
    stats = next(line for line in done.stdout.splitlines() if line.startswith("Positions"))
    nodes = stats.split(":")[1].split(",  ")[0].split(", leaves")[0].strip()
    assert "," in nodes and nodes.replace(",", "").isdigit(), stats
    perft = run_cli("perft", "connect4", "5")
    assert "perft(5) = 16,807" in perft.stdout


def test_chinese_replay_translates_how_the_game_ended(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    done = run_cli(
        "match", "tictactoe", "random", "engine:depth=1", "--games", "1", "--record", str(record)
    )
    assert done.returncode == 0, done.stderr
    shown = run_cli("--lang", "zh", "replay", str(record), "--game", "1")
    result = next(line for line in shown.stdout.splitlines() if line.startswith("结果"))
    assert "（终局）" in result and "end" not in result
