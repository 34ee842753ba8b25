"""Small mismatches between the words and the facts (issue 20, item 8)."""

from __future__ import annotations

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
