"""Match records beside the match runner (issue 26, item 11): the header,
each game's record and the match's summary are built in
:mod:`zerosum.play.records`; ``zerosum match`` only writes and renders them."""

from __future__ import annotations

import json
from pathlib import Path

import zerosum
from zerosum.play.agents import RandomAgent
from zerosum.play.elo import Tally
from zerosum.play.match import play_match
from zerosum.play.records import (
    MatchSetup,
    game_record,
    match_header,
    match_summary,
    read_records,
)
from zerosum.play.runner import play_games


def test_a_records_result_is_the_loops_result_seen_from_player_a() -> None:
    game = zerosum.load("tictactoe")
    played = play_match(game, (RandomAgent(3), RandomAgent(4)))
    assert played.outcome is not None
    for a_first in (True, False):
        record = game_record(game, 0, ("random", "engine"), a_first, 7, [], game.initial_state(),
                             played)
        assert game.play(record["moves"]) == played.final
        assert record["outcome"] == played.outcome
        first_score = (played.outcome + 1) / 2
        assert record["score_a"] == (first_score if a_first else 1 - first_score)
        assert record["players"] == (["random", "engine"] if a_first else ["engine", "random"])


def test_the_file_the_cli_writes_reads_back_and_sums_to_the_summary(tmp_path: Path) -> None:
    setup = MatchSetup(game="tictactoe", players=("random", "random"), games=4, seed=2)
    path = tmp_path / "match.jsonl"
    games = list(play_games(setup))
    path.write_text(
        "\n".join(json.dumps(obj) for obj in [match_header(setup), *games]) + "\n",
        encoding="utf-8",
    )
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert (header["type"], header["games"], header["a"]) == ("match", 4, "random")
    assert read_records(str(path)) == games
    tally, sides = Tally(), {True: Tally(), False: Tally()}
    for entry in games:
        tally = tally.add(entry["score_a"])
        sides[entry["a_first"]] = sides[entry["a_first"]].add(entry["score_a"])
    summary = match_summary(setup, tally, sides, [], str(path), 1.0)
    assert summary["games"] == 4
    assert summary["wins"] == sum(g["score_a"] == 1 for g in games)
    assert summary["losses"] == sum(g["score_a"] == 0 for g in games)
    assert summary["a_first"]["wins"] + summary["a_second"]["wins"] == summary["wins"]
