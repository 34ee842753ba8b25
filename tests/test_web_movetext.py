"""The record's movetext (``zerosum.web.movetext``, ``docs/records.md``):
written with its variations and read back to the same tree."""

from __future__ import annotations

from typing import Any

import pytest

from zerosum.game import ZerosumError
from zerosum.registry import load
from zerosum.web.movetext import format_movetext, parse_movetext
from zerosum.web.record import Record


def c4_record() -> tuple[Any, Record[Any, Any]]:
    """A Connect Four record built by playing (the independent truth): the
    line 4 4 3 5, a variation 3 5 1 instead of the second 4, inside it 2
    instead of 5, and 3 instead of the last 5."""
    game = load("connect4")
    record: Record[Any, Any] = Record(game.result, game.initial_state())
    for word in "4 4 3 5".split():
        record.play(game.parse_move(record.state, word))
    record.goto(1)
    for word in "3 5 1".split():
        record.play(game.parse_move(record.state, word))
    record.goto(2)
    record.play(game.parse_move(record.state, "2"))
    record.switch(2, game.parse_move(record.state_at(2), "5"))
    record.switch(1, game.parse_move(record.state_at(1), "4"))
    record.goto(3)
    record.play(game.parse_move(record.state, "3"))
    record.switch(3, game.parse_move(record.state_at(3), "5"))
    record.goto(len(record))
    return game, record


def test_the_tree_is_written_with_numbers_and_nested_variations() -> None:
    game, record = c4_record()
    assert format_movetext(game, record) == "1. 4 4 (1... 3 2. 5 (2. 2) 2... 1) 2. 3 5 (2... 3)"


def test_the_movetext_reads_back_to_the_same_tree() -> None:
    game, record = c4_record()
    text = format_movetext(game, record)
    again = parse_movetext(game, game.initial_state(), text)
    assert again.line == record.line
    assert again.variations() == record.variations()
    assert format_movetext(game, again) == text
    assert again.ply == len(again)


@pytest.mark.parametrize(
    "text",
    [
        "4 4 3 5", "4435", "1. 4 4 2. 3 5", "1.4 4 2.3 5 *",
        "1. 4 {centre} 4 $1 2. 3 ; a comment\n 5 1-0",
    ],
)
def test_plain_lists_and_move_numbers_are_read(text: str) -> None:
    game = load("connect4")
    record = parse_movetext(game, game.initial_state(), text)
    assert [game.format_move(m) for m in record.line] == ["4", "4", "3", "5"]
    assert record.variations() == []


def test_othello_runs_and_coordinate_pairs_are_moves() -> None:
    game = load("othello")
    record = parse_movetext(game, game.initial_state(), "1. f5d6 (1... f6) 2. c3")
    assert [game.format_move(m) for m in record.line] == ["f5", "d6", "c3"]
    shown = [(p, [game.format_move(m) for m in ms]) for p, ms in record.variations()]
    assert shown == [(1, ["f6"])]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("(4)", "must follow a move"),
        ("4 )", "closes no variation"),
        ("4 (3", "not closed"),
        ("4 9", "column"),
        ("1 1 2 2 3 3 4 4", "after the game is over"),
    ],
)
def test_bad_movetext_is_one_clear_error(text: str, words: str) -> None:
    game = load("connect4")
    with pytest.raises(ZerosumError, match=words):
        parse_movetext(game, game.initial_state(), text)


def test_every_game_writes_movetext_it_reads() -> None:
    """Each registered game's first moves and a variation, written and read
    back: no game's move text clashes with the brackets or the numbers."""
    from zerosum.registry import entries

    for entry in entries():
        game = load(entry.name)
        record: Record[Any, Any] = Record(game.result, game.initial_state())
        for _ in range(3):
            if game.is_terminal(record.state):
                break
            record.play(game.actions(record.state)[0])
        if len(record) >= 1 and len(game.actions(record.state_at(0))) > 1:
            record.goto(0)
            record.play(game.actions(record.state)[-1])
            record.switch(0, record.root.children[0].move)
        record.goto(len(record))
        again = parse_movetext(game, game.initial_state(), format_movetext(game, record))
        assert again.line == record.line, entry.name
        assert again.variations() == record.variations(), entry.name


def test_drop_deletes_a_variation_and_never_the_line_shown() -> None:
    game, record = c4_record()
    line = list(record.line)
    second = record.state_at(1)
    with pytest.raises(ValueError):
        record.drop(1, game.parse_move(second, "4"))  # the line shown
    with pytest.raises(KeyError):
        record.drop(1, game.parse_move(second, "7"))  # never played
    record.drop(1, game.parse_move(second, "3"))
    assert record.line == line
    assert format_movetext(game, record) == "1. 4 4 2. 3 5 (2... 3)"
