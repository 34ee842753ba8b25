"""The page shows scores from one encoding (issue 26 item 9): every object
with a score carries its ``kind`` (``Score.kind``: win, loss, draw,
heuristic; ``win_rate`` for an unproven MCTS move), checked here against an
independent truth: the reference minimax's exact values of tic-tac-toe, and
the words the one formatter wrote."""

from __future__ import annotations

import zerosum
from zerosum.report import analyze_object
from zerosum.search import reference
from zerosum.search.front import Searcher, SearchOptions, analyze
from zerosum.search.types import Limits, Score, loss_in, win_in


def test_a_score_says_what_it_is() -> None:
    assert Score(win_in(3), exact=True).kind == "win"
    assert Score(loss_in(4)).kind == "loss"  # found past a depth limit: still decisive
    assert Score(0, exact=True).kind == "draw"
    assert Score(0).kind == "heuristic"
    assert Score(12, exact=True).kind == "heuristic"  # not a game value: a number


def test_every_tictactoe_move_has_the_kind_of_its_exact_value() -> None:
    game = zerosum.load("tictactoe")
    state = game.play(["0", "1"])
    sent = analyze_object(game, state, analyze(game, state))
    kinds = {1: "win", 0: "draw", -1: "loss"}
    for entry in sent["moves"]:
        after = game.result(state, game.parse_move(state, entry["move"]))
        if game.is_terminal(after):
            value = int(game.utility(after, game.to_move(state)))
        else:
            outcome = reference.analyze(game, after).score.outcome
            assert outcome is not None
            value = -outcome
        assert entry["kind"] == kinds[value], entry
        assert entry["words"].split()[0] == entry["kind"], entry
    assert sent["kind"] == sent["moves"][0]["kind"]


def test_a_depth_limited_connect_four_score_is_heuristic_and_mcts_a_win_rate() -> None:
    game = zerosum.load("connect4")
    state = game.initial_state()
    sent = analyze_object(game, state, analyze(game, state, depth=2))
    assert {entry["kind"] for entry in sent["moves"]} == {"heuristic"}
    searcher = Searcher(game, SearchOptions(algorithm="mcts", seed=1))
    mcts = searcher.analyze(state, Limits(iterations=200))
    entries = analyze_object(game, state, mcts)["moves"]
    assert {entry["kind"] for entry in entries} == {"win_rate"}
    assert all("win rate" in entry["words"] for entry in entries)
