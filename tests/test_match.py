"""The match runner, its statistics (Elo, interval, SPRT), player specs,
records and replay."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

from zerosum.game import ZerosumError
from zerosum.play.elo import SPRT, Tally, elo_from_score, score_from_elo
from zerosum.play.players import parse_player
from zerosum.play.runner import MatchSetup, play_games


# -- statistics ------------------------------------------------------------------------
def test_elo_from_a_score() -> None:
    # 75%: the stronger side scores 3 to 1, so 10**(d/400) = 3, d = 400*log10(3)
    assert elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert round(elo_from_score(0.75), 1) == 190.8
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.25) == pytest.approx(-190.8485, abs=1e-4)
    assert math.isinf(elo_from_score(1.0)) and math.isinf(elo_from_score(0.0))
    assert score_from_elo(elo_from_score(0.6)) == pytest.approx(0.6)


def independent_elo(p: float) -> float:
    """The logistic model solved the other way round: p / (1 - p) = 10**(d/400)."""
    return 400 * math.log(p / (1 - p)) / math.log(10)


def test_interval_against_an_independent_computation() -> None:
    tally = Tally(wins=30, draws=40, losses=30)
    # by hand: mean 0.5; per-game variance (30*0.25 + 40*0 + 30*0.25)/100 = 0.15
    assert tally.variance() == pytest.approx(0.15)
    standard_error = math.sqrt(0.15 / 100)
    low, high = tally.interval()
    assert low == pytest.approx(independent_elo(0.5 - 1.959964 * standard_error), abs=1e-3)
    assert high == pytest.approx(independent_elo(0.5 + 1.959964 * standard_error), abs=1e-3)
    assert high == pytest.approx(53.16, abs=0.01) and low == pytest.approx(-high)

    lopsided = Tally(wins=60, draws=10, losses=30)  # 65 of 100
    results = [1.0] * 60 + [0.5] * 10 + [0.0] * 30
    mean = sum(results) / 100
    variance = sum((x - mean) ** 2 for x in results) / 100
    margin = 1.959964 * math.sqrt(variance / 100)
    assert lopsided.elo() == pytest.approx(independent_elo(0.65))
    assert lopsided.interval() == pytest.approx(
        (independent_elo(mean - margin), independent_elo(mean + margin)), abs=1e-3
    )


def test_sprt_normal_llr_is_the_sum_of_per_game_normal_log_likelihood_ratios() -> None:
    sprt = SPRT(elo0=0, elo1=30)
    tally = Tally(wins=120, draws=50, losses=80)
    results = [1.0] * 120 + [0.5] * 50 + [0.0] * 80
    mean = sum(results) / len(results)
    variance = sum((x - mean) ** 2 for x in results) / len(results)
    s0 = 1 / (1 + 10 ** (0 / 400))
    s1 = 1 / (1 + 10 ** (-30 / 400))

    def log_density(x: float, mu: float) -> float:
        return -((x - mu) ** 2) / (2 * variance) - 0.5 * math.log(2 * math.pi * variance)

    expected = sum(log_density(x, s1) - log_density(x, s0) for x in results)
    assert sprt.llr_normal(tally) == pytest.approx(expected, rel=1e-9)
    lower, upper = sprt.bounds()
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(19))
    assert sprt.verdict(Tally(wins=400, draws=10, losses=200)) == "H1"
    assert sprt.verdict(Tally(wins=200, draws=10, losses=400)) == "H0"
    assert sprt.verdict(Tally(wins=5, draws=0, losses=4)) is None
    with pytest.raises(ZerosumError):
        SPRT.parse("elo0=30,elo1=0")
    with pytest.raises(ZerosumError):
        SPRT.parse("elo=3")
    assert SPRT.parse("elo0=0,elo1=30,alpha=0.1") == SPRT(0, 30, 0.1, 0.05)


def grid_max_log_likelihood(wins: int, draws: int, losses: int, score: float) -> float:
    """The trinomial log-likelihood maximised over a fine grid of draw
    rates, the expected score held at ``score`` (independent of the
    golden-section search in zerosum.play.elo)."""
    best = -math.inf
    top = min(2 * score, 2 * (1 - score))
    for i in range(200_001):
        d = top * i / 200_000
        w, lo = score - d / 2, 1 - score - d / 2
        terms = [(wins, w), (draws, d), (losses, lo)]
        if any(n and p <= 0 for n, p in terms):
            continue
        best = max(best, sum(n * math.log(p) for n, p in terms if n))
    return best


@pytest.mark.parametrize("counts", [(120, 50, 80), (30, 40, 30), (9, 0, 1), (7, 0, 0), (0, 3, 0)])
def test_sprt_llr_is_the_trinomial_generalised_likelihood_ratio(
    counts: tuple[int, int, int],
) -> None:
    sprt = SPRT(elo0=0, elo1=30)
    s0, s1 = 0.5, 1 / (1 + 10 ** (-30 / 400))
    expected = grid_max_log_likelihood(*counts, s1) - grid_max_log_likelihood(*counts, s0)
    assert sprt.llr(Tally(*counts)) == pytest.approx(expected, abs=1e-6)
    if counts[1:] == (0, 0):  # only wins: n * log(s1 / s0), by hand
        assert sprt.llr(Tally(*counts)) == pytest.approx(counts[0] * math.log(s1 / s0))


def test_sprt_decides_a_one_sided_match() -> None:
    """Every game won: the normal approximation cannot tell (no variance),
    the likelihood ratio can."""
    sprt = SPRT(elo0=0, elo1=100)
    wins = next(n for n in range(1, 100) if sprt.verdict(Tally(wins=n)) is not None)
    assert sprt.verdict(Tally(wins=wins)) == "H1"
    assert wins == math.ceil(math.log(19) / math.log(1 / (1 + 10 ** (-100 / 400)) / 0.5))


# -- player specs ------------------------------------------------------------------------
def test_player_specs() -> None:
    assert parse_player("engine:time=0.5").get("time") == 0.5
    assert parse_player("mcts:iterations=5000,c=0.7").describe() == "mcts:iterations=5000,c=0.7"
    assert parse_player("minimax:depth=3").get("depth") == 3
    assert parse_player("random").kind == "random"
    spec = parse_player('cmd:"python3 -m zerosum engine tictactoe",time=0.1')
    assert spec.command == ("python3", "-m", "zerosum", "engine", "tictactoe")
    assert parse_player(spec.describe()) == spec
    for bad, words in [
        ("alien", "unknown player"),
        ("engine:level=godlike", "unknown level"),
        ("mcts:iterations=-4", "iterations"),
        ("mcts:depth=3", "bad parameter"),
        ("random:x=1", "bad parameter"),
        ('cmd:"unterminated', "unterminated"),
        ("cmd:", "names no program"),
        ("engine:level=hard,time=1", "not both"),
        ("mcts:playout=win,backend=native", "uniformly random"),
    ]:
        with pytest.raises(ZerosumError, match=words):
            parse_player(bad)


# -- the runner --------------------------------------------------------------------------
def records(setup: MatchSetup, jobs: int = 1) -> list[dict[str, Any]]:
    return list(play_games(setup, jobs))


def without_clock(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "time"}


def test_match_is_reproducible_alternates_colours_and_pairs_openings() -> None:
    setup = MatchSetup(
        game="connect4",
        players=("mcts:iterations=200", "random"),
        games=6,
        seed=11,
        openings=3,
    )
    first = records(setup)
    assert [without_clock(r) for r in first] == [without_clock(r) for r in records(setup)]
    assert [r["a_first"] for r in first] == [True, False] * 3
    for r in first:
        a, b = r["a"], r["b"]
        assert r["players"] == ([a, b] if r["a_first"] else [b, a])
        assert len(r["opening"]) == 3
        assert r["score_a"] == ((r["outcome"] + 1) / 2 if r["a_first"] else (1 - r["outcome"]) / 2)
    for even, odd in zip(first[::2], first[1::2], strict=True):
        assert even["opening"] == odd["opening"] and even["start"] == odd["start"]
    assert len({tuple(r["opening"]) for r in first}) > 1
    other = records(MatchSetup(**{**setup.__dict__, "seed": 12}))
    assert [r["moves"] for r in other] != [r["moves"] for r in first]


def test_parallel_workers_give_the_same_games() -> None:
    setup = MatchSetup(game="tictactoe", players=("mcts:iterations=300", "random"), games=4, seed=3)
    assert [without_clock(r) for r in records(setup, jobs=2)] == [
        without_clock(r) for r in records(setup)
    ]


FAKE_ENGINE = """
import sys
mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ugi":
        print("id name fake"); print("ugiok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "illegal":
            print("bestmove 99", flush=True)
        if mode == "silent":
            pass
    elif words[0] == "quit":
        break
"""


@pytest.mark.parametrize(
    ("mode", "detail"),
    [("crash", "exited with status 3"), ("illegal", "illegal move '99'")],
)
def test_a_failing_engine_loses_with_the_reason_and_the_match_goes_on(
    tmp_path: Path, mode: str, detail: str
) -> None:
    script = tmp_path / "fake.py"
    script.write_text(FAKE_ENGINE)
    program = f'cmd:"{sys.executable} {script} {mode}",time=0.05'
    setup = MatchSetup(game="tictactoe", players=(program, "random"), games=4, seed=1)
    played = records(setup)
    assert len(played) == 4
    for r in played:
        assert r["reason"] == "failure" and detail in r["detail"]
        assert r["score_a"] == 0.0


def test_cli_match_record_and_replay(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    done = run_cli(
        "match", "tictactoe", "mcts:iterations=400", "random",
        "--games", "4", "--seed", "5", "--record", str(record), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 4 and summary["losses"] == 0
    assert summary["wins"] + summary["draws"] == 4
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["type"] == "match" and [g["number"] for g in lines[1:]] == [1, 2, 3, 4]
    shown = run_cli("replay", str(record), "--game", "2")
    assert shown.returncode == 0, shown.stderr
    game = lines[2]
    assert f"Result: {game['result']}" in shown.stdout
    assert "Record (paste into the browser): " + " ".join(game["moves"]) in shown.stdout
    table = run_cli(
        "match", "tictactoe", "random", "random", "--games", "6", "--record",
        str(tmp_path / "t.jsonl"), "--sprt", "elo0=0,elo1=30",
    )  # fmt: skip
    assert table.returncode == 0, table.stderr
    # (a clean sweep says how much weaker at least instead of an Elo difference)
    assert "Elo difference" in table.stdout or "every game" in table.stdout
    assert "SPRT" in table.stdout
    assert "A moving first" in table.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("match", "tictactoe", "alien", "random"),
        ("match", "tictactoe", "random", "random", "--openings", "five"),
        ("match", "tictactoe", "random", "random", "--sprt", "elo0=40"),
        ("replay", "/nonexistent/file.jsonl"),
    ],
)
def test_cli_bad_input_is_one_line_and_status_2(args: tuple[str, ...]) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stderr.startswith("zerosum: error: ") and len(done.stderr.splitlines()) == 1


def test_an_engine_that_never_answers_loses_on_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zerosum.play.agents import ProgramAgent

    monkeypatch.setattr(ProgramAgent, "GRACE", 0.3)
    script = tmp_path / "fake.py"
    script.write_text(FAKE_ENGINE)
    program = f'cmd:"{sys.executable} {script} silent",time=0.05'
    played = records(MatchSetup(game="tictactoe", players=("random", program), games=2))
    for r in played:
        assert r["reason"] == "failure" and "no 'bestmove'" in r["detail"]
        assert r["score_a"] == 1.0


PLAYING_ENGINE = """
import os, sys
log = open(sys.argv[1], "a")
fen = ""
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ugi":
        print("ugiok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "uginewgame":
        log.write(f"{os.getpid()}\\n"); log.flush()
    elif words[0] == "position":
        fen = words[2].replace("/", "")
    elif words[0] == "go":
        print(f"bestmove {fen.index('.')}", flush=True)  # the first empty cell
    elif words[0] == "quit":
        break
"""


def test_a_program_that_played_well_is_kept_for_the_next_game(tmp_path: Path) -> None:
    script = tmp_path / "plays.py"
    script.write_text(PLAYING_ENGINE)
    log = tmp_path / "games.log"
    program = f'cmd:"{sys.executable} {script} {log}",time=0.05'
    played = records(MatchSetup(game="tictactoe", players=(program, "random"), games=4))
    assert all(r["reason"] == "end" for r in played)
    pids = log.read_text().split()
    assert len(pids) == 4 and len(set(pids)) == 1  # one process, four new games
