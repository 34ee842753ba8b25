"""The record with variations (``zerosum.web.record``) on its own.

The independent truth is a plain model with no tree: the record is a list
of whole lines (tuples of moves), most recently current first. The current
line is the first; a move at an earlier point follows the current line when
it is its next move, else takes the most recent line through that move, else
starts a new line; the variations at a ply are the other first moves of the
lines that share the current line up to that ply, each with its most recent
line's continuation, in the order they were first played.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from zerosum.web.record import Record

EMPTY: tuple[int, ...] = ()


def add(state: tuple[int, ...], move: int) -> tuple[int, ...]:
    """The 'game': a state is the sequence of moves that led to it."""
    return (*state, move)


@dataclass
class Model:
    """A list of lines, most recently current first; see the module docstring."""

    lines: list[tuple[int, ...]] = field(default_factory=lambda: [()])
    ply: int = 0
    #: Each line prefix ending in a move, in the order it was first played.
    born: list[tuple[int, ...]] = field(default_factory=list)

    @property
    def current(self) -> tuple[int, ...]:
        return self.lines[0]

    def _make_current(self, line: tuple[int, ...]) -> None:
        self.lines.remove(line)
        self.lines.insert(0, line)

    def play(self, move: int) -> None:
        prefix = (*self.current[: self.ply], move)
        through = [line for line in self.lines if line[: len(prefix)] == prefix]
        if through:
            self._make_current(through[0])
        elif self.ply == len(self.current):
            self.lines[0] = prefix  # the line grows
            self.born.append(prefix)
        else:
            self.lines.insert(0, prefix)
            self.born.append(prefix)
        self.ply += 1

    def switch(self, ply: int, move: int) -> bool:
        prefix = (*self.current[:ply], move)
        through = [line for line in self.lines if line[: len(prefix)] == prefix]
        if not through:
            return False
        self._make_current(through[0])
        self.ply = ply + 1
        return True

    def variations(self) -> list[tuple[int, list[int]]]:
        found = []
        for ply in range(len(self.current)):
            base = self.current[:ply]
            firsts = [
                p[-1] for p in self.born
                if len(p) == ply + 1 and p[:ply] == base and p[-1] != self.current[ply]
            ]
            for move in firsts:
                line = next(x for x in self.lines if x[: ply + 1] == (*base, move))
                found.append((ply, list(line[ply:])))
        return found


def check(record: Record[tuple[int, ...], int], model: Model) -> None:
    assert record.line == list(model.current)
    assert record.ply == model.ply
    assert record.state == model.current[: model.ply]
    assert record.states == [model.current[:p] for p in range(len(model.current) + 1)]
    assert record.variations() == model.variations()


@pytest.mark.parametrize("seed", range(60))
def test_random_play_goto_line_undo_redo_agree_with_the_model(seed: int) -> None:
    rng = random.Random(seed)
    record: Record[tuple[int, ...], int] = Record(add, ())
    model = Model()
    for _step in range(80):
        action = rng.choice(["play", "play", "play", "goto", "line", "undo", "redo"])
        if action == "play":
            move = rng.randrange(3)  # few moves: replays and switches are frequent
            record.play(move)
            model.play(move)
        elif action == "goto":
            ply = rng.randrange(len(model.current) + 1)
            record.goto(ply)
            model.ply = ply
        elif action == "undo" and model.ply > 0:
            record.goto(record.ply - 1)
            model.ply -= 1
        elif action == "redo" and model.ply < len(model.current):
            record.goto(record.ply + 1)
            model.ply += 1
        elif action == "line":
            ply, move = rng.randrange(len(model.current) + 1), rng.randrange(3)
            if model.switch(ply, move):
                record.switch(ply, move)
            else:
                with pytest.raises(KeyError):
                    record.switch(ply, move)
        check(record, model)


OPERATIONS = [("play", 0), ("play", 1), ("goto", 0), ("undo", 0),
              ("line", (0, 0)), ("line", (0, 1)), ("line", (1, 0)), ("line", (1, 1))]


def apply(record: Record[tuple[int, ...], int], model: Model, op: tuple[str, Any]) -> None:
    kind, arg = op
    if kind == "play":
        record.play(arg)
        model.play(arg)
    elif kind == "goto":
        record.goto(arg)
        model.ply = arg
    elif kind == "undo" and model.ply > 0:
        record.goto(record.ply - 1)
        model.ply -= 1
    elif kind == "line":
        ply, move = arg
        if ply <= len(model.current) and model.switch(ply, move):
            record.switch(ply, move)
        else:
            with pytest.raises((KeyError, IndexError)):
                record.switch(ply, move)


def test_every_sequence_of_five_operations_agrees_with_the_model() -> None:
    """Exhaustive on a small alphabet: two moves, the start, undo, and the
    switches at the first two plies (8**5 = 32,768 sequences)."""
    for ops in itertools.product(OPERATIONS, repeat=5):
        record: Record[tuple[int, ...], int] = Record(add, EMPTY)
        model = Model()
        for op in ops:
            apply(record, model, op)
        check(record, model)


def test_playing_the_next_move_of_the_line_keeps_the_rest() -> None:
    record = Record(add, EMPTY, [1, 2, 3])
    record.goto(0)
    record.play(1)
    assert record.line == [1, 2, 3] and record.ply == 1 and record.variations() == []


def test_another_move_keeps_the_old_continuation_as_a_variation() -> None:
    record = Record(add, EMPTY, [1, 2, 3])
    record.goto(1)
    record.play(5)
    assert record.line == [1, 5] and record.ply == 2
    assert record.variations() == [(1, [2, 3])]
    # Back to the old line: it is whole again, the new move now the variation.
    record.switch(1, 2)
    assert record.line == [1, 2, 3] and record.ply == 2
    assert record.variations() == [(1, [5])]
    with pytest.raises(KeyError):
        record.switch(0, 7)
    assert record.line == [1, 2, 3] and record.ply == 2, "a refused switch changes nothing"


def test_a_switch_remembers_each_variations_own_continuation() -> None:
    record = Record(add, EMPTY, [1, 2, 3])
    record.goto(0)
    record.play(4)
    record.play(5)
    record.goto(0)
    record.play(1)  # back on the first line: its rest is still there
    assert record.line == [1, 2, 3]
    record.goto(0)
    record.play(4)
    assert record.line == [4, 5], "the variation's own continuation came back"
    assert record.variations() == [(0, [1, 2, 3])]


def test_tags_follow_the_moves() -> None:
    record = Record(add, EMPTY, [1])
    record.play(2, "ai")
    record.goto(0)
    record.play(1, "human")
    assert record.tags == ["human", "ai"]
    assert record.next_moves(0) == [1] and record.next_moves(2) == []
